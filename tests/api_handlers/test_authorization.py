"""Authorization in the request path with the StandardAuthorizer (api_handlers/authorization.py and the
handlers' own checks): Kafka's error per resource, hidden topics, whole-request refusals; and nothing
checked without an authorizer or for a request a cluster node forwards (principal None)."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from odradek.api_handlers import authorization, list_offsets, metadata
from odradek.api_handlers.context import RequestContext
from odradek.controller import acls as A
from odradek.controller.acls import AclBinding
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.security.authorizer import StandardAuthorizer
from odradek.wire.api import decode_response, encode_response
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.create_acls_request import CreateAclsRequest
from odradek.wire.messages.init_producer_id_request import InitProducerIdRequest
from odradek.wire.messages.join_group_request import JoinGroupRequest
from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

from fake_services import services

BOB = "User:bob"


def image(*bindings) -> MetadataImage:
    topics = {n: TopicImage(n, bytes([i]) * 16, {0: PartitionImage(0, 1, 0, 0, (1,), (1,))})
              for i, n in enumerate(("open", "secret"), 1)}
    return MetadataImage(topics=topics, topics_by_id={t.topic_id: t for t in topics.values()},
                         brokers={1: BrokerImage(1, "h", 9092)},
                         acls={bytes([i]) * 16: b for i, b in enumerate(bindings, 1)})


def allow(rtype, name, op, principal=BOB):
    return AclBinding(rtype, name, A.LITERAL, principal, "*", op, A.ALLOW)


def ctx_for(api_key: int, img, principal: str | None = BOB, v: int = 12, authorizer=True) -> RequestContext:
    svc = services(image_of=lambda: img)
    if authorizer:
        svc = replace(svc, authorizer=StandardAuthorizer(frozenset({"User:admin"})))
    return RequestContext(api_key=api_key, api_version=v, correlation_id=1, client_id="c", now_ms=0, services=svc,
                          client_host="10.0.0.1", principal=principal)


def test_metadata_hides_and_refuses_topics_without_describe():
    img = image(allow(A.TOPIC, "open", A.READ))
    listed = metadata.handle(ctx_for(3, img), MetadataRequest(topics=None, include_topic_authorized_operations=True))
    assert [t.name for t in listed.topics] == ["open"]
    assert listed.topics[0].topic_authorized_operations == (1 << A.READ) | (1 << A.DESCRIBE)
    named = metadata.handle(ctx_for(3, img), MetadataRequest(topics=[MetadataRequestTopic(name="secret"),
                                                                     MetadataRequestTopic(name="open")]))
    named = decode_response(encode_response(3, 12, 1, named)[4:], 3, 12).body  # (topics sent as cached bytes)
    assert [(t.name, t.error_code) for t in named.topics] == [
        ("open", 0), ("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED)]
    assert named.topics[1].topic_id == bytes(16) and named.topics[1].partitions == []
    # no authorizer: everything, as before
    plain = metadata.handle(ctx_for(3, img, authorizer=False), MetadataRequest(topics=None))
    assert len(plain.topics) == 2  # (cached encodings)


def test_list_offsets_refuses_each_topic_without_describe():
    img = image(allow(A.TOPIC, "open", A.DESCRIBE))
    req = ListOffsetsRequest(replica_id=-1, topics=[
        ListOffsetsTopic(name="secret", partitions=[ListOffsetsPartition(partition_index=0, timestamp=-1)])])
    resp = list_offsets.handle(ctx_for(2, img, v=7), req)
    p = resp.topics[0].partitions[0]
    assert (p.error_code, p.offset, p.timestamp) == (ErrorCode.TOPIC_AUTHORIZATION_FAILED, -1, -1)


def test_whole_request_checks():
    img = image(allow(A.GROUP, "mine", A.READ), allow(A.TOPIC, "open", A.WRITE))
    assert authorization.gate(ctx_for(30, img), 30, CreateAclsRequest(creations=[])) == \
        ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    assert authorization.gate(ctx_for(30, img, principal="User:admin"), 30, CreateAclsRequest(creations=[])) is None
    assert authorization.gate(ctx_for(30, img, principal=None), 30, CreateAclsRequest(creations=[])) is None
    join = JoinGroupRequest(group_id="other", session_timeout_ms=10000, member_id="", protocol_type="consumer",
                            protocols=[])
    assert authorization.gate(ctx_for(11, img), 11, join) == ErrorCode.GROUP_AUTHORIZATION_FAILED
    join.group_id = "mine"
    assert authorization.gate(ctx_for(11, img), 11, join) is None
    # an idempotent producer: WRITE on some topic is enough (Kafka 4); none at all is refused
    idem = InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=60000)
    assert authorization.gate(ctx_for(22, img), 22, idem) is None
    assert authorization.gate(ctx_for(22, image()), 22, idem) == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    txn = InitProducerIdRequest(transactional_id="tx", transaction_timeout_ms=60000)
    assert authorization.gate(ctx_for(22, img), 22, txn) == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    # share and streams group APIs: the group's ACL as Kafka (they were super users only)
    from odradek.wire.messages.share_fetch_request import ShareFetchRequest
    from odradek.wire.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

    assert authorization.gate(ctx_for(78, img), 78, ShareFetchRequest(group_id="other")) == \
        ErrorCode.GROUP_AUTHORIZATION_FAILED
    assert authorization.gate(ctx_for(78, img), 78, ShareFetchRequest(group_id="mine")) is None
    hb = ShareGroupHeartbeatRequest(group_id="mine", subscribed_topic_names=["open", "secret"])
    assert authorization.gate(ctx_for(76, img, v=1), 76, hb) == ErrorCode.TOPIC_AUTHORIZATION_FAILED
    assert authorization.gate(ctx_for(76, img, principal="User:admin", v=1), 76, hb) is None


def test_node_apis_need_cluster_action():
    """The CONTROLLER listener's node-to-node APIs need CLUSTER_ACTION on the cluster (Kafka's ControllerApis),
    refused with their own error response; nothing is checked without an authorizer."""
    from odradek.api_handlers.error_responses import BUILDERS
    from odradek.wire.messages.broker_heartbeat_request import BrokerHeartbeatRequest

    hb = BrokerHeartbeatRequest(broker_id=2, broker_epoch=1)
    for key in (56, 58, 62, 63, 67, 73):
        assert authorization.gate(ctx_for(key, image(), v=0), key, hb) == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        assert BUILDERS[key](0, hb, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, None).error_code == 31
    assert authorization.gate(ctx_for(63, image(allow(A.CLUSTER, "kafka-cluster", A.CLUSTER_ACTION)), v=0), 63,
                              hb) is None
    assert authorization.gate(ctx_for(63, image(), principal=None, v=0), 63, hb) is None  # the node's own
    assert authorization.gate(ctx_for(63, image(), v=0, authorizer=False), 63, hb) is None


def test_consumer_group_heartbeat_needs_describe_on_each_subscribed_topic():
    from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest

    img = image(allow(A.GROUP, "g", A.READ), allow(A.TOPIC, "open", A.READ))
    hb = ConsumerGroupHeartbeatRequest(group_id="g", member_id="m", member_epoch=0, subscribed_topic_names=["open"])
    assert authorization.gate(ctx_for(68, img, v=0), 68, hb) is None
    hb.subscribed_topic_names = ["open", "secret"]
    assert authorization.gate(ctx_for(68, img, v=0), 68, hb) == ErrorCode.TOPIC_AUTHORIZATION_FAILED
    hb.group_id = "h"
    assert authorization.gate(ctx_for(68, img, v=0), 68, hb) == ErrorCode.GROUP_AUTHORIZATION_FAILED


def test_broker_loggers_need_alter_configs_on_a_broker_and_cluster_action_on_a_controller():
    """A BROKER_LOGGER resource: Kafka's ConfigAdminManager (a broker's listener) authorizes
    ALTER_CONFIGS on the cluster, its ControllerApis (a quorum's CONTROLLER listener) CLUSTER_ACTION."""
    from odradek.api_handlers import incremental_alter_configs
    from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                          IncrementalAlterConfigsRequest)

    req = IncrementalAlterConfigsRequest(validate_only=True, resources=[AlterConfigsResource(
        resource_type=8, resource_name=str(1), configs=[AlterableConfig(name="root", config_operation=0,
                                                                        value="INFO")])])
    denied = (ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed.")
    for op, broker, controller in ((A.ALTER_CONFIGS, (0, None), denied), (A.CLUSTER_ACTION, denied, (0, None))):
        img = image(allow(A.CLUSTER, A.CLUSTER_NAME, op))
        ctx = ctx_for(44, img, v=1)
        # (only loggers: nothing for the controller to decide)
        metadata = SimpleNamespace(image=img, incremental_alter_configs_steps=None)
        ctx = replace(ctx, services=replace(ctx.services, node=replace(ctx.services.node, node_id=1), metadata=metadata))
        for on_controller, expected in ((False, broker), (True, controller)):
            c = replace(ctx, services=replace(ctx.services, controller_listener=on_controller))
            (r,) = incremental_alter_configs.handle(c, req).responses
            assert (r.error_code, r.error_message) == expected, (op, on_controller)
