"""The follower's replica fetchers (broker/replica_fetcher.py) against a leader on a real socket
(tests/broker/replica_leader_stub.py: the leader core over real PartitionLogs, answering with
the generated wire messages): the follower's segment files end up byte for byte the
leader's, it truncates a diverged tail, follows a new leader, and survives lost connections."""
from __future__ import annotations

import asyncio
import functools
import os
import time

from odradek.broker.replica_fetcher import (
    FETCH_VERSION, ReplicaFetcherManager, broker_endpoints, fetcher_id, java_string_hash,
)
from odradek.config import BrokerConfig
from odradek.log.config import LogConfig
from odradek.log.fs import RealFileSystem
from odradek.log.partition_log import PartitionLog
from odradek.wire.records import build_batch
from tests.broker.replica_leader_stub import FETCH, OFFSET_FOR_LEADER_EPOCH, StubLeader

TOPIC = "t"
TP = (TOPIC, 0)
TOPIC_ID = bytes(range(1, 17))
FOLLOWER, BROKER_EPOCH = 2, 77
SMALL = LogConfig(segment_bytes=1200, index_interval_bytes=100)
CONFIG = BrokerConfig.from_properties({"replica.fetch.backoff.ms": "50", "replica.fetch.wait.max.ms": "100",
                                       "replica.socket.timeout.ms": "5000"})


def clock() -> int:
    return int(time.time() * 1000)


def new_log(path, cfg: LogConfig = SMALL) -> PartitionLog:
    return PartitionLog(RealFileSystem(), str(path), cfg, now_ms=clock())


def batch(i: int, n: int = 3, tag: bytes = b"v") -> bytes:
    return build_batch([(b"k%d" % j, tag + b"%d-%d" % (i, j), (), 1000 + i) for j in range(n)])


def files(plog: PartitionLog) -> tuple[bytes, bytes]:
    """The log's segment files end to end, and its leader-epoch checkpoint, as bytes on disk
    (where segments roll is each replica's own: Kafka keeps records, offsets and epochs
    identical across replicas, not segment boundaries)."""
    plog.flush()
    names = sorted(n for n in os.listdir(plog.dir) if n.endswith(".log"))
    data = b"".join(open(os.path.join(plog.dir, n), "rb").read() for n in names)
    return data, open(os.path.join(plog.dir, "leader-epoch-checkpoint"), "rb").read()


def in_loop(scenario):
    """Run the async test on a fresh event loop, bounded."""
    @functools.wraps(scenario)
    def test(*args, **kw):
        asyncio.run(asyncio.wait_for(scenario(*args, **kw), 60))
    return test


async def until(cond, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.01)


class Cluster:
    """Brokers' listeners by id (the fetcher's endpoint) and what was poked."""

    def __init__(self):
        self.ports: dict[int, int] = {}
        self.pokes: list[tuple] = []

    def endpoint(self, broker_id: int):
        port = self.ports.get(broker_id)
        return None if port is None else ("127.0.0.1", port)

    def manager(self, config: BrokerConfig = CONFIG) -> ReplicaFetcherManager:
        return ReplicaFetcherManager(FOLLOWER, lambda: BROKER_EPOCH, self.endpoint, config, clock, self.pokes.append)

    async def leader(self, node_id: int, epoch: int, logs: dict, followers=None, **kw) -> StubLeader:
        stub = StubLeader(node_id, epoch, logs, {TOPIC: TOPIC_ID, "u": bytes(16 * [9])},
                          followers or {FOLLOWER: BROKER_EPOCH}, clock, **kw)
        self.ports[node_id] = await stub.start()
        return stub


def caught_up(follower: PartitionLog, leader: PartitionLog):
    return lambda: (follower.log_end_offset == leader.log_end_offset
                    and follower.high_watermark == leader.high_watermark == leader.log_end_offset)


# ---------------------------------------------------------------- pure parts

def test_fetcher_ids_are_kafkas_hash():
    assert java_string_hash("hello") == 99162322 and java_string_hash("Aa") == java_string_hash("BB") == 2112
    assert java_string_hash("") == 0 and java_string_hash("polygenelubricants") == -2147483648
    # Utils.abs(31 * hash + partition) % n, Java int arithmetic
    assert fetcher_id(("hello", 0), 1) == 0
    assert fetcher_id(("hello", 3), 7) == 1220935311 % 7  # 31 * 99162322 + 3 wraps to -1220935311
    assert fetcher_id(("Aa", 1), 5) == fetcher_id(("BB", 1), 5) == (31 * 2112 + 1) % 5


