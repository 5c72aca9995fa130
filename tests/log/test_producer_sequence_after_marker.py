"""Sequence numbers after a transaction marker that bumps the producer epoch (transaction.version 2:
EndTxn bumps the epoch and the markers carry it). The producer's next transaction starts its
batches at sequence 0 under that epoch; a batch of that epoch with another first sequence is out
of order, as Kafka's ProducerAppendInfo.checkSequence (the entry's epoch is the batch's, its last
sequence none: only 0 is in sequence). Accepting it let a later batch of the Kafka Streams
producer land while its first batch was being retried (CONCURRENT_TRANSACTIONS from the implicit
AddPartitionsToTxn), after which the first could never be written (OUT_OF_ORDER_SEQUENCE forever)."""
from __future__ import annotations

import pytest

from odradek.log import FaultyFileSystem, LogConfig, PartitionLog
from odradek.log import errors as log_errors
from odradek.wire.records import build_batch, build_control_batch

PID = 7


def _log():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, "/data/t-0", LogConfig(), now_ms=0)


def _txn(epoch: int, seq: int, n: int = 3):
    return build_batch([(None, b"v", (), 1000)] * n, producer_id=PID, producer_epoch=epoch,
                       base_sequence=seq, is_transactional=True)


@pytest.mark.parametrize("commit", [True, False])
def test_first_batch_of_the_marker_epoch_starts_at_sequence_zero(commit):
    log = _log()
    log.append(_txn(0, 0), now_ms=1000)
    log.append(_txn(0, 3), now_ms=1000)
    log.append(build_control_batch(commit, PID, 1, 0, 1000), now_ms=1000)  # TV2: the marker has epoch 1
    with pytest.raises(log_errors.OutOfOrderSequenceError):
        log.append(_txn(1, 3), now_ms=1000)  # the transaction's second batch, before its first
    first = log.append(_txn(1, 0), now_ms=1000)
    assert first.base_offset == 7 and not first.duplicate
    assert log.append(_txn(1, 3), now_ms=1000).base_offset == 10
    assert log.append(_txn(1, 0), now_ms=1000).duplicate  # a retry of the first


def test_unknown_producer_may_start_anywhere():
    """No entry (a new producer, or one whose state expired or was deleted): any sequence, as Kafka."""
    log = _log()
    assert log.append(_txn(0, 42), now_ms=1000).base_offset == 0
