"""The follower side: truncation by leader epoch (Kafka's getOffsetTruncationState and the
DivergingEpoch / OffsetForLeaderEpoch exchanges, each against a real PartitionLeader), and
following the leader's high watermark and log start offset."""

from dataclasses import dataclass, field

from odradek.log.leader_epoch_cache import UNDEFINED, EpochEndOffset, LeaderEpochCache
from odradek.replication.follower import Phase, PartitionFollower, truncation_point
from odradek.replication.leader import LeaderConfig, PartitionLeader
from odradek.replication.messages import EpochQuery, FetchDecision, LeaderAndIsr, ReplicaFetch
from odradek.wire.errors import ErrorCode

NOW = 1_000_000


@dataclass(frozen=True)
class B:
    base_offset: int
    leader_epoch: int

    @property
    def last_offset(self) -> int:
        return self.base_offset


@dataclass
class Log:
    """A log of one-record batches given by the epoch of each offset."""
    epochs_by_offset: list[int] = field(default_factory=list)
    log_start_offset: int = 0

    @property
    def log_end_offset(self) -> int:
        return len(self.epochs_by_offset)

    empty_epoch: int | None = None  # an epoch led at the log end without appending

    @property
    def epochs(self) -> LeaderEpochCache:
        c = LeaderEpochCache()
        for off, e in enumerate(self.epochs_by_offset):
            c = c.assign(e, off)
        return c if self.empty_epoch is None else c.assign(self.empty_epoch, self.log_end_offset)

    def apply(self, rd) -> None:
        if rd.truncate_to is not None:
            del self.epochs_by_offset[rd.truncate_to:]
            self.empty_epoch = None
        self.epochs_by_offset += [b.leader_epoch for b in rd.append]

    def batches(self, start: int, n: int = 100):
        return tuple(B(o, e) for o, e in enumerate(self.epochs_by_offset) if start <= o < start + n)


def leader_of(log: Log, epoch: int, *, hw: int = 0) -> PartitionLeader:
    ld = PartitionLeader(1, log, LeaderConfig(), LeaderAndIsr(1, epoch, 0, frozenset({1, 2})), (1, 2), hw, NOW,
                         {1: 1, 2: 1})
    ld.ready()
    return ld


def sync(follower: PartitionFollower, flog: Log, leader: PartitionLeader, llog: Log, rounds: int = 10) -> list:
    """Exchange requests until nothing changes; returns the truncations done."""
    truncations = []
    for i in range(rounds):
        req = follower.poll(NOW + i)
        if req is None:
            continue
        if isinstance(req, EpochQuery):
            rd = follower.on_epoch_answer(leader.answer_epoch_query(req))
        else:
            d = leader.on_fetch(req, NOW + i)
            rd = follower.on_fetch_answer(d, llog.batches(d.read_from) if d.read_from is not None else ())
        if rd.truncate_to is not None:
            truncations.append(rd.truncate_to)
        flog.apply(rd)
    return truncations


def test_truncation_point_rules():
    mine = LeaderEpochCache().assign(0, 0).assign(1, 3).assign(3, 6)  # log end 9
    # The leader knows our epoch: the smaller of the two ends (and our log end).
    assert truncation_point(EpochEndOffset(1, 5), mine, 9, 0) == (5, True)
    assert truncation_point(EpochEndOffset(1, 4), mine, 9, 0) == (4, True)
    assert truncation_point(EpochEndOffset(3, 20), mine, 9, 0) == (9, True)
    # The leader answered an epoch we never had: to the end of our largest smaller one, again.
    assert truncation_point(EpochEndOffset(2, 7), mine, 9, 0) == (6, False)
    # Our first epoch is newer: ours "ends" where it starts (Kafka's endOffsetFor), so there.
    assert truncation_point(EpochEndOffset(0, 2), LeaderEpochCache().assign(4, 0), 9, 0) == (0, True)
    # We track no epochs at all: the leader's offset.
    assert truncation_point(EpochEndOffset(0, 2), LeaderEpochCache(), 9, 0) == (2, True)
    # No epoch end known to the leader: the initial offset (the HW); an old leader without epochs.
    assert truncation_point(UNDEFINED, mine, 9, 4) == (4, True)
    assert truncation_point(EpochEndOffset(-1, 7), mine, 9, 0) == (7, True)


def test_diverging_epoch_one_round():
    """Follower wrote 4 records in epoch 1 that the new leader (epoch 2) never had."""
    llog, flog = Log([0] * 5 + [2] * 3), Log([0] * 5 + [1] * 4)
    leader = leader_of(llog, 2)
    f = PartitionFollower(2, 1, 1, 2, flog, 0)
    req = f.poll(NOW)
    assert (req.fetch_offset, req.last_fetched_epoch) == (9, 1)
    d = leader.on_fetch(req, NOW)
    assert d.diverging_epoch == EpochEndOffset(0, 5) and d.read_from is None
    rd = f.on_fetch_answer(d)
    assert rd.truncate_to == 5 and not rd.append
    flog.apply(rd)
    assert sync(f, flog, leader, llog) == []
    assert flog.epochs_by_offset == llog.epochs_by_offset


