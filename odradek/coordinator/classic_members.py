"""Classic members of a consumer group: JoinGroup, SyncGroup, Heartbeat and LeaveGroup against a
non-empty KIP-848 consumer group (Kafka 4.3's classicGroupJoinToConsumerGroup,
classicGroupSyncToConsumerGroup, classicGroupHeartbeatToConsumerGroup and
classicGroupLeaveToConsumerGroup). After an online upgrade (group_conversion.py) the classic
members stay in the consumer group and go on speaking the classic protocol: the coordinator assigns
them with the server-side assignor like any member; a JoinGroup is one step of the member's
reconciliation (its generation is its member epoch), the SyncGroup that follows hands out what it
owns now (no leader assigns), and a Heartbeat answers REBALANCE_IN_PROGRESS while the member has
to join again to move on (a newer target assignment, partitions to revoke, or partitions freed for it).

Timers, as Kafka's: the session is the member's classic session timeout; a member told to join
again must within its rebalance timeout (the join timer), one that joined must sync within it (the
sync timer); past either it is fenced (ConsumerProtocol.fence_members, which may downgrade the group).
Both live in the member's rebalance_deadline_ms (ConsumerMember.fenced_at_rebalance_deadline).

A classic static member taking the place of the group's only consumer-protocol member (a static
consumer rolled back: its leave with epoch -2 kept its place) downgrades the group, as Kafka's join.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from odradek.wire.errors import ErrorCode

from . import consumer_group_records as crec
from . import group_conversion as conversion
from . import member_protocol as mp
from .consumer_group_state import (
    CLASSIC_PROTOCOL_TYPE,
    UNRELEASED_PARTITIONS,
    UNREVOKED_PARTITIONS,
    ClassicMetadata,
    ConsumerGroup,
    ConsumerMember,
    reconcile,
)
from .consumer_heartbeat import HeartbeatSteps
from .errors import CoordinatorError
from .group_state import JoinResult, SyncResult
from .result import CoordinatorResult

if TYPE_CHECKING:
    from .consumer_heartbeat import ConsumerProtocol

E = ErrorCode
log = logging.getLogger(__name__)


class ClassicMembersProtocol:
    """The classic protocol's requests to consumer groups (the consumer protocol's steps do the work)."""

    def __init__(self, consumer: "ConsumerProtocol"):
        self.consumer = consumer
        self.coord = consumer.coord

    # ------------------------------------------------------------------ JoinGroup

    def join(self, g: ConsumerGroup, member_id: str, instance_id: str | None, client_id: str, client_host: str,
             session_timeout_ms: int, rebalance_timeout_ms: int, protocol_type: str, protocols: list, now_ms: int,
             api_version: int) -> JoinResult:
        try:
            return self._join(g, member_id, instance_id, client_id, client_host, session_timeout_ms,
                              rebalance_timeout_ms, protocol_type, protocols, now_ms, api_version)
        except CoordinatorError as e:
            return JoinResult(error=e.code, member_id=member_id)

    def _join(self, g, member_id, instance_id, client_id, client_host, session_ms, rebalance_ms, protocol_type,
              protocols, now_ms, api_version) -> JoinResult:
        cp = self.consumer
        unknown = not member_id
        mid = member_id or self.coord.new_uuid()
        max_size = cp.config.group_consumer_max_size
        if len(g.members) >= max_size and (unknown or mid not in g.members):
            raise CoordinatorError(E.GROUP_MAX_SIZE_REACHED)
        if not g.supports_classic_protocols(protocol_type, {n for n, _ in protocols}):
            raise CoordinatorError(E.INCONSISTENT_GROUP_PROTOCOL)
        if unknown and instance_id is None and api_version >= 4:
            log.info("[GroupId %s] Dynamic member with unknown member id joins the consumer group. Created a new "
                     "member id %s and requesting the member to rejoin with this id.", g.group_id, mid)
            return JoinResult(error=E.MEMBER_ID_REQUIRED, member_id=mid)
        member, replaced, new_member = self._member_for(g, mid, instance_id, unknown)
        try:
            sub = conversion.decode_subscription(protocols[0][1])
        except ValueError:
            raise CoordinatorError(E.INCONSISTENT_GROUP_PROTOCOL) from None  # (Kafka: an IllegalStateException)
        hb = HeartbeatSteps(g.group_id, mid, member, replaced, new_member)
        updated = member.copy()
        if instance_id is not None:
            updated.instance_id = instance_id
        if sub.rack_id is not None:
            updated.rack_id = sub.rack_id
        if rebalance_ms != -1:
            updated.rebalance_timeout_ms = rebalance_ms
        if sub.topics is not None:
            updated.subscribed_topic_names = sorted(set(sub.topics))
        updated.subscribed_topic_regex = None  # (a classic member subscribes by names)
        updated.client_id, updated.client_host = client_id, client_host
        updated.classic = ClassicMetadata(session_ms, tuple((n, bytes(md)) for n, md in protocols))
        hb.updated = updated
        owned = conversion.owned_ids(sub, self.coord.topics)
        existing = g.members.get(g.static_members.get(instance_id)) if instance_id is not None else None
        if existing is not None and conversion.may_downgrade_replacing(
                g, existing, cp.config.migration[1], self.coord.config.group_max_size):
            return self._join_downgrading(g, hb, existing, owned, session_ms, now_ms)
        before = cp.steps(g, hb, owned, now_ms)

        def apply() -> JoinResult:
            cp.apply(g, hb, before, now_ms)
            m = hb.updated
            m.session_deadline_ms = now_ms + session_ms
            m.rebalance_deadline_ms = now_ms + max(m.rebalance_timeout_ms, 0)  # the sync timer
            g.deadlines_checked_until = min(g.deadlines_checked_until, mp.first_deadline(m))
            return JoinResult(error=E.NONE, generation_id=m.member_epoch, protocol_type=CLASSIC_PROTOCOL_TYPE,
                              protocol_name=m.classic.protocol_name, leader="", member_id=mid)

        return self.coord.write(g.group_id, CoordinatorResult(hb.records, apply, mp.write_failed), now_ms)

    def _join_downgrading(self, g: ConsumerGroup, hb: HeartbeatSteps, replaced: ConsumerMember, owned: list,
                          session_ms: int, now_ms: int) -> JoinResult:
        """Kafka's downgrade in classicGroupJoinToConsumerGroup: a classic static member takes the place
        of the only consumer-protocol member. Its metadata and the group's epoch as any join; it takes
        the replaced member's target assignment unless the group epoch moved past the target's (then
        the classic group rebalances at once); the consumer group's tombstones and the classic group's
        GroupMetadata follow."""
        cp, gid = self.consumer, g.group_id
        mid = hb.member_id
        records = [crec.current_member(gid, replaced.member_id), crec.target_member(gid, replaced.member_id, None),
                   crec.member_metadata(gid, replaced.member_id)]  # (Kafka's replaceMember)
        cp.metadata_steps(g, hb, now_ms)
        rebalance = g.assignment_epoch < hb.group_epoch
        joining = hb.updated
        if not rebalance:
            joining = reconcile(joining, g.assignment_epoch, g.target.get(replaced.member_id, {}),
                                lambda tid, p: g.members.owned_by_other(tid, p, (mid, replaced.member_id)),
                                cp.subscribed_ids(joining, hb.regexes), owned)
            hb.records.append(crec.current_member(gid, joining))
        records += hb.records + conversion.tombstones_replacing(g, replaced.member_id, mid)
        cg = conversion.classic_group_from_consumer(g, set(), cp.names_by_id(), now_ms, joining=joining)
        records.append(self.coord.classic.group_record(cg))

        def converted() -> JoinResult:
            self.coord.install(cg)
            log.info("[GroupId %s] Converted the consumer group to a classic group.", gid)
            if rebalance:
                self.coord.classic.prepare_rebalance(cg, now_ms)
            self.coord.wake(("group", gid))
            return JoinResult(error=E.NONE, generation_id=joining.member_epoch, protocol_type=CLASSIC_PROTOCOL_TYPE,
                              protocol_name=joining.classic.protocol_name, leader="", member_id=mid)

        return self.coord.write(gid, CoordinatorResult(records, converted, mp.write_failed), now_ms)

    @staticmethod
    def _member_for(g: ConsumerGroup, member_id: str, instance_id: str | None, unknown: bool):
        """(the member as it is, the static member it replaces or None, whether it is new): Kafka's
        getOrMaybeSubscribe{Dynamic,Static}ConsumerGroupMember for a classic member."""
        if instance_id is None:
            m = g.members.get(member_id)
            return (ConsumerMember(member_id), None, True) if m is None else (m, None, False)
        old_id = g.static_members.get(instance_id)
        old = g.members.get(old_id) if old_id is not None else None
        if unknown:
            if old is None:
                return ConsumerMember(member_id, instance_id=instance_id), None, True
            member = old.copy()  # it takes the old one's place (its assignment), whatever its state
            member.member_id = member_id
            member.member_epoch = member.previous_member_epoch = 0
            return member, old, False
        if old is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Instance id {instance_id} is unknown.")
        if old.member_id != member_id:
            raise CoordinatorError(E.FENCED_INSTANCE_ID)
        return old, None, False

    # ------------------------------------------------------------------ SyncGroup / Heartbeat

    def _classic_member(self, g: ConsumerGroup, member_id: str, instance_id: str | None,
                        generation_id: int) -> ConsumerMember:
        """Kafka's validateConsumerGroupMember, throwIfMemberDoesNotUseClassicProtocol and
        throwIfGenerationIdUnmatched."""
        if instance_id is None:
            m = g.members.get(member_id)
            if m is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
        else:
            mid = g.static_members.get(instance_id)
            m = g.members.get(mid) if mid is not None else None
            if m is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
            if m.member_id != member_id:
                raise CoordinatorError(E.FENCED_INSTANCE_ID)
        if m.classic is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
        if generation_id != m.member_epoch:
            raise CoordinatorError(E.ILLEGAL_GENERATION)
        return m

    @staticmethod
    def _join_timer(m: ConsumerMember, now_ms: int) -> None:
        if m.rebalance_deadline_ms is None:
            m.rebalance_deadline_ms = now_ms + max(m.rebalance_timeout_ms, 0)

    def sync(self, g: ConsumerGroup, generation_id: int, member_id: str, instance_id: str | None,
             protocol_type: str | None, protocol_name: str | None, now_ms: int) -> SyncResult:
        try:
            m = self._classic_member(g, member_id, instance_id, generation_id)
        except CoordinatorError as e:
            return SyncResult(error=e.code)
        if (protocol_type is not None and protocol_type != CLASSIC_PROTOCOL_TYPE) or \
                (protocol_name is not None and protocol_name != m.classic.protocol_name):
            return SyncResult(error=E.INCONSISTENT_GROUP_PROTOCOL)
        if g.assignment_epoch > m.member_epoch and m.state != UNREVOKED_PARTITIONS:
            self._join_timer(m, now_ms)
            g.deadlines_checked_until = min(g.deadlines_checked_until, mp.first_deadline(m))
            return SyncResult(error=E.REBALANCE_IN_PROGRESS)
        m.rebalance_deadline_ms = None  # (the sync timer ends)
        m.session_deadline_ms = now_ms + m.classic.session_timeout_ms
        g.deadlines_checked_until = min(g.deadlines_checked_until, mp.first_deadline(m))
        try:
            version = conversion.protocol_version(m.classic.protocols[0][1])
        except ValueError:
            version = 0
        assignment = conversion.encode_assignment(m.assigned, self.consumer.names_by_id(), version)
        return SyncResult(E.NONE, protocol_type, protocol_name, assignment)

    def heartbeat(self, g: ConsumerGroup, generation_id: int, member_id: str, instance_id: str | None,
                  now_ms: int) -> ErrorCode:
        try:
            m = self._classic_member(g, member_id, instance_id, generation_id)
        except CoordinatorError as e:
            return e.code
        m.session_deadline_ms = now_ms + m.classic.session_timeout_ms
        error = E.NONE
        if m.member_epoch < g.assignment_epoch or m.state == UNREVOKED_PARTITIONS or (
                m.state == UNRELEASED_PARTITIONS and not g.waiting_on_unreleased_partition(m)):
            error = E.REBALANCE_IN_PROGRESS
            self._join_timer(m, now_ms)
        g.deadlines_checked_until = min(g.deadlines_checked_until, mp.first_deadline(m))
        return error

    # ------------------------------------------------------------------ LeaveGroup

    def leave(self, g: ConsumerGroup, members: list, now_ms: int) -> tuple[ErrorCode, list]:
        """members: [(member_id, group_instance_id)] -> (NONE, [error per member]); the members found
        are fenced together (which may downgrade the group)."""
        errors, leaving = [], []
        for member_id, instance_id in members:
            if instance_id is None:
                m = g.members.get(member_id)
                err = E.UNKNOWN_MEMBER_ID if m is None else E.NONE
            else:
                mid = g.static_members.get(instance_id)
                m = g.members.get(mid) if mid is not None else None
                if m is None:
                    err = E.UNKNOWN_MEMBER_ID
                elif member_id and member_id != m.member_id:
                    err = E.FENCED_INSTANCE_ID
                else:
                    err = E.NONE
            errors.append(err)
            if err is E.NONE and m.member_id not in leaving:
                log.info("[GroupId %s] Member %s has left group through explicit `LeaveGroup` request.",
                         g.group_id, m.member_id)
                leaving.append(m.member_id)
        self.consumer.fence_members(g, leaving, now_ms)
        return E.NONE, errors
