"""The follower side of one partition (Kafka's AbstractFetcherThread / ReplicaFetcherThread
for one partition): the fetch position, truncation by leader epoch, and following the
leader's high watermark and log start offset. Pure: poll() says what to send, the
on_* methods take the answers and say what to do to the local log (FollowerReady)."""

from __future__ import annotations

import enum

from odradek.log.leader_epoch_cache import UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET, EpochEndOffset, LeaderEpochCache
from odradek.replication.messages import (
    BatchInfo, EpochAnswer, EpochQuery, FetchDecision, FollowerReady, LogView, NO_EPOCH, ReplicaFetch,
)
from odradek.wire.errors import ErrorCode


class Phase(enum.Enum):
    TRUNCATING = "truncating"  # asking OffsetForLeaderEpoch before fetching (old leaders)
    FETCHING = "fetching"


def truncation_point(leader: EpochEndOffset, cache: LeaderEpochCache, log_end_offset: int,
                     initial_offset: int) -> tuple[int, bool]:
    """Where to truncate given the leader's end offset for an epoch (Kafka's
    getOffsetTruncationState): (offset, done). Not done means: truncated to the end of our
    own older epoch, ask again with it."""
    if leader.end_offset == UNDEFINED_EPOCH_OFFSET:
        return min(initial_offset, log_end_offset), True
    if leader.epoch == UNDEFINED_EPOCH:
        return min(leader.end_offset, log_end_offset), True
    mine = cache.end_offset_for(leader.epoch, log_end_offset)
    if mine.undefined:  # we track no epoch <= the leader's
        return min(leader.end_offset, log_end_offset), True
    if mine.epoch != leader.epoch:
        return min(mine.end_offset, log_end_offset), False
    return min(leader.end_offset, mine.end_offset, log_end_offset), True


