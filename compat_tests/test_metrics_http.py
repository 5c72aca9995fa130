"""`odradek serve --http-port P`: Prometheus metrics under the JMX exporter's standard Kafka
names, and the health checks, read over real HTTP after known traffic from a real client."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from confluent_kafka import Consumer, Producer
from harness import REPO, BrokerProcess, create_topic, free_port
from metrics_scrape import get, scrape

RECORDS = 250
VALUE = b"v" * 40
RECOVERY_RECORDS = 40_000  # 40 MB in one partition, never flushed: its recovery after kill -9 takes a while


def topic_sum(metrics: dict, name: str, topic: str) -> float:
    return sum(v for (n, labels), v in metrics.items() if n == name and ("topic", topic) in labels)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    http_port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("metrics")),
                      {"odradek.http.port": str(http_port), "group.initial.rebalance.delay.ms": "0",
                       "log.cleaner.backoff.ms": "100"})
    b.start()
    try:
        yield b, http_port
    finally:
        b.stop()


def test_health(served):
    _, port = served
    assert get(port, "/health/live")[0] == 200
    status, _, body = get(port, "/health/ready")
    assert (status, body) == (200, b"ready\n")


def test_unknown_path_and_method(served):
    _, port = served
    assert get(port, "/nope")[0] == 404
    assert get(port, "/metrics", "POST")[0] == 405


def test_counts_after_known_traffic(served):
    broker, port = served
    topic = "metered"
    create_topic(broker.bootstrap, topic, partitions=2)
    before = scrape(port)
    p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
    for i in range(RECORDS):
        p.produce(topic, key=b"k%d" % i, value=VALUE)
    assert p.flush(60) == 0

    after_produce = scrape(port)
    assert topic_sum(after_produce, "kafka_server_brokertopicmetrics_messagesin_total", topic) == RECORDS
    # every appended byte is on disk: BytesIn equals the topic's log size
    on_disk = topic_sum(after_produce, "kafka_log_log_size", topic)
    assert on_disk > RECORDS * len(VALUE)
    assert topic_sum(after_produce, "kafka_server_brokertopicmetrics_bytesin_total", topic) == on_disk
    assert topic_sum(after_produce, "kafka_log_log_logendoffset", topic) == RECORDS
    all_in = after_produce[("kafka_server_brokertopicmetrics_messagesin_total", ())]
    assert all_in - before.get(("kafka_server_brokertopicmetrics_messagesin_total", ()), 0) >= RECORDS
    produce_count = after_produce[("kafka_network_requestmetrics_totaltimems_count_total", (("request", "Produce"),))]
    assert produce_count >= 1
    assert after_produce[("kafka_network_requestmetrics_totaltimems",
                          (("quantile", "0.99"), ("request", "Produce")))] >= 0
    versions = [v for (n, labels), v in after_produce.items()
                if n == "kafka_network_requestmetrics_requests_total" and ("request", "Produce") in labels]
    assert sum(versions) == produce_count

    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "metered-group",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([topic])
    got = 0
    deadline = time.monotonic() + 60
    while got < RECORDS and time.monotonic() < deadline:
        m = c.poll(1)
        if m is not None and m.error() is None:
            got += 1
    assert got == RECORDS
    c.commit(asynchronous=False)
    after_consume = scrape(port)
    # a consumer read every byte of the topic once: BytesOut equals the log size
    assert topic_sum(after_consume, "kafka_server_brokertopicmetrics_bytesout_total", topic) == on_disk
    assert after_consume[("kafka_coordinator_group_groupmetadatamanager_numgroups", ())] >= 1
    assert after_consume[("kafka_coordinator_group_groupmetadatamanager_numoffsets", ())] >= 2
    # one classic member joined once: one completed rebalance, no consumer-protocol epoch bump
    completed = ("kafka_server_group_coordinator_metrics_group_completed_rebalance_count", ())
    bumps = ("kafka_server_group_coordinator_metrics_consumer_group_rebalance_count", ())
    assert after_consume[completed] - before[completed] == 1
    assert after_consume[bumps] == before[bumps]
    lags = {dict(labels)["partition"]: v for (n, labels), v in after_consume.items()
            if n == "kafka_consumergroup_lag" and ("consumergroup", "metered-group") in labels}
    assert lags == {"0": 0, "1": 0}  # everything read and committed
    more = Producer({"bootstrap.servers": broker.bootstrap})
    for _ in range(5):
        more.produce(topic, VALUE, partition=0)
    assert more.flush(30) == 0
    lagging = scrape(port)
    assert lagging[("kafka_consumergroup_lag", (("consumergroup", "metered-group"), ("partition", "0"),
                                                ("topic", topic)))] == 5
    assert sum(v for (n, labels), v in after_consume.items()
               if n == "kafka_network_requestmetrics_requests_total" and ("request", "FetchConsumer") in labels) >= 1
    assert after_consume[("kafka_server_socket_server_metrics_connection_count", (("listener", "PLAINTEXT"),))] >= 1
    c.close()

    assert after_consume[("kafka_server_replicamanager_leadercount", ())] >= 2
    assert after_consume[("kafka_server_replicamanager_underreplicatedpartitions", ())] == 0
    assert after_consume[("kafka_controller_kafkacontroller_activecontrollercount", ())] == 1
    assert after_consume[("kafka_controller_kafkacontroller_globaltopiccount", ())] >= 1
    assert after_consume[("process_resident_memory_bytes", ())] > 0


def test_request_time_components_and_log_flushes(served):
    """Every RequestMetrics time histogram Kafka has, counted once per request; each flush of a
    flush.messages=1 topic timed once (LogFlushRateAndTimeMs)."""
    broker, port = served
    create_topic(broker.bootstrap, "flushed", configs={"flush.messages": "1"})
    flushes = "kafka_log_logflushstats_logflushrateandtimems_count_total", ()
    before = scrape(port)
    p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 0})
    for i in range(5):  # five produce requests, five appends
        p.produce("flushed", b"r%d" % i)
        assert p.flush(30) == 0
    after = scrape(port)
    assert after[flushes] - before.get(flushes, 0) == 5
    assert ("kafka_log_logflushstats_logflushrateandtimems", (("quantile", "0.99"),)) in after
    counts = {c: after[(f"kafka_network_requestmetrics_{c}_count_total", (("request", "Produce"),))]
              for c in ("requestqueuetimems", "localtimems", "remotetimems", "throttletimems",
                        "responsequeuetimems", "responsesendtimems", "totaltimems")}
    assert len(set(counts.values())) == 1 and counts["totaltimems"] >= 5, counts
    # no quota here: never throttled; no response queue in odradek
    for comp in ("throttletimems", "responsequeuetimems"):
        assert after[(f"kafka_network_requestmetrics_{comp}", (("quantile", "0.999"), ("request", "Produce")))] == 0


def test_log_cleaner_metrics_after_a_pass(served):
    broker, port = served
    topic = "compacted-metrics"
    create_topic(broker.bootstrap, topic, configs={"cleanup.policy": "compact", "segment.ms": "100",
                                                   "min.cleanable.dirty.ratio": "0.01"})
    recopy = "kafka_log_logcleaner_cleaner_recopy_percent", ()
    p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 0})
    deadline = time.monotonic() + 60
    metrics = scrape(port)
    while metrics[recopy] == 0:  # each append after segment.ms rolls a segment: the cleaner gets work
        assert time.monotonic() < deadline, "no cleaner pass in 60 s"
        for k in range(4):
            p.produce(topic, key=b"k%d" % k, value=b"v" * 100)
        assert p.flush(30) == 0
        metrics = scrape(port)
    assert 0 < metrics[recopy] <= 100
    assert metrics[("kafka_log_logcleaner_max_buffer_utilization_percent", ())] > 0
    assert metrics[("kafka_log_logcleaner_deadthreadcount", ())] == 0
    assert metrics[("kafka_log_logcleanermanager_time_since_last_run_ms", ())] >= 0
    data_dir = f'"{broker.data_dir}"'
    assert metrics[("kafka_log_logcleanermanager_uncleanable_partitions_count", (("logDirectory", data_dir),))] == 0
    assert metrics[("kafka_log_logcleanermanager_uncleanable_bytes", (("logDirectory", data_dir),))] == 0
    # one log line per roll and per cleaner pass
    assert any(f"{topic}-0: rolled new log segment at offset" in line for line in broker.output)
    assert any(f"{topic}-0: cleaned offsets [0, " in line for line in broker.output)


def test_throttle_times_of_a_client_over_its_quota(served):
    """A client over producer_byte_rate: the throttle time it is told is the broker's
    ThrottleTimeMs sample, and its quota sensor's throttle-time is the average over its requests."""
    from test_client_quotas import set_quota

    broker, port = served
    create_topic(broker.bootstrap, "quota-metrics")
    set_quota(broker, "slow-metrics", "producer_byte_rate", 1000)
    told: list[float] = []
    p = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "slow-metrics", "linger.ms": 0,
                  "throttle_cb": lambda e: told.append(e.throttle_time)})
    for _ in range(4):  # 12,000 bytes in Kafka's 10 s minimum window: the 4th request is over 1,000 B/s
        p.produce("quota-metrics", b"q" * 3000)
        assert p.flush(60) == 0
    p.poll(0.5)
    metrics = scrape(port)
    throttled = [t for t in told if t > 0]
    assert len(throttled) == 1
    told_ms = throttled[0] * 1000
    assert metrics[("kafka_network_requestmetrics_throttletimems",
                    (("quantile", "0.999"), ("request", "Produce")))] == told_ms
    assert metrics[("kafka_server_quota_throttle_time", (("clientId", "slow-metrics"), ("resource", "Produce")))] \
        == told_ms / 4


