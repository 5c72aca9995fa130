"""A full disk (ENOSPC) or a failing one (EIO) at every write of every file kind the log
writes - segment, offset/time index, log-state checkpoint, leader-epoch checkpoint, producer
snapshot - and then a restart: every acknowledged record is there exactly once, the leader-epoch
cache names the epoch of every batch, the log opens, and after a full
disk the writes go on once there is space again. Also the start-up repairs: a torn tail
after a clean stop is cut off with a WARN, damaged fsynced data takes only that partition
offline."""
from __future__ import annotations

import errno
import logging
import posixpath

import pytest

from odradek.log import FaultyFileSystem, LogConfig, LogManager, PartitionLog
from odradek.log import errors
from odradek.log.leader_epoch_cache import LeaderEpochCache
from odradek.wire.records import build_batch

from log_helpers import read_all

DIR = "/data/t-0"
CFG = LogConfig(segment_bytes=900, index_interval_bytes=100)
PID = 7

KINDS = {
    "segment": lambda p: p.endswith(".log"),
    "index": lambda p: p.endswith(".index") or p.endswith(".timeindex"),
    "checkpoint": lambda p: "log-state.checkpoint" in p,
    "leader-epoch": lambda p: "leader-epoch-checkpoint" in p,
    "snapshot": lambda p: ".snapshot" in p or "txn" in p,
}


def value(i: int) -> bytes:
    return b"v%04d-" % i + b"z" * (i % 29)


class Producer:
    """An idempotent producer (retries a batch until it is acknowledged, as the real ones
    do) beside plain appends that are given up when they fail."""

    def __init__(self):
        self.seq = 0
        self.i = 0
        self.pending = None
        self.acked: list[bytes] = []
        self.failures = 0

    def step(self, log: PartitionLog, n: int, now: int, epoch: int | None = None) -> bool:
        if self.pending is None:
            vals = [value(self.i + k) for k in range(n)]
            self.i += n
            idem = len(self.acked) % 2 == 0
            self.pending = (vals, idem, self.seq if idem else -1)
            if idem:
                self.seq += n
        vals, idem, seq = self.pending
        kw = dict(producer_id=PID, producer_epoch=0, base_sequence=seq) if idem else {}
        try:
            log.append(build_batch([(None, v, (), now) for v in vals], **kw), now_ms=now,
                       leader_epoch=epoch)
        except (OSError, errors.KafkaStorageError):
            self.failures += 1
            if not idem:
                self.pending = None  # not acknowledged, not retried
            return False
        self.acked.extend(vals)
        self.pending = None
        return True


