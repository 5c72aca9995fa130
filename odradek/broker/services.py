"""The ports handlers see (api_handlers/ports.py), built from the broker's parts in one place:
``broker_services`` for the broker listener (single node or a broker of a quorum) and
``controller_services`` for a quorum's CONTROLLER listener.

Each adapter binds the methods of the part it wraps, so a handler's call costs what it cost
when it reached the part directly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from odradek.api_handlers.fetch_session import FetchSessionCache
from odradek.api_handlers.ports import UNKNOWN_PARTITION, Node, Services
from odradek.coordinator.errors import CoordinatorError
from odradek.coordinator.group_model import SHARE
from odradek.wire.errors import ErrorCode

log = logging.getLogger(__name__)

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})


class LeaderPartitions:
    """ports.Partitions over the ReplicaManager: the logs led here; for any other partition
    the ReplicaManager's NotLed (NOT_LEADER_OR_FOLLOWER with the image's leader, or
    KAFKA_STORAGE_ERROR for an offline log, or UNKNOWN_TOPIC_OR_PARTITION)."""

    def __init__(self, replicas):
        self.leader_log = replicas.leader_log
        self.consumer_log = replicas.consumer_log
        self.preferred_read_replica = replicas.preferred_read_replica
        self.leader_epoch = replicas.leader_epoch
        self.check_append = replicas.check_append
        self.append = replicas.append
        self.acks_reached = replicas.acks_reached
        self.follower_fetch = replicas.follower_fetch
        self.replication_throttled = replicas.replication_throttled
        self.replication_sent = replicas.replication_sent
        self.epoch_end_offset = replicas.epoch_end_offset
        self.delete_records = replicas.delete_records
        self.low_watermark = replicas.low_watermark


class NoPartitions:
    """ports.Partitions of a node without the broker role: it leads no partition."""

    def leader_log(self, topic: str, partition: int, current_leader_epoch: int = -1):
        return UNKNOWN_PARTITION

    def consumer_log(self, topic: str, partition: int, current_leader_epoch: int = -1):
        return UNKNOWN_PARTITION

    def preferred_read_replica(self, topic: str, partition: int, client_rack, fetch_offset: int,
                               now_ms: int) -> int:
        return -1

    def leader_epoch(self, topic: str, partition: int) -> int:
        return -1

    def check_append(self, topic: str, partition: int, acks: int) -> ErrorCode:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION

    def replication_throttled(self, topic: str, partition: int, replica_id: int, now_ms: int) -> bool:
        return False

    def replication_sent(self, topic: str, partition: int, nbytes: int, now_ms: int) -> None:
        return None

    def append(self, topic, partition, record_set, now_ms, log=None, coordinator=False, flush_later=False):
        raise LookupError(f"{topic}-{partition} is not led here")

    def acks_reached(self, topic: str, partition: int, required_offset: int) -> tuple[bool, ErrorCode]:
        return False, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION

    def follower_fetch(self, topic: str, partition: int, fetch, now_ms: int):
        return UNKNOWN_PARTITION

    def epoch_end_offset(self, topic: str, partition: int, current_leader_epoch: int, leader_epoch: int):
        return UNKNOWN_PARTITION

    def delete_records(self, topic: str, partition: int, offset: int):
        raise LookupError(f"{topic}-{partition} is not led here")

    def low_watermark(self, topic: str, partition: int):
        return UNKNOWN_PARTITION


class LocalLogDirs:
    """ports.LogDirs over the LogManager (stray logs are set aside on disk, not listed)."""

    def __init__(self, log_manager):
        self.log_dirs = list(log_manager.log_dirs)
        self.list = log_manager.list
        self.get = log_manager.get
        self.disk_space = log_manager.disk_space


class ControllerMetadata:
    """ports.Metadata over the Controller: local on a single node, the Raft quorum's controller
    (proposing through the quorum) on a cluster node."""

    def __init__(self, controller):
        self._controller = controller
        self.finalized_features = controller.finalized_features
        self.finalized_features_epoch = controller.finalized_features_epoch
        self.decide_and_commit = controller.decide_and_commit
        self.create_acls = controller.create_acls
        self.delete_acls = controller.delete_acls
        self.create_topics = controller.create_topics
        self.decide_create_topics = controller.decide_create_topics
        self.create_topics_steps = controller.create_topics_steps
        self.delete_topics = controller.delete_topics
        self.create_partitions = controller.create_partitions
        self.alter_configs_steps = controller.alter_configs_steps
        self.incremental_alter_configs_steps = controller.incremental_alter_configs_steps
        self.update_features = controller.update_features
        self.unregister_broker = controller.unregister_broker
        self.elect_leaders_steps = controller.elect_leaders_steps
        self.alter_partition_reassignments_steps = controller.alter_partition_reassignments_steps
        self.describe_configs = controller.describe_configs
        self.is_internal = INTERNAL_TOPICS.__contains__

    @property
    def image(self):
        return self._controller.image


class BrokerTopicCreation:
    """ports.TopicCreation: the broker's own methods (a quorum broker's forward to the controller)."""

    def __init__(self, broker):
        self.auto_create_topics = broker.auto_create_topics
        self.ensure_internal_topic = broker.ensure_internal_topic
        self.create_streams_internal_topics = broker.create_streams_internal_topics


class NoTopicCreation:
    """ports.TopicCreation of the CONTROLLER listener: no client creates topics through it."""

    def auto_create_topics(self, names, now_ms):
        return []

    def ensure_internal_topic(self, name: str) -> bool:
        return False

    def create_streams_internal_topics(self, topics, now_ms) -> None:
        return None


class LocalQuorum:
    """ports.Quorum of a single node: its own controller is the only voter."""

    def __init__(self, controller, node_id: int, listener_name: str, host: str, port: int):
        self._controller = controller
        self._endpoints = {node_id: (listener_name, host, port)}

    def describe_quorum(self, ctx, request):
        from odradek.api_handlers.describe_quorum import from_node

        return from_node(self._controller.raft_node, ctx.now_ms, 50, self._endpoints)


class CallQuorum:
    """ports.Quorum answered by a function (a quorum node: locally on the Raft leader, else forwarded)."""

    def __init__(self, describe: Callable):
        self.describe_quorum = describe


class GroupsPort:
    """ports.Groups over the group coordinator."""

    def __init__(self, coord):
        self._coord = coord
        self.partition_for = coord.partition_for
        self.is_coordinator = coord.is_coordinator
        self.coordinator_error = coord.coordinator_error
        self.join_group = coord.join_group
        self.sync_group = coord.sync_group
        self.heartbeat = coord.heartbeat
        self.leave_group = coord.leave_group
        self.describe_group = coord.describe_group
        self.list_groups = coord.list_groups
        self.delete_groups = coord.delete_groups
        self.commit_offsets = coord.commit_offsets
        self.stage_offsets = coord.stage_offsets
        self.offset_keys = coord.offset_keys
        self.validate_txn_commit = coord.validate_txn_commit
        self.fetch_offsets = coord.fetch_offsets
        self.committed = coord.committed
        self.delete_offsets = coord.delete_offsets
        # KIP-848 consumer groups and KIP-1071 streams groups (the broker's coordinator has both)
        self.update_topics = coord.update_topics
        self.validate_offset_fetch = coord.validate_offset_fetch
        self.consumer_group_heartbeat = coord.consumer_group_heartbeat
        self.consumer_group_describe = coord.consumer_group_describe
        self.streams_group_heartbeat = coord.streams_group_heartbeat
        self.streams_group_describe = coord.streams_group_describe

    @property
    def initial_rebalance_delay_ms(self) -> int:
        return self._coord.config.group_initial_rebalance_delay_ms

    def is_group(self, group_id: str) -> bool:
        g = self._coord.groups.get(group_id)
        return g is not None and g.group_type != SHARE

    def rebalance_timeout_ms(self, group_id: str) -> int:
        g = self._coord.classic_groups.get(group_id)
        return g.rebalance_timeout_ms() if g is not None else 0


class SharesPort:
    """ports.Shares over the share group coordinator. What the coordinator's operations change is
    persisted here (share_persistence, before the answer) and the ShareFetches parked on the
    share-partitions they released are woken: the handlers do neither. ``persist(now_ms)`` returns
    the writes to share coordinators on other brokers it started (the acknowledging answer waits)."""

    def __init__(self, coord, persist: Callable[[int], list], wake_partitions: Callable[[Iterable], None],
                 reading: Callable[[tuple], bool], read_summaries: Callable):
        self._coord = coord
        self.read_summaries = read_summaries
        self.initialized_partitions = coord.initialized_partitions
        self._persist = persist
        self._wake = wake_partitions
        self._reading = reading
        self.share_settings = coord.share_settings
        self.settings = coord.settings
        self.share_partition = coord.share_partition
        self.open_session = coord.open_session
        self.describe = coord.describe
        self.group_partitions = coord.group_partitions

    def is_share_group(self, group_id: str) -> bool:
        return group_id in self._coord.groups

    def state_pending(self, group_id: str, topic_id: bytes, partition: int) -> bool:
        return self._reading((group_id, bytes(topic_id), partition))

    def _persisted(self, value, now_ms: int):
        self._persist(now_ms)
        return value

    def heartbeat(self, group_id, member_id, member_epoch, subscribed, rack_id, client_id, client_host, now_ms,
                  topics, is_other_group=False):
        r = self._coord.heartbeat(group_id, member_id, member_epoch, subscribed, rack_id, client_id, client_host,
                                  now_ms, topics, is_other_group)
        if r.released:
            self._wake(r.released)
        # the group's epoch and initialized partitions are written with the heartbeat that changed them
        # (its answer waits for them to be committed, as Kafka's): a member is assigned a partition only
        # once a group coordinator taking over would know it initialized. A write that cannot be made
        # now (a share-partition's, say) is the tick's to retry, not this member's failure.
        try:
            self._persist(now_ms)
        except (CoordinatorError, OSError) as e:
            log.info("share group %s: state not written with the heartbeat: %s", group_id, e)
        return r

    def end_session(self, group_id: str, member_id: str) -> None:
        self._wake(self._coord.end_session(group_id, member_id).wake)

    def connection_closed(self, connection_id: str) -> None:
        self._wake(self._coord.connection_closed(connection_id))

    def acknowledge(self, group_id, member_id, batches_by_partition, topic_exists, now_ms: int):
        r = self._coord.acknowledge(group_id, member_id, batches_by_partition, topic_exists, now_ms)
        writes = []
        if r.wake:
            # acknowledged records are persisted before the response, as Kafka: the answer waits for the
            # writes of its share-partitions that go to other brokers or wait for __share_group_state
            writes = [w for w in self._persist(now_ms) if w.share_key in r.wake]
            self._wake(r.wake)
        return r.value, writes

    def alter_offsets(self, group_id, requested, topics, is_other_group, now_ms: int) -> list:
        return self._persisted(self._coord.alter_offsets(group_id, requested, topics, is_other_group), now_ms)

    def delete_offsets(self, group_id, names, topics, is_other_group, now_ms: int) -> list:
        return self._persisted(self._coord.delete_offsets(group_id, names, topics, is_other_group), now_ms)

    def delete_group(self, group_id: str, now_ms: int):
        return self._persisted(self._coord.delete_group(group_id), now_ms)


def broker_services(broker) -> Services:
    """The broker listener's services (the coordinators join in attach_coordinators). A cluster
    broker's DescribeQuorum goes to its controller_channel.Forwarding (``broker.topic_creator``,
    which is also its ports.Quorum); a single node answers it itself."""
    cfg = broker.config
    lst = cfg.controller_listener or cfg.listener
    return Services(
        node=Node(broker.node_id, broker.advertised_host, broker.advertised_port),
        metadata=ControllerMetadata(broker.controller),
        topic_creation=BrokerTopicCreation(broker),
        quorum=broker.topic_creator or LocalQuorum(broker.controller, broker.node_id, lst.name,
                                                   broker.advertised_host, lst.port),
        partitions=LeaderPartitions(broker.replicas),
        log_dirs=LocalLogDirs(broker.log_manager),
        fetch_sessions=broker.fetch_sessions,
        producer_ids=broker.producer_ids,
        clock=broker.clock_ms,
        wake=broker.purgatory_poke,
        auto_create_topics_enable=cfg.auto_create_topics_enable,
        rebalance_protocols=frozenset(cfg.group_coordinator_rebalance_protocols.split(",")),
        shares=(SharesPort(broker.share_groups, broker.persist_share_state, broker.poke_share_partitions,
                           broker.share_persister.reading, broker.share_persister.read_summaries) if broker.share_groups is not None else None),
        share_states=broker.share_states,
        txn_verifier=broker.txn_verifier,
        authorizer=configured_authorizer(cfg),
    )


def configured_authorizer(cfg):
    """Kafka's StandardAuthorizer when authorizer.class.name names it (config.py refuses any other), else None."""
    if not cfg.authorizer_class_name.strip():
        return None
    from odradek.security.authorizer import StandardAuthorizer, super_users

    return StandardAuthorizer(super_users(cfg.super_users), cfg.allow_everyone_if_no_acl_found)


