"""DeleteAcls (key 31) v1-3: a RemoveAccessControlEntryRecord for each ACL a filter matches, through
the controller (Kafka's AclControlManager.deleteAcls); SECURITY_DISABLED without an authorizer. ALTER
on the cluster is checked before (api_handlers/authorization.py)."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_acls_response import DeleteAclsFilterResult, DeleteAclsMatchingAcl, DeleteAclsResponse

from .acl_common import acl_filter, has_unknown
from .common import CLOSE_CONNECTION

API_KEY = 31
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request):
    if any(has_unknown(f.resource_type_filter, f.pattern_type_filter, f.operation, f.permission_type)
           for f in request.filters):
        return CLOSE_CONNECTION  # Kafka: IllegalArgumentException while parsing
    if ctx.services.authorizer is None:
        return DeleteAclsResponse(throttle_time_ms=0, filter_results=[
            DeleteAclsFilterResult(error_code=ErrorCode.SECURITY_DISABLED, error_message="No Authorizer is configured.",
                                   matching_acls=[])
            for _ in request.filters])
    results = ctx.services.metadata.delete_acls([acl_filter(f) for f in request.filters],
                                                ctx.now_ms)
    return DeleteAclsResponse(throttle_time_ms=0, filter_results=[
        DeleteAclsFilterResult(error_code=code, error_message=msg, matching_acls=[
            DeleteAclsMatchingAcl(error_code=0, error_message=None, resource_type=b.resource_type,
                                  resource_name=b.resource_name, pattern_type=b.pattern_type, principal=b.principal,
                                  host=b.host, operation=b.operation, permission_type=b.permission_type)
            for b in deleted])
        for code, msg, deleted in results])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteAclsRequest.getErrorResponse."""
    return DeleteAclsResponse(filter_results=[
        DeleteAclsFilterResult(error_code=code, error_message=msg, matching_acls=[])
        for _ in req.filters or ()])
