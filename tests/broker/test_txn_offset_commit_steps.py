"""TxnOffsetCommit answers a large request in steps (issue 27 fairness: context.in_steps, each step a
coordinator event, broker/coordinator_events.py): its partitions checked against the metadata
STEP_ENTRIES a step, the coordinator's commit one step (its checks and the one write of every
offset: one transactional record batch), the answer STEP_ENTRIES partitions a step. The answer is
the one each topic committed alone gets, in Kafka's TxnOffsetCommitResponse.Builder order (the
partitions refused before the coordinator first, then the coordinator's answer merged in); the offsets become visible with the commit marker and go
with the abort marker."""
from inproc_broker import call, start_broker
from inproc_broker import drive as _drive

from odradek.api_handlers.context import STEP_ENTRIES, Stepped
from odradek.wire.messages import (add_offsets_to_txn_request as ao, create_topics_request as ct,
                                   end_txn_request as et, find_coordinator_request as fc,
                                   init_producer_id_request as ip, offset_fetch_request as of,
                                   txn_offset_commit_request as tc)

TOPICS = [f"t{i}" for i in range(10)]
PER_TOPIC = 400  # partitions committed of each topic: 3 exist, the rest do not
GROUP = "g"


def _setup(b, keys):
    created = _drive(b, call(b, "create_topics", ct.CreateTopicsRequest(topics=[
        ct.CreatableTopic(name=t, num_partitions=3, replication_factor=1) for t in TOPICS], timeout_ms=1000), 7))[0]
    assert [t.error_code for t in created.plain(7).topics] == [0] * len(TOPICS)
    for key, key_type in keys:
        assert call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]),
                    6).coordinators[0].error_code == 0


def _begin(b, tid, group=GROUP) -> tuple[int, int]:
    """An ongoing transaction of ``tid`` holding ``group``'s offsets (InitProducerId, AddOffsetsToTxn)."""
    r = call(b, "init_producer_id", ip.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000,
                                                              producer_id=-1, producer_epoch=-1), 4)
    assert r.error_code == 0
    a = call(b, "add_offsets_to_txn", ao.AddOffsetsToTxnRequest(transactional_id=tid, producer_id=r.producer_id,
                                                                producer_epoch=r.producer_epoch, group_id=group), 3)
    assert a.error_code == 0
    return r.producer_id, r.producer_epoch


def _request(tid, pid, epoch, topics, partitions=PER_TOPIC, group=GROUP):
    return tc.TxnOffsetCommitRequest(
        transactional_id=tid, group_id=group, producer_id=pid, producer_epoch=epoch, generation_id=-1, member_id="",
        topics=[tc.TxnOffsetCommitRequestTopic(name=t, partitions=[tc.TxnOffsetCommitRequestPartition(
            partition_index=p, committed_offset=10 * i + p, committed_leader_epoch=-1, committed_metadata=f"m{p}")
            for p in range(partitions)]) for i, t in enumerate(topics)])


def _end(b, tid, pid, epoch, commit: bool) -> None:
    r = call(b, "end_txn", et.EndTxnRequest(transactional_id=tid, producer_id=pid, producer_epoch=epoch,
                                            committed=commit), 3)
    assert r.error_code == 0


def _committed(b, group=GROUP) -> dict:
    r = call(b, "offset_fetch", of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(
        group_id=group, topics=[of.OffsetFetchRequestTopics(name=t, partition_indexes=[0, 1, 2]) for t in TOPICS])],
        require_stable=False), 8)
    return {(t.name, p.partition_index): p.committed_offset for t in r.groups[0].topics for p in t.partitions
            if p.committed_offset >= 0}


def _txn_batches(b, since: int) -> list[int]:
    """The record counts of the transactional data batches of GROUP's offsets partition from ``since``."""
    return [len(recs) for h, recs in b.groups.log.read_batches(b.groups.partition_for(GROUP))
            if h.base_offset >= since and h.is_transactional and not h.is_control]


def test_txn_offset_commit_answers_in_steps_and_its_offsets_go_with_the_marker(tmp_path):
    b = start_broker(tmp_path)
    try:
        _setup(b, [(GROUP, 0), ("x", 1), ("x-alone", 1)])
        entries, known = len(TOPICS) * PER_TOPIC, 3 * len(TOPICS)
        for commit in (False, True):
            pid, epoch = _begin(b, "x")
            end = b.groups.log.end_offset(b.groups.partition_for(GROUP))
            resp = call(b, "txn_offset_commit", _request("x", pid, epoch, TOPICS), 4)
            assert isinstance(resp, Stepped)
            resp, steps = _drive(b, resp)
            # every partition checked, then every partition answered (the commit in one of them)
            assert steps == 2 * entries // STEP_ENTRIES
            # its 30 offsets: one transactional record batch (Kafka: one atomic CoordinatorResult)
            assert _txn_batches(b, end) == [known]
            alone_pid, alone_epoch = _begin(b, "x-alone", group="g-alone")
            alone = [t for name in TOPICS for t in call(b, "txn_offset_commit", _request(
                "x-alone", alone_pid, alone_epoch, [name], group="g-alone"), 4).plain(4).topics]
            _end(b, "x-alone", alone_pid, alone_epoch, False)
            assert [(t.name, [(p.partition_index, p.error_code) for p in t.partitions])
                    for t in resp.plain(4).topics] == [(t.name, [(p.partition_index, p.error_code)
                                                                 for p in t.partitions]) for t in alone]
            assert {(p.partition_index < 3, p.error_code) for t in resp.topics for p in t.partitions} == {
                (True, 0), (False, 3)}
            before = _committed(b)
            _end(b, "x", pid, epoch, commit)
            after = _committed(b)
            if commit:
                assert after == {(t, p): 10 * i + p for i, t in enumerate(TOPICS) for p in range(3)}
            else:
                assert before == after == {}
    finally:
        b.close()


