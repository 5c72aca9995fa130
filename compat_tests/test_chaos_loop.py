"""The seeded chaos loop (compat_tests/chaos.py, which lists the fault kinds) on 3 controllers + 3
brokers: kill -9 of brokers, of the active controller, of every node, SIGSTOP past the timeouts, a
leader or the active controller cut off by a network partition, clean restarts, under idempotent
acks=all producers (confluent-kafka, and Java kafka-clients 4.3 through
kafka-verifiable-producer where Java is installed) and a consumer group; then no acknowledged record
lost or duplicated, replicas identical byte for byte, the ISR whole, committed offsets never back.

CI runs a few cycles of one seed. Longer runs are opt-in:

    ODRADEK_CHAOS_CYCLES=40 ODRADEK_CHAOS_SEED=1,2,3 python -m pytest -n 0 compat_tests/test_chaos_loop.py -s

(ODRADEK_CHAOS_FAULTS=kill_broker,partition_leader to draw from some kinds only). The seed and the
faults drawn are printed first. Run against Apache Kafka 4.3 with --cluster-kafka (a pause stands
for the network partition there).
"""
from __future__ import annotations

import pytest

import apache_kafka
from chaos import ChaosRun, OffsetSampler, chaos_settings, control_props, verify
from cluster import cluster_kind, running_cluster
from replication_load import ConfluentLoad, GroupReader, JavaGroupReader, JavaLoad

PARTITIONS = 3
CYCLES, SEED = 3, 20261127
cycles, seeds, kinds = chaos_settings(CYCLES, SEED)

pytestmark = pytest.mark.timeout(600 + 300 * cycles * len(seeds))


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    kind = cluster_kind(request.config)
    control = control_props(kind, list(range(1, 7)))
    with running_cluster(tmp_path_factory.mktemp("chaos"), request.config, node_props=control) as c:
        yield c, control


@pytest.mark.parametrize("seed", seeds)
def test_chaos_loses_no_acknowledged_record(cluster, seed):
    cluster, control = cluster
    topic = f"chaos-{seed}"
    # segments rolled every few seconds: truncations and log recovery cross segment boundaries
    cluster.create_topic(topic, PARTITIONS, 3, {"min.insync.replicas": "2", "segment.ms": "4000"})
    producers = [ConfluentLoad(cluster.bootstrap, topic, PARTITIONS).start()]
    readers = [GroupReader(cluster.bootstrap, topic, f"{topic}-group").start()]
    if apache_kafka.missing() is None:
        producers.append(JavaLoad(cluster.bootstrap, topic, PARTITIONS).start())
        # a member of a KIP-848 group (group.protocol=consumer), committing after each poll
        readers.append(JavaGroupReader(cluster.bootstrap, topic, f"{topic}-java-group").start())
    samplers = [OffsetSampler(cluster.bootstrap, group, topic, PARTITIONS).start()
                for group in (f"{topic}-group", f"{topic}-java-group")[:len(readers)]]
    run = ChaosRun(cluster, topic, PARTITIONS, producers, seed, control)
    try:
        try:
            run.run(cycles, kinds)
        finally:
            for p in producers:
                p.stop()
        checked = verify(run, readers, samplers)
    finally:
        for r in readers:
            r.stop()
        for s in samplers:
            s.stop()
    print(f"chaos seed={seed}: {dict(run.done)}; {checked} acknowledged records verified", flush=True)
    assert sum(run.done.values()) == cycles
