"""The nodes of a cluster talking TLS and SASL to each other (issue 22): 1 controller + 2 brokers whose
CONTROLLER listener (the Raft quorum, broker registration and heartbeats, forwarded admin writes)
is SASL_SSL with PLAIN (sasl.mechanism.controller.protocol) and whose inter-broker listener
INTERNAL (replica fetchers, inter-broker RPCs) is SSL with client certificates required (mTLS
between the brokers), clients on a PLAINTEXT listener. A topic
replicated on both brokers takes records with acks=all (so the follower fetched them over TLS)
and both brokers stay in its ISR."""

from __future__ import annotations

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import NewTopic

from cluster import FAST, Cluster, free_base, launch, odradek_node, wait_for
from harness import free_port, poll_values
from odradek.cli_cluster import cluster_layout
from tls_certs import TestCA

TOPIC = "replicated-over-tls"
# the controller listener's users (user_node) and the nodes' own credentials on it (username/password)
JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="node" password="node-secret" '
        'user_node="node-secret";')


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory):
    root = tmp_path_factory.mktemp("cluster-tls")
    ca = TestCA(tmp_path_factory.mktemp("certs"))
    keystore = ca.keystore_pem("node", "localhost", "kpw")
    tls = {"listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,INTERNAL:SSL,CONTROLLER:SASL_SSL",
           "ssl.keystore.type": "PEM", "ssl.keystore.location": str(keystore), "ssl.key.password": "kpw",
           "ssl.truststore.type": "PEM", "ssl.truststore.location": str(ca.ca_file),
           "listener.name.internal.ssl.client.auth": "required",
           "sasl.mechanism.controller.protocol": "PLAIN", "listener.name.controller.sasl.enabled.mechanisms": "PLAIN",
           "listener.name.controller.plain.sasl.jaas.config": JAAS}
    nodes = []
    for props in cluster_layout(1, 2, free_base(1, 2), str(root)):
        props.update(FAST)
        props.update(tls)
        props.update({"offsets.topic.replication.factor": "2", "transaction.state.log.replication.factor": "2",
                      "transaction.state.log.min.isr": "1"})
        if "broker" in props["process.roles"]:
            props["listeners"] += f",INTERNAL://127.0.0.1:{free_port()}"
            props["inter.broker.listener.name"] = "INTERNAL"
        nodes.append(odradek_node(props))
    cluster = launch(Cluster("odradek", nodes))
    try:
        yield cluster
    finally:
        cluster.close()


def test_a_topic_replicates_between_brokers_over_tls(tls_cluster):
    admin = tls_cluster.admin
    admin.create_topics([NewTopic(TOPIC, 2, 2)])[TOPIC].result(60)
    p = Producer({"bootstrap.servers": tls_cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(20):
        p.produce(TOPIC, f"r{i}".encode(), partition=i % 2)
    assert p.flush(60) == 0
    got = poll_values({"bootstrap.servers": tls_cluster.bootstrap}, TOPIC, lambda got: len(got) >= 20)
    assert sorted(got) == sorted(f"r{i}".encode() for i in range(20))

    def both_in_sync() -> bool:
        md = admin.list_topics(TOPIC, timeout=10).topics[TOPIC]
        return all(sorted(p.isrs) == sorted(p.replicas) and len(p.replicas) == 2 for p in md.partitions.values())

    wait_for(both_in_sync, 30, "both brokers in the ISR of every partition")
    assert all(_plaintext_api_versions(b.port) is not None for b in tls_cluster.brokers)  # the clients' PLAINTEXT
    for node in tls_cluster.nodes.values():  # the node ports speak TLS only: a plaintext request gets no answer
        for port in _node_ports(node):
            assert _plaintext_api_versions(port) is None, port


def _node_ports(node) -> list[int]:
    text = next(x for x in node.command if x.startswith("listeners="))  # serve_command's overrides
    return [int(item.rsplit(":", 1)[1]) for item in text.split("=", 1)[1].split(",")
            if item.startswith(("INTERNAL://", "CONTROLLER://"))]


def _plaintext_api_versions(port: int) -> bytes | None:
    """The answer to a plaintext ApiVersions v0 (correlation id 7), None when the port answers none."""
    import socket
    import struct

    body = struct.pack(">hhih", 18, 0, 7, 4) + b"test"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(struct.pack(">i", len(body)) + body)
        data = b""
        try:
            while len(data) < 8:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except (TimeoutError, ConnectionError):
            pass
    ok = len(data) >= 8 and struct.unpack(">i", data[4:8])[0] == 7
    return data if ok else None
