"""SASL/OAUTHBEARER with stock clients, as Kafka 4.3 serves it. One broker, four listeners:
PLAINTEXT (a super user reads back), UNSECURED (SASL_PLAINTEXT, Kafka's default unsecured JWS
validator), SIGNED (SASL_SSL, OAuthBearerValidatorCallbackHandler against a JWKS file, expected
audience and issuer) and ROTATING (SASL_PLAINTEXT, the same handler against a JWKS served over HTTPS
by the test, trusted through the JAAS options' ssl.truststore.*, keys rotated). The StandardAuthorizer sees the token's subject as the principal. Keys and
certificates are made by the test. Clients: Java kafka-clients (Kafka's console producer with the
unsecured login module), confluent-kafka (unsecured JWT and an oauth_cb with signed tokens),
kafka-python and aiokafka (token providers). Expired, mis-signed, wrong-audience and wrong-issuer
tokens fail with the client's own authentication error and the broker goes on serving the others.

ODRADEK_OAUTH_REF=1 runs the same module against Apache Kafka 4.3 (bench/kafka_ref.KafkaBroker, with
``-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls`` on its JVM; odradek reads the same property from
``KAFKA_OPTS``)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.server
import json
import os
import ssl
import threading
import time

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AdminClient, \
    ResourcePatternType, ResourceType
from joserfc import jwt
from joserfc.jwk import RSAKey

from harness import BrokerProcess, RawClient, create_topic, free_port, read_to_end, wait_for_topic
from tls_certs import TestCA
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest

ISSUER, AUDIENCE = "https://idp.odradek.test", "kafka-cluster"
HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
LOGIN = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
TOPIC = "oauth-records"
INVALID = '{"status":"invalid_token"}'


def _b64(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def unsecured_token(sub: str, life_s: int = 600, scope: str | None = "produce") -> str:
    now = int(time.time())
    claims = {"sub": sub, "iat": now, "exp": now + life_s, **({"scope": scope} if scope else {})}
    return f"{_b64({'alg': 'none'})}.{_b64(claims)}."


class Keys:
    """The test's identity provider: signing keys, a JWKS file and a JWKS served over HTTPS (a
    certificate of the test's CA)."""

    def __init__(self, directory, ca: TestCA):
        self.good = RSAKey.generate_key(2048, parameters={"kid": "k1"}, private=True)
        self.rogue = RSAKey.generate_key(2048, parameters={"kid": "k1"}, private=True)  # same kid, not published
        self.next = RSAKey.generate_key(2048, parameters={"kid": "k2"}, private=True)  # published later (rotation)
        self.file = directory / "jwks.json"
        self.file.write_text(json.dumps(self.jwks(self.good)))
        self.served = json.dumps(self.jwks(self.good)).encode()
        self.requests = 0
        keys = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                keys.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(keys.served)))
                self.end_headers()
                self.wfile.write(keys.served)

            def log_message(self, *args):
                pass

        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(*ca.issue("jwks-server", "localhost", server=True))
        self.http.socket = tls.wrap_socket(self.http.socket, server_side=True)
        self.url = f"https://localhost:{self.http.server_address[1]}/jwks"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    @staticmethod
    def jwks(*keys) -> dict:
        return {"keys": [k.as_dict(private=False) for k in keys]}

    def publish(self, *keys) -> None:
        self.served = json.dumps(self.jwks(*keys)).encode()

    def token(self, sub: str = "alice", key=None, life_s: int = 600, **claims) -> str:
        key = key or self.good
        now = int(time.time())
        body = {"sub": sub, "iat": now, "exp": now + life_s, "iss": ISSUER, "aud": AUDIENCE, **claims}
        return jwt.encode({"alg": "RS256", "kid": key.kid}, body, key)


