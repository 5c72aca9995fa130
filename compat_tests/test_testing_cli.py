"""`odradek fault ...` and `odradek clock ...` against a test broker's HTTP control API, as a test
in another language would drive it; `odradek serve --trace FILE`."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from odradek.testing import Broker
from odradek.testing.broker import serve_env


@pytest.fixture(scope="module")
def control_broker(tmp_path_factory):
    trace = tmp_path_factory.mktemp("trace") / "trace.jsonl"
    with Broker(virtual_clock=True, trace=trace) as b:
        yield b


def odradek(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "odradek", *args], capture_output=True, text=True, timeout=60,
                          env=serve_env())


def test_fault_inject_list_remove(control_broker):
    url = control_broker.control_url
    out = odradek("fault", "inject", "--bootstrap-http", url, "--api", "Produce", "--error",
                  "NOT_LEADER_OR_FOLLOWER", "--times", "2", "--topic", "orders")
    assert out.returncode == 0, out.stderr
    fault_id = int(out.stdout)
    listed = json.loads(odradek("fault", "list", "--bootstrap-http", url).stdout)
    assert [(f["id"], f["api"], f["error"], f["times"], f["topic"]) for f in listed] == \
        [(fault_id, "Produce", "NOT_LEADER_OR_FOLLOWER", 2, "orders")]
    # the fault works: two refusals, then the record is written
    assert control_broker.produce("orders", "x") == [0]
    assert odradek("fault", "list", "--bootstrap-http", url).stdout.strip() == "[]"
    assert [p["error_code"] for x in control_broker.trace("Produce") if x["dir"] == "response"
            for t in x["fields"]["responses"] for p in t["partition_responses"]] == [6, 6, 0]
    second = int(odradek("fault", "inject", "--bootstrap-http", url, "--api", "Fetch", "--delay-ms", "10").stdout)
    assert odradek("fault", "remove", "--bootstrap-http", url, str(second)).returncode == 0
    gone = odradek("fault", "remove", "--bootstrap-http", url, str(second))
    assert gone.returncode == 1 and f"no fault {second}" in gone.stderr


def test_bad_fault_is_refused_with_its_reason(control_broker):
    out = odradek("fault", "inject", "--bootstrap-http", control_broker.control_url, "--api", "Produce",
                  "--error", "NOT_LEADER")
    assert out.returncode == 1
    assert "unknown error 'NOT_LEADER'" in out.stderr


def test_clock_advance(control_broker):
    url = control_broker.control_url
    before = int(odradek("clock", "now", "--bootstrap-http", url).stdout)
    out = odradek("clock", "advance", "--bootstrap-http", url, "--ms", "45000")
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == before + 45000 == control_broker.clock.now_ms()


def test_rewrite_patch_pause_network_drop(control_broker):
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    url = control_broker.control_url
    patch = '{"responses": {"partition_responses": {"error_code": 19}}}'
    out = odradek("fault", "inject", "--bootstrap-http", url, "--api", "Produce", "--times", "1", "--topic",
                  "patched", "--rewrite", patch)
    assert out.returncode == 0, out.stderr
    assert control_broker.produce("patched", "x") == [0]  # NOT_ENOUGH_REPLICAS once, then the duplicate's answer
    assert [p["error_code"] for x in control_broker.trace("Produce") if x["dir"] == "response"
            for t in x["fields"]["responses"] if t["name"] == "patched" for p in t["partition_responses"]] == [19, 0]
    bad = odradek("fault", "inject", "--bootstrap-http", url, "--api", "Produce", "--rewrite", '{"nope": 1}')
    assert bad.returncode == 1 and "ProduceResponse has no field 'nope'" in bad.stderr

    admin = AdminClient({"bootstrap.servers": control_broker.bootstrap, "client.id": "cli-admin"})
    # librdkafka moves from its bootstrap connection to one to the broker it learned: a drop in
    # between finds no connection that has named its client id yet, so ask again after a request
    deadline, dropped = time.monotonic() + 30, 0
    while dropped < 1 and time.monotonic() < deadline:
        assert admin.list_topics(timeout=30).brokers
        dropped = int(odradek("fault", "drop-connections", "--bootstrap-http", url, "--client-id", "cli-admin").stdout)
    assert dropped >= 1
    assert odradek("fault", "pause", "--bootstrap-http", url).returncode == 0
    try:
        with pytest.raises(KafkaException):
            admin.list_topics(timeout=2)
    finally:
        assert odradek("fault", "resume", "--bootstrap-http", url).returncode == 0
    assert admin.list_topics(timeout=30).brokers

    cut = odradek("fault", "network", "--bootstrap-http", url, "--clients", "--slow", "7=100")
    assert json.loads(cut.stdout) == {"cut": [], "clients_cut": True, "slow": {"7": 100}}
    try:
        with pytest.raises(KafkaException):
            admin.list_topics(timeout=2)
    finally:
        assert json.loads(odradek("fault", "heal", "--bootstrap-http", url).stdout)["clients_cut"] is False
    assert admin.list_topics(timeout=30).brokers