def test_a_small_txn_offset_commit_is_answered_at_once(tmp_path):
    b = start_broker(tmp_path)
    try:
        _setup(b, [(GROUP, 0), ("x", 1)])
        pid, epoch = _begin(b, "x")
        resp = call(b, "txn_offset_commit", _request("x", pid, epoch, TOPICS[:1], STEP_ENTRIES - 1), 4)
        assert not isinstance(resp, Stepped)
        assert [(p.partition_index, p.error_code) for p in resp.topics[0].partitions] == (  # (Kafka's Builder)
            [(p, 3) for p in range(3, STEP_ENTRIES - 1)] + [(p, 0) for p in range(3)])
        # a fenced producer's commit in steps: every known partition gets the error, nothing is written
        end = b.groups.log.end_offset(b.groups.partition_for(GROUP))
        resp, steps = _drive(b, call(b, "txn_offset_commit", _request("x", pid, epoch - 1, TOPICS[:1],
                                                                      STEP_ENTRIES), 4))
        assert steps == 2
        assert {(p.partition_index < 3, p.error_code) for p in resp.topics[0].partitions} == {
            (True, 47), (False, 3)}  # INVALID_PRODUCER_EPOCH
        assert _txn_batches(b, end) == []
    finally:
        b.close()


def test_a_large_txn_offset_commit_over_a_connection_is_an_event_a_step(tmp_path):
    """A client's TxnOffsetCommit of 4,000 partitions (30 of them existing) through a real connection:
    each of its steps is a coordinator event, its offsets one record batch, visible once committed."""
    from test_server import Client, Running

    r = Running(tmp_path, **{"offsets.topic.num.partitions": "1", "transaction.state.log.num.partitions": "1"})
    try:
        c = Client(r.port)
        created = c.call(ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
            name=t, num_partitions=3, replication_factor=1) for t in TOPICS], timeout_ms=10000), 7)
        assert {t.error_code for t in created.topics} == {0}
        for key, key_type in ((GROUP, 0), ("x", 1)):
            while c.call(fc.FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]),
                         6).coordinators[0].error_code:
                pass  # (until the internal topic is led and loaded)
        init = c.call(ip.InitProducerIdRequest(transactional_id="x", transaction_timeout_ms=60000,
                                               producer_id=-1, producer_epoch=-1), 4)
        pid, epoch = init.producer_id, init.producer_epoch
        assert c.call(ao.AddOffsetsToTxnRequest(transactional_id="x", producer_id=pid, producer_epoch=epoch,
                                                group_id=GROUP), 3).error_code == 0
        broker = r.server.broker
        events = broker.coordinator_events
        events.slice_s = 0.0  # one event a slice
        end = broker.groups.log.end_offset(0)
        slices = events.slices
        resp = c.call(_request("x", pid, epoch, TOPICS), 4)
        assert events.slices - slices == 1 + 2 * len(TOPICS) * PER_TOPIC // STEP_ENTRIES
        assert [(t.name, [(p.partition_index, p.error_code) for p in t.partitions]) for t in resp.topics] == [
            (t, [(p, 3) for p in range(3, PER_TOPIC)] + [(p, 0) for p in range(3)]) for t in TOPICS]  # (Kafka's Builder)
        assert [len(recs) for h, recs in broker.groups.log.read_batches(0)
                if h.base_offset >= end and h.is_transactional and not h.is_control] == [3 * len(TOPICS)]
        assert c.call(et.EndTxnRequest(transactional_id="x", producer_id=pid, producer_epoch=epoch,
                                       committed=True), 3).error_code == 0
        fetch = of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(group_id=GROUP, topics=[
            of.OffsetFetchRequestTopics(name=t, partition_indexes=[0, 1, 2]) for t in TOPICS])], require_stable=True)
        fetched = c.call(fetch, 8)
        while any(p.error_code == 88 for t in fetched.groups[0].topics for p in t.partitions):
            fetched = c.call(fetch, 8)  # (UNSTABLE_OFFSET_COMMIT until the marker is written)
        assert {(t.name, p.partition_index): p.committed_offset for t in fetched.groups[0].topics
                for p in t.partitions} == {(t, p): 10 * i + p for i, t in enumerate(TOPICS) for p in range(3)}
    finally:
        r.stop()
