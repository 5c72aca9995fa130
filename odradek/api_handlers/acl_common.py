"""What the ACL APIs share: Kafka with no authorizer configured answers SECURITY_DISABLED; with the
StandardAuthorizer the ACLs are the metadata image's (controller/acls.py)."""

from __future__ import annotations

from odradek.controller.acls import AclBinding, AclFilter

UNKNOWN = 0  # ResourceType/PatternType/AclOperation/AclPermissionType UNKNOWN


def has_unknown(*codes: int) -> bool:
    """Kafka refuses to parse an ACL request naming an UNKNOWN element (and closes the connection)."""
    return any(c == UNKNOWN for c in codes)


def binding(c) -> AclBinding:
    """A CreateAcls creation."""
    return AclBinding(c.resource_type, c.resource_name, c.resource_pattern_type, c.principal, c.host,
                      c.operation, c.permission_type)


def acl_filter(f) -> AclFilter:
    """A DescribeAcls request or a DeleteAcls filter."""
    return AclFilter(f.resource_type_filter, f.resource_name_filter, f.pattern_type_filter, f.principal_filter,
                     f.host_filter, f.operation, f.permission_type)
