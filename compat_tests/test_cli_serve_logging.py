"""`odradek serve` logs notable events at INFO by default and nothing per request:
the listener bound, topics created and removed, group rebalances, segments deleted by
retention; `--log-level WARNING` keeps them out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from harness import REPO, create_topic, free_port

# small segments and a frequent retention pass, so that a deletion happens within the test
BROKER_OVERRIDES = {"log.segment.bytes": "1024", "log.retention.check.interval.ms": "200",
                    "group.initial.rebalance.delay.ms": "0"}


def wait_for_line(broker, needle: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(broker.output):
            if needle in line:
                return line
        time.sleep(0.05)
    raise AssertionError(f"no broker line with {needle!r}:\n" + "".join(broker.output[-30:]))


def odradek(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "odradek", *argv], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=str(REPO))


@pytest.fixture
def served(controllable_broker):
    """The odradek process this suite started, whose log lines are read (skipped with --bootstrap:
    another broker's output is not ours to read)."""
    return controllable_broker


def test_listener_bound_at_info(served):
    line = wait_for_line(served, "Awaiting socket connections on")
    assert " INFO " in line and f"{served.host}:{served.port}" in line


def test_topics_created_and_removed(served, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, partitions=2)
    assert " INFO " in wait_for_line(served, f"Created topic {topic_name} with topic ID")
    assert "and 2 partition(s)." in wait_for_line(served, f"Created topic {topic_name} with topic ID")
    assert odradek("topics", "delete", topic_name, "-b", bootstrap).returncode == 0
    wait_for_line(served, f"Removed topic {topic_name} with ID")


def test_group_rebalance(served, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    assert odradek("produce", topic_name, "-b", bootstrap, stdin="a\n").returncode == 0
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": topic_name, "auto.offset.reset": "earliest",
                  "group.protocol": "classic"})
    try:
        c.subscribe([topic_name])
        deadline = time.monotonic() + 30
        m = None
        while m is None and time.monotonic() < deadline:
            m = c.poll(1)
        assert m is not None and m.value() == b"a"
    finally:
        c.close()
    wait_for_line(served, f"Preparing to rebalance group {topic_name} in state Empty with old generation 0.")
    wait_for_line(served, f"Stabilized group {topic_name} generation 1 with 1 members.")


def test_segments_deleted_by_retention_and_nothing_per_request(served, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, configs={"retention.bytes": "1"})
    # the creation's own lines first: the broker writes its log lines from a writer thread, so they
    # may reach the output after the CreateTopics answer
    wait_for_line(served, f"Created topic {topic_name} ")
    wait_for_line(served, f"({topic_name}-0@")
    before = len(served.output)
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for i in range(20):  # 20 Produce requests of ~0.7 KiB in 1 KiB segments: each one rolls a segment
        p.produce(topic_name, b"x" * 600)
        assert p.flush(10) == 0
    line = wait_for_line(served, f"{topic_name}-0: deleted ")
    assert "segment(s) by retention; log start offset now" in line
    # the 20 requests add no line: the new ones are the retention passes and the segment rolls (one
    # line a roll, as Kafka's "Rolled new log segment"), and at most a line or two of the earlier
    # tests' groups finishing
    new = served.output[before:]
    rolls = [ln for ln in new if f"{topic_name}-0: rolled new log segment at offset" in ln]
    assert 1 <= len(rolls) <= 20
    others = [ln for ln in new if "by retention" not in ln and ln not in rolls]
    assert len(others) <= 2 and not any(topic_name in ln or "connection" in ln for ln in others), others


def test_log_level_warning_keeps_info_out(tmp_path):
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("ODRADEK_LOG_LEVEL", None)
    p = subprocess.Popen([sys.executable, "-m", "odradek", "serve", "--port", str(port), "--data-dir",
                          str(tmp_path / "d"), "--log-level", "warning"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env, cwd=str(REPO))
    try:
        lines = []
        for line in p.stdout:
            lines.append(line)
            if "ready on" in line:
                break
        assert odradek("topics", "create", "quiet", "-b", f"127.0.0.1:{port}").returncode == 0
    finally:
        p.terminate()
        out, _ = p.communicate(timeout=30)
    lines += out.splitlines(keepends=True)
    assert any("ready on" in ln for ln in lines), lines
    assert not any(" INFO " in ln for ln in lines), lines


def test_json_log_lines(tmp_path):
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("ODRADEK_LOG_FORMAT", None)
    proc = subprocess.Popen([sys.executable, "-m", "odradek", "serve", "--port", str(port), "--data-dir",
                             str(tmp_path), "--log-format", "json"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=str(REPO))
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "odradek ready on" in line:
                break
        logged = [json.loads(ln) for ln in lines if ln.startswith("{")]
        listening = [r for r in logged if r["message"].startswith("Awaiting socket connections on")]
        assert listening and listening[0]["level"] == "INFO" and listening[0]["logger"] == "odradek.broker"
        assert listening[0]["time"].endswith("Z") and f"127.0.0.1:{port}" in listening[0]["message"]
        assert all(ln.startswith("{") or ln.startswith("odradek ") for ln in lines), lines
    finally:
        proc.terminate()
        proc.wait(30)
    bad = odradek("serve", "--port", str(free_port()), "--data-dir", str(tmp_path / "x"), "--log-format", "xml")
    assert bad.returncode == 2 and "invalid choice: 'xml'" in bad.stderr
