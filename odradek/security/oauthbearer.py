"""SASL/OAUTHBEARER on the server side as Kafka 4.3's OAuthBearerSaslServer does it, sans-IO.

The client's initial response is RFC 7628's ``n,[a=<authzid>],\\x01auth=Bearer <token>\\x01[k=v\\x01...]\\x01``.
A validator (the unsecured JWS one here, Kafka's default; the signed-JWT one in
security/oauthbearer_jwt.py) turns the token into an ``OAuthToken`` or raises ``TokenRejected``. A
rejected token is answered with a JSON error challenge (``{"status":"invalid_token"}``) and no error;
the client then sends ``\\x01`` and the exchange fails with SASL_AUTHENTICATION_FAILED carrying that
JSON as its message. Extensions are accepted as Kafka's two validator handlers accept them (all of them).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

CONTROL_A = b"\x01"

# RFC 7628 as Kafka's OAuthBearerClientInitialResponse reads it
_SASLNAME = r"(?:[\x01-\x7F](?<![=,])|=2C|=3D)+"
_KEY = r"[A-Za-z]+"
_VALUE = r"[\x21-\x7E \t\r\n]+"
_INITIAL = re.compile(rf"n,(?:a=(?P<authzid>{_SASLNAME}))?,\x01(?P<kvpairs>(?:{_KEY}={_VALUE}\x01)*)\x01", re.S)
_AUTH = re.compile(r"(?P<scheme>\w+) +(?P<token>[-_~+/.a-zA-Z0-9]+=*)")
_SCOPE_ITEM = re.compile(r"[\x23-\x5B\x5D-\x7E\x21]+")


class BadInitialResponse(Exception):
    """Not an OAUTHBEARER client initial response (Kafka: a SaslException, the generic failure).
    ``unanswered``: Kafka fails otherwise there and closes the connection without an answer."""

    def __init__(self, reason: str, unanswered: bool = False):
        super().__init__(reason)
        self.unanswered = unanswered


class TokenRejected(Exception):
    """A token the validator refuses: the JSON error challenge's status (and scope), and why (logged)."""

    def __init__(self, reason: str, status: str = "invalid_token", scope: str | None = None):
        super().__init__(reason)
        self.status = status
        self.scope = scope


class ConfigRefused(ValueError):
    """A validator option Kafka refuses (an OAuthBearerConfigException / ConfigException)."""


@dataclass(frozen=True)
class InitialResponse:
    """An OAUTHBEARER client's first message (RFC 7628): token, authzid, extensions."""
    token: str
    authzid: str
    extensions: dict[str, str]


def parse_initial_response(data: bytes) -> InitialResponse:
    text = data.decode("utf-8", "replace")
    m = _INITIAL.fullmatch(text)
    if m is None:
        raise BadInitialResponse("Invalid OAUTHBEARER client first message")
    pairs = dict(kv.split("=", 1) for kv in m.group("kvpairs").split("\x01") if kv)
    auth = pairs.pop("auth", None)
    if auth is None:
        raise BadInitialResponse("Invalid OAUTHBEARER client first message: 'auth' not specified")
    a = _AUTH.fullmatch(auth)
    if a is None:
        raise BadInitialResponse("Invalid OAUTHBEARER client first message: invalid 'auth' format")
    if a.group("scheme").lower() != "bearer":
        # Kafka 4.3 formats this message with a group its pattern does not have: the exception is not
        # a SaslException and the connection is closed unanswered
        raise BadInitialResponse("Invalid scheme in OAUTHBEARER client first message", unanswered=True)
    return InitialResponse(a.group("token"), m.group("authzid") or "", pairs)


@dataclass(frozen=True)
class OAuthToken:
    """A validated token: its principal name, its expiry (epoch ms) and scope."""
    principal: str
    expires_ms: int
    scope: frozenset[str] = frozenset()
    start_ms: int | None = None


class TokenValidator(Protocol):
    def validate(self, token: str, now_ms: int) -> OAuthToken: ...


def json_error(status: str, scope: str | None = None) -> str:
    """The error challenge as OAuthBearerSaslServer.jsonErrorResponse writes it."""
    out = f'{{"status":"{status}"'
    if scope is not None:
        out += f', "scope":"{scope}"'
    return out + "}"


