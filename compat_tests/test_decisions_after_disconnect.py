"""An admin write whose client goes away at once is carried out all the same, as Kafka 4.3's
controller carries out a request it accepted (checked on a Kafka 4.3 node: a raw CreateTopics of
500 topics, its socket closed right after the send, creates all 500). odradek decides a large
CreateTopics or AlterConfigs in steps; the steps go on after the client's socket closed, on a
single node (the broker's own controller) and in a cluster (forwarded to a separate controller
process). Another client then sees every change. A Metadata that auto-creates topics alike: Kafka 4.3
creates every unknown topic of it (300 checked) whether or not its client waits for the answer
(this test passes against Kafka with --bootstrap)."""

from __future__ import annotations

import socket
import uuid

from cluster import running_odradek, wait_for
from confluent_kafka.admin import AdminClient, ConfigResource

from odradek.wire.api import encode_request
from odradek.wire.messages.alter_configs_request import AlterableConfig, AlterConfigsRequest, AlterConfigsResource
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

TOPICS = 300  # a CreateTopics of ~20 steps, an AlterConfigs decided in ~30 parts
TOPIC = 2  # ConfigResource type


def _send_and_close(bootstrap: str, request, version: int) -> None:
    """The request written whole, the socket closed at once (no answer read)."""
    host, _, port = bootstrap.split(",")[0].rpartition(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(encode_request(request, version, 1, client_id="gone"))


def _create(names: list[str]) -> CreateTopicsRequest:
    return CreateTopicsRequest(timeout_ms=60_000, validate_only=False, topics=[
        CreatableTopic(name=n, num_partitions=1, replication_factor=1, assignments=[], configs=[]) for n in names])


def _alter(names: list[str], retention_ms: str) -> AlterConfigsRequest:
    return AlterConfigsRequest(validate_only=False, resources=[AlterConfigsResource(
        resource_type=TOPIC, resource_name=n, configs=[AlterableConfig(name="retention.ms", value=retention_ms)])
        for n in names])


def _existing(admin: AdminClient, prefix: str) -> int:
    return sum(1 for t in admin.list_topics(timeout=10).topics if t.startswith(prefix))


def _retention(admin: AdminClient, names: list[str]) -> set[str]:
    resources = [ConfigResource(ConfigResource.Type.TOPIC, n) for n in names]
    return {f.result()["retention.ms"].value for f in admin.describe_configs(resources, request_timeout=30).values()}


def _carried_out(bootstrap: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    names = [f"gone-{i}" for i in range(TOPICS)]
    _send_and_close(bootstrap, _create(names), 7)
    wait_for(lambda: _existing(admin, "gone-") == TOPICS, 120, f"the {TOPICS} topics created",
             lambda: _existing(admin, "gone-"))
    _send_and_close(bootstrap, _alter(names, "4321000"), 2)
    wait_for(lambda: _retention(admin, names) == {"4321000"}, 120, "every topic's retention.ms altered",
             lambda: _retention(admin, names))


def test_a_single_node_carries_out_the_writes_of_a_client_gone_at_once(fresh_broker):
    _carried_out(fresh_broker().bootstrap)


def test_a_cluster_carries_out_the_writes_of_a_client_gone_at_once(tmp_path):
    with running_odradek(tmp_path, controllers=1, brokers=1) as cluster:
        _carried_out(cluster.bootstrap)


def test_a_metadata_auto_creates_its_topics_for_a_client_gone_at_once(bootstrap):
    admin = AdminClient({"bootstrap.servers": bootstrap})
    prefix = f"auto-gone-{uuid.uuid4().hex[:8]}-"
    _send_and_close(bootstrap, MetadataRequest(topics=[MetadataRequestTopic(name=f"{prefix}{i}") for i in range(TOPICS)],
                                               allow_auto_topic_creation=True), 9)
    wait_for(lambda: _existing(admin, prefix) == TOPICS, 120, f"the {TOPICS} topics auto-created",
             lambda: _existing(admin, prefix))
