"""The door of a SASL_PLAINTEXT listener (Kafka's SaslServerAuthenticator at the network layer):
until a connection has authenticated, it may send ApiVersions, SaslHandshake and SaslAuthenticate
only; anything else closes it, as Kafka closes it (in the middle of an exchange, after its error
response ILLEGAL_SASL_STATE). The exchange itself is
odradek/security/sasl.py's SaslSession."""

from __future__ import annotations

import re
from dataclasses import dataclass

from odradek.api_handlers.error_responses import BUILDERS
from odradek.broker.stats import api_name
from odradek.security.sasl import AUTHENTICATE, SaslSession
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.sasl_authenticate_response import SaslAuthenticateResponse
from odradek.wire.messages.sasl_handshake_response import SaslHandshakeResponse

API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE = 18, 17, 36


@dataclass(frozen=True)
class GateAnswer:
    """The gate's answer to a request before authentication completes."""
    response: object | None  # what to send (None: nothing)
    close: bool  # close the connection after sending it
    failed_auth: bool = False  # a failed authentication (closed after connection.failed.authentication.delay.ms)


PASS = None  # the request goes on to its handler


def gate(session: SaslSession, api_key: int, version: int, body, max_reauth_ms: int = 0,
         now_ms: int = 0) -> GateAnswer | None:
    """The answer of a request on a connection not yet authenticated; PASS for ApiVersions.
    ``max_reauth_ms``: connections.max.reauth.ms; the session's lifetime (that, or what is left of an
    OAUTHBEARER token's life if shorter) is told to the client once it has authenticated (KIP-368)."""
    if session.state == AUTHENTICATE and api_key not in (SASL_HANDSHAKE, SASL_AUTHENTICATE):
        # mid-exchange, Kafka's SaslServerAuthenticator answers any other request (ApiVersions too)
        # with its error response and closes the connection
        name = re.sub(r"(?<!^)(?=[A-Z])", "_", api_name(api_key)).upper()
        resp = BUILDERS[api_key](version, body, ErrorCode.ILLEGAL_SASL_STATE,
                                 f"Unexpected Kafka request of type {name} during SASL authentication.")
        return GateAnswer(resp, close=True)
    if api_key == API_VERSIONS:
        return PASS
    if api_key == SASL_HANDSHAKE:
        err = session.handshake(body.mechanism)
        # v0: the tokens follow as bare size-prefixed frames, without Kafka's request header (token_frame)
        session.unframed = version == 0 and err == ErrorCode.NONE
        return GateAnswer(SaslHandshakeResponse(error_code=err, mechanisms=list(session.enabled)),
                          close=err != ErrorCode.NONE)
    if api_key == SASL_AUTHENTICATE:
        if session.mechanism_changed:  # a re-authentication may not change the mechanism: closed unanswered
            return GateAnswer(None, close=True)
        step = session.authenticate(bytes(body.auth_bytes), now_ms)
        if step.unanswered:
            return GateAnswer(None, close=True)
        lifetime = session.lifetime_ms(max_reauth_ms, now_ms) if session.authenticated else None
        resp = SaslAuthenticateResponse(error_code=step.error, error_message=step.message, auth_bytes=step.token,
                                        session_lifetime_ms=lifetime or 0)
        failed = step.error != ErrorCode.NONE
        return GateAnswer(resp, close=failed, failed_auth=step.error == ErrorCode.SASL_AUTHENTICATION_FAILED)
    return GateAnswer(None, close=True)  # "Unexpected Kafka request ... during SASL handshake"


def token_frame(session: SaslSession, token: bytes, now_ms: int = 0) -> GateAnswer:
    """A bare SASL token after a SaslHandshake v0: the answer is the server's token, size-prefixed
    and bare too (GateAnswer.response is then bytes); a failure closes the connection unanswered."""
    step = session.authenticate(token, now_ms)
    if step.error != ErrorCode.NONE:
        return GateAnswer(None, close=True, failed_auth=step.error == ErrorCode.SASL_AUTHENTICATION_FAILED)
    return GateAnswer(step.token, close=False)
