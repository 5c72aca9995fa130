"""Kafka's StandardAuthorizer (org.apache.kafka.metadata.authorizer.StandardAuthorizer) over the
ACLs of the metadata image (controller/acls.py).

A principal in ``super.users`` may do anything. Otherwise the ACLs that apply to the resource are
the LITERAL ones of its name, the LITERAL wildcard ``*`` and every PREFIXED one whose name starts
the resource's; of those naming the principal (or ``User:*``) and the client's host (or ``*``): a
DENY for the operation (or ALL) wins, then an ALLOW (READ, WRITE, DELETE and ALTER imply DESCRIBE,
ALTER_CONFIGS implies DESCRIBE_CONFIGS, for ALLOW only); with no ACL on the resource at all,
``allow.everyone.if.no.acl.found`` decides; with ACLs on it but none allowing, denied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from odradek.controller.acls import (ALL, ALLOW, ALTER, ALTER_CONFIGS, CLUSTER, CLUSTER_ACTION, CREATE, DELETE, DENY,
                                     DESCRIBE, DESCRIBE_CONFIGS, GROUP, IDEMPOTENT_WRITE, LITERAL, PREFIXED, READ,
                                     TOPIC, WILDCARD, WILDCARD_PRINCIPAL, WRITE, AclBinding)

AUTHORIZER_CLASS = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"

_IMPLIES_DESCRIBE = frozenset({DESCRIBE, READ, WRITE, DELETE, ALTER})
_IMPLIES_DESCRIBE_CONFIGS = frozenset({DESCRIBE_CONFIGS, ALTER_CONFIGS})

# the operations an authorized-operations field reports per resource type (Kafka's AuthHelper)
SUPPORTED_OPERATIONS = {
    TOPIC: (READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS),
    GROUP: (READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS),
    CLUSTER: (CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE),
}


def super_users(value: str) -> frozenset[str]:
    """``super.users``: principals separated by ';' (StandardAuthorizer.getConfiguredSuperUsers)."""
    return frozenset(v.strip() for v in value.split(";") if v.strip())


class _Index:
    """The image's ACLs by (resource type, name): LITERAL and PREFIXED apart, and the prefix lengths
    in use per resource type (a name is looked up once per length)."""

    __slots__ = ("literal", "prefixed", "prefix_lengths", "by_type")

    def __init__(self, acls: Iterable[AclBinding]):
        self.literal: dict[tuple[int, str], list[AclBinding]] = {}
        self.prefixed: dict[tuple[int, str], list[AclBinding]] = {}
        self.prefix_lengths: dict[int, list[int]] = {}
        self.by_type: dict[int, list[AclBinding]] = {}
        for b in acls:
            key = (b.resource_type, b.resource_name)
            if b.pattern_type == LITERAL:
                self.literal.setdefault(key, []).append(b)
            elif b.pattern_type == PREFIXED:
                self.prefixed.setdefault(key, []).append(b)
                lens = self.prefix_lengths.setdefault(b.resource_type, [])
                if len(b.resource_name) not in lens:
                    lens.append(len(b.resource_name))
            self.by_type.setdefault(b.resource_type, []).append(b)

    def applying(self, rtype: int, name: str) -> list:
        """The lists of ACLs on this resource: its LITERAL name, the LITERAL '*', each PREFIXED
        pattern it starts with (None where there is none)."""
        literal = self.literal
        out = [literal.get((rtype, name)), literal.get((rtype, WILDCARD)) if name != WILDCARD else None]
        lengths = self.prefix_lengths.get(rtype)
        if lengths:
            prefixed = self.prefixed
            out += [prefixed.get((rtype, name[:n])) for n in lengths if n <= len(name)]
        return out


def _result(acl: AclBinding, principal: str, host: str, op: int) -> int:
    """StandardAuthorizerData.findResult: ALLOW, DENY or 0 (the ACL says nothing here)."""
    if acl.principal != principal and acl.principal != WILDCARD_PRINCIPAL:
        return 0
    if acl.host != WILDCARD and acl.host != host:
        return 0
    if acl.operation != ALL:
        if acl.permission_type == ALLOW:
            if op == DESCRIBE:
                if acl.operation not in _IMPLIES_DESCRIBE:
                    return 0
            elif op == DESCRIBE_CONFIGS:
                if acl.operation not in _IMPLIES_DESCRIBE_CONFIGS:
                    return 0
            elif op != acl.operation:
                return 0
        elif op != acl.operation:
            return 0
    return acl.permission_type


class StandardAuthorizer:
    def __init__(self, superusers: frozenset[str] = frozenset(), allow_everyone_if_no_acl_found: bool = False):
        self.super_users = superusers
        self.allow_if_no_acl = allow_everyone_if_no_acl_found
        self._source: Mapping | None = None
        self._index = _Index(())

    def _acls(self, acls: Mapping) -> _Index:
        if acls is not self._source:  # a new image's ACLs (the image keeps one mapping until they change)
            self._index = _Index(acls.values())
            self._source = acls
        return self._index

    def is_super_user(self, principal: str) -> bool:
        return principal in self.super_users

    def authorize(self, acls: Mapping, principal: str, host: str, op: int, rtype: int, name: str) -> bool:
        if principal in self.super_users:
            return True
        index = self._index if acls is self._source else self._acls(acls)
        if not index.by_type:
            return self.allow_if_no_acl
        found = allowed = False
        for group in index.applying(rtype, name):
            if group:
                found = True
                for acl in group:
                    r = _result(acl, principal, host, op)
                    if r == DENY:
                        return False
                    if r == ALLOW:
                        allowed = True
        return allowed or (not found and self.allow_if_no_acl)

    def authorize_by_resource_type(self, acls: Mapping, principal: str, host: str, op: int, rtype: int) -> bool:
        """Is ``op`` allowed on at least one resource of the type (Kafka's Authorizer.authorizeByResourceType:
        a wildcard ALLOW, or an ALLOW pattern no DENY pattern covers)."""
        if self.authorize(acls, principal, host, op, rtype, "hardcode"):
            return True
        deny_literal: set[str] = set()
        deny_prefixed: set[str] = set()
        allow: list[tuple[int, str]] = []
        for b in self._acls(acls).by_type.get(rtype, ()):
            if b.host != host and b.host != WILDCARD:
                continue
            if b.principal != principal and b.principal != WILDCARD_PRINCIPAL:
                continue
            if b.operation != op and b.operation != ALL:
                continue
            if b.permission_type == DENY:
                if b.pattern_type == LITERAL:
                    if b.resource_name == WILDCARD:
                        return False
                    deny_literal.add(b.resource_name)
                elif b.pattern_type == PREFIXED:
                    deny_prefixed.add(b.resource_name)
            elif b.permission_type == ALLOW:
                if b.pattern_type == LITERAL and b.resource_name == WILDCARD:
                    return True
                allow.append((b.pattern_type, b.resource_name))
        for pattern, name in allow:
            if pattern == LITERAL and name in deny_literal:
                continue
            if not any(name[:i] in deny_prefixed for i in range(1, len(name) + 1)):
                return True
        return False

    def authorized_operations(self, acls: Mapping, principal: str, host: str, rtype: int, name: str) -> int:
        """An authorized-operations field: bit ``1 << op`` set for each supported operation allowed."""
        bits = 0
        for op in SUPPORTED_OPERATIONS[rtype]:
            if self.authorize(acls, principal, host, op, rtype, name):
                bits |= 1 << op
        return bits