def run(fs: FaultyFileSystem, err: int, kind: str, at: int, close: bool) -> tuple[Producer, PartitionLog]:
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    prod = Producer()
    fs.fail_writes(err, after=at, match=KINDS[kind], sticky=err == errno.ENOSPC)
    for step in range(40):
        prod.step(log, 1 + step % 3, 1000 + step, epoch=step // 6)  # a new leader epoch every 6
        if step % 5 == 4:
            log.maybe_flush(10 ** 9)
            log.checkpoint()
        if fs.failed_writes >= 3:
            fs.clear_write_faults()  # space came back
    fs.clear_write_faults()
    if err == errno.ENOSPC:
        assert log.offline is None
        for step in range(5):  # writes go on
            assert prod.step(log, 2, 2000 + step, epoch=6), "append failed after space came back"
    if close:
        log.close()
    return prod, log


def check_restart(fs: FaultyFileSystem, prod: Producer) -> PartitionLog:
    log = PartitionLog(fs.restart("kept"), DIR, CFG, now_ms=5000)
    got = [v for _, _, v in read_all(log)]
    assert len(got) == len(set(got)), "a record is in the log twice"
    missing = [v for v in prod.acked if v not in set(got)]
    assert not missing, f"acknowledged records lost: {missing[:3]}"
    order = [v for v in got if v in set(prod.acked)]
    assert order == sorted(order, key=prod.acked.index)
    assert log.epochs == epochs_of_batches(log), "the leader-epoch cache does not match the log"
    return log


def epochs_of_batches(log: PartitionLog) -> LeaderEpochCache:
    """The leader-epoch cache the log's batches make (each batch's partitionLeaderEpoch)."""
    cache = LeaderEpochCache()
    for seg in log.segments:
        for _, h in seg.batches():
            if h.partition_leader_epoch >= 0:
                cache = cache.assign(h.partition_leader_epoch, h.base_offset)
    return cache


@pytest.mark.parametrize("close", [True, False], ids=["clean-stop", "kill-9"])
@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
def test_a_failed_write_anywhere_loses_nothing_acknowledged(err, kind, close):
    at = 0
    fired = 0
    while True:
        fs = FaultyFileSystem(seed=at)
        fs.makedirs("/data")
        prod, log = run(fs, err, kind, at, close)
        if not fs.failed_writes:
            break  # past the last write of that kind
        fired += 1
        log2 = check_restart(fs, prod)
        if err == errno.ENOSPC and close:  # a clean stop left nothing to repair
            assert not log2.recovered_unclean and log2.truncated_on_recovery == 0
        if err == errno.ENOSPC:  # and it takes writes after the restart too
            log2.append(build_batch([(None, b"after", (), 9000)]), now_ms=9000)
            assert [v for _, _, v in read_all(log2)][-1] == b"after"
        at += 1
    assert fired >= 3, f"the workload wrote only {fired} {kind} files"


@pytest.mark.parametrize("close", [True, False], ids=["clean-stop", "kill-9"])
def test_a_failed_fsync_anywhere_loses_nothing_acknowledged(close):
    """EIO from the k-th fsync, for every k: the log goes offline for writes (what was
    written is of unknown durability), and a restart recovers every acknowledged record."""
    at = 0
    while True:
        fs = FaultyFileSystem(seed=at)
        fs.makedirs("/data")
        log = PartitionLog(fs, DIR, CFG, now_ms=0)
        prod = Producer()
        fs.fail_fsync(errno.EIO, after=at)
        for step in range(40):
            prod.step(log, 1 + step % 3, 1000 + step)
            if step % 5 == 4:
                log.maybe_flush(10 ** 9)
        if not fs.failed_fsyncs:
            break
        assert log.offline is not None
        if close:
            log.close()
        log2 = check_restart(fs, prod)
        assert log2.recovered_unclean  # never a clean-shutdown marker after a failed fsync
        at += 1
    assert at >= 5


def test_enospc_cuts_the_torn_bytes_and_a_clean_stop_restarts():
    """The issue's round trip: a segment write that lands partially, writes fail until
    space returns, then go on; a clean stop and a restart find exactly the records."""
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, LogConfig(), now_ms=0)
    log.append(build_batch([(None, b"a" * 100, (), 1)]), now_ms=1)
    end = log.active.size
    fs.fail_writes(errno.ENOSPC, match=KINDS["segment"])
    big = build_batch([(None, b"b" * 3000, (), 1)])
    with pytest.raises(OSError):
        log.append(big, now_ms=1)
    assert len(fs.files[log.active.path].data) == end  # half of it had landed: cut back
    fs.clear_write_faults()
    log.append(build_batch([(None, b"c", (), 1)]), now_ms=1)
    log.close()
    log2 = PartitionLog(fs.restart("kept"), DIR, LogConfig(), now_ms=2)
    assert not log2.recovered_unclean
    assert [v for _, _, v in read_all(log2)] == [b"a" * 100, b"c"]


def test_an_eio_that_cannot_be_undone_takes_the_log_offline_for_writes(caplog):
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, LogConfig(), now_ms=0)
    log.append(build_batch([(None, b"a", (), 1)]), now_ms=1)
    fs.fsync_errno = errno.EIO
    with caplog.at_level(logging.ERROR, logger="odradek.log"):
        with pytest.raises(OSError):
            log.flush()
    assert "offline" in caplog.text
    fs.clear_write_faults()
    with pytest.raises(errors.KafkaStorageError) as e:
        log.append(build_batch([(None, b"b", (), 1)]), now_ms=1)
    assert e.value.error_name == "KAFKA_STORAGE_ERROR"
    log.close()  # no clean-shutdown marker: the next start recovers
    log2 = PartitionLog(fs.restart("kept"), DIR, LogConfig(), now_ms=2)
    assert log2.recovered_unclean and [v for _, _, v in read_all(log2)] == [b"a"]
    log2.append(build_batch([(None, b"b", (), 1)]), now_ms=3)


