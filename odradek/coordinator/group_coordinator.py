"""The group coordinator: one map of groups, ``groups`` (classic, KIP-848 consumer, KIP-1071
streams and KIP-932 share groups, each a GroupModel, group_model.py), persisted to
__consumer_offsets, as Kafka's group-coordinator module. Share groups are driven by the share
group coordinator (share_group_coordinator.py), which holds them in this same map. Every write is a CoordinatorResult (result.py) that ``write`` runs: the
records are appended, then the state they stand for is applied and the response given.

Each protocol has its module: classic_heartbeat.py (JoinGroup, SyncGroup, Heartbeat, LeaveGroup),
consumer_heartbeat.py (ConsumerGroupHeartbeat), streams_heartbeat.py (StreamsGroupHeartbeat);
committed offsets are one store for every type (offset_store.py); what differs by type is asked
of the group itself (who may commit, which topics it reads, the records that delete it). A group
id names one group of one type; an empty group changes type when another protocol joins it, its
offsets kept; a classic group with members becomes a consumer group when a consumer-protocol member
joins, and back when the last one leaves (KIP-848's online migration, group_conversion.py), its
classic members served by classic_members.py meanwhile.

How the broker wires it (odradek/broker)::

    groups = GroupCoordinator(
        log=coordinator_log,            # CoordinatorLog over the 50 partitions of __consumer_offsets
        config=cfg,                     # GroupConfig, the BrokerConfig, or a dict of the same names
                                        # (snake_case or Kafka's dotted property names)
        now_ms=startup_ms,
        poke=purgatory_poke,            # called with ("group", group_id) when parked joins/syncs complete
        new_uuid=...,                   # ids of new members
        replay=...,                     # also sees every record of the start-up replay (share groups)
        groups=...,                     # the one map, shared with the ShareGroupCoordinator
    )
    groups.load_all(now_ms)             # without leadership tracking: rebuild from the log, before serving;
                                        # with it (partitions=CoordinatorPartitions()), the broker's loader
                                        # (broker/coordinator_loading.py) calls load_records/unload_partition
                                        # as this node comes to lead or stops leading each partition
    groups.tick(now_ms)                 # every ~100 ms: sessions, rebalance timers, offset retention

The topic has ``groups.num_partitions`` partitions (offsets.topic.num.partitions, 50),
cleanup.policy=compact; records are (key, value) pairs in Kafka's own layout (group_records.py,
consumer_group_records.py, streams_group_records.py). It may not exist yet (the broker creates it on
the first FindCoordinator): the handlers ask ``coordinator_error(group_id)`` first and answer
NOT_COORDINATOR (COORDINATOR_LOAD_IN_PROGRESS while the partition loads), as Kafka does.

CoordinatorLog protocol (result.py)::

    append(partition, records: list[tuple[bytes, bytes | None]], now_ms) -> last offset  (raises on failure)
    read(partition) -> Iterable[tuple[offset, key | None, value | None]]
    has_partition(partition) -> bool                       (this node holds it)
"""

from __future__ import annotations

import bisect
import logging
import random
import struct
import uuid
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Callable, Generator, Iterable, TypeVar

from odradek.config import BrokerConfig
from odradek.wire.errors import ErrorCode

from . import consumer_group_records as crec
from . import group_records as rec
from . import offset_store
from . import streams_group_records as srec
from .classic_heartbeat import ClassicProtocol
from .classic_members import ClassicMembersProtocol
from .consumer_group_state import ConsumerGroup
from .consumer_heartbeat import ConsumerGroupConfig, ConsumerProtocol, HeartbeatRequest, HeartbeatResult
from .errors import CoordinatorError
from .group_model import CLASSIC, CONSUMER, SHARE, STREAMS, TYPE_ORDER, GroupModel, TypedGroups
from .group_state import Group, GroupState, JoinResult, Slot, SyncResult
from .group_timeline import GroupTimeline, committed_groups
from .offset_timeline import OffsetTimeline
from .partition_loading import CoordinatorPartitions
from .result import CoordinatorLog, CoordinatorResult, CoordinatorRuntime, write_error
from .settings import broker_default, int_settings
from .streams_group_state import StreamsGroup
from .streams_heartbeat import StreamsConfig, StreamsHeartbeatRequest, StreamsHeartbeatResult, StreamsProtocol

E = ErrorCode
S = GroupState
T = TypeVar("T")

log = logging.getLogger(__name__)

__all__ = ["CoordinatorError", "CoordinatorLog", "GroupConfig", "GroupCoordinator"]


@dataclass
class GroupConfig:
    """The broker properties of the same names (defaults from odradek/config.py)."""
    group_initial_rebalance_delay_ms: int = broker_default("group_initial_rebalance_delay_ms")
    group_min_session_timeout_ms: int = broker_default("group_min_session_timeout_ms")
    group_max_session_timeout_ms: int = broker_default("group_max_session_timeout_ms")
    group_max_size: int = broker_default("group_max_size")
    offsets_retention_minutes: int = broker_default("offsets_retention_minutes")
    offsets_retention_check_interval_ms: int = broker_default("offsets_retention_check_interval_ms")
    offset_metadata_max_bytes: int = broker_default("offset_metadata_max_bytes")
    offsets_topic_num_partitions: int = broker_default("offsets_topic_num_partitions")

    @classmethod
    def from_any(cls, obj: "GroupConfig | BrokerConfig | Mapping | None") -> "GroupConfig":
        return int_settings(cls, obj)


