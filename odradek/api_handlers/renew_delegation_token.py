"""RenewDelegationToken (key 39) v1-2: not allowed on a PLAINTEXT connection (as Kafka)."""

from __future__ import annotations

from odradek.wire.messages.renew_delegation_token_response import RenewDelegationTokenResponse

from .delegation_tokens import NOT_ALLOWED

API_KEY = 39
MIN_VERSION = 1
MAX_VERSION = 2


def handle(ctx, request) -> RenewDelegationTokenResponse:
    return RenewDelegationTokenResponse(error_code=NOT_ALLOWED, expiry_timestamp_ms=-1, throttle_time_ms=0)
