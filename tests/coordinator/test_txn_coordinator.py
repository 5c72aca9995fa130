"""Transaction coordinator state machine: init/fencing, add, end, markers, recovery, timeouts,
and transactional offset commits that become visible only on commit."""
from __future__ import annotations

import pytest

from odradek.coordinator import txn_records as rec
from odradek.coordinator.group_coordinator import GroupCoordinator
from odradek.coordinator.txn_coordinator import TxnCoordinator
from odradek.coordinator.txn_offsets import TxnOffsetStore
from odradek.coordinator.txn_records import TxnMetadata, TxnState as S
from odradek.wire import records as wr
from odradek.wire.errors import ErrorCode as E

from txn_fakes import Markers, MemLog


def make(log=None, markers=None, **cfg):
    log = log or MemLog()
    markers = markers or Markers()
    pids = iter(range(1000, 2000))
    c = TxnCoordinator(log=log, config=cfg or None, allocate_producer_id=lambda: next(pids), write_marker=markers)
    return c, log, markers


def test_records_roundtrip_and_partition():
    m = TxnMetadata("tx", 7, 3, 60000, S.ONGOING, {("t", 0), ("t", 2), ("u", 1)}, 100, 200)
    back = rec.decode_value("tx", rec.value_bytes(m))
    assert (back.producer_id, back.producer_epoch, back.timeout_ms, back.state, back.partitions,
            back.start_ms, back.last_update_ms) == (7, 3, 60000, S.ONGOING, m.partitions, 100, 200)
    assert rec.decode_key(rec.key_bytes("tx")) == "tx"
    # Kafka: Utils.abs("my-txn".hashCode()) % 50, String.hashCode spelled out
    h = 0
    for ch in "my-txn":
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= 1 << 31 else h
    assert rec.partition_for("my-txn") == abs(h) % 50


def test_init_new_bump_and_invalid_timeout():
    c, log, _ = make()
    assert c.init_producer_id("a", 900001, now_ms=1) == (E.INVALID_TRANSACTION_TIMEOUT, -1, -1)
    assert c.init_producer_id("a", 0, now_ms=1)[0] == E.INVALID_TRANSACTION_TIMEOUT
    assert c.init_producer_id("a", 60000, now_ms=1) == (E.NONE, 1000, 0)
    assert c.init_producer_id("a", 60000, now_ms=2) == (E.NONE, 1000, 1)
    # KIP-360: the producer passes its current id/epoch; a stale pair is fenced
    assert c.init_producer_id("a", 60000, 1000, 1, now_ms=3) == (E.NONE, 1000, 2)
    assert c.init_producer_id("a", 60000, 1000, 0, now_ms=3)[0] == E.PRODUCER_FENCED
    # a retried bump (expected = the epoch before it) gets the same answer again
    assert c.init_producer_id("a", 60000, 1000, 1, now_ms=3) == (E.NONE, 1000, 2)
    assert len(log.parts[c.partition_for("a")]) == 3


def test_ids_of_partitions_not_held_answer_not_coordinator_after_request_checks():
    # as Kafka 4.3 before __transaction_state exists: the request's own checks first, then NOT_COORDINATOR
    c, log, markers = make(log=MemLog(held=set()))
    assert c.init_producer_id("", 60000, now_ms=1)[0] == E.INVALID_REQUEST
    assert c.init_producer_id("a", 0, now_ms=1)[0] == E.INVALID_TRANSACTION_TIMEOUT
    assert c.init_producer_id("a", 60000, now_ms=1) == (E.NOT_COORDINATOR, -1, -1)
    assert c.add_partitions("a", 1, 0, [("t", 0)], 1) == E.NOT_COORDINATOR
    assert c.verify_partitions("a", 1, 0, [("t", 0)]) == {("t", 0): E.NOT_COORDINATOR}
    assert c.end_txn("a", 1, 0, True, 1) == E.NOT_COORDINATOR
    assert log.parts == {} and markers.written == [] and not c.is_coordinator("a")
    log.held = {c.partition_for("a")}  # the topic was created
    assert c.is_coordinator("a") and c.init_producer_id("a", 60000, now_ms=2) == (E.NONE, 1000, 0)


def test_epoch_exhaustion_gives_a_new_producer_id():
    c, _, _ = make()
    c.init_producer_id("a", 60000, now_ms=1)
    c.txns["a"].producer_epoch = 32766
    err, pid, epoch = c.init_producer_id("a", 60000, now_ms=2)
    assert (err, epoch) == (E.NONE, 0) and pid != 1000