def attach_coordinators(services: Services, groups=None, txns=None, txn_offsets=None) -> None:
    """The group and transaction coordinators, once started."""
    services.groups = GroupsPort(groups) if groups is not None else None
    services.txns = txns
    services.txn_offsets = txn_offsets


def controller_services(node, describe_quorum: Callable) -> Services:
    """A quorum's CONTROLLER listener: admin writes, DescribeConfigs, DescribeQuorum, ApiVersions."""
    lst = node.config.controller_listener or node.config.listener  # a broker-only node serves none
    return Services(
        node=Node(node.node_id, lst.host, lst.port),
        metadata=ControllerMetadata(node.controller),
        topic_creation=NoTopicCreation(),
        quorum=CallQuorum(describe_quorum),
        partitions=NoPartitions(),
        log_dirs=NoLogDirs(),
        fetch_sessions=FetchSessionCache(0, 0),
        producer_ids=None,
        clock=node.clock_ms,
        wake=node.purgatory.poke,
        auto_create_topics_enable=False,
        authorizer=configured_authorizer(node.config),
        controller_listener=True,
    )


class NoLogDirs:
    """ports.LogDirs of a node without the broker role (its metadata log is not a partition log)."""

    log_dirs: list[str] = []

    def list(self):
        return []

    def get(self, topic: str, partition: int):
        return None

    def disk_space(self, log_dir: str) -> tuple[int, int]:
        return -1, -1
