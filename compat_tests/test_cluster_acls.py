"""ACLs in a cluster (1 controller + 2 brokers, StandardAuthorizer, allow.everyone.if.no.acl.found so
the nodes' PLAINTEXT traffic needs no ACL): an ACL created through one broker is written by the
controller as an AccessControlEntryRecord and reaches every broker's authorizer (each broker's
DescribeAcls lists it; a produce to partitions led by either broker is refused), and its deletion
reaches them too. Runs against Kafka 4.3 with --cluster-kafka."""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType,
                                   ResourcePatternType, ResourceType)

from cluster import running_cluster, wait_for
from harness import RawClient
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.describe_acls_request import DescribeAclsRequest

AUTHORIZER = {"authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
              "allow.everyone.if.no.acl.found": "true"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, pytestconfig):
    with running_cluster(tmp_path_factory.mktemp("cluster-acls"), pytestconfig, controllers=1, brokers=2,
                         props=AUTHORIZER) as c:
        yield c


def acls_seen_by(port: int, topic: str) -> list:
    """The ACLs of ``topic`` in this broker's own DescribeAcls answer."""
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(DescribeAclsRequest(resource_type_filter=2, resource_name_filter=topic, pattern_type_filter=3,
                                          principal_filter=None, host_filter=None, operation=1, permission_type=1), 3)
    finally:
        c.close()
    assert resp.error_code == 0, resp
    return [(a.principal, a.operation, a.permission_type) for r in resp.resources for a in r.acls]


def produce_errors(cluster, topic: str) -> list:
    """The delivery error code (None: delivered) of a record to each of the topic's two partitions."""
    got = {}
    p = Producer({"bootstrap.servers": cluster.bootstrap, "message.timeout.ms": 10000, "retries": 0})
    for partition in (0, 1):
        p.produce(topic, b"v", partition=partition,
                  on_delivery=lambda err, msg, partition=partition: got.__setitem__(partition, err and err.code()))
    p.flush(20)
    return [got.get(0), got.get(1)]


def test_an_acl_reaches_every_broker(cluster):
    topic = f"acl-{uuid.uuid4().hex[:8]}"
    cluster.create_topic(topic, 2, 2, {})
    assert produce_errors(cluster, topic) == [None, None]
    deny = AclBinding(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, "User:*", "*", AclOperation.WRITE,
                      AclPermissionType.DENY)
    admin = cluster.admin
    for f in admin.create_acls([deny]).values():
        f.result(30)
    for b in cluster.brokers:  # the record reaches each broker's image
        wait_for(lambda b=b: acls_seen_by(b.port, topic) == [("User:*", 4, 2)], 30, f"the ACL on broker {b.id}")
    wait_for(lambda: produce_errors(cluster, topic) == [KafkaError.TOPIC_AUTHORIZATION_FAILED] * 2, 30,
             "every partition's leader refusing the write")
    deleted = admin.delete_acls([AclBindingFilter(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, None, None,
                                                  AclOperation.ANY, AclPermissionType.ANY)])
    for f in deleted.values():
        assert len(f.result(30)) == 1
    for b in cluster.brokers:
        wait_for(lambda b=b: acls_seen_by(b.port, topic) == [], 30, f"the deletion on broker {b.id}")
    wait_for(lambda: produce_errors(cluster, topic) == [None, None], 30, "writes allowed again")


