"""producer.id.expiration.ms with a stock idempotent producer and Kafka's own
`kafka-transactions.sh describe-producers`: the producer is listed while active
and gone once idle longer than the expiration (checked every
producer.id.expiration.check.interval.ms)."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from harness import create_topic

REPO = Path(__file__).resolve().parents[1]
REFKAFKA = Path(os.environ.get("REFKAFKA_SH", REPO.parent / "shared" / "refkafka" / "kafka.sh"))
BROKER_OVERRIDES = {"producer.id.expiration.ms": "4000",
                    "producer.id.expiration.check.interval.ms": "500"}


def _producers(bootstrap: str, topic: str) -> list[dict[str, str]]:
    r = subprocess.run([str(REFKAFKA), "tool", "transactions", "--bootstrap-server", bootstrap,
                        "describe-producers", "--topic", topic, "--partition", "0"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = [ln.split() for ln in r.stdout.strip().splitlines()]
    header = lines[0]
    assert header[0] == "ProducerId"
    return [dict(zip(header, row)) for row in lines[1:]]


def test_idle_idempotent_producer_expires(controllable_broker, topic_name):
    if not REFKAFKA.exists():
        pytest.fail("Kafka's tools (../shared/refkafka) are needed for this test")
    from confluent_kafka import Producer

    bootstrap = controllable_broker.bootstrap
    create_topic(bootstrap, topic_name, 1)
    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for i in range(3):
        p.produce(topic_name, b"v%d" % i)
    assert p.flush(30) == 0
    produced_at = time.time()
    rows = _producers(bootstrap, topic_name)
    assert len(rows) == 1 and rows[0]["LastSequence"] == "2"
    # idle for longer than producer.id.expiration.ms plus one check interval
    time.sleep(max(0.0, produced_at + 4.0 + 1.5 - time.time()))
    deadline = time.time() + 10
    while _producers(bootstrap, topic_name) and time.time() < deadline:
        time.sleep(0.5)
    assert _producers(bootstrap, topic_name) == []
