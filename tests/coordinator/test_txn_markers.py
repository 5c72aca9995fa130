"""Marker delivery across brokers (coordinator/txn_markers.py, Kafka's TransactionMarkerChannelManager
decisions): grouping by leader, retries on leader moves and lost brokers, deleted partitions,
fencing; and the coordinator recording Complete* only once every marker is written."""
from __future__ import annotations

import random

from odradek.coordinator import txn_records as rec
from odradek.coordinator.txn_coordinator import TxnCoordinator
from odradek.coordinator.txn_markers import NO_LEADER, MarkerDelivery, TxnMarkers
from odradek.coordinator.txn_records import TxnState as S
from odradek.wire.errors import ErrorCode as E

from txn_fakes import MemLog

TPS = frozenset({("a", 0), ("a", 1), ("b", 0), ("__consumer_offsets", 7)})


def txn(tid="t1", pid=5, epoch=2, commit=True, tps=TPS) -> TxnMarkers:
    return TxnMarkers(tid, pid, epoch, commit, frozenset(tps))


def owned(_txn, _epoch):
    return True


def answer(send, code=0, only=None):
    """A leader's answer: ``code`` for every partition of the request (or those in ``only``)."""
    return {(b.txn.producer_id, tp): code for b in send.batches for tp in b.partitions if only is None or tp in only}


def test_one_request_per_leader_and_completion_after_every_answer():
    d = MarkerDelivery()
    leaders = {("a", 0): 1, ("a", 1): 2, ("b", 0): 1, ("__consumer_offsets", 7): 3}
    d.add(txn(), coordinator_epoch=4)
    sends, done = d.poll(leaders.get, owned, 0)
    assert done == []
    assert [(s.broker_id, [(b.coordinator_epoch, b.partitions) for b in s.batches]) for s in sends] == [
        (1, [(4, (("a", 0), ("b", 0)))]), (2, [(4, (("a", 1),))]), (3, [(4, (("__consumer_offsets", 7),))])]
    assert d.poll(leaders.get, owned, 1) == ([], [])  # in flight: nothing sent twice
    d.on_response(sends[0], answer(sends[0]), 2)
    d.on_response(sends[1], answer(sends[1]), 2)
    assert d.poll(leaders.get, owned, 3) == ([], [])
    d.on_response(sends[2], answer(sends[2]), 4)
    assert d.poll(leaders.get, owned, 5) == ([], [txn()])
    assert len(d) == 0


def test_not_leader_is_retried_at_the_new_leader_after_the_backoff():
    d = MarkerDelivery(retry_backoff_ms=100)
    leaders = {("a", 0): 1}
    d.add(txn(tps={("a", 0)}), 0)
    [s] = d.poll(leaders.get, owned, 0)[0]
    d.on_response(s, answer(s, E.NOT_LEADER_OR_FOLLOWER), 10)
    leaders[("a", 0)] = 2  # the leadership moved
    assert d.poll(leaders.get, owned, 50) == ([], [])  # backing off
    [s2] = d.poll(leaders.get, owned, 110)[0]
    assert s2.broker_id == 2
    d.on_response(s2, answer(s2), 120)
    assert d.poll(leaders.get, owned, 130)[1] == [txn(tps={("a", 0)})]


def test_retriable_errors_and_missing_partitions_are_retried():
    for code in (E.UNKNOWN_TOPIC_OR_PARTITION, E.NOT_ENOUGH_REPLICAS, E.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
                 E.REQUEST_TIMED_OUT, E.KAFKA_STORAGE_ERROR, None):
        d = MarkerDelivery(retry_backoff_ms=0)
        d.add(txn(tps={("a", 0), ("a", 1)}), 0)
        [s] = d.poll(lambda tp: 1, owned, 0)[0]
        d.on_response(s, answer(s, 0, only={("a", 1)}) | ({} if code is None else {(5, ("a", 0)): code}), 1)
        [s2] = d.poll(lambda tp: 1, owned, 2)[0]
        assert s2.batches[0].partitions == (("a", 0),), code
        d.on_response(s2, answer(s2), 3)
        assert d.poll(lambda tp: 1, owned, 4)[1] == [txn(tps={("a", 0), ("a", 1)})]