def test_endpoints_come_from_the_registered_unfenced_brokers():
    from odradek.controller.image import BrokerImage, MetadataImage

    img = MetadataImage(brokers={4: BrokerImage(4, "h4", 9004), 5: BrokerImage(5, "h5", 9005, fenced=True)})
    endpoint = broker_endpoints(lambda: img)
    assert (endpoint(4), endpoint(5), endpoint(6)) == (("h4", 9004), None, None)


# ---------------------------------------------------------------- against a leader

@in_loop
async def test_the_follower_log_is_the_leaders_byte_for_byte(tmp_path):
    c = Cluster()
    leader_log = new_log(tmp_path / "leader")
    stub = await c.leader(1, 3, {TP: leader_log})
    for i in range(20):  # several segments
        stub.append(TP, batch(i))
    follower_log = new_log(tmp_path / "follower")
    m = c.manager()
    try:
        m.become_follower(TP, 1, 3, follower_log, TOPIC_ID)
        await until(caught_up(follower_log, leader_log))
        for i in range(20, 25):  # and what comes while it follows
            stub.append(TP, batch(i))
        await until(caught_up(follower_log, leader_log))
        assert leader_log.log_end_offset == 75 and len(leader_log.segments) >= 3
        assert files(follower_log) == files(leader_log)
        assert follower_log.epochs == leader_log.epochs and follower_log.epochs.latest_epoch == 3
        assert ("partition", TOPIC, 0) in c.pokes
        fetches = [(v, r) for k, v, r in stub.requests if k == FETCH]
        v, req = fetches[-1]
        # as a Kafka 4.3 follower: Fetch v17 by topic id, ReplicaState (KIP-903), the replica.fetch.* settings
        assert v == FETCH_VERSION == 17
        assert (req.replica_state.replica_id, req.replica_state.replica_epoch) == (FOLLOWER, BROKER_EPOCH)
        assert (req.max_wait_ms, req.min_bytes, req.max_bytes, req.isolation_level) == (100, 1, 10485760, 0)
        p = req.topics[0].partitions[0]
        assert req.topics[0].topic_id == TOPIC_ID and p.partition_max_bytes == 1048576
        assert p.current_leader_epoch == 3 and p.last_fetched_epoch == 3
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_a_diverged_tail_is_truncated_and_a_new_leader_followed(tmp_path):
    c = Cluster()
    a, b = new_log(tmp_path / "a"), new_log(tmp_path / "b")
    # epoch 1: A leads, B follows and gets 10 batches
    stub_a = await c.leader(1, 1, {TP: a})
    for i in range(10):
        stub_a.append(TP, batch(i))
    m = c.manager()
    try:
        m.become_follower(TP, 1, 1, b, TOPIC_ID)
        await until(caught_up(b, a))
        m.stop_following([TP])
        await until(lambda: not m.fetchers)
        # A writes a tail B never sees, then loses the leadership
        for i in range(10, 13):
            stub_a.append(TP, batch(i, tag=b"lost"))
        await stub_a.stop()
        # epoch 2: B leads and writes other records at those offsets; A follows B
        del c.ports[1]
        stub_b = await c.leader(FOLLOWER, 2, {TP: b}, followers={1: 5})
        for i in range(10, 16):
            stub_b.append(TP, batch(i, tag=b"new"))
        # A's fetcher (another broker's manager: node 1 following node 2)
        ma = ReplicaFetcherManager(1, lambda: 5, c.endpoint, CONFIG, clock, c.pokes.append)
        try:
            assert a.log_end_offset == 39 and a.epochs.latest_epoch == 1
            ma.become_follower(TP, FOLLOWER, 2, a, TOPIC_ID)
            await until(caught_up(a, b))
            assert files(a) == files(b)
            assert [(e.epoch, e.start_offset) for e in a.epochs.entries] == [(1, 0), (2, 30)]
            fetches = [r.topics[0].partitions[0] for k, _, r in stub_b.requests if k == FETCH]
            # the first fetch carried epoch 1 from offset 39: the leader answered DivergingEpoch (1, 30)
            assert (fetches[0].fetch_offset, fetches[0].last_fetched_epoch) == (39, 1)
        finally:
            await ma.close()
            await stub_b.stop()
    finally:
        await m.close()


