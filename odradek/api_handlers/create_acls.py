"""CreateAcls (key 30) v1-3: AccessControlEntryRecords through the controller (Kafka's AclApis and
AclControlManager); SECURITY_DISABLED without an authorizer. ALTER on the cluster is checked before
(api_handlers/authorization.py)."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.create_acls_response import AclCreationResult, CreateAclsResponse

from .acl_common import binding, has_unknown
from .common import CLOSE_CONNECTION

API_KEY = 30
MIN_VERSION = 1
MAX_VERSION = 3


def handle(ctx, request):
    if any(has_unknown(c.resource_type, c.resource_pattern_type, c.operation, c.permission_type)
           for c in request.creations):
        return CLOSE_CONNECTION  # Kafka: IllegalArgumentException while parsing
    if ctx.services.authorizer is None:
        return CreateAclsResponse(throttle_time_ms=0, results=[
            AclCreationResult(error_code=ErrorCode.SECURITY_DISABLED, error_message="No Authorizer is configured.")
            for _ in request.creations])
    results = ctx.services.metadata.create_acls([binding(c) for c in request.creations], ctx.now_ms)
    return CreateAclsResponse(throttle_time_ms=0, results=[
        AclCreationResult(error_code=code, error_message=msg) for code, msg in results])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's CreateAclsRequest.getErrorResponse."""
    return CreateAclsResponse(results=[
        AclCreationResult(error_code=code, error_message=msg) for _ in req.creations or ()])
