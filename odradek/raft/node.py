"""RaftNode: the pure KRaft consensus core, driven etcd-style.

The driver feeds it `step(envelope)` for every received RPC, `tick()` at a fixed
interval, `propose(records)` on the leader, and then performs `ready()` (persist,
send, apply) and calls `advance(ready)`. No sockets, clock or files inside; all
randomness comes from `rng_seed`, so a run replays exactly.
"""

from __future__ import annotations

import random

from odradek.wire.errors import ErrorCode

from . import codec, rpc
from .election import ElectionMixin
from .log import RaftLog
from .quorum_state import (
    Candidate, EpochState, Follower, Leader, Prospective, Resigned, Unattached, to_record,
)
from .replication import ReplicationMixin
from .types import NotLeaderError, RaftConfig, RaftError, Ready, Snapshot, SnapshotId, StorageState, Envelope


class RaftNode(ElectionMixin, ReplicationMixin):
    def __init__(self, node_id: int, voters, storage: StorageState | None = None,
                 config: RaftConfig | None = None, rng_seed: int = 0):
        storage = storage or StorageState()
        self.id = node_id
        self.voters = frozenset(voters)
        self.is_voter = node_id in self.voters
        self.config = config or RaftConfig()
        self.cluster_id = self.config.cluster_id
        self.rng = random.Random(rng_seed)
        self.now = 0
        self.log = RaftLog(storage.snapshot, storage.batches)
        self.hw = self.log.start_offset  # a snapshot only ever covers committed records
        self.applied = self.log.start_offset
        self._msgs: list[Envelope] = []
        self._next_corr = 1
        self._qs_dirty = False
        self._hw_dirty = False
        self._new_snapshot: Snapshot | None = None
        self._snapshot_to_apply: Snapshot | None = storage.snapshot
        self._pending_ready = None

        qs = storage.quorum_state
        epoch = qs.leader_epoch if qs is not None and qs.leader_epoch >= 0 else 0
        leader = qs.leader_id if qs is not None else -1
        voted = qs.voted_id if qs is not None else -1
        if leader == self.id:
            # We led this epoch before a restart: we may not lead it again.
            self.state: EpochState = Resigned(epoch, leader_id=self.id, voted_id=voted,
                                              deadline=self._election_deadline())
        elif leader >= 0:
            self.state = Unattached(epoch, voted_id=voted, deadline=self._election_deadline())
            self._become_follower(epoch, leader)
        else:
            self.state = Unattached(epoch, voted_id=voted, deadline=self._election_deadline())
        if self.voters == {self.id} and not isinstance(self.state, Follower):
            self._start_prospective()  # a lone voter elects itself at once

    # ----------------------------------------------------------------- queries
    @property
    def epoch(self) -> int:
        return self.state.epoch

    @property
    def leader_id(self) -> int:
        return self.state.leader_id

    @property
    def is_leader(self) -> bool:
        return isinstance(self.state, Leader)

    @property
    def majority(self) -> int:
        return len(self.voters) // 2 + 1

    def status(self) -> str:
        return (f"{self.id}: {self.state.name} epoch={self.epoch} leader={self.leader_id} "
                f"voted={self.state.voted_id} hw={self.hw} leo={self.log.end_offset} "
                f"start={self.log.start_offset} applied={self.applied}")

    # ----------------------------------------------------------------- inputs
    def tick(self) -> None:
        self.now += 1
        s = self.state
        if isinstance(s, Leader):
            self._leader_tick(s)
        elif isinstance(s, Follower):
            self._follower_tick(s)
        elif self.now >= s.deadline:
            if not self.is_voter:
                self._observer_discover()
            else:
                self._start_prospective()  # also a Candidate that lost or split the vote

    def next_tick_due(self) -> int:
        """The first tick (value of ``now``) at which tick() may act (send, change state) as things
        stand: the ticks before it only count time. A driver may therefore sleep until then, provided
        it runs the ticks it skipped before it steps any input or proposal (they move ``now``, which
        inputs read), and asks again after each input (an input may bring the tick nearer)."""
        s = self.state
        if isinstance(s, Leader):
            due = self._leader_tick_due(s)
        elif isinstance(s, Follower):
            due = self._follower_tick_due(s)
        else:
            due = s.deadline
        return max(self.now + 1, due)

    def step(self, env: Envelope) -> None:
        if env.dst != self.id:
            raise RaftError(f"message for {env.dst} stepped into {self.id}")
        msg = env.msg
        handler = self._HANDLERS.get(type(msg))
        if handler is None:
            raise RaftError(f"unexpected message {type(msg).__name__}")
        if self.cluster_id is not None and not env.is_response and \
                getattr(msg, "cluster_id", None) not in (None, self.cluster_id):
            self._reply(env, self._inconsistent_cluster_response(msg))
            return
        handler(self, env)

    def propose(self, records, timestamp: int = 0) -> int:
        """Append records as one batch at the leader; returns the offset of the last one.
        ``records``: their values, or a codec.Prepared (made ahead: its own timestamp).

        The batch is committed once the high watermark passes that offset."""
        s = self.state
        if not isinstance(s, Leader):
            raise NotLeaderError(self.leader_id, self.epoch)
        if isinstance(records, codec.Prepared):
            if not records:
                raise RaftError("empty proposal")
            b = codec.prepared_batch(self.log.end_offset, s.epoch, records)
        else:
            records = list(records)
            if not records:
                raise RaftError("empty proposal")
            b = codec.data_batch(self.log.end_offset, s.epoch, records, timestamp)
        self.log.append(b)
        self._wake_parked(s)
        return b.last_offset

    def resign(self) -> None:
        """Graceful resignation (shutdown): stop leading and ask others to elect now."""
        if isinstance(self.state, Leader):
            self._resign(self.state)

    def snapshot(self, end_offset: int, data: bytes) -> SnapshotId:
        """The state machine's image of [0, end_offset); the log before it is dropped."""
        if end_offset > self.applied:
            raise RaftError(f"snapshot at {end_offset} beyond applied {self.applied}")
        if end_offset <= self.log.start_offset:
            return self.log.snapshot.id if self.log.snapshot else SnapshotId(0, 0)
        i = self.log.index_of(end_offset)
        if i < len(self.log.batches) and self.log.batches[i].base_offset != end_offset \
                and end_offset != self.log.end_offset:
            raise RaftError(f"snapshot offset {end_offset} is inside a batch")
        sid = SnapshotId(end_offset, self.log.epoch_at(end_offset - 1))
        snap = Snapshot(sid, bytes(data))
        self.log.snapshot = snap
        self.log._drop_before(end_offset)
        self.log.start_offset = end_offset
        self.log.start_epoch = sid.epoch
        self.log.pending_delete_before = end_offset
        self._new_snapshot = snap
        return sid

    # ----------------------------------------------------------------- Ready
    def has_ready(self) -> bool:
        return bool(
            self._msgs or self._qs_dirty or self._hw_dirty or self._new_snapshot
            or self._snapshot_to_apply or (self.log.persisted_end < self.log.end_offset and self.log.unstable())
            or self.log.pending_truncate is not None or self.log.pending_delete_before is not None
            or self.applied < min(self.hw, self.log.persisted_end)
        )

    def ready(self) -> Ready:
        r = Ready()
        r.messages, self._msgs = self._msgs, []
        # What must be persisted stays pending until advance(): a Ready whose writes failed
        # (and so was never advanced) is offered again by the next one.
        r.truncate_log_from, r.delete_log_before = self.log.pending_truncate, self.log.pending_delete_before
        r.entries = self.log.unstable()
        if self._qs_dirty:
            r.quorum_state = to_record(self.cluster_id, self.state, self.voters)
        r.snapshot = self._new_snapshot
        if self._hw_dirty:
            r.high_watermark = self.hw
            self._hw_dirty = False
        r.snapshot_to_apply = self._snapshot_to_apply  # (also pending until advance())
        applied = self.applied
        if r.snapshot_to_apply is not None:
            applied = r.snapshot_to_apply.id.end_offset
        limit = min(self.hw, self.log.end_offset if r.entries else self.log.persisted_end)
        if applied < limit:
            r.committed_entries = [b for b in self.log.batches_from(applied, 1 << 30)
                                   if b.next_offset <= limit]
        self._pending_ready = (self.log.end_offset, applied)
        return r

    def not_persisted(self, r: Ready) -> None:
        """``r``'s write failed (it is not advanced; the next Ready offers its persistence again): its
        messages go back to the front of the outbox, to leave with the next Ready once that is written.
        Responses to requests are never resent by a timer: dropped, their requester waited for them."""
        self._msgs[:0] = r.messages
        r.messages = []

    def advance(self, r: Ready) -> None:
        end, applied = self._pending_ready
        self._pending_ready = None
        self.log.mark_persisted(end)
        if r.quorum_state is not None and r.quorum_state == to_record(self.cluster_id, self.state, self.voters):
            self._qs_dirty = False
        if r.snapshot is self._new_snapshot:
            self._new_snapshot = None
        if r.snapshot_to_apply is self._snapshot_to_apply:
            self._snapshot_to_apply = None
        if self.log.pending_truncate == r.truncate_log_from:
            self.log.pending_truncate = None
        if self.log.pending_delete_before == r.delete_log_before:
            self.log.pending_delete_before = None
        if r.committed_entries:
            applied = r.committed_entries[-1].next_offset
        self.applied = applied
        s = self.state
        if isinstance(s, Leader):
            self._maybe_advance_hw(s)

    # ----------------------------------------------------------------- plumbing
    def _send(self, dst: int, msg) -> int:
        corr = self._next_corr
        self._next_corr += 1
        self._msgs.append(Envelope(self.id, dst, corr, msg))
        return corr

    def _reply(self, env: Envelope, msg) -> None:
        self._msgs.append(Envelope(self.id, env.src, env.correlation_id, msg))

    def _inconsistent_cluster_response(self, msg):
        e = ErrorCode.INCONSISTENT_CLUSTER_ID
        t = type(msg)
        if t is rpc.VoteRequest:
            return rpc.VoteResponse(error_code=e)
        if t is rpc.BeginQuorumEpochRequest:
            return rpc.BeginQuorumEpochResponse(error_code=e)
        if t is rpc.EndQuorumEpochRequest:
            return rpc.EndQuorumEpochResponse(error_code=e)
        if t is rpc.FetchSnapshotRequest:
            return rpc.FetchSnapshotResponse(error_code=e)
        return rpc.FetchResponse(error_code=e)

    def _election_deadline(self) -> int:
        t = self.config.election_timeout
        return self.now + t + self.rng.randrange(t)

    def _set_state(self, state: EpochState) -> None:
        old = self.state
        if (old.epoch, old.leader_id, old.voted_id) != (state.epoch, state.leader_id, state.voted_id):
            self._qs_dirty = True
        self.state = state
        if isinstance(old, Leader) and old.parked and old is not state:
            for env, _ in old.parked.values():
                self._answer_fetch_error(env)  # the follower learns the new epoch now
            old.parked.clear()

    _HANDLERS: dict = {}


RaftNode._HANDLERS = {
    rpc.VoteRequest: RaftNode._on_vote_request,
    rpc.VoteResponse: RaftNode._on_vote_response,
    rpc.BeginQuorumEpochRequest: RaftNode._on_begin_quorum_epoch,
    rpc.BeginQuorumEpochResponse: RaftNode._on_begin_quorum_epoch_response,
    rpc.EndQuorumEpochRequest: RaftNode._on_end_quorum_epoch,
    rpc.EndQuorumEpochResponse: RaftNode._on_end_quorum_epoch_response,
    rpc.FetchRequest: RaftNode._on_fetch,
    rpc.FetchResponse: RaftNode._on_fetch_response,
    rpc.FetchSnapshotRequest: RaftNode._on_fetch_snapshot,
    rpc.FetchSnapshotResponse: RaftNode._on_fetch_snapshot_response,
}
