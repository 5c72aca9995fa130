"""AlterPartition (API 56) on the active controller's CONTROLLER listener, over the wire, as
Kafka 4.3's controller answers it (1 controller + 2 brokers of real processes): an ISR
shrink by the partition leader is written and answered with the new partition epoch (the
leader epoch kept), the brokers' metadata shows it; a stale partition epoch gets
INVALID_UPDATE_VERSION, an old leader epoch FENCED_LEADER_EPOCH, a non-leader
INVALID_REQUEST, a stale broker epoch STALE_BROKER_EPOCH, an unknown topic id
UNKNOWN_TOPIC_ID, a fenced-epoch ISR member INELIGIBLE_REPLICA."""

from __future__ import annotations

import re

import pytest

from harness import RawClient
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.alter_partition_request import AlterPartitionRequest, BrokerState, PartitionData, TopicData
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from cluster import running_odradek, wait_for


@pytest.fixture
def cluster(tmp_path):
    with running_odradek(tmp_path, 1, 2) as c:
        yield c


def broker_epochs(controller) -> dict[int, int]:
    return {int(b): int(e) for b, e in re.findall(r"Registered broker (\d+) \(incarnation \w+\): broker epoch (\d+)",
                                                  "".join(controller.lines))}


def metadata(port):
    c = RawClient(f"127.0.0.1:{port}")
    try:
        t = c.call(MetadataRequest(topics=[MetadataRequestTopic(name="t")], allow_auto_topic_creation=False), 12).topics[0]
    finally:
        c.close()
    return t.topic_id, t.partitions[0]


def test_alter_partition_over_the_wire(cluster):
    controller = cluster.node(1)
    brokers = cluster.brokers
    c = RawClient(f"127.0.0.1:{brokers[0].port}")
    try:
        assert c.call(CreateTopicsRequest(topics=[CreatableTopic(name="t", num_partitions=1, replication_factor=2)],
                                          timeout_ms=10000), 7).topics[0].error_code == 0
    finally:
        c.close()
    tid, p = wait_for(lambda: metadata(brokers[0].port), 20, "topic t")
    leader, follower = p.leader_id, next(b for b in p.replica_nodes if b != p.leader_id)
    epochs = wait_for(lambda: len(broker_epochs(controller)) == 2 and broker_epochs(controller), 20, "epochs")
    ctl = RawClient(f"127.0.0.1:{controller.controller_port}")

    def alter(broker=leader, epoch=None, topic=tid, leader_epoch=0, partition_epoch=0, isr=((leader, None),), v=3):
        states = [BrokerState(broker_id=b, broker_epoch=epochs[b] if e is None else e) for b, e in isr]
        req = AlterPartitionRequest(broker_id=broker, broker_epoch=epochs[broker] if epoch is None else epoch,
                                    topics=[TopicData(topic_id=topic, partitions=[PartitionData(
                                        partition_index=0, leader_epoch=leader_epoch, partition_epoch=partition_epoch,
                                        new_isr=[b for b, _ in isr], new_isr_with_epochs=states)])])
        return ctl.call(req, v)

    try:
        av = ctl.call(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3)
        assert [(k.min_version, k.max_version) for k in av.api_keys if k.api_key == 56] == [(2, 3)]
        assert alter(epoch=12345).error_code == E.STALE_BROKER_EPOCH
        assert alter(topic=b"\x05" * 16).topics[0].partitions[0].error_code == E.UNKNOWN_TOPIC_ID
        assert alter(leader_epoch=-1).topics[0].partitions[0].error_code == E.FENCED_LEADER_EPOCH
        assert alter(broker=follower, isr=((follower, None),)).topics[0].partitions[0].error_code == E.INVALID_REQUEST
        bad = alter(isr=((leader, None), (follower, epochs[follower] + 1))).topics[0].partitions[0]
        assert bad.error_code == E.INELIGIBLE_REPLICA
        r = alter()  # the leader shrinks the ISR to itself
        ok = r.topics[0].partitions[0]
        assert (r.error_code, ok.error_code, ok.leader_id, ok.leader_epoch, ok.partition_epoch, ok.isr) == (
            0, 0, leader, 0, 1, [leader])
        assert alter().topics[0].partitions[0].error_code == E.INVALID_UPDATE_VERSION  # partition epoch 0 is stale
        wait_for(lambda: metadata(brokers[1].port)[1].isr_nodes == [leader], 10, "the shrunk ISR on the brokers")
        # back to both (v2: the ISR without broker epochs); the leader may have expanded it already
        r = alter(partition_epoch=1, isr=((leader, -1), (follower, -1)), v=2).topics[0].partitions[0]
        assert r.error_code in (0, E.INVALID_UPDATE_VERSION)
        wait_for(lambda: sorted(metadata(brokers[0].port)[1].isr_nodes) == sorted([leader, follower]), 10, "ISR")
    finally:
        ctl.close()