@in_loop
async def test_a_log_without_epochs_asks_offset_for_leader_epoch_first(tmp_path):
    # a follower whose log has records but no leader epoch (written before epochs were kept):
    # Kafka's TRUNCATING phase to the high watermark, then fetching
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 4, {TP: leader_log})
    for i in range(5):
        stub.append(TP, batch(i))
    m = c.manager()
    try:
        m.become_follower(TP, 1, 4, follower_log, TOPIC_ID)
        await until(caught_up(follower_log, leader_log))
        assert files(follower_log) == files(leader_log)
        assert [k for k, _, _ in stub.requests if k == OFFSET_FOR_LEADER_EPOCH] == []  # nothing to ask
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_a_lost_connection_is_reestablished(tmp_path):
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 1, {TP: leader_log})
    m = c.manager()
    try:
        m.become_follower(TP, 1, 1, follower_log, TOPIC_ID)
        for round_ in range(3):
            for i in range(4):
                stub.append(TP, batch(round_ * 10 + i))
            await until(caught_up(follower_log, leader_log))
            stub.drop_connections()
        # the leader's broker goes away and comes back on another port
        await stub.stop()
        stub.append(TP, batch(99))
        c.ports[1] = await stub.start()
        await until(caught_up(follower_log, leader_log))
        assert files(follower_log) == files(leader_log)
        assert sum(1 for k, _, _ in stub.requests if k == 18) >= 4  # ApiVersions on every connection
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_a_leader_that_stops_answering_times_out_and_is_reconnected(tmp_path):
    # replica.socket.timeout.ms is the request timeout (Kafka's BrokerBlockingSender)
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 1, {TP: leader_log})
    stub.append(TP, batch(0))
    m = c.manager(BrokerConfig.from_properties({"replica.fetch.backoff.ms": "50", "replica.fetch.wait.max.ms": "100",
                                                "replica.socket.timeout.ms": "300"}))
    try:
        m.become_follower(TP, 1, 1, follower_log, TOPIC_ID)
        await until(caught_up(follower_log, leader_log))
        connections = sum(1 for k, _, _ in stub.requests if k == 18)
        stub.stalled = True
        fetches = sum(1 for k, _, _ in stub.requests if k == FETCH)
        await until(lambda: sum(1 for k, _, _ in stub.requests if k == FETCH) > fetches + 1)  # one swallowed
        stub.append(TP, batch(1))
        await until(lambda: sum(1 for k, _, _ in stub.requests if k == 18) > connections + 1)  # timed out, twice
        assert follower_log.log_end_offset == 3
        stub.stalled = False
        await until(caught_up(follower_log, leader_log))
        assert files(follower_log) == files(leader_log)
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_a_fenced_follower_keeps_its_partition_until_the_new_epoch(tmp_path):
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 6, {TP: leader_log})
    stub.append(TP, batch(0))
    m = c.manager()
    try:
        m.become_follower(TP, 1, 5, follower_log, TOPIC_ID)  # stale metadata: epoch 5
        await until(lambda: sum(1 for k, _, _ in stub.requests if k == FETCH) >= 2)
        assert follower_log.log_end_offset == 0 and m.followed(TP) is not None  # FENCED_LEADER_EPOCH, retried
        m.become_follower(TP, 1, 6, follower_log, TOPIC_ID)
        await until(caught_up(follower_log, leader_log))
        before = m.followed(TP)
        m.become_follower(TP, 1, 6, follower_log, TOPIC_ID)  # the same epoch again: nothing changes
        assert m.followed(TP) is before
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_stop_following_ends_the_writes_and_the_fetcher(tmp_path):
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 1, {TP: leader_log})
    stub.append(TP, batch(0))
    m = c.manager()
    try:
        m.become_follower(TP, 1, 1, follower_log, TOPIC_ID)
        await until(caught_up(follower_log, leader_log))
        m.stop_following([TP])
        leo = follower_log.log_end_offset
        stub.append(TP, batch(1))
        await until(lambda: not m.fetchers and not stub._writers)
        assert follower_log.log_end_offset == leo and m.followed(TP) is None
    finally:
        await m.close()
        await stub.stop()


