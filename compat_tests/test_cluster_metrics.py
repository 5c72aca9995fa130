"""Metrics and health of a cluster's nodes (odradek.http.port on each): the controller's
KafkaController and raft gauges, a broker's ReplicaManager gauges following an ISR shrink when
another broker dies, and the same shrink in the web console of a broker (headless Chromium: a
partition's replicas and ISR before and after). One controller and two brokers, real processes."""

from __future__ import annotations

import http.client
import math

import pytest
from prometheus_client.parser import text_string_to_metric_families

from browser import browser, have_browser, texts  # noqa: F401 - browser: the fixture
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
    # the leader timed its appends to commit (the topic's records); an observer has none
    assert 0 <= ctl["kafka_server_raft_metrics_commit_latency_avg"] <= ctl["kafka_server_raft_metrics_commit_latency_max"]
    broker = scrape(ports[B1])
    assert "kafka_controller_kafkacontroller_activecontrollercount" not in broker  # no controller role
    assert broker["kafka_server_raft_metrics_current_leader"] == CONTROLLER
    assert broker["kafka_server_raft_metrics_is_voter"] == 0
    assert math.isnan(broker["kafka_server_raft_metrics_commit_latency_avg"])


def isr_view(driver, url: str) -> list[tuple[list[int], list[int]]]:
    """(replicas, ISR) of each partition as the console's topic page shows them."""
    from selenium.webdriver.common.by import By

    driver.get(url)
    rows = driver.find_elements(By.CSS_SELECTOR, "#partitions tr")[1:]
    return [([int(x) for x in r.find_elements(By.TAG_NAME, "td")[2].text.split(",")],
             [int(x) for x in r.find_element(By.CLASS_NAME, "isr").text.split(",") if x]) for r in rows]


def browser_of(request):
    return request.getfixturevalue("browser")


def test_isr_shrink_shows_as_under_replicated(cluster, request):
    c, ports = cluster
    c.create_topic("shrinking", 2, 2, {})
    wait_for(lambda: scrape(ports[B1])["kafka_server_replicamanager_partitioncount"] >= 2, READY_S,
             "both replicas on broker 2")
    before = scrape(ports[B1])
    assert before["kafka_server_replicamanager_underreplicatedpartitions"] == 0
    isr_page = f"http://127.0.0.1:{ports[B1]}/console/topics/shrinking"
    if have_browser():  # the console shows both replicas in sync (the Chromium check; skipped without it)
        isr_before = wait_for(lambda: (v := isr_view(browser_of(request), isr_page)) and
                              all(sorted(isr) == [B1, B2] for _, isr in v) and v, READY_S, "both replicas in sync")
        assert [sorted(replicas) for replicas, _ in isr_before] == [[B1, B2], [B1, B2]]
    c.kill9(B2)
    # every partition with a replica on the dead broker is led by broker 2 with an ISR of one
    after = wait_for(lambda: (m := scrape(ports[B1]))["kafka_server_replicamanager_underreplicatedpartitions"]
                     == m["kafka_server_replicamanager_leadercount"] == m["kafka_server_replicamanager_partitioncount"]
                     and m, READY_S, "broker 2 leading everything, under-replicated")
    assert after["kafka_server_replicamanager_leadercount"] >= 2
    # (IsrShrinksPerSec counts the shrinks this leader proposes; here the controller may remove the dead
    # broker first, when it fences it, so the count is not asserted)
    assert after["kafka_server_replicamanager_isrshrinks_total"] >= before["kafka_server_replicamanager_isrshrinks_total"]
    if have_browser():  # the console of the broker left: an ISR of one, itself
        d = browser_of(request)
        after_view = wait_for(lambda: (v := isr_view(d, isr_page)) and all(isr == [B1] for _, isr in v) and v,
                              READY_S, "the console showing the shrunk ISR")
        assert [sorted(replicas) for replicas, _ in after_view] == [[B1, B2], [B1, B2]]
        d.shot("cluster-isr-shrunk")
