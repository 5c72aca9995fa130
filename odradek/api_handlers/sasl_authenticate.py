"""SaslAuthenticate (key 36) v0-2 on a PLAINTEXT listener: ILLEGAL_SASL_STATE, as Kafka."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.sasl_authenticate_response import SaslAuthenticateResponse

API_KEY = 36
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, request) -> SaslAuthenticateResponse:
    return SaslAuthenticateResponse(
        error_code=ErrorCode.ILLEGAL_SASL_STATE,
        error_message="SaslAuthenticate request received after successful authentication",
        auth_bytes=b"", session_lifetime_ms=0)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's SaslAuthenticateRequest.getErrorResponse."""
    return SaslAuthenticateResponse(error_code=code, error_message=msg, auth_bytes=b"")
