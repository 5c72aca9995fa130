"""A large config change does not hold the broker for all its topics (issue 27: 1,000 ConfigRecords
held the event loop ~70 ms): with a background runner (the event loop), a metadata change giving
more than RECONFIGURE_SLICE topics new configs builds them RECONFIGURE_SLICE topics a callback, and
the last callback gives every topic its own at once; a change published meanwhile wins over what
was built before it; a small change is given at once. Counted in callbacks and configs, not timed."""
from __future__ import annotations

import math

from odradek.broker.replica_manager import RECONFIGURE_SLICE, ReplicaManager
from odradek.controller.configs import TOPIC
from odradek.controller.controller import OP_SET, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager

ME = 1
N = 2 * RECONFIGURE_SLICE + 10  # topics changed by the large change
NAMES = [f"t{i}" for i in range(N)]


def broker():
    fs = FaultyFileSystem()
    c = Controller("/meta", ME, {}, 0, fs=fs)
    lm = LogManager(["/data"], fs=fs)
    queued = []
    rm = ReplicaManager(lm, ME, lambda name: LogConfig.from_properties(c.topic_config(name), base=LogConfig()),
                        lambda key: 0, lambda: 0, background=queued.append,
                        min_insync_replicas=lambda topic: int(c.topic_config(topic)["min.insync.replicas"]))
    c.add_listener(rm.on_metadata)
    c.start(BrokerImage(ME, "h", 9092), 0)
    rm.start(c.image)
    assert all(r.error_code == 0 for r in c.create_topics([CreateTopicSpec(n, 2, 1) for n in NAMES], False, 0))
    run(queued)
    return c, lm, rm, queued


def run(queued) -> int:
    """Run the background callbacks as the loop would; how many ran."""
    ran = 0
    while queued:
        queued.pop(0)()
        ran += 1
    return ran


def alter(c, names, name: str, value: str) -> None:
    results = c.incremental_alter_configs([(TOPIC, n, [(name, OP_SET, value)]) for n in names], False, 0)
    assert [r.error_code for r in results] == [0] * len(names)


def retention(lm, names) -> set[int]:
    return {lm.get(n, p).config.retention_ms for n in names for p in (0, 1)}


def test_a_large_change_is_built_in_steps_and_given_at_once():
    c, lm, rm, queued = broker()
    alter(c, NAMES, "retention.ms", "1234")
    assert 1234 not in retention(lm, NAMES)  # not given yet: built first, a slice a callback
    assert len(queued) == 1
    steps = 0
    while queued:
        assert 1234 not in retention(lm, NAMES)  # every log changes at the same moment
        queued.pop(0)()
        steps += 1
    assert steps == math.ceil(N / RECONFIGURE_SLICE) > 1
    assert retention(lm, NAMES) == {1234}


def test_min_insync_replicas_of_a_large_change_reaches_the_leaders_at_once():
    c, lm, rm, queued = broker()
    alter(c, NAMES, "min.insync.replicas", "2")
    steps = 0
    while queued:
        assert {leader.config.min_insync_replicas for leader in rm.leaders.values()} == {1}
        queued.pop(0)()
        steps += 1
    assert steps == math.ceil(N / RECONFIGURE_SLICE)
    assert {rm.leaders[(n, p)].config.min_insync_replicas for n in NAMES for p in (0, 1)} == {2}


def test_a_newer_image_during_the_build_wins():
    c, lm, rm, queued = broker()
    alter(c, NAMES, "retention.ms", "1234")
    queued.pop(0)()  # the first slice built (in name order), with 1234
    first, gone, remade = sorted(NAMES)[:3]
    alter(c, [first], "retention.ms", "5678")  # a topic already built changes again
    assert [e[2] for e in c.delete_topics([gone, remade], now_ms=0)] == [0, 0]
    # re-created with configs of its own: its logs have them, not what was built for the old topic
    assert [r.error_code for r in c.create_topics([CreateTopicSpec(remade, 2, 1, configs={"segment.ms": "3600000"})],
                                                  False, 0)] == [0]
    run(queued)
    assert retention(lm, [first]) == {5678}
    assert lm.get(gone, 0) is None
    assert retention(lm, [remade]) == {LogConfig().retention_ms}
    assert {lm.get(remade, p).config.segment_ms for p in (0, 1)} == {3600000}
    assert retention(lm, sorted(NAMES)[3:]) == {1234}


def test_a_small_change_is_given_at_once():
    c, lm, rm, queued = broker()
    alter(c, NAMES[:RECONFIGURE_SLICE], "retention.ms", "1234")
    assert queued == [] and retention(lm, NAMES[:RECONFIGURE_SLICE]) == {1234}
    assert 1234 not in retention(lm, NAMES[RECONFIGURE_SLICE:])