def test_a_broker_down_retries_and_a_partition_without_leader_waits():
    d = MarkerDelivery(retry_backoff_ms=0)
    leaders = {("a", 0): 3}
    d.add(txn(tps={("a", 0)}), 0)
    [s] = d.poll(leaders.get, owned, 0)[0]
    d.on_failure(s, 1)  # connection lost, no answer
    leaders[("a", 0)] = NO_LEADER  # the controller has not elected a new leader yet
    assert d.poll(leaders.get, owned, 2) == ([], [])
    leaders[("a", 0)] = 1
    [s2] = d.poll(leaders.get, owned, 3)[0]
    assert s2.broker_id == 1
    d.on_response(s2, answer(s2), 4)
    assert d.poll(leaders.get, owned, 5)[1] == [txn(tps={("a", 0)})]


def test_deleted_partitions_need_no_marker():
    d = MarkerDelivery()
    leaders = {("a", 0): 1}  # ("a", 1), ("b", 0) and the offsets partition are gone from the metadata
    d.add(txn(), 0)
    [s] = d.poll(leaders.get, owned, 0)[0]
    assert s.batches[0].partitions == (("a", 0),)
    del leaders[("a", 0)]  # deleted while its marker was in flight: the answer says UNKNOWN, then it is gone
    d.on_response(s, answer(s, E.UNKNOWN_TOPIC_OR_PARTITION), 1)
    assert d.poll(leaders.get, owned, 200) == ([], [txn()])


def test_fenced_or_moved_coordinator_drops_the_markers():
    for code in (E.INVALID_PRODUCER_EPOCH, E.TRANSACTION_COORDINATOR_FENCED, E.CORRUPT_MESSAGE):
        d = MarkerDelivery(retry_backoff_ms=0)
        d.add(txn(tps={("a", 0), ("a", 1)}), 0)
        [s] = d.poll(lambda tp: 1, owned, 0)[0]
        d.on_response(s, answer(s, 0, only={("a", 1)}) | {(5, ("a", 0)): code}, 1)
        assert d.poll(lambda tp: 1, owned, 2) == ([], []) and len(d) == 0, code
    d = MarkerDelivery()
    d.add(txn(), 3)
    assert d.poll(lambda tp: 1, lambda t, epoch: epoch > 3, 0) == ([], []) and len(d) == 0


def test_an_answer_for_replaced_markers_is_ignored():
    d = MarkerDelivery(retry_backoff_ms=0)
    d.add(txn(tps={("a", 0)}), 0)
    [old] = d.poll(lambda tp: 1, owned, 0)[0]
    d.add(txn(epoch=3, commit=False, tps={("a", 0)}), 0)  # reloaded and sent again (a new coordinator epoch)
    d.on_response(old, answer(old), 1)
    [new] = d.poll(lambda tp: 1, owned, 2)[0]
    assert new.batches[0].txn.producer_epoch == 3
    d.on_response(new, answer(new), 3)
    assert d.poll(lambda tp: 1, owned, 4)[1] == [txn(epoch=3, commit=False, tps={("a", 0)})]


def test_seeded_delivery_completes_only_after_every_live_partition_is_marked():
    """Random leader moves, lost brokers, retriable errors and deletions: a transaction completes
    exactly once, and only after each partition still in the metadata got a marker from a leader."""
    for seed in range(300):
        rnd = random.Random(seed)
        tps = {("t", i) for i in range(rnd.randint(1, 8))}
        leaders = {tp: rnd.choice([1, 2, 3]) for tp in tps}
        written: set = set()
        d = MarkerDelivery(retry_backoff_ms=rnd.choice([0, 50]))
        d.add(txn(tps=tps), 0)
        completed = []
        inflight = []
        for now in range(0, 100_000, 10):
            if rnd.random() < 0.1 and leaders:
                tp = rnd.choice(sorted(leaders))
                leaders[tp] = rnd.choice([1, 2, 3, NO_LEADER])
            if rnd.random() < 0.01 and leaders:
                del leaders[rnd.choice(sorted(leaders))]
            sends, done = d.poll(leaders.get, owned, now)
            completed += done
            inflight += sends
            if done:
                break
            rnd.shuffle(inflight)
            keep = []
            for s in inflight:
                r = rnd.random()
                if r < 0.2:
                    d.on_failure(s, now)
                elif r < 0.8:
                    errs = {}
                    for b in s.batches:
                        for tp in b.partitions:
                            if leaders.get(tp) == s.broker_id and rnd.random() < 0.8:
                                errs[(b.txn.producer_id, tp)] = 0
                                written.add(tp)
                            else:
                                errs[(b.txn.producer_id, tp)] = rnd.choice(
                                    [E.NOT_LEADER_OR_FOLLOWER, E.REQUEST_TIMED_OUT, E.NOT_ENOUGH_REPLICAS])
                    d.on_response(s, errs, now)
                else:
                    keep.append(s)
            inflight = keep
        assert completed == [txn(tps=tps)], seed
        assert set(leaders) <= written, seed


