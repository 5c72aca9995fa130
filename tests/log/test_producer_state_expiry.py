"""producer.id.expiration.ms: idle producers' idempotence state is dropped, as
Kafka's ProducerStateManager.removeExpiredProducers does."""
from __future__ import annotations

from odradek.log import FaultyFileSystem, LogConfig, LogManager, PartitionLog, RealFileSystem
from odradek.wire.records import build_batch

HOUR = 3_600_000


def _log():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, "/data/t-0", LogConfig(), now_ms=0)


def _idem(pid, seq, ts, n=2, txn=False):
    return build_batch([(None, b"v", (), ts)] * n, producer_id=pid, producer_epoch=0,
                       base_sequence=seq, is_transactional=txn)


def test_idle_producer_expires_by_batch_timestamp_and_starts_afresh():
    log = _log()
    log.append(_idem(7, 0, ts=1000), now_ms=1000)
    log.append(_idem(8, 0, ts=5000), now_ms=5000)
    assert log.remove_expired_producers(now_ms=1000 + HOUR - 1, expiration_ms=HOUR) == 0
    assert log.remove_expired_producers(now_ms=1000 + HOUR, expiration_ms=HOUR) == 1
    assert set(log.producer_state.producers) == {8}
    # the expired producer's retry is no longer recognised: a new batch (as in Kafka)
    again = log.append(_idem(7, 0, ts=2000), now_ms=1000 + HOUR)
    assert not again.duplicate and again.base_offset == 4
    # producer 8 still has its state: its retry is a duplicate
    assert log.append(_idem(8, 0, ts=5000), now_ms=1000 + HOUR).duplicate


def test_producer_with_open_transaction_is_kept():
    log = _log()
    log.append(_idem(9, 0, ts=1000, txn=True), now_ms=1000)
    log.append(_idem(10, 0, ts=1000), now_ms=1000)
    assert log.remove_expired_producers(now_ms=10 * HOUR, expiration_ms=HOUR) == 1
    assert set(log.producer_state.producers) == {9}


def test_log_manager_expires_across_partitions(tmp_path):
    mgr = LogManager([str(tmp_path)], fs=RealFileSystem())
    try:
        for p in range(3):
            mgr.get_or_create("t", p, now_ms=0).append(_idem(100 + p, 0, ts=p * HOUR), now_ms=2 * HOUR)
        assert mgr.remove_expired_producers(now_ms=2 * HOUR + 1, expiration_ms=HOUR) == 2
        assert [len(mgr.get("t", p).producer_state.producers) for p in range(3)] == [0, 0, 1]
    finally:
        mgr.close()
