"""Decide -> write -> apply in the transaction coordinator: a transition whose append to
__transaction_state fails leaves the transactional id exactly as it was (Kafka's
prepareTransitionTo / completeTransitionTo), and the client gets COORDINATOR_NOT_AVAILABLE."""
from __future__ import annotations

import copy

from odradek.coordinator import txn_records as rec
from odradek.coordinator.txn_coordinator import MAX_EPOCH, TxnCoordinator
from odradek.coordinator.txn_records import TxnState as S
from odradek.wire.errors import ErrorCode as E

from txn_fakes import FailingLog, Markers


def make(tv=0):
    log, markers = FailingLog(), Markers()
    pids = iter(range(1000, 2000))
    c = TxnCoordinator(log=log, allocate_producer_id=lambda: next(pids), write_marker=markers,
                       transaction_version=lambda: tv)
    return c, log, markers


def snapshot(c):
    return copy.deepcopy(c.txns), {pid: m.transactional_id for pid, m in c._by_pid.items()}


def states(log, tid="a"):
    return [rec.decode_value(tid, v).state for _, _, v in log.read(rec.partition_for(tid)) if v is not None]


def test_a_failed_write_of_a_new_id_leaves_no_id():
    c, log, _ = make()
    log.failing = True
    assert c.init_producer_id("a", 60000, now_ms=1) == (E.COORDINATOR_NOT_AVAILABLE, -1, -1)
    assert c.txns == {} and c._by_pid == {} and log.parts == {}
    log.failing = False
    assert c.init_producer_id("a", 60000, now_ms=2)[0] == E.NONE


def test_failed_writes_leave_every_transition_unchanged():
    c, log, markers = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    log.failing = True
    before = snapshot(c)
    assert c.init_producer_id("a", 60000, now_ms=2) == (E.COORDINATOR_NOT_AVAILABLE, -1, -1)  # epoch bump
    assert c.add_partitions("a", pid, ep, [("t", 0)], 3) == E.COORDINATOR_NOT_AVAILABLE      # Empty -> Ongoing
    assert snapshot(c) == before and c.check_produce(pid, ep, "t", 0) == E.INVALID_TXN_STATE
    log.failing = False
    assert c.add_partitions("a", pid, ep, [("t", 0)], 4) == E.NONE
    log.failing = True
    before = snapshot(c)
    assert c.add_partitions("a", pid, ep, [("t", 1)], 5) == E.COORDINATOR_NOT_AVAILABLE      # Ongoing + t-1
    assert c.end_txn("a", pid, ep, True, 6) == E.COORDINATOR_NOT_AVAILABLE                   # Ongoing -> PrepareCommit
    # a new incarnation cannot fence the open transaction either
    assert c.init_producer_id("a", 60000, now_ms=7) == (E.COORDINATOR_NOT_AVAILABLE, -1, -1)
    assert snapshot(c) == before and markers.written == []
    assert c.txns["a"].state is S.ONGOING and c.txns["a"].partitions == {("t", 0)}
    log.failing = False
    assert c.end_txn("a", pid, ep, True, 8) == E.NONE
    assert states(log) == [S.EMPTY, S.ONGOING, S.PREPARE_COMMIT, S.COMPLETE_COMMIT]


def test_a_failed_complete_stays_prepared_and_tick_finishes_it():
    c, log, markers = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    c.add_partitions("a", pid, ep, [("t", 0)], 2)
    fail_once = markers.__call__

    def markers_then_fail(*args):
        log.failing = True  # the markers go out, then the Complete record cannot be written
        return fail_once(*args)

    c.write_marker = markers_then_fail
    try:
        c.end_txn("a", pid, ep, True, 3)
    except OSError:
        pass
    m = c.txns["a"]
    assert (m.state, m.partitions, m.pending) == (S.PREPARE_COMMIT, {("t", 0)}, False)
    assert states(log) == [S.EMPTY, S.ONGOING, S.PREPARE_COMMIT]
    c.write_marker = markers
    log.failing = False
    c.tick(10_000)  # retries the completion
    assert c.txns["a"].state is S.COMPLETE_COMMIT and states(log)[-1] is S.COMPLETE_COMMIT


def test_tv2_failed_end_keeps_the_epoch_and_overflow_keeps_the_producer_id():
    c, log, markers = make(tv=2)
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    assert c.add_partitions("a", pid, ep, [("t", 0)], 2, client_tv=2) == E.NONE
    log.failing = True
    before = snapshot(c)
    assert c.end_txn_tv2("a", pid, ep, True, 3) == (E.COORDINATOR_NOT_AVAILABLE, -1, -1)
    assert snapshot(c) == before and markers.written == []
    log.failing = False
    assert c.end_txn_tv2("a", pid, ep, True, 4) == (E.NONE, pid, ep + 1)
    # an exhausted epoch: the completion that moves to the next producer id fails, nothing moves
    c.txns["a"].producer_epoch = MAX_EPOCH - 1
    assert c.add_partitions("a", pid, MAX_EPOCH - 1, [("t", 0)], 5, client_tv=2) == E.NONE
    before = snapshot(c)
    log.failing = True
    assert c.end_txn_tv2("a", pid, MAX_EPOCH - 1, False, 6) == (E.COORDINATOR_NOT_AVAILABLE, -1, -1)
    assert snapshot(c) == before and c._by_pid[pid] is c.txns["a"]