@pytest.mark.parametrize("err", [errno.EIO, errno.ENOSPC])
@pytest.mark.parametrize("batches", [1, 2])
@pytest.mark.parametrize("mode", ["kept", "lost"])
def test_a_failed_flush_messages_fsync_takes_the_log_offline(err, batches, mode, caplog):
    """flush.messages=1: the fsync after an append fails. The batch is in the log already,
    so the append is answered KAFKA_STORAGE_ERROR and the log takes no more writes (a
    plain producer's retry would otherwise land it twice); a restart recovers the log with
    the batch at most once."""
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    cfg = LogConfig(flush_messages=1)
    log = PartitionLog(fs, DIR, cfg, now_ms=0)
    log.append(build_batch([(None, b"a", (), 1)]), now_ms=1)

    def batch_b() -> bytearray:
        return bytearray(b"".join(build_batch([(None, b"b%d" % k, (), 1)])
                                  for k in range(batches)))

    fs.fail_fsync(err)
    with caplog.at_level(logging.ERROR, logger="odradek.log"):
        with pytest.raises(errors.KafkaStorageError) as e:
            log.append(batch_b(), now_ms=2)
    assert e.value.error_name == "KAFKA_STORAGE_ERROR"
    assert "offline for writes" in caplog.text and fs.failed_fsyncs == 1
    for _ in range(2):  # the producer's retries, and any later append, are refused
        with pytest.raises(errors.KafkaStorageError):
            log.append(batch_b(), now_ms=3)
    log.close()  # no clean-shutdown marker: the next start recovers
    log2 = PartitionLog(fs.restart(mode), DIR, cfg, now_ms=4)
    assert log2.recovered_unclean
    b = [b"b%d" % k for k in range(batches)]
    got = [v for _, _, v in read_all(log2)]
    assert got == ([b"a"] + b if mode == "kept" else [b"a"])
    log2.append(build_batch([(None, b"c", (), 5)]), now_ms=5)
    assert [v for _, _, v in read_all(log2)] == got + [b"c"]


