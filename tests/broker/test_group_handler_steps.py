"""OffsetFetch, OffsetDelete and DeleteGroups answer a large request in steps (issue 27 fairness:
context.in_steps, the broker serving other clients between them): OffsetFetch and OffsetDelete
STEP_ENTRIES partitions a step (the coordinator's read, or its deletion and write, in one piece),
DeleteGroups GROUPS_PER_STEP groups a step. The answer is the one the same partitions (groups)
get asked a few at a time, and a small request is answered at once."""
from inproc_broker import call, start_broker
from inproc_broker import drive as _drive

from odradek.api_handlers.context import STEP_ENTRIES, Stepped
from odradek.api_handlers.delete_groups import GROUPS_PER_STEP
from odradek.wire.messages import (create_topics_request as ct, delete_groups_request as dg,
                                   find_coordinator_request as fc, offset_commit_request as oc,
                                   offset_delete_request as od, offset_fetch_request as of)

TOPICS = [f"t{i}" for i in range(10)]
PER_TOPIC = 400  # partitions asked of each topic: 3 exist, the rest do not


def _setup(b, groups):
    created = call(b, "create_topics", ct.CreateTopicsRequest(topics=[
        ct.CreatableTopic(name=t, num_partitions=3, replication_factor=1) for t in TOPICS], timeout_ms=1000), 7)
    created = _drive(b, created)[0].plain(7)
    assert [t.error_code for t in created.topics] == [0] * len(TOPICS)
    for g in groups:
        assert call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=[g]),
                    6).coordinators[0].error_code == 0


def _commit(b, group, topics, partitions=range(3)):
    r = call(b, "offset_commit", oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1,
                                                        member_id="", topics=[oc.OffsetCommitRequestTopic(
        name=t, partitions=[oc.OffsetCommitRequestPartition(partition_index=p, committed_offset=10 * i + p,
                                                            committed_leader_epoch=-1, committed_metadata=f"m{p}")
                            for p in partitions]) for i, t in enumerate(topics)]), 8)
    assert {p.error_code for t in r.plain(8).topics for p in t.partitions} == {0}


def _fetch(b, group, topics, version=8):
    if version >= 8:
        return call(b, "offset_fetch", of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(
            group_id=group, topics=None if topics is None else [
                of.OffsetFetchRequestTopics(name=t, partition_indexes=list(range(PER_TOPIC))) for t in topics])],
            require_stable=False), version)
    return call(b, "offset_fetch", of.OffsetFetchRequest(group_id=group, topics=[
        of.OffsetFetchRequestTopic(name=t, partition_indexes=list(range(PER_TOPIC))) for t in topics],
        require_stable=False), version)


def _delete(b, group, topics, partitions=PER_TOPIC):
    return call(b, "offset_delete", od.OffsetDeleteRequest(group_id=group, topics=[od.OffsetDeleteRequestTopic(
        name=t, partitions=[od.OffsetDeleteRequestPartition(partition_index=p) for p in range(partitions)])
        for t in topics]), 0)


def _answered_at_once(resp, version):
    assert not isinstance(resp, Stepped)
    return resp.plain(version)


def _in_steps(b, resp, version):
    """(the answer, its steps) of a large request."""
    assert isinstance(resp, Stepped)
    resp, steps = _drive(b, resp)
    return resp.plain(version), steps


