"""SaslHandshake (key 17) v0-1 on a PLAINTEXT listener: the connection is already authenticated
(as ANONYMOUS), so Kafka answers ILLEGAL_SASL_STATE with no mechanisms."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.sasl_handshake_response import SaslHandshakeResponse

API_KEY = 17
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request) -> SaslHandshakeResponse:
    return SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's SaslHandshakeRequest.getErrorResponse."""
    return SaslHandshakeResponse(error_code=code, mechanisms=[])