def settings(ports, ca: TestCA, keys: Keys) -> dict[str, str]:
    p0, p1, p2, p3 = ports
    names = "PLAINTEXT:PLAINTEXT,UNSECURED:SASL_PLAINTEXT,SIGNED:SASL_SSL,ROTATING:SASL_PLAINTEXT"
    signed = {"sasl.oauthbearer.expected.audience": AUDIENCE, "sasl.oauthbearer.expected.issuer": ISSUER}
    return {
        "listeners": f"PLAINTEXT://127.0.0.1:{p0},UNSECURED://127.0.0.1:{p1},SIGNED://127.0.0.1:{p2},"
                     f"ROTATING://127.0.0.1:{p3}",
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{p0},UNSECURED://127.0.0.1:{p1},SIGNED://localhost:{p2},"
                                f"ROTATING://127.0.0.1:{p3}",
        "listener.security.protocol.map": names, "inter.broker.listener.name": "PLAINTEXT",
        "sasl.enabled.mechanisms": "OAUTHBEARER",
        "listener.name.unsecured.oauthbearer.sasl.jaas.config": f'{LOGIN} unsecuredLoginStringClaim_sub="broker" '
                                                                'unsecuredValidatorRequiredScope="produce";',
        "listener.name.signed.oauthbearer.sasl.jaas.config": f"{LOGIN} ;",
        "listener.name.signed.oauthbearer.sasl.server.callback.handler.class": HANDLER,
        "listener.name.signed.sasl.oauthbearer.jwks.endpoint.url": keys.file.as_uri(),
        **{f"listener.name.signed.{k}": v for k, v in signed.items()},
        # the JWKS endpoint's TLS trust from the JAAS options, as Kafka takes it (and, as on Kafka, JAAS
        # options make the broker's own unsecured login need a subject)
        "listener.name.rotating.oauthbearer.sasl.jaas.config": f'{LOGIN} unsecuredLoginStringClaim_sub="broker" '
                                                                f'ssl.truststore.type="PEM" '
                                                                f'ssl.truststore.location="{ca.ca_file}";',
        "listener.name.rotating.oauthbearer.sasl.server.callback.handler.class": HANDLER,
        "listener.name.rotating.sasl.oauthbearer.jwks.endpoint.url": keys.url,
        **{f"listener.name.rotating.{k}": v for k, v in signed.items()},
        # an unencrypted key: Java's PEM keystore cannot read the PBES2-encrypted one
        "ssl.keystore.type": "PEM", "ssl.keystore.location": str(ca.keystore_pem("broker", "localhost")),
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:ANONYMOUS",
        "group.initial.rebalance.delay.ms": "0", "offsets.topic.replication.factor": "1",
    }


class Setup:
    def __init__(self, ports, ca, keys):
        self.ports, self.ca, self.keys = ports, ca, keys
        self.plaintext = f"127.0.0.1:{ports[0]}"

    def conf(self, listener: str, **more) -> dict:
        port = {"UNSECURED": self.ports[1], "SIGNED": self.ports[2], "ROTATING": self.ports[3]}[listener]
        out = {"bootstrap.servers": f"127.0.0.1:{port}", "sasl.mechanism": "OAUTHBEARER",
               "security.protocol": "SASL_SSL" if listener == "SIGNED" else "SASL_PLAINTEXT", **more}
        if listener == "SIGNED":
            out["ssl.ca.location"] = str(self.ca.ca_file)
        return out

    def signed_conf(self, listener: str, token: str) -> dict:
        def oauth_cb(_config):
            claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
            return token, float(claims["exp"])

        return self.conf(listener, oauth_cb=oauth_cb)


@contextlib.contextmanager
def _kafka_opts(value: str):
    before = os.environ.get("KAFKA_OPTS")
    os.environ["KAFKA_OPTS"] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ["KAFKA_OPTS"]
        else:
            os.environ["KAFKA_OPTS"] = before


