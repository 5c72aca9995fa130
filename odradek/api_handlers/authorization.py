"""Authorization in the request path, as Kafka's KafkaApis / AuthHelper.

``gate`` runs before a handler when an authorizer is configured: the APIs Kafka authorizes with one
cluster operation for the whole request (authorizeClusterOperation) are refused there with
CLUSTER_AUTHORIZATION_FAILED in the API's error response; the APIs whose per-resource checks odradek
does not have yet are refused the same way for every principal but the super users (never allowed
unchecked). The other handlers check their resources themselves with ``allowed`` / ``allowed_names``
(TOPIC_/GROUP_/TRANSACTIONAL_ID_AUTHORIZATION_FAILED per resource, as Kafka). With no authorizer
(``ctx.services.authorizer is None``) everything is allowed and nothing here is called.
"""

from __future__ import annotations

from collections.abc import Iterable

from odradek.controller.acls import (ALTER, ALTER_CONFIGS, CLUSTER, CLUSTER_ACTION, CLUSTER_NAME, DESCRIBE,
                                     DESCRIBE_CONFIGS)
from odradek.wire.errors import ErrorCode

from .context import RequestContext

# api key -> the cluster operations of which one is needed (Kafka's authorizeClusterOperation)
CLUSTER_OPERATIONS: dict[int, tuple[int, ...]] = {
    27: (ALTER, CLUSTER_ACTION),  # WriteTxnMarkers
    29: (DESCRIBE,),  # DescribeAcls
    30: (ALTER,),  # CreateAcls
    31: (ALTER,),  # DeleteAcls
    34: (ALTER,),  # AlterReplicaLogDirs
    35: (DESCRIBE,),  # DescribeLogDirs
    43: (ALTER,),  # ElectLeaders
    45: (ALTER,),  # AlterPartitionReassignments
    46: (DESCRIBE,),  # ListPartitionReassignments
    48: (DESCRIBE_CONFIGS,),  # DescribeClientQuotas
    49: (ALTER_CONFIGS,),  # AlterClientQuotas
    50: (DESCRIBE,),  # DescribeUserScramCredentials
    51: (ALTER,),  # AlterUserScramCredentials
    55: (DESCRIBE,),  # DescribeQuorum
    57: (ALTER,),  # UpdateFeatures
    83: (CLUSTER_ACTION,), 84: (CLUSTER_ACTION,), 85: (CLUSTER_ACTION,), 86: (CLUSTER_ACTION,),  # share state
    87: (CLUSTER_ACTION,),
}

# APIs served without their per-resource checks yet: super users only
SUPER_USERS_ONLY = frozenset({
    61,  # DescribeProducers (READ on each topic)
    65, 66,  # DescribeTransactions, ListTransactions (DESCRIBE on each transactional id)
    74,  # ListConfigResources
    76, 77, 78, 79, 90, 91, 92,  # share groups
    88, 89,  # streams groups
    # not checked per resource yet in this commit (the next ones do):
    2, 8, 9, 10, 11, 12, 13, 14, 15, 16, 19, 20, 21, 22, 23, 24, 25, 26, 28, 32, 33, 37, 42, 44, 47, 60, 68, 69, 75,
})


def gate(ctx: RequestContext, api_key: int) -> ErrorCode | None:
    """CLUSTER_AUTHORIZATION_FAILED when the request as a whole is not allowed, else None."""
    if ctx.principal is None:
        return None
    ops = CLUSTER_OPERATIONS.get(api_key)
    if ops is not None:
        if not any(allowed(ctx, op, CLUSTER, CLUSTER_NAME) for op in ops):
            return ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    elif api_key in SUPER_USERS_ONLY and not ctx.services.authorizer.is_super_user(ctx.principal):
        return ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    return None


def allowed(ctx: RequestContext, op: int, rtype: int, name: str) -> bool:
    a = ctx.services.authorizer
    return a is None or ctx.principal is None or a.authorize(ctx.services.metadata.image.acls, ctx.principal, ctx.client_host, op, rtype,
                                    name)


def allowed_names(ctx: RequestContext, op: int, rtype: int, names: Iterable[str]) -> set[str]:
    """The names ``op`` is allowed on (Kafka's filterByAuthorized); every name without an authorizer."""
    a = ctx.services.authorizer
    if a is None or ctx.principal is None:
        return set(names)
    acls = ctx.services.metadata.image.acls
    return {n for n in set(names) if a.authorize(acls, ctx.principal, ctx.client_host, op, rtype, n)}


def allowed_on_some(ctx: RequestContext, op: int, rtype: int) -> bool:
    """Kafka's authorizeByResourceType."""
    a = ctx.services.authorizer
    return a is None or ctx.principal is None or a.authorize_by_resource_type(ctx.services.metadata.image.acls, ctx.principal,
                                                     ctx.client_host, op, rtype)


def operations(ctx: RequestContext, rtype: int, name: str, unauthorized_default: int) -> int:
    """An authorized-operations field (``unauthorized_default`` without an authorizer: what odradek
    reported before, every supported operation)."""
    a = ctx.services.authorizer
    if a is None or ctx.principal is None:
        return unauthorized_default
    return a.authorized_operations(ctx.services.metadata.image.acls, ctx.principal, ctx.client_host, rtype, name)
