"""transaction.version 2 in the coordinator (Kafka 4.3's endTransaction for TV2): the epoch
bump per transaction end, the retry/state table, epoch overflow to a new producer id, aborts
the coordinator starts itself by the finalized level, and the v1 log value on recovery."""
from __future__ import annotations

from odradek.coordinator import txn_records as rec
from odradek.coordinator.txn_coordinator import MAX_EPOCH, TxnCoordinator
from odradek.coordinator.txn_records import TxnState as S
from odradek.wire.errors import ErrorCode as E

from txn_fakes import Markers, MemLog


def make(tv=2, log=None, markers=None):
    log = log or MemLog()
    markers = markers or Markers()
    pids = iter(range(1000, 2000))
    c = TxnCoordinator(log=log, allocate_producer_id=lambda: next(pids), write_marker=markers,
                       transaction_version=lambda: tv)
    return c, log, markers


def started(c, tid="tx", parts=(("t", 0),), now=10):
    err, pid, ep = c.init_producer_id(tid, 60000, now_ms=now)
    assert err == E.NONE
    assert c.add_partitions(tid, pid, ep, parts, now, client_tv=2) == E.NONE
    return pid, ep


def logged(log, tid="tx"):
    p = rec.partition_for(tid)
    return [rec.decode_value(tid, v) for _, _, v in log.read(p) if v is not None]


def test_every_end_bumps_the_epoch_and_markers_carry_the_new_one():
    c, log, markers = make()
    pid, ep = started(c)
    assert c.describe("tx").client_tv == 2
    assert c.end_txn_tv2("tx", pid, ep, True, 20) == (E.NONE, pid, ep + 1)
    assert markers.written == [("t", 0, pid, ep + 1, True)]
    m = c.describe("tx")
    assert (m.state, m.producer_epoch, m.last_producer_epoch, m.partitions) == (S.COMPLETE_COMMIT, ep + 1, ep, set())
    # the next transaction runs on the new epoch; the old one is fenced at the coordinator
    assert c.add_partitions("tx", pid, ep, [("t", 1)], 30, client_tv=2) == E.PRODUCER_FENCED
    assert c.add_partitions("tx", pid, ep + 1, [("t", 1)], 30, client_tv=2) == E.NONE
    assert c.end_txn_tv2("tx", pid, ep + 1, False, 40) == (E.NONE, pid, ep + 2)
    assert markers.written[-1] == ("t", 1, pid, ep + 2, False)
    # log: v1 values, each transition with the client's version
    assert [(m.state, m.producer_epoch, m.client_tv) for m in logged(log)] == [
        (S.EMPTY, 0, 0), (S.ONGOING, 0, 2), (S.PREPARE_COMMIT, 1, 2), (S.COMPLETE_COMMIT, 1, 2),
        (S.ONGOING, 1, 2), (S.PREPARE_ABORT, 2, 2), (S.COMPLETE_ABORT, 2, 2)]


