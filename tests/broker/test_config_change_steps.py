"""A large config change does not hold the broker for all its topics (issue 27: 1,000 ConfigRecords
held the event loop ~70 ms): with a background runner (the event loop), a metadata change giving
more than RECONFIGURE_SLICE topics new configs builds them RECONFIGURE_SLICE topics a callback, and
the last callback gives every topic its own at once; a change published meanwhile wins over what
was built before it; a small change is given at once. Counted in callbacks and configs, not timed.

A changed dynamic broker default of a topic config (kafka-configs --entity-type brokers
--entity-default --add-config log.retention.ms=..., or one broker's own) reaches the logs and leaders
of the topics there already that have no value of their own, as Kafka's DynamicLogConfig.reconfigure
gives every log the new defaults under its own overrides; a topic's own value stays; a broker config
that is no topic's default gives no topic a new config (compat_tests/test_cluster_config_changes.py:
retention deleting segments after such a change, on odradek and Kafka 4.3)."""
from __future__ import annotations

import math

from odradek.broker.replica_manager import RECONFIGURE_SLICE, ReplicaManager
from odradek.controller.configs import BROKER, TOPIC
from odradek.controller.controller import OP_DELETE, OP_SET, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager

ME = 1
N = 2 * RECONFIGURE_SLICE + 10  # topics changed by the large change
NAMES = [f"t{i}" for i in range(N)]


def broker(topics: list[CreateTopicSpec] | None = None):
    """A broker with its topics (``topics``, else NAMES of 2 partitions) and its background callbacks."""
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
    topics = topics if topics is not None else [CreateTopicSpec(n, 2, 1) for n in NAMES]
    assert all(r.error_code == 0 for r in c.create_topics(topics, False, 0))
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


def alter_broker(c, broker: str, key: str, value: str | None) -> None:
    op = OP_SET if value is not None else OP_DELETE
    assert [r.error_code for r in c.incremental_alter_configs([(BROKER, broker, [(key, op, value)])], False, 0)] == [0]


def test_a_changed_broker_default_reaches_every_log_without_a_value_of_its_own():
    c, lm, rm, queued = broker([CreateTopicSpec("plain", 2, 1),
                                CreateTopicSpec("own", 2, 1, configs={"retention.ms": "5000", "min.insync.replicas": "1"})])
    default = LogConfig().retention_ms
    assert retention(lm, ["plain"]) == {default}
    alter_broker(c, "", "log.retention.ms", "1234")  # the cluster default
    assert (retention(lm, ["plain"]), retention(lm, ["own"])) == ({1234}, {5000})
    alter_broker(c, str(ME), "log.retention.ms", "999")  # this broker's own beats the cluster default
    assert (retention(lm, ["plain"]), retention(lm, ["own"])) == ({999}, {5000})
    alter_broker(c, str(ME), "log.retention.ms", None)
    assert retention(lm, ["plain"]) == {1234}
    alter_broker(c, "", "log.retention.ms", None)
    assert retention(lm, ["plain"]) == {default}
    # the leaders' min.insync.replicas alike
    alter_broker(c, "", "min.insync.replicas", "2")
    assert {rm.leaders[("plain", p)].config.min_insync_replicas for p in (0, 1)} == {2}
    assert {rm.leaders[("own", p)].config.min_insync_replicas for p in (0, 1)} == {1}
    assert queued == []


def test_a_broker_config_that_is_no_topics_default_gives_no_new_config():
    c, lm, rm, queued = broker([CreateTopicSpec("plain", 2, 1)])
    before = [lm.get("plain", p).config for p in (0, 1)]
    leaders = [rm.leaders[("plain", p)].config for p in (0, 1)]
    alter_broker(c, "", "log.cleaner.threads", "2")
    alter_broker(c, str(ME), "max.connections", "1000")
    assert [lm.get("plain", p).config for p in (0, 1)] == before
    assert all(a is b for a, b in zip([lm.get("plain", p).config for p in (0, 1)], before))
    assert [rm.leaders[("plain", p)].config for p in (0, 1)] == leaders


def test_a_default_change_under_many_topics_is_built_in_steps():
    n = RECONFIGURE_SLICE + 10
    names = [f"t{i}" for i in range(n)]
    c, lm, rm, queued = broker([CreateTopicSpec(name, 2, 1) for name in names])
    alter_broker(c, "", "log.retention.ms", "1234")
    steps = 0
    while queued:
        assert retention(lm, names) == {LogConfig().retention_ms}
        queued.pop(0)()
        steps += 1
    assert steps == math.ceil(n / RECONFIGURE_SLICE)
    assert retention(lm, names) == {1234}
