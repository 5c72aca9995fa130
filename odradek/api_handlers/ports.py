"""The services a handler reaches through ``ctx.services``: narrow, typed ports.

odradek/broker builds one ``Services`` per listener (broker/services.py): for a single node, for
a broker of a quorum and for the CONTROLLER listener; tests build theirs from fakes of these
Protocols. Handlers never see the broker object, and never probe for an attribute.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generator, NamedTuple, Protocol, TypeVar

from odradek.wire.errors import ErrorCode

if TYPE_CHECKING:
    from odradek.controller.controller import AlterResult, CreateTopicResult, CreateTopicSpec, DescribedResource
    from odradek.controller.image import MetadataImage
    from odradek.controller.result import Refusal
    from odradek.coordinator.consumer_heartbeat import HeartbeatRequest, HeartbeatResult
    from odradek.coordinator.group_state import Slot
    from odradek.coordinator.offset_store import Staged
    from odradek.coordinator.share_group_coordinator import HeartbeatResult as ShareHeartbeatResult
    from odradek.coordinator.share_partition import SharePartition, ShareSettings
    from odradek.coordinator.streams_heartbeat import StreamsHeartbeatRequest, StreamsHeartbeatResult
    from odradek.coordinator.txn_coordinator import TxnMetadata
    from odradek.log import AppendInfo, PartitionLog
    from odradek.replication.messages import EpochAnswer, FetchDecision, ReplicaFetch

    from .fetch_session import FetchSessionCache

R = TypeVar("R")


# ------------------------------------------------------------------ partitions (the data path)

class NotLed(NamedTuple):
    """Why this node cannot serve a partition as its leader, and the leader the metadata names
    (Kafka's getPartitionOrError: UNKNOWN_TOPIC_OR_PARTITION; KAFKA_STORAGE_ERROR for a log
    offline here; NOT_LEADER_OR_FOLLOWER with the current leader for the client's metadata
    refresh)."""

    error: ErrorCode
    leader_id: int = -1
    leader_epoch: int = -1


UNKNOWN_PARTITION = NotLed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)


class DeletedRecords(NamedTuple):
    """DeleteRecords on a leader (Kafka's LogDeleteRecordsResult)."""

    requested_offset: int  # the offset asked for (-1 resolved to the high watermark)
    low_watermark: int


def low_watermark_key(topic: str, partition: int) -> tuple:
    """The purgatory key poked when a partition's low watermark may have moved."""
    return ("low_watermark", topic, partition)


class Partitions(Protocol):
    """The partitions this node leads (Kafka's ReplicaManager, leader side)."""

    def leader_log(self, topic: str, partition: int, current_leader_epoch: int = -1) -> PartitionLog | NotLed:
        """The log of a partition this node leads (at the request's current leader epoch,
        -1: not given), or why not (and who leads it; FENCED_LEADER_EPOCH /
        UNKNOWN_LEADER_EPOCH for another epoch)."""

    def consumer_log(self, topic: str, partition: int, current_leader_epoch: int = -1) -> PartitionLog | NotLed:
        """For a consumer's Fetch v11+ (KIP-392): the log of a partition led or followed here
        (read up to this replica's high watermark), or why not, as ``leader_log``."""

    def preferred_read_replica(self, topic: str, partition: int, client_rack: str | None,
                               fetch_offset: int, now_ms: int) -> int:
        """The follower a consumer in ``client_rack`` should read from (replica.selector.class),
        -1: this leader serves it."""

    def leader_epoch(self, topic: str, partition: int) -> int:
        """The partition's current leader epoch (-1: unknown)."""

    def check_append(self, topic: str, partition: int, acks: int) -> ErrorCode:
        """Before an append: NOT_ENOUGH_REPLICAS for acks=-1 with the ISR under min.insync.replicas."""

    def append(self, topic: str, partition: int, record_set, now_ms: int,
               log: PartitionLog | None = None, coordinator: bool = False, flush_later: bool = False) -> AppendInfo:
        """Append as leader (offsets assigned, sequences checked); waiting fetches are woken.
        ``coordinator``: a batch a coordinator here built of its own records (not read back).
        ``flush_later``: a flush.messages flush is left to the log flusher; the caller answers once
        the log says it is ``flushed``."""

    def acks_reached(self, topic: str, partition: int, required_offset: int) -> tuple[bool, ErrorCode]:
        """acks=-1: has the high watermark reached ``required_offset``, and with what error
        (NOT_ENOUGH_REPLICAS_AFTER_APPEND, NOT_LEADER_OR_FOLLOWER)."""

    def follower_fetch(self, topic: str, partition: int, fetch: ReplicaFetch,
                       now_ms: int) -> tuple[PartitionLog, FetchDecision] | NotLed:
        """A follower's fetch: its progress recorded, and the leader's answer."""

    def replication_throttled(self, topic: str, partition: int, replica_id: int, now_ms: int) -> bool:
        """A follower's fetch gets no records now (leader.replication.throttled.rate, KIP-73)."""

    def replication_sent(self, topic: str, partition: int, nbytes: int, now_ms: int) -> None:
        """Bytes a follower's fetch was sent, for the leader replication quota."""

    def epoch_end_offset(self, topic: str, partition: int, current_leader_epoch: int,
                         leader_epoch: int) -> EpochAnswer | NotLed:
        """OffsetForLeaderEpoch from the leader's epoch cache."""

    def delete_records(self, topic: str, partition: int, offset: int) -> DeletedRecords:
        """Move the leader's log start offset up to ``offset`` (-1: the high watermark): the
        offset asked for and the partition's low watermark (the smallest log start offset over
        its live replicas), which reaches it once every follower has followed."""

    def low_watermark(self, topic: str, partition: int) -> int | NotLed:
        """The partition's low watermark now, or why it is not led here."""


class LogDirs(Protocol):
    """This node's log directories and every local replica in them (leader or not)."""

    @property
    def log_dirs(self) -> Sequence[str]: ...

    def list(self) -> Iterable[tuple[str, int]]:
        """(topic, partition) of every local log."""

    def get(self, topic: str, partition: int) -> PartitionLog | None: ...

    def disk_space(self, log_dir: str) -> tuple[int, int]:
        """(total bytes, usable bytes) of the file system holding ``log_dir``."""


# ------------------------------------------------------------------ metadata

class Metadata(Protocol):
    """The current metadata image and the admin write path. Writes have one shape whether the
    controller is local (single node) or the active controller of a Raft quorum: each decides on
    the current image, commits its records and returns the per-item results."""

    @property
    def image(self) -> MetadataImage: ...

    def finalized_features(self) -> dict[str, int]: ...

    def finalized_features_epoch(self) -> int: ...

    def is_internal(self, topic: str) -> bool:
        """A coordinator's topic (__consumer_offsets, __transaction_state, __share_group_state)."""

    def decide_and_commit(self, decide: Callable[[MetadataImage], tuple[list, R]], validate_only: bool,
                          now_ms: int) -> R: ...

    def create_topics(self, specs: list[CreateTopicSpec], validate_only: bool,
                      now_ms: int) -> list[CreateTopicResult]: ...

    def create_topics_steps(self, specs: list[CreateTopicSpec], now_ms: int
                            ) -> Generator[None, None, list[CreateTopicResult]]:
        """create_topics(specs) decided a part at a time (yields between parts), written as one batch."""

    def decide_create_topics(self, specs: list[CreateTopicSpec]
                             ) -> Generator[None, None, list[CreateTopicResult]]:
        """create_topics(specs, validate_only=True) a part at a time: yields between parts."""

    def create_acls(self, bindings: list, now_ms: int) -> list[tuple[int, str | None]]: ...

    def delete_acls(self, filters: list, now_ms: int) -> list[tuple[int, str | None, list]]: ...

    def delete_topics(self, names: list[str] | None = None, ids: list[bytes] | None = None,
                      now_ms: int = 0) -> list: ...

    def create_partitions(self, items: list, validate_only: bool, now_ms: int) -> list | Refusal:
        """[(name, error_code, error_message)], or the Refusal of the whole request."""

    # (the writes below are decided a part at a time: generators that yield between parts and
    # return the answer; the records are written as one batch)
    def alter_configs_steps(self, resources: list, validate_only: bool,
                            now_ms: int) -> Generator[None, None, list[AlterResult]]: ...

    def incremental_alter_configs_steps(self, resources: list, validate_only: bool,
                                        now_ms: int) -> Generator[None, None, list[AlterResult]]: ...

    def update_features(self, updates: list, validate_only: bool, now_ms: int) -> tuple[int, str] | None: ...

    def unregister_broker(self, broker_id: int, now_ms: int) -> tuple[int, str] | None: ...

    def elect_leaders_steps(self, election_type: int, topic_partitions: list | None,
                            now_ms: int) -> Generator[None, None, list | Refusal]:
        """The [ElectionResult], or the Refusal of the whole request (more elections than one batch holds)."""

    def alter_partition_reassignments_steps(self, topics: list, allow_rf_change: bool,
                                            now_ms: int) -> Generator[None, None, list]: ...

    def describe_configs(self, resources: list, include_synonyms: bool = False,
                         include_documentation: bool = False) -> list[DescribedResource]: ...


class TopicCreation(Protocol):
    """Topics a broker creates on a client's behalf: Metadata's auto-creation, a coordinator's
    internal topic on first use, a streams group's internal topics. Locally on a single node,
    through the active controller on a broker of a quorum (then they appear later)."""

    def auto_create_topics(self, names: list[str], now_ms: int) -> list[CreateTopicResult]:
        """Results of the topics created now (none when the creation goes on elsewhere)."""

    def ensure_internal_topic(self, name: str) -> bool:
        """Create internal topic ``name`` if missing; True once it is in the image."""

    def create_streams_internal_topics(self, topics: list[tuple[str, int, int, dict]], now_ms: int) -> None:
        """[(name, partitions, replication factor or -1, configs)]."""


class Quorum(Protocol):
    """The metadata quorum as DescribeQuorum reports it (answered here, or by the Raft leader)."""

    def describe_quorum(self, request, api_version: int, now_ms: int): ...


# ------------------------------------------------------------------ coordinators

class Groups(Protocol):
    """The group coordinator: the one map of groups (classic, consumer, streams and share: ListGroups,
    DescribeGroups and the offset APIs see every type) and the committed offsets; share groups'
    membership and share-partitions are the Shares port's."""

    @property
    def initial_rebalance_delay_ms(self) -> int: ...

    def partition_for(self, group_id: str) -> int:
        """The group's __consumer_offsets partition."""

    def is_coordinator(self, group_id: str) -> bool: ...

    def coordinator_error(self, group_id: str) -> ErrorCode:
        """NONE when coordinated here; NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS."""

    def is_group(self, group_id: str) -> bool:
        """A classic, consumer or streams group has this id."""

    def rebalance_timeout_ms(self, group_id: str) -> int:
        """The classic group's rebalance timeout (0: no such group)."""

    def join_group(self, group_id: str, member_id: str, group_instance_id: str | None, client_id: str,
                   client_host: str, session_timeout_ms: int, rebalance_timeout_ms: int, protocol_type: str,
                   protocols: list[tuple[str, bytes]], now_ms: int, api_version: int = 9,
                   topics: dict | None = None) -> Slot: ...

    def sync_group(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                   protocol_type: str | None, protocol_name: str | None, assignments: dict,
                   now_ms: int, topics: dict | None = None) -> Slot: ...

    def heartbeat(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                  now_ms: int) -> ErrorCode: ...

    def leave_group(self, group_id: str, members: list, now_ms: int,
                    topics: dict | None = None) -> tuple[ErrorCode, list]: ...

    def describe_group(self, group_id: str) -> dict: ...

    def list_groups(self, states: Iterable[str] | None = None, types: Iterable[str] | None = None) -> list: ...

    def delete_groups(self, group_ids: list, now_ms: int) -> dict: ...

    def commit_offsets(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                       offsets: dict, now_ms: int, retention_time_ms: int = -1, api_version: int = 8,
                       topic_ids: dict | None = None, staged: Staged | None = None) -> dict: ...

    def stage_offsets(self, group_id: str, offsets: dict, now_ms: int, retention_time_ms: int = -1,
                      topic_ids: dict | None = None, due: Callable[[], bool] = ...
                      ) -> Generator[None, None, Staged]:
        """``offsets`` made ready for commit_offsets' ``staged``, yielding whenever ``due()``."""

    def offset_keys(self, group_id: str, partitions: Iterable[tuple[str, int]], due: Callable[[], bool] = ...
                    ) -> Generator[None, None, dict]:
        """{tp: record key} for delete_offsets' ``keys``, yielding whenever ``due()``."""

    def validate_txn_commit(self, group_id: str, generation_id: int, member_id: str,
                            group_instance_id: str | None, now_ms: int,
                            partitions: Sequence[tuple[str, int]] = ()) -> ErrorCode: ...

    def validate_offset_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode: ...

    def fetch_offsets(self, group_id: str, partitions: list | None,
                      topic_ids: dict | None = None) -> tuple[ErrorCode, dict]: ...

    def committed(self, group_id: str) -> dict:
        """{(topic, partition): OffsetAndMetadata}: the group's offsets now, a copy later commits
        leave alone."""

    def delete_offsets(self, group_id: str, partitions: list, now_ms: int,
                       keys: dict | None = None) -> tuple[ErrorCode, dict]: ...

    def update_topics(self, topics: dict) -> None:
        """{name: (topic_id, partition count)} of the current image."""

    def consumer_group_heartbeat(self, req: HeartbeatRequest, now_ms: int,
                                 topics: dict | None = None) -> HeartbeatResult: ...

    def consumer_group_describe(self, group_id: str) -> dict: ...

    def streams_group_heartbeat(self, req: StreamsHeartbeatRequest, now_ms: int,
                                topics: dict | None = None) -> StreamsHeartbeatResult: ...

    def streams_group_describe(self, group_id: str) -> dict: ...


class Txns(Protocol):
    """The transaction coordinator."""

    def is_coordinator(self, transactional_id: str) -> bool: ...

    def coordinator_error(self, transactional_id: str) -> ErrorCode:
        """NONE when coordinated here; NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS."""

    def init_producer_id(self, transactional_id: str, timeout_ms: int, expected_pid: int = -1,
                         expected_epoch: int = -1, now_ms: int = 0) -> tuple[ErrorCode, int, int]: ...

    def add_partitions(self, transactional_id: str, pid: int, epoch: int, partitions: Iterable[tuple[str, int]],
                       now_ms: int, client_tv: int = 0) -> ErrorCode: ...

    def verify_partitions(self, transactional_id: str, pid: int, epoch: int,
                          partitions: Iterable[tuple[str, int]]) -> dict: ...

    def check_produce(self, pid: int, epoch: int, topic: str, partition: int) -> ErrorCode: ...

    def check_offset_commit(self, transactional_id: str, pid: int, epoch: int) -> ErrorCode: ...

    def end_txn(self, transactional_id: str, pid: int, epoch: int, commit: bool, now_ms: int) -> ErrorCode: ...

    def end_txn_tv2(self, transactional_id: str, pid: int, epoch: int, commit: bool,
                    now_ms: int) -> tuple[ErrorCode, int, int]: ...

    def describe(self, transactional_id: str) -> TxnMetadata | None: ...

    def list(self, states: Iterable[str] = (), producer_ids: Iterable[int] = (), min_duration_ms: int = -1,
             pattern: str | None = None, now_ms: int = 0) -> list[TxnMetadata]: ...


class TxnOffsets(Protocol):
    """Offsets committed in a transaction, pending until its marker."""

    def commit(self, group_id: str, pid: int, epoch: int, offsets: dict, now_ms: int,
               topic_ids: dict | None = None, staged: Staged | None = None) -> dict: ...

    def stage(self, group_id: str, offsets: dict, now_ms: int, topic_ids: dict | None = None,
              due: Callable[[], bool] = ...) -> Generator[None, None, Staged]:
        """``offsets`` made ready for commit's ``staged``, yielding whenever ``due()``."""

    def pending_partitions(self, group_id: str) -> set: ...

    def complete(self, pid: int, partition: int, commit: bool, now_ms: int) -> None:
        """The marker of producer ``pid`` is replicated in __consumer_offsets ``partition``:
        its pending offsets there become committed (or are dropped for an abort)."""

    def partition_error(self, partition: int) -> ErrorCode:
        """NONE when the group coordinator here has __consumer_offsets ``partition`` loaded."""


@dataclass
class TxnVerification:
    """A partition leader's question to a transaction coordinator on another broker (Kafka's
    AddPartitionsToTxnManager): ``errors`` {(topic, partition): code} once answered, and the
    purgatory key poked then."""
    key: tuple
    errors: dict[tuple[str, int], ErrorCode] | None = None


class TxnVerifier(Protocol):
    """AddPartitionsToTxn v4+ to the coordinator of a transactional id that is not here."""

    def verify(self, transactional_id: str, producer_id: int, producer_epoch: int,
               partitions: list[tuple[str, int]], add: bool) -> TxnVerification:
        """verify_only (``add`` False: KIP-890 part 1), or add them for a transaction.version 2
        producer (``add`` True: Produce v12+)."""


@dataclass
class ShareStateWrite:
    """A share-partition's state on its way to the share coordinator on another broker (the
    broker's persister): ``error`` once answered (NONE: written), and the purgatory key poked then."""
    key: tuple
    share_key: tuple  # (group id, topic id, partition)
    error: ErrorCode | None = None


@dataclass
class ShareSummary:
    """One share-partition's ReadShareGroupStateSummary answer (error NONE: the fields hold)."""
    error: ErrorCode
    start_offset: int = -1
    leader_epoch: int = 0
    delivery_complete_count: int = -1


@dataclass
class ShareSummaries:
    """Share-partitions' summaries on their way from their share coordinators (the group
    coordinator's fan-out, Kafka's persister.readSummary): ``results`` {(topic id, partition):
    ShareSummary} and ``ends`` {(topic id, partition): (error, latest offset)} (the partitions with a
    start offset) are complete once ``pending`` is 0; the purgatory key is poked then."""
    key: tuple
    results: dict
    ends: dict
    pending: int = 0


class ShareStates(Protocol):
    """The share coordinator (coordinator/share_coordinator.py ShareCoordinator): the persisted state
    of the share-partitions whose __share_group_state partition this node leads. Each raises
    CoordinatorError with Kafka's error (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, fencing)."""

    def read(self, key: tuple, leader_epoch: int, now_ms: int): ...

    def summary(self, key: tuple): ...

    def write(self, key: tuple, snapshot, now_ms: int) -> None: ...

    def initialize(self, key: tuple, state_epoch: int, start_offset: int, now_ms: int) -> None: ...

    def delete(self, key: tuple, now_ms: int) -> None: ...


class Shares(Protocol):
    """The share group coordinator (KIP-932). Its writes (acknowledge, the offsets admin, delete_group)
    are persisted before they return; records they release wake the ShareFetches waiting for them."""

    def is_share_group(self, group_id: str) -> bool: ...

    def share_settings(self, group_id: str) -> ShareSettings: ...

    def settings(self, group_id: str) -> dict: ...

    def heartbeat(self, group_id: str, member_id: str, member_epoch: int, subscribed: list | None,
                  rack_id: str | None, client_id: str, client_host: str, now_ms: int,
                  topics: dict, is_other_group: bool = False) -> ShareHeartbeatResult: ...

    def share_partition(self, group_id: str, topic_id: bytes, topic: str, partition: int) -> SharePartition | None: ...

    def acknowledge(self, group_id: str, member_id: str, batches_by_partition: dict,
                    topic_exists: Callable[[bytes], bool], now_ms: int) -> tuple[dict, list[ShareStateWrite]]:
        """{(topic_id, partition): [AcknowledgementBatch]} -> ({(topic_id, partition): error}, the
        writes to share coordinators on other brokers the answer waits for)."""

    def read_summaries(self, group_id: str, parts: list[tuple[bytes, str, int]]) -> ShareSummaries:
        """ReadShareGroupStateSummary of the group's share-partitions [(topic id, topic, partition)]
        at their share coordinators, with their data partitions' latest offsets."""

    def initialized_partitions(self, group_id: str) -> set[tuple[bytes, int]]:
        """The share-partitions the group has initialized (assigned, or set by AlterShareGroupOffsets)."""

    def state_pending(self, group_id: str, topic_id: bytes, partition: int) -> bool:
        """The share-partition's persisted state is being read (no records for it meanwhile)."""

    def open_session(self, group_id: str, member_id: str, epoch: int, connection_id: str = ""): ...

    def end_session(self, group_id: str, member_id: str) -> None:
        """The final epoch: the session closes, the member's records are released."""

    def connection_closed(self, connection_id: str) -> None:
        """A client connection closed: the share sessions it opened end, their records released."""

    def describe(self, group_id: str, names_by_id: dict) -> dict: ...

    def group_partitions(self, group_id: str) -> dict: ...

    def alter_offsets(self, group_id: str, requested: list, topics: dict, is_other_group: bool,
                      now_ms: int) -> list: ...

    def delete_offsets(self, group_id: str, names: list, topics: dict, is_other_group: bool, now_ms: int) -> list: ...

    def delete_group(self, group_id: str, now_ms: int) -> ErrorCode: ...


class Authorizer(Protocol):
    """Kafka's StandardAuthorizer over the image's ACLs (security/authorizer.py); codes from controller/acls.py."""

    def is_super_user(self, principal: str) -> bool: ...

    def authorize(self, acls: Mapping, principal: str, host: str, op: int, rtype: int, name: str) -> bool: ...

    def authorize_by_resource_type(self, acls: Mapping, principal: str, host: str, op: int, rtype: int) -> bool: ...

    def authorized_operations(self, acls: Mapping, principal: str, host: str, rtype: int, name: str) -> int: ...


class ProducerIds(Protocol):
    def allocate(self) -> int:
        """A fresh producer id for an idempotent producer; CoordinatorError
        (COORDINATOR_LOAD_IN_PROGRESS) while the broker has no block of ids."""


class MutationQuota(Protocol):
    """One admin write's controller mutation quota (security/quotas.py MutationQuota)."""

    @property
    def bounded(self) -> bool: ...

    def admit(self, partitions: int, now_ms: int) -> bool:
        """False: the topic is refused (THROTTLING_QUOTA_EXCEEDED)."""

    def throttle_time_ms(self, now_ms: int) -> int: ...


# ------------------------------------------------------------------ the whole

@dataclass(frozen=True)
class Node:
    """This node as clients reach it (its advertised listener)."""

    node_id: int
    host: str
    port: int


@dataclass
class Services:
    """Everything a handler may ask of the broker. ``groups``, ``txns``, ``txn_offsets`` and
    ``shares`` are None until the coordinators have started, and on the CONTROLLER listener."""

    node: Node
    metadata: Metadata
    topic_creation: TopicCreation
    quorum: Quorum
    partitions: Partitions
    log_dirs: LogDirs
    fetch_sessions: FetchSessionCache
    producer_ids: ProducerIds | None
    clock: Callable[[], int]
    wake: Callable[[tuple], int]
    auto_create_topics_enable: bool
    groups: Groups | None = None
    # group.coordinator.rebalance.protocols: the group protocols served (classic always)
    rebalance_protocols: frozenset[str] = frozenset({"classic", "consumer", "streams"})
    txns: Txns | None = None
    txn_offsets: TxnOffsets | None = None
    txn_verifier: TxnVerifier | None = None  # a cluster broker's (transaction coordinators elsewhere)
    shares: Shares | None = None
    share_states: ShareStates | None = None  # the share coordinator (the __share_group_state partitions led here)
    authorizer: Authorizer | None = None  # authorizer.class.name (None: every request allowed, as Kafka)
    # (user, client id, strict, now_ms) -> the request's controller_mutation_rate quota, on the node
    # that decides admin writes (a single node; the active controller of a quorum)
    mutation_quota: Callable[[str, str, bool, int], MutationQuota] | None = None
    # a quorum's CONTROLLER listener (Kafka's ControllerApis, which answers some requests otherwise
    # than a broker's KafkaApis: the config resources of an (Incremental)AlterConfigs); False: a
    # broker's listener (a single node's too)
    controller_listener: bool = False
