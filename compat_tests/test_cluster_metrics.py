"""Metrics and health of a cluster's nodes (odradek.http.port on each): the controller's
KafkaController and raft gauges, a broker's ReplicaManager gauges following an ISR shrink when
another broker dies. One controller and two brokers, real processes."""

from __future__ import annotations

import http.client

import pytest
from prometheus_client.parser import text_string_to_metric_families

from cluster import FAST, READY_S, start_cluster, wait_for
from harness import free_port

CONTROLLER, B1, B2 = 1, 2, 3


def scrape(port: int) -> dict[str, float]:
    """Unlabelled samples by name (the node-wide gauges)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/metrics")
        resp = conn.getresponse()
        assert resp.status == 200
        body = resp.read().decode()
    finally:
        conn.close()
    return {s.name: s.value for f in text_string_to_metric_families(body) for s in f.samples if not s.labels}


def ready(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/health/ready")
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    ports = {n: free_port() for n in (CONTROLLER, B1, B2)}
    c = start_cluster("odradek", tmp_path_factory.mktemp("metrics-cluster"), controllers=1, brokers=2,
                      props=FAST, node_props={n: {"odradek.http.port": str(p)} for n, p in ports.items()})
    try:
        yield c, ports
    finally:
        c.close()


def test_every_node_is_ready(cluster):
    _, ports = cluster
    assert {n: ready(p) for n, p in ports.items()} == {CONTROLLER: 200, B1: 200, B2: 200}


def test_controller_and_quorum_gauges(cluster):
    c, ports = cluster
    c.create_topic("replicated", 4, 2, {})
    ctl = wait_for(lambda: (m := scrape(ports[CONTROLLER]))["kafka_controller_kafkacontroller_globaltopiccount"] >= 1
                   and m, READY_S, "the topic in the controller's metrics")
    assert ctl["kafka_controller_kafkacontroller_activecontrollercount"] == 1
    assert ctl["kafka_controller_kafkacontroller_globalpartitioncount"] >= 4
    assert ctl["kafka_controller_kafkacontroller_offlinepartitionscount"] == 0
    assert ctl["kafka_server_raft_metrics_current_leader"] == CONTROLLER
    assert ctl["kafka_server_raft_metrics_is_voter"] == 1
    assert ctl["kafka_server_raft_metrics_high_watermark"] > 0
    broker = scrape(ports[B1])
    assert "kafka_controller_kafkacontroller_activecontrollercount" not in broker  # no controller role
    assert broker["kafka_server_raft_metrics_current_leader"] == CONTROLLER
    assert broker["kafka_server_raft_metrics_is_voter"] == 0


def test_isr_shrink_shows_as_under_replicated(cluster):
    c, ports = cluster
    c.create_topic("shrinking", 2, 2, {})
    wait_for(lambda: scrape(ports[B1])["kafka_server_replicamanager_partitioncount"] >= 2, READY_S,
             "both replicas on broker 2")
    before = scrape(ports[B1])
    assert before["kafka_server_replicamanager_underreplicatedpartitions"] == 0
    c.kill9(B2)
    # every partition with a replica on the dead broker is led by broker 2 with an ISR of one
    after = wait_for(lambda: (m := scrape(ports[B1]))["kafka_server_replicamanager_underreplicatedpartitions"]
                     == m["kafka_server_replicamanager_leadercount"] == m["kafka_server_replicamanager_partitioncount"]
                     and m, READY_S, "broker 2 leading everything, under-replicated")
    assert after["kafka_server_replicamanager_leadercount"] >= 2
    # (IsrShrinksPerSec counts the shrinks this leader proposes; here the controller may remove the dead
    # broker first, when it fences it, so the count is not asserted)
    assert after["kafka_server_replicamanager_isrshrinks_total"] >= before["kafka_server_replicamanager_isrshrinks_total"]
