"""A large creation does not hold the broker for all its logs (issue 27 fairness): with a
background runner (the event loop), a metadata change that assigns more than CREATE_SLICE new
partitions here creates CREATE_SLICE logs at once and the rest a slice at a time, each slice a
separate callback (other clients served between); a request for a partition whose log is still
pending creates it at once; a partition deleted while pending is never created. Counted in logs
and callbacks, not timed."""
from __future__ import annotations

from odradek.api_handlers.ports import NotLed
from odradek.broker.replica_manager import CREATE_SLICE, ReplicaManager
from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager
from odradek.wire.records import build_batch

ME = 1
N = 3 * CREATE_SLICE + 10


def broker():
    fs = FaultyFileSystem()
    c = Controller("/meta", ME, {}, 0, fs=fs)
    lm = LogManager(["/data"], fs=fs)
    queued = []
    rm = ReplicaManager(lm, ME, lambda name: LogConfig(), lambda key: 0, lambda: 0, background=queued.append)
    c.add_listener(rm.on_metadata)
    c.start(BrokerImage(ME, "h", 9092), 0)
    rm.start(c.image)
    return c, lm, rm, queued


def run(queued) -> list[int]:
    """Run the background callbacks as the loop would; the logs made by each."""
    made = []
    while queued:
        fn = queued.pop(0)
        fn()
        made.append(fn)
    return made


def test_a_large_creation_is_made_a_slice_at_a_time():
    c, lm, rm, queued = broker()
    assert [r.error_code for r in c.create_topics([CreateTopicSpec("big", N, 1)], False, 0)] == [0]
    assert len(lm.list()) == CREATE_SLICE and len(rm.leaders) == CREATE_SLICE
    assert len(queued) == 1  # one callback at a time
    counts = []
    while queued:
        queued.pop(0)()
        counts.append(len(lm.list()))
    assert counts == [min(N, CREATE_SLICE * (i + 2)) for i in range(len(counts))]
    assert sorted(rm.leaders) == [("big", p) for p in range(N)]
    assert sorted(lm.list()) == sorted(rm.leaders)


def test_a_request_for_a_pending_partition_creates_its_log_at_once():
    c, lm, rm, queued = broker()
    c.create_topics([CreateTopicSpec("big", N, 1)], False, 0)
    assert lm.get("big", N - 1) is None
    plog = rm.leader_log("big", N - 1)
    assert not isinstance(plog, NotLed) and lm.get("big", N - 1) is plog
    rm.append("big", N - 1, build_batch([(b"k", b"v", (), 1)]), now_ms=1)
    assert plog.log_end_offset == 1
    run(queued)
    assert len(lm.list()) == N and lm.get("big", N - 1) is plog


def test_a_topic_deleted_while_pending_is_never_created():
    c, lm, rm, queued = broker()
    c.create_topics([CreateTopicSpec("big", N, 1)], False, 0)
    c.delete_topics(["big"], now_ms=0)
    run(queued)
    assert lm.list() == [] and rm.leaders == {}
    assert rm.leader_log("big", N - 1).error != 0


def test_small_creations_are_made_at_once():
    c, lm, rm, queued = broker()
    c.create_topics([CreateTopicSpec("small", CREATE_SLICE, 1)], False, 0)
    assert len(lm.list()) == CREATE_SLICE and queued == []


def test_a_stopping_broker_makes_no_pending_log():
    c, lm, rm, queued = broker()
    c.create_topics([CreateTopicSpec("big", N, 1)], False, 0)
    rm.stop_creating()
    run(queued)
    assert len(lm.list()) == CREATE_SLICE
