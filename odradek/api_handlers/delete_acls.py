"""DeleteAcls (key 31) v1-3: no authorizer, so every filter fails with SECURITY_DISABLED."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_acls_response import DeleteAclsFilterResult, DeleteAclsResponse

from .acl_common import has_unknown
from .common import CLOSE_CONNECTION

API_KEY = 31
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request):
    if any(has_unknown(f.resource_type_filter, f.pattern_type_filter, f.operation, f.permission_type)
           for f in request.filters):
        return CLOSE_CONNECTION  # Kafka: IllegalArgumentException while parsing
    return DeleteAclsResponse(throttle_time_ms=0, filter_results=[
        DeleteAclsFilterResult(error_code=ErrorCode.SECURITY_DISABLED, error_message="No Authorizer is configured.",
                               matching_acls=[])
        for _ in request.filters])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteAclsRequest.getErrorResponse."""
    return DeleteAclsResponse(filter_results=[
        DeleteAclsFilterResult(error_code=code, error_message=msg, matching_acls=[])
        for _ in req.filters or ()])
