"""Kafka 4.3's kafka-log-dirs --describe and kafka-replica-verification against a cluster of real
processes (issue 20): 3 controllers + 3 brokers, a topic with replication.factor=3 and one with a
single replica per partition, records produced with acks=all and every replica caught up.

kafka-log-dirs (DescribeLogDirs to every broker): each broker lists its one log directory, without
error, and in it exactly the replicas the metadata assigns it, each with the size of its segment files
(the bytes of the record batches on disk), an offset lag of 0 (Kafka's: the high watermark minus the
log end offset, never below 0) and not a future replica. kafka-replica-verification (a debugging
consumer's Fetch to every replica, checksums compared batch by batch): no replica differs and the max
lag is 0 once every replica has caught up. Run against Apache Kafka 4.3 with --cluster-kafka."""
from __future__ import annotations

import json
import re
import subprocess
import threading

import pytest
from confluent_kafka import Producer

import apache_kafka
from cluster import replica_batches, running_cluster, wait_for
from harness import kafka_tool

TOPICS = {"logdirs3": (3, 3), "logdirs1": (2, 1)}  # name: (partitions, replication factor)
N = 150  # records per partition
LAG_LINE = re.compile(r": max lag is (-?\d+) for partition (\S+) at offset (-?\d+) among (\d+) partitions")

pytestmark = pytest.mark.timeout(1200)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("log-dirs-tools"), request.config) as c:
        yield c


@pytest.fixture(scope="module")
def loaded(cluster):
    """The topics created, N records acknowledged on every partition, every replica identical."""
    assign = {}
    for name, (parts, rf) in TOPICS.items():
        assign[name] = cluster.create_topic(name, parts, rf, {})
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "linger.ms": 5})
    for name, (parts, _) in TOPICS.items():
        for part in range(parts):
            for i in range(N):
                p.produce(name, value=b"value-%d-%d" % (part, i), key=b"k%d" % i, partition=part)
    assert p.flush(60) == 0
    for name, (parts, _) in TOPICS.items():
        cluster.wait_identical_replicas(name, parts)
    return assign


def test_kafka_log_dirs_describes_every_replica_of_each_broker(cluster, loaded):
    out = kafka_tool("log-dirs", "--bootstrap-server", cluster.bootstrap, "--describe",
                     "--topic-list", ",".join(TOPICS))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    broker_ids = sorted(n.id for n in cluster.brokers)
    assert lines[:2] == ["Querying brokers for log directories information",
                         "Received log directory information from brokers " + ",".join(map(str, broker_ids))]
    described = json.loads(lines[2])
    assert described["version"] == 1
    assert sorted(b["broker"] for b in described["brokers"]) == broker_ids
    for b in described["brokers"]:
        node = cluster.node(b["broker"])
        [log_dir] = b["logDirs"]
        assert log_dir["logDir"] == str(node.log_dir.resolve()) and log_dir["error"] is None
        expected = {f"{name}-{p}": {"partition": f"{name}-{p}", "offsetLag": 0, "isFuture": False,
                                    "size": sum(len(batch) for _, batch in replica_batches(node.log_dir, name, p))}
                    for name, state in loaded.items() for p, ps in state.items() if node.id in ps.replicas}
        got = {p["partition"]: p for p in log_dir["partitions"]}
        assert got == expected, (node.id, got, expected)
        assert all(p["size"] > 0 for p in got.values())


def test_kafka_replica_verification_finds_no_lag_and_no_difference(cluster, loaded):
    reason = apache_kafka.missing()
    if reason:
        pytest.skip(reason)
    cmd = apache_kafka.tool_command("replica-verification", "--broker-list", cluster.bootstrap,
                                    "--topics-include", "|".join(TOPICS), "--time", "-2",
                                    "--report-interval-ms", "1000")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    try:
        def caught_up():
            reports = [m for ln in list(lines) if (m := LAG_LINE.search(ln))]
            return next((m for m in reports if m.group(1) == "0"), None)
        report = wait_for(caught_up, 180, "a report of no lag", last=lambda: lines[-10:])
        assert proc.poll() is None, "".join(lines[-20:])
        partitions = sum(parts for parts, _ in TOPICS.values())
        assert report.group(4) == str(partitions)
        name, _, p = report.group(2).rpartition("-")
        assert name in TOPICS and report.group(3) == str(N)  # the partition's high watermark
        assert "verification process is started" in lines[0]
        assert not [ln for ln in lines if "doesn't match replica" in ln or "Error" in ln]
    finally:
        proc.kill()
        proc.wait()
