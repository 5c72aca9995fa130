"""What the delegation-token APIs share: Kafka refuses token requests on a connection that was
not authenticated with SASL (PLAINTEXT here) with DELEGATION_TOKEN_REQUEST_NOT_ALLOWED."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode

NOT_ALLOWED = ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
# the principal of every PLAINTEXT connection
PRINCIPAL_TYPE = "User"
PRINCIPAL_NAME = "ANONYMOUS"


def refused(response_cls: type):
    """The handler of RenewDelegationToken and ExpireDelegationToken: NOT_ALLOWED, no expiry."""
    def handle(ctx, request):
        return response_cls(error_code=NOT_ALLOWED, expiry_timestamp_ms=-1, throttle_time_ms=0)
    return handle