class PartitionFollower:
    """One per (leader, leader epoch) on a follower (Kafka's makeFollower restarts the fetcher
    for a new epoch with the log end offset and latest epoch, as the constructor does)."""

    def __init__(self, broker_id: int, broker_epoch: int, leader_id: int, leader_epoch: int,
                 log: LogView, high_watermark: int, *, truncate_on_fetch: bool = True,
                 request_timeout_ms: int = 30_000):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.log = log
        self.truncate_on_fetch = truncate_on_fetch  # Fetch v12+ carries LastFetchedEpoch
        self.request_timeout_ms = request_timeout_ms
        # within [log start, log end], as UnifiedLog keeps its high watermark
        self.high_watermark = max(min(high_watermark, log.log_end_offset), log.log_start_offset)
        latest = log.epochs.latest_epoch
        if truncate_on_fetch and latest != UNDEFINED_EPOCH:
            self.phase, self.fetch_offset, self.last_fetched_epoch = Phase.FETCHING, log.log_end_offset, latest
        else:  # the old way: ask the leader where our latest epoch ends, from the HW
            self.phase, self.fetch_offset, self.last_fetched_epoch = Phase.TRUNCATING, self.high_watermark, NO_EPOCH
        self._next_id = 1
        self.in_flight: int | None = None
        self._cut = False  # a truncation was asked since the last fetch was sent
        self._sent_at = 0

    # ------------------------------------------------------------ requests
    def poll(self, now_ms: int) -> ReplicaFetch | EpochQuery | None:
        """The next request to send to the leader: one at a time, resent after the timeout."""
        if self.in_flight is not None and now_ms - self._sent_at < self.request_timeout_ms:
            return None
        self.in_flight, self._sent_at = self._next_id, now_ms
        self._next_id += 1
        if self.phase is Phase.TRUNCATING:
            return EpochQuery(self.in_flight, self.broker_id, self.leader_epoch, self.log.epochs.latest_epoch)
        if self._cut and self.fetch_offset > self.log.log_end_offset:
            # The truncation point fell inside a batch and the log, which keeps whole batches,
            # cut the batch (its own, diverged): fetch from where the log ends, with the epoch
            # it ends in. (Else the leader's batch holding the fetch offset starts below it and
            # is ignored, the same fetch sent forever.)
            self.fetch_offset, self.last_fetched_epoch = self.log.log_end_offset, self.log.epochs.latest_epoch
        self._cut = False
        return ReplicaFetch(self.in_flight, self.broker_id, self.broker_epoch, self.leader_epoch,
                            self.fetch_offset, self.last_fetched_epoch if self.truncate_on_fetch else NO_EPOCH,
                            self.log.log_start_offset)

    def _accept(self, request_id: int, leader_epoch: int) -> bool:
        if request_id != self.in_flight or leader_epoch != self.leader_epoch:
            return False  # late, duplicated or from another epoch
        self.in_flight = None
        return True

    # ------------------------------------------------------------ answers
    def on_epoch_answer(self, answer: EpochAnswer) -> FollowerReady:
        if self.phase is not Phase.TRUNCATING or not self._accept(answer.request_id, answer.leader_epoch):
            return FollowerReady()
        if answer.error != ErrorCode.NONE:
            return FollowerReady()  # fenced / unknown epoch: wait for metadata, then retry
        log = self.log
        if log.epochs.latest_epoch == UNDEFINED_EPOCH:  # no epochs to compare: the HW is safe
            offset, done = min(self.high_watermark, log.log_end_offset), True
        else:
            offset, done = truncation_point(answer.end, log.epochs, log.log_end_offset, self.high_watermark)
        if done:
            self.phase, self.fetch_offset = Phase.FETCHING, offset
            self.last_fetched_epoch = log.epochs.truncate_from_end(offset).latest_epoch
        return self._truncated(offset)

    def _truncated(self, offset: int) -> FollowerReady:
        # Even at the log end: the epoch cache may hold an epoch this broker led without
        # appending, and it must go (as Kafka's truncateTo always truncates the cache).
        self.high_watermark = min(self.high_watermark, offset)
        self._cut = True  # (the next fetch checks where the log really ends)
        return FollowerReady(truncate_to=offset)

    def on_fetch_answer(self, answer: FetchDecision, batches: tuple[BatchInfo, ...] = ()) -> FollowerReady:
        """The leader's answer to our last fetch, with the batches it read (error NONE)."""
        if self.phase is not Phase.FETCHING or not self._accept(answer.request_id, answer.leader_epoch):
            return FollowerReady()
        if answer.fetch_offset != self.fetch_offset:
            return FollowerReady()
        log = self.log
        if answer.error == ErrorCode.OFFSET_OUT_OF_RANGE:
            if self.fetch_offset < answer.log_start_offset:  # behind the leader's log start
                self.fetch_offset, self.last_fetched_epoch = answer.log_start_offset, NO_EPOCH
                self.high_watermark = answer.log_start_offset
                return FollowerReady(truncate_fully_to=answer.log_start_offset,
                                     high_watermark=answer.log_start_offset)
            # Ahead of the leader, or our last epoch is unknown to it: ask where it ends.
            self.phase, self.last_fetched_epoch = Phase.TRUNCATING, NO_EPOCH
            return FollowerReady()
        if answer.error != ErrorCode.NONE:
            return FollowerReady()  # fenced / unknown epoch / stale broker epoch: wait for metadata
        if answer.diverging_epoch is not None:
            offset, _ = truncation_point(answer.diverging_epoch, log.epochs, log.log_end_offset, self.fetch_offset)
            self.fetch_offset = offset
            # Not done: the next fetch carries our older epoch and the leader checks it again.
            self.last_fetched_epoch = log.epochs.truncate_from_end(offset).latest_epoch
            return self._truncated(offset)
        restart = None
        # (a first batch above the fetch offset: a gap the leader's cleaner left, where it removed
        # whole batches of a compacted log; appended as it is, as Kafka's follower appends it, which
        # refuses only a first offset below its log end)
        if batches and batches[0].base_offset < self.fetch_offset:
            first = batches[0]
            if not (first.base_offset < self.fetch_offset <= first.last_offset
                    and (log.log_end_offset == log.log_start_offset
                         or self.fetch_offset <= answer.log_start_offset)):
                return FollowerReady()  # not where we are: ignore, fetch again
            # An empty log starting inside the leader's first batch (a log start DeleteRecords
            # moved into a batch): start over at the batch, as Kafka's
            # appendRecordsToFollowerOrFutureReplica after UnexpectedAppendOffsetException.
            # The same when we fetch at the leader's log start and its batch holding it starts
            # below our log end: what we hold below is gone from the leader (a truncation after
            # a DeleteRecords, whose epoch cache no longer knows our epoch, can leave us there;
            # Kafka's follower fails the partition on that exception and stops fetching it).
            restart = first.base_offset
        start = log.log_start_offset if restart is None else restart
        leo = log.log_end_offset
        if batches:
            leo = batches[-1].last_offset + 1
            self.fetch_offset, self.last_fetched_epoch = leo, batches[-1].leader_epoch
        self.high_watermark = min(answer.high_watermark, leo)
        new_start = answer.log_start_offset if answer.log_start_offset > start else None
        if new_start is not None:
            new_start = min(new_start, self.high_watermark)  # as maybeIncrementLogStartOffset: not past the HW
            if new_start <= start:
                new_start = None
        return FollowerReady(truncate_fully_to=restart, append=tuple(batches), log_start_offset=new_start,
                             high_watermark=self.high_watermark)
