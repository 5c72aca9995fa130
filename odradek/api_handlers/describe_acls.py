"""DescribeAcls (key 29) v1-3: the image's ACLs matching the filter, grouped by resource pattern
(Kafka's DescribeAclsResponse.aclsResources); SECURITY_DISABLED without an authorizer. DESCRIBE on the
cluster is checked before (api_handlers/authorization.py)."""

from __future__ import annotations

from odradek.controller import acls
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_acls_response import AclDescription, DescribeAclsResource, DescribeAclsResponse

from .acl_common import acl_filter, has_unknown
from .common import CLOSE_CONNECTION

API_KEY = 29
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request):
    if has_unknown(request.resource_type_filter, request.pattern_type_filter, request.operation,
                   request.permission_type):
        return CLOSE_CONNECTION  # Kafka: IllegalArgumentException while parsing
    if ctx.services.authorizer is None:
        return DescribeAclsResponse(throttle_time_ms=0, error_code=ErrorCode.SECURITY_DISABLED,
                                    error_message="No Authorizer is configured on the broker", resources=[])
    found = acls.describe(ctx.services.metadata.image.acls, acl_filter(request))
    by_pattern: dict[tuple, list] = {}
    for b in sorted(found):
        by_pattern.setdefault((b.resource_type, b.resource_name, b.pattern_type), []).append(
            AclDescription(principal=b.principal, host=b.host, operation=b.operation,
                           permission_type=b.permission_type))
    return DescribeAclsResponse(throttle_time_ms=0, error_code=0, error_message=None, resources=[
        DescribeAclsResource(resource_type=t, resource_name=n, pattern_type=p, acls=entries)
        for (t, n, p), entries in by_pattern.items()])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeAclsRequest.getErrorResponse."""
    return DescribeAclsResponse(error_code=code, error_message=msg, resources=[])
