"""CreateDelegationToken (key 38) v1-3: not allowed on a PLAINTEXT connection (as Kafka)."""

from __future__ import annotations

from odradek.wire.messages.create_delegation_token_response import CreateDelegationTokenResponse

from .delegation_tokens import NOT_ALLOWED, PRINCIPAL_NAME, PRINCIPAL_TYPE

API_KEY = 38
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request) -> CreateDelegationTokenResponse:
    return CreateDelegationTokenResponse(
        error_code=NOT_ALLOWED, principal_type=PRINCIPAL_TYPE, principal_name=PRINCIPAL_NAME,
        token_requester_principal_type=PRINCIPAL_TYPE, token_requester_principal_name=PRINCIPAL_NAME,
        issue_timestamp_ms=-1, expiry_timestamp_ms=-1, max_timestamp_ms=-1, token_id="", hmac=b"",
        throttle_time_ms=0)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's CreateDelegationTokenRequest.getErrorResponse."""
    # KafkaPrincipal.ANONYMOUS as owner and requester; no token.
    return CreateDelegationTokenResponse(
        error_code=code, principal_type="User", principal_name="ANONYMOUS",
        token_requester_principal_type="User", token_requester_principal_name="ANONYMOUS",
        issue_timestamp_ms=-1, expiry_timestamp_ms=-1, max_timestamp_ms=-1, token_id="", hmac=b"")
