"""DescribeDelegationToken (key 41) v1-3: not allowed on a PLAINTEXT connection (as Kafka)."""

from __future__ import annotations

from odradek.wire.messages.describe_delegation_token_response import DescribeDelegationTokenResponse

from .delegation_tokens import NOT_ALLOWED

API_KEY = 41
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request) -> DescribeDelegationTokenResponse:
    return DescribeDelegationTokenResponse(error_code=NOT_ALLOWED, tokens=[], throttle_time_ms=0)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeDelegationTokenRequest.getErrorResponse."""
    return DescribeDelegationTokenResponse(error_code=code, tokens=[])