def test_a_forwarded_create_topics_is_authorized_with_the_clients_principal(cluster):
    """CreateTopics goes from the broker to the controller in an Envelope carrying the client's principal:
    without CREATE on the cluster (ALL allowed but CREATE denied there: an ACL on the cluster resource
    must keep allowing the nodes' CLUSTER_ACTION) the controller refuses a topic the client may not
    create, and nothing is created; the same from a client on the controller's listener."""
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import NewTopic

    prefix = f"nocreate-{uuid.uuid4().hex[:6]}-"
    everyone = "User:*"
    acls = [AclBinding(ResourceType.BROKER, "kafka-cluster", ResourcePatternType.LITERAL, everyone, "*",
                       AclOperation.ALL, AclPermissionType.ALLOW),
            AclBinding(ResourceType.BROKER, "kafka-cluster", ResourcePatternType.LITERAL, everyone, "*",
                       AclOperation.CREATE, AclPermissionType.DENY),
            AclBinding(ResourceType.TOPIC, prefix, ResourcePatternType.PREFIXED, everyone, "*", AclOperation.CREATE,
                       AclPermissionType.DENY)]
    admin = cluster.admin
    for f in admin.create_acls(acls).values():
        f.result(30)
    name = prefix + "t"

    def refused() -> bool:
        try:
            admin.create_topics([NewTopic(name, 1, 1)])[name].result(30)
        except KafkaException as e:
            return e.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
        raise AssertionError(f"{name} was created")

    try:
        wait_for(refused, 30, "the controller refusing the creation")
        assert name not in admin.list_topics(timeout=20).topics
        # a client on the controller's own listener (--bootstrap-controller) is authorized the same way
        controller = next(n for n in cluster.nodes.values() if n.controller_port)
        c = RawClient(f"127.0.0.1:{controller.controller_port}")
        try:
            resp = c.call(CreateTopicsRequest(topics=[CreatableTopic(name=prefix + "direct", num_partitions=1,
                                                                     replication_factor=1)], timeout_ms=20000), 7)
        finally:
            c.close()
        assert [(t.name, t.error_code) for t in resp.topics] == [(prefix + "direct", 29)]
    finally:
        for f in admin.delete_acls([AclBindingFilter(b.restype, b.name, b.resource_pattern_type, b.principal,
                                                     b.host, b.operation, b.permission_type)
                                    for b in acls]).values():
            f.result(30)


def test_node_apis_on_the_controller_listener_need_cluster_action(cluster):
    """BrokerHeartbeat and the Raft Vote on the controller's listener need CLUSTER_ACTION on the cluster (Kafka's
    ControllerApis): denied to User:ANONYMOUS from 127.0.0.2 only (the nodes, from 127.0.0.1, keep it), a
    client from there is refused CLUSTER_AUTHORIZATION_FAILED; from 127.0.0.1 it is answered."""
    from odradek.wire.messages.broker_heartbeat_request import BrokerHeartbeatRequest
    from odradek.wire.messages.vote_request import VoteRequest

    acls = [AclBinding(ResourceType.BROKER, "kafka-cluster", ResourcePatternType.LITERAL, "User:*", "*",
                       AclOperation.ALL, AclPermissionType.ALLOW),
            AclBinding(ResourceType.BROKER, "kafka-cluster", ResourcePatternType.LITERAL, "User:ANONYMOUS", "127.0.0.2",
                       AclOperation.CLUSTER_ACTION, AclPermissionType.DENY)]
    controller = next(n for n in cluster.nodes.values() if n.controller_port)

    def codes(source: str, requests=(BrokerHeartbeatRequest(broker_id=999, broker_epoch=1, current_metadata_offset=0),
                                     VoteRequest(cluster_id=None, voter_id=999, topics=[]))) -> tuple:
        c = RawClient(f"127.0.0.1:{controller.controller_port}", source_host=source)
        try:
            return tuple(c.call(r, 1 if r.API_KEY == 63 else 0).error_code for r in requests)
        finally:
            c.close()

    for f in cluster.admin.create_acls(acls).values():
        f.result(30)
    try:
        wait_for(lambda: codes("127.0.0.2") == (31, 31), 30, "the controller refusing 127.0.0.2")
        hb, vote = codes("127.0.0.1")
        assert hb != 31 and vote == 42  # INVALID_REQUEST: a Vote naming no partition
    finally:
        for f in cluster.admin.delete_acls([AclBindingFilter(b.restype, b.name, b.resource_pattern_type, b.principal,
                                                             b.host, b.operation, b.permission_type)
                                            for b in acls]).values():
            f.result(30)
