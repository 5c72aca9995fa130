"""Metadata and DescribeTopicPartitions show a replicated partition as Kafka's
KRaftMetadataCache does: offline replicas are those on brokers not registered or fenced,
DescribeTopicPartitions carries the ELR and last known ELR, and a leader that is not a
registered broker (none: -1) is LEADER_NOT_AVAILABLE in Metadata; a leader without the client's listener
is LISTENER_NOT_FOUND (v6+)."""
from __future__ import annotations

from odradek.api_handlers import describe_topic_partitions, metadata
from odradek.api_handlers.context import RequestContext
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.wire.api import decode_response, encode_response
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest, TopicRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

from fake_services import services

T = bytes([9]) * 16


def image() -> MetadataImage:
    t = TopicImage("t", T, {
        0: PartitionImage(0, 1, 3, 4, (1, 2, 3), (1, 2), elr=(3,), last_known_elr=()),
        1: PartitionImage(1, -1, 5, 6, (2, 3, 7), (), elr=(), last_known_elr=(2,)),
    })
    brokers = {1: BrokerImage(1, "h1", 9001), 2: BrokerImage(2, "h2", 9002, fenced=True),
               3: BrokerImage(3, "h3", 9003)}
    return MetadataImage(topics={"t": t}, topics_by_id={T: t}, brokers=brokers, offset=9)


def ctx(api_key, v):
    img = image()
    return RequestContext(api_key=api_key, api_version=v, correlation_id=1, client_id="c", now_ms=0,
                          services=services(image_of=lambda: img))


def _metadata(c, req):
    """The Metadata response as the client reads it (its topics are sent as cached bytes)."""
    v = c.api_version
    return decode_response(encode_response(3, v, 1, metadata.handle(c, req))[4:], 3, v).body


def test_metadata_offline_replicas_and_no_leader():
    resp = _metadata(ctx(3, 12), MetadataRequest(topics=[MetadataRequestTopic(name="t")],
                                                         allow_auto_topic_creation=False))
    p0, p1 = sorted(resp.topics[0].partitions, key=lambda p: p.partition_index)
    assert (p0.error_code, p0.leader_id, p0.isr_nodes, p0.offline_replicas) == (0, 1, [1, 2], [2])
    assert (p1.error_code, p1.leader_id, p1.leader_epoch) == (ErrorCode.LEADER_NOT_AVAILABLE, -1, 5)
    assert p1.replica_nodes == [2, 3, 7] and p1.offline_replicas == [2, 7]


def test_describe_topic_partitions_elr_and_offline_replicas():
    resp = describe_topic_partitions.handle(ctx(75, 0), DescribeTopicPartitionsRequest(topics=[TopicRequest(name="t")]))
    p0, p1 = resp.topics[0].partitions
    assert (p0.eligible_leader_replicas, p0.last_known_elr, p0.offline_replicas) == ([3], [], [2])
    assert (p1.eligible_leader_replicas, p1.last_known_elr, p1.offline_replicas) == ([], [2], [2, 7])


def listener_image() -> MetadataImage:
    """Broker 3 leads partition 0 but has no CLIENT listener (only INTERNAL); broker 2 is fenced."""
    t = TopicImage("t", T, {0: PartitionImage(0, 3, 1, 1, (3, 1), (3, 1), elr=(), last_known_elr=()),
                            1: PartitionImage(1, 1, 1, 1, (1, 2, 3), (1, 3), elr=(), last_known_elr=())})
    both = lambda i: (("CLIENT", f"h{i}", 9000 + i, 0), ("INTERNAL", f"h{i}", 9100 + i, 0))  # noqa: E731
    brokers = {1: BrokerImage(1, "h1", 9001, endpoints=both(1)),
               2: BrokerImage(2, "h2", 9002, fenced=True, endpoints=both(2)),
               3: BrokerImage(3, "h3", 9103, endpoints=(("INTERNAL", "h3", 9103, 0),))}
    return MetadataImage(topics={"t": t}, topics_by_id={T: t}, brokers=brokers, offset=9)


def listener_ctx(api_key, v, listener="CLIENT"):
    img = listener_image()
    return RequestContext(api_key=api_key, api_version=v, correlation_id=1, client_id="c", now_ms=0,
                          services=services(image_of=lambda: img), listener=listener)


def test_a_leader_without_the_clients_listener_is_listener_not_found():
    """Kafka's KRaftMetadataCache: a registered leader without the client's listener is no leader (-1),
    LISTENER_NOT_FOUND from Metadata v6 (LEADER_NOT_AVAILABLE before), its replica is offline; the
    brokers list leaves it out; v0 names only the reachable replicas (REPLICA_NOT_AVAILABLE when some
    are not)."""
    req = MetadataRequest(topics=[MetadataRequestTopic(name="t")], allow_auto_topic_creation=False)
    for v, code in ((12, ErrorCode.LISTENER_NOT_FOUND), (6, ErrorCode.LISTENER_NOT_FOUND),
                    (5, ErrorCode.LEADER_NOT_AVAILABLE)):
        resp = _metadata(listener_ctx(3, v), req)
        p0, p1 = sorted(resp.topics[0].partitions, key=lambda p: p.partition_index)
        assert (p0.error_code, p0.leader_id, p0.replica_nodes, p0.isr_nodes, p0.offline_replicas) == (
            code, -1, [3, 1], [3, 1], [3]), v
        assert (p1.error_code, p1.leader_id, p1.offline_replicas) == (0, 1, [2, 3]), v
        assert [b.node_id for b in resp.brokers] == [1]
    resp = _metadata(listener_ctx(3, 0), req)
    p0, p1 = sorted(resp.topics[0].partitions, key=lambda p: p.partition_index)
    assert (p0.error_code, p0.replica_nodes, p0.isr_nodes) == (ErrorCode.LEADER_NOT_AVAILABLE, [1], [1])
    assert (p1.error_code, p1.leader_id, p1.replica_nodes, p1.isr_nodes) == (ErrorCode.REPLICA_NOT_AVAILABLE, 1,
                                                                             [1], [1])
    inter = _metadata(listener_ctx(3, 12, "INTERNAL"), req)  # the same partitions seen on INTERNAL
    p0 = sorted(inter.topics[0].partitions, key=lambda p: p.partition_index)[0]
    assert (p0.error_code, p0.leader_id, p0.offline_replicas) == (0, 3, [])
    assert [b.node_id for b in inter.brokers] == [1, 3]


def test_describe_topic_partitions_leader_without_the_clients_listener():
    resp = describe_topic_partitions.handle(listener_ctx(75, 0),
                                            DescribeTopicPartitionsRequest(topics=[TopicRequest(name="t")]))
    p0, p1 = resp.topics[0].partitions
    assert (p0.error_code, p0.leader_id, p0.offline_replicas) == (0, -1, [3])
    assert (p1.leader_id, p1.offline_replicas) == (1, [2, 3])