def test_offset_fetch_and_offset_delete_answer_in_steps_as_a_topic_at_a_time(tmp_path):
    b = start_broker(tmp_path)
    try:
        _setup(b, ["g", "g-alone"])
        _commit(b, "g", TOPICS)
        _commit(b, "g-alone", TOPICS)
        entries = len(TOPICS) * PER_TOPIC
        for version in (7, 8):
            resp, steps = _in_steps(b, _fetch(b, "g", TOPICS, version), version)
            # the coordinator's offsets (a copy, read at once) matched to the partitions, the answer's structs
            assert steps == 2 * entries // STEP_ENTRIES
            alone = []  # each topic alone (400 partitions: read and answered at once)
            for name in TOPICS:
                one = _answered_at_once(_fetch(b, "g", [name], version), version)
                alone += one.groups[0].topics if version >= 8 else one.topics
            assert (resp.groups[0].topics if version >= 8 else resp.topics) == alone
        answer = _in_steps(b, _fetch(b, "g", TOPICS), 8)[0].groups[0]
        assert answer.error_code == 0
        assert [(p.partition_index, p.committed_offset, p.metadata) for p in answer.topics[1].partitions[:4]] == [
            (0, 10, "m0"), (1, 11, "m1"), (2, 12, "m2"), (3, -1, "")]
        # all of the group's offsets: 30 partitions, answered at once
        everything = _answered_at_once(_fetch(b, "g", None), 8).groups[0]
        assert sum(len(t.partitions) for t in everything.topics) == 3 * len(TOPICS)

        resp, steps = _in_steps(b, _delete(b, "g", TOPICS), 0)
        assert steps == 2 * entries // STEP_ENTRIES  # the partitions split known / unknown, the answer
        alone = [t for name in TOPICS for t in _in_steps(b, _delete(b, "g-alone", [name]), 0)[0].topics]
        assert resp.error_code == 0
        assert resp.topics == alone
        assert {(p.partition_index < 3, p.error_code) for t in alone for p in t.partitions} == {(True, 0), (False, 3)}
        for group in ("g", "g-alone"):  # the offsets are gone
            gone = _answered_at_once(_fetch(b, group, None), 8).groups[0]
            assert (gone.error_code, gone.topics) == (0, [])
        small = _answered_at_once(_delete(b, "g", TOPICS[:1], STEP_ENTRIES // 2 - 1), 0)
        assert small.topics[0].partitions == alone[0].partitions[:STEP_ENTRIES // 2 - 1]
    finally:
        b.close()


def test_delete_groups_deletes_in_steps_as_a_group_at_a_time(tmp_path):
    b = start_broker(tmp_path)
    n = 5 * GROUPS_PER_STEP + 3
    many = [f"many-{i}" for i in range(n)]
    alone = [f"alone-{i}" for i in range(n)]
    try:
        _setup(b, many + alone)
        for g in many + alone:
            _commit(b, g, TOPICS[:1], [0])
        asked = many + ["missing", ""]
        resp, steps = _in_steps(b, call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=asked), 2), 2)
        assert steps == (len(asked) - 1) // GROUPS_PER_STEP
        one_by_one = [_answered_at_once(call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=[g]), 2), 2).results[0]
                      for g in alone + ["missing", ""]]
        assert [r.group_id for r in resp.results] == asked
        assert [r.error_code for r in resp.results] == [r.error_code for r in one_by_one] == [0] * n + [69, 24]
        again = _in_steps(b, call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=many), 2), 2)[0]
        assert {r.error_code for r in again.results} == {69}  # GROUP_ID_NOT_FOUND: they are gone
    finally:
        b.close()


def test_delete_groups_writes_the_tombstones_of_a_partitions_groups_together(tmp_path):
    """As Kafka's new group coordinator (one write operation per __consumer_offsets partition):
    the groups of one partition go in one batch of tombstones (their offsets', then the group's),
    a step's worth at a time (it was a batch per group)."""
    from odradek.coordinator.group_records import partition_for

    b = start_broker(tmp_path)
    on_0 = [g for g in (f"p0-{i}" for i in range(400)) if partition_for(g, 2) == 0][:2 * GROUPS_PER_STEP + 5]
    on_1 = [g for g in (f"p1-{i}" for i in range(400)) if partition_for(g, 2) == 1][:3]
    try:
        _setup(b, on_0 + on_1)
        for g in on_0 + on_1:
            _commit(b, g, TOPICS[:1], [0, 1])
        ends = [b.replicas.get("__consumer_offsets", p).log_end_offset for p in (0, 1)]
        asked = on_1 + on_0 + ["nope", on_0[0]]
        resp = _in_steps(b, call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=asked), 2), 2)[0]
        # (a group named twice: deleted once, answered once, as Kafka)
        assert [(r.group_id, r.error_code) for r in resp.results] == [(g, 0) for g in on_1 + on_0] + [("nope", 69)]
        written = [[recs for h, recs in b.groups.log.read_batches(p) if h.base_offset >= end]
                   for p, end in zip((0, 1), ends)]
        assert [len(w) for w in written] == [3, 1]  # 45 groups of partition 0: 20 a step; 3 of partition 1
        first = written[0][0]  # per group: its 2 offsets' tombstones, then the group's own
        assert len(first) == 3 * GROUPS_PER_STEP and all(r.value is None for r in first)
        assert sum(len(recs) for recs in written[0]) == 3 * len(on_0)
    finally:
        b.close()