def _written(fs: FaultyFileSystem, *, epochs: bool = False, idempotent: bool = False) -> LogManager:
    """Partitions good-0 and bad-0 of 12 records each (with leader epochs 0-2, from an
    idempotent producer)."""
    fs.makedirs("/data")
    m = LogManager("/data", fs=fs, default_config=CFG)
    for t in ("good", "bad"):
        lg = m.get_or_create(t, 0, topic_id=b"\x01" * 16)
        for i in range(12):
            kw = dict(producer_id=PID, producer_epoch=0, base_sequence=i) if idempotent else {}
            lg.append(build_batch([(None, value(i), (), 1)], **kw), now_ms=1,
                      leader_epoch=i // 5 if epochs else None)
    return m


def _two_partitions() -> tuple[FaultyFileSystem, str]:
    """_written, stopped cleanly: the disk as a restart finds it, and the path of bad-0's
    last segment."""
    fs = FaultyFileSystem()
    m = _written(fs)
    last = m.get("bad", 0).active.path
    m.close()
    return fs.restart("kept"), last


def test_torn_tail_after_a_clean_stop_is_truncated_with_a_warning(caplog):
    fs2, last = _two_partitions()
    data = fs2.files[last].data
    whole = len(data)
    data.extend(bytes(data[:40]))  # the first 40 bytes of a batch: a write cut short
    with caplog.at_level(logging.WARNING, logger="odradek.log"):
        m = LogManager("/data", fs=fs2, default_config=CFG)
    assert f"{last}: partial batch" in caplog.text or f"{last}: unreadable" in caplog.text
    assert f"at byte {whole}; truncated 40 bytes" in caplog.text
    assert [v for _, _, v in read_all(m.get("bad", 0))] == [value(i) for i in range(12)]
    assert [v for _, _, v in read_all(m.get("good", 0))] == [value(i) for i in range(12)]
    assert len(fs2.files[last].data) == whole


def test_damaged_fsynced_data_takes_only_that_partition_offline(caplog):
    fs2, _ = _two_partitions()
    seg = "/data/bad-0/00000000000000000000.log"
    fs2.remove("/data/bad-0/00000000000000000000.index")  # so the start re-validates it
    before = bytes(fs2.files[seg].data)
    fs2.files[seg].data[70] ^= 0xFF  # a flipped byte in the first batch's records
    with caplog.at_level(logging.WARNING, logger="odradek.log"):
        m = LogManager("/data", fs=fs2, default_config=CFG)
    assert "00000000000000000000.index missing; recovering the segment" in caplog.text
    assert f"partition bad-0 is offline: corrupt log segment {seg} at position 0" in caplog.text
    assert m.get("bad", 0) is None and ("bad", 0) in m.offline
    with pytest.raises(errors.KafkaStorageError):
        m.get_or_create("bad", 0)
    assert [v for _, _, v in read_all(m.get("good", 0))] == [value(i) for i in range(12)]
    m.close()
    after = bytes(fs2.files[seg].data)
    assert len(after) == len(before) and after != before  # left as found, for the operator


def test_a_deleted_index_is_rebuilt_with_a_warning(caplog):
    fs2, _ = _two_partitions()
    fs2.remove("/data/good-0/00000000000000000000.timeindex")
    with caplog.at_level(logging.WARNING, logger="odradek.log"):
        m = LogManager("/data", fs=fs2, default_config=CFG)
    assert "/data/good-0/00000000000000000000.timeindex missing; recovering the segment" in caplog.text
    assert [v for _, _, v in read_all(m.get("good", 0))] == [value(i) for i in range(12)]
    assert fs2.exists("/data/good-0/00000000000000000000.timeindex")


def test_a_cut_short_last_batch_after_a_clean_stop_takes_the_partition_offline(caplog):
    """Bytes missing from a batch the clean stop had written are damage, not a torn write:
    the partition goes offline rather than losing an acknowledged batch."""
    fs2, last = _two_partitions()
    del fs2.files[last].data[-5:]
    with caplog.at_level(logging.WARNING, logger="odradek.log"):
        m = LogManager("/data", fs=fs2, default_config=CFG)
    assert "partition bad-0 is offline" in caplog.text and "partial batch" in caplog.text
    assert [v for _, _, v in read_all(m.get("good", 0))] == [value(i) for i in range(12)]


def test_a_torn_tail_after_kill_9_is_truncated_with_a_warning(caplog):
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    for i in range(3):
        log.append(build_batch([(None, value(i), (), 1)]), now_ms=1)
    path, end = log.active.path, log.active.size
    fs2 = fs.restart("kept")  # kill -9: no clean-shutdown marker
    fs2.files[path].data.extend(build_batch([(None, value(3), (), 1)])[:50])
    with caplog.at_level(logging.WARNING, logger="odradek.log"):
        log2 = PartitionLog(fs2, DIR, CFG, now_ms=2)
    assert f"{path}: unreadable batch header: need 61 bytes for a batch header, have 50 at byte {end}; " \
           f"truncated 50 bytes, the log ends at offset 3" in caplog.text
    assert log2.recovered_unclean and [v for _, _, v in read_all(log2)] == [value(i) for i in range(3)]


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
def test_a_failed_epoch_checkpoint_after_a_truncation_takes_the_log_offline(err, caplog):
    """A follower's truncation below the recovery point cut the log and its leader-epoch cache; the
    checkpoint write of the cut cache fails. The file still names epochs the log no longer has: the
    log takes no more writes (appends with no epoch change would be taken for those epochs), and a
    restart cuts the file's entries to the log it finds."""
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    for i, epoch in enumerate((0, 0, 1, 1, 2)):
        log.append(build_batch([(None, value(i), (), 1)]), now_ms=1, leader_epoch=epoch)
    log.flush()  # (a cut above the recovery point writes nothing: a load scans it again)
    fs.fail_writes(err, match=KINDS["leader-epoch"])
    with caplog.at_level(logging.ERROR, logger="odradek.log"):
        with pytest.raises(OSError):
            log.truncate_to(2)
    assert "leader-epoch-checkpoint" in caplog.text and log.offline is not None
    fs.clear_write_faults()
    with pytest.raises(errors.KafkaStorageError):
        log.append_as_follower(build_batch([(None, b"x", (), 1)], base_offset=2), now_ms=2)
    log.close()
    log2 = PartitionLog(fs.restart("kept"), DIR, CFG, now_ms=3)
    assert [v for _, _, v in read_all(log2)] == [value(0), value(1)]
    assert log2.epochs == epochs_of_batches(log2) and log2.epochs.latest_epoch == 0


def test_a_new_leaders_epoch_whose_checkpoint_write_fails_is_written_before_the_recovery_point_passes_it():
    """A new leader's epoch at the log end is kept in memory (written later, off the caller's path),
    and its first record does not wait for it: on a full disk that append lands, the log stays
    online, and the background write fails and stays pending; a crash then rebuilds the epoch from
    the batch (above the recovery point). A flush, which moves the recovery point past it, writes
    the epoch first: it fails too, and the recovery point on disk stays where it was; once the disk
    is back it writes both."""
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    log.append(build_batch([(None, b"a", (), 1)]), now_ms=1, leader_epoch=0)
    log.flush()
    fs.fail_writes(errno.ENOSPC, match=KINDS["leader-epoch"])
    log.assign_epoch(1, log.log_end_offset)
    assert log.epochs.latest_epoch == 1 and log.epochs_unwritten
    log.append(build_batch([(None, b"b", (), 1)]), now_ms=1, leader_epoch=1)
    assert log.log_end_offset == 2 and log.offline is None
    with pytest.raises(errors.KafkaStorageError):
        log.write_pending_state()
    assert log.epochs_unwritten
    crashed = PartitionLog(fs.restart("kept"), DIR, CFG, now_ms=3)  # a kill -9
    assert [(e.epoch, e.start_offset) for e in crashed.epochs.entries] == [(0, 0), (1, 1)]
    with pytest.raises(OSError):
        log.flush()
    assert b"recovery_point=1\n" in bytes(fs.files[DIR + "/log-state.checkpoint"].data)
    fs.clear_write_faults()
    log.flush()
    assert not log.epochs_unwritten
    assert b"recovery_point=2\n" in bytes(fs.files[DIR + "/log-state.checkpoint"].data)
    log2 = PartitionLog(fs.restart("lost"), DIR, CFG, now_ms=3)
    assert [(e.epoch, e.start_offset) for e in log2.epochs.entries] == [(0, 0), (1, 1)]


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
def test_a_restart_whose_recovery_cannot_write_takes_only_that_partition_offline(err, caplog):
    """After a kill -9 the recovery of a partition writes (its checkpoints, a rebuilt
    leader-epoch cache); a full or failing disk at every one of those writes in turn: the
    broker's logs start, that partition is offline (KAFKA_STORAGE_ERROR) until a restart, the
    other serves; once the disk is back a restart recovers every record of both."""
    fs = FaultyFileSystem()
    _written(fs, epochs=True)
    want = [value(i) for i in range(12)]
    at = 0
    while True:
        fs2 = fs.restart("kept")  # kill -9
        fs2.fail_writes(err, after=at, match=lambda p: p.startswith("/data/bad-0/"))
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="odradek.log"):
            m2 = LogManager("/data", fs=fs2, default_config=CFG)
        if not fs2.failed_writes:
            assert m2.get("bad", 0) is not None
            break
        assert "partition bad-0 is offline: /data/bad-0: loading the log failed" in caplog.text
        assert m2.get("bad", 0) is None
        with pytest.raises(errors.KafkaStorageError):
            m2.get_or_create("bad", 0)
        assert [v for _, _, v in read_all(m2.get("good", 0))] == want
        m2.close()
        fs2.clear_write_faults()
        m3 = LogManager("/data", fs=fs2.restart("kept"), default_config=CFG)
        for t in ("bad", "good"):
            assert [v for _, _, v in read_all(m3.get(t, 0))] == want, (at, t)
            assert m3.get(t, 0).epochs == epochs_of_batches(m3.get(t, 0))
        at += 1
    assert at >= 2