def test_retry_and_state_table_as_kafka():
    c, _, _ = make()
    pid, ep = started(c)
    # Ongoing: only the current epoch
    assert c.end_txn_tv2("tx", pid, ep + 1, True, 20) == (E.PRODUCER_FENCED, -1, -1)
    assert c.end_txn_tv2("tx", pid + 1, ep, True, 20) == (E.INVALID_PRODUCER_ID_MAPPING, -1, -1)
    assert c.end_txn_tv2("tx", pid, ep, True, 20) == (E.NONE, pid, ep + 1)
    # CompleteCommit: a retried commit is answered again, a retried abort is invalid
    assert c.end_txn_tv2("tx", pid, ep, True, 21) == (E.NONE, pid, ep + 1)
    assert c.end_txn_tv2("tx", pid, ep, False, 21) == (E.INVALID_TXN_STATE, -1, -1)
    # ...a commit at the current epoch has nothing to commit; an abort at it bumps again
    assert c.end_txn_tv2("tx", pid, ep + 1, True, 22) == (E.INVALID_TXN_STATE, -1, -1)
    assert c.end_txn_tv2("tx", pid, ep + 1, False, 22) == (E.NONE, pid, ep + 2)
    # CompleteAbort: a retried abort is answered, commits are invalid
    assert c.end_txn_tv2("tx", pid, ep + 1, False, 23) == (E.NONE, pid, ep + 2)
    assert c.end_txn_tv2("tx", pid, ep + 1, True, 23) == (E.INVALID_TXN_STATE, -1, -1)
    assert c.end_txn_tv2("tx", pid, ep + 2, True, 23) == (E.INVALID_TXN_STATE, -1, -1)
    # an older epoch is fenced
    assert c.end_txn_tv2("tx", pid, ep, False, 24) == (E.PRODUCER_FENCED, -1, -1)
    # Empty (after InitProducerId): abort bumps, commit is invalid, a "retry" is fenced
    err, pid, ep = c.init_producer_id("tx", 60000, pid, ep + 2, now_ms=25)
    assert err == E.NONE and c.describe("tx").state is S.EMPTY
    assert c.end_txn_tv2("tx", pid, ep, True, 26) == (E.INVALID_TXN_STATE, -1, -1)
    assert c.end_txn_tv2("tx", pid, ep - 1, False, 26) == (E.PRODUCER_FENCED, -1, -1)
    assert c.end_txn_tv2("tx", pid, ep, False, 26) == (E.NONE, pid, ep + 1)
    assert c.describe("tx").start_ms == 26  # an empty abort takes its time as the start
    assert c.end_txn_tv2("", pid, ep, False, 26) == (E.INVALID_REQUEST, -1, -1)
    assert c.end_txn_tv2("nope", pid, ep, False, 26) == (E.INVALID_PRODUCER_ID_MAPPING, -1, -1)


def test_epoch_overflow_moves_to_the_next_producer_id_at_completion():
    c, log, markers = make()
    pid, ep = started(c)
    m = c.describe("tx")
    m.producer_epoch = MAX_EPOCH - 1  # exhausted: the last epoch a client may use
    assert c.end_txn_tv2("tx", pid, MAX_EPOCH - 1, True, 20) == (E.NONE, 1001, 0)
    assert markers.written == [("t", 0, pid, MAX_EPOCH, True)]  # the old id's last epoch fences it
    prepare, complete = logged(log)[-2:]
    assert (prepare.state, prepare.producer_id, prepare.producer_epoch, prepare.next_producer_id) == \
        (S.PREPARE_COMMIT, pid, MAX_EPOCH, 1001)
    assert (complete.state, complete.producer_id, complete.producer_epoch, complete.prev_producer_id,
            complete.next_producer_id) == (S.COMPLETE_COMMIT, 1001, 0, pid, -1)
    # a retry with the old id and epoch gets the new pair again; the old id is unknown otherwise
    assert c.end_txn_tv2("tx", pid, MAX_EPOCH - 1, True, 21) == (E.NONE, 1001, 0)
    assert c.add_partitions("tx", pid, MAX_EPOCH - 1, [("t", 0)], 22, client_tv=2) == \
        E.INVALID_PRODUCER_ID_MAPPING
    assert c.check_produce(pid, MAX_EPOCH - 1, "t", 0) == E.INVALID_TXN_STATE  # unknown id now
    assert c.add_partitions("tx", 1001, 0, [("t", 0)], 22, client_tv=2) == E.NONE
    assert c.check_produce(1001, 0, "t", 0) == E.NONE
    # InitProducerId retried with the old pair: the new pair, no bump (Kafka's retry case)
    assert c.end_txn_tv2("tx", 1001, 0, False, 23) == (E.NONE, 1001, 1)
    assert c.init_producer_id("tx", 60000, 1001, 1, now_ms=24) == (E.NONE, 1001, 2)


