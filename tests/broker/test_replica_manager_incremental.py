"""The replica manager applies each metadata change to the topics it touched (issue 28): after
a create, a config change and a delete made through a single node's controller, the logs,
leaders and configs are what a full pass over the image gives, and the topics the change did not
touch keep their very leader objects."""
from __future__ import annotations

from odradek.broker.replica_manager import ReplicaManager, changed_topics
from odradek.controller.configs import TOPIC
from odradek.controller.controller import OP_SET, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager

ME = 1


def test_changes_reach_only_their_topics():
    fs = FaultyFileSystem()
    c = Controller("/meta", ME, {}, 0, fs=fs)
    lm = LogManager(["/data"], fs=fs)

    def topic_config(name: str) -> LogConfig:
        return LogConfig.from_properties(c.topic_config(name), base=LogConfig())

    rm = ReplicaManager(lm, ME, topic_config, lambda key: 0, lambda: 0)
    seen = []
    c.add_listener(lambda old, new: seen.append(changed_topics(old, new)))
    c.add_listener(rm.on_metadata)
    c.start(BrokerImage(ME, "h", 9092), 0)
    rm.start(c.image)
    for name in ("a", "b", "c"):
        assert [r.error_code for r in c.create_topics([CreateTopicSpec(name, 2, 1)], False, 0)] == [0]
    assert seen[-1] == {"c"}
    assert sorted(rm.leaders) == [(n, p) for n in "abc" for p in (0, 1)]
    kept = dict(rm.leaders)

    r = c.incremental_alter_configs([(TOPIC, "b", [("retention.ms", OP_SET, "1234")])], False, 0)[0]
    assert r.error_code == 0 and seen[-1] == {"b"}
    assert [lm.get("b", p).config.retention_ms for p in (0, 1)] == [1234, 1234]
    assert lm.get("a", 0).config.retention_ms != 1234

    assert [e[2] for e in c.delete_topics(["a"], now_ms=0)] == [0]
    assert seen[-1] == {"a"}
    assert lm.get("a", 0) is None and lm.get("a", 1) is None
    assert sorted(rm.leaders) == [(n, p) for n in "bc" for p in (0, 1)]
    assert all(rm.leaders[tp] is kept[tp] for tp in rm.leaders)  # untouched topics: same leaders
    assert sorted(lm.list()) == sorted(rm.leaders)


def test_changes_it_did_not_follow_are_caught_up_by_a_full_pass():
    """A broker that restarts hears images before it starts (kept, not applied) and may start on an
    older image than the last one it heard; the next change is then applied over every topic, not
    only its own (the clean-clone CI run had a restarted broker never create a topic made meanwhile:
    its follower logs never existed, the ISR never filled)."""
    fs = FaultyFileSystem()
    c = Controller("/meta", ME, {}, 0, fs=fs)
    lm = LogManager(["/data"], fs=fs)
    rm = ReplicaManager(lm, ME, lambda name: LogConfig.from_properties(c.topic_config(name), base=LogConfig()),
                        lambda key: 0, lambda: 0)
    c.add_listener(rm.on_metadata)
    c.start(BrokerImage(ME, "h", 9092), 0)
    before = c.image
    assert [r.error_code for r in c.create_topics([CreateTopicSpec("missed", 2, 1)], False, 0)] == [0]
    rm.start(before)  # started on the image before the create
    assert lm.get("missed", 0) is None
    assert [r.error_code for r in c.create_topics([CreateTopicSpec("next", 1, 1)], False, 0)] == [0]
    assert sorted(rm.leaders) == [("missed", 0), ("missed", 1), ("next", 0)]
    assert lm.get("missed", 1) is not None