def test_diverging_epoch_two_rounds():
    """The leader answers an epoch the follower never had: truncate to our older epoch's end,
    fetch again with it, then truncate where the logs really part."""
    llog = Log([0] * 4 + [2] * 3 + [4] * 3)      # epochs (0,0) (2,4) (4,7), end 10
    flog = Log([0] * 3 + [1] * 3 + [3] * 3)      # epochs (0,0) (1,3) (3,6), end 9
    leader = leader_of(llog, 4)
    f = PartitionFollower(2, 1, 1, 4, flog, 0)
    assert sync(f, flog, leader, llog) == [6, 3]
    assert flog.epochs_by_offset == llog.epochs_by_offset


def test_an_epoch_led_without_appending_is_dropped_from_the_cache():
    """This broker led epoch 3 at offset 6 and appended nothing; the new leader (epoch 4)
    never heard of epoch 3. Truncating at the log end removes the empty entry, or the
    follower would ask about epoch 3 forever (Kafka's truncateTo always truncates the cache)."""
    llog = Log([0] * 4 + [2] * 4 + [4] * 2)
    flog = Log([0] * 4 + [2] * 2, empty_epoch=3)
    leader = leader_of(llog, 4)
    f = PartitionFollower(2, 1, 1, 4, flog, 0, request_timeout_ms=1)
    assert f.poll(NOW).last_fetched_epoch == 3  # (lost: sent again by sync)
    assert sync(f, flog, leader, llog) == [6]
    assert flog.epochs_by_offset == llog.epochs_by_offset


def test_offset_for_leader_epoch_path_for_old_leaders():
    llog = Log([0] * 4 + [2] * 3 + [4] * 3)
    flog = Log([0] * 3 + [1] * 3 + [3] * 3)
    leader = leader_of(llog, 4)
    f = PartitionFollower(2, 1, 1, 4, flog, 2, truncate_on_fetch=False, request_timeout_ms=1)
    q = f.poll(NOW)
    assert isinstance(q, EpochQuery) and q.leader_epoch == 3 and f.phase is Phase.TRUNCATING
    # (that query is lost; sync's first poll, 1 ms later, sends it again)
    assert sync(f, flog, leader, llog) == [6, 3]
    assert f.phase is Phase.FETCHING
    assert flog.epochs_by_offset == llog.epochs_by_offset


def test_no_truncation_when_the_logs_agree():
    llog, flog = Log([0] * 5 + [2] * 3), Log([0] * 5 + [2] * 1)
    leader = leader_of(llog, 2)
    f = PartitionFollower(2, 1, 1, 2, flog, 0)
    assert sync(f, flog, leader, llog) == []
    assert flog.epochs_by_offset == llog.epochs_by_offset


def test_follows_the_leaders_high_watermark_and_log_start():
    flog = Log([0] * 3)
    f = PartitionFollower(2, 1, 1, 0, flog, 0)
    req = f.poll(NOW)
    rd = f.on_fetch_answer(FetchDecision(req.request_id, 0, ErrorCode.NONE, 3, high_watermark=9, log_start_offset=2),
                           (B(3, 0), B(4, 0)))
    assert rd.high_watermark == 5 and rd.log_start_offset == 2 and [b.base_offset for b in rd.append] == [3, 4]
    flog.apply(rd)
    req = f.poll(NOW)
    assert (req.fetch_offset, req.last_fetched_epoch) == (5, 0)


def test_behind_the_leaders_log_start_starts_over_there():
    flog = Log([0] * 3)
    f = PartitionFollower(2, 1, 1, 0, flog, 0)
    req = f.poll(NOW)
    rd = f.on_fetch_answer(FetchDecision(req.request_id, 0, ErrorCode.OFFSET_OUT_OF_RANGE, 3, 50, log_start_offset=40))
    assert rd.truncate_fully_to == 40 and f.poll(NOW).fetch_offset == 40


def test_stale_answers_are_ignored_and_requests_resent_after_timeout():
    flog = Log([0] * 3)
    f = PartitionFollower(2, 1, 1, 0, flog, 0, request_timeout_ms=100)
    first = f.poll(NOW)
    assert f.poll(NOW + 50) is None  # one request at a time
    second = f.poll(NOW + 100)
    assert isinstance(second, ReplicaFetch) and second.request_id != first.request_id
    late = FetchDecision(first.request_id, 0, ErrorCode.NONE, 3, high_watermark=3, log_start_offset=0)
    assert f.on_fetch_answer(late, (B(3, 0),)) == type(f.on_fetch_answer(late))()
    assert f.in_flight == second.request_id


