"""`odradek groups ...` as a subprocess against a live broker, with groups made by kafka-python.

Works against Apache Kafka too (`pytest compat_tests --bootstrap HOST:PORT`): the tool speaks only
the protocol. The describe output of Kafka 4.3's own kafka-consumer-groups tool (Maven Central jars;
needs Java and Maven) is checked to agree with ours.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid

import pytest

from harness import REPO, create_topic, kafka_tool

kafka = pytest.importorskip("kafka")
from kafka import KafkaConsumer, KafkaProducer, OffsetAndMetadata, TopicPartition  # noqa: E402

BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "200"}
PARTITIONS = 3
PER_PARTITION = 10


def odradek(bootstrap: str, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-m", "odradek", "groups", *argv, "--bootstrap-server", bootstrap],
                       capture_output=True, text=True, env=env, cwd=str(REPO), timeout=60)
    if check:
        assert p.returncode == 0, f"rc={p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p


def table(stdout: str) -> list[dict[str, str]]:
    """The rows of the (last) table in the output, as dicts keyed by the header."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    heads = [i for i, ln in enumerate(lines) if ln.startswith("GROUP ")]
    assert heads, stdout
    head = lines[heads[-1]]
    names = head.replace("COORDINATOR (ID)", "COORDINATOR_(ID)").split()
    starts = [head.index(n.replace("_", " ")) for n in names] + [None]
    return [{n.replace("_", " "): ln[starts[i]:starts[i + 1]].strip() for i, n in enumerate(names)}
            for ln in lines[heads[-1] + 1:]]


def offsets(stdout: str, key: str = "CURRENT-OFFSET") -> dict[int, str]:
    return {int(r["PARTITION"]): r[key] for r in table(stdout)}


def consumer(bootstrap: str, group: str, topic: str) -> KafkaConsumer:
    c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                      enable_auto_commit=False, session_timeout_ms=6000, heartbeat_interval_ms=500,
                      client_id=f"cli-test-{group}")
    c.subscribe([topic])
    deadline = time.monotonic() + 30
    while not c.assignment():
        c.poll(timeout_ms=200)
        assert time.monotonic() < deadline, "consumer got no assignment"
    return c


@pytest.fixture
def group_setup(bootstrap, topic_name):
    """A topic with 10 records in each of 3 partitions and an Empty group that committed 3, 10, 0."""
    create_topic(bootstrap, topic_name, PARTITIONS)
    p = KafkaProducer(bootstrap_servers=bootstrap)
    for i in range(PARTITIONS * PER_PARTITION):
        p.send(topic_name, f"v{i}".encode(), partition=i % PARTITIONS)
    p.flush()
    p.close()
    group = f"cli-{uuid.uuid4().hex[:8]}"
    c = consumer(bootstrap, group, topic_name)
    c.poll(timeout_ms=500)
    c.commit({TopicPartition(topic_name, 0): OffsetAndMetadata(3, None, -1),
              TopicPartition(topic_name, 1): OffsetAndMetadata(10, None, -1),
              TopicPartition(topic_name, 2): OffsetAndMetadata(0, None, -1)})
    c.close()
    wait_state(bootstrap, group, "Empty")
    return topic_name, group


