"""A partition reassignment under load (issue 20), on real processes: 3 controllers + 4 brokers, a topic
with replication.factor=3 on brokers [4, 5, 6] and min.insync.replicas=2. Idempotent acks=all producers
(confluent-kafka, kafka-python) send without pause while Kafka 4.3's kafka-reassign-partitions --execute
moves every partition to [5, 6, 7] and --verify is polled until it reports the reassignment completed.
Then: no producer got an error; every acknowledged record is in its partition exactly once, at its
acknowledged offset, in the order sent; every replica, broker 7's included, holds the same record
batches byte for byte (its segment files compared); broker 4 no longer holds the partitions.
Run against Apache Kafka 4.3 with --cluster-kafka."""
from __future__ import annotations

import json

import pytest
from confluent_kafka.admin import NewTopic

from cluster import replica_batches, running_cluster, wait_for
from harness import kafka_tool
from odradek.wire import records
from replication_load import ConfluentLoad, KafkaPythonLoad, acked_by_partition, check_log

TOPIC, PARTITIONS = "moving", 2
BEFORE = {0: [4, 5, 6], 1: [5, 6, 4]}
AFTER = {0: [5, 6, 7], 1: [6, 7, 5]}

pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("reassign-load"), request.config, brokers=4) as c:
        yield c


def test_reassignment_under_load_loses_nothing_and_moves_the_data(cluster, tmp_path):
    assert sorted(n.id for n in cluster.brokers) == [4, 5, 6, 7]
    fut = cluster.admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS,
                                                replica_assignment=[BEFORE[p] for p in range(PARTITIONS)],
                                                config={"min.insync.replicas": "2"})], operation_timeout=20)[TOPIC]
    fut.result(60)
    cluster.wait_full_isr(TOPIC)
    producers = [ConfluentLoad(cluster.bootstrap, TOPIC, PARTITIONS).start(),
                 KafkaPythonLoad(cluster.bootstrap, TOPIC, PARTITIONS).start()]
    try:
        wait_for(lambda: all(p.acks_on(q) >= 50 for p in producers for q in range(PARTITIONS)), 120,
                 "acknowledgements before the reassignment",
                 last=lambda: [(p.name, len(p.acked), p.errors[:3]) for p in producers])
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps({"version": 1, "partitions": [
            {"topic": TOPIC, "partition": p, "replicas": AFTER[p], "log_dirs": ["any"] * 3}
            for p in range(PARTITIONS)]}))
        out = kafka_tool("reassign-partitions", "--bootstrap-server", cluster.bootstrap,
                         "--reassignment-json-file", str(plan), "--execute")
        assert out.returncode == 0, out.stdout + out.stderr
        started = ",".join(f"{TOPIC}-{p}" for p in range(PARTITIONS))
        assert f"Successfully started partition reassignments for {started}" in out.stdout, out.stdout
        acked_at_start = [len(p.acked) for p in producers]

        def verified():
            v = kafka_tool("reassign-partitions", "--bootstrap-server", cluster.bootstrap,
                           "--reassignment-json-file", str(plan), "--verify")
            done = all(f"Reassignment of partition {TOPIC}-{p} is completed." in v.stdout for p in range(PARTITIONS))
            return done and v
        wait_for(verified, 300, "kafka-reassign-partitions --verify to report the reassignment completed")
        state = cluster.partitions(TOPIC)
        assert {p: s.replicas for p, s in state.items()} == AFTER
        # the load went on through the move, and goes on after it
        wait_for(lambda: all(len(p.acked) >= n + 100 for p, n in zip(producers, acked_at_start)), 120,
                 "acknowledgements after the reassignment",
                 last=lambda: [(p.name, len(p.acked), p.errors[:3]) for p in producers])
    finally:
        for p in producers:
            p.stop()
    checked = check_log(cluster, TOPIC, PARTITIONS, producers)
    assert checked >= 2 * (2 * 50 + 100)
    cluster.wait_full_isr(TOPIC)
    assert cluster.wait_identical_replicas(TOPIC, PARTITIONS) > 0
    # broker 7 holds every acknowledged record of each partition at its acknowledged offset
    acked = acked_by_partition(producers)
    for p in range(PARTITIONS):
        held = {r.offset(h): r.value for _, batch in replica_batches(cluster.node(7).log_dir, TOPIC, p)
                for h, recs in records.iter_batches(batch) for r in recs}
        assert acked[p] and all(held.get(o) == v for o, v in acked[p].items()), f"broker 7's {TOPIC}-{p}"
    wait_for(lambda: not any((cluster.node(4).log_dir / f"{TOPIC}-{p}").exists() for p in range(PARTITIONS)), 60,
             "broker 4 to remove its replicas")