@dataclass(frozen=True)
class Wide:
    base_offset: int
    last_offset: int
    leader_epoch: int = 0


@dataclass
class EmptyLog:
    """An empty log that starts (and ends) at ``log_start_offset``."""
    log_start_offset: int
    epochs: LeaderEpochCache = LeaderEpochCache()

    @property
    def log_end_offset(self) -> int:
        return self.log_start_offset


def test_an_empty_log_starting_inside_the_leaders_batch_starts_over_at_the_batch():
    # the leader's log start is 12, inside its batch 10..14 (DeleteRecords): the follower starts
    # there (OFFSET_OUT_OF_RANGE), the fetch returns the whole batch; as Kafka, the empty log
    # restarts at 10, appends the batch, then moves its log start to the leader's 12. (A high
    # watermark below the log start is taken as the log start, as UnifiedLog keeps it.)
    f = PartitionFollower(2, 1, 1, 0, EmptyLog(12), 0)
    assert f.high_watermark == 12
    req = f.poll(NOW)
    req = f.on_epoch_answer(leader_of(Log(), 0).answer_epoch_query(req)) and f.poll(NOW)
    assert req.fetch_offset == 12
    rd = f.on_fetch_answer(FetchDecision(req.request_id, 0, ErrorCode.NONE, 12, high_watermark=15,
                                         log_start_offset=12), (Wide(10, 14),))
    assert (rd.truncate_fully_to, rd.log_start_offset, rd.high_watermark) == (10, 12, 15)
    assert [b.base_offset for b in rd.append] == [10] and f.poll(NOW).fetch_offset == 15


def test_a_batch_from_before_the_fetch_offset_of_a_non_empty_log_is_ignored():
    flog = Log([0] * 3)
    f = PartitionFollower(2, 1, 1, 0, flog, 0)
    req = f.poll(NOW)
    rd = f.on_fetch_answer(FetchDecision(req.request_id, 0, ErrorCode.NONE, 3, high_watermark=9,
                                         log_start_offset=0), (Wide(2, 5),))
    assert rd == type(rd)() and f.poll(NOW).fetch_offset == 3


def test_a_log_fetching_at_the_leaders_log_start_inside_its_batch_starts_over_at_the_batch():
    """Found by tests/replication/cluster_sim.py (seed 4856 of a 10,000-seed run): a follower back
    from a crash truncated to the leader's log start 65 (DivergingEpoch after a DeleteRecords) and
    its own batches end there, while the leader's batch holding 65 is 64..65. The batch was ignored
    and the same fetch sent forever (the follower never caught up); it now starts over at 64, as
    an empty log does, and takes the leader's log start."""
    flog = Log([1] * 65)
    f = PartitionFollower(2, 1, 1, 2, flog, 58)
    req = f.poll(NOW)
    assert req.fetch_offset == 65
    rd = f.on_fetch_answer(FetchDecision(req.request_id, 2, ErrorCode.NONE, 65, high_watermark=70,
                                         log_start_offset=65), (Wide(64, 65),))
    assert (rd.truncate_fully_to, rd.log_start_offset, rd.high_watermark) == (64, 65, 66)
    assert [b.base_offset for b in rd.append] == [64] and f.poll(NOW).fetch_offset == 66


def follow(f: PartitionFollower, leader: PartitionLeader, llog, flog, rounds: int) -> list:
    """``rounds`` fetches of follower ``f`` from ``leader`` (whose log is ``llog``), each answer
    carried out on ``flog`` as the replica fetcher does; (FollowerReady, flog's log end after it)
    of each."""
    from odradek.wire.records import iter_batch_headers

    steps = []
    for _ in range(rounds):
        req = f.poll(NOW)
        d = leader.on_fetch(req, NOW)
        data = llog.read(d.read_from, 1 << 20).read_bytes() if d.read_from is not None else b""
        batches = tuple(Wide(h.base_offset, h.last_offset, h.partition_leader_epoch)
                        for _, h in iter_batch_headers(data))
        rd = f.on_fetch_answer(d, batches)
        if rd.truncate_to is not None:
            flog.truncate_to(rd.truncate_to, NOW)
        if rd.truncate_fully_to is not None:
            flog.truncate_fully_and_start_at(rd.truncate_fully_to, NOW)
        if rd.append:
            flog.append_as_follower(data, NOW)
        if rd.high_watermark is not None:
            flog.high_watermark = rd.high_watermark
        if rd.log_start_offset is not None:
            flog.maybe_increment_log_start_offset(rd.log_start_offset)
        steps.append((rd, flog.log_end_offset))
    return steps