@pytest.fixture(scope="module")
def oauth(tmp_path_factory):
    certs = tmp_path_factory.mktemp("oauth-certs")
    ca = TestCA(certs)
    keys = Keys(certs, ca)
    ports = (free_port(), free_port(), free_port(), free_port())
    props = settings(ports, ca, keys)
    allowed = f"-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls={keys.file.as_uri()},{keys.url}"
    data = str(tmp_path_factory.mktemp("oauth"))
    if os.environ.get("ODRADEK_OAUTH_REF"):
        from bench.kafka_ref import KAFKA_TEST_JVM, KafkaBroker

        class OAuthKafka(KafkaBroker):
            def properties(self, cport: int) -> str:
                self.extra.update({
                    "listeners": props["listeners"] + f",CONTROLLER://127.0.0.1:{cport}",
                    "listener.security.protocol.map": props["listener.security.protocol.map"]
                    + ",CONTROLLER:PLAINTEXT"})
                return super().properties(cport)

        broker = OAuthKafka(data, port=ports[0], extra=props, jvm=[*KAFKA_TEST_JVM, allowed])
    else:
        broker = BrokerProcess(data, props, port=ports[0])
    try:  # (a broker that fails to start is stopped too)
        with _kafka_opts(allowed):  # odradek reads the system property from KAFKA_OPTS; Kafka from its JVM options
            broker.start()
        create_topic(f"127.0.0.1:{ports[0]}", TOPIC)
        wait_for_topic(f"127.0.0.1:{ports[0]}", TOPIC)
        admin = AdminClient({"bootstrap.servers": f"127.0.0.1:{ports[0]}"})
        acls = [AclBinding(ResourceType.TOPIC, TOPIC, ResourcePatternType.LITERAL, f"User:{who}", "*",
                           AclOperation.WRITE, AclPermissionType.ALLOW) for who in ("alice", "carol")]
        for f in admin.create_acls(acls).values():
            f.result(30)
        everything = AclBindingFilter(ResourceType.TOPIC, TOPIC, ResourcePatternType.LITERAL, None, None,
                                      AclOperation.ANY, AclPermissionType.ANY)
        deadline = time.monotonic() + 30  # the broker's authorizer has them once DescribeAcls shows them
        while len(admin.describe_acls(everything).result(30)) < len(acls):
            assert time.monotonic() < deadline
        yield Setup(ports, ca, keys)
    finally:
        broker.stop()
        keys.http.shutdown()


def produce(conf: dict, value: bytes) -> tuple[list, list]:
    """(delivery errors, client errors) of one record sent with these settings."""
    seen, delivered = [], []
    p = Producer({**conf, "error_cb": seen.append, "message.timeout.ms": 8000, "enable.idempotence": False})
    p.produce(TOPIC, value, on_delivery=lambda err, msg: delivered.append(err))
    p.flush(12)
    return delivered, seen


def auth_errors(conf: dict) -> tuple[list, list]:
    """(authentication errors, records delivered) of a producer with these settings: it is stopped as
    soon as the client reports its authentication error (no waiting for the record to time out)."""
    seen, delivered = [], []
    p = Producer({**conf, "error_cb": seen.append, "enable.idempotence": False})
    p.produce(TOPIC, b"never-delivered", on_delivery=lambda err, msg: delivered.append(err))
    deadline = time.monotonic() + 30
    while not any(e.code() == KafkaError._AUTHENTICATION for e in seen) and time.monotonic() < deadline:
        p.poll(0.1)
    p.purge()
    p.flush(5)
    return [e for e in seen if e.code() == KafkaError._AUTHENTICATION], [d for d in delivered if d is None]


def values(setup: Setup) -> list[bytes]:
    return [v.encode() for v in read_to_end(setup.plaintext, TOPIC)[0]]


