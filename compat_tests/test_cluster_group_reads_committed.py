"""Groups are described and listed as committed, as Kafka's group coordinator answers DescribeGroups,
ConsumerGroupDescribe and ListGroups: read operations at the __consumer_offsets partition's high
watermark. A group deleted, created or joined by records the HW has not passed is shown as it
was. On real processes: 1 controller + 3 brokers, offsets.topic.replication.factor=3 (one
partition: every group's coordinator is its leader).

Both followers of __consumer_offsets are stopped (SIGSTOP); replica.lag.time.max.ms and the broker
session are long, so the ISR stays whole and the high watermark stays where it was. A DeleteGroups
of an empty classic group, a new member's ConsumerGroupHeartbeat into a consumer group and a first
one into a new group then reach the leader's log, their answers held: the deleted group is still
described and listed, the consumer group is described as before the join, the new group is not
there. Once the followers are back, all three show. Against Apache Kafka 4.3: --cluster-kafka.
"""
from __future__ import annotations

import uuid

import pytest

from cluster import offsets_cluster, replica_batches, wait_for
from harness import RawClient
from odradek.coordinator import group_records
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from odradek.wire.messages.delete_groups_request import DeleteGroupsRequest
from odradek.wire.messages.describe_groups_request import DescribeGroupsRequest
from odradek.wire.messages.list_groups_request import ListGroupsRequest
from odradek.wire.messages.offset_commit_request import (
    OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
)
from test_cluster_offset_reads_committed import PATIENT

TOPIC, OFFSETS = "group-reads", "__consumer_offsets"
SIMPLE, CONSUMER, NEW = "group-reads-simple", "group-reads-consumer", "group-reads-new"

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with offsets_cluster(tmp_path_factory.mktemp("group-reads"), request.config, TOPIC, 2, PATIENT) as c:
        yield c


def _keys_in(log_dir) -> list[tuple[bytes, bool]]:
    """(key, is a tombstone) of every record of __consumer_offsets-0 in a replica's segment files."""
    return [(bytes(r.key), r.value is None) for _, batch in replica_batches(log_dir, OFFSETS, 0)
            for _h, recs in wire_records.iter_batches(batch) for r in recs if r.key is not None]


def _group_tombstoned(keys, group: str) -> bool:
    for k, dead in keys:
        d = group_records.decode_key(k)
        if dead and d.kind == "group" and d.group == group:
            return True
    return False


def _heartbeat(member: str, group: str) -> ConsumerGroupHeartbeatRequest:
    return ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=0,
                                         rebalance_timeout_ms=30000, subscribed_topic_names=[TOPIC],
                                         topic_partitions=[])


def _describe_classic(client, group: str):
    g = client.call(DescribeGroupsRequest(groups=[group]), 5).groups[0]
    return g.error_code, g.group_state, g.protocol_type


def _describe_consumer(client, group: str):
    return client.call(ConsumerGroupDescribeRequest(group_ids=[group], include_authorized_operations=False),
                       1).groups[0]


def _listed(client) -> dict:
    resp = client.call(ListGroupsRequest(states_filter=[], types_filter=[]), 5)
    assert resp.error_code == ErrorCode.NONE
    return {g.group_id: (g.group_state, g.group_type) for g in resp.groups if g.group_id.startswith("group-reads")}


def test_groups_are_read_as_committed(cluster):
    RawClient(f"127.0.0.1:{cluster.brokers[0].port}").await_group_coordinator(SIMPLE)  # (creates __consumer_offsets)
    state = cluster.wait_full_isr(OFFSETS)
    leader = cluster.node(state[0].leader)
    addr = f"127.0.0.1:{leader.port}"
    client, deleter, joiner, creator = (RawClient(addr, timeout=60) for _ in range(4))
    try:
        answers: list[int] = []
        commit = OffsetCommitRequest(group_id=SIMPLE, generation_id_or_member_epoch=-1, topics=[
            OffsetCommitRequestTopic(name=TOPIC, partitions=[OffsetCommitRequestPartition(
                partition_index=0, committed_offset=7)])])
        wait_for(lambda: answers.append(client.call(commit, 8).topics[0].partitions[0].error_code)
                 or answers[-1] == ErrorCode.NONE, 60, "a simple group's first commit", last=lambda: answers[-3:])
        first = client.call(_heartbeat(str(uuid.uuid4()), CONSUMER), 1)
        assert first.error_code == ErrorCode.NONE, first
        before = _describe_consumer(client, CONSUMER)
        assert before.error_code == ErrorCode.NONE and [m.member_id for m in before.members] == [first.member_id]
        listed = _listed(client)
        assert listed == {SIMPLE: ("Empty", "classic"), CONSUMER: (before.group_state, "consumer")}
        assert _describe_classic(client, SIMPLE) == (ErrorCode.NONE, "Empty", "")

        followers = [b for b in cluster.brokers if b.id != leader.id]
        for b in followers:
            b.pause()
        try:
            written = len(_keys_in(leader.log_dir))
            deleter.send(DeleteGroupsRequest(groups_names=[SIMPLE]), 2)  # the answers wait for the followers
            joiner.send(_heartbeat(str(uuid.uuid4()), CONSUMER), 1)
            creator.send(_heartbeat(str(uuid.uuid4()), NEW), 1)

            def all_written() -> bool:
                keys = _keys_in(leader.log_dir)
                new = b"".join(k for k, _ in keys[written:])
                return _group_tombstoned(keys, SIMPLE) and CONSUMER.encode() in new and NEW.encode() in new

            wait_for(all_written, 30, "the three writes in the leader's log")
            assert _describe_classic(client, SIMPLE) == (ErrorCode.NONE, "Empty", "")  # still there
            assert _listed(client) == listed
            assert _describe_consumer(client, CONSUMER) == before  # one member, its epoch
            assert _describe_consumer(client, NEW).error_code == ErrorCode.GROUP_ID_NOT_FOUND
            assert cluster.partitions(OFFSETS)[0].isr == state[0].isr  # (the window was not closed)
        finally:
            for b in followers:
                b.resume()
        deleted = deleter.recv(DeleteGroupsRequest.API_KEY, 2).body
        assert [(r.group_id, r.error_code) for r in deleted.results] == [(SIMPLE, ErrorCode.NONE)]
        for c in (joiner, creator):
            assert c.recv(ConsumerGroupHeartbeatRequest.API_KEY, 1).body.error_code == ErrorCode.NONE
        assert _describe_classic(client, SIMPLE)[1] == "Dead"
        after = _describe_consumer(client, CONSUMER)
        assert len(after.members) == 2 and after.group_epoch > before.group_epoch
        assert _describe_consumer(client, NEW).error_code == ErrorCode.NONE
        assert set(_listed(client)) == {CONSUMER, NEW}
    finally:
        for c in (client, deleter, joiner, creator):
            c.close()
