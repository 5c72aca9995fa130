"""SASL on a SASL_PLAINTEXT listener as Kafka's SaslServerAuthenticator does it, sans-IO: one
``SaslSession`` per connection, fed the SaslHandshake mechanism and then each SaslAuthenticate
token; it answers error codes, messages and tokens, and the principal once authenticated.

Mechanisms: PLAIN (RFC 4616; users from the listener's PlainLoginModule JAAS config,
``user_<name>="<password>"``) and SCRAM-SHA-256 / SCRAM-SHA-512 (RFC 5802 / 7677, against
the credentials kept as metadata records; written here on hmac/hashlib because a library's
policies, e.g. a minimum salt length, would refuse credentials Kafka accepts), and OAUTHBEARER
(security/oauthbearer.py, with the listener's token validator). GSSAPI is not offered (start-up refuses it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from typing import TYPE_CHECKING

from odradek.wire.errors import ErrorCode

if TYPE_CHECKING:  # (security/oauthbearer.py loads with a listener that offers OAUTHBEARER: broker/listeners.py)
    from odradek.security.oauthbearer import OAuthBearerServer, TokenValidator

PLAIN, SCRAM_256, SCRAM_512, OAUTHBEARER = "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"
SUPPORTED = (PLAIN, SCRAM_256, SCRAM_512, OAUTHBEARER)
SCRAM_TYPE = {SCRAM_256: 1, SCRAM_512: 2}  # the mechanism byte of UserScramCredentialRecord
HASHES = {SCRAM_256: hashlib.sha256, SCRAM_512: hashlib.sha512}

# what Kafka's SaslServerAuthenticator sends for any credential failure (details stay in the log)
FAILED = "Authentication failed during authentication due to invalid credentials with SASL mechanism {}"

HANDSHAKE, AUTHENTICATE, DONE, FAILED_STATE = "handshake", "authenticate", "done", "failed"


@dataclass(frozen=True)
class Credential:
    """What a SCRAM server needs of a user (salt, StoredKey, ServerKey, iterations)."""
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int


ScramLookup = Callable[[str, int], Credential | None]  # (user, mechanism byte) -> credential


@dataclass(frozen=True)
class Step:
    """One SaslAuthenticate answer: error (NONE while going on), message, token to send back;
    ``unanswered``: the connection is closed without an answer, as Kafka closes it where its
    authenticator fails with an exception that is not a SASL one."""
    error: ErrorCode
    message: str | None
    token: bytes
    unanswered: bool = False


class SaslSession:
    def __init__(self, enabled: tuple[str, ...], plain_users: Mapping[str, str], scram: ScramLookup,
                 new_nonce: Callable[[], str], oauth: TokenValidator | None = None):
        """new_nonce(): the server's part of a SCRAM nonce (printable, no comma; random). oauth: the
        listener's OAUTHBEARER token validator (None: OAUTHBEARER is not enabled)."""
        self.enabled = enabled
        self.oauth = oauth
        self._oauth_server: OAuthBearerServer | None = None
        self.new_nonce = new_nonce
        self.plain_users = plain_users
        self.scram = scram
        self.state = HANDSHAKE
        self.mechanism: str | None = None
        self.principal: str | None = None  # "User:<name>" once authenticated
        self._scram_server = None
        self._previous: tuple[str | None, str | None] | None = None  # a re-authentication's (mechanism, principal)
        self.mechanism_changed = False  # a re-authentication asked for another mechanism
        self.unframed = False  # after a SaslHandshake v0 the tokens come as bare size-prefixed frames

    def reauthentication(self) -> SaslSession:
        """A new exchange on this authenticated connection (KIP-368): the same mechanism and the
        same principal are required, as Kafka's SaslServerAuthenticator.ReauthInfo."""
        again = SaslSession(self.enabled, self.plain_users, self.scram, self.new_nonce, self.oauth)
        again._previous = (self.mechanism, self.principal)
        return again

    @property
    def authenticated(self) -> bool:
        return self.state == DONE

    @property
    def credential_expiry_ms(self) -> int | None:
        """When the credential expires (an OAUTHBEARER token's exp, epoch ms); None: it does not."""
        s = self._oauth_server
        return s.token.expires_ms if s is not None and s.token is not None else None

    def lifetime_ms(self, max_reauth_ms: int, now_ms: int) -> int | None:
        """The session's lifetime once authenticated, as Kafka's SaslServerAuthenticator: the
        credential's remaining life, connections.max.reauth.ms (when > 0), the smaller of both;
        None when neither applies (the session does not end)."""
        expiry = self.credential_expiry_ms
        if expiry is None:
            return max_reauth_ms if max_reauth_ms > 0 else None
        left = max(0, expiry - now_ms)
        return min(left, max_reauth_ms) if max_reauth_ms > 0 else left

    def handshake(self, mechanism: str) -> ErrorCode:
        """SaslHandshake: NONE and the session waits for tokens; UNSUPPORTED_SASL_MECHANISM (the
        connection is then closed, as Kafka closes it)."""
        if self.state != HANDSHAKE:
            return ErrorCode.ILLEGAL_SASL_STATE
        if mechanism not in self.enabled:
            self.state = FAILED_STATE
            return ErrorCode.UNSUPPORTED_SASL_MECHANISM
        if self._previous is not None and mechanism != self._previous[0]:
            # Kafka answers the handshake, then closes the connection at the SaslAuthenticate
            # ("not supported for re-authentication of mechanism ...")
            self.mechanism_changed = True
        self.mechanism = mechanism
        self.state = AUTHENTICATE
        return ErrorCode.NONE

    def authenticate(self, token: bytes, now_ms: int = 0) -> Step:
        """One SaslAuthenticate token; now_ms: the clock an OAUTHBEARER token is checked against."""
        if self.state == HANDSHAKE:  # "Unexpected Kafka request of type SASL_AUTHENTICATE during SASL handshake"
            self.state = FAILED_STATE
            return Step(ErrorCode.ILLEGAL_SASL_STATE, None, b"", unanswered=True)
        if self.state != AUTHENTICATE:
            return Step(ErrorCode.ILLEGAL_SASL_STATE, "Unexpected SaslAuthenticate request", b"")
        try:
            if self.mechanism == PLAIN:
                return self._plain(token)
            if self.mechanism == OAUTHBEARER:
                return self._oauthbearer(token, now_ms)
            return self._scram(token)
        except _Refused as e:
            self.state = FAILED_STATE
            return Step(ErrorCode.SASL_AUTHENTICATION_FAILED, FAILED.format(self.mechanism), b"",
                        unanswered=e.unanswered)

    def _plain(self, token: bytes) -> Step:
        parts = token.split(b"\x00")
        if len(parts) != 3:
            raise _Refused("not authzid NUL authcid NUL passwd")
        authzid, user, password = (p.decode("utf-8", "replace") for p in parts)
        if not user or (authzid and authzid != user):
            raise _Refused("bad authorization id")
        expected = self.plain_users.get(user)
        if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
            raise _Refused("invalid username or password")
        return self._done(user, b"")

    def _scram(self, token: bytes) -> Step:
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            raise _Refused("not UTF-8") from None
        if self._scram_server is None:
            first = _ScramFirst.parse(text)
            cred = self.scram(first.user, SCRAM_TYPE[self.mechanism])
            if cred is None:
                raise _Refused("unknown user")
            nonce = first.nonce + self.new_nonce()
            server_first = f"r={nonce},s={base64.b64encode(cred.salt).decode()},i={cred.iterations}"
            self._scram_server = (first, cred, nonce, server_first)
            return Step(ErrorCode.NONE, None, server_first.encode())
        first, cred, nonce, server_first = self._scram_server
        without_proof, sep, proof_attr = text.rpartition(",p=")
        attrs = dict(a.split("=", 1) for a in without_proof.split(",") if "=" in a)
        if not sep or attrs.get("r") != nonce or attrs.get("c") != base64.b64encode(first.gs2.encode()).decode():
            raise _Refused("client-final does not match the exchange")
        try:
            proof = base64.b64decode(proof_attr, validate=True)
        except ValueError:
            raise _Refused("bad proof") from None
        h = HASHES[self.mechanism]
        auth_message = f"{first.bare},{server_first},{without_proof}".encode()
        signature = hmac.new(cred.stored_key, auth_message, h).digest()
        if len(proof) != len(signature):  # Kafka's ScramFormatter.xor throws: the connection is closed unanswered
            raise _Refused("bad proof length", unanswered=True)
        client_key = bytes(a ^ b for a, b in zip(proof, signature))
        if not hmac.compare_digest(h(client_key).digest(), cred.stored_key):
            raise _Refused("invalid proof")
        server_signature = hmac.new(cred.server_key, auth_message, h).digest()
        return self._done(first.user, b"v=" + base64.b64encode(server_signature))

    def _oauthbearer(self, token: bytes, now_ms: int) -> Step:
        if self.oauth is None:
            raise _Refused("no token validator")
        from odradek.security.oauthbearer import BadInitialResponse, OAuthBearerServer  # (loaded with self.oauth)

        if self._oauth_server is None:
            self._oauth_server = OAuthBearerServer(self.oauth)
        try:
            challenge, failure = self._oauth_server.respond(token, now_ms)
        except BadInitialResponse as e:
            raise _Refused(str(e), e.unanswered) from None
        if failure is not None:  # sent as it is (Kafka's SaslAuthenticationException)
            self.state = FAILED_STATE
            return Step(ErrorCode.SASL_AUTHENTICATION_FAILED, failure, b"")
        if self._oauth_server.token is None:  # the error challenge: the client answers \x01
            return Step(ErrorCode.NONE, None, challenge)
        return self._done(self._oauth_server.token.principal, b"")

    def _done(self, user: str, token: bytes) -> Step:
        principal = f"User:{user}"
        if self._previous is not None and principal != self._previous[1]:
            self.state = FAILED_STATE
            before = (self._previous[1] or "").replace(":", ".", 1)
            return Step(ErrorCode.SASL_AUTHENTICATION_FAILED, "Cannot change principals during re-authentication "
                        f"from {before}: {principal.replace(':', '.', 1)}", b"")
        self.state = DONE
        self.principal = principal
        return Step(ErrorCode.NONE, None, token)


