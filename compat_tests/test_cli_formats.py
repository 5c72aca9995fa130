"""`--format json|yaml` of the listing commands: the same facts as the tables, as data."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from harness import REPO, BrokerProcess


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    b = BrokerProcess(str(tmp_path_factory.mktemp("formats")), {"group.initial.rebalance.delay.ms": "0"})
    b.start()
    try:
        yield b
    finally:
        b.stop()


def odradek(*argv: str, stdin: str | None = None) -> str:
    r = subprocess.run([sys.executable, "-m", "odradek", *argv], input=stdin, capture_output=True, text=True,
                       timeout=120, cwd=str(REPO))
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_topics_groups_and_status_as_data(broker):
    b = ["-b", broker.bootstrap]
    odradek("topics", "create", "formatted", "--partitions", "2", *b)
    odradek("produce", "formatted", "--partition", "1", *b, stdin="x\ny\nz\n")
    odradek("consume", "formatted", "--from-beginning", "--group", "fmt-group", "--max-messages", "2", *b)
    assert "formatted" in json.loads(odradek("topics", "list", "--format", "json", *b))
    [topic] = yaml.safe_load(odradek("topics", "describe", "formatted", "--format", "yaml", *b))
    assert topic["topic"] == "formatted" and [p["partition"] for p in topic["partitions"]] == [0, 1]
    assert topic["partitions"][1]["isr"] == [1]
    groups = json.loads(odradek("groups", "list", "--format", "json", *b))
    assert {"group": "fmt-group", "state": "Empty", "protocol_type": ""} in groups  # commits only, as Kafka
    rows = json.loads(odradek("groups", "describe", "fmt-group", "--format", "json", *b))
    row = next(r for r in rows if r["partition"] == 1)
    assert (row["current_offset"], row["log_end_offset"], row["lag"], row["consumer_id"]) == (2, 3, 1, None)
    status = json.loads(odradek("status", "--format", "json", *b))
    assert status["ready"] is True and status["brokers"][0]["port"] == broker.port
