"""start() gives every log on disk its topic's config (issue 28: it used to scan every log
once per topic, O(topics x partitions): 10^8 steps at 10,000 partitions). Counted, not
timed: with T topics of P partitions, start() visits each log a bounded number of times
whatever the split, asks for each topic's config once, and every log ends with its
topic's config."""
from __future__ import annotations

import pytest

from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager

ME = 1


class CountingLogs(dict):
    """The LogManager's (topic, partition) -> log map, counting the entries any pass over
    it yields (lookups by key are not counted)."""

    def __init__(self, *a):
        super().__init__(*a)
        self.visits = 0

    def _count(self, it):
        for x in it:
            self.visits += 1
            yield x

    def __iter__(self):
        return self._count(super().__iter__())

    def keys(self):
        return self._count(super().keys())

    def values(self):
        return self._count(super().values())

    def items(self):
        return self._count(super().items())


class CountingLogManager(LogManager):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.logs = CountingLogs(self.logs)


def image(topics: int, partitions: int) -> MetadataImage:
    ts = [TopicImage(f"t{i}", bytes([i % 256, i // 256]) * 8,
                     {p: PartitionImage(p, leader=ME, leader_epoch=0, partition_epoch=0,
                                        replicas=(ME,), isr=(ME,)) for p in range(partitions)})
          for i in range(topics)]
    return MetadataImage(topics={t.name: t for t in ts}, topics_by_id={t.topic_id: t for t in ts},
                         brokers={ME: BrokerImage(ME, "h", 1)}, offset=10)


@pytest.mark.parametrize("topics,partitions", [(1, 120), (12, 10), (120, 1)])
def test_start_visits_each_log_a_bounded_number_of_times(topics, partitions):
    img = image(topics, partitions)
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    lm = LogManager("/data", fs=fs)
    for name, t in img.topics.items():
        for p in t.partitions:
            lm.get_or_create(name, p, topic_id=t.topic_id)
    lm.close()

    lm = CountingLogManager("/data", fs=fs.restart("kept"))
    asked: list[str] = []

    def topic_config(name: str) -> LogConfig:
        asked.append(name)
        return LogConfig(retention_ms=1000 + int(name[1:]))

    rm = ReplicaManager(lm, ME, topic_config, lambda key: 0, lambda: 100)
    rm.start(img)
    n = topics * partitions
    assert sorted(asked) == sorted(img.topics)  # each topic's config asked for once
    assert lm.logs.visits <= 6 * n, lm.logs.visits  # 4 * n now; was (topics + 3) * n
    for (name, p) in lm.list():
        assert lm.get(name, p).config.retention_ms == 1000 + int(name[1:])
    assert len(rm.leader_epochs) == n
    lm.close()


def test_update_configs_leaves_equal_configs_and_other_topics_alone():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    lm = LogManager("/data", fs=fs)
    a0, a1, b0 = lm.get_or_create("a", 0), lm.get_or_create("a", 1), lm.get_or_create("b", 0)
    b_cfg = b0.config
    new = LogConfig(retention_ms=5)
    assert lm.update_configs({"a": new}) == 2
    assert a0.config is new and a1.config is new and b0.config is b_cfg
    assert lm.update_configs({"a": LogConfig(retention_ms=5)}) == 0  # equal: left as it is
    assert a0.config is new
    lm.close()
