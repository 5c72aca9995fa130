"""OffsetCommit v10 / OffsetFetch v10 (KIP-848: topics by id) over the handlers, with the exact
answers Kafka 4.3 gave the same requests (compat_tests/test_offsets_by_topic_id.py replays them
against a live broker): which errors, in which order, which ids are echoed."""

from __future__ import annotations


import pytest

from odradek.api_handlers import offset_commit, offset_fetch
from odradek.api_handlers.context import RequestContext
from fake_services import image_of_topics, services
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from odradek.wire.messages.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)

T = b"\x11" * 16  # topic "t", two partitions
BOGUS = b"\x99" * 16
ZERO = bytes(16)


class FakeBroker:
    def __init__(self):
        self.node_id = 1
        self.groups = GroupCoordinator(config=GroupConfig(group_initial_rebalance_delay_ms=0), now_ms=0)
        self.set_topics({"t": T})
        self.services = services(image_of=lambda: self.image, groups=self.groups)

    def set_topics(self, ids: dict):
        self.image = image_of_topics({n: (i, 2) for n, i in ids.items()})

    def purgatory_poke(self, key):
        return 0


def call(broker, mod, version, request):
    ctx = RequestContext(api_key=mod.API_KEY, api_version=version, correlation_id=1, client_id="c", now_ms=0,
                         services=broker.services, client_host="127.0.0.1")
    resp = mod.handle(ctx, request)
    resp.encode(version)
    return resp


def P(i, offset=5, md="m"):
    return OffsetCommitRequestPartition(partition_index=i, committed_offset=offset, committed_metadata=md)


def commit(b, topics, version=10, gen=-1, member="", group="g"):
    r = call(b, offset_commit, version, OffsetCommitRequest(
        group_id=group, generation_id_or_member_epoch=gen, member_id=member, topics=topics))
    key = (lambda t: t.topic_id) if version >= 10 else (lambda t: t.name)
    return [(key(t), [(p.partition_index, p.error_code) for p in t.partitions]) for t in r.topics]


def fetch(b, topics, version=10, group="g"):
    if topics is not None:
        topics = [OffsetFetchRequestTopics(topic_id=t, name=t, partition_indexes=ps) if version < 10 else
                  OffsetFetchRequestTopics(topic_id=t, partition_indexes=ps) for t, ps in topics]
    r = call(b, offset_fetch, version, OffsetFetchRequest(groups=[OffsetFetchRequestGroup(group_id=group,
                                                                                          topics=topics)]))
    g = r.groups[0]
    key = (lambda t: t.topic_id) if version >= 10 else (lambda t: t.name)
    return g.error_code, [(key(t), [(p.partition_index, p.committed_offset, p.error_code, p.metadata)
                                    for p in t.partitions]) for t in g.topics]


def test_commit_v10_unknown_and_zero_ids_answer_unknown_topic_id_and_errors_come_first():
    b = FakeBroker()
    got = commit(b, [OffsetCommitRequestTopic(topic_id=BOGUS, partitions=[P(0)]),
                     OffsetCommitRequestTopic(topic_id=T, partitions=[P(0), P(7), P(1)]),
                     OffsetCommitRequestTopic(topic_id=ZERO, partitions=[P(3)]),
                     OffsetCommitRequestTopic(topic_id=T, partitions=[P(1, 9)])])
    # Kafka 4.3: error topics in request order, the coordinator's partitions merged into T's entry
    assert got == [(BOGUS, [(0, E.UNKNOWN_TOPIC_ID)]),
                   (T, [(7, E.UNKNOWN_TOPIC_OR_PARTITION), (0, 0), (1, 0), (1, 0)]),
                   (ZERO, [(3, E.UNKNOWN_TOPIC_ID)])]
    assert {tp: om.offset for tp, om in b.groups.groups["g"].offsets.items()} == {("t", 0): 5, ("t", 1): 9}
    assert {om.topic_id for om in b.groups.groups["g"].offsets.values()} == {T}  # stored with the id


def test_commit_v9_by_name_stores_the_id_too_and_answers_in_kafkas_order():
    b = FakeBroker()
    got = commit(b, [OffsetCommitRequestTopic(name="nope", partitions=[P(0)]),
                     OffsetCommitRequestTopic(name="t", partitions=[P(0), P(7), P(1)]),
                     OffsetCommitRequestTopic(name="t", partitions=[P(1, 9)])], version=9)
    assert got == [("nope", [(0, E.UNKNOWN_TOPIC_OR_PARTITION)]),
                   ("t", [(7, E.UNKNOWN_TOPIC_OR_PARTITION), (0, 0), (1, 0), (1, 0)])]
    assert {om.topic_id for om in b.groups.groups["g"].offsets.values()} == {T}


def test_commit_v10_with_no_error_keeps_the_coordinators_topics_as_they_are():
    b = FakeBroker()
    got = commit(b, [OffsetCommitRequestTopic(topic_id=T, partitions=[P(0)]),
                     OffsetCommitRequestTopic(topic_id=T, partitions=[P(1, 9)])])
    assert got == [(T, [(0, 0)]), (T, [(1, 0)])]


