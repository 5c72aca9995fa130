"""The `.kafka_cleanshutdown` file of each log dir (Kafka's CleanShutdownFileHandler): the
LogManager writes it with the broker epoch at the end of a clean close, reads it and deletes
it at start (previous_broker_epoch, -1 when any dir has none), before the logs load. Pure:
the in-memory FaultyFileSystem, a crash is `restart("kept")` without a close."""
from __future__ import annotations

from odradek.log import FaultyFileSystem, LogConfig, LogManager
from odradek.log import clean_shutdown_file as csf
from odradek.log.partition_log import CLEAN_SHUTDOWN_FILE

from log_helpers import batch

DIRS = ["/d1", "/d2"]
CFG = LogConfig(segment_bytes=400)


def manager(fs) -> LogManager:
    return LogManager(DIRS, fs=fs, default_config=CFG)


# written by Apache Kafka 4.3.0 (a single KRaft node, stopped with kafka-server-stop) in its log dir
KAFKA_FILE = b'{"version":0,"brokerEpoch":29}'


def test_codec_is_kafkas():
    assert csf.decode(KAFKA_FILE) == 29
    assert csf.encode(29) == KAFKA_FILE
    assert csf.encode(42) == b'{"version":0,"brokerEpoch":42}'
    assert csf.decode(b'{"version":0,"brokerEpoch":42}') == 42
    assert csf.decode(b'{"brokerEpoch": 7, "version": 1, "extra": "x"}') == 7  # unknown fields ignored
    assert csf.decode(b'{"version":0,"brokerEpoch":-1}') == -1


def test_codec_unreadable_content_is_no_epoch():
    for bad in (b"", b"{", b"[]", b'{"version":0}', b'{"brokerEpoch":"12"}', b'{"brokerEpoch":true}',
                b"\xff\xfe", b'{"version":0,"brokerEpoch":4'):
        assert csf.decode(bad) is None, bad


def test_previous_epoch_needs_every_dir_to_agree():
    assert csf.previous_broker_epoch([5, 5]) == 5
    assert csf.previous_broker_epoch([5, None]) == -1
    assert csf.previous_broker_epoch([5, 6]) == -1
    assert csf.previous_broker_epoch([]) == -1


def test_clean_close_then_start_gives_the_epoch_and_deletes_the_files():
    fs = FaultyFileSystem()
    lm = manager(fs)
    assert lm.previous_broker_epoch == -1  # first start: no file
    log = lm.get_or_create("t", 0)
    log.append(batch([b"a", b"b"]), 1000)
    lm.close(broker_epoch=123)
    for d in DIRS:
        assert csf.read(fs, d) == 123
        assert fs.exists(f"{d}/{csf.FILE}")
    fs2 = fs.restart("lost")  # the files were fsynced: they survive even a power loss
    lm2 = manager(fs2)
    assert lm2.previous_broker_epoch == 123
    for d in DIRS:
        assert not fs2.exists(f"{d}/{csf.FILE}")  # deleted before the logs loaded
    assert lm2.get("t", 0).log_end_offset == 2
    # the log dir's file is also what tells its logs they need no recovery (as Kafka's): no marker per log
    log_dir = lm2.get("t", 0).dir
    lm2.close(broker_epoch=124)
    assert not fs2.exists(f"{log_dir}/{CLEAN_SHUTDOWN_FILE}")
    lm3 = manager(fs2.restart("kept"))
    assert lm3.previous_broker_epoch == 124 and not lm3.get("t", 0).recovered_unclean


def test_kill_leaves_no_file():
    fs = FaultyFileSystem()
    lm = manager(fs)
    lm.get_or_create("t", 0).append(batch([b"a"]), 1000)
    lm.close(broker_epoch=9)
    lm2 = manager(fs.restart("kept"))  # reads 9 and deletes the files ...
    assert lm2.previous_broker_epoch == 9
    lm2.get("t", 0).append(batch([b"b"]), 1000)
    # ... then a kill -9: no close, so the next start is unclean
    lm3 = manager(lm2.fs.restart("kept"))
    assert lm3.previous_broker_epoch == -1
    assert lm3.get("t", 0).log_end_offset == 2


def test_one_dir_without_the_file_is_unclean():
    fs = FaultyFileSystem()
    lm = manager(fs)
    lm.close(broker_epoch=31)
    fs.remove(f"{DIRS[1]}/{csf.FILE}")
    assert manager(fs.restart("kept")).previous_broker_epoch == -1


def test_dirs_with_different_epochs_are_unclean():
    fs = FaultyFileSystem()
    lm = manager(fs)
    lm.close(broker_epoch=31)
    csf.write(fs, DIRS[1], 30)
    assert manager(fs.restart("kept")).previous_broker_epoch == -1


def test_a_log_that_fails_to_close_leaves_its_dir_without_the_file():
    fs = FaultyFileSystem()
    lm = manager(fs)
    log = lm.get_or_create("t", 0)
    log.append(batch([b"a"]), 1000)
    failing_dir, = (d for d in DIRS if log.dir.startswith(d + "/"))
    other_dir, = (d for d in DIRS if d != failing_dir)
    log.offline = "simulated I/O error"  # what a failed write leaves: the log cannot close cleanly
    lm.close(broker_epoch=8)
    assert csf.read(fs, failing_dir) is None
    assert csf.read(fs, other_dir) == 8
    assert manager(fs.restart("kept")).previous_broker_epoch == -1


def test_close_without_a_registration_records_epoch_minus_one():
    fs = FaultyFileSystem()
    manager(fs).close()
    assert csf.read(fs, DIRS[0]) == -1
    assert manager(fs.restart("kept")).previous_broker_epoch == -1
