"""The nodes of a cluster talking TLS and SASL to each other (issue 22): 1 controller + 2 brokers whose
CONTROLLER listener (the Raft quorum, broker registration and heartbeats, forwarded admin writes)
is SASL_SSL with PLAIN (sasl.mechanism.controller.protocol) and whose inter-broker listener
INTERNAL (replica fetchers, inter-broker RPCs) is SSL with client certificates required (mTLS
between the brokers), clients on a PLAINTEXT listener. A topic
replicated on both brokers takes records with acks=all (so the follower fetched them over TLS)
and both brokers stay in its ISR. The same with SASL_PLAINTEXT between the nodes: SCRAM
(sasl.mechanism.controller.protocol / inter.broker.protocol, ScramLoginModule credentials) and PLAIN."""

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
    _replicates(tls_cluster, TOPIC)
    assert all(_plaintext_api_versions(b.port) is not None for b in tls_cluster.brokers)  # the clients' PLAINTEXT
    for node in tls_cluster.nodes.values():  # the node ports speak TLS only: a plaintext request gets no answer
        for port in _node_ports(node):
            assert _plaintext_api_versions(port) is None, port


def _replicates(cluster: Cluster, topic: str) -> None:
    """A topic of 2 partitions on both brokers takes 20 records with acks=all (the followers fetched
    them through their links), they read back, and both brokers stay in every ISR."""
    admin = cluster.admin
    admin.create_topics([NewTopic(topic, 2, 2)])[topic].result(60)
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(20):
        p.produce(topic, f"r{i}".encode(), partition=i % 2)
    assert p.flush(60) == 0
    got = poll_values({"bootstrap.servers": cluster.bootstrap}, topic, lambda got: len(got) >= 20)
    assert sorted(got) == sorted(f"r{i}".encode() for i in range(20))

    def both_in_sync() -> bool:
        md = admin.list_topics(topic, timeout=10).topics[topic]
        return all(sorted(p.isrs) == sorted(p.replicas) and len(p.replicas) == 2 for p in md.partitions.values())

    wait_for(both_in_sync, 30, "both brokers in the ISR of every partition")


SCRAM_JAAS = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="node" password="node-secret";'
SASL_NODES = {
    # CONTROLLER SCRAM-SHA-512, INTERNAL SCRAM-SHA-256; the credentials live in the metadata log, so the
    # controller starts with them as Kafka's `kafka-storage format --add-scram` gives them
    "scram": {"listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,INTERNAL:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
              "sasl.mechanism.controller.protocol": "SCRAM-SHA-512",
              "listener.name.controller.sasl.enabled.mechanisms": "SCRAM-SHA-512",
              "listener.name.controller.scram-sha-512.sasl.jaas.config": SCRAM_JAAS,
              "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-256",
              "listener.name.internal.sasl.enabled.mechanisms": "SCRAM-SHA-256",
              "listener.name.internal.scram-sha-256.sasl.jaas.config": SCRAM_JAAS},
    # INTERNAL PLAIN
    "plain": {"listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,INTERNAL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
              "sasl.mechanism.inter.broker.protocol": "PLAIN",
              "listener.name.internal.sasl.enabled.mechanisms": "PLAIN",
              "listener.name.internal.plain.sasl.jaas.config": JAAS},
}
ADD_SCRAM = ["--add-scram", "SCRAM-SHA-512=[name=node,password=node-secret]",
             "--add-scram", "SCRAM-SHA-256=[name=node,password=node-secret,iterations=8192]"]


@pytest.mark.parametrize("mode", ["scram", "plain"])
def test_a_topic_replicates_between_brokers_authenticated_with_sasl(tmp_path, mode):
    """1 controller + 2 brokers whose nodes authenticate to each other with SASL_PLAINTEXT (SCRAM to the
    controller and between brokers, or PLAIN between brokers); a wrong node password keeps the brokers
    from registering (checked by hand)."""
    nodes = []
    for props in cluster_layout(1, 2, free_base(1, 2), str(tmp_path)):
        props.update({**FAST, **SASL_NODES[mode], "offsets.topic.replication.factor": "2",
                      "transaction.state.log.replication.factor": "2", "transaction.state.log.min.isr": "1"})
        if "broker" in props["process.roles"]:
            props["listeners"] += f",INTERNAL://127.0.0.1:{free_port()}"
            props["inter.broker.listener.name"] = "INTERNAL"
        node = odradek_node(props)
        if "controller" in props["process.roles"]:
            node.command += ADD_SCRAM
        nodes.append(node)
    cluster = launch(Cluster("odradek", nodes))
    try:
        _replicates(cluster, f"replicated-over-{mode}")
    finally:
        cluster.close()


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