@dataclass
class OAuthBearerServer:
    """One OAUTHBEARER exchange: ``respond`` each SaslAuthenticate token; ``token`` once complete."""
    validator: TokenValidator
    token: OAuthToken | None = None
    extensions: dict[str, str] = field(default_factory=dict)
    reason: str | None = None  # why the last token was refused (for the log)
    _error: str | None = None  # the JSON challenge sent, awaiting the client's \x01

    def respond(self, data: bytes, now_ms: int) -> tuple[bytes, str | None]:
        """(challenge to send, None) while going on or once complete (``token`` set); raises
        BadInitialResponse for a malformed message; returns (b"", message) when the exchange fails
        with a message Kafka sends to the client verbatim (after the \\x01, or an authzid mismatch)."""
        if data == CONTROL_A and self._error is not None:
            return b"", self._error
        self._error = None
        first = parse_initial_response(data)
        try:
            token = self.validator.validate(first.token, now_ms)
        except TokenRejected as e:
            self.reason = str(e)
            self._error = json_error(e.status, e.scope)
            return self._error.encode(), None
        if first.authzid and first.authzid != token.principal:
            return b"", ("Authentication failed: Client requested an authorization id "
                         f"({first.authzid}) that is different from the token's principal name ({token.principal})")
        self.token = token
        self.extensions = first.extensions
        return b"", None


# ------------------------------------------------------------------ the unsecured JWS validator

def _b64url_json(part: str) -> dict:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        raise TokenRejected("malformed Base64 URL encoded value") from None
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise TokenRejected("malformed JSON") from None
    if not isinstance(value, dict):
        raise TokenRejected("malformed JSON")
    # as Kafka's OAuthBearerUnsecuredJws.convert: arrays become lists of their items' text, numbers
    # stay numbers, anything else becomes its text
    return {k: ([_text(x) for x in v] if isinstance(v, list) else v if _is_number(v) else _text(v))
            for k, v in value.items()}


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _text(v) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (dict, list)):
        return ""  # Jackson's asText() of a container node
    return str(v)


def _seconds_to_ms(v) -> int:
    return int(math.floor(float(v) * 1000 + 0.5))  # Math.round


def parse_scope(space_delimited: str) -> list[str]:
    out = []
    for item in space_delimited.split(" "):
        if item:
            if not _SCOPE_ITEM.fullmatch(item):
                raise ConfigRefused(f"Invalid scope value: {item}")
            out.append(item)
    return out


