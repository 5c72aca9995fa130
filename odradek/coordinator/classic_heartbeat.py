"""Classic groups' protocol: JoinGroup, SyncGroup, Heartbeat and LeaveGroup, the rebalance timers,
and the GroupMetadata record of a classic group (Kafka's ClassicGroup handling in
GroupMetadataManager). A rebalance parks JoinGroup/SyncGroup requests on Slots; the coordinator's
poke wakes ("group", group_id) when they complete.

Pure: state lives in the coordinator's one map of groups (this module touches only its classic
groups), records go through the coordinator's append, time comes in as now_ms.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.group_metadata_value import MemberMetadata

from . import group_records as rec
from .errors import CoordinatorError
from .group_state import Group, GroupState, JoinResult, Member, Slot, SyncResult
from .group_model import CLASSIC, GroupModel
from .result import CoordinatorResult, write_error

if TYPE_CHECKING:
    from .group_coordinator import GroupCoordinator

E = ErrorCode
S = GroupState
log = logging.getLogger(__name__)


def _ignore(e: Exception) -> None:
    return None  # as before: a group record that cannot be written is not retried


class ClassicProtocol:
    def __init__(self, coord: "GroupCoordinator"):
        self.coord = coord

    def _group(self, group_id: str) -> Group | None:
        g = self.coord.groups.get(group_id)
        return g if isinstance(g, Group) else None

    # ------------------------------------------------------------------ persistence

    def group_record(self, g: Group) -> tuple[bytes, bytes]:
        members = [
            MemberMetadata(
                member_id=m.member_id,
                group_instance_id=m.group_instance_id,
                client_id=m.client_id,
                client_host=m.client_host,
                rebalance_timeout=m.rebalance_timeout_ms,
                session_timeout=m.session_timeout_ms,
                subscription=m.metadata_for(g.protocol_name),
                assignment=m.assignment,
            )
            for m in g.members.values()
        ]
        value = rec.group_metadata_value(
            g.protocol_type or "", g.generation_id, g.protocol_name, g.leader_id, g.state_timestamp_ms, members
        )
        return rec.group_metadata_key(g.group_id), value

    def load(self, records: list, now: int) -> None:
        """Rebuild the classic groups of one __consumer_offsets partition from its records (last value
        wins); every group with committed offsets starts as one (an offsets-only group, which the
        consumer and streams loaders take over when the id is theirs)."""
        groups = self.coord.groups
        offsets: dict[str, dict] = {}
        metas: dict[str, Any] = {}
        for _offset, key, value in records:
            try:
                k = rec.decode_key(key)
            except Exception:
                continue
            if k.kind == "offset":
                per = offsets.setdefault(k.group, {})
                if value is None:
                    per.pop((k.topic, k.partition), None)
                else:
                    per[(k.topic, k.partition)] = rec.decode_offset_value(value)
            elif k.kind == "group":
                metas[k.group] = None if value is None else rec.decode_group_value(value)
        for gid in set(offsets) | set(metas):
            meta = metas.get(gid)
            per = offsets.get(gid) or {}
            if meta is None and not per:
                if isinstance(groups.get(gid), Group):
                    del groups[gid]
                continue
            g = Group(gid, state_timestamp_ms=now)
            if meta is not None:
                g.protocol_type = meta.protocol_type or None
                g.generation_id = meta.generation
                g.protocol_name = meta.protocol
                g.leader_id = meta.leader
                if meta.current_state_timestamp >= 0:
                    g.state_timestamp_ms = meta.current_state_timestamp
                for mm in meta.members:
                    m = Member(
                        member_id=mm.member_id,
                        group_instance_id=mm.group_instance_id,
                        client_id=mm.client_id,
                        client_host=mm.client_host,
                        rebalance_timeout_ms=mm.rebalance_timeout if mm.rebalance_timeout >= 0 else mm.session_timeout,
                        session_timeout_ms=mm.session_timeout,
                        protocol_type=g.protocol_type or "",
                        protocols=[(g.protocol_name or "", bytes(mm.subscription))],
                        assignment=bytes(mm.assignment),
                        heartbeat_deadline_ms=now + mm.session_timeout,
                    )
                    g.members[m.member_id] = m
                    if m.group_instance_id is not None:
                        g.static_members[m.group_instance_id] = m.member_id
                g.state = S.STABLE if g.members else S.EMPTY
                if not g.members:
                    g.leader_id = None
            g.offsets = per
            groups[gid] = g

    # ------------------------------------------------------------------ helpers

    def _poke_group(self, g: Group) -> None:
        if self.coord.poke is not None:
            self.coord.poke(("group", g.group_id))

    def _join_result(self, g: Group, m: Member, version: int, error: ErrorCode = E.NONE,
                     skip_assignment: bool = False) -> JoinResult:
        members = []
        if g.is_leader(m.member_id):
            members = [(x.member_id, x.group_instance_id, x.metadata_for(g.protocol_name)) for x in g.members.values()]
        return JoinResult(
            error=error,
            generation_id=g.generation_id,
            protocol_type=g.protocol_type,
            protocol_name=g.protocol_name,
            leader=g.leader_id or "",
            member_id=m.member_id,
            members=members,
            skip_assignment=skip_assignment,
        )

    def _reschedule(self, g: Group, m: Member, now_ms: int) -> None:
        m.heartbeat_deadline_ms = now_ms + m.session_timeout_ms

    # ------------------------------------------------------------------ JoinGroup

    def _create(self, g: Group, tombstones: list, now_ms: int) -> ErrorCode | None:
        """A JoinGroup creates the classic group ``g``: its empty GroupMetadata record (generation 0,
        no protocol type, no members) is written, after the tombstones of the empty group it
        replaces, in one write, as Kafka 4.3's classicGroupJoinToClassicGroup does for a new group
        (newEmptyGroupMetadataRecord); then ``g`` takes the id. The write's error if it fails."""
        def created() -> None:
            self.coord.install(g)

        return self.coord.write(g.group_id, CoordinatorResult(tombstones + [self.group_record(g)], created,
                                                              write_error), now_ms)

    def join_group(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        client_id: str,
        client_host: str,
        session_timeout_ms: int,
        rebalance_timeout_ms: int,
        protocol_type: str,
        protocols: list,
        now_ms: int,
        api_version: int = 9,
        replacing: "GroupModel | None" = None,
    ) -> Slot:
        """Returns a Slot; if not yet done, the caller parks on ("group", group_id) until it is.
        ``replacing``: the empty group of another type that has the id (it goes, its offsets kept)."""
        protocols = [(n, bytes(md)) for n, md in protocols]
        if rebalance_timeout_ms is None or rebalance_timeout_ms < 0:
            rebalance_timeout_ms = session_timeout_ms
        require_known = api_version >= 4

        def fail(code: ErrorCode) -> Slot:
            return Slot(JoinResult(error=code, member_id=member_id, protocol_type=None, protocol_name=None))

        if not group_id:
            return fail(E.INVALID_GROUP_ID)
        cfg = self.coord.config
        if not (cfg.group_min_session_timeout_ms <= session_timeout_ms <= cfg.group_max_session_timeout_ms):
            return fail(E.INVALID_SESSION_TIMEOUT)
        g = self._group(group_id)
        if g is None:
            if member_id:
                return fail(E.UNKNOWN_MEMBER_ID)
            g = Group(group_id, state_timestamp_ms=now_ms, offsets=replacing.offsets if replacing else {})
            err = self._create(g, replacing.tombstones() if replacing else [], now_ms)
            if err is not None:
                return fail(err)
        if g.state is S.DEAD:
            return fail(E.COORDINATOR_NOT_AVAILABLE)
        names = {n for n, _ in protocols}
        if not g.supports_protocols(protocol_type, names):
            return fail(E.INCONSISTENT_GROUP_PROTOCOL)
        protocols = g.members.shared(protocols)

        if not member_id:
            return self._join_unknown_member(g, group_instance_id, client_id, client_host, session_timeout_ms,
                                             rebalance_timeout_ms, protocol_type, protocols, now_ms,
                                             require_known, api_version)
        return self._join_known_member(g, member_id, group_instance_id, client_id, client_host,
                                       session_timeout_ms, rebalance_timeout_ms, protocol_type, protocols,
                                       now_ms, api_version)

    def _join_unknown_member(self, g, instance_id, client_id, client_host, session_ms, rebalance_ms,
                             protocol_type, protocols, now_ms, require_known, version) -> Slot:
        if instance_id is not None:
            new_id = self.coord.new_member_id(instance_id)
            old_id = g.static_members.get(instance_id)
            if old_id is not None and old_id in g.members:
                return self._replace_static_member(g, old_id, new_id, client_id, client_host, session_ms,
                                                   rebalance_ms, protocol_type, protocols, now_ms, version)
            slot = Slot()
            self._add_member_and_rebalance(g, new_id, instance_id, client_id, client_host, session_ms,
                                           rebalance_ms, protocol_type, protocols, slot, now_ms)
            return slot
        new_id = self.coord.new_member_id(client_id or "")
        if len(g.members) >= self.coord.config.group_max_size:
            return Slot(JoinResult(error=E.GROUP_MAX_SIZE_REACHED, member_id=""))
        if require_known:
            g.pending_members[new_id] = now_ms + session_ms
            return Slot(JoinResult(error=E.MEMBER_ID_REQUIRED, member_id=new_id))
        slot = Slot()
        self._add_member_and_rebalance(g, new_id, None, client_id, client_host, session_ms, rebalance_ms,
                                       protocol_type, protocols, slot, now_ms)
        return slot

    def _join_known_member(self, g, member_id, instance_id, client_id, client_host, session_ms, rebalance_ms,
                           protocol_type, protocols, now_ms, version) -> Slot:
        if member_id in g.pending_members and member_id not in g.members:
            if instance_id is not None and g.static_members.get(instance_id) not in (None, member_id):
                return Slot(JoinResult(error=E.FENCED_INSTANCE_ID, member_id=member_id))
            del g.pending_members[member_id]
            g.release_empty_tables()
            slot = Slot()
            self._add_member_and_rebalance(g, member_id, instance_id, client_id, client_host, session_ms,
                                           rebalance_ms, protocol_type, protocols, slot, now_ms)
            return slot
        try:
            m = g.validate_member(member_id, instance_id)
        except CoordinatorError as e:
            return Slot(JoinResult(error=e.code, member_id=member_id))
        if g.state in (S.EMPTY, S.DEAD):
            return Slot(JoinResult(error=E.UNKNOWN_MEMBER_ID, member_id=member_id))
        m.client_id, m.client_host = client_id, client_host
        if g.state is S.PREPARING_REBALANCE:
            slot = Slot()
            self._update_member_and_rebalance(g, m, session_ms, rebalance_ms, protocols, slot, now_ms)
            return slot
        if g.state is S.COMPLETING_REBALANCE:
            if m.matches(protocols):
                # a retried join: give the same answer again
                self._reschedule(g, m, now_ms)
                return Slot(self._join_result(g, m, version))
            slot = Slot()
            self._update_member_and_rebalance(g, m, session_ms, rebalance_ms, protocols, slot, now_ms)
            return slot
        # Stable
        if g.is_leader(m.member_id) or not m.matches(protocols):
            slot = Slot()
            self._update_member_and_rebalance(g, m, session_ms, rebalance_ms, protocols, slot, now_ms)
            return slot
        self._reschedule(g, m, now_ms)
        return Slot(self._join_result(g, m, version))

    def _replace_static_member(self, g, old_id, new_id, client_id, client_host, session_ms, rebalance_ms,
                               protocol_type, protocols, now_ms, version) -> Slot:
        old = g.members.pop(old_id)
        old.answer_parked(E.FENCED_INSTANCE_ID)  # the old incarnation's parked requests learn they are fenced
        g.pending_sync.discard(old_id)
        old_protocols = old.protocols
        m = old
        m.member_id = new_id
        m.client_id, m.client_host = client_id, client_host
        m.session_timeout_ms, m.rebalance_timeout_ms = session_ms, rebalance_ms
        m.protocols = protocols
        g.members[new_id] = m
        g.static_members[m.group_instance_id] = new_id
        was_leader = g.leader_id == old_id
        if was_leader:
            g.leader_id = new_id
        self._reschedule(g, m, now_ms)
        self._poke_group(g)
        slot = Slot()
        if g.state is S.STABLE:
            selected_changed = m.metadata_for(g.protocol_name) != dict(old_protocols).get(g.protocol_name) or \
                g.protocol_name not in dict(protocols)
            if selected_changed:
                m.join_slot = slot
                self.prepare_rebalance(g, now_ms)
                return slot

            def undo(e: Exception) -> Slot:
                # could not persist the new identity: undo, as Kafka does
                g.members.pop(new_id)
                m.member_id, m.protocols = old_id, old_protocols
                g.members[old_id] = m
                g.static_members[m.group_instance_id] = old_id
                if was_leader:
                    g.leader_id = old_id
                return Slot(JoinResult(error=E.UNKNOWN_SERVER_ERROR, member_id=""))

            def answer() -> Slot:
                # Kafka answers with the leader id from before the replacement, so a rejoining static
                # leader acts as a follower (v9+: skip_assignment tells it so, members let it refresh)
                slot.result = self._join_result(g, m, version, skip_assignment=was_leader)
                slot.result.leader = old_id if was_leader else (g.leader_id or "")
                return slot

            return self.coord.write(g.group_id, CoordinatorResult([self.group_record(g)], answer, undo), now_ms)
        if g.state is S.COMPLETING_REBALANCE:
            m.join_slot = slot
            self.prepare_rebalance(g, now_ms)
            return slot
        # PreparingRebalance
        m.join_slot = slot
        self._maybe_complete_join(g, now_ms)
        return slot

    def _add_member_and_rebalance(self, g, member_id, instance_id, client_id, client_host, session_ms,
                                  rebalance_ms, protocol_type, protocols, slot, now_ms) -> None:
        m = Member(member_id, instance_id, client_id, client_host, rebalance_ms, session_ms, protocol_type,
                   protocols)
        if not g.members:
            g.protocol_type = protocol_type
        g.members[member_id] = m
        if instance_id is not None:
            g.static_members[instance_id] = member_id
        if g.leader_id is None:
            g.leader_id = member_id
        m.join_slot = slot
        self._reschedule(g, m, now_ms)
        g.new_member_added = True
        if g.state is S.PREPARING_REBALANCE:
            self._maybe_complete_join(g, now_ms)
        else:
            self.prepare_rebalance(g, now_ms)

    def _update_member_and_rebalance(self, g, m, session_ms, rebalance_ms, protocols, slot, now_ms) -> None:
        m.session_timeout_ms, m.rebalance_timeout_ms, m.protocols = session_ms, rebalance_ms, protocols
        g.members[m.member_id] = m  # (its protocols counted again)
        if m.join_slot is not None and m.join_slot is not slot:
            m.join_slot.result = JoinResult(error=E.REBALANCE_IN_PROGRESS, member_id=m.member_id)
        m.join_slot = slot
        self._reschedule(g, m, now_ms)
        if g.state is S.PREPARING_REBALANCE:
            self._maybe_complete_join(g, now_ms)
        else:
            self.prepare_rebalance(g, now_ms)

    def prepare_rebalance(self, g: Group, now_ms: int) -> None:
        if g.state is S.COMPLETING_REBALANCE:
            # the assignment of this generation will never be used: tell waiting syncs
            for m in g.members.values():
                m.assignment = b""
                if m.sync_slot is not None:
                    m.sync_slot.result = SyncResult(error=E.REBALANCE_IN_PROGRESS)
                    m.sync_slot = None
            self._poke_group(g)
        g.pending_sync.clear()
        g.sync_deadline_ms = None
        delay = self.coord.config.group_initial_rebalance_delay_ms
        rebalance_timeout = max(g.rebalance_timeout_ms(), 0)
        if g.state is S.EMPTY and delay > 0:
            first = min(delay, rebalance_timeout) if rebalance_timeout > 0 else delay
            g.initial_delay_active = True
            g.initial_remaining_ms = max(rebalance_timeout - first, 0)
            g.new_member_added = False
            g.join_deadline_ms = now_ms + first
        else:
            g.initial_delay_active = False
            g.join_deadline_ms = now_ms + rebalance_timeout
        log.info("Preparing to rebalance group %s in state %s with old generation %d.", g.group_id, g.state.value,
                 g.generation_id)
        g.transition(S.PREPARING_REBALANCE, now_ms)
        if not g.initial_delay_active:
            self._maybe_complete_join(g, now_ms)

    def _maybe_complete_join(self, g: Group, now_ms: int) -> None:
        if g.state is S.PREPARING_REBALANCE and not g.initial_delay_active and g.all_members_joined():
            self._complete_join(g, now_ms)

    def _complete_join(self, g: Group, now_ms: int) -> None:
        if not any(m.awaiting_join for m in g.members.values()):
            # the group ends empty: its record (next generation, no members) is written first, then
            # the group moves; a failed write leaves it preparing, and the join deadline tries again
            value = rec.group_metadata_value(g.protocol_type or "", g.generation_id + 1, None, None, now_ms, [])
            self.coord.write(g.group_id, CoordinatorResult(
                [(rec.group_metadata_key(g.group_id), value)], lambda: self._become_empty(g, now_ms), _ignore,
                wake=(("group", g.group_id),)), now_ms)
            return
        self._next_generation(g)
        g.protocol_name = g.select_protocol()
        if g.leader_id not in g.members:
            g.leader_id = next(iter(g.members))
        g.transition(S.COMPLETING_REBALANCE, now_ms)
        log.info("Stabilized group %s generation %d with %d members.", g.group_id, g.generation_id, len(g.members))
        for m in g.members.values():
            m.join_slot.result = self._join_result(g, m, 9)
            m.join_slot = None
            self._reschedule(g, m, now_ms)
        g.pending_sync = set(g.members)
        g.sync_deadline_ms = now_ms + g.rebalance_timeout_ms()
        self._poke_group(g)

    def _next_generation(self, g: Group) -> None:
        """The join phase ends: members that did not rejoin leave, the generation moves on."""
        g.join_deadline_ms = None
        g.initial_delay_active = False
        g.initial_remaining_ms = 0  # (an int made during a join storm would outlive it in the group)
        for mid in [mid for mid, m in g.members.items() if not m.awaiting_join]:
            self._remove_member(g, mid)
        g.pending_members.clear()
        g.generation_id += 1

    def _become_empty(self, g: Group, now_ms: int) -> None:
        self._next_generation(g)
        g.protocol_name = None
        g.leader_id = None
        g.transition(S.EMPTY, now_ms)

    def _remove_member(self, g: Group, member_id: str) -> None:
        m = g.members.pop(member_id, None)
        if m is None:
            return
        if m.group_instance_id is not None and g.static_members.get(m.group_instance_id) == member_id:
            del g.static_members[m.group_instance_id]
        m.answer_parked(E.UNKNOWN_MEMBER_ID)
        g.pending_sync.discard(member_id)
        if g.leader_id == member_id:
            g.leader_id = next(iter(g.members), None)
        g.release_empty_tables()

    def _remove_member_and_update(self, g: Group, member_id: str, now_ms: int) -> None:
        self._remove_member(g, member_id)
        if g.state in (S.STABLE, S.COMPLETING_REBALANCE):
            self.prepare_rebalance(g, now_ms)
        elif g.state is S.PREPARING_REBALANCE:
            self._maybe_complete_join(g, now_ms)
        self._poke_group(g)

    # ------------------------------------------------------------------ SyncGroup

    def sync_group(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                   protocol_type: str | None, protocol_name: str | None, assignments: dict, now_ms: int) -> Slot:
        g = self._group(group_id)
        if not group_id:
            return Slot(SyncResult(error=E.INVALID_GROUP_ID))
        if g is None or g.state is S.DEAD:
            return Slot(SyncResult(error=E.UNKNOWN_MEMBER_ID if g is None else E.COORDINATOR_NOT_AVAILABLE))
        try:
            m = g.member_of_generation(member_id, group_instance_id, generation_id)
        except CoordinatorError as e:
            return Slot(SyncResult(error=e.code))
        if (protocol_type is not None and protocol_type != g.protocol_type) or \
                (protocol_name is not None and protocol_name != g.protocol_name):
            return Slot(SyncResult(error=E.INCONSISTENT_GROUP_PROTOCOL))
        if g.state is S.EMPTY:
            return Slot(SyncResult(error=E.UNKNOWN_MEMBER_ID))
        if g.state is S.PREPARING_REBALANCE:
            return Slot(SyncResult(error=E.REBALANCE_IN_PROGRESS))
        g.pending_sync.discard(member_id)
        if g.state is S.STABLE:
            self._reschedule(g, m, now_ms)
            return Slot(SyncResult(E.NONE, g.protocol_type, g.protocol_name, m.assignment))
        # CompletingRebalance
        slot = Slot()
        if m.sync_slot is not None:
            m.sync_slot.result = SyncResult(error=E.REBALANCE_IN_PROGRESS)
        m.sync_slot = slot
        self._reschedule(g, m, now_ms)
        if g.is_leader(member_id):
            for mm in g.members.values():
                mm.assignment = bytes(assignments.get(mm.member_id, b""))

            def failed(e: Exception) -> Slot:
                for mm in g.members.values():
                    mm.assignment = b""
                    if mm.sync_slot is not None:
                        mm.sync_slot.result = SyncResult(error=E.NOT_COORDINATOR)
                        mm.sync_slot = None
                self.prepare_rebalance(g, now_ms)
                self._poke_group(g)
                return slot

            def stabilize() -> Slot:
                g.transition(S.STABLE, now_ms)
                self.coord.rebalances[CLASSIC] += 1
                for mm in g.members.values():
                    if mm.sync_slot is not None:
                        mm.sync_slot.result = SyncResult(E.NONE, g.protocol_type, g.protocol_name, mm.assignment)
                        mm.sync_slot = None
                return slot

            return self.coord.write(g.group_id, CoordinatorResult([self.group_record(g)], stabilize, failed,
                                                                  wake=(("group", g.group_id),)), now_ms)
        return slot

    # ------------------------------------------------------------------ Heartbeat / LeaveGroup

    def heartbeat(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None,
                  now_ms: int) -> ErrorCode:
        g = self._group(group_id)
        if g is None:
            return E.UNKNOWN_MEMBER_ID
        if g.state is S.DEAD:
            return E.COORDINATOR_NOT_AVAILABLE
        try:
            m = g.member_of_generation(member_id, group_instance_id, generation_id)
        except CoordinatorError as e:
            return e.code
        if g.state is S.EMPTY:
            return E.UNKNOWN_MEMBER_ID
        self._reschedule(g, m, now_ms)
        if g.state is S.PREPARING_REBALANCE:
            return E.REBALANCE_IN_PROGRESS
        return E.NONE

    def leave_group(self, group_id: str, members: list, now_ms: int) -> tuple[ErrorCode, list]:
        """members: [(member_id, group_instance_id)]. Returns (top-level error, [error per member])."""
        g = self._group(group_id)
        if g is None:
            return E.UNKNOWN_MEMBER_ID, [E.UNKNOWN_MEMBER_ID for _ in members]
        if g.state is S.DEAD:
            return E.COORDINATOR_NOT_AVAILABLE, [E.COORDINATOR_NOT_AVAILABLE for _ in members]
        errors = []
        removed = False
        for member_id, instance_id in members:
            if instance_id is None and member_id in g.pending_members:
                del g.pending_members[member_id]
                errors.append(E.NONE)
                removed = True
                continue
            if instance_id is not None:
                mid = g.static_members.get(instance_id)
                if mid is None:
                    errors.append(E.UNKNOWN_MEMBER_ID)
                    continue
                if member_id and member_id != mid:
                    errors.append(E.FENCED_INSTANCE_ID)
                    continue
                member_id = mid
            if member_id not in g.members:
                errors.append(E.UNKNOWN_MEMBER_ID)
                continue
            self._remove_member(g, member_id)
            errors.append(E.NONE)
            removed = True
        if removed:
            g.release_empty_tables()
            if g.state in (S.STABLE, S.COMPLETING_REBALANCE):
                self.prepare_rebalance(g, now_ms)
            elif g.state is S.PREPARING_REBALANCE:
                self._maybe_complete_join(g, now_ms)
            self._poke_group(g)
        return E.NONE, errors

    def describe_group(self, group_id: str, g: Group | None) -> dict:
        """DescribeGroups of ``g``, the classic group the id names (None: none)."""
        if g is None or g.state is S.DEAD:
            return {"error": E.NONE, "group_id": group_id, "state": "Dead", "protocol_type": "",
                    "protocol": "", "members": []}
        stable = g.state is S.STABLE
        members = [
            {
                "member_id": m.member_id,
                "group_instance_id": m.group_instance_id,
                "client_id": m.client_id,
                "client_host": m.client_host,
                "metadata": m.metadata_for(g.protocol_name) if stable else b"",
                "assignment": m.assignment if stable else b"",
            }
            for m in g.members.values()
        ]
        return {"error": E.NONE, "group_id": group_id, "state": g.state.value,
                "protocol_type": g.protocol_type or "", "protocol": (g.protocol_name or "") if stable else "",
                "members": members}

    # ------------------------------------------------------------------ timers

    def tick(self, g: Group, now_ms: int) -> None:
        """Fire every timer of the group that is due: pending members, join/sync deadlines, sessions."""
        self._expire_pending_members(g, now_ms)
        self._join_deadline(g, now_ms)
        self._sync_deadline(g, now_ms)
        expired = [m.member_id for m in g.members.values()
                   if not m.awaiting_join and not m.awaiting_sync and now_ms >= m.heartbeat_deadline_ms]
        for mid in expired:
            if mid in g.members:
                self._remove_member_and_update(g, mid, now_ms)

    def _expire_pending_members(self, g: Group, now_ms: int) -> None:
        for mid, deadline in list(g.pending_members.items()):
            if now_ms >= deadline:
                del g.pending_members[mid]
                if not g.pending_members:
                    g.release_empty_tables()
                if g.state is S.PREPARING_REBALANCE:
                    self._maybe_complete_join(g, now_ms)

    def _join_deadline(self, g: Group, now_ms: int) -> None:
        if g.state is not S.PREPARING_REBALANCE or g.join_deadline_ms is None or now_ms < g.join_deadline_ms:
            return
        if g.initial_delay_active and g.new_member_added and g.initial_remaining_ms > 0:
            step = min(self.coord.config.group_initial_rebalance_delay_ms, g.initial_remaining_ms)
            g.initial_remaining_ms -= step
            g.new_member_added = False
            g.join_deadline_ms = now_ms + step
        else:
            g.initial_delay_active = False
            self._complete_join(g, now_ms)

    def _sync_deadline(self, g: Group, now_ms: int) -> None:
        if g.state not in (S.COMPLETING_REBALANCE, S.STABLE) or g.sync_deadline_ms is None \
                or now_ms < g.sync_deadline_ms:
            return
        g.sync_deadline_ms = None
        laggards = [mid for mid in g.pending_sync if mid in g.members]
        g.pending_sync.clear()
        if laggards:
            for mid in laggards:
                self._remove_member(g, mid)
            self.prepare_rebalance(g, now_ms)
            self._poke_group(g)