def _offset_key(key: bytes) -> tuple[str, tuple[str, int]] | None:
    """(group id, (topic, partition)) of an offset commit record's key; None: another record."""
    try:
        k = rec.decode_key(key)
    except Exception:  # noqa: BLE001 - a key of no known kind: not an offset
        return None
    return (k.group, (k.topic, k.partition)) if k.kind == "offset" else None


# the record types of the groups the group timeline follows (classic, consumer, streams: a share
# group's are replayed elsewhere), their keys' type then group id (INT16-length string) first
_GROUP_RECORD_TYPES = frozenset({rec.LEGACY_OFFSET_COMMIT_KEY, rec.OFFSET_COMMIT_KEY, rec.GROUP_METADATA_KEY}) \
    | crec.TYPES | srec.TYPES
_TYPE_AND_LENGTH = struct.Struct(">hh")


def _group_of(key: bytes) -> str | None:
    """The group id of a classic, consumer or streams group record's key (None: another record)."""
    if len(key) < 4:
        return None
    kind, n = _TYPE_AND_LENGTH.unpack_from(key, 0)
    if kind not in _GROUP_RECORD_TYPES or n < 0:
        return None
    return key[4:4 + n].decode("utf-8", "replace")


def _random_uuids() -> Callable[[], str]:
    rng = random.Random()
    return lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4))