def test_no_http_listener_unless_asked(tmp_path):
    b = BrokerProcess(str(tmp_path))
    b.start()
    try:
        assert not any("HTTP endpoints" in line for line in b.output)
    finally:
        b.stop()


def test_status_command(served):
    broker, _ = served
    ok = subprocess.run([sys.executable, "-m", "odradek", "status", "-b", broker.bootstrap], capture_output=True,
                        text=True, timeout=60, cwd=str(REPO))
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.splitlines()
    assert lines[0].startswith("cluster ") and lines[0].endswith(", controller 1")
    assert lines[2].split() == ["1", broker.bootstrap]
    assert lines[-1] == "ready"
    down = subprocess.run([sys.executable, "-m", "odradek", "status", "--bootstrap", f"127.0.0.1:{free_port()}"],
                          capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert down.returncode == 1 and down.stdout == ""
    assert len(down.stderr.splitlines()) == 1 and "could not be established" in down.stderr


def test_ready_only_after_a_long_recovery(tmp_path):
    """After kill -9 with 40 MB unflushed, the restart recovers the log before serving: meanwhile
    /health/live answers 200 and /health/ready 503 (the loading runs off the HTTP listener's loop),
    and once ready says 200 the recovered log holds every record."""
    http_port = free_port()
    b = BrokerProcess(str(tmp_path), {"odradek.http.port": str(http_port)})
    b.start()
    try:
        create_topic(b.bootstrap, "recovering")
        p = Producer({"bootstrap.servers": b.bootstrap, "linger.ms": 20, "batch.size": 1_000_000})
        value = b"r" * 1000
        for _ in range(RECOVERY_RECORDS):
            while True:
                try:
                    p.produce("recovering", value)
                    break
                except BufferError:
                    p.poll(0.1)
        assert p.flush(120) == 0
        b.kill9()
        starting = threading.Thread(target=b.start)
        starting.start()
        answers: list[int] = []
        live_meanwhile = []
        deadline = time.monotonic() + 120
        while not answers or answers[-1] != 200:
            assert time.monotonic() < deadline and (starting.is_alive() or answers), answers
            try:
                status = get(http_port, "/health/ready")[0]
            except OSError:  # the HTTP listener is not up yet
                starting.join(0.005)
                continue
            answers.append(status)
            if status == 503:
                live_meanwhile.append(get(http_port, "/health/live")[0])
        starting.join(120)
        assert set(answers[:-1]) == {503}, answers
        assert live_meanwhile and set(live_meanwhile) == {200}
        assert topic_sum(scrape(http_port), "kafka_log_log_logendoffset", "recovering") == RECOVERY_RECORDS
    finally:
        b.stop()
