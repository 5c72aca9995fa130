"""Pull-based replication: followers Fetch from the leader, the leader answers with
records or a DivergingEpoch / SnapshotId, and advances the high watermark when a
majority of voters has fetched past it. FetchSnapshot for followers behind the log start."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode

from . import codec, rpc
from .quorum_state import Follower, Leader, ReplicaProgress, Resigned, SnapshotFetch
from .types import Snapshot, SnapshotId

NONE = ErrorCode.NONE


class ReplicationMixin:
    # ------------------------------------------------------------ follower side
    def _send_fetch(self, s: Follower) -> None:
        if s.snapshot_fetch is not None:
            sf = s.snapshot_fetch
            s.fetch_corr = self._send(s.leader_id, rpc.fetch_snapshot_request(
                self.cluster_id, self.id, s.epoch, sf.snapshot_id, len(sf.buf),
                self.config.snapshot_chunk_bytes))
        else:
            s.fetch_corr = self._send(s.leader_id, rpc.fetch_request(
                self.cluster_id, self.id, s.epoch, self.log.end_offset, self.log.last_epoch,
                self.log.start_offset, self.hw, self.config.fetch_max_wait * self.config.tick_ms))
        s.fetch_offset = self.log.end_offset
        s.fetch_sent_tick = self.now

    def _follower_tick(self, s: Follower) -> None:
        if self.now >= s.deadline:
            if self.is_voter:
                self._start_prospective()  # the leader went quiet
            else:
                self._become_unattached(s.epoch, deadline=self.now)
                self._observer_discover()
            return
        wait = self.config.request_timeout + self.config.fetch_max_wait
        if s.fetch_corr < 0 and self.now >= s.next_fetch_tick or \
                s.fetch_corr >= 0 and self.now - s.fetch_sent_tick >= wait:
            self._send_fetch(s)

    def _follower_tick_due(self, s: Follower) -> int:
        """The tick at which _follower_tick acts: the fetch timeout, or the fetch (re)sent."""
        if s.fetch_corr < 0:
            fetch = s.next_fetch_tick
        else:
            fetch = s.fetch_sent_tick + self.config.request_timeout + self.config.fetch_max_wait
        return min(s.deadline, fetch)

    def _observer_discover(self) -> None:
        """An observer with no leader asks a random voter (a bootstrap server)."""
        s = self.state
        voters = sorted(self.voters)
        target = voters[self.rng.randrange(len(voters))]
        self._send(target, rpc.fetch_request(self.cluster_id, self.id, s.epoch, self.log.end_offset,
                                             self.log.last_epoch, self.log.start_offset, self.hw, 0))
        s.deadline = self.now + self.config.request_timeout

    def _on_fetch_response(self, env) -> None:
        got = rpc.answered_part(env.msg)
        if got is None:
            return
        p, leader_id, epoch = got
        s = self.state
        mine = isinstance(s, Follower) and env.correlation_id == s.fetch_corr
        if not mine and isinstance(s, Follower) and p.error_code == NONE and env.src == s.leader_id \
                and (epoch, leader_id) == (s.epoch, s.leader_id):
            self._on_late_fetch_response(s, p)
            return
        if mine:
            s.fetch_corr = -1
        if p.error_code != NONE:
            if self._observe_leader(epoch, leader_id):
                return
            if mine:
                if epoch == s.epoch and leader_id < 0:
                    self._leader_gone(s)
                else:
                    s.next_fetch_tick = self.now + 1
            return
        if not mine:
            self._observe_leader(epoch, leader_id)  # an observer's discovery fetch
            return
        if epoch != s.epoch or leader_id != s.leader_id:
            self._observe_leader(epoch, leader_id)
            return
        s.deadline = self.now + self.config.fetch_timeout
        if p.diverging_epoch.epoch >= 0 or p.diverging_epoch.end_offset >= 0:
            de = p.diverging_epoch
            _, local_end = self.log.end_offset_for_epoch(de.epoch)
            target = min(de.end_offset, local_end)
            if target < self.hw:
                raise AssertionError(f"node {self.id}: truncating to {target} below high watermark {self.hw}")
            self.log.truncate_to(target)
        elif p.snapshot_id.end_offset >= 0:
            sid = SnapshotId(p.snapshot_id.end_offset, p.snapshot_id.epoch)
            s.snapshot_fetch = SnapshotFetch(sid)
        else:
            if s.fetch_offset != self.log.end_offset:
                self._send_fetch(s)
                return
            self._append_fetched(p)
        self._send_fetch(s)

    def _on_late_fetch_response(self, s: Follower, p) -> None:
        """An earlier fetch's answer from our leader in this epoch, after we sent another: a leader
        that answers one request at a time per connection (Kafka's) with fetches parked up to
        max_wait_ms may, on a loaded machine, answer each fetch after its resend, and then no
        answer would ever count. It shows the leader alive, and its records are appended where
        they continue our log; a divergence or snapshot in it waits for the current fetch."""
        s.deadline = self.now + self.config.fetch_timeout
        if p.diverging_epoch.epoch < 0 and p.diverging_epoch.end_offset < 0 and p.snapshot_id.end_offset < 0:
            self._append_fetched(p)

    def _append_fetched(self, p) -> None:
        for b in codec.decode_batches(p.records):
            if b.base_offset != self.log.end_offset:
                break
            self.log.append(b)
        new_hw = min(p.high_watermark, self.log.end_offset)
        if new_hw > self.hw:
            self.hw = new_hw
            self._hw_dirty = True

    def _leader_gone(self, s: Follower) -> None:
        """Our leader says it no longer leads this epoch (it resigned)."""
        self._become_unattached(s.epoch, voted_id=s.voted_id,
                                deadline=self.now + 1 + self.rng.randrange(self.config.election_timeout))

    def _on_fetch_snapshot_response(self, env) -> None:
        got = rpc.answered_part(env.msg)
        if got is None:
            return
        p, leader_id, epoch = got
        s = self.state
        if not isinstance(s, Follower) or s.snapshot_fetch is None and env.correlation_id != s.fetch_corr:
            return
        # A chunk is good whenever it continues our snapshot, even if the request timed out.
        if env.correlation_id == s.fetch_corr:
            s.fetch_corr = -1
        elif p.error_code != NONE or p.position != len(s.snapshot_fetch.buf):
            return
        if p.error_code != NONE:
            if not self._observe_leader(epoch, leader_id):
                s.snapshot_fetch = None  # SNAPSHOT_NOT_FOUND etc.: a plain fetch finds the new one
                s.next_fetch_tick = self.now + 1
            return
        sf = s.snapshot_fetch
        sid = SnapshotId(p.snapshot_id.end_offset, p.snapshot_id.epoch)
        if sf is None or sid != sf.snapshot_id or p.position != len(sf.buf):
            s.snapshot_fetch = None
            self._send_fetch(s)
            return
        s.deadline = self.now + self.config.fetch_timeout
        sf.buf += p.unaligned_records or b""
        if len(sf.buf) >= p.size:
            snap = Snapshot(sid, bytes(sf.buf))
            s.snapshot_fetch = None
            self.log.install_snapshot(snap)
            self._new_snapshot = snap
            self._snapshot_to_apply = snap
            self.applied = sid.end_offset
            if sid.end_offset > self.hw:
                self.hw = sid.end_offset
                self._hw_dirty = True
        self._send_fetch(s)

    # ------------------------------------------------------------ leader side
    def _leader_error(self, current_leader_epoch: int):
        s = self.state
        if not isinstance(s, Leader):
            return ErrorCode.NOT_LEADER_OR_FOLLOWER
        if current_leader_epoch < s.epoch:
            return ErrorCode.FENCED_LEADER_EPOCH
        if current_leader_epoch > s.epoch:
            return ErrorCode.UNKNOWN_LEADER_EPOCH
        return None

    def _current_leader(self):
        # A resigned leader reports no leader: its followers should elect now.
        lid = -1 if isinstance(self.state, Resigned) else self.leader_id
        return lid, self.epoch

    def _answer_fetch_error(self, env) -> None:
        p = rpc.part(env.msg)
        err = self._leader_error(p.current_leader_epoch) or ErrorCode.NOT_LEADER_OR_FOLLOWER
        lid, ep = self._current_leader()
        self._reply(env, rpc.fetch_response(err, lid, ep))

    def _on_fetch(self, env) -> None:
        req = env.msg
        p = rpc.part(req)
        rid = rpc.fetch_replica_id(req)
        if self._leader_error(p.current_leader_epoch) is not None:
            self._answer_fetch_error(env)
            return
        s: Leader = self.state
        log = self.log
        f, le = p.fetch_offset, p.last_fetched_epoch
        reply = None
        if f < log.start_offset:
            reply = dict(snapshot_id=log.snapshot.id)
        elif f > 0:
            ep, end = log.end_offset_for_epoch(le)
            if ep < 0:
                reply = dict(snapshot_id=log.snapshot.id)  # its last epoch predates our log
            elif ep != le or end < f:
                reply = dict(diverging=(ep, end))
        if reply is not None:
            self._reply(env, rpc.fetch_response(NONE, self.id, s.epoch, high_watermark=self.hw,
                                                log_start=log.start_offset, **reply))
            return
        # A valid position: everything below f is on the replica's disk.
        prog = s.replicas.get(rid) if rid in self.voters else s.observers.setdefault(rid, _progress())
        if prog is not None:
            if rid not in self.voters:  # static voters have no directory id (kraft.version 0), as Kafka
                prog.directory_id = p.replica_directory_id or bytes(16)
            prog.end_offset = f
            prog.last_fetch_tick = self.now
            if f >= log.end_offset:
                prog.last_caught_up_tick = self.now
            s.begin_acked.add(rid)
            self._maybe_advance_hw(s)
        s.parked.pop(rid, None)  # superseded by this fetch
        if f >= log.end_offset and p.high_watermark >= self.hw and req.max_wait_ms > 0:
            s.parked[rid] = (env, self.now + self.config.fetch_max_wait)  # long poll
            return
        self._answer_fetch(s, env)

    def _answer_fetch(self, s: Leader, env) -> None:
        p = rpc.part(env.msg)
        batches = self.log.batches_from(p.fetch_offset, self.config.max_batches_per_fetch)
        self._reply(env, rpc.fetch_response(
            NONE, self.id, s.epoch, high_watermark=self.hw, log_start=self.log.start_offset,
            records=codec.encode_batches(batches) if batches else None))

    def _wake_parked(self, s: Leader) -> None:
        if s.parked:
            parked, s.parked = s.parked, {}
            for env, _ in parked.values():
                self._answer_fetch(s, env)

    def _maybe_advance_hw(self, s: Leader) -> None:
        ends = sorted([self.log.persisted_end] + [r.end_offset for r in s.replicas.values()], reverse=True)
        candidate = ends[self.majority - 1]
        # Only a record of our own epoch commits by counting (Raft's rule, KIP-595's too).
        if candidate > self.hw and candidate > s.epoch_start_offset:
            self.hw = candidate
            self._hw_dirty = True
            self._wake_parked(s)

    def _leader_tick(self, s: Leader) -> None:
        if s.parked:
            for rid, (env, expiry) in list(s.parked.items()):
                if self.now >= expiry:
                    del s.parked[rid]
                    self._answer_fetch(s, env)
        if self.now - s.begin_sent_tick >= self.config.request_timeout:
            self._send_begin_quorum_epoch(s)
        # Check quorum: resign when a majority has not fetched for a while.
        horizon = self.now - self._check_quorum_ticks()
        live = 1 + sum(1 for r in s.replicas.values() if r.last_fetch_tick >= horizon)
        if live < self.majority:
            self._resign(s)

    def _leader_tick_due(self, s: Leader) -> int:
        """The tick at which _leader_tick acts: a parked fetch expires, a BeginQuorumEpoch goes out,
        or check-quorum resigns."""
        due = min((expiry for _, expiry in s.parked.values()), default=_NEVER)
        # BeginQuorumEpoch is considered every request_timeout ticks after the last send (the ticks of
        # that grid that find every voter acknowledged and fetching only move begin_sent_tick on it),
        # and goes out on the first of them that finds a voter unacknowledged or quiet for a fetch timeout
        rt, ft = self.config.request_timeout, self.config.fetch_timeout
        b = s.begin_sent_tick
        if any(v not in s.begin_acked for v in s.replicas):
            due = min(due, b + rt)
        elif s.replicas:
            quiet = min(r.last_fetch_tick for r in s.replicas.values()) + ft + 1
            due = min(due, b + rt * max(1, -(-(quiet - b) // rt)))
        # check-quorum: the leader and majority - 1 others fetched within the last _check_quorum_ticks
        need = self.majority - 1
        if need > 0:
            ticks = sorted((r.last_fetch_tick for r in s.replicas.values()), reverse=True)
            due = min(due, ticks[need - 1] + self._check_quorum_ticks() + 1)
        return due

    def _on_fetch_snapshot(self, env) -> None:
        req = env.msg
        p = rpc.part(req)
        err = self._leader_error(p.current_leader_epoch)
        lid, ep = self._current_leader()
        if err is not None:
            self._reply(env, rpc.fetch_snapshot_response(err, lid, ep))
            return
        snap = self.log.snapshot
        sid = SnapshotId(p.snapshot_id.end_offset, p.snapshot_id.epoch)
        if snap is None or snap.id != sid:
            self._reply(env, rpc.fetch_snapshot_response(ErrorCode.SNAPSHOT_NOT_FOUND, lid, ep))
            return
        if p.position < 0 or p.position > len(snap.data):
            self._reply(env, rpc.fetch_snapshot_response(ErrorCode.POSITION_OUT_OF_RANGE, lid, ep))
            return
        n = min(req.max_bytes, self.config.snapshot_chunk_bytes)
        prog = self.state.replicas.get(req.replica_id)
        if prog is not None:
            prog.last_fetch_tick = self.now
        self._reply(env, rpc.fetch_snapshot_response(
            NONE, lid, ep, snapshot_id=sid, size=len(snap.data), position=p.position,
            chunk=snap.data[p.position:p.position + n]))


_NEVER = 1 << 62


def _progress():
    return ReplicaProgress()