async def _eight_partitions(c: Cluster, tmp_path):
    """Two topics of 4 partitions led by broker 1 (a batch in each): (partitions, leader logs,
    follower logs, the leader)."""
    tps = [(TOPIC, p) for p in range(4)] + [("u", p) for p in range(4)]
    leaders = {tp: new_log(tmp_path / f"l-{tp[0]}-{tp[1]}") for tp in tps}
    followers = {tp: new_log(tmp_path / f"f-{tp[0]}-{tp[1]}") for tp in tps}
    stub = await c.leader(1, 1, leaders)
    for tp in tps:
        stub.append(tp, batch(tp[1]))
    return tps, leaders, followers, stub


@in_loop
async def test_partitions_spread_over_num_replica_fetchers(tmp_path):
    c = Cluster()
    tps, leaders, followers, stub = await _eight_partitions(c, tmp_path)
    m = c.manager(BrokerConfig.from_properties({"num.replica.fetchers": "3", "replica.fetch.backoff.ms": "50",
                                                "replica.fetch.wait.max.ms": "100"}))
    try:
        for tp in tps:
            m.become_follower(tp, 1, 1, followers[tp], stub.topic_ids[tp[0]])
        assert set(m.fetchers) == {(1, fetcher_id(tp, 3)) for tp in tps} and len(m.fetchers) > 1
        for tp in tps:
            assert tp in m.fetchers[(1, fetcher_id(tp, 3))].partitions
        await until(lambda: all(caught_up(followers[tp], leaders[tp])() for tp in tps))
        for tp in tps:
            assert files(followers[tp]) == files(leaders[tp])
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_num_replica_fetchers_resized_at_run_time(tmp_path):
    """num.replica.fetchers changed dynamically (Kafka's resizeThreadPool): the partitions move to
    the fetchers of the new count and go on fetching from their logs' ends; emptied fetchers stop."""
    c = Cluster()
    tps, leaders, followers, stub = await _eight_partitions(c, tmp_path)
    m = c.manager()
    try:
        for tp in tps:
            m.become_follower(tp, 1, 1, followers[tp], stub.topic_ids[tp[0]])
        assert set(m.fetchers) == {(1, 0)}
        await until(lambda: all(caught_up(followers[tp], leaders[tp])() for tp in tps))
        m.resize(3)
        assert set(m.fetchers) == {(1, fetcher_id(tp, 3)) for tp in tps} and len(m.fetchers) > 1
        for tp in tps:
            assert tp in m.fetchers[(1, fetcher_id(tp, 3))].partitions and m.followed(tp).leader_epoch == 1
        for tp in tps:
            stub.append(tp, batch(10 + tp[1]))
        await until(lambda: all(caught_up(followers[tp], leaders[tp])() for tp in tps))
        m.resize(1)
        assert set(m.fetchers) == {(1, 0)} and set(m.fetchers[(1, 0)].partitions) == set(tps)
        for tp in tps:
            stub.append(tp, batch(20 + tp[1]))
        await until(lambda: all(caught_up(followers[tp], leaders[tp])() for tp in tps))
        for tp in tps:
            assert files(followers[tp]) == files(leaders[tp])
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_a_leader_without_topic_ids_is_fetched_by_name_at_v12(tmp_path):
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 1, {TP: leader_log})
    stub.append(TP, batch(0))
    m = c.manager()
    try:
        m.become_follower(TP, 1, 1, follower_log)  # no topic id known
        await until(caught_up(follower_log, leader_log))
        assert {v for k, v, _ in stub.requests if k == FETCH} == {12}
        assert files(follower_log) == files(leader_log)
    finally:
        await m.close()
        await stub.stop()