def test_a_truncation_inside_a_batch_fetches_from_where_the_log_ends():
    """Found by tests/replication/cluster_sim.py: a DeleteRecords on the leader put its log start
    inside its batch 114..116 (epoch 4), so its epoch cache has epoch 4 from 115 and no epoch 3
    (Kafka's truncateFromStart). A follower whose last epoch is 3 and whose own, diverged batch
    114..116 was written in epoch 3 is told DivergingEpoch (3, 115) and truncates to 115: its log,
    which keeps whole batches, ends at 114. The next fetch must start at 114 (it started at 115:
    the leader's batch from 114 was ignored and the same fetch sent forever; cluster_sim seed 331
    at dfdb3bf never converged)."""
    from odradek.log import FaultyFileSystem, PartitionLog
    from odradek.wire.records import build_batch

    def values(n, tag):
        return [(None, f"{tag}{i}".encode(), (), NOW) for i in range(n)]

    llog = PartitionLog(FaultyFileSystem(), "/l/t-0", now_ms=NOW)
    llog.append(build_batch(values(114, "a")), NOW, leader_epoch=3)
    llog.append(build_batch(values(3, "b")), NOW, leader_epoch=4)
    llog.append(build_batch(values(3, "c")), NOW, leader_epoch=4)
    llog.high_watermark = llog.log_end_offset
    llog.delete_records(115)
    flog = PartitionLog(FaultyFileSystem(), "/f/t-0", now_ms=NOW)
    flog.append_as_follower(build_batch(values(114, "a"), partition_leader_epoch=3), NOW)
    flog.append_as_follower(build_batch(values(36, "x"), base_offset=114, partition_leader_epoch=3), NOW)
    leader = PartitionLeader(1, llog, LeaderConfig(), LeaderAndIsr(1, 4, 0, frozenset({1, 2})), (1, 2), 120, NOW,
                             {1: 1, 2: 1})
    leader.ready()
    f = PartitionFollower(2, 1, 1, 4, flog, 0)
    steps = follow(f, leader, llog, flog, 5)
    assert [end for rd, end in steps if rd.truncate_to is not None] == [114]  # (asked: 115)
    # 114 is below the leader's log start: the follower starts over there, then at the batch
    assert flog.log_end_offset == llog.log_end_offset == 120 and flog.log_start_offset == 115
    assert flog.read(115, 1 << 20).read_bytes() == llog.read(115, 1 << 20).read_bytes()


def test_a_follower_fetching_in_a_gap_the_leaders_cleaner_left_appends_the_next_batch():
    """Found by a compaction-heavy kill -9 loop (chaos8, session 19): a follower back from a kill
    fetches at an offset whose batches the leader's cleaner removed whole (a compacted log keeps
    batches' offsets, so it has gaps); the leader answers with its next batch, above the fetch
    offset. Kafka's follower appends it (UnifiedLog.append refuses only a first offset below the
    log end); here it was ignored and the same fetch sent forever ("leader 6 sent batches from
    offset 2762 for a fetch at 2608; retrying"), the follower never back in the ISR."""
    from odradek.log import FaultyFileSystem, LogCleaner, LogConfig, PartitionLog
    from odradek.wire.records import build_batch, iter_batch_headers

    cfg = LogConfig(cleanup_policy=("compact",), segment_bytes=600, min_cleanable_dirty_ratio=0.01)
    llog = PartitionLog(FaultyFileSystem(), "/l/t-0", cfg, now_ms=NOW)
    flog = PartitionLog(FaultyFileSystem(), "/f/t-0", cfg, now_ms=NOW)
    for i in range(60):  # one-record batches of 3 keys: the cleaner removes whole batches
        b = build_batch([(f"k{i % 3}".encode(), f"v{i}".encode(), (), NOW)], base_offset=i, partition_leader_epoch=0)
        llog.append(b, NOW, leader_epoch=0)
        if i < 5:
            flog.append_as_follower(b, NOW)  # the follower got the first 5, then went down
    llog.high_watermark = llog.log_end_offset
    assert LogCleaner().clean(llog, NOW, force=True) is not None
    data = llog.read(5, 1 << 20).read_bytes()
    first = next(h for _, h in iter_batch_headers(data))
    assert first.base_offset > 5  # (the gap: batches 5.. went)
    leader = PartitionLeader(1, llog, LeaderConfig(), LeaderAndIsr(1, 0, 0, frozenset({1, 2})), (1, 2),
                             llog.high_watermark, NOW, {1: 1, 2: 1})
    leader.ready()
    f = PartitionFollower(2, 1, 1, 0, flog, 0)
    steps = follow(f, leader, llog, flog, 5)
    assert all(rd.truncate_to is None and rd.truncate_fully_to is None for rd, _ in steps)
    assert flog.log_end_offset == llog.log_end_offset == 60 and flog.high_watermark == 60
    assert flog.read(5, 1 << 20).read_bytes() == llog.read(5, 1 << 20).read_bytes()
    assert 2 in leader.isr