def make_coordinator():
    sent = []
    pids = iter(range(1000, 2000))
    c = TxnCoordinator(log=MemLog(), allocate_producer_id=lambda: next(pids),
                       write_marker=lambda *a: (_ for _ in ()).throw(AssertionError("no local writes")),
                       send_markers=sent.append)
    return c, sent


def test_the_coordinator_completes_only_when_the_channel_reports_the_markers_written():
    c, sent = make_coordinator()
    _, pid, ep = c.init_producer_id("x", 60000, now_ms=1)
    assert c.add_partitions("x", pid, ep, [("a", 0), ("b", 3)], 2) == E.NONE
    assert c.end_txn("x", pid, ep, True, 3) == E.NONE  # answered once PrepareCommit is written
    assert sent == [TxnMarkers("x", pid, ep, True, frozenset({("a", 0), ("b", 3)}), 0)]
    m = c.txns["x"]
    assert m.state is S.PREPARE_COMMIT and m.pending
    assert c.add_partitions("x", pid, ep, [("a", 1)], 4) == E.CONCURRENT_TRANSACTIONS
    assert c.end_txn("x", pid, ep, True, 4) == E.CONCURRENT_TRANSACTIONS
    c.tick(10_000)  # nothing is sent again while the channel has it
    assert len(sent) == 1
    # markers for another incarnation complete nothing
    assert not c.markers_written(TxnMarkers("x", pid, ep + 1, True, frozenset({("a", 0)})), 5)
    assert c.markers_written(sent[0], 6)
    assert m.state is S.COMPLETE_COMMIT and not m.pending and m.partitions == set()
    states = [rec.decode_value("x", v).state for _, _, v in c.log.read(c.partition_for("x"))]
    assert states == [S.EMPTY, S.ONGOING, S.PREPARE_COMMIT, S.COMPLETE_COMMIT]
    assert c.end_txn("x", pid, ep, True, 7) == E.NONE  # a retried commit


def test_an_empty_abort_completes_without_the_channel_and_a_reload_resends():
    c, sent = make_coordinator()
    _, pid, ep = c.init_producer_id("y", 60000, now_ms=1)
    err, pid2, ep2 = c.end_txn_tv2("y", pid, ep, False, 2)  # TV2: an abort with nothing added
    assert err == E.NONE and sent == [] and c.txns["y"].state is S.COMPLETE_ABORT
    assert c.add_partitions("y", pid2, ep2, [("a", 0)], 3, client_tv=2) == E.NONE
    err, pid3, ep3 = c.end_txn_tv2("y", pid2, ep2, False, 4)
    assert err == E.NONE and sent[-1] == TxnMarkers("y", pid2, ep3, False, frozenset({("a", 0)}), 2)
    # the coordinator's broker dies before the markers are written: the next coordinator reloads
    c2 = TxnCoordinator(log=c.log, send_markers=sent.append)
    c2.load_all(5)
    resent = sent[-1]
    assert (resent.producer_id, resent.producer_epoch, resent.commit, resent.partitions) == \
        (pid2, ep3, False, frozenset({("a", 0)})) and c2.txns["y"].state is S.PREPARE_ABORT
    assert c2.markers_written(sent[-1], 6) and c2.txns["y"].state is S.COMPLETE_ABORT