def test_commit_v10_group_errors_and_nothing_valid():
    b = FakeBroker()
    got = commit(b, [OffsetCommitRequestTopic(topic_id=T, partitions=[P(0)]),
                     OffsetCommitRequestTopic(topic_id=BOGUS, partitions=[P(1)])], gen=5, member="m", group="nog")
    assert got == [(BOGUS, [(1, E.UNKNOWN_TOPIC_ID)]), (T, [(0, E.GROUP_ID_NOT_FOUND)])]
    # nothing left for the coordinator: Kafka answers without asking it (no simple group appears)
    assert commit(b, [], group="s") == []
    assert commit(b, [OffsetCommitRequestTopic(topic_id=BOGUS, partitions=[P(0)])], group="s") == \
        [(BOGUS, [(0, E.UNKNOWN_TOPIC_ID)])]
    assert "s" not in b.groups.groups


@pytest.mark.parametrize("version", [2, 9, 10])
def test_simple_commits_through_every_version(version):
    b = FakeBroker()
    t = OffsetCommitRequestTopic(name="t", topic_id=T, partitions=[P(0, 3)])
    assert commit(b, [t], version=version)[0][1] == [(0, 0)]
    assert fetch(b, [(T if version >= 10 else "t", [0])], version=max(version, 8))[1][0][1] == [(0, 3, 0, "m")]


def test_fetch_v10_unknown_ids_come_after_the_coordinators_topics():
    b = FakeBroker()
    commit(b, [OffsetCommitRequestTopic(topic_id=T, partitions=[P(0), P(1, 9)])])
    assert fetch(b, [(BOGUS, [0]), (T, [0, 1, 7]), (ZERO, [2])]) == (0, [
        (T, [(0, 5, 0, "m"), (1, 9, 0, "m"), (7, -1, 0, "")]),
        (BOGUS, [(0, -1, E.UNKNOWN_TOPIC_ID, "")]),
        (ZERO, [(2, -1, E.UNKNOWN_TOPIC_ID, "")])])
    assert fetch(b, None) == (0, [(T, [(0, 5, 0, "m"), (1, 9, 0, "m")])])
    assert fetch(b, None, version=9) == (0, [("t", [(0, 5, 0, "m"), (1, 9, 0, "m")])])
    assert fetch(b, [(T, [0])], group="none") == (0, [(T, [(0, -1, 0, "")])])


def test_fetch_v10_after_the_topic_was_deleted_and_recreated():
    b = FakeBroker()
    commit(b, [OffsetCommitRequestTopic(topic_id=T, partitions=[P(0), P(1, 9)])])
    b.set_topics({})  # deleted (Kafka deletes the group's offsets of the topic with it)
    assert fetch(b, [(T, [0])]) == (0, [(T, [(0, -1, E.UNKNOWN_TOPIC_ID, "")])])
    assert fetch(b, None) == (0, [])  # all offsets: topics no longer in the metadata are left out
    assert fetch(b, [("t", [0])], version=9) == (0, [("t", [(0, -1, 0, "")])])
    assert fetch(b, None, version=9) == (0, [])
    assert commit(b, [OffsetCommitRequestTopic(topic_id=T, partitions=[P(0)])]) == [(T, [(0, E.UNKNOWN_TOPIC_ID)])]
    new = b"\x22" * 16
    b.set_topics({"t": new})  # re-created: the old offsets were committed for another id
    assert fetch(b, [(new, [0, 1])]) == (0, [(new, [(0, -1, 0, ""), (1, -1, 0, "")])])
    assert fetch(b, [("t", [0, 1])], version=9) == (0, [("t", [(0, -1, 0, ""), (1, -1, 0, "")])])
    assert fetch(b, None) == fetch(b, None, version=9) == (0, [])
    commit(b, [OffsetCommitRequestTopic(topic_id=new, partitions=[P(0, 1)])])
    assert fetch(b, [(new, [0])]) == (0, [(new, [(0, 1, 0, "m")])])
    assert fetch(b, None) == (0, [(new, [(0, 1, 0, "m")])])
    assert fetch(b, None, version=9) == (0, [("t", [(0, 1, 0, "m")])])


def test_empty_group_id_is_a_group_for_offset_commit_and_fetch():
    """Kafka 4.3's GroupCoordinatorService rejects only a null group id (INVALID_GROUP_ID) for
    OffsetCommit/OffsetFetch; "" is a simple group like any other, at every version."""
    b = FakeBroker()
    for v in (2, 7, 9):
        assert commit(b, [OffsetCommitRequestTopic(name="t", partitions=[P(0, 10 + v)])], version=v, group="") == \
            [("t", [(0, 0)])]
    assert commit(b, [OffsetCommitRequestTopic(topic_id=T, partitions=[P(1, 3)])], group="") == [(T, [(1, 0)])]
    assert fetch(b, [(T, [0, 1])], group="") == (0, [(T, [(0, 19, 0, "m"), (1, 3, 0, "m")])])
    assert fetch(b, [("t", [0])], version=8, group="") == (0, [("t", [(0, 19, 0, "m")])])
    for v in (1, 2, 7):
        r = call(b, offset_fetch, v, OffsetFetchRequest(group_id="", topics=[
            OffsetFetchRequestTopic(name="t", partition_indexes=[0])]))
        assert (r.error_code, [(p.committed_offset, p.error_code) for t in r.topics for p in t.partitions]) == \
            (0, [(19, 0)])