@dataclass(frozen=True)
class UnsecuredValidator:
    """Kafka's OAuthBearerUnsecuredValidatorCallbackHandler: an unsigned JWS (alg "none"), its principal
    claim (``unsecuredValidatorPrincipalClaimName``, default sub), exp/iat against the clock with
    ``unsecuredValidatorAllowableClockSkewMs``, and ``unsecuredValidatorRequiredScope``. For
    development only, as in Kafka: anyone can write such a token."""
    principal_claim: str = "sub"
    scope_claim: str = "scope"
    required_scope: tuple[str, ...] = ()
    skew_ms: int = 0

    @staticmethod
    def from_jaas_options(options: Mapping[str, str]) -> UnsecuredValidator:
        def opt(name: str) -> str:
            return (options.get("unsecuredValidator" + name) or "").strip()

        skew = opt("AllowableClockSkewMs")
        try:
            skew_ms = int(skew) if skew else 0
        except ValueError:
            raise ConfigRefused(f'For input string: "{skew}"') from None
        if skew_ms < 0:
            raise ConfigRefused(f"Allowable clock skew millis must not be negative: {skew}")
        return UnsecuredValidator(opt("PrincipalClaimName") or "sub", opt("ScopeClaimName") or "scope",
                                  tuple(parse_scope(opt("RequiredScope"))), skew_ms)

    def validate(self, token: str, now_ms: int) -> OAuthToken:
        if ".." in token:
            raise TokenRejected("Malformed compact serialization contains '..'")
        parts = token.split(".")
        if len(parts) != 3:
            raise TokenRejected("Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded values")
        header, claims = _b64url_json(parts[0]), _b64url_json(parts[1])
        if header.get("alg") != "none":
            raise TokenRejected("Unsecured JWS must have 'none' for an algorithm")
        if parts[2]:
            raise TokenRejected("Unsecured JWS must not contain a digital signature")
        scope = self._scope(claims)
        exp = claims.get("exp")
        if exp is None:
            raise TokenRejected("No expiration time in JWT")
        if not _is_number(exp):
            raise TokenRejected(f"The 'exp' claim was not of type Number: {type(exp).__name__}")
        principal = claims.get(self.principal_claim)
        if principal is not None and not isinstance(principal, str):
            raise TokenRejected(f"The '{self.principal_claim}' claim was not of type String")
        if not principal or not principal.strip():
            raise TokenRejected(f"No principal name in JWT claim: {self.principal_claim}")
        iat = claims.get("iat")
        if iat is not None and not _is_number(iat):
            raise TokenRejected(f"The 'iat' claim was not of type Number: {type(iat).__name__}")
        if iat is not None and 1000 * float(iat) > now_ms + self.skew_ms:
            raise TokenRejected(f"The Issued At value ({iat} seconds) was after the indicated time ({now_ms} ms) "
                                f"plus allowable clock skew ({self.skew_ms} ms)")
        if now_ms - self.skew_ms >= 1000 * float(exp):
            raise TokenRejected(f"The indicated time ({now_ms} ms) minus allowable clock skew ({self.skew_ms} ms) "
                                f"was on or after the Expiration Time value ({exp} seconds)")
        if iat is not None and float(exp) <= float(iat):
            raise TokenRejected(f"The Expiration Time time ({exp} seconds) was not after the Issued At time "
                                f"({iat} seconds)")
        for needed in self.required_scope:
            if needed not in scope:
                raise TokenRejected(f"The provided scope ({sorted(scope)}) was missing a required scope ({needed})",
                                    status="insufficient_scope", scope="[" + ", ".join(self.required_scope) + "]")
        return OAuthToken(principal, _seconds_to_ms(exp), scope, None if iat is None else _seconds_to_ms(iat))

    def _scope(self, claims: dict) -> frozenset[str]:
        value = claims.get(self.scope_claim)
        if isinstance(value, str):
            return frozenset({value.strip()}) if value.strip() else frozenset()
        if value is None:
            return frozenset()
        if not isinstance(value, list):
            raise TokenRejected(f"The '{self.scope_claim}' claim was not of type List")
        return frozenset(s.strip() for s in value if s.strip())


# ------------------------------------------------------------------ the broker's own login

LOGIN_FAILED = "javax.security.auth.login.LoginException: An internal error occurred while retrieving token from " \
               "callback handler"


def check_unsecured_login(options: Mapping[str, str]) -> None:
    """A Kafka broker logs in with its listener's OAuthBearerLoginModule too, through the unsecured login
    callback handler: with no options there is no token and that is fine; with options, they must make a
    token (a non-blank ``unsecuredLoginStringClaim_<principal claim>``, a numeric lifetime), else the
    broker does not start. Raises ConfigRefused with Kafka's reason."""
    if not options:
        return
    if all(k.startswith("unsecuredLoginExtension_") for k in options):
        raise ConfigRefused(f"{LOGIN_FAILED}: Extensions provided in login context without a token")
    lifetime = options.get("unsecuredLoginLifetimeSeconds", "3600")
    try:
        int(lifetime)
    except ValueError:
        raise ConfigRefused(f'{LOGIN_FAILED}: For input string: "{lifetime}"') from None
    for reserved in ("iat", "exp"):
        for prefix in ("unsecuredLoginStringClaim_", "unsecuredLoginNumberClaim_", "unsecuredLoginListClaim_"):
            if prefix + reserved in options:
                raise ConfigRefused(f"{LOGIN_FAILED}: Cannot explicitly set the '{reserved}' claim")
    claim = (options.get("unsecuredLoginPrincipalClaimName") or "").strip() or "sub"
    if not (options.get("unsecuredLoginStringClaim_" + claim) or "").strip():
        raise ConfigRefused(f"{LOGIN_FAILED}: No principal name in JWT claim: {claim}")


# ------------------------------------------------------------------ JAAS options

_JAAS_ANY_OPTION = re.compile(r'(?<![\w.])([A-Za-z_][\w.]*)\s*=\s*"((?:[^"\\]|\\.)*)"')


def jaas_options(jaas: str) -> dict[str, str]:
    """Every quoted option of a JAAS config (``name="value"``), as the login module gets them."""
    return {m.group(1): m.group(2).replace('\\"', '"') for m in _JAAS_ANY_OPTION.finditer(jaas)}
