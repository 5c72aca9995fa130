"""A committed offset survives kill -9 of the __consumer_offsets leader (issue 20, internal topics), on
real processes: 3 controllers + 3 brokers, offsets.topic.replication.factor=3 (one partition, so the
group's coordinator is its leader).

The group coordinator answers an OffsetCommit only once its write is replicated to the whole ISR (the
high watermark passed it, as Kafka's coordinators appending with acks=-1): right after the
acknowledgement, the leader is killed with SIGKILL; the commit is then in the surviving replicas'
segment files, and the new leader of the partition is elected among them. Serving the group from the
new leader (the coordinator moving with the partition's leadership) is the next issue (21).

With min.insync.replicas=2 and both followers of __consumer_offsets stopped (SIGSTOP) until the ISR is
the leader alone, an OffsetCommit is refused before anything is written, with Kafka's mapping of
NOT_ENOUGH_REPLICAS for the group coordinator: COORDINATOR_NOT_AVAILABLE; the offset stays unchanged,
and once the followers are back in the ISR the same commit succeeds.
"""
from __future__ import annotations

import pytest
from confluent_kafka import Consumer, TopicPartition

from cluster import replica_batches, running_cluster, wait_for
from harness import RawClient
from odradek.coordinator import group_records
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_commit_request import (
    OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
)
from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic

TOPIC, GROUP, OFFSETS = "coord-acks", "coord-acks-group", "__consumer_offsets"

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    from confluent_kafka.admin import NewTopic

    props = {"offsets.topic.replication.factor": "3", "offsets.topic.num.partitions": "1",
             "min.insync.replicas": "2"}
    with running_cluster(tmp_path_factory.mktemp("coord-acks"), request.config, props=props) as c:
        c.admin.create_topics([NewTopic(TOPIC, 1, 3)], operation_timeout=20)[TOPIC].result(timeout=30)
        c.wait_full_isr(TOPIC)
        _commit(c.bootstrap, 1)  # creates __consumer_offsets (RF=3)
        yield c


def _commit(bootstrap: str, offset: int) -> None:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": GROUP, "enable.auto.commit": False})
    try:
        out = c.commit(offsets=[TopicPartition(TOPIC, 0, offset)], asynchronous=False)
        assert [(tp.topic, tp.partition, tp.offset, tp.error) for tp in out] == [(TOPIC, 0, offset, None)]
    finally:
        c.close()


def _committed_in(log_dir, partition: int) -> list[int]:
    """The offsets committed for (GROUP, TOPIC-0) in a replica's segment files, in log order."""
    out = []
    for _, batch in replica_batches(log_dir, OFFSETS, partition):
        for _h, recs in wire_records.iter_batches(batch):
            for r in recs:
                if r.key is None or r.value is None:
                    continue
                k = group_records.decode_key(r.key)
                if k.kind == "offset" and (k.group, k.topic, k.partition) == (GROUP, TOPIC, 0):
                    out.append(group_records.decode_offset_value(r.value).offset)
    return out


def _all_brokers_up(cluster) -> None:
    for b in cluster.brokers:
        if not b.alive:
            cluster.start(b.id)


def test_acknowledged_commit_is_on_the_survivors_after_kill9_of_the_offsets_leader(cluster):
    _all_brokers_up(cluster)
    state = cluster.wait_full_isr(OFFSETS)
    assert sorted(state[0].replicas) == sorted(b.id for b in cluster.brokers)
    leader = state[0].leader

    _commit(cluster.bootstrap, 17)
    cluster.kill9(leader)  # at once: an acknowledged commit must already be on every ISR replica

    survivors = [b for b in cluster.brokers if b.id != leader]
    for b in survivors:
        assert _committed_in(b.log_dir, 0)[-1:] == [17], f"broker {b.id}"
    after = cluster.wait_partitions(OFFSETS, lambda s: s[0].leader not in (-1, leader), "a new leader")
    assert after[0].leader in {b.id for b in survivors}


def _raw_commit(port: int, offset: int) -> int:
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(OffsetCommitRequest(group_id=GROUP, topics=[OffsetCommitRequestTopic(
            name=TOPIC, partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=offset)])]), 8)
        return resp.topics[0].partitions[0].error_code
    finally:
        c.close()


def _raw_committed(port: int) -> int:
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(OffsetFetchRequest(group_id=GROUP, topics=[OffsetFetchRequestTopic(
            name=TOPIC, partition_indexes=[0])]), 7)
        assert resp.error_code == 0
        return resp.topics[0].partitions[0].committed_offset
    finally:
        c.close()


def test_commit_under_min_isr_is_refused_before_the_write(cluster):
    _all_brokers_up(cluster)
    state = cluster.wait_full_isr(OFFSETS)
    leader = cluster.node(state[0].leader)
    assert _raw_commit(leader.port, 40) == ErrorCode.NONE
    followers = [b for b in cluster.brokers if b.id != leader.id]
    try:
        for b in followers:
            b.pause()  # (SIGSTOP, known to the cluster: its waits poll the brokers still answering)
        cluster.wait_partitions(OFFSETS, lambda s: s[0].isr == [leader.id], "the ISR shrunk to the leader")
        assert _raw_commit(leader.port, 41) == ErrorCode.COORDINATOR_NOT_AVAILABLE
        assert _raw_committed(leader.port) == 40
        assert _committed_in(leader.log_dir, 0)[-1:] == [40]
    finally:
        for b in followers:
            b.resume()
    cluster.wait_full_isr(OFFSETS)  # as a broker's Metadata says: the leader may learn of it a little later
    answers = []
    wait_for(lambda: answers.append(_raw_commit(leader.port, 41)) or answers[-1] == ErrorCode.NONE, 60,
             "the commit accepted with the followers back in the ISR", last=lambda: answers[-3:])
    assert set(answers) <= {ErrorCode.NONE, ErrorCode.COORDINATOR_NOT_AVAILABLE}
    assert _raw_committed(leader.port) == 41