def wait_state(bootstrap: str, group: str, state: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        p = odradek(bootstrap, "describe", group, "--state", check=False)
        if p.returncode == 0 and table(p.stdout)[0]["STATE"] == state:
            return
        assert time.monotonic() < deadline, f"group {group} not {state}: {p.stdout}{p.stderr}"
        time.sleep(0.2)


class Polling:
    """Keeps a consumer in its group (polling on a thread) until stopped."""

    def __init__(self, c: KafkaConsumer):
        self.c, self.stop_flag = c, False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        while not self.stop_flag:
            self.c.poll(timeout_ms=100)

    def stop(self):
        self.stop_flag = True
        self.t.join(10)
        self.c.close()


def test_list_and_list_state(bootstrap, group_setup):
    _, group = group_setup
    assert group in odradek(bootstrap, "list").stdout.split()
    rows = {r["GROUP"]: r["STATE"] for r in table(odradek(bootstrap, "list", "--state").stdout)}
    assert rows[group] == "Empty"
    assert group in odradek(bootstrap, "list", "--state", "Empty").stdout
    assert group not in odradek(bootstrap, "list", "--state", "Stable").stdout


def test_describe_lag_of_an_empty_group(bootstrap, group_setup):
    topic, group = group_setup
    p = odradek(bootstrap, "describe", group)
    assert f"Consumer group '{group}' has no active members." in p.stderr
    rows = table(p.stdout)
    assert [(r["TOPIC"], r["PARTITION"], r["CURRENT-OFFSET"], r["LOG-END-OFFSET"], r["LAG"]) for r in rows] == [
        (topic, "0", "3", "10", "7"), (topic, "1", "10", "10", "0"), (topic, "2", "0", "10", "10")]
    assert all(r["CONSUMER-ID"] == r["HOST"] == r["CLIENT-ID"] == "-" for r in rows)


def test_reset_dry_run_changes_nothing_and_execute_does(bootstrap, group_setup):
    topic, group = group_setup
    before = offsets(odradek(bootstrap, "describe", group).stdout)
    for mode in ([], ["--dry-run"]):
        p = odradek(bootstrap, "reset-offsets", group, "--all-topics", "--to-earliest", *mode)
        assert offsets(p.stdout, "NEW-OFFSET") == {0: "0", 1: "0", 2: "0"}
        assert offsets(odradek(bootstrap, "describe", group).stdout) == before
    p = odradek(bootstrap, "reset-offsets", group, "--all-topics", "--to-earliest", "--execute")
    assert offsets(p.stdout, "NEW-OFFSET") == {0: "0", 1: "0", 2: "0"}
    rows = table(odradek(bootstrap, "describe", group).stdout)
    assert {int(r["PARTITION"]): (r["CURRENT-OFFSET"], r["LAG"]) for r in rows} == \
        {0: ("0", "10"), 1: ("0", "10"), 2: ("0", "10")}


def test_reset_to_latest_offset_and_datetime_on_some_partitions(bootstrap, group_setup):
    topic, group = group_setup
    odradek(bootstrap, "reset-offsets", "--group", group, "--topic", f"{topic}:0,2", "--to-latest", "--execute")
    assert offsets(odradek(bootstrap, "describe", group).stdout) == {0: "10", 1: "10", 2: "10"}
    p = odradek(bootstrap, "reset-offsets", group, "--topic", topic, "--to-offset", "99", "--execute")
    assert "is higher than latest offset" in p.stderr
    assert offsets(p.stdout, "NEW-OFFSET") == {0: "10", 1: "10", 2: "10"}
    odradek(bootstrap, "reset-offsets", group, "--topic", f"{topic}:1", "--to-offset", "4", "--execute")
    assert offsets(odradek(bootstrap, "describe", group).stdout) == {0: "10", 1: "4", 2: "10"}
    p = odradek(bootstrap, "reset-offsets", group, "--topic", topic, "--to-datetime", "2000-01-01T00:00:00.000",
                "--dry-run")
    assert offsets(p.stdout, "NEW-OFFSET") == {0: "0", 1: "0", 2: "0"}
    p = odradek(bootstrap, "reset-offsets", group, "--topic", topic, "--to-datetime", "2999-01-01T00:00:00.000",
                "--dry-run")
    assert offsets(p.stdout, "NEW-OFFSET") == {0: "10", 1: "10", 2: "10"}
    p = odradek(bootstrap, "reset-offsets", group, "--topic", f"{topic}:7", "--to-earliest", check=False)
    assert p.returncode != 0 and "no partition 7" in p.stderr


def test_active_group_described_and_refused(bootstrap, group_setup):
    topic, group = group_setup
    runner = Polling(consumer(bootstrap, group, topic))
    try:
        wait_state(bootstrap, group, "Stable")
        rows = table(odradek(bootstrap, "describe", group).stdout)
        assert {r["CLIENT-ID"] for r in rows} == {f"cli-test-{group}"}
        assert sorted(int(r["PARTITION"]) for r in rows) == [0, 1, 2]
        members = table(odradek(bootstrap, "describe", group, "--members", "--verbose").stdout)
        assert len(members) == 1 and members[0]["#PARTITIONS"] == "3"
        assert members[0]["ASSIGNMENT"] == f"{topic}:0,1,2"
        before = odradek(bootstrap, "describe", group).stdout
        for mode in ("--execute", "--dry-run"):
            p = odradek(bootstrap, "reset-offsets", group, "--all-topics", "--to-earliest", mode, check=False)
            assert p.returncode == 1
            assert (f"Assignments can only be reset if the group '{group}' is inactive, "
                    f"but the current state is Stable.") in p.stderr
        assert offsets(odradek(bootstrap, "describe", group).stdout) == offsets(before)
        p = odradek(bootstrap, "delete", group, check=False)
        assert p.returncode == 1 and "NON_EMPTY_GROUP" in p.stderr
    finally:
        runner.stop()


def test_delete_and_missing_group(bootstrap, group_setup):
    _, group = group_setup
    p = odradek(bootstrap, "delete", "--group", group)
    assert f"Deletion of requested consumer groups ('{group}') was successful." in p.stdout
    assert group not in odradek(bootstrap, "list").stdout.split()
    p = odradek(bootstrap, "describe", group, check=False)
    assert p.returncode == 1 and f"Consumer group '{group}' does not exist." in p.stderr
    p = odradek(bootstrap, "delete", group, check=False)
    assert p.returncode == 1 and "GROUP_ID_NOT_FOUND" in p.stderr


def test_kafka_consumer_groups_tool_agrees(bootstrap, group_setup):
    topic, group = group_setup
    p = kafka_tool("consumer-groups", "--bootstrap-server", bootstrap, "--describe", "--group", group)
    assert p.returncode == 0, p.stderr
    ours = table(odradek(bootstrap, "describe", group).stdout)
    key = ("TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG")
    assert sorted(tuple(r[k] for k in key) for r in table(p.stdout)) == sorted(tuple(r[k] for k in key) for r in ours)
