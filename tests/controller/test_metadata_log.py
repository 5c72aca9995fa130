"""The controller's metadata log on the Raft core: restarts replay everything."""

from odradek.controller import BrokerImage, Controller, CreateTopicSpec


def _start(path):
    c = Controller(str(path), 1, {}, 0)
    c.start(BrokerImage(1, "h", 1), 0)
    return c


def test_restarts_replay_every_record(tmp_path):
    c = _start(tmp_path)
    c.create_topics([CreateTopicSpec("a", 2)], False, 0)
    c.close()
    for i in range(3):  # each restart is a new epoch with its own LeaderChange record
        c = _start(tmp_path)
        assert set(c.image.topics) == {"a"} | {f"t{j}" for j in range(i)}
        assert len(c.image.topics["a"].partitions) == 2
        c.create_topics([CreateTopicSpec(f"t{i}", 1)], False, 0)
        c.close()
    c = _start(tmp_path)
    assert set(c.image.topics) == {"a", "t0", "t1", "t2"}
    assert c.image.features["metadata.version"] > 0
    c.close()