DAMAGE = {
    "flip": lambda d: d.__setitem__(len(d) // 2, d[len(d) // 2] ^ 0x5A),
    "cut": lambda d: d.__delitem__(slice(len(d) // 2, None)),
    "empty": lambda d: d.__delitem__(slice(None)),
    "garbage": lambda d: d.__setitem__(slice(None), b"\xff\xfe garbage \x00" * 3),
}
FILES = ["00000000000000000000.log", "00000000000000000000.index", "00000000000000000000.timeindex",
         "00000000000000000012.snapshot", "leader-epoch-checkpoint", "log-state.checkpoint",
         "partition.metadata", "txn-state.checkpoint", "../replication-offset-checkpoint",
         "../.kafka_cleanshutdown"]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("name", FILES)
def test_any_file_damaged_after_a_clean_stop_never_stops_the_start(name, damage):
    """Each file a partition (or its log dir) keeps, damaged after a clean stop: the logs start;
    the other partition serves every record; the damaged one serves every record (what it could
    not trust is rebuilt from the log) or is offline - never fewer records without a word. (A
    flipped byte inside a segment's batches is not looked for after a clean stop, as in Kafka:
    the consumer's CRC check finds it.)"""
    fs = FaultyFileSystem()
    _written(fs, epochs=True, idempotent=True).close()
    fs2 = fs.restart("kept")
    path = posixpath.normpath(posixpath.join("/data/bad-0", name))
    DAMAGE[damage](fs2.files[path].data)
    m2 = LogManager("/data", fs=fs2, default_config=CFG)
    want = [value(i) for i in range(12)]
    assert [v for _, _, v in read_all(m2.get("good", 0))] == want
    bad = m2.get("bad", 0)
    if bad is None:
        assert ("bad", 0) in m2.offline
    elif not (name.endswith(".log") and damage == "flip"):
        assert [v for _, _, v in read_all(bad)] == want
        assert bad.epochs == epochs_of_batches(bad)
        bad.append(build_batch([(None, b"more", (), 2)], producer_id=PID, producer_epoch=0,
                               base_sequence=12), now_ms=2, leader_epoch=2)
