"""A changed dynamic broker default of a topic config (kafka-configs --entity-type brokers
--entity-default --add-config log.retention.ms=..., or one broker's own) reaches the logs and leaders
of the topics there already that have no value of their own, as Kafka's DynamicLogConfig.reconfigure
gives every log the new defaults under its own overrides; a topic's own value stays; a broker config
that is no topic's default gives no topic a new config. (compat_tests/test_cluster_config_changes.py:
retention deleting segments after such a change, on odradek and Kafka 4.3.)"""
from __future__ import annotations

import math

from odradek.broker.replica_manager import RECONFIGURE_SLICE, ReplicaManager
from odradek.controller.configs import BROKER
from odradek.controller.controller import OP_DELETE, OP_SET, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager

ME = 1


def broker(topics: list[CreateTopicSpec]):
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
    assert all(r.error_code == 0 for r in c.create_topics(topics, False, 0))
    run(queued)
    return c, lm, rm, queued


def run(queued) -> int:
    ran = 0
    while queued:
        queued.pop(0)()
        ran += 1
    return ran


def alter(c, broker: str, key: str, value: str | None) -> None:
    op = OP_SET if value is not None else OP_DELETE
    assert [r.error_code for r in c.incremental_alter_configs([(BROKER, broker, [(key, op, value)])], False, 0)] == [0]


def retention(lm, name: str) -> set[int]:
    return {lm.get(name, p).config.retention_ms for p in (0, 1)}


def test_a_changed_broker_default_reaches_every_log_without_a_value_of_its_own():
    c, lm, rm, queued = broker([CreateTopicSpec("plain", 2, 1),
                                CreateTopicSpec("own", 2, 1, configs={"retention.ms": "5000", "min.insync.replicas": "1"})])
    default = LogConfig().retention_ms
    assert retention(lm, "plain") == {default}
    alter(c, "", "log.retention.ms", "1234")  # the cluster default
    assert (retention(lm, "plain"), retention(lm, "own")) == ({1234}, {5000})
    alter(c, str(ME), "log.retention.ms", "999")  # this broker's own beats the cluster default
    assert (retention(lm, "plain"), retention(lm, "own")) == ({999}, {5000})
    alter(c, str(ME), "log.retention.ms", None)
    assert retention(lm, "plain") == {1234}
    alter(c, "", "log.retention.ms", None)
    assert retention(lm, "plain") == {default}
    # the leaders' min.insync.replicas alike
    alter(c, "", "min.insync.replicas", "2")
    assert {rm.leaders[("plain", p)].config.min_insync_replicas for p in (0, 1)} == {2}
    assert {rm.leaders[("own", p)].config.min_insync_replicas for p in (0, 1)} == {1}
    assert queued == []


def test_a_broker_config_that_is_no_topics_default_gives_no_new_config():
    c, lm, rm, queued = broker([CreateTopicSpec("plain", 2, 1)])
    before = [lm.get("plain", p).config for p in (0, 1)]
    leaders = [rm.leaders[("plain", p)].config for p in (0, 1)]
    alter(c, "", "log.cleaner.threads", "2")
    alter(c, str(ME), "max.connections", "1000")
    assert [lm.get("plain", p).config for p in (0, 1)] == before
    assert all(a is b for a, b in zip([lm.get("plain", p).config for p in (0, 1)], before))
    assert [rm.leaders[("plain", p)].config for p in (0, 1)] == leaders


def test_a_default_change_under_many_topics_is_built_in_steps():
    n = RECONFIGURE_SLICE + 10
    names = [f"t{i}" for i in range(n)]
    c, lm, rm, queued = broker([CreateTopicSpec(name, 2, 1) for name in names])
    alter(c, "", "log.retention.ms", "1234")
    steps = 0
    while queued:
        assert {r for name in names for r in retention(lm, name)} == {LogConfig().retention_ms}
        queued.pop(0)()
        steps += 1
    assert steps == math.ceil(n / RECONFIGURE_SLICE)
    assert {r for name in names for r in retention(lm, name)} == {1234}