def test_commit_writes_markers_and_completes():
    c, log, markers = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    assert c.end_txn("a", pid, ep, True, 2) == E.INVALID_TXN_STATE  # nothing added yet
    assert c.add_partitions("a", pid, ep, [("t", 0), ("t", 1)], 3) == E.NONE
    assert c.txns["a"].state is S.ONGOING and c.txns["a"].start_ms == 3
    assert c.check_produce(pid, ep, "t", 1) == E.NONE
    assert c.check_produce(pid, ep, "t", 2) == E.INVALID_TXN_STATE
    assert c.check_produce(pid, ep - 1 if ep else -5, "t", 1) in (E.INVALID_PRODUCER_EPOCH, E.INVALID_TXN_STATE)
    assert c.add_partitions("a", pid, ep + 1, [("t", 0)], 3) == E.PRODUCER_FENCED
    assert c.add_partitions("a", pid + 1, ep, [("t", 0)], 3) == E.INVALID_PRODUCER_ID_MAPPING
    assert c.end_txn("a", pid, ep, True, 4) == E.NONE
    assert markers.written == [("t", 0, pid, ep, True), ("t", 1, pid, ep, True)]
    m = c.txns["a"]
    assert m.state is S.COMPLETE_COMMIT and m.partitions == set()
    states = [rec.decode_value("a", v).state for _, _, v in log.read(c.partition_for("a"))]
    assert states == [S.EMPTY, S.ONGOING, S.PREPARE_COMMIT, S.COMPLETE_COMMIT]
    assert c.end_txn("a", pid, ep, True, 5) == E.NONE             # a retried commit
    assert c.end_txn("a", pid, ep, False, 5) == E.INVALID_TXN_STATE
    assert c.check_produce(pid, ep, "t", 0) == E.INVALID_TXN_STATE


def test_new_incarnation_fences_and_aborts_the_open_transaction():
    c, _, markers = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    c.add_partitions("a", pid, ep, [("t", 0)], 2)
    assert c.init_producer_id("a", 60000, now_ms=3)[0] == E.CONCURRENT_TRANSACTIONS
    assert markers.written == [("t", 0, pid, ep + 1, False)]       # aborted with the fencing epoch
    assert c.init_producer_id("a", 60000, now_ms=4) == (E.NONE, pid, ep + 2)
    assert c.end_txn("a", pid, ep, True, 5) == E.PRODUCER_FENCED
    assert c.add_partitions("a", pid, ep, [("t", 0)], 5) == E.PRODUCER_FENCED


def test_timeout_aborts_with_a_bumped_epoch():
    c, _, markers = make()
    _, pid, ep = c.init_producer_id("a", 1000, now_ms=0)
    c.add_partitions("a", pid, ep, [("t", 0)], 10)
    c.tick(500)
    assert c.txns["a"].state is S.ONGOING
    c.tick(1500)  # checked once a second
    assert c.txns["a"].state is S.COMPLETE_ABORT and c.txns["a"].producer_epoch == ep + 1
    assert markers.written == [("t", 0, pid, ep + 1, False)]
    assert c.end_txn("a", pid, ep, True, 1100) == E.PRODUCER_FENCED


def test_recovery_finishes_a_commit_caught_half_way():
    log, markers = MemLog(), Markers()
    c, _, _ = make(log, markers)
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    c.add_partitions("a", pid, ep, [("t", 0), ("t", 1), ("t", 2)], 2)
    markers.fail_after = 1  # the broker dies after the first marker
    with pytest.raises(RuntimeError):
        c.end_txn("a", pid, ep, True, 3)
    markers.fail_after = None
    c2, _, m2 = make(log)
    c2.load_all(10)
    assert [(t, p, commit) for t, p, _, _, commit in m2.written] == [("t", 0, True), ("t", 1, True), ("t", 2, True)]
    assert c2.txns["a"].state is S.COMPLETE_COMMIT
    # an ongoing transaction survives a restart and still times out
    _, pid, ep = c2.init_producer_id("b", 1000, now_ms=20)
    c2.add_partitions("b", pid, ep, [("t", 0)], 20)
    c3, _, m3 = make(log)
    c3.load_all(30)
    assert c3.txns["b"].state is S.ONGOING and c3.check_produce(pid, ep, "t", 0) == E.NONE
    c3.tick(2000)
    assert c3.txns["b"].state is S.COMPLETE_ABORT and m3.written == [("t", 0, pid, ep + 1, False)]