class _Refused(Exception):
    def __init__(self, reason: str, unanswered: bool = False):
        super().__init__(reason)
        self.unanswered = unanswered


def _saslname(text: str) -> str:
    return text.replace("=2C", ",").replace("=3D", "=")


@dataclass(frozen=True)
class _ScramFirst:
    """A SCRAM client-first message: gs2 header (no channel binding: "n" or "y", then an optional
    a=<authzid>, which must be the user as Kafka's ScramSaslServer requires), then
    n=<saslname>,r=<nonce>[,extensions]. Extension tokenauth=true asks for a delegation token's
    credential: odradek has none, so it fails as Kafka fails an unknown token."""
    gs2: str
    bare: str
    user: str
    nonce: str

    @staticmethod
    def parse(text: str) -> _ScramFirst:
        parts = text.split(",", 2)
        if len(parts) != 3 or parts[0] not in ("n", "y") or not (parts[1] == "" or parts[1].startswith("a=")):
            raise _Refused("bad gs2 header (channel binding is not offered)")
        bare = parts[2]
        attrs = bare.split(",")
        if len(attrs) < 2 or not attrs[0].startswith("n=") or not attrs[1].startswith("r="):
            raise _Refused("bad client-first message")
        user = _saslname(attrs[0][2:])
        nonce = attrs[1][2:]
        if not user or not nonce or not nonce.isprintable() or "," in nonce:
            raise _Refused("bad user or nonce")
        if parts[1] and _saslname(parts[1][2:]) != user:
            raise _Refused("Client requested an authorization id that is different from username")
        extensions = dict(a.split("=", 1) for a in attrs[2:] if "=" in a)
        if extensions.get("tokenauth", "").lower() == "true":
            raise _Refused("delegation tokens are not offered")
        return _ScramFirst(f"{parts[0]},{parts[1]},", bare, user, nonce)


_JAAS_USER = re.compile(r'user_([^=\s]+)\s*=\s*"((?:[^"\\]|\\.)*)"')


_JAAS_OPTION = re.compile(r'(?<![\w.])(username|password)\s*=\s*"((?:[^"\\]|\\.)*)"')


def jaas_credentials(jaas: str) -> tuple[str, str] | None:
    """The username and password options of a JAAS config (a node's own credentials), None without both."""
    found = {m.group(1): m.group(2).replace('\\"', '"') for m in _JAAS_OPTION.finditer(jaas)}
    return (found["username"], found["password"]) if {"username", "password"} <= found.keys() else None


def plain_users(jaas: str) -> dict[str, str]:
    """The users of a PlainLoginModule JAAS config: user_<name>="<password>" options."""
    return {m.group(1): m.group(2).replace('\\"', '"') for m in _JAAS_USER.finditer(jaas)}
