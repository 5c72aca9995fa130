"""segment.jitter.ms and max.compaction.lag.ms in the roll decision (Kafka's
LogSegment.shouldRoll with rollJitterMs and LogConfig.maxSegmentMs)."""
from __future__ import annotations

import random

from odradek.config import BrokerConfig
from odradek.log import FaultyFileSystem, LogConfig, PartitionLog
from odradek.wire.records import build_batch


def _log(cfg):
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, "/data/t-0", cfg, now_ms=0)


def _append(log, ts):
    return log.append(build_batch([(b"k", b"v", (), ts)]), now_ms=ts)


def test_jitter_rolls_each_segment_up_to_jitter_earlier():
    cfg = LogConfig(segment_ms=10_000, segment_jitter_ms=4_000)
    rng = random.Random(1)
    draws = {cfg.random_segment_jitter(rng) for _ in range(300)}
    assert min(draws) >= 0 and max(draws) < 4_000 and len(draws) > 100
    log = _log(cfg)
    _append(log, 1_000)
    seg = log.active
    seg.roll_jitter_ms = 3_000
    _append(log, 1_000 + 7_000)           # waited 7000 = 10000 - 3000: not more, no roll
    assert log.active is seg
    _append(log, 1_000 + 7_001)
    assert log.active is not seg and log.active.base_offset == 2
    assert 0 <= log.active.roll_jitter_ms < 4_000


def test_no_jitter_by_default():
    assert LogConfig().random_segment_jitter(random.Random(1)) == 0
    assert _log(LogConfig()).active.roll_jitter_ms == 0


def test_compacted_topic_rolls_by_max_compaction_lag():
    cfg = LogConfig(segment_ms=100_000, max_compaction_lag_ms=5_000, cleanup_policy=("compact",))
    assert cfg.max_segment_ms == 5_000
    assert LogConfig(segment_ms=100_000, max_compaction_lag_ms=5_000).max_segment_ms == 100_000
    log = _log(cfg)
    _append(log, 1_000)
    _append(log, 6_000)
    assert len(log.segments) == 1
    _append(log, 6_001)
    assert len(log.segments) == 2


def test_broker_defaults_and_property_names():
    c = BrokerConfig.from_properties({"log.roll.jitter.hours": "2", "log.cleaner.max.compaction.lag.ms": "60000"})
    lc = c.log_config()
    assert lc.segment_jitter_ms == 7_200_000 and lc.max_compaction_lag_ms == 60_000
    assert BrokerConfig.from_properties({"log.roll.jitter.ms": "0"}).log_config().segment_jitter_ms == 0
    t = LogConfig.from_properties({"segment.jitter.ms": "5", "max.compaction.lag.ms": "9"})
    assert (t.segment_jitter_ms, t.max_compaction_lag_ms) == (5, 9)