def test_unsecured_tokens_confluent_and_java(oauth):
    ok = oauth.conf("UNSECURED", **{"enable.sasl.oauthbearer.unsecure.jwt": True,
                                     "sasl.oauthbearer.config": "principal=alice scope=produce"})
    delivered, seen = produce(ok, b"unsecured-confluent")
    assert delivered == [None], (delivered, seen)
    # the subject is the principal the authorizer sees: mallory has no ACL
    mallory = {**ok, "sasl.oauthbearer.config": "principal=mallory scope=produce"}
    delivered, _ = produce(mallory, b"never")
    assert delivered and delivered[0] is not None and delivered[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    # Java kafka-clients: Kafka's console producer with the unsecured login module
    cfg = oauth.keys.file.parent / "java-unsecured.properties"
    cfg.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n"
                   f'sasl.jaas.config={LOGIN} unsecuredLoginStringClaim_sub="carol" '
                   'unsecuredLoginStringClaim_scope="produce";\n')
    r = subprocess_tool_produce(oauth.conf("UNSECURED")["bootstrap.servers"], cfg, "unsecured-java")
    assert r.returncode == 0, r.stderr[-3000:]
    got = values(oauth)
    assert b"unsecured-confluent" in got and b"unsecured-java" in got and b"never" not in got


def subprocess_tool_produce(bootstrap: str, cfg, value: str, *system_properties: str):
    """Kafka's console producer (Java kafka-clients 4.3) sending one record with these client settings."""
    import subprocess

    from apache_kafka import missing, tool_command

    if missing():
        pytest.skip(missing())
    cmd = tool_command("console-producer", "--bootstrap-server", bootstrap, "--topic", TOPIC, "--command-config",
                       str(cfg))
    cmd[1:1] = system_properties  # JVM options: java -D... (as KAFKA_OPTS gives them)
    return subprocess.run(cmd, input=value + "\n", capture_output=True, text=True, timeout=120)


def test_signed_tokens_over_sasl_ssl_every_client(oauth):
    k = oauth.keys
    delivered, seen = produce(oauth.signed_conf("SIGNED", k.token("alice")), b"signed-confluent")
    assert delivered == [None], (delivered, seen)

    from kafka import KafkaProducer
    from kafka.net.sasl.oauth import AbstractTokenProvider

    class Provider(AbstractTokenProvider):
        def token(self):
            return k.token("alice")

    kp = KafkaProducer(bootstrap_servers=oauth.conf("SIGNED")["bootstrap.servers"], security_protocol="SASL_SSL",
                       sasl_mechanism="OAUTHBEARER", sasl_oauth_token_provider=Provider(),
                       ssl_cafile=str(oauth.ca.ca_file), ssl_check_hostname=False)
    kp.send(TOPIC, b"signed-kafka-python").get(30)
    kp.close()

    async def aio():
        from aiokafka import AIOKafkaProducer
        from aiokafka.abc import AbstractTokenProvider as AioProvider
        from aiokafka.helpers import create_ssl_context

        class AioTokens(AioProvider):
            async def token(self):
                return k.token("alice")

        p = AIOKafkaProducer(bootstrap_servers=oauth.conf("SIGNED")["bootstrap.servers"], security_protocol="SASL_SSL",
                             sasl_mechanism="OAUTHBEARER", sasl_oauth_token_provider=AioTokens(),
                             ssl_context=create_ssl_context(cafile=str(oauth.ca.ca_file)))
        await p.start()
        try:
            await p.send_and_wait(TOPIC, b"signed-aiokafka")
        finally:
            await p.stop()

    asyncio.run(aio())
    # Java kafka-clients: Kafka 4.3's login callback handler reading the signed token from a file
    token_file = k.file.parent / "java-token.jwt"
    token_file.write_text(k.token("alice"))
    cfg = k.file.parent / "java-signed.properties"
    cfg.write_text("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
                   "sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer."
                   "OAuthBearerLoginCallbackHandler\n"
                   f"sasl.oauthbearer.token.endpoint.url={token_file.as_uri()}\n"
                   f"sasl.jaas.config={LOGIN} ;\nssl.truststore.type=PEM\nssl.truststore.location={oauth.ca.ca_file}\n")
    r = subprocess_tool_produce(oauth.conf("SIGNED")["bootstrap.servers"], cfg, "signed-java",
                                f"-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls={token_file.as_uri()}",
                                f"-Dorg.apache.kafka.sasl.oauthbearer.allowed.files={token_file}")
    assert r.returncode == 0, r.stderr[-3000:]
    got = values(oauth)
    assert {b"signed-confluent", b"signed-kafka-python", b"signed-aiokafka", b"signed-java"} <= set(got)


