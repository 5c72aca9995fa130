"""`odradek cluster` with 3 brokers gives the internal topics Kafka's defaults (issue 20, item 7): a
replication factor of 3 and a min ISR of 2 (offsets.topic.replication.factor,
transaction.state.log.replication.factor / min.isr, share.coordinator.state.topic.*), so that a
consumer group's first commit creates __consumer_offsets on the three brokers, every replica in sync;
the real command, 1 controller + 3 brokers."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from cluster import free_base, wait_for
from harness import REPO


def test_three_brokers_replicate_the_internal_topics_three_times(tmp_path):
    base = free_base(1, 3)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "odradek", "cluster", "--controllers", "1", "--brokers", "3",
                             "--base-port", str(base), "--data-dir", str(tmp_path),
                             "--override", "offsets.topic.num.partitions=2"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=str(REPO))
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    pids: list[int] = []
    try:
        def table():
            pids[:] = [int(m.group(1)) for ln in lines
                       if (m := re.match(r"\d+\s+(?:controller|broker)\s+\S+\s+(\d+)$", ln.strip()))]
            return len(pids) == 4
        wait_for(table, 30, "the node table")
        said = wait_for(lambda: next((ln.strip() for ln in lines if ln.startswith("internal topics: ")), None), 10,
                        "the internal topics' settings")
        assert said == ("internal topics: offsets.topic.replication.factor=3, "
                        "transaction.state.log.replication.factor=3, "
                        "share.coordinator.state.topic.replication.factor=3, "
                        "transaction.state.log.min.isr=2, share.coordinator.state.topic.min.isr=2")
        bootstrap = ",".join(f"127.0.0.1:{base + k}" for k in range(3))
        admin = AdminClient({"bootstrap.servers": bootstrap})
        wait_for(lambda: sorted(admin.list_topics(timeout=5).brokers) == [2, 3, 4], 180, "the brokers registered")

        def committed():
            c = Consumer({"bootstrap.servers": bootstrap, "group.id": "g-internal", "enable.auto.commit": False})
            try:
                c.commit(offsets=[TopicPartition("t1", 0, 1)], asynchronous=False)
                return True
            finally:
                c.close()
        admin.create_topics([NewTopic("t1", 1, 1)])["t1"].result(60)
        wait_for(committed, 120, "a group's offset commit")

        def offsets_topic():
            parts = admin.list_topics("__consumer_offsets", timeout=5).topics["__consumer_offsets"].partitions
            return len(parts) == 2 and all(len(p.replicas) == 3 and sorted(p.isrs) == sorted(p.replicas)
                                           for p in parts.values()) and parts
        parts = wait_for(offsets_topic, 60, "__consumer_offsets replicated on the 3 brokers")
        assert all(sorted(p.replicas) == [2, 3, 4] for p in parts.values())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
