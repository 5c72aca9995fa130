"""ExpireDelegationToken (key 40) v1-2: not allowed on a PLAINTEXT connection (as Kafka)."""

from __future__ import annotations

from odradek.wire.messages.expire_delegation_token_response import ExpireDelegationTokenResponse

from .delegation_tokens import NOT_ALLOWED

API_KEY = 40
MIN_VERSION = 1
MAX_VERSION = 2


def handle(ctx, request) -> ExpireDelegationTokenResponse:
    return ExpireDelegationTokenResponse(error_code=NOT_ALLOWED, expiry_timestamp_ms=-1, throttle_time_ms=0)
