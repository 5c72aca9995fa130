"""Signed JWTs on OAUTHBEARER, as Kafka 4.3's OAuthBearerValidatorCallbackHandler with its
BrokerJwtValidator (jose4j there, joserfc here): the signature against a key of the JWKS
(``sasl.oauthbearer.jwks.endpoint.url``) picked by ``kid``, any algorithm but ``none``; ``exp`` and
``iat`` required, ``exp`` and ``nbf`` against the clock with ``sasl.oauthbearer.clock.skew.seconds``;
``sasl.oauthbearer.expected.issuer`` and ``sasl.oauthbearer.expected.audience`` (with none expected,
a token naming an audience is refused, as jose4j refuses it); the principal from
``sasl.oauthbearer.sub.claim.name``, the scope from ``sasl.oauthbearer.scope.claim.name``. Every
refusal is ``{"status":"invalid_token"}`` to the client. Pure: the keys come from a ``KeySource``
(broker/jwks.py fetches them)."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from odradek.security.oauthbearer import ConfigRefused, OAuthToken, TokenRejected

# Kafka 4.3's sasl.oauthbearer.jwt.validator.class default (a BrokerJwtValidator once a JWKS URL is set)
DEFAULT_JWT_VALIDATOR = "org.apache.kafka.common.security.oauthbearer.DefaultJwtValidator"
BROKER_JWT_VALIDATOR = "org.apache.kafka.common.security.oauthbearer.BrokerJwtValidator"
ALLOWED_URLS_PROPERTY = "org.apache.kafka.sasl.oauthbearer.allowed.urls"
JWKS_URL = "sasl.oauthbearer.jwks.endpoint.url"

# what jose4j accepts with DISALLOW_NONE and a JWKS of public keys (asymmetric algorithms)
_KTY = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}
ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")


class KeySource(Protocol):
    def keys(self) -> KeySet | None:
        """The JWKS as last fetched (None before the first fetch succeeded)."""

    def missing_kid(self, kid: str | None) -> None:
        """A token named a key the JWKS has not: the source may fetch the JWKS again sooner."""


@dataclass(frozen=True)
class JwtSettings:
    """The sasl.oauthbearer.* settings of a listener (Kafka's defaults)."""
    jwks_url: str
    refresh_ms: int = 3_600_000
    retry_backoff_ms: int = 100
    retry_backoff_max_ms: int = 10_000
    expected_audience: tuple[str, ...] = ()
    expected_issuer: str | None = None
    sub_claim: str = "sub"
    scope_claim: str = "scope"
    clock_skew_s: int = 30

    @staticmethod
    def from_settings(get: Mapping[str, str]) -> JwtSettings:
        """``get``: sasl.oauthbearer.<name> -> value as given for the listener."""
        def num(name: str, default: int, low: int = 0) -> int:
            raw = get.get(f"sasl.oauthbearer.{name}")
            if raw is None:
                return default
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise ConfigRefused(f"Invalid value {raw} for configuration sasl.oauthbearer.{name}: "
                                    "Not a number of type " + ("INT" if name == "clock.skew.seconds" else "LONG"))
            if value < low:
                raise ConfigRefused(f"The OAuth configuration option sasl.oauthbearer.{name} value must be non-negative")
            return value

        url = (get.get(JWKS_URL) or "").strip()
        audience = tuple(a.strip() for a in (get.get("sasl.oauthbearer.expected.audience") or "").split(",")
                         if a.strip())
        issuer = get.get("sasl.oauthbearer.expected.issuer")
        return JwtSettings(url, num("jwks.endpoint.refresh.ms", 3_600_000),
                           num("jwks.endpoint.retry.backoff.ms", 100), num("jwks.endpoint.retry.backoff.max.ms", 10_000),
                           audience, issuer.strip() if issuer and issuer.strip() else None,
                           (get.get("sasl.oauthbearer.sub.claim.name") or "sub").strip() or "sub",
                           (get.get("sasl.oauthbearer.scope.claim.name") or "scope").strip() or "scope",
                           num("clock.skew.seconds", 30))


def check_jwks_url(url: str, allowed: frozenset[str]) -> str:
    """Kafka 4.3's ConfigurationUtils.validateUrl: an http, https or file URL, listed in the
    ``org.apache.kafka.sasl.oauthbearer.allowed.urls`` system property (by default none is). Answers
    the URL's scheme."""
    if not url:
        raise ConfigRefused(f"The OAuth configuration option {JWKS_URL} value is required")
    parts = urlsplit(url)
    if not parts.scheme or ":" not in url:
        raise ConfigRefused(f"The OAuth configuration option {JWKS_URL} contains a URL ({url}) that is malformed: "
                            f"no protocol: {url}")
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https", "file"):
        raise ConfigRefused(f"The OAuth configuration option {JWKS_URL} contains a URL ({url}) that contains an "
                            f'invalid protocol ({parts.scheme}); only "http", "https", and "file" protocol are supported')
    if url not in allowed:
        raise ConfigRefused(f"Invalid value {url} for configuration {JWKS_URL}: The URL cannot be accessed due to "
                            f"restrictions. Update the system property '{ALLOWED_URLS_PROPERTY}' to allow the URL "
                            "to be accessed.")
    return scheme


def allowed_urls(system_properties: Mapping[str, str]) -> frozenset[str]:
    raw = system_properties.get(ALLOWED_URLS_PROPERTY, "")
    return frozenset(u.strip() for u in raw.split(",") if u.strip())


def parse_jwks(data: bytes) -> KeySet:
    """A JWKS document; keys odradek cannot use (another kty, a symmetric key) are skipped, as jose4j
    skips the ones it does not know."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"not a JSON Web Key Set: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("keys"), list):
        raise ValueError("not a JSON Web Key Set: no \"keys\" array")
    usable = [k for k in doc["keys"] if isinstance(k, dict) and k.get("kty") in ("RSA", "EC", "OKP")
              and k.get("use", "sig") == "sig"]
    keys = []
    for k in usable:
        try:
            keys.append(KeySet.import_key_set({"keys": [k]}).keys[0])
        except (JoseError, ValueError, TypeError, KeyError):
            continue
    return KeySet(keys)


def _segment(part: str) -> dict:
    try:
        value = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise TokenRejected("Could not validate the access token: malformed JOSE part") from None
    if not isinstance(value, dict):
        raise TokenRejected("Could not validate the access token: not a JSON object")
    return value


def _number(claims: dict, name: str) -> float | None:
    v = claims.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TokenRejected(f"Could not extract the '{name}' claim from the access token")
    return float(v)


@dataclass(frozen=True)
class JwtValidator:
    settings: JwtSettings
    source: KeySource

    def validate(self, token: str, now_ms: int) -> OAuthToken:
        s = self.settings
        parts = token.strip().split(".")
        if len(parts) != 3 or not all(parts):
            raise TokenRejected("Malformed JWT provided; expected three sections (header, payload, and signature)")
        header = _segment(parts[0])
        alg = header.get("alg")
        if alg not in ALGORITHMS:
            raise TokenRejected(f"Could not validate the access token: algorithm {alg!r} is not allowed")
        kid = header.get("kid")
        keys = self.source.keys()
        candidates = [] if keys is None else [
            k for k in keys.keys
            if (k.kid == kid if kid is not None else k.key_type == _KTY[alg[:2]])
            and k.key_type == _KTY[alg[:2]]]
        if not candidates:
            self.source.missing_kid(kid)
            raise TokenRejected(f"Could not validate the access token: no key for kid {kid!r} and alg {alg}")
        for key in candidates:
            try:
                jws.deserialize_compact(token.strip(), key, algorithms=[alg])
                break
            except JoseError:
                continue
        else:
            raise TokenRejected("Could not validate the access token: JWS signature is invalid")
        claims = _segment(parts[1])
        now_s = now_ms / 1000
        exp, iat, nbf = _number(claims, "exp"), _number(claims, "iat"), _number(claims, "nbf")
        if exp is None:
            raise TokenRejected("Could not validate the access token: No Expiration Time (exp) claim present")
        if iat is None:
            raise TokenRejected("Could not validate the access token: No Issued At (iat) claim present")
        if now_s >= exp + s.clock_skew_s:
            raise TokenRejected(f"Could not validate the access token: The JWT is no longer valid - the evaluation "
                                f"time {now_s} is on or after the Expiration Time (exp={exp})")
        if nbf is not None and now_s + s.clock_skew_s < nbf:
            raise TokenRejected(f"Could not validate the access token: The JWT is not yet valid (nbf={nbf})")
        if s.expected_issuer is not None and claims.get("iss") != s.expected_issuer:
            raise TokenRejected(f"Could not validate the access token: Issuer (iss) claim value "
                                f"({claims.get('iss')}) doesn't match expected value of {s.expected_issuer}")
        self._audience(claims.get("aud"))
        sub = claims.get(s.sub_claim)
        if sub is not None and not isinstance(sub, str):
            raise TokenRejected(f"Could not extract the '{s.sub_claim}' claim from the access token")
        if sub is None or not sub.strip():
            raise TokenRejected(f"{s.sub_claim} value must be non-null" if sub is None
                                else f"{s.sub_claim} value must not contain only whitespace")
        raw_scope = claims.get(s.scope_claim)
        scope = [raw_scope] if isinstance(raw_scope, str) else raw_scope if isinstance(raw_scope, list) else []
        if any(not isinstance(x, str) or not x.strip() for x in scope):
            raise TokenRejected(f"{s.scope_claim} value must be non-empty")
        if exp < 0 or iat < 0:
            raise TokenRejected("exp and iat values must be non-negative")
        return OAuthToken(sub.strip(), int(exp * 1000), frozenset(x.strip() for x in scope), int(iat * 1000))

    def _audience(self, aud) -> None:
        names = [aud] if isinstance(aud, str) else aud if isinstance(aud, list) else None
        expected = self.settings.expected_audience
        if not expected:
            if aud is not None:
                raise TokenRejected(f"Could not validate the access token: Audience (aud) claim {aud} present in the "
                                    "JWT but no expected audience value(s) were provided to the JWT Consumer")
            return
        if names is None:
            raise TokenRejected("Could not validate the access token: No Audience (aud) claim present")
        if not any(n in expected for n in names):
            raise TokenRejected(f"Could not validate the access token: Audience (aud) claim {names} doesn't "
                                f"contain an acceptable identifier. Expected one of {list(expected)} as an aud value")
