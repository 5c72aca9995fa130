"""KIP-848 consumer groups' protocol: ConsumerGroupHeartbeat (server-side assignment, member epochs,
reconciliation) and ConsumerGroupDescribe, the ConsumerGroup* records' replay and the session and
rebalance timers (Kafka's consumer group handling in GroupMetadataManager).

Pure like the rest of the coordinator: state lives in the coordinator's one map of groups (this
module touches only its consumer groups, and turns a classic group into one: an empty one at once,
one with members by KIP-848's online upgrade, group_conversion.py, whose classic members
classic_members.py serves; the last consumer-protocol member's leave may turn it back), time comes
in as now_ms, topics as a {name: (topic_id, partitions)} snapshot of the metadata image, and every
change is first appended as ConsumerGroup* records (consumer_group_records.py), then applied.

Not done (Kafka 4.3 does it): rack-aware assignment, client-side assignors.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from odradek.config import BrokerConfig
from odradek.wire.errors import ErrorCode

from . import assignors
from . import group_conversion as conversion
from .group_model import CONSUMER, GroupModel, release_emptied
from . import consumer_group_records as crec
from . import member_protocol as mp
from . import group_records as rec
from .consumer_group_state import (
    INITIAL_GROUP_EPOCH,
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    MEMBER_STATE_NAMES,
    UNREVOKED_PARTITIONS,
    ClassicMetadata,
    ConsumerGroup,
    ConsumerMember,
    preferred_assignor,
    reconcile,
)
from .errors import CoordinatorError
from .group_state import Group, GroupState
from .result import CoordinatorResult
from .settings import broker_default, setting_values, with_group_configs

if TYPE_CHECKING:
    from .group_coordinator import GroupCoordinator

log = logging.getLogger(__name__)

E = ErrorCode
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})



@dataclass
class ConsumerGroupConfig:
    """The broker's group.consumer.* settings (defaults from odradek/config.py where it has them)."""
    group_consumer_heartbeat_interval_ms: int = broker_default("group_consumer_heartbeat_interval_ms")
    group_consumer_session_timeout_ms: int = broker_default("group_consumer_session_timeout_ms")
    group_consumer_min_session_timeout_ms: int = 45000  # Kafka's defaults (not broker settings here)
    group_consumer_max_session_timeout_ms: int = 60000
    group_consumer_max_size: int = broker_default("group_consumer_max_size")
    group_consumer_assignors: tuple = assignors.DEFAULT_ASSIGNORS
    # a group's target assignment is computed again at most once per interval (0: at every epoch)
    group_consumer_assignment_interval_ms: int = broker_default("group_consumer_assignment_interval_ms")
    # online upgrade/downgrade with members (group_conversion.py): bidirectional, upgrade, downgrade, disabled
    group_consumer_migration_policy: str = broker_default("group_consumer_migration_policy")

    @classmethod
    def from_any(cls, obj: "BrokerConfig | Mapping | None") -> "ConsumerGroupConfig":
        c = cls()
        if obj is None:
            return c
        values = setting_values(obj)
        for name in ("group_consumer_heartbeat_interval_ms", "group_consumer_session_timeout_ms",
                     "group_consumer_max_size", "group_consumer_assignors",
                     "group_consumer_assignment_interval_ms", "group_consumer_migration_policy"):
            val = values.get(name, values.get(name.replace("_", ".")))
            if val is None:
                continue
            if name == "group_consumer_migration_policy":
                c.group_consumer_migration_policy = str(val)
            elif name == "group_consumer_assignors":
                if isinstance(val, str):
                    val = [v.strip() for v in val.split(",") if v.strip()]
                # Kafka accepts class names too: keep the short name ("...UniformAssignor" -> "uniform")
                names = []
                for v in val:
                    short = v.rsplit(".", 1)[-1].lower().removesuffix("assignor")
                    if short in assignors.ASSIGNORS:
                        names.append(short)
                setattr(c, name, tuple(names) or assignors.DEFAULT_ASSIGNORS)
            else:
                setattr(c, name, int(val))
        return c

    @property
    def default_assignor(self) -> str:
        return self.group_consumer_assignors[0]

    @property
    def migration(self) -> tuple[bool, bool]:
        """(online upgrade enabled, online downgrade enabled)."""
        return conversion.policy(self.group_consumer_migration_policy)


# a consumer group's own GROUP configs (Kafka 4.3's GroupConfig consumer.*) -> the field each sets
_GROUP_CONFIGS = {"consumer.session.timeout.ms": "group_consumer_session_timeout_ms",
                  "consumer.heartbeat.interval.ms": "group_consumer_heartbeat_interval_ms",
                  "consumer.assignment.interval.ms": "group_consumer_assignment_interval_ms"}


@dataclass
class HeartbeatResult:
    """The coordinator's answer to a ConsumerGroupHeartbeat."""
    error: ErrorCode = E.NONE
    error_message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: dict | None = None  # {topic_id: sorted partitions} or None (unchanged)