@in_loop
async def test_a_failed_log_takes_only_its_partition_offline(tmp_path):
    c = Cluster()
    tps = [(TOPIC, 0), (TOPIC, 1)]
    leaders = {tp: new_log(tmp_path / f"l{tp[1]}") for tp in tps}
    followers = {tp: new_log(tmp_path / f"f{tp[1]}") for tp in tps}
    stub = await c.leader(1, 1, leaders)
    m = c.manager()
    try:
        for tp in tps:
            stub.append(tp, batch(0))
            m.become_follower(tp, 1, 1, followers[tp], TOPIC_ID)
        await until(lambda: all(caught_up(followers[tp], leaders[tp])() for tp in tps))
        followers[(TOPIC, 1)].offline = "disk failed (test)"  # as after a failed write: no more writes
        for tp in tps:
            stub.append(tp, batch(1))
        await until(lambda: (TOPIC, 1) in m.failed)
        await until(caught_up(followers[(TOPIC, 0)], leaders[(TOPIC, 0)]))
        assert m.followed((TOPIC, 1)) is None and m.followed((TOPIC, 0)) is not None
    finally:
        await m.close()
        await stub.stop()



@in_loop
async def test_a_new_follower_starts_at_a_log_start_inside_a_batch(tmp_path):
    # DeleteRecords moved the leader's log start to 4, inside its batch 3..5: the follower starts
    # over at that batch (as Kafka after UnexpectedAppendOffsetException on an empty log), then
    # takes the leader's log start
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 1, {TP: leader_log}, followers_in_sync=False)
    for i in range(4):
        stub.append(TP, batch(i))
    leader_log.delete_records(4)
    m = c.manager()
    try:
        m.become_follower(TP, 1, 1, follower_log, TOPIC_ID)
        await until(lambda: caught_up(follower_log, leader_log)() and follower_log.log_start_offset == 4)
        assert follower_log.read(4, 1 << 20).read_bytes() == leader_log.read(4, 1 << 20).read_bytes()
        assert follower_log.segments[0].base_offset == 3
    finally:
        await m.close()
        await stub.stop()


async def closes_promptly(m: ReplicaFetcherManager) -> None:
    # asyncio.wait does not cancel what it waits on (a timeout around an ``await m.close()``
    # would cancel the fetcher's task through it and hide a close that never returns)
    closing = asyncio.get_running_loop().create_task(m.close())
    await asyncio.sleep(0)  # (close starts here, right after the caller's steps)
    done, _ = await asyncio.wait((closing,), timeout=5)
    assert closing in done, "the fetcher manager's close did not return"
    closing.result()


@in_loop
async def test_close_returns_when_the_cancellation_meets_a_completing_wait(tmp_path):
    # a fetcher woken in the loop step its close cancels it (a partition added, an answer in):
    # Python 3.11's asyncio.wait_for lost such a cancellation and the fetcher's close never
    # returned (a broker hung after its controlled shutdown). Every interleaving is tried.
    c = Cluster()
    for steps in range(8):
        m = c.manager(BrokerConfig.from_properties({"replica.fetch.backoff.ms": "60000"}))
        m.become_follower(TP, 1, 1, new_log(tmp_path / f"f{steps}"), TOPIC_ID)  # leader 1 unknown: idle
        fetcher = next(iter(m.fetchers.values()))
        await asyncio.sleep(0.05)
        fetcher._wake.set()
        for _ in range(steps):
            await asyncio.sleep(0)
        await closes_promptly(m)
        assert not m.fetchers


@in_loop
async def test_close_returns_with_a_fetch_out_to_a_leader_that_never_answers(tmp_path):
    c = Cluster()
    leader_log, follower_log = new_log(tmp_path / "leader"), new_log(tmp_path / "follower")
    stub = await c.leader(1, 1, {TP: leader_log})
    stub.append(TP, batch(0))
    m = c.manager(BrokerConfig.from_properties({"replica.fetch.wait.max.ms": "100",
                                                "replica.socket.timeout.ms": "60000"}))
    try:
        m.become_follower(TP, 1, 1, follower_log, TOPIC_ID)
        await until(caught_up(follower_log, leader_log))
        stub.stalled = True
        fetches = sum(1 for k, _, _ in stub.requests if k == FETCH)
        await until(lambda: sum(1 for k, _, _ in stub.requests if k == FETCH) > fetches)  # one out, unanswered
        await closes_promptly(m)
        assert not m.fetchers and follower_log.log_end_offset == 3
    finally:
        await stub.stop()
