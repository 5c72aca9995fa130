"""Authorization in the request path, as Kafka's KafkaApis / AuthHelper.

``gate`` runs before a handler when an authorizer is configured: the APIs Kafka authorizes with one
cluster operation for the whole request (authorizeClusterOperation) are refused there with
CLUSTER_AUTHORIZATION_FAILED in the API's error response, those that need one group or transactional id
with its error. The other handlers check their resources themselves with ``allowed`` / ``allowed_names``
(TOPIC_/GROUP_/TRANSACTIONAL_ID_AUTHORIZATION_FAILED per resource, as Kafka). With no authorizer
(``ctx.services.authorizer is None``) everything is allowed and nothing here is called.
"""

from __future__ import annotations

from collections.abc import Iterable

from odradek.controller.acls import (ALTER, ALTER_CONFIGS, CLUSTER, CLUSTER_ACTION, CLUSTER_NAME, DELETE, DESCRIBE,
                                     DESCRIBE_CONFIGS, GROUP, IDEMPOTENT_WRITE, READ, TOPIC, TRANSACTIONAL_ID, WRITE)
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
    64: (ALTER,),  # UnregisterBroker
    74: (DESCRIBE_CONFIGS,),  # ListConfigResources (ListClientMetricsResources)
    83: (CLUSTER_ACTION,), 84: (CLUSTER_ACTION,), 85: (CLUSTER_ACTION,), 86: (CLUSTER_ACTION,),  # share state
    87: (CLUSTER_ACTION,),
    # the CONTROLLER listener's node-to-node APIs (Kafka's ControllerApis): AlterPartition, Envelope,
    # BrokerRegistration, BrokerHeartbeat, AllocateProducerIds, AssignReplicasToDirs
    56: (CLUSTER_ACTION,), 58: (CLUSTER_ACTION,), 62: (CLUSTER_ACTION,), 63: (CLUSTER_ACTION,), 67: (CLUSTER_ACTION,),
    73: (CLUSTER_ACTION,),
    # ControllerRegistration, AddRaftVoter, RemoveRaftVoter, UpdateRaftVoter (Kafka's ControllerApis): odradek
    # does not serve them (static voters, controllers not registered; a request closes the connection as
    # any API not offered), so these apply only once one is
    70: (CLUSTER_ACTION,), 80: (ALTER,), 81: (ALTER,), 82: (CLUSTER_ACTION,),
}

# the APIs whose refusal Kafka 4.3 explains as "Request <the request> needs <OPERATION> permission." (the
# ClusterAuthorizationException of its authorizeClusterOperation); the others send no message
_NEEDS = {29: "DESCRIBE", 30: "ALTER", 31: "ALTER", 43: "ALTER", 45: "ALTER", 46: "DESCRIBE", 51: "ALTER",
          64: "ALTER"}

