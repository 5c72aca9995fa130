"""`odradek produce` on a broker with auto.create.topics.enable=false: like Kafka's producer,
it waits max.block.ms for the topic's metadata, then says so in Kafka's words."""

from __future__ import annotations

import subprocess
import sys

from harness import REPO

BROKER_OVERRIDES = {"auto.create.topics.enable": "false"}


def test_missing_topic_not_created_waits_max_block_ms(controllable_broker, bootstrap, topic_name):
    """(Needs this module's auto.create.topics.enable=false: skipped against a broker started elsewhere.)"""
    r = subprocess.run([sys.executable, "-m", "odradek", "produce", topic_name, "--max-block-ms", "300",
                        "-b", bootstrap], input="x\n", capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines() == [f"odradek produce: Topic {topic_name} not present in metadata after 300 ms."]
    md = subprocess.run([sys.executable, "-m", "odradek", "topics", "list", "-b", bootstrap], capture_output=True,
                        text=True, timeout=60, cwd=str(REPO))
    assert topic_name not in md.stdout.split()
