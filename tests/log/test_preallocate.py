"""preallocate=true (Kafka's topic config, log.preallocate for the broker): a new
segment file is made segment.bytes long when it is created and cut back to its data
when it stops being active or the log closes; reads and offsets never see the zeros."""
import os

import pytest

from odradek.config import BrokerConfig
from odradek.log import LogConfig, PartitionLog, RealFileSystem
from odradek.log.config import ConfigError
from odradek.wire.records import build_batch

from log_helpers import read_all

SEG = 64 * 1024


def file_sizes(d):
    return [os.path.getsize(os.path.join(d, f)) for f in sorted(os.listdir(d)) if f.endswith(".log")]


PREALLOCATED = LogConfig(segment_bytes=SEG, preallocate=True)


def log_with(d: str, cfg: LogConfig, n: int) -> PartitionLog:
    """A new log at d holding values v0 .. v<n-1>."""
    log = PartitionLog(RealFileSystem(), d, cfg, now_ms=0)
    for i in range(n):
        log.append(build_batch([(b"k", b"v%d" % i, (), 1)]), now_ms=1)
    return log


def test_active_file_preallocated_then_trimmed(tmp_path):
    d = str(tmp_path / "t-0")
    cfg = PREALLOCATED
    log = log_with(d, cfg, 5)
    written = log.active.size
    assert 0 < written < SEG and file_sizes(d) == [SEG]
    assert [v for _, _, v in read_all(log)] == [b"v%d" % i for i in range(5)]
    log.roll(2)
    assert file_sizes(d) == [written, SEG]  # the rolled one is trimmed, the new one preallocated
    log.append(build_batch([(b"k", b"v5", (), 1)]), now_ms=3)
    last = log.active.size
    log.close()
    assert file_sizes(d) == [written, last]
    log = PartitionLog(RealFileSystem(), d, cfg, now_ms=4)
    assert not log.recovered_unclean and log.log_end_offset == 6
    assert file_sizes(d) == [written, last]  # an existing file is not preallocated again
    log.append(build_batch([(b"k", b"v6", (), 1)]), now_ms=5)
    assert [v for _, _, v in read_all(log)] == [b"v%d" % i for i in range(7)]
    log.close()


def test_off_by_default(tmp_path):
    d = str(tmp_path / "t-0")
    log = log_with(d, LogConfig(segment_bytes=SEG), 1)
    assert file_sizes(d) == [log.active.size]
    log.close()


def test_unclean_stop_recovers_to_the_data(tmp_path):
    d = str(tmp_path / "t-0")
    cfg = PREALLOCATED
    log = log_with(d, cfg, 3)
    log.flush()  # the recovery point is the log end; the zeros follow it
    for seg in log.segments:  # "crash": the files stay as they are, untrimmed
        seg.log.close()
    assert file_sizes(d) == [SEG]
    log = PartitionLog(RealFileSystem(), d, cfg, now_ms=2)
    assert log.recovered_unclean and log.log_end_offset == 3
    assert [v for _, _, v in read_all(log)] == [b"v0", b"v1", b"v2"]
    log.close()


def test_config_names():
    assert LogConfig.from_properties({"preallocate": "TRUE"}).preallocate is True
    assert LogConfig.from_properties({}).preallocate is False
    with pytest.raises(ConfigError):
        LogConfig.from_properties({"preallocate": "yes"})
    broker = BrokerConfig.from_properties({"log.preallocate": "true"})
    assert broker.log_config().preallocate is True