_GROUP_DENIED = ErrorCode.GROUP_AUTHORIZATION_FAILED
_TXN_DENIED = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
# api key -> the resources the whole request needs, checked in order: (operation, resource type, the
# request's resource name, the error of the whole response) - Kafka's checks before each handler
RESOURCE_CHECKS: dict[int, tuple] = {
    11: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # JoinGroup
    12: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # Heartbeat
    13: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # LeaveGroup
    14: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # SyncGroup
    8: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # OffsetCommit (then READ on each topic)
    47: ((DELETE, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # OffsetDelete (then READ on each topic)
    26: ((WRITE, TRANSACTIONAL_ID, lambda r: r.transactional_id, _TXN_DENIED),),  # EndTxn
    25: ((WRITE, TRANSACTIONAL_ID, lambda r: r.transactional_id, _TXN_DENIED),  # AddOffsetsToTxn
         (READ, GROUP, lambda r: r.group_id, _GROUP_DENIED)),
    28: ((WRITE, TRANSACTIONAL_ID, lambda r: r.transactional_id, _TXN_DENIED),  # TxnOffsetCommit
         (READ, GROUP, lambda r: r.group_id, _GROUP_DENIED)),
    78: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # ShareFetch (then READ on each topic)
    79: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # ShareAcknowledge (then READ on each topic)
    91: ((READ, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # AlterShareGroupOffsets
    92: ((DELETE, GROUP, lambda r: r.group_id, _GROUP_DENIED),),  # DeleteShareGroupOffsets
}

def _init_producer_id(ctx: RequestContext, req) -> ErrorCode | None:
    """Kafka 4's rule: a transactional producer needs WRITE on its id; an idempotent one IDEMPOTENT_WRITE
    on the cluster or WRITE on some topic."""
    if req.transactional_id is not None:
        return None if allowed(ctx, WRITE, TRANSACTIONAL_ID, req.transactional_id) else _TXN_DENIED
    if allowed(ctx, IDEMPOTENT_WRITE, CLUSTER, CLUSTER_NAME) or allowed_on_some(ctx, WRITE, TOPIC):
        return None
    return ErrorCode.CLUSTER_AUTHORIZATION_FAILED


def _group_heartbeat(ctx: RequestContext, req) -> ErrorCode | None:
    """Consumer and share group heartbeats: READ on the group, then DESCRIBE on every subscribed topic
    name (Kafka 4's KafkaApis)."""
    if not allowed(ctx, READ, GROUP, req.group_id):
        return _GROUP_DENIED
    names = req.subscribed_topic_names
    if names and len(allowed_names(ctx, DESCRIBE, TOPIC, names)) < len(set(names)):
        return ErrorCode.TOPIC_AUTHORIZATION_FAILED
    return None


def _streams_group_heartbeat(ctx: RequestContext, req) -> ErrorCode | None:
    """READ on the group, then DESCRIBE on every topic its topology names (Kafka 4's KafkaApis; CREATE
    on the internal topics it would create: streams_group_heartbeat.may_create)."""
    if not allowed(ctx, READ, GROUP, req.group_id):
        return _GROUP_DENIED
    names: set[str] = set()
    for s in req.topology.subtopologies if req.topology is not None else ():
        names.update(s.source_topics or ())
        names.update(s.repartition_sink_topics or ())
        names.update(t.name for t in s.repartition_source_topics or ())
        names.update(t.name for t in s.state_changelog_topics or ())
    if len(allowed_names(ctx, DESCRIBE, TOPIC, names)) < len(names):
        return ErrorCode.TOPIC_AUTHORIZATION_FAILED
    return None


def gate(ctx: RequestContext, api_key: int, req) -> ErrorCode | None:
    """The error of the whole response when the request as a whole is not allowed, else None."""
    if ctx.principal is None:
        return None
    checks = RESOURCE_CHECKS.get(api_key)
    if checks is not None:
        for op, rtype, name_of, error in checks:
            if not allowed(ctx, op, rtype, name_of(req)):
                return error
        return None
    if api_key == 22:
        return _init_producer_id(ctx, req)
    if api_key in (68, 76):
        return _group_heartbeat(ctx, req)
    if api_key == 88:
        return _streams_group_heartbeat(ctx, req)
    ops = CLUSTER_OPERATIONS.get(api_key)
    if ops is not None and not any(allowed(ctx, op, CLUSTER, CLUSTER_NAME) for op in ops):
        return ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    return None


def denied_message(ctx: RequestContext, api_key: int, error: ErrorCode) -> str | None:
    """The message of ``gate``'s refusal: Kafka 4.3's text, its request described by what odradek knows
    of it (Kafka's also names its processor, session object and buffer)."""
    op = _NEEDS.get(api_key)
    if op is None or error != ErrorCode.CLUSTER_AUTHORIZATION_FAILED:
        return None
    return (f"Request Request(processor=0, connectionId={ctx.connection_id}, session=Session({ctx.principal},"
            f"/{ctx.client_host}), listenerName=ListenerName({ctx.listener}), buffer=null, envelope=None) "
            f"needs {op} permission.")


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


def group_denied(ctx: RequestContext, op: int, group_id: str) -> ErrorCode | None:
    """GROUP_AUTHORIZATION_FAILED when ``op`` is not allowed on the group (a describe's per-group error)."""
    return None if allowed(ctx, op, GROUP, group_id) else _GROUP_DENIED


def unreadable(ctx: RequestContext, keys: Iterable[tuple[bytes, int]]) -> dict:
    """{(topic id, partition): TOPIC_AUTHORIZATION_FAILED} for the keys of existing topics the principal
    may not READ (ShareFetch, ShareAcknowledge: Kafka's per-partition refusal)."""
    if ctx.services.authorizer is None or ctx.principal is None:
        return {}
    by_id = ctx.services.metadata.image.topics_by_id
    names = {k: by_id[k[0]].name for k in keys if k[0] in by_id}
    ok = allowed_names(ctx, READ, TOPIC, names.values())
    return {k: ErrorCode.TOPIC_AUTHORIZATION_FAILED for k, n in names.items() if n not in ok}


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


# ConfigResource type -> (ACL resource type, the error of a resource refused); BROKER, BROKER_LOGGER and
# CLIENT_METRICS are the cluster's (Kafka's ConfigHelper / KafkaApis)
_CONFIG_RESOURCES = {2: (TOPIC, ErrorCode.TOPIC_AUTHORIZATION_FAILED), 4: (CLUSTER, ErrorCode.CLUSTER_AUTHORIZATION_FAILED),
                     8: (CLUSTER, ErrorCode.CLUSTER_AUTHORIZATION_FAILED),
                     16: (CLUSTER, ErrorCode.CLUSTER_AUTHORIZATION_FAILED), 32: (GROUP, _GROUP_DENIED)}


def config_resource_denied(ctx: RequestContext, op: int, config_type: int, name: str) -> ErrorCode | None:
    """DESCRIBE_CONFIGS / ALTER_CONFIGS on a config resource: its error when refused, else None (an
    unknown type is left to the handler)."""
    kind = _CONFIG_RESOURCES.get(config_type)
    if kind is None:
        return None
    rtype, error = kind
    return None if allowed(ctx, op, rtype, CLUSTER_NAME if rtype == CLUSTER else name) else error
