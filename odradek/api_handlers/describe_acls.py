"""DescribeAcls (key 29) v1-3: no authorizer, so SECURITY_DISABLED (as Kafka without authorizer.class.name)."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_acls_response import DescribeAclsResponse

from .acl_common import has_unknown
from .common import CLOSE_CONNECTION

API_KEY = 29
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request):
    if has_unknown(request.resource_type_filter, request.pattern_type_filter, request.operation,
                   request.permission_type):
        return CLOSE_CONNECTION  # Kafka: IllegalArgumentException while parsing
    return DescribeAclsResponse(throttle_time_ms=0, error_code=ErrorCode.SECURITY_DISABLED,
                                error_message="No Authorizer is configured on the broker", resources=[])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeAclsRequest.getErrorResponse."""
    return DescribeAclsResponse(error_code=code, error_message=msg, resources=[])