def test_recovery_finishes_a_prepare_with_its_next_producer_id():
    log, markers = MemLog(), Markers()
    c, _, _ = make(log=log, markers=markers)
    pid, ep = started(c)
    c.describe("tx").producer_epoch = MAX_EPOCH - 1
    markers.fail_after = 0  # crash after PrepareCommit is in the log, before any marker
    try:
        c.end_txn_tv2("tx", pid, MAX_EPOCH - 1, True, 20)
    except RuntimeError:
        pass
    assert logged(log)[-1].state is S.PREPARE_COMMIT
    markers.fail_after = None
    c2, _, _ = make(log=log, markers=markers)
    c2.load_all(30)
    m = c2.describe("tx")
    assert (m.state, m.producer_id, m.producer_epoch, m.client_tv) == (S.COMPLETE_COMMIT, 1001, 0, 2)
    assert markers.written == [("t", 0, pid, MAX_EPOCH, True)]
    assert c2.end_txn_tv2("tx", pid, MAX_EPOCH - 1, True, 31) == (E.NONE, m.producer_id, 0)


def test_timeout_abort_follows_the_finalized_level():
    for tv, epochs in ((2, (1, 0)), (1, (1, -1))):
        c, log, markers = make(tv=tv)
        pid, ep = started(c, now=10)
        assert c.abort_timed_out(10 + 60001) == ["tx"]
        m = c.describe("tx")
        # one bump either way; TV2 keeps the epoch before it as the last epoch, TV1 forgets it
        assert (m.state, m.producer_epoch, m.last_producer_epoch) == (S.COMPLETE_ABORT, *epochs)
        assert markers.written == [("t", 0, pid, 1, False)]
        assert m.client_tv == (2 if tv >= 2 else 0)
        assert {v[:2] for _, _, v in log.read(rec.partition_for("tx"))} == {b"\x00\x01"}
        # the fenced producer: its end and its adds are refused
        assert c.end_txn_tv2("tx", pid, ep, False, 10 + 60002)[0] in (E.PRODUCER_FENCED, E.NONE)
        assert c.add_partitions("tx", pid, ep, [("t", 0)], 10 + 60002, client_tv=2) == E.PRODUCER_FENCED


def test_fencing_at_the_last_epoch_still_fences():
    c, _, markers = make(tv=1)
    pid, ep = started(c)
    c.describe("tx").producer_epoch = MAX_EPOCH - 1
    assert c.init_producer_id("tx", 60000, now_ms=20) == (E.CONCURRENT_TRANSACTIONS, -1, -1)
    assert markers.written == [("t", 0, pid, MAX_EPOCH, False)]  # Kafka 4.3 fences with 32767
    # the retry gets a new producer id
    err, pid2, ep2 = c.init_producer_id("tx", 60000, now_ms=21)
    assert (err, ep2) == (E.NONE, 0) and pid2 != pid


def test_log_value_version_follows_the_finalized_level():
    for tv, version in ((0, 0), (1, 1), (2, 1)):
        c, log, _ = make(tv=tv)
        c.init_producer_id("tx", 60000, now_ms=1)
        assert {v[:2] for _, _, v in log.read(rec.partition_for("tx"))} == {bytes([0, version])}


def test_log_values_byte_for_byte_as_kafka_43():
    # values Kafka 4.3 wrote to __transaction_state for a kafka-clients 4.3 producer (TV2 finalized)
    empty = "00010000000000000001000000004e200000000001a20ae56e2effffffffffffffff0100080000000000000001"
    complete = ("00010000000000000001000100004e200401000001a20ae56eec000001a20ae56e77"
                "020008000000000000000102020002")
    m = rec.TxnMetadata("x", 1, 0, 20000, S.EMPTY, last_update_ms=0x1a20ae56e2e, prev_producer_id=1)
    assert rec.value_bytes(m, 1).hex() == empty  # Empty: no partition list at all (null)
    m = rec.TxnMetadata("x", 1, 1, 20000, S.COMPLETE_COMMIT, start_ms=0x1a20ae56e77, last_update_ms=0x1a20ae56eec,
                        prev_producer_id=1, client_tv=2)
    assert rec.value_bytes(m, 1).hex() == complete
    back = rec.decode_value("x", bytes.fromhex(complete))
    assert (back.producer_id, back.producer_epoch, back.state, back.client_tv, back.prev_producer_id,
            back.next_producer_id, back.last_producer_id) == (1, 1, S.COMPLETE_COMMIT, 2, 1, -1, -1)