class GroupCoordinator:
    def __init__(
        self,
        log: CoordinatorLog | None = None,
        config: GroupConfig | BrokerConfig | Mapping | None = None,
        now_ms: int = 0,
        poke: Callable[[tuple], None] | None = None,
        new_member_id: Callable[[str], str] | None = None,
        replay: Callable[[bytes, bytes | None], None] | None = None,
        consumer_config: ConsumerGroupConfig | None = None,
        streams_config: StreamsConfig | None = None,
        new_uuid: Callable[[], str] | None = None,
        group_overrides: Callable[[str], dict] | None = None,
        partitions: CoordinatorPartitions | None = None,
        groups: dict | None = None,
    ):
        """new_uuid(): a new random id (the broker's uuid4; by default a local generator);
        new_member_id(prefix): a classic member's id (default: prefix-uuid); group_overrides(group_id):
        the group's GROUP configs ({"streams.session.timeout.ms": "50000", ...}); partitions: the
        __consumer_offsets partitions loaded here as leadership moves (None: every partition led here,
        loaded by load_all); groups: the one map of groups (shared with the share group coordinator;
        default: a new one)."""
        self.log = log
        self.config = GroupConfig.from_any(config)
        self.num_partitions = self.config.offsets_topic_num_partitions
        self.runtime = CoordinatorRuntime(log, self.partition_for, self.wake, partitions, self._changing_group)
        self.groups: dict[str, GroupModel] = {} if groups is None else groups  # every group (the one map)
        # what readers see (only what is committed): of the offsets, of the groups
        self.timeline = OffsetTimeline()
        self.group_timeline = GroupTimeline()
        # Kafka's group-coordinator-metrics counts: classic rebalances completed (a sync that made
        # the group Stable), consumer group epoch bumps (KIP-848 rebalances); live writes only
        self.rebalances = {CLASSIC: 0, CONSUMER: 0}
        # the ids of the groups whose timers the tick walks, in the order they came (issue 27: not
        # every group each tick): a classic group from its JoinGroup (or its install, or load) until
        # a tick finds it without timers (group_state.Group.timerless: a group that only holds
        # offsets); a consumer or streams group while it is in the map
        self._ticking: dict[str, None] = {}
        self.poke = poke  # the purgatory's poke (the broker passes it)
        self.new_uuid = new_uuid or _random_uuids()
        self.new_member_id = new_member_id or (lambda prefix: f"{prefix}-{self.new_uuid()}")
        self.group_overrides = group_overrides or (lambda group_id: {})
        self.topics: dict = {}  # last {name: (topic_id, partitions)} seen from the metadata image
        self._topic_names: tuple = (None, frozenset())  # (the topics table, its names)
        self.topics_version = 0
        self._now = now_ms
        self._replay = replay
        self._next_retention_check = now_ms + self.config.offsets_retention_check_interval_ms
        self.classic = ClassicProtocol(self)
        broker = None if isinstance(config, GroupConfig) else config  # (a GroupConfig has only the classic settings)
        self.consumer = ConsumerProtocol(self, consumer_config or ConsumerGroupConfig.from_any(broker))
        self.classic_members = ClassicMembersProtocol(self.consumer)  # classic members of consumer groups
        self.streams = StreamsProtocol(self, streams_config or StreamsConfig.from_any(broker))
        self._protocols = {CLASSIC: self.classic, CONSUMER: self.consumer, STREAMS: self.streams}

    def install(self, g: GroupModel) -> None:
        """``g`` takes its id in the map; a group of another type that had it goes (the newcomer
        is listed after the groups already there, as a new group is)."""
        self.groups.pop(g.group_id, None)
        self.groups[g.group_id] = g
        self._ticking[g.group_id] = None

    def wake(self, key: tuple) -> None:
        """Wake the requests parked on ``key`` (the purgatory's poke, when the broker gave one)."""
        if self.poke is not None:
            self.poke(key)

    @property
    def classic_groups(self) -> TypedGroups[Group]:
        """The classic groups (views of the one map, by type)."""
        return TypedGroups(self.groups, Group)

    @property
    def consumer_groups(self) -> TypedGroups[ConsumerGroup]:
        return TypedGroups(self.groups, ConsumerGroup)

    @property
    def streams_groups(self) -> TypedGroups[StreamsGroup]:
        return TypedGroups(self.groups, StreamsGroup)

    def _by_type(self, groups: Iterable[GroupModel] | None = None) -> list:
        """Every group (of ``groups``, default the map): classic ones first, then consumer, streams
        and share groups (ListGroups' order)."""
        return sorted(self.groups.values() if groups is None else groups,
                      key=lambda g: TYPE_ORDER.index(g.group_type))

    # ------------------------------------------------------------------ persistence

    def partition_for(self, group_id: str) -> int:
        return rec.partition_for(group_id, self.num_partitions)

    def is_coordinator(self, group_id: str) -> bool:
        """This node holds the group's partition (without a log: always, as in unit tests)."""
        return self.runtime.is_coordinator(group_id)

    def coordinator_error(self, group_id: str) -> ErrorCode:
        """NONE when this node coordinates the group; NOT_COORDINATOR, or COORDINATOR_LOAD_IN_PROGRESS
        while its partition is loading (the handlers answer it, as Kafka's runtime)."""
        return self.runtime.coordinator_error(group_id)

    def write(self, group_id: str, result: CoordinatorResult[T], now_ms: int) -> T:
        """Run a write (result.py): append its records to the group's partition, then apply it and
        wake what it names."""
        return self.runtime.write(group_id, result, now_ms)

    def load_all(self, now_ms: int | None = None) -> None:
        """Rebuild every group from every __consumer_offsets partition (synchronous, at startup)."""
        for p in range(self.num_partitions):
            self.load_partition(p, now_ms)

    def load_partition(self, partition: int, now_ms: int | None = None) -> None:
        """One read of the partition's records, replayed by each protocol (last value wins)."""
        if self.log is not None:
            self.load_records(self.log.read(partition), now_ms)

    def load_records(self, records: Iterable[tuple[int, bytes | None, bytes | None]],
                     now_ms: int | None = None, partition: int | None = None) -> None:
        """Replay one partition's (offset, key, value) records (the plain ones, from its log start);
        with ``partition``: the offsets of records beyond its high watermark (as the log says it
        now) are not read until it passes them (``_loaded_beyond``)."""
        if now_ms is not None:
            self._now = now_ms
        if partition is not None:
            self.timeline.drop(partition)
            self.group_timeline.drop(partition)
        records = [(o, k, v) for o, k, v in records if k is not None]
        if self._replay is not None:
            for _o, key, value in records:
                self._replay(key, value)
        self.classic.load(records, self._now)
        self.consumer.load(records, self._now)
        self.streams.load(records, self._now)
        self._ticking.update((gid, None) for gid, g in self.groups.items()
                             if g.group_type != CLASSIC or not g.timerless())
        if partition is not None and self.log is not None:
            high_watermark = self.log.committed_offset(partition)
            self._loaded_beyond(partition, records, high_watermark)
            self._groups_beyond(partition, records, high_watermark)

    def _groups_beyond(self, partition: int, records: list, high_watermark: int) -> None:
        """The groups a load's records beyond the partition's HW change (a new leader's records its HW
        has not passed yet; Kafka's loader replays the log to its end and reads at the HW): in the
        group timeline as they were at the HW (a load of only their records below it), at the offset
        of each one's last record, so that readers see them so until the HW passes it."""
        first = bisect.bisect_left(records, high_watermark, key=lambda r: r[0])
        last: dict[str, int] = {}
        for offset, key, _value in records[first:]:
            gid = _group_of(key)
            if gid is not None:
                last[gid] = offset
        if not last:
            return
        at_hw = GroupCoordinator(config=self.config, now_ms=self._now, consumer_config=self.consumer.config,
                                 streams_config=self.streams.config)
        at_hw.load_records([r for r in records[:first] if _group_of(r[1]) in last], self._now)
        for gid, offset in sorted(last.items(), key=lambda item: item[1]):
            g = at_hw.groups.get(gid)
            self.group_timeline.note(partition, offset, gid, None if g is None else g.committed_copy())

    def _loaded_beyond(self, partition: int, records: list, high_watermark: int) -> None:
        """The offset commits a load read beyond the partition's HW (a new leader's records its HW
        has not passed yet; Kafka's loader keeps them uncommitted): in the timeline, so that readers
        see the values below the HW until it passes."""
        first = bisect.bisect_left(records, high_watermark, key=lambda r: r[0])
        changes = []
        need: set = set()  # their keys (as bytes)
        for offset, key, value in records[first:]:
            k = _offset_key(key)
            if k is not None:
                changes.append((offset, k[0], k[1], None if value is None else rec.decode_offset_value(value)))
                need.add(key)
        if not changes:
            return
        # the newest value below the HW of each (keys compared as bytes: only theirs decoded)
        before: dict = {}
        found: set = set()
        for _offset, key, value in reversed(records[:first]):
            if key in need and key not in found:
                found.add(key)
                k = _offset_key(key)
                if k is not None:
                    before[k] = None if value is None else rec.decode_offset_value(value)
                if len(found) == len(need):
                    break
        self.timeline.loaded(partition, high_watermark, changes,
                             {k: v for k, v in before.items() if v is not None})

    def unload_partition(self, partition: int) -> None:
        """This node no longer coordinates ``partition`` (its leadership moved): its groups go, and
        their parked JoinGroups and SyncGroups answer NOT_COORDINATOR so that their members look
        the coordinator up again (Kafka's onUnloaded)."""
        self.timeline.drop(partition)
        self.group_timeline.drop(partition)
        for gid in [gid for gid in self.groups if self.partition_for(gid) == partition]:
            g = self.groups.pop(gid)
            if isinstance(g, Group):
                g.fail_parked(E.NOT_COORDINATOR)
            self.wake(("group", gid))

    # ------------------------------------------------------------------ metadata

    def update_topics(self, topics: dict) -> None:
        """{name: (topic_id bytes, partition count)} of the current metadata image (a new table when
        the image's topics change: topics_version counts the tables)."""
        if topics is not self.topics:
            self.topics = topics
            self.topics_version += 1

    def topic_names(self) -> frozenset:
        """The names of ``topics``, made once per topics table (the handlers pass the same table
        while the metadata image's topics do not change)."""
        if self._topic_names[0] is not self.topics:
            self._topic_names = (self.topics, frozenset(self.topics))
        return self._topic_names[1]

    # ------------------------------------------------------------------ classic protocol

    def join_group(self, group_id: str, member_id: str, group_instance_id: str | None, client_id: str,
                   client_host: str, session_timeout_ms: int, rebalance_timeout_ms: int, protocol_type: str,
                   protocols: list, now_ms: int, api_version: int = 9, topics: dict | None = None) -> Slot:
        """Returns a Slot; if not yet done, the caller parks on ("group", group_id) until it is.
        topics: the metadata image's {name: (topic id, partitions)} (a consumer group's classic members)."""
        self._now = now_ms
        g = self.groups.get(group_id)
        if g is not None and g.group_type in (STREAMS, SHARE):
            return Slot(JoinResult(error=E.INCONSISTENT_GROUP_PROTOCOL, member_id=member_id))
        if isinstance(g, ConsumerGroup):
            if g.members:
                # a classic member of a consumer group (KIP-848's online migration: classic_members.py)
                cfg = self.config
                if not (cfg.group_min_session_timeout_ms <= session_timeout_ms <= cfg.group_max_session_timeout_ms):
                    return Slot(JoinResult(error=E.INVALID_SESSION_TIMEOUT, member_id=member_id))
                if topics is not None:
                    self.update_topics(topics)
                if rebalance_timeout_ms is None or rebalance_timeout_ms < 0:
                    rebalance_timeout_ms = session_timeout_ms
                return Slot(self.classic_members.join(
                    g, member_id, group_instance_id, client_id, client_host, session_timeout_ms,
                    rebalance_timeout_ms, protocol_type, [(n, bytes(md)) for n, md in protocols], now_ms,
                    api_version))
            if member_id:
                # an empty consumer group becomes a classic group, its offsets kept; the member is unknown
                def become_classic(offsets=g.offsets) -> None:
                    self.install(Group(group_id, state_timestamp_ms=now_ms, offsets=offsets))

                self.write(group_id, CoordinatorResult(g.tombstones(), become_classic), now_ms)
        replacing = g if isinstance(g, ConsumerGroup) and not member_id else None
        # (a new classic group replaces an empty consumer group: its tombstones and the new group's
        # record in one write, as Kafka's maybeDeleteEmptyConsumerGroup and join of a new group)
        self._ticking[group_id] = None  # (its members' timers: the tick walks it until it has none)
        return self.classic.join_group(group_id, member_id, group_instance_id, client_id, client_host,
                                       session_timeout_ms, rebalance_timeout_ms, protocol_type, protocols,
                                       now_ms, api_version, replacing)

    def sync_group(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                   protocol_type: str | None, protocol_name: str | None, assignments: dict, now_ms: int,
                   topics: dict | None = None) -> Slot:
        """topics: the metadata image's {name: (topic id, partitions)} (a consumer group's classic member
        is answered its partitions by name)."""
        self._now = now_ms
        g = self.groups.get(group_id)
        if isinstance(g, ConsumerGroup) and group_id:
            if not g.members:
                return Slot(SyncResult(error=E.UNKNOWN_MEMBER_ID))
            if topics is not None:
                self.update_topics(topics)
            return Slot(self.classic_members.sync(g, generation_id, member_id, group_instance_id, protocol_type,
                                                  protocol_name, now_ms))
        return self.classic.sync_group(group_id, generation_id, member_id, group_instance_id, protocol_type,
                                       protocol_name, assignments, now_ms)

    def heartbeat(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                  now_ms: int) -> ErrorCode:
        self._now = now_ms
        g = self.groups.get(group_id)
        if isinstance(g, ConsumerGroup):
            return self.classic_members.heartbeat(g, generation_id, member_id, group_instance_id, now_ms)
        return self.classic.heartbeat(group_id, generation_id, member_id, group_instance_id, now_ms)

    def leave_group(self, group_id: str, members: list, now_ms: int,
                    topics: dict | None = None) -> tuple[ErrorCode, list]:
        """members: [(member_id, group_instance_id)]. Returns (top-level error, [error per member]).
        topics: as sync_group's (a downgrade writes the classic members' assignments by name)."""
        self._now = now_ms
        g = self.groups.get(group_id)
        if isinstance(g, ConsumerGroup):
            if topics is not None:
                self.update_topics(topics)
            return self.classic_members.leave(g, members, now_ms)
        return self.classic.leave_group(group_id, members, now_ms)

    def describe_group(self, group_id: str) -> dict:
        """DescribeGroups of the group as committed (Kafka's read operation): the id's group at its
        partition's HW, its classic fields as they are now (group_timeline.py)."""
        g = self.committed_group(group_id)
        if g is not None and g.group_type != CLASSIC:
            # Kafka 4.3 (DescribeGroups v0-5): a group of another type shows as a Dead group
            return {"error": E.NONE, "group_id": group_id, "state": "Dead", "protocol_type": "",
                    "protocol": "", "members": [],
                    "message": f"Group {group_id} is not a classic group."}  # v6: GROUP_ID_NOT_FOUND with this
        return self.classic.describe_group(group_id, g)

    # ------------------------------------------------------------------ consumer and streams protocols

    def _member_epoch_heartbeat(self, protocol, result_cls, kind: str, refused: tuple, req, now_ms: int,
                                topics: dict | None):
        """A consumer or streams heartbeat; a group of a ``refused`` type has the id: GROUP_ID_NOT_FOUND."""
        self._now = now_ms
        g = self.groups.get(req.group_id)
        if g is not None and g.group_type in refused:
            return result_cls(error=E.GROUP_ID_NOT_FOUND, error_message=f"Group {req.group_id} is not a {kind} group.")
        if topics is not None:
            self.update_topics(topics)
        return protocol.heartbeat(req, now_ms)

    def consumer_group_heartbeat(self, req: HeartbeatRequest, now_ms: int, topics: dict | None = None
                                 ) -> HeartbeatResult:
        return self._member_epoch_heartbeat(self.consumer, HeartbeatResult, "consumer", (STREAMS, SHARE), req,
                                            now_ms, topics)

    def consumer_group_describe(self, group_id: str) -> dict:
        """The consumer group as committed (Kafka's read operation: group_timeline.py)."""
        return self.consumer.describe(group_id, self.committed_group(group_id))

    def streams_group_heartbeat(self, req: StreamsHeartbeatRequest, now_ms: int, topics: dict | None = None
                                ) -> StreamsHeartbeatResult:
        # (a consumer or classic group with the id: the streams protocol's own checks)
        return self._member_epoch_heartbeat(self.streams, StreamsHeartbeatResult, "streams", (SHARE,), req, now_ms,
                                            topics)

    def streams_group_describe(self, group_id: str) -> dict:
        """The streams group as committed (Kafka's read operation: group_timeline.py)."""
        return self.streams.describe(group_id, self.committed_group(group_id))

    # ------------------------------------------------------------------ offsets

    def commit_offsets(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                       offsets: dict, now_ms: int, retention_time_ms: int = -1,
                       api_version: int = 8, topic_ids: dict | None = None,
                       staged: offset_store.Staged | None = None) -> dict:
        """offsets: {(topic, partition): (offset, leader_epoch, metadata)}, topic_ids: {topic: id} stored
        with them (Kafka 4.3's OffsetCommitValue v4). Returns {(topic, partition): error}. ``staged``:
        ``offsets`` made ready beforehand (stage_offsets, a large commit's earlier steps): only the
        checks, the one write and the apply are left for this atomic step."""
        self._now = now_ms
        g = self.groups.get(group_id)
        if g is None:
            err = self._commit_without_group(group_id, generation_id, api_version, now_ms)
        else:
            err = g.validate_commit(member_id, group_instance_id, generation_id, list(offsets), False,
                                    api_version, now_ms, self.topics)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("[GroupId %s] Committing offsets %s from member %s with epoch %d: %s.", group_id,
                      {f"{t}-{p}": v[0] for (t, p), v in offsets.items()}, member_id, generation_id,
                      err.name if isinstance(err, ErrorCode)
                      else {f"{t}-{p}": e.name for (t, p), e in err.items()})
        result: dict = {}
        if isinstance(err, dict):  # some partitions refused (an older member epoch)
            result = {tp: e for tp, e in err.items() if e is not E.NONE}
            offsets = {tp: v for tp, v in offsets.items() if tp not in result}
        elif err is not E.NONE:
            return {tp: err for tp in offsets}
        if staged is None:
            staged = offset_store.stage(group_id, offsets, now_ms, topic_ids, self.config.offset_metadata_max_bytes,
                                        offset_store.expire_timestamp(now_ms, retention_time_ms))
        refused = result
        result = {**staged.errors, **refused} if refused else dict(staged.errors)
        ready, records = staged.without(refused)

        def apply() -> dict:
            g = self.groups.get(group_id)
            if g is None:  # a "simple" group: made by its first commit (_commit_without_group)
                g = self.groups[group_id] = Group(group_id, state_timestamp_ms=now_ms)
            self._changing(g, ready)
            g.offsets.update(ready)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("[GroupId %s] Offsets %s of member %s written.", group_id,
                          {f"{t}-{p}": v.offset for (t, p), v in ready.items()}, member_id)
            return {**result, **dict.fromkeys(ready, E.NONE)}

        return self.write(group_id, CoordinatorResult(
            records, apply, lambda e: {**result, **dict.fromkeys(ready, write_error(e))}), now_ms)

    def stage_offsets(self, group_id: str, offsets: dict, now_ms: int, retention_time_ms: int = -1,
                      topic_ids: dict | None = None, due: Callable[[], bool] = lambda: False
                      ) -> Generator[None, None, offset_store.Staged]:
        """A large commit's ``offsets`` made ready for commit_offsets (their OffsetAndMetadata and
        records, their batch's section encoded), yielding whenever ``due()``: done in the commit's steps
        before its atomic one, for they do not depend on the group's state (issue 27)."""
        return offset_store.stage_steps(group_id, offsets, now_ms, topic_ids, self.config.offset_metadata_max_bytes,
                                        offset_store.expire_timestamp(now_ms, retention_time_ms), due, encode=True)

    def offset_keys(self, group_id: str, partitions, due: Callable[[], bool] = lambda: False
                    ) -> Generator[None, None, dict]:
        """{tp: record key} of an OffsetDelete's partitions, yielding whenever ``due()`` (made in its
        steps before its atomic one: delete_offsets ``keys``)."""
        return offset_store.offset_keys_steps(group_id, partitions, due)

    def _commit_without_group(self, group_id: str, generation_id: int, api_version: int,
                              now_ms: int) -> ErrorCode:
        # an empty group id is a group like any other for OffsetCommit (Kafka 4.3 rejects only null)
        if generation_id < 0:
            return E.NONE  # a "simple" group (kafka-python's/Spark's commits without membership): made by the write
        return E.GROUP_ID_NOT_FOUND if api_version >= 9 else E.ILLEGAL_GENERATION

    def validate_txn_commit(self, group_id: str, generation_id: int, member_id: str,
                            group_instance_id: str | None, now_ms: int, partitions=()) -> ErrorCode:
        """TxnOffsetCommit: the same member/generation checks as OffsetCommit (txn_offsets.py writes)."""
        self._now = now_ms
        g = self.groups.get(group_id)
        if g is None or g.group_type == CLASSIC:
            if not group_id:
                return E.INVALID_GROUP_ID  # Kafka's commitTransactionalOffsets: isGroupIdNotEmpty
            if generation_id < 0 and not member_id and group_instance_id is None:
                return E.NONE  # Kafka: a transactional commit without membership is always accepted
            if g is None:
                err = self._commit_without_group(group_id, generation_id, 9, now_ms)
                if err is E.NONE:
                    self.groups[group_id] = Group(group_id, state_timestamp_ms=now_ms)
                return err
            return g.validate_commit(member_id, group_instance_id, generation_id, list(partitions), False, 9,
                                     now_ms, self.topics)
        err = g.validate_commit(member_id, group_instance_id, generation_id, list(partitions), True, 9, now_ms,
                                self.topics)
        if isinstance(err, dict):  # an older epoch: only for partitions named (none named: stale)
            return next((e for e in err.values() if e is not E.NONE), E.NONE) if err else E.STALE_MEMBER_EPOCH
        return err

    def apply_committed_offsets(self, group_id: str, offsets: dict, now_ms: int) -> None:
        """Offsets of a committed transaction (already in the log): now visible."""
        g = self.groups.get(group_id)
        if g is None:
            g = self.groups[group_id] = Group(group_id, state_timestamp_ms=now_ms)
        g.offsets.update(offsets)

    def validate_offset_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode:
        """OffsetFetch v9+: a consumer or streams group checks the member and its epoch."""
        g = self.groups.get(group_id)
        return E.NONE if g is None else g.validate_offset_fetch(member_id, member_epoch)

    def fetch_offsets(self, group_id: str, partitions: list | None,
                      topic_ids: dict | None = None, stable: bool = False) -> tuple[ErrorCode, dict]:
        """partitions: [(topic, partition)] or None for all; topic_ids: {topic: its current id} (an offset
        stored under another id is not seen); stable: OffsetFetch's require_stable (``committed``).
        Returns (error, {tp: OffsetAndMetadata | None})."""
        got = offset_store.fetch(self._readable(group_id, stable), partitions, topic_ids)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("[GroupId %s] Fetched offsets %s.", group_id,
                      {f"{t}-{p}": v.offset if v is not None else None for (t, p), v in got.items()})
        return E.NONE, got

    def delete_offsets(self, group_id: str, partitions: list, now_ms: int,
                       keys: dict | None = None) -> tuple[ErrorCode, dict]:
        """``keys``: {tp: record key} made beforehand (offset_keys)."""
        g = self.groups.get(group_id)
        if g is None or g.group_type == CLASSIC:
            if not group_id:
                return E.INVALID_GROUP_ID, {}
            if g is None or g.state is S.DEAD:
                return E.GROUP_ID_NOT_FOUND, {}
        if g.group_type == SHARE:
            return E.GROUP_ID_NOT_FOUND, {}  # Kafka's ShareGroup.validateOffsetDelete
        subscribed = g.offsets_subscribed()
        if subscribed is None:
            return E.NON_EMPTY_GROUP, {}
        result, records = offset_store.delete_unsubscribed(group_id, g.offsets, subscribed, partitions, keys)

        def apply() -> tuple[ErrorCode, dict]:
            self._changing(g, [tp for tp, err in result.items() if err is E.NONE and tp in g.offsets])
            for tp, err in result.items():
                if err is E.NONE:
                    g.offsets.pop(tp, None)
            return E.NONE, result

        return self.write(group_id, CoordinatorResult(records, apply, lambda e: (write_error(e), {})),
                          now_ms)

    def committed(self, group_id: str, stable: bool = False) -> dict:
        """The group's committed offsets as OffsetFetch reads them: committed on the partition's
        replicas (its high watermark), as Kafka's read operation; ``stable`` (require_stable): the
        newest, the response held until everything written so far is committed, as Kafka's write
        operation without records (either way an offset a reader saw is never lost)."""
        return dict(self._readable(group_id, stable))

    def _readable(self, group_id: str, stable: bool) -> dict:
        """``committed``, not copied when it is the group's own map (not to be changed)."""
        g = self.groups.get(group_id)
        offsets = g.offsets if g is not None else {}
        log_ = self.runtime.log
        if log_ is None:
            return offsets
        p = self.partition_for(group_id)
        if stable:
            log_.hold_until_committed(p)
            return offsets
        return self.timeline.view(p, log_.committed_offset(p), group_id, offsets)

    def _changing(self, g: GroupModel, keys, dropped: bool = False) -> None:
        """A write's apply is about to change these offsets of ``g`` (``keys``: a collection):
        readers see their values now until the write is committed (offset_timeline.py); ``g``'s
        offsets may be a new map after it (the write changes that one). ``dropped``: the write
        deletes every offset of ``g`` (it gets an empty map; the one it had is kept as it is)."""
        last, log_ = self.runtime.last_offset, self.runtime.log
        if last is None or log_ is None or not keys:
            if dropped:
                g.offsets = {}
            return
        p = self.partition_for(g.group_id)
        self.timeline.prune(p, log_.committed_offset(p))
        if dropped:
            g.offsets = self.timeline.dropping(p, last, g.group_id, g.offsets)
        else:
            g.offsets = self.timeline.changing(p, last, g.group_id, g.offsets, keys)

    def _changing_group(self, group_id: str) -> None:
        """A write that appended records (runtime.last_offset) is about to change the group the id
        names: readers see it as it is now until the write is committed (group_timeline.py)."""
        last, log_ = self.runtime.last_offset, self.runtime.log
        if last is None or log_ is None:
            return
        p = self.partition_for(group_id)
        if log_.committed_offset(p) > last:
            return  # committed already (a single replica, written at once)
        end = log_.end_offset(p)
        # the write's batch: the open one (collected, not written yet: it starts at the log end), or
        # its own, written at once
        start = end if end <= last else last + 1 - self.runtime.appended
        self.group_timeline.changing(p, group_id, last, start, self.groups.get(group_id))

    def committed_group(self, group_id: str) -> GroupModel | None:
        """The group the id names at its partition's high watermark (None: none), as Kafka's read
        operations see it (group_timeline.py)."""
        g = self.groups.get(group_id)
        log_ = self.runtime.log
        if log_ is None or not self.group_timeline.partitions():
            return g
        p = self.partition_for(group_id)
        return self.group_timeline.view(p, log_.committed_offset(p), group_id, g)

    def _forget_committed(self) -> None:
        """Forget the notes of the writes committed since (on the tick: a partition quiet since its
        last write would keep them, and a note can hold a whole offset map)."""
        log_ = self.runtime.log
        if log_ is None:
            return
        for timeline in (self.timeline, self.group_timeline):
            for p in timeline.partitions():
                timeline.prune(p, log_.committed_offset(p))

    # ------------------------------------------------------------------ admin

    def list_groups(self, states: Iterable[str] | None = None, types: Iterable[str] | None = None) -> list:
        """[(group_id, protocol_type, state, group type)] of the groups as committed (Kafka's read
        operation: group_timeline.py)."""
        want_states = {s.lower() for s in states} if states else None
        want_types = {t.lower() for t in types} if types else None
        out = []
        log_ = self.runtime.log
        views = {} if log_ is None else self.group_timeline.views(log_.committed_offset)
        for g in self._by_type(committed_groups(self.groups, views) if views else None):
            row = g.list_row()
            if row is None:
                continue
            if want_states is not None and g.state_key() not in want_states:
                continue
            if want_types is not None and g.group_type not in want_types:
                continue
            out.append(row)
        return out

    def delete_groups(self, group_ids: list, now_ms: int) -> dict:
        """The groups of each __consumer_offsets partition go in one write of all their tombstones
        (Kafka's GroupCoordinatorService.deleteGroups: a write operation per partition)."""
        result = {}
        by_partition: dict[int, list] = {}
        for gid in dict.fromkeys(group_ids):  # (a group named twice goes once; both answered alike)
            g = self.groups.get(gid)
            if (g is None or g.group_type == CLASSIC) and not gid:
                result[gid] = E.INVALID_GROUP_ID
            elif g is None or g.list_row() is None:
                result[gid] = E.GROUP_ID_NOT_FOUND
            elif not g.is_empty():
                result[gid] = E.NON_EMPTY_GROUP
            else:
                by_partition.setdefault(self.partition_for(gid), []).append(g)
        for groups in by_partition.values():
            deletions = [self._deletion(g, g.offsets, now_ms) for g in groups]
            names = [g.group_id for g in groups]

            def apply(deletions=deletions, names=names) -> dict:
                return {gid: d.apply() for gid, d in zip(names, deletions)}

            result.update(self.write(names[0], CoordinatorResult(
                [r for d in deletions for r in d.records], apply,
                lambda e, names=names: dict.fromkeys(names, E.UNKNOWN_SERVER_ERROR)), now_ms))
        return result

    def _deletion(self, g: GroupModel, offsets: Iterable, now_ms: int, failed=None) -> CoordinatorResult:
        """The group goes, with its committed offsets of ``offsets`` (every one it has)."""
        def apply() -> ErrorCode:
            self._changing_group(g.group_id)  # (one write deletes every group of its partition)
            self._changing(g, g.offsets, dropped=True)
            # (out of the map, its state as it was, as Kafka's replay of the tombstone: readers see
            # it so until the deletion is committed)
            del self.groups[g.group_id]
            return E.NONE

        return CoordinatorResult(offset_store.tombstones(g.group_id, offsets) + g.tombstones(), apply, failed)

    # ------------------------------------------------------------------ time

    def tick(self, now_ms: int) -> None:
        """Fire every timer that is due: the classic groups' (sessions, rebalances), offset retention,
        then the consumer and streams groups' (sessions, assignment delays), in that order."""
        self._now = now_ms
        self._forget_committed()
        groups = []
        for gid in list(self._ticking):
            g = self.groups.get(gid)
            if g is None or g.group_type == SHARE or (g.group_type == CLASSIC and g.timerless()):
                del self._ticking[gid]  # (gone, or no timer left: a JoinGroup or install brings it back)
            else:
                groups.append(g)
        for g in groups:
            if g.group_type == CLASSIC:
                self.classic.tick(g, now_ms)
        if now_ms >= self._next_retention_check:
            self._next_retention_check = now_ms + self.config.offsets_retention_check_interval_ms
            self.expire_offsets(now_ms)
        for g in groups:  # (share groups: the share group coordinator's own tick)
            if g.group_type in (CONSUMER, STREAMS) and self.groups.get(g.group_id) is g:
                self._protocols[g.group_type].tick(g, now_ms)

    def ticked(self) -> list[str]:
        """The ids of the groups the tick walks (``_ticking``; for tests)."""
        return list(self._ticking)

    def expire_offsets(self, now_ms: int) -> None:
        """offsets.retention.minutes: drop old commits (of topics the group does not read); an empty
        group whose offsets are all gone is deleted."""
        retention = self.config.offsets_retention_minutes * 60_000
        for g in self._by_type():
            expiry = g.offset_expiry()
            if expiry is None:
                continue
            subscribed, base_time = expiry
            gone = offset_store.expired(g.offsets, subscribed, base_time, now_ms, retention)
            delete_group = g.is_empty() and len(gone) == len(g.offsets)
            if not gone and not delete_group:
                continue
            if delete_group:
                self.write(g.group_id, self._deletion(g, gone, now_ms, lambda e: None), now_ms)
                continue

            def expire(g=g, gone=gone) -> None:
                self._changing(g, gone)
                for tp in gone:
                    g.offsets.pop(tp, None)

            self.write(g.group_id, CoordinatorResult(offset_store.tombstones(g.group_id, gone), expire,
                                                     lambda e: None), now_ms)
