"""A commit of many real partitions makes its records before its atomic step (issue 27 fairness):
OffsetCommit and TxnOffsetCommit stage their offsets (OffsetAndMetadata, records, the batch's
records section) STEP_ENTRIES a step, OffsetDelete makes its tombstones' keys so, and only the
checks against the group's state, the one write and the apply are left for the commit's own step.
The commit stays atomic (one record batch, written in that step and in no other) and its answer,
offsets and records are those the same commit made in one piece gives."""
from inproc_broker import call, start_broker
from inproc_broker import drive as _drive
from test_txn_offset_commit_steps import _begin, _end

from odradek.api_handlers.context import STEP_ENTRIES, Stepped
from odradek.controller.steps import whole
from odradek.coordinator import offset_store
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import (create_topics_request as ct, find_coordinator_request as fc,
                                   offset_commit_request as oc, offset_delete_request as od,
                                   offset_fetch_request as of, txn_offset_commit_request as tc)

TOPICS = ["s0", "s1", "s2"]
PARTITIONS = 250  # each topic's: 750 real partitions, more than STEP_ENTRIES
KNOWN = len(TOPICS) * PARTITIONS
BIG = "x" * 5000  # above offset.metadata.max.bytes (4096): OFFSET_METADATA_TOO_LARGE
TOO_LARGE = len(TOPICS) * len(range(7, PARTITIONS, 100))  # the partitions committed with BIG


def _setup(b, keys):
    created = _drive(b, call(b, "create_topics", ct.CreateTopicsRequest(topics=[
        ct.CreatableTopic(name=t, num_partitions=PARTITIONS, replication_factor=1) for t in TOPICS],
        timeout_ms=1000), 7))[0]
    assert [t.error_code for t in created.plain(7).topics] == [0] * len(TOPICS)
    for key, key_type in keys:
        assert call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]),
                    6).coordinators[0].error_code == 0


def _metadata(p: int) -> str:
    return BIG if p % 100 == 7 else f"m{p}"


def _commit_request(group, topics, generation=-1, member=""):
    return oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=generation, member_id=member,
                                  topics=[oc.OffsetCommitRequestTopic(name=t, partitions=[
                                      oc.OffsetCommitRequestPartition(partition_index=p,
                                                                      committed_offset=100 * TOPICS.index(t) + p,
                                                                      committed_leader_epoch=-1,
                                                                      committed_metadata=_metadata(p))
                                      for p in range(PARTITIONS)]) for t in topics])


def _log_end(b, group):
    return b.groups.log.end_offset(b.groups.partition_for(group))


def _stepped(b, resp, group):
    """Drive a Stepped through its steps: (the response, its steps, the steps in which the group's
    partition of __consumer_offsets grew)."""
    assert isinstance(resp, Stepped)
    steps, grew = 0, []
    while isinstance(resp, Stepped):
        steps += 1
        end = _log_end(b, group)
        done = resp.step(b.clock_ms())
        if _log_end(b, group) != end:
            grew.append(steps)
        if done is not None:
            resp = done
    return resp, steps, grew


def _batches(b, group, since):
    return [(h, recs) for h, recs in b.groups.log.read_batches(b.groups.partition_for(group))
            if h.base_offset >= since and not h.is_control]


def _records(batch):
    h, recs = batch
    return (h.base_timestamp, h.max_timestamp, h.producer_id, h.producer_epoch, h.is_transactional,
            [(r.key, r.value, r.offset_delta, r.timestamp_delta) for r in recs])


def _fetch(b, group):
    r = call(b, "offset_fetch", of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(
        group_id=group, topics=[of.OffsetFetchRequestTopics(name=t, partition_indexes=list(range(PARTITIONS)))
                                for t in TOPICS])], require_stable=False), 8)
    while isinstance(r, Stepped):
        r = r.step(b.clock_ms()) or r
    return [(t.name, [(p.partition_index, p.committed_offset, p.metadata) for p in t.partitions])
            for t in r.groups[0].topics]


def test_keyed_records_frame_the_batch_build_batch_makes():
    recs = [(b"k%d" % i, None if i % 3 == 0 else b"v" * i) for i in range(700)]
    made = wire_records.KeyedRecords(1234)
    made.add(recs[:300])
    made.add(recs[300:])
    assert list(made) == recs
    assert made.batch() == wire_records.build_batch([(k, v, (), 1234) for k, v in recs], base_timestamp=1234)
    assert made.batch(producer_id=7, producer_epoch=2, is_transactional=True) == wire_records.build_batch(
        [(k, v, (), 1234) for k, v in recs], base_timestamp=1234, producer_id=7, producer_epoch=2,
        is_transactional=True)
    # keyless records at a base offset and leader epoch (raft.codec.Prepared, a metadata batch): the same bytes
    keyless = wire_records.KeyedRecords(1234)
    for i in range(0, 700, 250):
        keyless.add([(None, v) for _, v in recs[i:i + 250]])
    assert keyless.batch(base_offset=4242, partition_leader_epoch=7) == wire_records.build_batch(
        [(None, v, (), 1234) for _, v in recs], base_timestamp=1234, base_offset=4242, partition_leader_epoch=7)