def test_verify_only_and_list():
    c, _, _ = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    c.add_partitions("a", pid, ep, [("t", 0)], 2)
    assert c.verify_partitions("a", pid, ep, [("t", 0), ("t", 1)]) == {("t", 0): E.NONE,
                                                                      ("t", 1): E.TRANSACTION_ABORTABLE}
    c.init_producer_id("b", 60000, now_ms=1)
    assert [m.transactional_id for m in c.list(["Ongoing"])] == ["a"]
    assert [m.transactional_id for m in c.list(pattern="b")] == ["b"]
    assert [m.transactional_id for m in c.list(min_duration_ms=5, now_ms=10)] == ["a"]


# ---------------------------------------------------------------- transactional offsets


def test_txn_offsets_visible_only_on_commit_and_replayed_from_the_log():
    groups = GroupCoordinator()
    batches = []
    store = TxnOffsetStore(groups, lambda p, b, now: batches.append((p, b)))
    tp = ("in", 0)
    assert store.commit("g", 5, 0, {tp: (42, -1, "")}, 1) == {tp: E.NONE}
    assert groups.committed("g") == {}
    assert store.has_pending("g", tp) and store.pending_partitions("g") == {tp}
    store.complete(5, store.partition_for("g") + 1, True, 2)  # marker of another partition
    assert groups.committed("g") == {}
    store.complete(5, store.partition_for("g"), True, 2)
    assert groups.committed("g")[tp].offset == 42 and not store.has_pending("g", tp)
    store.commit("g", 5, 1, {tp: (50, -1, "")}, 3)
    store.complete(5, store.partition_for("g"), False, 4)      # aborted: stays at 42
    assert groups.committed("g")[tp].offset == 42

    # replay: the batches as written, with markers where the broker put them
    h_batches = []
    part = store.partition_for("g")
    for i, (p, b) in enumerate(batches):
        h_batches.append(next(wr.iter_batches(b)))
        marker = wr.build_control_batch(i == 0, 5, i, 0, 10)
        h_batches.append(next(wr.iter_batches(marker)))
    store.commit("g", 6, 0, {("in", 1): (7, -1, "")}, 5)       # still open at the "crash"
    h_batches.append(next(wr.iter_batches(batches[-1][1])))
    groups2 = GroupCoordinator()
    store2 = TxnOffsetStore(groups2)
    store2.load_partition(part, h_batches, 100)
    assert groups2.committed("g")[tp].offset == 42
    assert store2.pending_partitions("g") == {("in", 1)}


def test_failed_markers_are_retried_by_tick():
    c, _, markers = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    c.add_partitions("a", pid, ep, [("t", 0)], 2)
    markers.fail_after = 0
    with pytest.raises(RuntimeError):
        c.end_txn("a", pid, ep, True, 3)
    assert c.txns["a"].state is S.PREPARE_COMMIT
    assert c.end_txn("a", pid, ep, True, 4) == E.CONCURRENT_TRANSACTIONS
    markers.fail_after = None
    c.tick(5000)
    assert c.txns["a"].state is S.COMPLETE_COMMIT and markers.written == [("t", 0, pid, ep, True)]


def test_idle_transactional_ids_expire():
    log = MemLog()
    c, _, _ = make(log, transactional_id_expiration_ms=100_000)
    c.init_producer_id("idle", 60000, now_ms=0)
    _, pid, ep = c.init_producer_id("busy", 60000, now_ms=0)
    c.add_partitions("busy", pid, ep, [("t", 0)], 1)
    assert c.expire_transactional_ids(200_000) == ["idle"]
    c2, _, _ = make(log)
    c2.load_all(200_001)
    assert set(c2.txns) == {"busy"}


def test_stale_expected_epoch_during_an_open_transaction_fences_like_kafka():
    # Kafka checks only the producer id before fencing an open transaction, so a stale
    # expected epoch there answers CONCURRENT_TRANSACTIONS (seen on Kafka 4.3), not PRODUCER_FENCED
    c, _, markers = make()
    _, pid, ep = c.init_producer_id("a", 60000, now_ms=1)
    c.init_producer_id("a", 60000, pid, ep, now_ms=2)
    c.add_partitions("a", pid, ep + 1, [("t", 0)], 3)
    assert c.init_producer_id("a", 60000, pid, ep, now_ms=4)[0] == E.CONCURRENT_TRANSACTIONS
    assert markers.written == [("t", 0, pid, ep + 2, False)]
    # another producer id altogether is fenced
    assert c.init_producer_id("a", 60000, pid + 7, 0, now_ms=5)[0] == E.PRODUCER_FENCED
