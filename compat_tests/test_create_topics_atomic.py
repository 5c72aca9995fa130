"""One CreateTopics is all or nothing, also across a crash, as Kafka's (ReplicationControlManager.
createTopics returns ControllerResult.atomicOf: one metadata batch for all the request's topics):
odradek decides a large request a part at a time and writes it as one batch. The broker is killed
with SIGKILL the moment its metadata log grows (the request's batch being written), and after a
restart either every topic of the request exists or none does - never a part of it (the earlier
stepped creation wrote ~16 partitions a batch: a crash left a prefix)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from harness import BrokerProcess, RawClient

from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.metadata_request import MetadataRequest

TOPICS = 2000
ROUNDS = 3


def _metadata_bytes(data_dir: str) -> int:
    return sum(f.stat().st_size for f in Path(data_dir, "metadata", "__cluster_metadata-0").glob("*.log"))


def _names(bootstrap: str, prefix: str) -> set[str]:
    c = RawClient(bootstrap, timeout=60)
    try:
        md = c.call(MetadataRequest(topics=None, allow_auto_topic_creation=False), 12)
    finally:
        c.close()
    return {t.name for t in md.topics if t.name.startswith(prefix)}


def test_a_crash_during_a_large_create_topics_leaves_all_or_none_of_it(tmp_path):
    b = BrokerProcess(str(tmp_path))
    b.start()
    try:
        for r in range(ROUNDS):
            prefix = f"r{r}-"
            before = _metadata_bytes(b.data_dir)
            c = RawClient(b.bootstrap, timeout=60)
            c.send(CreateTopicsRequest(timeout_ms=60000, topics=[
                CreatableTopic(name=f"{prefix}{i}", num_partitions=1, replication_factor=1) for i in range(TOPICS)]), 7)
            deadline = time.monotonic() + 120
            while _metadata_bytes(b.data_dir) == before:  # the request's batch is being written: kill now
                assert time.monotonic() < deadline, "the request wrote nothing"
                os.sched_yield()
            b.kill9()
            c.close()
            b.restart()
            got = _names(b.bootstrap, prefix)
            assert len(got) in (0, TOPICS), f"round {r}: {len(got)} of the request's {TOPICS} topics after the crash"
    finally:
        b.kill9()
