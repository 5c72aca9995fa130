"""The leader side of one partition (Kafka's Partition.scala as a leader): each follower's
progress from its fetches, the high watermark, ISR shrink/expand as AlterPartition proposals,
and acks=all completion. Pure: time comes in as now_ms, results come out of ready()."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from odradek.log.leader_epoch_cache import UNDEFINED
from odradek.log.shared_values import SharedValues
from odradek.replication.messages import (
    AlterPartitionProposal, EpochAnswer, EpochQuery, FetchDecision, IsrMember, LeaderAndIsr, LeaderReady, LogView,
    NO_EPOCH, ProduceCompletion, ReplicaFetch,
)
from odradek.wire.errors import ErrorCode

UNKNOWN_OFFSET = -1


@dataclass(frozen=True)
class LeaderConfig:
    """The settings a partition leader works with."""
    min_insync_replicas: int = 1
    replica_lag_time_max_ms: int = 30_000


@dataclass
class FollowerProgress:
    """What the leader knows of one follower (Kafka's Replica / ReplicaState)."""
    replica_id: int
    log_end_offset: int = UNKNOWN_OFFSET
    log_start_offset: int = UNKNOWN_OFFSET
    last_fetch_leader_leo: int = UNKNOWN_OFFSET
    last_fetch_ms: int = 0
    last_caught_up_ms: int = 0
    broker_epoch: int | None = None

    def reset(self, now_ms: int, in_sync: bool) -> None:
        """A new leader epoch on a new leader: its LEO is unknown until it fetches. In the ISR
        it counts as caught up now; otherwise from 0, so it does not hold the HW back."""
        self.log_end_offset = self.log_start_offset = self.last_fetch_leader_leo = UNKNOWN_OFFSET
        self.last_fetch_ms, self.broker_epoch = 0, None
        self.last_caught_up_ms = now_ms if in_sync else 0

    def update(self, fetch_offset: int, start_offset: int, now_ms: int, leader_leo: int, broker_epoch: int) -> None:
        if fetch_offset >= leader_leo:
            self.last_caught_up_ms = max(self.last_caught_up_ms, now_ms)
        elif fetch_offset >= self.last_fetch_leader_leo:
            # It has reached what the leader had at its previous fetch: caught up as of then.
            self.last_caught_up_ms = max(self.last_caught_up_ms, self.last_fetch_ms)
        self.log_start_offset, self.log_end_offset = start_offset, fetch_offset
        self.last_fetch_leader_leo = max(leader_leo, self.last_fetch_leader_leo)
        self.last_fetch_ms, self.broker_epoch = now_ms, broker_epoch

    def is_caught_up(self, leader_leo: int, now_ms: int, max_lag_ms: int) -> bool:
        return self.log_end_offset == leader_leo or now_ms - self.last_caught_up_ms <= max_lag_ms


# ---------------------------------------------------------------- ISR states (Kafka's PartitionState)
@dataclass(frozen=True, slots=True)
class CommittedIsr:
    """An ISR with no change in flight (Kafka's CommittedPartitionState)."""
    isr: frozenset[int]

    @property
    def maximal(self) -> frozenset[int]:
        return self.isr

    inflight = False


@dataclass(frozen=True)
class PendingExpandIsr:
    """Expansion sent, not answered: the new member already counts for the HW (stricter)."""
    isr: frozenset[int]
    adding: int
    proposal: AlterPartitionProposal

    @property
    def maximal(self) -> frozenset[int]:
        return self.isr | {self.adding}

    inflight = True


@dataclass(frozen=True)
class PendingShrinkIsr:
    """Shrink sent, not answered: the HW still waits for the whole committed ISR."""
    isr: frozenset[int]
    removing: frozenset[int]
    proposal: AlterPartitionProposal

    @property
    def maximal(self) -> frozenset[int]:
        return self.isr

    inflight = True


IsrState = CommittedIsr | PendingExpandIsr | PendingShrinkIsr

# one CommittedIsr per distinct ISR, shared by every leader with that ISR (a broker leading
# 100,000 partitions has a handful of distinct ISRs: one set and one state object each, not
# one per partition)
_COMMITTED: SharedValues[frozenset[int], CommittedIsr] = SharedValues()


def committed_isr(isr: frozenset[int]) -> CommittedIsr:
    """The (shared, immutable) CommittedIsr of ``isr``."""
    return _COMMITTED.get(isr, lambda: CommittedIsr(isr))


# what a leader with no follower or no waiting produce holds: shared, never changed (a new
# follower map or waiting list replaces it)
_NO_FOLLOWERS: Mapping[int, FollowerProgress] = MappingProxyType({})
_NO_WAITING: tuple = ()


def _follower_map(broker_id: int, replicas: tuple[int, ...],
                  known: Mapping[int, FollowerProgress]) -> Mapping[int, FollowerProgress]:
    """The progress of each follower among ``replicas`` (kept from ``known``, else new); with
    none, the shared empty map."""
    if all(r == broker_id for r in replicas):
        return _NO_FOLLOWERS
    return {r: known.get(r) or FollowerProgress(r) for r in replicas if r != broker_id}

# AlterPartition errors after which the leader goes back to its committed ISR; others in
# STAY_PENDING wait for the next metadata update; any other error is retried.
REVERT_ON = {ErrorCode.OPERATION_NOT_ATTEMPTED, ErrorCode.INELIGIBLE_REPLICA}
STAY_PENDING_ON = {ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.FENCED_LEADER_EPOCH,
                   ErrorCode.INVALID_UPDATE_VERSION, ErrorCode.NEW_LEADER_ELECTED}


@dataclass
class WaitingProduce:
    """A produce waiting for acks=all."""
    request_id: int
    required_offset: int  # the batch's last offset + 1
    deadline_ms: int


class PartitionLeader:
    """One per leader epoch on its leader (Kafka's Partition.makeLeader with a new epoch;
    same-epoch partition changes go through apply_metadata). ``alive_brokers`` is kept as given,
    not copied (one mapping shared by the leaders of a metadata change): the caller does not
    change it afterwards. Slotted, and a single replica's leader shares its empty follower map,
    waiting list and ISR state with every other: a broker holds one per partition it leads."""

    __slots__ = ("broker_id", "log", "config", "leader_epoch", "partition_epoch", "replicas", "isr_state",
                 "alive_brokers", "high_watermark", "epoch_start_offset", "followers", "waiting", "_ready",
                 "_next_proposal")

    def __init__(self, broker_id: int, log: LogView, config: LeaderConfig, state: LeaderAndIsr,
                 replicas: tuple[int, ...], high_watermark: int, now_ms: int,
                 alive_brokers: Mapping[int, int]):
        if state.leader_id != broker_id:
            raise ValueError(f"broker {broker_id} is not the leader in {state}")
        self.broker_id = broker_id
        self.log = log
        self.config = config
        self.leader_epoch = state.leader_epoch
        self.partition_epoch = state.partition_epoch
        self.replicas = replicas
        self.isr_state: IsrState = committed_isr(state.isr)
        self.alive_brokers = alive_brokers  # unfenced, not shutting down: id -> broker epoch
        # The leader's HW never goes back; it starts from what this broker had as a follower.
        self.high_watermark = min(high_watermark, log.log_end_offset)
        self.epoch_start_offset = log.log_end_offset
        self.followers: Mapping[int, FollowerProgress] = _follower_map(broker_id, replicas, {})
        for f in self.followers.values():
            f.reset(now_ms, in_sync=f.replica_id in state.isr)
        self.waiting: list[WaitingProduce] | tuple = _NO_WAITING
        # what ready() hands out next (None: nothing yet, made when something is asked)
        self._ready: LeaderReady | None = LeaderReady(epoch_start=(self.leader_epoch, self.epoch_start_offset))
        self._next_proposal = 1
        self._maybe_increment_hw(now_ms)

    # ------------------------------------------------------------ queries
    @property
    def isr(self) -> frozenset[int]:
        return self.isr_state.isr

    @property
    def effective_min_isr(self) -> int:
        """min(min.insync.replicas, replication factor), as Kafka 4.3's effectiveMinIsr."""
        return min(self.config.min_insync_replicas, len(self.replicas))

    @property
    def low_watermark(self) -> int:
        """The smallest log start offset over this leader and every follower on a live broker
        (Kafka's lowWatermarkIfLeader): what a DeleteRecords waits for. A follower that has not
        fetched in this leader epoch counts as -1 (unknown), as Kafka's."""
        low = self.log.log_start_offset
        for f in self.followers.values():
            if f.log_start_offset < low and f.replica_id in self.alive_brokers:
                low = f.log_start_offset
        return low

    @property
    def under_min_isr(self) -> bool:
        return len(self.isr) < self.effective_min_isr

    def ready(self) -> LeaderReady:
        rd = self._ready
        if rd is None:
            rd = LeaderReady()
        else:
            self._ready = None
        rd.high_watermark = self.high_watermark
        return rd

    def _asks(self) -> LeaderReady:
        """What the next ready() hands out, made on the first ask."""
        rd = self._ready
        if rd is None:
            rd = self._ready = LeaderReady()
        return rd

    # ------------------------------------------------------------ produce
    def check_append(self, acks: int) -> ErrorCode:
        """Before appending: acks=all needs at least the effective min ISR in the ISR."""
        if acks == -1 and self.under_min_isr:
            return ErrorCode.NOT_ENOUGH_REPLICAS
        return ErrorCode.NONE

    def on_append(self, now_ms: int, request_id: int | None = None, last_offset: int = -1,
                  timeout_ms: int = 30_000) -> None:
        """After the driver appended records at this leader epoch. With a request_id (acks=all)
        the produce completes once the HW passes last_offset."""
        if not self.followers and request_id is None and not self.waiting:
            # the only replica (a single node's every partition): what is appended is committed
            # at once, as _maybe_increment_hw would find, without its walk (the produce hot path)
            if self.isr_state.isr and self.log.log_end_offset > self.high_watermark:
                self.high_watermark = self.log.log_end_offset
            return
        if request_id is not None:
            w = WaitingProduce(request_id, last_offset + 1, now_ms + timeout_ms)
            if self.waiting:
                self.waiting.append(w)
            else:  # (the shared empty one)
                self.waiting = [w]
        self._maybe_increment_hw(now_ms)
        self._complete_waiting(now_ms)

    def _complete_waiting(self, now_ms: int) -> None:
        if not self.waiting:
            return
        still = []
        for w in self.waiting:
            if self.high_watermark >= w.required_offset:
                ok = self.effective_min_isr <= len(self.isr_state.maximal)
                err = ErrorCode.NONE if ok else ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
                self._asks().completions.append(ProduceCompletion(w.request_id, err))
            elif now_ms >= w.deadline_ms:
                self._asks().completions.append(ProduceCompletion(w.request_id, ErrorCode.REQUEST_TIMED_OUT))
            else:
                still.append(w)
        self.waiting = still or _NO_WAITING

    # ------------------------------------------------------------ follower fetches
    def on_fetch(self, fetch: ReplicaFetch, now_ms: int) -> FetchDecision:
        def answer(error: ErrorCode, **kw) -> FetchDecision:
            return FetchDecision(fetch.request_id, self.leader_epoch, error, fetch.fetch_offset, **kw)

        # a request without a current leader epoch (-1, Fetch < v9) is not checked (checkCurrentLeaderEpoch)
        has_epoch = fetch.current_leader_epoch != NO_EPOCH
        if has_epoch and fetch.current_leader_epoch < self.leader_epoch:
            return answer(ErrorCode.FENCED_LEADER_EPOCH)
        if has_epoch and fetch.current_leader_epoch > self.leader_epoch:
            return answer(ErrorCode.UNKNOWN_LEADER_EPOCH)
        if fetch.replica_id not in self.followers:  # followerReplicaOrThrow
            return answer(ErrorCode.UNKNOWN_LEADER_EPOCH if has_epoch else ErrorCode.NOT_LEADER_OR_FOLLOWER)
        known_epoch = self.alive_brokers.get(fetch.replica_id)
        if fetch.broker_epoch != -1 and known_epoch is not None and known_epoch > fetch.broker_epoch:
            return answer(ErrorCode.NOT_LEADER_OR_FOLLOWER)  # a fetch from before the broker restarted
        log = self.log
        hw, lso, leo = self.high_watermark, log.log_start_offset, log.log_end_offset
        if fetch.last_fetched_epoch != NO_EPOCH:
            end = log.epochs.end_offset_for(fetch.last_fetched_epoch, leo)
            if end.undefined or fetch.fetch_offset < lso:
                return answer(ErrorCode.OFFSET_OUT_OF_RANGE, high_watermark=hw, log_start_offset=lso)
            if end.epoch < fetch.last_fetched_epoch or end.end_offset < fetch.fetch_offset:
                return answer(ErrorCode.NONE, high_watermark=hw, log_start_offset=lso, diverging_epoch=end)
        if not lso <= fetch.fetch_offset <= leo:
            return answer(ErrorCode.OFFSET_OUT_OF_RANGE, high_watermark=hw, log_start_offset=lso)
        follower = self.followers[fetch.replica_id]
        before, start_before = follower.log_end_offset, follower.log_start_offset
        follower.update(fetch.fetch_offset, fetch.log_start_offset, now_ms, leo, fetch.broker_epoch)
        if follower.log_start_offset > start_before:
            self._asks().low_watermark_moved = True
        self._maybe_expand_isr(follower)
        if before != follower.log_end_offset:
            self._maybe_increment_hw(now_ms)
            self._complete_waiting(now_ms)
        # The HW read before this fetch's update, as Kafka answers.
        return answer(ErrorCode.NONE, high_watermark=hw, log_start_offset=lso)

    def answer_epoch_query(self, q: EpochQuery) -> EpochAnswer:
        """OffsetForLeaderEpoch on the leader (Partition.lastOffsetForLeaderEpoch)."""
        if q.current_leader_epoch == NO_EPOCH:
            pass  # not given: not checked
        elif q.current_leader_epoch < self.leader_epoch:
            return EpochAnswer(q.request_id, self.leader_epoch, ErrorCode.FENCED_LEADER_EPOCH, UNDEFINED)
        elif q.current_leader_epoch > self.leader_epoch:
            return EpochAnswer(q.request_id, self.leader_epoch, ErrorCode.UNKNOWN_LEADER_EPOCH, UNDEFINED)
        end = self.log.epochs.end_offset_for(q.leader_epoch, self.log.log_end_offset)
        return EpochAnswer(q.request_id, self.leader_epoch, ErrorCode.NONE, end)

    # ------------------------------------------------------------ ISR
    def _eligible(self, replica_id: int) -> bool:
        """KIP-903: alive, unfenced, and fetching with the broker epoch the metadata knows."""
        known = self.alive_brokers.get(replica_id)
        seen = self.followers[replica_id].broker_epoch
        return known is not None and seen is not None and (seen == -1 or seen == known)

    def _maybe_expand_isr(self, f: FollowerProgress) -> None:
        st = self.isr_state
        if not isinstance(st, CommittedIsr) or f.replica_id in st.isr or not self._eligible(f.replica_id):
            return
        # Caught up to the HW and into this leader epoch, else it could be elected without
        # data committed between the HW and this leader's end offset.
        if f.log_end_offset >= self.high_watermark and f.log_end_offset >= self.epoch_start_offset:
            proposal = self._propose(st.isr | {f.replica_id})
            self.isr_state = PendingExpandIsr(st.isr, f.replica_id, proposal)

    def out_of_sync_replicas(self, now_ms: int) -> frozenset[int]:
        st = self.isr_state
        if st.inflight:
            return frozenset()
        leo, lag = self.log.log_end_offset, self.config.replica_lag_time_max_ms
        return frozenset(r for r in st.isr - {self.broker_id}
                         if r not in self.followers or not self.followers[r].is_caught_up(leo, now_ms, lag))

    def tick(self, now_ms: int) -> None:
        """The periodic ISR check (Kafka's isr-expiration task), produce timeouts, and the HW
        (a follower that stopped being caught up no longer holds it back)."""
        out = self.out_of_sync_replicas(now_ms)
        st = self.isr_state
        if out and isinstance(st, CommittedIsr):
            self.isr_state = PendingShrinkIsr(st.isr, out, self._propose(st.isr - out))
        self._maybe_increment_hw(now_ms)
        self._complete_waiting(now_ms)

    def _propose(self, isr: frozenset[int]) -> AlterPartitionProposal:
        members = []
        for r in sorted(isr):
            if r == self.broker_id:
                members.append(IsrMember(r, self.alive_brokers.get(r, -1)))
            else:
                seen = self.followers[r].broker_epoch if r in self.followers else None
                members.append(IsrMember(r, -1 if seen is None else seen))
        p = AlterPartitionProposal(self._next_proposal, self.broker_id, self.leader_epoch,
                                   self.partition_epoch, tuple(members))
        self._next_proposal += 1
        self._asks().proposals.append(p)
        return p

    def on_alter_partition_answer(self, proposal_id: int, answer: LeaderAndIsr | ErrorCode, now_ms: int) -> None:
        st = self.isr_state
        if not isinstance(st, (PendingExpandIsr, PendingShrinkIsr)) or st.proposal.proposal_id != proposal_id:
            return  # the state moved on (a metadata update): this answer is stale
        if isinstance(answer, LeaderAndIsr):
            if answer.leader_epoch != self.leader_epoch or answer.partition_epoch < self.partition_epoch:
                return
            self.isr_state = committed_isr(answer.isr)
            self.partition_epoch = answer.partition_epoch
        elif answer in REVERT_ON:
            self.isr_state = committed_isr(st.isr)
        elif answer not in STAY_PENDING_ON:
            self._asks().proposals.append(st.proposal)  # retry the same request
            return
        else:
            return
        self._maybe_increment_hw(now_ms)
        self._complete_waiting(now_ms)

    def apply_metadata(self, state: LeaderAndIsr, replicas: tuple[int, ...], now_ms: int,
                       alive_brokers: Mapping[int, int]) -> None:
        """A PartitionChangeRecord at the same leader epoch (makeLeader without a new epoch):
        the committed ISR and partition epoch become the controller's (a pending proposal is
        dropped; its answer will be ignored). Followers keep their progress: Kafka resets it
        only for a new leader epoch. A partition epoch we already have changes nothing."""
        if state.leader_epoch != self.leader_epoch or state.leader_id != self.broker_id:
            raise ValueError("a new leader epoch needs a new PartitionLeader")
        self._set_alive(alive_brokers)
        if state.partition_epoch > self.partition_epoch:
            self.partition_epoch = state.partition_epoch
            self.isr_state = committed_isr(state.isr)
            if replicas != self.replicas:
                self._asks().low_watermark_moved = True  # a replica removed no longer holds it back
            self.replicas = replicas
            self.followers = _follower_map(self.broker_id, replicas, self.followers)
        self._maybe_increment_hw(now_ms)
        self._complete_waiting(now_ms)

    def reconfigure(self, config: LeaderConfig, now_ms: int) -> None:
        """The topic's config changed (min.insync.replicas): the HW and the waiting acks=all
        produces are checked against the new one at once."""
        self.config = config
        self._maybe_increment_hw(now_ms)
        self._complete_waiting(now_ms)

    def update_alive_brokers(self, alive_brokers: Mapping[int, int], now_ms: int) -> None:
        self._set_alive(alive_brokers)
        self._maybe_increment_hw(now_ms)
        self._complete_waiting(now_ms)

    def _set_alive(self, alive_brokers: Mapping[int, int]) -> None:
        if alive_brokers.keys() != self.alive_brokers.keys():
            self._asks().low_watermark_moved = True  # a follower fenced no longer holds it back
        self.alive_brokers = dict(alive_brokers)

    # ------------------------------------------------------------ high watermark
    def _maybe_increment_hw(self, now_ms: int) -> bool:
        """HW = the smallest LEO over the maximal ISR and the caught-up replicas allowed to
        join it; it does not move while the committed ISR is under the effective min ISR."""
        if self.under_min_isr:
            return False
        leo = self.log.log_end_offset
        new_hw = leo
        maximal, lag = self.isr_state.maximal, self.config.replica_lag_time_max_ms
        for f in self.followers.values():
            if f.log_end_offset < new_hw and (
                    f.replica_id in maximal
                    or (f.is_caught_up(leo, now_ms, lag) and self._eligible(f.replica_id))):
                new_hw = f.log_end_offset
        if new_hw > self.high_watermark:
            self.high_watermark = new_hw
            return True
        return False

    def resign(self) -> list[ProduceCompletion]:
        """Leadership is gone (makeFollower): every waiting produce fails."""
        done = [ProduceCompletion(w.request_id, ErrorCode.NOT_LEADER_OR_FOLLOWER) for w in self.waiting]
        self.waiting = _NO_WAITING
        return done