@dataclass
class HeartbeatRequest:
    """A ConsumerGroupHeartbeat request, as the coordinator reads it."""
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    subscribed_topic_names: list | None = None
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    owned: list | None = None  # [(topic_id, [partitions])]
    client_id: str = ""
    client_host: str = ""
    api_version: int = 1
    # the topic names among these the member's principal may DESCRIBE (the authorizer's filter); a regular
    # expression resolved for this heartbeat keeps only those, as Kafka 4.3's TopicRegexResolver.
    # None: every topic (no authorizer)
    describable: Callable[[Iterable[str]], set[str]] | None = None





_RE2_UNSUPPORTED = re.compile(r"\(\?[=!<]|\\[1-9]|\(\?P=")


def compile_regex(pattern: str):
    """RE2J-like: Python re, refusing what RE2 refuses (lookarounds, backreferences)."""
    if _RE2_UNSUPPORTED.search(pattern):
        raise re.error("lookaround and backreferences are not supported (RE2 syntax)")
    return re.compile(pattern)


def _metadata_hash(topics: dict, names: set) -> int:
    h = hashlib.blake2b(digest_size=8)
    for name in sorted(names):
        t = topics.get(name)
        if t is None:
            continue
        h.update(name.encode() + b"\0" + bytes(t[0]) + t[1].to_bytes(4, "big"))
    return int.from_bytes(h.digest(), "big", signed=True)


def _member_names(m: ConsumerMember, regexes: dict) -> set:
    names = set(m.subscribed_topic_names)
    if m.subscribed_topic_regex and m.subscribed_topic_regex in regexes:
        names |= regexes[m.subscribed_topic_regex][0]
    return names


_MEMBER_METADATA_FIELDS = ("instance_id", "rack_id", "rebalance_timeout_ms", "subscribed_topic_names",
                           "subscribed_topic_regex", "server_assignor", "client_id", "client_host", "classic")


@dataclass
class HeartbeatSteps:
    """One heartbeat in the making: the records it writes and the group state they stand for."""
    group_id: str
    member_id: str
    member: ConsumerMember  # as it is (or its new/taking-over form)
    replaced: ConsumerMember | None  # the released static member taken over
    new_member: bool
    updated: ConsumerMember | None = None
    records: list = field(default_factory=list)
    removed: tuple = ()  # the stored members this heartbeat replaces (itself as it was, a taken-over static member)
    hash_of: tuple = (0, 0)  # (topics table version, subscriptions version) the steps saw
    bump: bool = False
    regexes: dict = field(default_factory=dict)
    sig: frozenset = frozenset()
    mhash: int = 0
    group_epoch: int = 0
    target: dict = field(default_factory=dict)  # the member's target assignment
    new_target: dict | None = None  # the group's whole new target assignment, when computed
    assignment_epoch: int = 0
    describable: Callable[[Iterable[str]], set[str]] | None = None  # HeartbeatRequest.describable


@dataclass
class _Upgrade:
    """A classic group a consumer group takes the id of once the heartbeat's records are written after
    these (the classic group's tombstone first): an online upgrade in the making (the classic group
    converted, members and all), or an empty classic group replaced (``empty``)."""
    classic: Group
    records: list
    empty: bool = False


