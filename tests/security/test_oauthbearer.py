"""SASL/OAUTHBEARER on the server (security/oauthbearer.py, oauthbearer_jwt.py, through sasl.py's
SaslSession): RFC 7628 client initial responses as Kafka's clients write them, the error challenge and
the client's \\x01, Kafka's unsecured JWS validator and signed JWTs against a JWKS made here."""

from __future__ import annotations

import base64
import json

import pytest
from joserfc import jwt
from joserfc.jwk import ECKey, KeySet, RSAKey

from odradek.security.oauthbearer import (BadInitialResponse, ConfigRefused, UnsecuredValidator, check_unsecured_login,
                                          jaas_options, parse_initial_response)
from odradek.security.oauthbearer_jwt import JwtSettings, JwtValidator, check_jwks_url, parse_jwks
from odradek.security.sasl import FAILED, SaslSession
from odradek.wire.errors import ErrorCode

NOW_MS = 1_800_000_000_000
NOW = NOW_MS // 1000


def b64(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def unsecured(claims: dict, header: dict | None = None) -> str:
    return f"{b64(header or {'alg': 'none'})}.{b64(claims)}."


def initial(token: str, authzid: str = "", **ext: str) -> bytes:
    extensions = "".join(f"{k}={v}\x01" for k, v in ext.items())
    return f"n,{'a=' + authzid if authzid else ''},\x01auth=Bearer {token}\x01{extensions}\x01".encode()


def session(validator) -> SaslSession:
    s = SaslSession(("OAUTHBEARER",), {}, lambda u, m: None, lambda: "n", validator)
    assert s.handshake("OAUTHBEARER") == ErrorCode.NONE
    return s


def test_initial_response_parsed_as_kafka():
    r = parse_initial_response(initial("a.b.c", authzid="alice", traceId="x 1", logicalCluster="lc-1"))
    assert (r.token, r.authzid, r.extensions) == ("a.b.c", "alice", {"traceId": "x 1", "logicalCluster": "lc-1"})
    assert parse_initial_response(b"n,,\x01auth=bearer tok==\x01\x01").token == "tok=="


@pytest.mark.parametrize("data", [b"", b"n,,\x01\x01", b"y,,\x01auth=Bearer t\x01\x01", b"n,,\x01auth=Basic t\x01\x01",
                                  b"n,,\x01auth=Bearer t\x01", b"n,,\x01auth=Bearer a b\x01\x01",
                                  b"n,,\x01auth=Bearer t\x01bad_key=v\x01\x01", b"\xff\xfe"])
def test_malformed_initial_response(data):
    with pytest.raises(BadInitialResponse):
        parse_initial_response(data)
    s = session(UnsecuredValidator())
    step = s.authenticate(data, NOW_MS)
    assert (step.error, step.message) == (ErrorCode.SASL_AUTHENTICATION_FAILED, FAILED.format("OAUTHBEARER"))
    assert step.unanswered == (b"Basic" in data)  # Kafka closes the connection unanswered there


def test_unsecured_token_accepted_with_its_expiry():
    s = session(UnsecuredValidator())
    step = s.authenticate(initial(unsecured({"sub": "alice", "iat": NOW, "exp": NOW + 3600})), NOW_MS)
    assert (step.error, step.token, s.principal) == (ErrorCode.NONE, b"", "User:alice")
    assert s.credential_expiry_ms == (NOW + 3600) * 1000
    # KIP-368 as Kafka: the token's remaining life, or connections.max.reauth.ms when smaller
    assert s.lifetime_ms(0, NOW_MS) == 3_600_000
    assert s.lifetime_ms(60_000, NOW_MS) == 60_000
    assert s.lifetime_ms(9_000_000, NOW_MS) == 3_600_000


@pytest.mark.parametrize("claims,status", [
    ({"sub": "alice", "exp": NOW - 1}, "invalid_token"),  # expired
    ({"sub": "alice"}, "invalid_token"),  # no exp
    ({"exp": NOW + 60}, "invalid_token"),  # no principal
    ({"sub": " ", "exp": NOW + 60}, "invalid_token"),
    ({"sub": "alice", "exp": NOW + 60, "iat": NOW + 30}, "invalid_token"),  # issued in the future
    ({"sub": "alice", "exp": "soon"}, "invalid_token"),
])
def test_unsecured_token_refused_with_the_error_challenge(claims, status):
    s = session(UnsecuredValidator())
    step = s.authenticate(initial(unsecured(claims)), NOW_MS)
    assert (step.error, step.token, s.authenticated) == (ErrorCode.NONE, f'{{"status":"{status}"}}'.encode(), False)
    final = s.authenticate(b"\x01", NOW_MS)
    assert (final.error, final.message) == (ErrorCode.SASL_AUTHENTICATION_FAILED, f'{{"status":"{status}"}}')


def test_unsecured_token_signed_or_not_alg_none_refused():
    s = session(UnsecuredValidator())
    bad = unsecured({"sub": "a", "exp": NOW + 60}, {"alg": "RS256"})
    assert s.authenticate(initial(bad), NOW_MS).token == b'{"status":"invalid_token"}'
    assert s.authenticate(initial(unsecured({"sub": "a", "exp": NOW + 60}) + "sig"), NOW_MS).token \
        == b'{"status":"invalid_token"}'


def test_unsecured_options_from_jaas():
    opts = jaas_options('org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required '
                        'unsecuredValidatorPrincipalClaimName="user" unsecuredValidatorScopeClaimName="scp" '
                        'unsecuredValidatorRequiredScope="read write" unsecuredValidatorAllowableClockSkewMs="5000";')
    v = UnsecuredValidator.from_jaas_options(opts)
    assert v == UnsecuredValidator("user", "scp", ("read", "write"), 5000)
    # the clock skew lets a token 4 s past its expiry through
    ok = session(v).authenticate(initial(unsecured({"user": "bob", "scp": ["read", "write"], "exp": NOW - 4})), NOW_MS)
    assert ok.error == ErrorCode.NONE
    s = session(v)
    missing = s.authenticate(initial(unsecured({"user": "bob", "scp": "read", "exp": NOW + 60})), NOW_MS)
    assert missing.token == b'{"status":"insufficient_scope", "scope":"[read, write]"}'
    with pytest.raises(ConfigRefused):
        UnsecuredValidator.from_jaas_options({"unsecuredValidatorAllowableClockSkewMs": "-1"})


def test_authzid_must_be_the_principal():
    s = session(UnsecuredValidator())
    step = s.authenticate(initial(unsecured({"sub": "alice", "exp": NOW + 60}), authzid="bob"), NOW_MS)
    assert step.error == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert step.message == ("Authentication failed: Client requested an authorization id (bob) that is different "
                            "from the token's principal name (alice)")


def test_reauthentication_keeps_the_principal():
    s = session(UnsecuredValidator())
    assert s.authenticate(initial(unsecured({"sub": "alice", "exp": NOW + 60})), NOW_MS).error == ErrorCode.NONE
    again = s.reauthentication()
    again.handshake("OAUTHBEARER")
    step = again.authenticate(initial(unsecured({"sub": "bob", "exp": NOW + 60})), NOW_MS)
    assert step.error == ErrorCode.SASL_AUTHENTICATION_FAILED and "Cannot change principals" in step.message
    third = s.reauthentication()
    third.handshake("OAUTHBEARER")
    assert third.authenticate(initial(unsecured({"sub": "alice", "exp": NOW + 90})), NOW_MS).error == ErrorCode.NONE
    assert third.credential_expiry_ms == (NOW + 90) * 1000


# ------------------------------------------------------------------ signed tokens

class Keys:
    def __init__(self, keyset):
        self.keyset = keyset
        self.missing: list = []

    def keys(self):
        return self.keyset

    def missing_kid(self, kid):
        self.missing.append(kid)


@pytest.fixture(scope="module")
def signer():
    rsa = RSAKey.generate_key(2048, parameters={"kid": "rsa-1"}, private=True)
    ec = ECKey.generate_key("P-256", parameters={"kid": "ec-1"}, private=True)
    other = RSAKey.generate_key(2048, parameters={"kid": "rsa-1"}, private=True)  # same kid, another key
    public = {"keys": [rsa.as_dict(private=False), ec.as_dict(private=False), {"kty": "oct", "k": "c2VjcmV0"}]}
    return rsa, ec, other, parse_jwks(json.dumps(public).encode())


def signed(key, claims: dict, alg: str = "RS256", kid: str | None = "rsa-1") -> str:
    header = {"alg": alg, **({"kid": kid} if kid else {})}
    return jwt.encode(header, claims, key)


def claims(**extra):
    return {"sub": "alice", "iat": NOW, "exp": NOW + 600, "iss": "https://idp", "aud": "kafka", **extra}


def validator(keyset, **settings) -> JwtValidator:
    base = {"jwks_url": "file:///x", "expected_audience": ("kafka",), "expected_issuer": "https://idp"}
    return JwtValidator(JwtSettings(**{**base, **settings}), Keys(keyset))


def test_signed_token_accepted(signer):
    rsa, ec, _, keyset = signer
    assert len(keyset.keys) == 2  # the symmetric key is skipped
    v = validator(keyset)
    tok = v.validate(signed(rsa, claims(scope="read write")), NOW_MS)
    assert (tok.principal, tok.expires_ms, tok.scope) == ("alice", (NOW + 600) * 1000, frozenset({"read write"}))
    assert v.validate(signed(ec, claims(), "ES256", "ec-1"), NOW_MS).principal == "alice"
    assert v.validate(signed(ec, claims(), "ES256", None), NOW_MS).principal == "alice"  # no kid: by key type
    custom = validator(keyset, sub_claim="client_id")
    assert custom.validate(signed(rsa, claims(client_id="svc-1")), NOW_MS).principal == "svc-1"
    s = session(v)
    assert s.authenticate(initial(signed(rsa, claims())), NOW_MS).error == ErrorCode.NONE
    assert s.principal == "User:alice" and s.lifetime_ms(0, NOW_MS) == 600_000


@pytest.mark.parametrize("case", ["mis-signed", "unknown kid", "expired", "wrong audience", "no audience",
                                  "wrong issuer", "no iat", "alg none", "not yet valid", "no sub", "garbage"])
def test_signed_token_refused(signer, case):
    rsa, ec, other, keyset = signer
    v = validator(keyset)
    token = {
        "mis-signed": lambda: signed(other, claims()),
        "unknown kid": lambda: signed(rsa, claims(), kid="rsa-2"),
        "expired": lambda: signed(rsa, claims(exp=NOW - 31)),  # past the 30 s skew
        "wrong audience": lambda: signed(rsa, claims(aud=["other"])),
        "no audience": lambda: signed(rsa, {k: v for k, v in claims().items() if k != "aud"}),
        "wrong issuer": lambda: signed(rsa, claims(iss="https://evil")),
        "no iat": lambda: signed(rsa, {k: v for k, v in claims().items() if k != "iat"}),
        "alg none": lambda: unsecured(claims()),
        "not yet valid": lambda: signed(rsa, claims(nbf=NOW + 120)),
        "no sub": lambda: signed(rsa, {k: v for k, v in claims().items() if k != "sub"}),
        "garbage": lambda: "abc.def.ghi",
    }[case]()
    s = session(v)
    step = s.authenticate(initial(token), NOW_MS)
    assert (step.error, step.token) == (ErrorCode.NONE, b'{"status":"invalid_token"}')
    assert s.authenticate(b"\x01", NOW_MS).error == ErrorCode.SASL_AUTHENTICATION_FAILED
    if case == "unknown kid":
        assert v.source.missing == ["rsa-2"]  # asks the JWKS to be fetched again


def test_expired_within_skew_and_audience_rules(signer):
    rsa, _, _, keyset = signer
    assert validator(keyset).validate(signed(rsa, claims(exp=NOW - 29)), NOW_MS).principal == "alice"
    open_aud = validator(keyset, expected_audience=())  # none expected: a token naming one is refused (jose4j)
    from odradek.security.oauthbearer import TokenRejected
    with pytest.raises(TokenRejected):
        open_aud.validate(signed(rsa, claims()), NOW_MS)
    no_aud = {k: v for k, v in claims().items() if k != "aud"}
    assert open_aud.validate(signed(rsa, no_aud), NOW_MS).principal == "alice"


def test_settings_and_urls():
    s = JwtSettings.from_settings({"sasl.oauthbearer.jwks.endpoint.url": "https://idp/jwks",
                                   "sasl.oauthbearer.expected.audience": "a, b", "sasl.oauthbearer.clock.skew.seconds": "5"})
    assert (s.expected_audience, s.clock_skew_s, s.sub_claim, s.refresh_ms) == (("a", "b"), 5, "sub", 3_600_000)
    assert check_jwks_url("https://idp/jwks", frozenset({"https://idp/jwks"})) == "https"
    with pytest.raises(ConfigRefused, match="org.apache.kafka.sasl.oauthbearer.allowed.urls"):
        check_jwks_url("https://idp/jwks", frozenset())
    with pytest.raises(ConfigRefused, match="invalid protocol"):
        check_jwks_url("ftp://idp/jwks", frozenset({"ftp://idp/jwks"}))
    with pytest.raises(ValueError):
        parse_jwks(b'{"no": 1}')
    assert isinstance(parse_jwks(b'{"keys": []}'), KeySet)


def test_the_brokers_own_unsecured_login_as_kafka():
    check_unsecured_login({})  # no options: no token, fine
    check_unsecured_login({"unsecuredLoginStringClaim_sub": "broker", "unsecuredValidatorRequiredScope": "x"})
    check_unsecured_login({"unsecuredLoginPrincipalClaimName": "u", "unsecuredLoginStringClaim_u": "broker"})
    for options, reason in [({"unsecuredValidatorRequiredScope": "x"}, "No principal name in JWT claim: sub"),
                            ({"unsecuredLoginExtension_a": "1"}, "Extensions provided in login context without a token"),
                            ({"unsecuredLoginStringClaim_sub": "b", "unsecuredLoginLifetimeSeconds": "x"}, "For input"),
                            ({"unsecuredLoginStringClaim_sub": "b", "unsecuredLoginNumberClaim_exp": "1"}, "'exp'")]:
        with pytest.raises(ConfigRefused, match=reason):
            check_unsecured_login(options)


# ------------------------------------------------------------------ configuration

JAAS_LOGIN = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required ;"
HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"


def _config(**props):
    from odradek.config import BrokerConfig

    base = {"listeners": "SASL_PLAINTEXT://127.0.0.1:9093,PLAINTEXT://127.0.0.1:9092",
            "inter.broker.listener.name": "PLAINTEXT", "sasl.enabled.mechanisms": "OAUTHBEARER",
            "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config": JAAS_LOGIN}
    return BrokerConfig.from_properties({k: v for k, v in {**base, **props}.items() if v is not None})


def test_configuration_refusals():
    from odradek.config import ConfigError

    with pytest.raises(ConfigError, match="Could not find a 'KafkaServer' or 'sasl_plaintext.KafkaServer'"):
        _config(**{"listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config": None})
    with pytest.raises(ConfigError, match="ClassNotFoundException: com.example.Mine"):
        _config(**{"listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class": "com.example.Mine"})
    cfg = _config(**{"listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class": HANDLER,
                     "sasl.oauthbearer.expected.issuer": "https://idp",
                     "listener.name.sasl_plaintext.sasl.oauthbearer.jwks.endpoint.url": "https://idp/jwks"})
    assert cfg.oauth("SASL_PLAINTEXT") == {"sasl.oauthbearer.expected.issuer": "https://idp",
                                           "sasl.oauthbearer.jwks.endpoint.url": "https://idp/jwks"}


def test_listener_validators(monkeypatch, tmp_path):
    from odradek.broker.listeners import served_listeners
    from odradek.config import ConfigError
    from odradek.security.oauthbearer_jwt import JwtValidator

    assert isinstance(served_listeners(_config())[0].oauth, UnsecuredValidator)
    jwks = tmp_path / "jwks.json"
    jwks.write_text('{"keys": []}')
    signed = _config(**{"listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class": HANDLER,
                        "sasl.oauthbearer.jwks.endpoint.url": jwks.as_uri()})
    monkeypatch.delenv("KAFKA_OPTS", raising=False)
    with pytest.raises(ConfigError, match="Update the system property 'org.apache.kafka.sasl.oauthbearer.allowed.urls'"):
        served_listeners(signed)
    monkeypatch.setenv("KAFKA_OPTS", f"-Xmx1G -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls={jwks.as_uri()}")
    assert isinstance(served_listeners(signed)[0].oauth, JwtValidator)
    no_url = _config(**{"listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class": HANDLER})
    with pytest.raises(ConfigError, match="requires the JWKS URL"):
        served_listeners(no_url)
    jwks.unlink()
    with pytest.raises(ConfigError, match="doesn't exist"):
        served_listeners(signed)


# ------------------------------------------------------------------ any bytes

from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300),
                 st.builds(lambda tok, ext: initial(tok, **ext), st.text(max_size=80),
                           st.dictionaries(st.text("abcXYZ", min_size=1, max_size=5), st.text(max_size=10), max_size=3))))
def test_any_initial_response_is_answered_never_raises(data):
    """Whatever a client sends, the exchange answers (a challenge or Kafka's failure) and grants nothing
    it should not: an unsigned token of a listener checking signatures is never accepted."""
    for validator in (UnsecuredValidator(), JwtValidator(JwtSettings("file:///x"), Keys(KeySet([])))):
        s = session(validator)
        step = s.authenticate(data, NOW_MS)
        assert step.error in (ErrorCode.NONE, ErrorCode.SASL_AUTHENTICATION_FAILED)
        if isinstance(validator, JwtValidator):
            assert not s.authenticated
        if step.error == ErrorCode.NONE and not s.authenticated:
            final = s.authenticate(b"\x01", NOW_MS)
            assert final.error == ErrorCode.SASL_AUTHENTICATION_FAILED and not s.authenticated