@pytest.mark.parametrize("case", ["expired", "mis-signed", "wrong audience", "wrong issuer", "unsecured"])
def test_bad_tokens_fail_cleanly_and_others_go_on(oauth, case):
    k = oauth.keys
    token = {"expired": lambda: k.token(life_s=-120), "mis-signed": lambda: k.token(key=k.rogue),
             "wrong audience": lambda: k.token(aud="another-cluster"), "wrong issuer": lambda: k.token(iss="https://x"),
             "unsecured": lambda: unsecured_token("alice")}[case]()
    conf = oauth.signed_conf("SIGNED", token)
    if case == "expired":  # librdkafka does not send a token it knows expired: claim a later expiry to it
        conf = {**oauth.conf("SIGNED"), "oauth_cb": lambda _c: (token, time.time() + 600)}
    auth, delivered = auth_errors(conf)
    assert auth and not delivered
    assert INVALID in auth[0].str()
    ok, _ = produce(oauth.signed_conf("SIGNED", k.token("alice")), f"after-{case}".encode())
    assert ok == [None]


def login(raw: RawClient, token: str):
    assert raw.call(SaslHandshakeRequest(mechanism="OAUTHBEARER"), 1).error_code == 0
    return raw.call(SaslAuthenticateRequest(auth_bytes=f"n,,\x01auth=Bearer {token}\x01\x01".encode()), 2)


def test_raw_exchange_error_challenge_and_token_lifetime(oauth):
    port = oauth.ports[1]
    raw = RawClient(f"127.0.0.1:{port}")
    try:
        first = login(raw, unsecured_token("alice", life_s=-60))
        assert (first.error_code, bytes(first.auth_bytes)) == (0, INVALID.encode())
        final = raw.call(SaslAuthenticateRequest(auth_bytes=b"\x01"), 2)
        assert (final.error_code, final.error_message) == (58, INVALID)  # SASL_AUTHENTICATION_FAILED
        assert raw.is_closed_by_peer()
    finally:
        raw.close()
    raw = RawClient(f"127.0.0.1:{port}")
    try:
        auth = login(raw, unsecured_token("alice", life_s=3))
        assert auth.error_code == 0 and 0 < auth.session_lifetime_ms <= 3000  # the token's remaining life
        deadline = time.monotonic() + 20
        with pytest.raises(ConnectionError):  # closed at the first request past the token's expiry
            while time.monotonic() < deadline:
                raw.call(ApiVersionsRequest(client_software_name="oauth", client_software_version="1"), 3)
                time.sleep(0.2)
    finally:
        raw.close()


def authenticate(port: int, auth_bytes: bytes):
    raw = RawClient(f"127.0.0.1:{port}")
    try:
        assert raw.call(SaslHandshakeRequest(mechanism="OAUTHBEARER"), 1).error_code == 0
        return raw.call(SaslAuthenticateRequest(auth_bytes=auth_bytes), 2)
    finally:
        raw.close()