def test_a_large_offset_commit_stages_its_records_before_its_one_write(tmp_path):
    b = start_broker(tmp_path)
    try:
        _setup(b, [("g", 0), ("g-alone", 0), ("late", 0)])
        end = _log_end(b, "g")
        resp, steps, grew = _stepped(b, call(b, "offset_commit", _commit_request("g", TOPICS), 8), "g")
        # checked (KNOWN), staged (KNOWN), a step of its own for the commit, answered (KNOWN)
        assert steps == 2 * KNOWN // STEP_ENTRIES + KNOWN // STEP_ENTRIES + 1
        # written in one step, the one after the staging: one batch of every offset
        assert grew == [2 * (KNOWN // STEP_ENTRIES) + 1]
        written = _batches(b, "g", end)
        assert [len(recs) for _, recs in written] == [KNOWN - TOO_LARGE]
        # the answer of each topic committed alone (staged and written in one piece)
        alone = [t for name in TOPICS for t in _drive(b, call(b, "offset_commit", _commit_request("g-alone", [name]),
                                                              8))[0].plain(8).topics]
        assert resp.plain(8).topics == alone
        assert {(p.partition_index % 100 == 7, p.error_code) for t in alone for p in t.partitions} == {
            (False, 0), (True, 12)}  # OFFSET_METADATA_TOO_LARGE
        assert _fetch(b, "g") == _fetch(b, "g-alone")
        assert [(k[0], k[1]) for k in _fetch(b, "g")[0][1][:3]] == [(0, 0), (1, 1), (2, 2)]
        # the same records as the commit made in one piece (the coordinator staging them itself)
        offsets = {(t, p): (100 * i + p, -1, _metadata(p)) for i, t in enumerate(TOPICS) for p in range(PARTITIONS)}
        ids = {t: b.controller.image.topics[t].topic_id for t in TOPICS}
        again = _log_end(b, "g")
        b.groups.commit_offsets("g", -1, "", None, offsets, b.clock_ms(), api_version=8, topic_ids=ids)
        assert [_records(x) for x in _batches(b, "g", again)] == [_records(x) for x in written]
        # checked at the moment of the write: a member's commit to a group that does not exist is
        # refused for every partition after its staging, nothing written
        end = _log_end(b, "late")
        resp, steps, grew = _stepped(b, call(b, "offset_commit", _commit_request("late", TOPICS, 3, "m"), 8), "late")
        assert grew == [] and _batches(b, "late", end) == []
        assert {p.error_code for t in resp.plain(8).topics for p in t.partitions} == {22}  # ILLEGAL_GENERATION
    finally:
        b.close()


def test_staged_offsets_are_those_of_the_commit_made_in_one_piece(tmp_path):
    """The coordinator's stage_offsets + commit_offsets(staged=) and commit_offsets alone: the same
    answer, the same offsets, the same records."""
    b = start_broker(tmp_path)
    try:
        _setup(b, [("a", 0), ("b", 0)])
        offsets = {(t, p): (p, 3, _metadata(p)) for t in TOPICS for p in range(PARTITIONS)}
        ids = {t: b.controller.image.topics[t].topic_id for t in TOPICS}
        now = b.clock_ms()
        staged = whole(b.groups.stage_offsets("a", offsets, now, 5000, ids))
        assert isinstance(staged.records, wire_records.KeyedRecords)
        got_a = b.groups.commit_offsets("a", -1, "", None, offsets, now, 5000, 4, ids, staged=staged)
        got_b = b.groups.commit_offsets("b", -1, "", None, offsets, now, 5000, 4, ids)
        assert got_a == got_b
        assert b.groups.committed("a") == b.groups.committed("b")
        assert len(b.groups.committed("a")) == KNOWN - TOO_LARGE
    finally:
        b.close()


def _txn_request(tid, pid, epoch, group):
    return tc.TxnOffsetCommitRequest(
        transactional_id=tid, group_id=group, producer_id=pid, producer_epoch=epoch, generation_id=-1, member_id="",
        topics=[tc.TxnOffsetCommitRequestTopic(name=t, partitions=[tc.TxnOffsetCommitRequestPartition(
            partition_index=p, committed_offset=100 * i + p, committed_leader_epoch=-1, committed_metadata=_metadata(p))
            for p in range(PARTITIONS)]) for i, t in enumerate(TOPICS)])


def test_a_large_txn_offset_commit_stages_its_records_before_its_one_write(tmp_path):
    b = start_broker(tmp_path)
    try:
        _setup(b, [("g", 0), ("g-alone", 0), ("x", 1), ("x-alone", 1)])
        pid, epoch = _begin(b, "x", group="g")
        end = _log_end(b, "g")
        resp, steps, grew = _stepped(b, call(b, "txn_offset_commit", _txn_request("x", pid, epoch, "g"), 4), "g")
        # checked (KNOWN), staged (KNOWN), a step of its own for the commit; answered in a count of its own
        assert steps == KNOWN // STEP_ENTRIES + KNOWN // STEP_ENTRIES + 1 + KNOWN // STEP_ENTRIES
        assert grew == [2 * (KNOWN // STEP_ENTRIES) + 1]
        written = _batches(b, "g", end)
        assert [(h.is_transactional, h.producer_id, h.producer_epoch, len(recs)) for h, recs in written] == [
            (True, pid, epoch, KNOWN - TOO_LARGE)]
        alone_pid, alone_epoch = _begin(b, "x-alone", group="g-alone")
        alone = [t for name in TOPICS for t in call(b, "txn_offset_commit", tc.TxnOffsetCommitRequest(
            transactional_id="x-alone", group_id="g-alone", producer_id=alone_pid, producer_epoch=alone_epoch,
            generation_id=-1, member_id="", topics=[t for t in _txn_request("x-alone", 0, 0, "g-alone").topics
                                                     if t.name == name]), 4).plain(4).topics]
        assert resp.plain(4).topics == alone
        assert _fetch(b, "g") == [(t, [(p, -1, "") for p in range(PARTITIONS)]) for t in TOPICS]  # pending
        _end(b, "x", pid, epoch, True)
        _end(b, "x-alone", alone_pid, alone_epoch, True)
        assert _fetch(b, "g") == _fetch(b, "g-alone")
        assert _fetch(b, "g")[1][1][:2] == [(0, 100, "m0"), (1, 101, "m1")]
    finally:
        b.close()


def _delete_request(group, topics):
    return od.OffsetDeleteRequest(group_id=group, topics=[od.OffsetDeleteRequestTopic(
        name=t, partitions=[od.OffsetDeleteRequestPartition(partition_index=p) for p in range(PARTITIONS)])
        for t in topics])


def test_a_large_offset_delete_makes_its_keys_before_its_one_write(tmp_path):
    b = start_broker(tmp_path)
    try:
        _setup(b, [("g", 0), ("g-alone", 0)])
        for group in ("g", "g-alone"):
            _stepped(b, call(b, "offset_commit", _commit_request(group, TOPICS), 8), group)
        end = _log_end(b, "g")
        resp, steps, grew = _stepped(b, call(b, "offset_delete", _delete_request("g", TOPICS), 0), "g")
        # checked (KNOWN), keys (KNOWN), a step of its own for the deletion, answered (KNOWN)
        assert steps == 2 * KNOWN // STEP_ENTRIES + KNOWN // STEP_ENTRIES + 1
        assert grew == [2 * (KNOWN // STEP_ENTRIES) + 1]
        written = _batches(b, "g", end)
        assert [(len(recs), {r.value for r in recs}) for _, recs in written] == [(KNOWN - TOO_LARGE, {None})]
        alone = [t for name in TOPICS for t in _drive(b, call(b, "offset_delete", _delete_request("g-alone", [name]),
                                                              0))[0].plain(0).topics]
        assert resp.plain(0).topics == alone and resp.error_code == 0
        assert {p.error_code for t in alone for p in t.partitions} == {0}
        assert _fetch(b, "g") == _fetch(b, "g-alone") == [(t, [(p, -1, "") for p in range(PARTITIONS)])
                                                          for t in TOPICS]
    finally:
        b.close()


def test_staged_offsets_without_the_partitions_the_check_refused():
    """A member whose older epoch the group refuses for some partitions (consumer groups): those are
    left out of the write, the others keep their staged records (a plain list: their section no
    longer matches)."""
    offsets = {("t", p): (p, -1, "") for p in range(3)}
    st = whole(offset_store.stage_steps("g", offsets, 5, None, 4096, encode=True))
    assert isinstance(st.records, wire_records.KeyedRecords)
    assert st.without({}) == (st.staged, st.records)
    staged, records = st.without({("t", 1): ErrorCode.STALE_MEMBER_EPOCH})
    assert list(staged) == [("t", 0), ("t", 2)]
    assert records == [st.records[0], st.records[2]] and not isinstance(records, wire_records.KeyedRecords)