def test_a_stepped_offset_fetch_reads_the_offsets_of_one_moment(tmp_path):
    """Commits between the steps of a large OffsetFetch: its answer holds the offsets of one of them
    for every partition, never a mix (an OffsetCommit is atomic, the coordinator's read one piece:
    a copy of the group's offsets, matched to the partitions asked in steps)."""
    b = start_broker(tmp_path)
    try:
        _setup(b, ["g"])
        _commit(b, "g", TOPICS)
        resp = _fetch(b, "g", TOPICS)
        assert isinstance(resp, Stepped)
        steps = 0
        while isinstance(resp, Stepped):
            steps += 1
            r = call(b, "offset_commit", oc.OffsetCommitRequest(
                group_id="g", generation_id_or_member_epoch=-1, member_id="", topics=[oc.OffsetCommitRequestTopic(
                    name=t, partitions=[oc.OffsetCommitRequestPartition(
                        partition_index=p, committed_offset=1000 + steps, committed_leader_epoch=-1,
                        committed_metadata="") for p in range(3)]) for t in TOPICS]), 8)
            assert {p.error_code for t in r.plain(8).topics for p in t.partitions} == {0}
            done = resp.step(b.clock_ms())
            resp = done if done is not None else resp
        assert steps == 2 * len(TOPICS) * PER_TOPIC // STEP_ENTRIES
        got = {(t.name, p.partition_index): p.committed_offset for t in resp.plain(8).groups[0].topics
               for p in t.partitions if p.partition_index < 3}
        # read when the request came (its first piece): none of the commits between its steps
        assert got == {(t, p): 10 * i + p for i, t in enumerate(TOPICS) for p in range(3)}
    finally:
        b.close()


def _commit_request(group, topics, partitions=PER_TOPIC, offset=7):
    return oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="", topics=[
        oc.OffsetCommitRequestTopic(name=t, partitions=[oc.OffsetCommitRequestPartition(
            partition_index=p, committed_offset=offset + p, committed_leader_epoch=-1, committed_metadata=f"m{p}")
            for p in range(partitions)]) for t in topics])


def test_offset_commit_answers_in_steps_as_a_topic_at_a_time(tmp_path):
    """A large OffsetCommit checks its partitions and makes its answer STEP_ENTRIES partitions a
    step; the coordinator's commit is one of them (one write of every offset): the answer is the
    one each topic committed alone gets, the offsets are committed."""
    b = start_broker(tmp_path)
    try:
        _setup(b, ["g", "g-alone", "nobody"])
        entries = len(TOPICS) * PER_TOPIC
        known = 3 * len(TOPICS)
        end = b.groups.log.end_offset(b.groups.partition_for("g"))
        resp, steps = _in_steps(b, call(b, "offset_commit", _commit_request("g", TOPICS), 8), 8)
        # every partition checked, then the answer's partitions of the commit
        assert steps == (entries + known) // STEP_ENTRIES
        alone = [t for name in TOPICS
                 for t in _answered_at_once(call(b, "offset_commit", _commit_request("g-alone", [name]), 8), 8).topics]
        assert resp.topics == alone
        assert {(p.partition_index < 3, p.error_code) for t in resp.topics for p in t.partitions} == {(True, 0), (False, 3)}
        answer = _answered_at_once(_fetch(b, "g", TOPICS[:1]), 8).groups[0].topics[0]
        assert [(p.partition_index, p.committed_offset, p.metadata) for p in answer.partitions[:4]] == [
            (0, 7, "m0"), (1, 8, "m1"), (2, 9, "m2"), (3, -1, "")]
        # its 30 offsets: one record batch (Kafka's OffsetCommit is one atomic CoordinatorResult)
        batches = [len(recs) for h, recs in b.groups.log.read_batches(b.groups.partition_for("g"))
                   if h.base_offset >= end and not h.is_control]
        assert batches[0] == known
        # no partition the metadata knows: answered without the coordinator
        none = _answered_at_once(call(b, "offset_commit", _commit_request("nobody", ["gone"], STEP_ENTRIES - 1), 8), 8)
        assert {p.error_code for t in none.topics for p in t.partitions} == {3}
        resp, steps = _in_steps(b, call(b, "offset_commit", _commit_request("nobody", ["gone"], 2 * STEP_ENTRIES), 8), 8)
        assert steps == 2 and len(resp.topics[0].partitions) == 2 * STEP_ENTRIES
    finally:
        b.close()
