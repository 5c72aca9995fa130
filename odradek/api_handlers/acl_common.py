"""What the ACL APIs share: Kafka with no authorizer configured answers SECURITY_DISABLED."""

from __future__ import annotations

UNKNOWN = 0  # ResourceType/PatternType/AclOperation/AclPermissionType UNKNOWN


def has_unknown(*codes: int) -> bool:
    """Kafka refuses to parse an ACL request naming an UNKNOWN element (and closes the connection)."""
    return any(c == UNKNOWN for c in codes)