def test_raw_refusals_answered_as_kafka(oauth):
    port = oauth.ports[1]
    alice = unsecured_token("alice")
    with pytest.raises(ConnectionError):  # another scheme than Bearer: Kafka closes the connection unanswered
        authenticate(port, b"n,,\x01auth=Basic YWxpY2U=\x01\x01")
    bad = authenticate(port, b"n,,\x01traceId=t-1\x01\x01")  # no auth=
    assert (bad.error_code, bad.error_message) == (
        58, "Authentication failed during authentication due to invalid credentials with SASL mechanism OAUTHBEARER")
    other = authenticate(port, f"n,a=bob,\x01auth=Bearer {alice}\x01\x01".encode())
    assert (other.error_code, other.error_message) == (58, "Authentication failed: Client requested an authorization "
                                                           "id (bob) that is different from the token's principal "
                                                           "name (alice)")
    extensions = authenticate(port, f"n,a=alice,\x01auth=Bearer {alice}\x01traceId=t-1\x01\x01".encode())
    assert extensions.error_code == 0
    no_scope = authenticate(port, f"n,,\x01auth=Bearer {unsecured_token('alice', scope=None)}\x01\x01".encode())
    assert (no_scope.error_code, bytes(no_scope.auth_bytes)) == (
        0, b'{"status":"insufficient_scope", "scope":"[produce]"}')


def test_reauthentication_at_most_once_a_second(oauth):
    raw = RawClient(f"127.0.0.1:{oauth.ports[1]}")
    try:
        assert login(raw, unsecured_token("alice")).error_code == 0
        again = login(raw, unsecured_token("alice", life_s=300))  # a re-authentication: a new session
        assert again.error_code == 0 and 290_000 < again.session_lifetime_ms <= 300_000
        # within a second of the last one: not a re-authentication but a request (Kafka's KafkaChannel)
        soon = raw.call(SaslHandshakeRequest(mechanism="OAUTHBEARER"), 1)
        assert (soon.error_code, soon.mechanisms) == (34, [])  # ILLEGAL_SASL_STATE
        assert raw.call(ApiVersionsRequest(client_software_name="oauth", client_software_version="1"), 3).error_code == 0
    finally:
        raw.close()


def test_jwks_over_https_follows_a_key_rotation(oauth):
    k = oauth.keys
    ok, _ = produce(oauth.signed_conf("ROTATING", k.token("alice")), b"rotating-k1")
    assert ok == [None]
    k.publish(k.good, k.next)  # the provider rotates: tokens signed by k2 appear
    deadline = time.monotonic() + 60
    while True:  # the first k2 token makes the broker fetch the JWKS again (not waiting for the refresh period)
        delivered, seen = produce(oauth.signed_conf("ROTATING", k.token("alice", key=k.next)), b"rotating-k2")
        if delivered == [None]:
            break
        assert time.monotonic() < deadline, seen
    assert b"rotating-k2" in values(oauth)


def test_sessions_end_with_their_tokens_and_librdkafka_reauthenticates(oauth):
    """KIP-368 with OAUTHBEARER: no connections.max.reauth.ms is set, the session lasts as long as the
    token; librdkafka fetches a fresh token (oauth_cb) and re-authenticates, records keep flowing."""
    life_s = 3
    tokens, errors, delivered = [], [], []

    def oauth_cb(_config):
        tokens.append(oauth.keys.token("alice", life_s=life_s))
        return tokens[-1], time.time() + life_s

    p = Producer({**oauth.conf("SIGNED"), "oauth_cb": oauth_cb, "linger.ms": 0, "error_cb": errors.append})
    deadline = time.monotonic() + 2 * life_s + 1
    n = 0
    while time.monotonic() < deadline:  # a record every 200 ms over more than two token lifetimes
        p.produce(TOPIC, b"reauth-%d" % n, on_delivery=lambda err, msg: delivered.append(err))
        n += 1
        p.poll(0.2)
    assert p.flush(30) == 0
    assert len(delivered) == n and all(e is None for e in delivered), delivered
    assert len(tokens) >= 2  # the first token and at least one fresh one, used to re-authenticate
    # no token refused. librdkafka may hand a re-authentication a token already near its end: the
    # session it gets is short and its next re-authentication comes within a second, which Kafka's
    # broker (and odradek) answer ILLEGAL_SASL_STATE; or the session's end cuts one short (a transport
    # failure). librdkafka reports those as authentication errors and reconnects: no refusal of a token
    refused = [e for e in errors if "invalid_token" in e.str() or "Authentication failed" in e.str()]
    assert not refused, refused
