"""Committed offsets never go back for their readers across a kill -9 of the __consumer_offsets
leader, as on Kafka (OffsetFetch reads only what the partition has committed: a plain fetch at its
high watermark, a require_stable fetch the newest, answered once committed). On real processes:
1 controller + 3 brokers, offsets.topic.replication.factor=3 (one partition: the group's coordinator
is its leader).

Readers poll OffsetFetch on every broker the whole time, plain and require_stable. An offset is
committed; then both followers of __consumer_offsets are stopped (SIGSTOP; replica.lag.time.max.ms
long, so the ISR stays whole and the high watermark where it was) and a newer offset is committed:
it reaches the leader's log, not its followers; no read sees it. The leader is killed (SIGKILL)
and the followers resumed: one of them becomes the leader and coordinator. It may have the commit
(a follower stopped with the leader's answer to its fetch in its socket reads it when resumed, and
the commit is then committed by the new leader) or not; either way no reader ever saw an offset
the new coordinator does not have, and no reader sees an offset go back.
"""
from __future__ import annotations

import threading
import time

import pytest

from cluster import offsets_cluster, wait_for
from harness import RawClient
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_commit_request import OffsetCommitRequest
from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic
from test_cluster_coordinator_acks import _committed_in
from test_cluster_offset_reads_committed import COMMIT_V, FETCH_V, GROUP, OFFSETS, TOPIC, _commit_request

COMMITTED, UNCOMMITTED = 10, 11

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    # the ISR stays whole while the followers are stopped (the window takes a few seconds: their
    # sessions outlast it); the killed leader's session ends in broker.session.timeout.ms, then its
    # partitions move
    props = {"replica.lag.time.max.ms": "60000", "broker.session.timeout.ms": "20000",
             "offsets.commit.timeout.ms": "60000"}
    with offsets_cluster(tmp_path_factory.mktemp("offset-reads-kill9"), request.config, TOPIC, 1, props) as c:
        yield c


class Reader(threading.Thread):
    """OffsetFetch of (GROUP, TOPIC-0) on one broker until stopped: ``seen`` has (when, the offset)
    of every answer without an error, in the order received."""

    def __init__(self, port: int, stable: bool):
        super().__init__(daemon=True)
        self.port, self.stable = port, stable
        self.seen: list[tuple[float, int]] = []
        self.stopped = threading.Event()

    def _fetch(self, c: RawClient) -> int | None:
        req = OffsetFetchRequest(group_id=GROUP, require_stable=self.stable,
                                 topics=[OffsetFetchRequestTopic(name=TOPIC, partition_indexes=[0])])
        resp = c.call(req, FETCH_V)
        p = resp.topics[0].partitions[0] if resp.topics else None
        if resp.error_code != ErrorCode.NONE or p is None or p.error_code != ErrorCode.NONE:
            return None  # (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS... while leadership moves)
        return p.committed_offset

    def run(self) -> None:
        c = None
        while not self.stopped.is_set():
            try:
                c = c or RawClient(f"127.0.0.1:{self.port}", timeout=5)
                offset = self._fetch(c)
            except Exception:  # noqa: BLE001 - a stopped, killed or restarting broker: again, anew
                if c is not None:
                    c.close()
                c = None
                offset = None
            if offset is not None and offset >= 0:
                self.seen.append((time.monotonic(), offset))
            self.stopped.wait(0.05)
        if c is not None:
            c.close()

    def stop(self) -> None:
        self.stopped.set()
        self.join(30)


def _reads(readers: list[Reader], stable: bool) -> list[tuple[float, int]]:
    """(when, the offset) every reader of the kind saw, in the order they were received."""
    return sorted(x for r in readers if r.stable == stable for x in r.seen)


def test_committed_offsets_never_go_back_for_readers_across_kill9_of_the_leader(cluster):
    RawClient(f"127.0.0.1:{cluster.brokers[0].port}").await_group_coordinator(GROUP)  # (creates __consumer_offsets)
    state = cluster.wait_full_isr(OFFSETS)
    leader = cluster.node(state[0].leader)
    followers = [b for b in cluster.brokers if b.id != leader.id]
    client = RawClient(f"127.0.0.1:{leader.port}", timeout=60)
    committer = RawClient(f"127.0.0.1:{leader.port}", timeout=60)
    answers: list[int] = []
    wait_for(lambda: answers.append(client.call(_commit_request(COMMITTED), COMMIT_V).topics[0].partitions[0]
                                    .error_code) or answers[-1] == ErrorCode.NONE, 60,
             "the first commit", last=lambda: answers[-3:])
    readers = [Reader(b.port, stable) for b in cluster.brokers for stable in (False, True)]
    on_leader = next(r for r in readers if r.port == leader.port and not r.stable)
    for r in readers:
        r.start()
    try:
        wait_for(lambda: on_leader.seen, 30, "a first plain read")
        for b in followers:
            b.pause()
        try:
            committer.send(_commit_request(UNCOMMITTED), COMMIT_V)  # its answer waits for the followers
            wait_for(lambda: _committed_in(leader.log_dir, 0)[-1:] == [UNCOMMITTED], 30,
                     "the commit in the leader's log")
            written = time.monotonic()
            wait_for(lambda: on_leader.seen[-1][0] > written, 30, "a plain read with the commit in the log")
            assert cluster.partitions(OFFSETS)[0].isr == state[0].isr  # (the window was not closed)
            killed = time.monotonic()
            cluster.kill9(leader.id)
        finally:
            for b in followers:
                b.resume()
        after = cluster.wait_partitions(OFFSETS, lambda s: s[0].leader not in (-1, leader.id), "a new leader")
        new_leader = cluster.node(after[0].leader)
        final = _committed_in(new_leader.log_dir, 0)[-1]  # (what it has: its log as it was elected)
        assert final in (COMMITTED, UNCOMMITTED)
        served = [r for r in readers if r.port == new_leader.port]
        wait_for(lambda: all(r.seen and r.seen[-1][1] == final for r in served), 90,
                 "both kinds of read answered by the new coordinator", last=lambda: [r.seen[-1:] for r in served])
    finally:
        for r in readers:
            r.stop()
        client.close()
        committer.close()
    for stable in (False, True):
        reads = _reads(readers, stable)
        assert {o for t, o in reads if t < killed} <= {COMMITTED}, f"stable={stable}: read before it was committed"
        offsets = [o for _, o in reads]
        assert offsets and offsets[-1] == final, f"stable={stable}"
        assert max(offsets) <= final, f"stable={stable}: read {sorted(set(offsets))}, the new coordinator has {final}"
        assert offsets == sorted(offsets), f"stable={stable}: an offset read went back: {offsets}"