class ConsumerProtocol:
    def __init__(self, coord: "GroupCoordinator", config: ConsumerGroupConfig):
        self.coord = coord
        self.config = config
        self._topics_sig = None  # the topic names regular expressions were last resolved against
        self.assignor_runs = 0  # target assignments computed (each a pass over a whole group)
        self._ids: dict = {}  # (subscribed names, resolved regex names) -> topic ids, for one topics table
        self._ids_version = -1

    def _group(self, group_id: str) -> ConsumerGroup | None:
        return mp.typed_group(self.coord.groups, group_id, ConsumerGroup)

    def _cfg(self, group_id: str) -> ConsumerGroupConfig:
        """The broker's group.consumer.* settings with the group's consumer.* configs over them."""
        return with_group_configs(self.config, self.coord.group_overrides(group_id) or {}, _GROUP_CONFIGS)

    # ------------------------------------------------------------------ persistence

    def load(self, records: list, now: int) -> None:
        """The consumer groups of one __consumer_offsets partition, from their records."""
        mp.load_groups(self.coord.groups, records, crec, ConsumerGroup, lambda gid, s: self._loaded(gid, s, now),
                       lambda g, mid, mv, cv: self._load_member(g, mid, mv, cv, now),
                       lambda tv: {bytes(t.topic_id): set(t.partitions) for t in tv.topic_partitions})

    def _loaded(self, gid: str, s, now: int) -> ConsumerGroup:
        g = ConsumerGroup(gid, group_epoch=s.metadata.epoch, metadata_hash=s.metadata.metadata_hash,
                          state_timestamp_ms=now)
        if s.target_metadata is not None:
            g.assignment_epoch = s.target_metadata.assignment_epoch
            g.assignment_timestamp_ms = s.target_metadata.assignment_timestamp
        for (kind, regex), rv in s.other.items():
            if kind == crec.REGULAR_EXPRESSION and rv is not None:
                g.resolved_regexes[regex] = (frozenset(rv.topics), rv.version)
        return g

    def _load_member(self, g: ConsumerGroup, mid: str, mv, cv, now: int) -> None:
        m = ConsumerMember(
            member_id=mid, instance_id=mv.instance_id, rack_id=mv.rack_id, client_id=mv.client_id,
            client_host=mv.client_host, subscribed_topic_names=list(mv.subscribed_topic_names or []),
            subscribed_topic_regex=mv.subscribed_topic_regex or None,
            rebalance_timeout_ms=mv.rebalance_timeout_ms, server_assignor=mv.server_assignor or None)
        cm = mv.classic_member_metadata
        if cm is not None:
            m.classic = ClassicMetadata(cm.session_timeout_ms,
                                        tuple((p.name, bytes(p.metadata)) for p in cm.supported_protocols))
        if cv is not None:
            m.assigned = crec.epochs_from(cv.assigned_partitions, cv.member_epoch)
            m.pending_revocation = crec.epochs_from(cv.partitions_pending_revocation, cv.member_epoch)
        session_ms = m.classic.session_timeout_ms if m.classic is not None else \
            self._cfg(g.group_id).group_consumer_session_timeout_ms
        mp.restore_member(m, cv, now, session_ms, UNREVOKED_PARTITIONS)
        g.members[mid] = m
        if m.instance_id is not None:
            g.static_members[m.instance_id] = mid

    # ------------------------------------------------------------------ metadata

    def _topic_ids(self, names: set) -> set:
        return {self.coord.topics[n][0] for n in names if n in self.coord.topics}

    def subscribed_ids(self, m: ConsumerMember, regexes: dict) -> frozenset:
        """The topic ids a member subscribes to, kept per subscription while the topics table is
        the same (a member subscribed to thousands of topics by a regular expression would make
        them again at each heartbeat)."""
        version = self.coord.topics_version
        if self._ids_version != version or len(self._ids) > 1024:
            self._ids, self._ids_version = {}, version
        regex = m.subscribed_topic_regex
        key = (tuple(m.subscribed_topic_names), regexes[regex][0] if regex in regexes else None)
        ids = self._ids.get(key)
        if ids is None:
            ids = self._ids[key] = frozenset(self._topic_ids(_member_names(m, regexes)))
        return ids

    def names_by_id(self) -> dict:
        return {tid: name for name, (tid, _n) in self.coord.topics.items()}

    def _resolve(self, regex: str, describable) -> frozenset:
        try:
            pat = compile_regex(regex)
        except re.error:
            return frozenset()
        names = [n for n in self.coord.topics if n not in INTERNAL_TOPICS and pat.fullmatch(n)]
        return frozenset(names if describable is None else describable(names))

    # ------------------------------------------------------------------ ConsumerGroupHeartbeat

    def heartbeat(self, req: HeartbeatRequest, now_ms: int) -> HeartbeatResult:
        return mp.answer(req, now_ms, self._validate_heartbeat, self._leave, self._heartbeat, HeartbeatResult)

    def _validate_heartbeat(self, req: HeartbeatRequest) -> None:
        bad = lambda msg: CoordinatorError(E.INVALID_REQUEST, msg)  # noqa: E731
        mp.check_ids(req)
        if req.api_version >= 1 and not req.member_id:
            raise bad("MemberId can't be empty.")
        if req.member_epoch > 0 or req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH:
            if not req.member_id:
                raise bad("MemberId can't be empty.")
        elif req.member_epoch == 0:
            if req.rebalance_timeout_ms == -1:
                raise bad("RebalanceTimeoutMs must be provided in first request.")
            if req.owned is None or any(ps for _t, ps in req.owned):
                raise bad("TopicPartitions must be empty when (re-)joining.")
            if req.subscribed_topic_names is None and req.subscribed_topic_regex is None:
                raise bad("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.")
        elif req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            if req.instance_id is None:
                raise bad("InstanceId can't be null.")
        else:
            raise bad(f"MemberEpoch {req.member_epoch} is invalid.")
        if req.subscribed_topic_regex is not None and req.subscribed_topic_regex:
            try:
                compile_regex(req.subscribed_topic_regex)
            except re.error as e:
                raise CoordinatorError(E.INVALID_REGULAR_EXPRESSION,
                                       f"SubscribedTopicRegex `{req.subscribed_topic_regex}` is not a valid regular "
                                       f"expression: {e}.") from None
        if req.server_assignor is not None and req.server_assignor not in self.config.group_consumer_assignors:
            raise CoordinatorError(E.UNSUPPORTED_ASSIGNOR, f"ServerAssignor {req.server_assignor} is not supported. "
                                   f"Supported assignors: {', '.join(self.config.group_consumer_assignors)}.")

    def _group_for_heartbeat(self, group_id: str, create: bool, now_ms: int) -> tuple[ConsumerGroup, "_Upgrade | None"]:
        """The consumer group, new, or made of the classic group of the id (the _Upgrade: it takes the id
        with this heartbeat's records, as Kafka's replay of them materializes it; until they are
        written, and for readers until they are committed, the classic group is the id's)."""
        g = self._group(group_id)
        if g is not None:
            return g, None
        classic = self.coord.groups.get(group_id)
        if isinstance(classic, Group):
            if not create:
                raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.")
            if classic.members or classic.state not in (GroupState.EMPTY,):
                return self._upgrade(classic, now_ms)
            # an empty classic group becomes a consumer group, its committed offsets kept (Kafka does too)
            g = ConsumerGroup(group_id, state_timestamp_ms=now_ms, offsets=classic.offsets)
            # (its GroupMetadata tombstone, as Kafka's createGroupTombstoneRecords writes it, also for a
            # group that only has offsets and so no such record)
            return g, _Upgrade(classic, [(rec.group_metadata_key(group_id), None)], empty=True)
        if not create:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        # a new group takes the id once the heartbeat's records are written (_heartbeat_in), as
        # Kafka's, which materializes it when it replays them
        return ConsumerGroup(group_id, state_timestamp_ms=now_ms), None

    def _upgrade(self, classic: Group, now_ms: int) -> tuple[ConsumerGroup, "_Upgrade"]:
        """Kafka's validateOnlineUpgrade and convertToConsumerGroup: the consumer group made of the
        classic one and its records (the classic group's tombstone first), written with the joining
        heartbeat's."""
        conversion.check_upgrade(classic, self.config.migration[0], self.config.group_consumer_max_size)
        topics = self.coord.topics
        g = conversion.consumer_group_from_classic(classic, topics, now_ms)
        g.metadata_hash = _metadata_hash(topics, g.subscribed_topic_names())
        records = [(rec.group_metadata_key(classic.group_id), None)] + conversion.consumer_group_records(g)
        return g, _Upgrade(classic, records)

    def _upgraded(self, g: ConsumerGroup, upgrade: "_Upgrade", now_ms: int) -> None:
        """The conversion's records are written: the consumer group takes the id; the classic
        group's parked JoinGroups and SyncGroups are answered REBALANCE_IN_PROGRESS (they join again,
        into the consumer group)."""
        upgrade.classic.fail_parked(E.REBALANCE_IN_PROGRESS)
        self.coord.install(g)
        g.deadlines_checked_until = 0
        self.coord.wake(("group", g.group_id))
        log.info("[GroupId %s] Converted the %sclassic group to a consumer group.", g.group_id,
                 "empty " if upgrade.empty else "")

    def _drop_if_new_and_empty(self, g: ConsumerGroup) -> None:
        if not g.members and g.group_epoch == INITIAL_GROUP_EPOCH and not g.offsets:
            if self.coord.groups.get(g.group_id) is g:
                del self.coord.groups[g.group_id]

    def _heartbeat(self, req: HeartbeatRequest, now_ms: int) -> HeartbeatResult:
        g, upgrade = self._group_for_heartbeat(req.group_id, req.member_epoch == 0, now_ms)
        try:
            return self._heartbeat_in(g, req, now_ms, upgrade)
        except CoordinatorError:
            if upgrade is None:
                self._drop_if_new_and_empty(g)
            raise

    def _heartbeat_in(self, g: ConsumerGroup, req: HeartbeatRequest, now_ms: int,
                      upgrade: "_Upgrade | None" = None) -> HeartbeatResult:
        """Kafka's consumerGroupHeartbeat, in its steps: the member (new, known, or a static member
        taking over its released instance), its metadata, the group's regular expressions, metadata
        hash and epoch, the target assignment, the member's reconciliation; the records are written,
        then the new state applied."""
        member_id = req.member_id or self.coord.new_uuid()  # v0: the coordinator names new members
        member, replaced, new_member = self._member_for(g, req, member_id)
        hb = HeartbeatSteps(g.group_id, member_id, member, replaced, new_member, describable=req.describable)
        if upgrade is not None:
            hb.records.extend(upgrade.records)
        hb.updated = self._updated_member(member, req)
        before = self.steps(g, hb, req.owned, now_ms)

        def apply() -> HeartbeatResult:
            if upgrade is not None:
                self._upgraded(g, upgrade, now_ms)
            elif self.coord.groups.get(g.group_id) is not g:
                self.coord.install(g)  # a new group
            self.apply(g, hb, before, now_ms)
            return self._response(hb, req)

        return self.coord.write(hb.group_id, CoordinatorResult(hb.records, apply, mp.write_failed), now_ms)

    def steps(self, g: ConsumerGroup, hb: "HeartbeatSteps", owned: list | None, now_ms: int) -> ConsumerMember:
        """A member's update (``hb.updated`` set: a ConsumerGroupHeartbeat's, or a classic member's
        JoinGroup, classic_members.py) in Kafka's steps: its metadata, the group's regular expressions,
        metadata hash and epoch, the target assignment, the member's reconciliation against what it
        says it ``owned``. Returns the member before reconciliation; ``apply`` once the records are written."""
        self.metadata_steps(g, hb, now_ms)
        self._target_step(g, hb, now_ms)
        return self._reconcile_step(g, hb, owned)

    def metadata_steps(self, g: ConsumerGroup, hb: "HeartbeatSteps", now_ms: int) -> None:
        """The first of ``steps``: the member's metadata, the group's regular expressions, metadata
        hash and epoch (hb.group_epoch)."""
        self._member_metadata_step(hb)
        hb.removed = tuple(m for m in (g.members.get(hb.member_id), hb.replaced) if m is not None)
        self._group_epoch_step(g, hb, now_ms)

    def _response(self, hb: "HeartbeatSteps", req: HeartbeatRequest) -> HeartbeatResult:
        updated, member = hb.updated, hb.member
        full = (req.rebalance_timeout_ms != -1 and (req.subscribed_topic_names is not None
                                                    or req.subscribed_topic_regex is not None)
                and req.owned is not None)
        send_assignment = req.member_epoch == 0 or updated.assigned != member.assigned or full \
            or hb.replaced is not None
        return HeartbeatResult(
            member_id=hb.member_id, member_epoch=updated.member_epoch,
            heartbeat_interval_ms=self._cfg(hb.group_id).group_consumer_heartbeat_interval_ms,
            assignment={tid: sorted(ps) for tid, ps in sorted(updated.assigned.items())} if send_assignment
            else None)

    def _member_for(self, g: ConsumerGroup, req: HeartbeatRequest, member_id: str):
        """(the member as it is, the released static member it replaces or None, whether it is new)."""
        if req.instance_id is None:
            member = g.members.get(member_id)
            if req.member_epoch == 0:
                if member is None:
                    self._check_size(g)
                    return ConsumerMember(member_id), None, True
                return member, None, False
            if member is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group "
                                                            f"{g.group_id}.")
            self._check_epoch(member, req)
            return member, None, False
        old_id = g.static_members.get(req.instance_id)
        old = g.members.get(old_id) if old_id is not None else None
        if req.member_epoch != 0:
            if old is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Instance id {req.instance_id} is unknown.")
            if old.member_id != req.member_id:
                raise CoordinatorError(E.FENCED_INSTANCE_ID, f"Static member {req.member_id} with instance id "
                                                             f"{req.instance_id} is fenced by {old.member_id}.")
            self._check_epoch(old, req)
            return old, None, False
        if old is None:
            self._check_size(g)
            return ConsumerMember(member_id, instance_id=req.instance_id), None, True
        if old.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH and old.classic is None:
            # (a classic member's instance is taken over at once: Kafka checks only consumer-protocol ones)
            raise CoordinatorError(E.UNRELEASED_INSTANCE_ID, f"Static member {old.member_id} with instance id "
                                                             f"{req.instance_id} is not released yet.")
        # the restarted static member takes over the released one: same assignment, no rebalance
        member = old.copy()
        member.member_id = member_id
        member.member_epoch = 0
        member.previous_member_epoch = 0
        return member, old, False

    @staticmethod
    def _updated_member(member: ConsumerMember, req: HeartbeatRequest) -> ConsumerMember:
        """The member with what the request sets."""
        updated = member.copy()
        if req.instance_id is not None:
            updated.instance_id = req.instance_id
        if req.rack_id is not None:
            updated.rack_id = req.rack_id
        if req.rebalance_timeout_ms != -1:
            updated.rebalance_timeout_ms = req.rebalance_timeout_ms
        if req.subscribed_topic_names is not None:
            updated.subscribed_topic_names = sorted(set(req.subscribed_topic_names))
        if req.subscribed_topic_regex is not None:
            updated.subscribed_topic_regex = req.subscribed_topic_regex or None
        if req.server_assignor is not None:
            updated.server_assignor = req.server_assignor or None
        updated.client_id, updated.client_host = req.client_id, req.client_host
        updated.classic = None  # (a classic member heartbeating with the consumer protocol no longer is one)
        return updated

    @staticmethod
    def _member_metadata_step(hb: "HeartbeatSteps") -> None:
        member, updated = hb.member, hb.updated
        hb.bump = hb.new_member or (updated.subscribed_topic_names != member.subscribed_topic_names
                                    or updated.subscribed_topic_regex != member.subscribed_topic_regex)
        metadata_changed = any(getattr(updated, f) != getattr(member, f) for f in _MEMBER_METADATA_FIELDS)
        if hb.new_member or metadata_changed or hb.replaced is not None:
            hb.records.append(crec.member_metadata(hb.group_id, updated))

    def _group_epoch_step(self, g: ConsumerGroup, hb: "HeartbeatSteps", now_ms: int) -> None:
        """Regular expressions (resolve new ones, refresh all when the topics changed, drop unused
        ones) and the metadata of every subscribed topic (a new partition or topic changes the
        hash): any change, or a new subscription, bumps the group epoch."""
        gid, topics = hb.group_id, self.coord.topics
        regexes = dict(g.resolved_regexes)
        used = set(g.members.counts_with("regex_counts", hb.removed, (hb.updated,)))
        hb.sig = self.coord.topic_names()
        topics_changed = self._topics_sig is not hb.sig and self._topics_sig != hb.sig
        for regex in sorted(used):
            if regex not in regexes or topics_changed:
                resolved = self._resolve(regex, hb.describable)
                old = regexes.get(regex)
                if old is None or old[0] != resolved:
                    version = (old[1] + 1) if old else 0
                    regexes[regex] = (resolved, version)
                    hb.records.append(crec.regular_expression(gid, regex, sorted(resolved), version, now_ms))
                    hb.bump = True
        for regex in sorted(set(regexes) - used):
            del regexes[regex]
            hb.records.append(crec.regular_expression(gid, regex, None))
        hb.regexes = regexes
        hb.hash_of = (self.coord.topics_version, g.members.subscriptions_version)
        if not hb.bump and hb.replaced is None and g.metadata_hash_of == hb.hash_of:
            # the same topics table and subscriptions as when the hash was computed (this member's
            # unchanged too: no bump): the same hash, without a pass over every subscribed topic
            hb.mhash = g.metadata_hash
        else:
            names = set(g.members.counts_with("topic_name_counts", hb.removed, (hb.updated,)))
            for regex in used:
                names |= regexes[regex][0]
            hb.mhash = _metadata_hash(topics, names)
        if hb.mhash != g.metadata_hash:
            hb.bump = True
        hb.group_epoch = g.group_epoch + 1 if hb.bump else g.group_epoch
        if hb.bump:
            hb.records.append(crec.group_metadata(gid, hb.group_epoch, hb.mhash))

    def _target_step(self, g: ConsumerGroup, hb: "HeartbeatSteps", now_ms: int) -> None:
        """A new target assignment when the group epoch moved past the assignment epoch and the
        assignment interval allows (_may_assign); otherwise the member keeps to the last target."""
        gid, member_id = hb.group_id, hb.member_id
        hb.assignment_epoch = g.assignment_epoch
        hb.target = g.target.get(member_id, {})
        if hb.replaced is not None:
            hb.target = g.target.get(hb.replaced.member_id, {})
            hb.records.append(crec.target_member(gid, hb.replaced.member_id, None))
            hb.records.append(crec.target_member(gid, member_id, hb.target))
        if hb.group_epoch > hb.assignment_epoch and self._may_assign(g, now_ms):
            # the one pass over the whole group: the assignor's
            target = dict(g.target)
            members = dict(g.members)
            if hb.replaced is not None:
                target.pop(hb.replaced.member_id, None)
                del members[hb.replaced.member_id]
                target[member_id] = hb.target
            members[member_id] = hb.updated
            topics = self.coord.topics
            ids_of: dict = {}  # the topic ids of each distinct subscription (most members share one)
            wanted: set = set()  # the names subscribed (that exist)
            subs = {}
            for mid, m in members.items():
                key = (tuple(m.subscribed_topic_names), m.subscribed_topic_regex)
                ids = ids_of.get(key)
                if ids is None:
                    names = {n for n in _member_names(m, hb.regexes) if n in topics}
                    wanted |= names
                    ids = ids_of[key] = frozenset(topics[n][0] for n in names)
                subs[mid] = ids
            topic_meta = {topics[name][0]: (name, topics[name][1]) for name in wanted}
            counts = g.members.counts_with("assignor_counts", hb.removed, (hb.updated,))
            assignor_name = preferred_assignor(counts, self.config.default_assignor)
            self.assignor_runs += 1
            new_target = assignors.ASSIGNORS[assignor_name](subs, topic_meta, target)
            for mid in members:
                t = {tid: ps for tid, ps in new_target.get(mid, {}).items() if ps}
                if t != target.get(mid, {}) or mid not in target:
                    hb.records.append(crec.target_member(gid, mid, t))
                target[mid] = t
            hb.assignment_epoch = hb.group_epoch
            hb.records.append(crec.target_metadata(gid, hb.assignment_epoch, now_ms))
            hb.new_target = target
            hb.target = target[member_id]

    def _may_assign(self, g: ConsumerGroup, now_ms: int) -> bool:
        """Kafka 4.3's canComputeNextTargetAssignment: a group's next target assignment waits for
        group.consumer.assignment.interval.ms after the last one (none yet, or an interval of 0: at
        once). Meanwhile members reconcile against the last target, so a storm of joins runs the
        assignor once per interval, not once per join."""
        interval = self._cfg(g.group_id).group_consumer_assignment_interval_ms
        last = g.assignment_timestamp_ms
        return last == 0 or interval == 0 or now_ms >= last + interval

    def _reconcile_step(self, g: ConsumerGroup, hb: "HeartbeatSteps", owned: list | None) -> ConsumerMember:
        """Move the member towards its target (what other members still own is looked up in the
        group's index, not gathered from every member); returns the member before reconciliation."""
        member, members = hb.member, g.members
        others_than = (hb.member_id,) if hb.replaced is None else (hb.member_id, hb.replaced.member_id)
        subscribed_ids = self.subscribed_ids(hb.updated, hb.regexes)
        before = hb.updated
        updated = reconcile(before, hb.assignment_epoch, hb.target,
                            lambda tid, p: members.owned_by_other(tid, p, others_than), subscribed_ids, owned)
        assignment_changed = (updated.assigned != before.assigned or updated.member_epoch != member.member_epoch
                              or updated.state != member.state
                              or updated.pending_revocation != member.pending_revocation
                              or updated.previous_member_epoch != member.previous_member_epoch)
        if hb.new_member or assignment_changed or hb.replaced is not None:
            hb.records.append(crec.current_member(hb.group_id, updated))
        if hb.replaced is not None:
            hb.records.append(crec.current_member(hb.group_id, hb.replaced.member_id))
            hb.records.append(crec.member_metadata(hb.group_id, hb.replaced.member_id))
        hb.updated = updated
        return before

    def apply(self, g: ConsumerGroup, hb: "HeartbeatSteps", before: ConsumerMember, now_ms: int) -> None:
        """The heartbeat's records are written: the group takes its new state."""
        updated = hb.updated
        unchanged = g.members.subscriptions_version == hb.hash_of[1]
        if hb.replaced is not None:
            del g.members[hb.replaced.member_id]
        g.members[hb.member_id] = updated
        if updated.instance_id is not None:
            g.static_members[updated.instance_id] = hb.member_id
        g.resolved_regexes = hb.regexes
        self._topics_sig = hb.sig
        # the hash stands for the subscriptions as they are now if no other change came between this
        # heartbeat's steps and its records' write
        g.metadata_hash_of = (hb.hash_of[0], g.members.subscriptions_version) if unchanged else None
        if updated is not before and log.isEnabledFor(logging.DEBUG):
            log.debug("[GroupId %s] Member %s new assignment state: epoch=%d, previousEpoch=%d, state=%s, "
                      "assignedPartitions=%s and revokedPartitions=%s.", hb.group_id, hb.member_id,
                      updated.member_epoch, updated.previous_member_epoch, MEMBER_STATE_NAMES[updated.state],
                      self._partitions(updated.assigned), self._partitions(updated.pending_revocation))
        if hb.group_epoch != g.group_epoch:
            log.info("[GroupId %s] Bumped group epoch to %d.", hb.group_id, hb.group_epoch)
            self.coord.rebalances[CONSUMER] += 1
        g.group_epoch = hb.group_epoch
        g.metadata_hash = hb.mhash
        if hb.new_target is not None:
            g.target = hb.new_target
            g.assignment_timestamp_ms = now_ms
        elif hb.replaced is not None:
            g.target.pop(hb.replaced.member_id, None)
            g.target[hb.member_id] = hb.target
        g.assignment_epoch = hb.assignment_epoch
        mp.heartbeat_timers(updated, before, now_ms, self._cfg(g.group_id).group_consumer_session_timeout_ms,
                            UNREVOKED_PARTITIONS)
        g.deadlines_checked_until = min(g.deadlines_checked_until, mp.first_deadline(updated))

    def _partitions(self, assigned: dict) -> str:
        """A member's {topic id: {partition: epoch}} as topic-partition@epoch, for the log."""
        names = {tid: name for name, (tid, _n) in self.coord.topics.items()}
        return "[" + ", ".join(f"{names.get(tid, tid.hex())}-{p}@{e}" for tid, ps in assigned.items()
                               for p, e in sorted(ps.items())) + "]"

    def _check_size(self, g: ConsumerGroup) -> None:
        if len(g.members) >= self.config.group_consumer_max_size:
            raise CoordinatorError(E.GROUP_MAX_SIZE_REACHED,
                                   f"The consumer group has reached its maximum capacity of "
                                   f"{self.config.group_consumer_max_size} members.")

    @staticmethod
    def _check_epoch(member: ConsumerMember, req: HeartbeatRequest) -> None:
        mp.check_member_epoch("consumer", member, req.member_epoch, lambda: req.owned is not None and all(
            p in member.assigned.get(bytes(t), {}) for t, ps in req.owned for p in ps))

    def _leave(self, req: HeartbeatRequest, now_ms: int) -> HeartbeatResult:
        g = self._group(req.group_id)
        if g is None:
            raise mp.wrong_group(self.coord.groups, req.group_id, "consumer")
        if req.instance_id is None:
            m = g.members.get(req.member_id)
            if m is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID,
                                       f"Member {req.member_id} is not a member of group {g.group_id}.")
        else:
            mid = g.static_members.get(req.instance_id)
            m = g.members.get(mid) if mid is not None else None
            if m is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Instance id {req.instance_id} is unknown.")
            if m.member_id != req.member_id:
                raise CoordinatorError(E.FENCED_INSTANCE_ID, f"Static member {req.member_id} with instance id "
                                       f"{req.instance_id} is fenced by {m.member_id}.")
        if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            # a static member leaving for a while: it keeps its assignment until its session expires
            left = m.copy()
            left.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH
            left.pending_revocation = {}
            left.assigned = {t: {p: 0 for p in ps} for t, ps in m.assigned.items()}
            left.rebalance_deadline_ms = None

            def release() -> HeartbeatResult:
                g.members[m.member_id] = left
                return HeartbeatResult(member_id=m.member_id, member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH)

            return self.coord.write(g.group_id, CoordinatorResult([crec.current_member(g.group_id, left)], release),
                                    now_ms)
        self._remove_consumer_member(g, m.member_id, now_ms)
        return HeartbeatResult(member_id=m.member_id, member_epoch=LEAVE_GROUP_MEMBER_EPOCH)

    def _remove_consumer_member(self, g: ConsumerGroup, member_id: str, now_ms: int) -> None:
        self.fence_members(g, [member_id], now_ms)

    def fence_members(self, g: ConsumerGroup, member_ids: list, now_ms: int) -> None:
        """Kafka's consumerGroupFenceMembers: the members go (tombstones for each, and a new group
        epoch); or, when only classic members would be left, the group becomes a classic group
        (online downgrade, group_conversion.py), which rebalances at once."""
        if not member_ids or self.coord.groups.get(g.group_id) is not g:
            return  # (nobody to fence; or a group already converted by an earlier fence of this tick)
        leaving = set(member_ids)
        if conversion.may_downgrade(g, leaving, self.config.migration[1], self.coord.config.group_max_size):
            self._downgrade(g, leaving, now_ms)
            return

        def remove() -> None:
            epoch = g.group_epoch
            for member_id in member_ids:
                m = mp.drop_member(g, member_id, now_ms)
                if m.instance_id is not None and g.static_members.get(m.instance_id) == member_id:
                    del g.static_members[m.instance_id]
                    release_emptied(g.static_members)
            g.group_epoch = epoch + 1  # (one bump for them all, as Kafka's)

        gid = g.group_id
        records = [r for mid in member_ids for r in (crec.current_member(gid, mid), crec.target_member(gid, mid, None),
                                                     crec.member_metadata(gid, mid))]
        records.append(crec.group_metadata(gid, g.group_epoch + 1, g.metadata_hash))
        self.coord.write(g.group_id, CoordinatorResult(records, remove), now_ms)

    def _downgrade(self, g: ConsumerGroup, leaving: set, now_ms: int) -> None:
        """Kafka's convertToClassicGroup: the consumer group's tombstones and the classic group's
        GroupMetadata record; then the classic group takes the id and prepares a rebalance."""
        cg = conversion.classic_group_from_consumer(g, leaving, self.names_by_id(), now_ms)
        records = g.tombstones() + [self.coord.classic.group_record(cg)]

        def converted() -> None:
            self.coord.install(cg)
            log.info("[GroupId %s] Converted the consumer group to a classic group.", g.group_id)
            self.coord.classic.prepare_rebalance(cg, now_ms)
            self.coord.wake(("group", g.group_id))

        self.coord.write(g.group_id, CoordinatorResult(records, converted), now_ms)

    # ------------------------------------------------------------------ ConsumerGroupDescribe

    def describe(self, group_id: str, g: GroupModel | None) -> dict:
        """ConsumerGroupDescribe of ``g``, the group the id names (None: none)."""
        if not isinstance(g, ConsumerGroup):
            e = mp.wrong_group({} if g is None else {group_id: g}, group_id, "consumer")
            return {"error": e.code, "message": e.message}
        names = self.names_by_id()
        members = []
        for m in g.members.values():
            members.append({
                "member": m,
                "assignment": [(tid, names.get(tid, ""), sorted(ps)) for tid, ps in sorted(m.assigned.items())],
                "target": [(tid, names.get(tid, ""), sorted(ps))
                           for tid, ps in sorted(g.target.get(m.member_id, {}).items()) if ps],
            })
        return {"error": E.NONE, "group": g, "members": members,
                "assignor": g.preferred_assignor(self.config.default_assignor)}


    # ------------------------------------------------------------------ timers

    def tick(self, g: ConsumerGroup, now_ms: int) -> None:
        """Fence the members past a deadline (mp.fence_expired walks them only once one is due)."""
        mp.fence_expired(g, now_ms, UNREVOKED_PARTITIONS, self._remove_consumer_member)
