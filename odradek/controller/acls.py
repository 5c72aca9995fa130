"""ACLs in the metadata log (Kafka's AclControlManager, ResourcePatternFilter and AccessControlEntryFilter).

An ACL is kept in the image as its AccessControlEntryRecord by id. CreateAcls writes one record per new
binding (an existing identical binding is not written twice); DeleteAcls writes a
RemoveAccessControlEntryRecord per binding one of its filters matches. The codes are Kafka's
(ResourceType, PatternType, AclOperation, AclPermissionType).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.access_control_entry_record import AccessControlEntryRecord
from odradek.wire.messages.remove_access_control_entry_record import RemoveAccessControlEntryRecord

from .result import MAX_RECORDS_PER_USER_OP

# ResourceType
R_UNKNOWN, R_ANY, TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN, USER = range(8)
# PatternType
P_UNKNOWN, P_ANY, MATCH, LITERAL, PREFIXED = range(5)
# AclOperation
(O_UNKNOWN, O_ANY, ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS,
 ALTER_CONFIGS, IDEMPOTENT_WRITE, CREATE_TOKENS, DESCRIBE_TOKENS, TWO_PHASE_COMMIT) = range(16)
# AclPermissionType
A_UNKNOWN, A_ANY, DENY, ALLOW = range(4)

CLUSTER_NAME = "kafka-cluster"
WILDCARD = "*"
WILDCARD_PRINCIPAL = "User:*"


class AclBinding(NamedTuple):
    resource_type: int
    resource_name: str
    pattern_type: int
    principal: str
    host: str
    operation: int
    permission_type: int


class AclFilter(NamedTuple):
    """Kafka's AclBindingFilter: None name/principal/host match anything; ANY codes too, and
    pattern type MATCH matches the literal, wildcard and prefixed patterns that would apply to the name."""
    resource_type: int
    resource_name: str | None
    pattern_type: int
    principal: str | None
    host: str | None
    operation: int
    permission_type: int


def binding_of(record: AccessControlEntryRecord) -> AclBinding:
    return AclBinding(record.resource_type, record.resource_name, record.pattern_type, record.principal,
                      record.host, record.operation, record.permission_type)


def _pattern_matches(f: AclFilter, b: AclBinding) -> bool:
    """ResourcePatternFilter.matches."""
    if f.resource_type != R_ANY and f.resource_type != b.resource_type:
        return False
    if f.pattern_type not in (P_ANY, MATCH) and f.pattern_type != b.pattern_type:
        return False
    if f.resource_name is None:
        return True
    if f.pattern_type in (P_ANY, b.pattern_type):
        return f.resource_name == b.resource_name
    if b.pattern_type == LITERAL:
        return f.resource_name == b.resource_name or b.resource_name == WILDCARD
    return f.resource_name.startswith(b.resource_name)  # PREFIXED


def matches(f: AclFilter, b: AclBinding) -> bool:
    """AclBindingFilter.matches."""
    return (_pattern_matches(f, b)
            and (f.principal is None or f.principal == b.principal)
            and (f.host is None or f.host == b.host)
            and (f.operation == O_ANY or f.operation == b.operation)
            and (f.permission_type == A_ANY or f.permission_type == b.permission_type))


def replay(acls: dict, record) -> None:
    """Apply an (Remove)AccessControlEntryRecord to a mutable {id: AclBinding}."""
    if isinstance(record, AccessControlEntryRecord):
        acls[bytes(record.id)] = binding_of(record)
    else:
        acls.pop(bytes(record.id), None)


def image_records(acls: Mapping) -> list:
    return [AccessControlEntryRecord(id=i, resource_type=b.resource_type, resource_name=b.resource_name,
                                     pattern_type=b.pattern_type, principal=b.principal, host=b.host,
                                     operation=b.operation, permission_type=b.permission_type)
            for i, b in acls.items()]


def _new_acl_error(b: AclBinding) -> str | None:
    """Kafka's AclApis checks, then AclControlManager.validateNewAcl (INVALID_REQUEST with this message)."""
    if b.resource_type == CLUSTER and b.resource_name != CLUSTER_NAME:
        return f"The only valid name for the CLUSTER resource is {CLUSTER_NAME}"
    if not b.resource_name:
        return "Invalid empty resource name"
    if b.resource_type in (R_UNKNOWN, R_ANY):
        return f"Invalid resourceType {_NAMES['resource'][b.resource_type]}"
    if b.pattern_type not in (LITERAL, PREFIXED):
        return f"Invalid patternType {_NAMES['pattern'][b.pattern_type]}"
    if b.operation in (O_UNKNOWN, O_ANY):
        return f"Invalid operation {_NAMES['operation'][b.operation]}"
    if b.permission_type not in (DENY, ALLOW):
        return f"Invalid permissionType {_NAMES['permission'][b.permission_type]}"
    if ":" not in b.principal:
        return f"expected a string in format principalType:principalName but got {b.principal}"
    return None


def create(acls: Mapping, bindings: list[AclBinding], new_id: Callable[[], bytes]):
    """CreateAcls -> (records, [(error_code, error_message | None)]) in request order."""
    existing = set(acls.values())
    taken = set(acls)
    records: list = []
    results: list = []
    for b in bindings:
        err = _new_acl_error(b)
        if err is not None:
            results.append((int(ErrorCode.INVALID_REQUEST), err))
            continue
        if b not in existing:
            existing.add(b)
            acl_id = new_id()
            while acl_id in taken:
                acl_id = new_id()
            taken.add(acl_id)
            records.append(AccessControlEntryRecord(
                id=acl_id, resource_type=b.resource_type, resource_name=b.resource_name, pattern_type=b.pattern_type,
                principal=b.principal, host=b.host, operation=b.operation, permission_type=b.permission_type))
        results.append((0, None))
    return records, results


def delete(acls: Mapping, filters: list[AclFilter]):
    """DeleteAcls -> (records, [(error_code, error_message | None, [AclBinding deleted])]) per filter."""
    removed: dict[bytes, None] = {}
    results = []
    for f in filters:
        hit = [(i, b) for i, b in acls.items() if matches(f, b)]
        for i, _ in hit:
            removed[i] = None
        if len(removed) > MAX_RECORDS_PER_USER_OP:
            return [], [(int(ErrorCode.UNKNOWN_SERVER_ERROR),
                         f"Cannot remove more than {MAX_RECORDS_PER_USER_OP} acls in a single delete operation.",
                         []) for _ in filters]
        results.append((0, None, [b for _, b in hit]))
    return [RemoveAccessControlEntryRecord(id=i) for i in removed], results


def describe(acls: Mapping, f: AclFilter) -> list[AclBinding]:
    return [b for b in acls.values() if matches(f, b)]


_NAMES = {
    "resource": ("UNKNOWN", "ANY", "TOPIC", "GROUP", "CLUSTER", "TRANSACTIONAL_ID", "DELEGATION_TOKEN", "USER"),
    "pattern": ("UNKNOWN", "ANY", "MATCH", "LITERAL", "PREFIXED"),
    "operation": ("UNKNOWN", "ANY", "ALL", "READ", "WRITE", "CREATE", "DELETE", "ALTER", "DESCRIBE",
                  "CLUSTER_ACTION", "DESCRIBE_CONFIGS", "ALTER_CONFIGS", "IDEMPOTENT_WRITE", "CREATE_TOKENS",
                  "DESCRIBE_TOKENS", "TWO_PHASE_COMMIT"),
    "permission": ("UNKNOWN", "ANY", "DENY", "ALLOW"),
}
