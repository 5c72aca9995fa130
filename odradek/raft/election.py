"""Elections: pre-vote, Vote, BeginQuorumEpoch, EndQuorumEpoch, and the state
transitions they cause (KIP-595 with KIP-996 pre-vote)."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode

from . import codec, rpc
from .quorum_state import (
    Candidate, Follower, Leader, Prospective, ReplicaProgress, Resigned, Unattached,
)

NONE = ErrorCode.NONE


class ElectionMixin:
    # ------------------------------------------------------------ transitions
    def _become_unattached(self, epoch: int, voted_id: int = -1, deadline: int | None = None) -> None:
        if deadline is None:
            deadline = self._election_deadline()
        self._set_state(Unattached(epoch, voted_id=voted_id, deadline=deadline))

    def _become_follower(self, epoch: int, leader_id: int) -> None:
        voted = self.state.voted_id if epoch == self.epoch else -1
        self._set_state(Follower(epoch, leader_id=leader_id, voted_id=voted,
                                 deadline=self.now + self.config.fetch_timeout))
        self._send_fetch(self.state)

    def _start_prospective(self) -> None:
        if not self.is_voter:
            return
        if not self.config.pre_vote:
            self._become_candidate()
            return
        s = self.state
        lost = s.leader_id if isinstance(s, Follower) else getattr(s, "lost_leader", -1)
        st = Prospective(s.epoch, voted_id=s.voted_id, deadline=self._election_deadline(),
                         granted={self.id}, lost_leader=lost)
        self._set_state(st)
        if len(st.granted) >= self.majority:
            self._become_candidate()
            return
        for v in sorted(self.voters - {self.id}):
            self._send(v, rpc.vote_request(self.cluster_id, self.id, st.epoch + 1, self.log.last_epoch,
                                           self.log.end_offset, True, v))

    def _become_candidate(self) -> None:
        st = Candidate(self.epoch + 1, voted_id=self.id, deadline=self._election_deadline(),
                       granted={self.id})
        self._set_state(st)
        if len(st.granted) >= self.majority:
            self._become_leader()
            return
        for v in sorted(self.voters - {self.id}):
            self._send(v, rpc.vote_request(self.cluster_id, self.id, st.epoch, self.log.last_epoch,
                                           self.log.end_offset, False, v))

    def _become_leader(self) -> None:
        cand = self.state
        start = self.log.end_offset
        st = Leader(cand.epoch, leader_id=self.id, voted_id=cand.voted_id, epoch_start_offset=start,
                    granting=set(cand.granted))
        for v in self.voters:
            if v != self.id:
                st.replicas[v] = ReplicaProgress(last_fetch_tick=self.now)
        st.deadline = self.now + self._check_quorum_ticks()
        self._set_state(st)
        self.log.append(codec.leader_change_batch(start, st.epoch, self.id, self.voters, st.granting))
        self._send_begin_quorum_epoch(st)

    def _check_quorum_ticks(self) -> int:
        return self.config.fetch_timeout * 3 // 2

    def _resign(self, st: Leader) -> None:
        """Step down in our epoch and tell the voters, best-caught-up first."""
        order = sorted(st.replicas, key=lambda v: (-st.replicas[v].end_offset, v))
        self._set_state(Resigned(st.epoch, leader_id=self.id, voted_id=st.voted_id,
                                 deadline=self._election_deadline(), preferred=order))
        for v in order:
            self._send(v, rpc.end_quorum_epoch_request(self.cluster_id, self.id, st.epoch, order))

    def _observe_leader(self, epoch: int, leader_id: int) -> bool:
        """React to (epoch, leader) learned from any peer; True if our state changed."""
        if epoch > self.epoch:
            if leader_id >= 0 and leader_id != self.id:
                self._become_follower(epoch, leader_id)
            else:
                self._become_unattached(epoch)
            return True
        if epoch == self.epoch and leader_id >= 0 and leader_id != self.id:
            s = self.state
            if isinstance(s, (Unattached, Prospective, Candidate)):
                self._become_follower(epoch, leader_id)
                return True
        return False

    # ------------------------------------------------------------ Vote
    def _log_up_to_date(self, last_epoch: int, end_offset: int) -> bool:
        return (last_epoch, end_offset) >= (self.log.last_epoch, self.log.end_offset)

    def _on_vote_request(self, env) -> None:
        p = rpc.part(env.msg)
        cand, epoch = p.replica_id, p.replica_epoch
        if not self.is_voter or cand not in self.voters:
            self._reply(env, rpc.vote_response(ErrorCode.INCONSISTENT_VOTER_SET, *self._current_leader(), False))
            return
        if p.pre_vote:
            # Grant without changing any state: the candidate's log is as good as ours and
            # we have no leader we can still fetch from (KIP-996).
            s = self.state
            has_leader = isinstance(s, Leader) or (isinstance(s, Follower) and self.now < s.deadline)
            granted = (epoch - 1 >= self.epoch and not has_leader
                       and self._log_up_to_date(p.last_offset_epoch, p.last_offset))
            self._reply(env, rpc.vote_response(NONE, *self._current_leader(), granted))
            return
        if epoch < self.epoch:
            self._reply(env, rpc.vote_response(ErrorCode.FENCED_LEADER_EPOCH, *self._current_leader(), False))
            return
        if epoch > self.epoch:
            self._become_unattached(epoch)
        s = self.state
        if s.voted_id == cand:
            granted = True
        elif s.voted_id >= 0 or not isinstance(s, (Unattached, Prospective)):
            granted = False
        else:
            granted = self._log_up_to_date(p.last_offset_epoch, p.last_offset)
            if granted:
                self._become_unattached(self.epoch, voted_id=cand)  # persisted before the reply goes out
        self._reply(env, rpc.vote_response(NONE, *self._current_leader(), granted))

    def _on_vote_response(self, env) -> None:
        resp = env.msg
        if resp.error_code != NONE or not resp.topics:
            return
        p = rpc.part(resp)
        s = self.state
        # A voter that has not timed out yet names the leader we lost: following it
        # again would restart our fetch timer, and voters that time out together
        # would keep sending each other back (a livelock seen with real processes).
        lost = (isinstance(s, Prospective) and p.leader_epoch == s.epoch and p.leader_id == s.lost_leader
                and env.src != s.lost_leader)  # the leader itself answering proves it is alive
        if not lost and self._observe_leader(p.leader_epoch, p.leader_id):
            return
        s = self.state
        if isinstance(s, Prospective) and p.leader_epoch <= s.epoch:
            (s.granted if p.vote_granted else s.rejected).add(env.src)
            if len(s.granted) >= self.majority:
                self._become_candidate()
        elif isinstance(s, Candidate) and p.leader_epoch == s.epoch and p.error_code == NONE:
            (s.granted if p.vote_granted else s.rejected).add(env.src)
            if len(s.granted) >= self.majority:
                self._become_leader()

    # ------------------------------------------------------------ BeginQuorumEpoch
    def _send_begin_quorum_epoch(self, st: Leader) -> None:
        """To voters that have not acknowledged us, or not fetched for a fetch timeout:
        one stuck in a higher epoch answers with it and we step down (no deadlock)."""
        st.begin_sent_tick = self.now
        quiet = self.now - self.config.fetch_timeout
        for v in sorted(self.voters - {self.id}):
            if v not in st.begin_acked or st.replicas[v].last_fetch_tick < quiet:
                self._send(v, rpc.begin_quorum_epoch_request(self.cluster_id, self.id, st.epoch, v))

    def _on_begin_quorum_epoch(self, env) -> None:
        p = rpc.part(env.msg)
        if p.leader_epoch < self.epoch:
            self._reply(env, rpc.begin_quorum_epoch_response(ErrorCode.FENCED_LEADER_EPOCH, *self._current_leader()))
            return
        self._observe_leader(p.leader_epoch, p.leader_id)
        self._reply(env, rpc.begin_quorum_epoch_response(NONE, *self._current_leader()))

    def _on_begin_quorum_epoch_response(self, env) -> None:
        p = rpc.part(env.msg) if env.msg.topics else None
        if p is None:
            return
        if self._observe_leader(p.leader_epoch, p.leader_id):
            return
        s = self.state
        if isinstance(s, Leader) and p.error_code == NONE and p.leader_epoch == s.epoch:
            s.begin_acked.add(env.src)

    # ------------------------------------------------------------ EndQuorumEpoch
    def _on_end_quorum_epoch(self, env) -> None:
        p = rpc.part(env.msg)
        if p.leader_epoch < self.epoch:
            self._reply(env, rpc.end_quorum_epoch_response(ErrorCode.FENCED_LEADER_EPOCH, *self._current_leader()))
            return
        if p.leader_epoch > self.epoch:
            self._become_unattached(p.leader_epoch)
        s = self.state
        if isinstance(s, (Follower, Unattached)) and s.leader_id in (p.leader_id, -1) and self.is_voter:
            # The leader left: the most caught-up successor starts an election first.
            prefs = rpc.preferred_successors(env.msg)
            pos = prefs.index(self.id) if self.id in prefs else len(prefs)
            self._become_unattached(s.epoch, voted_id=s.voted_id,
                                    deadline=self.now + 1 + pos * 2 + self.rng.randrange(2))
        self._reply(env, rpc.end_quorum_epoch_response(NONE, *self._current_leader()))

    def _on_end_quorum_epoch_response(self, env) -> None:
        if env.msg.topics:
            p = rpc.part(env.msg)
            self._observe_leader(p.leader_epoch, p.leader_id)
