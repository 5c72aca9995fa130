"""A leader cut off and back (issue 20), on real processes: 3 controllers + 3 brokers, a topic with
replication.factor=3 and min.insync.replicas=2, idempotent acks=all producers (confluent-kafka and
kafka-python) sending without pause.

Each cycle stops the broker leading partition 0 with SIGSTOP, as a network partition (or a long GC
pause) would: it keeps its sockets and its belief that it leads, but answers nothing. The controller
fences it after broker.session.timeout.ms and elects another leader; acknowledgements go on. Then the
broker is let go on (SIGCONT): for a moment it is a zombie leader with produce requests queued in its
sockets, whose appends no follower fetches any more. It must not acknowledge any of them with
acks=all (its ISR shrink is not committed by the controller), it must learn the new leader epoch,
truncate what it appended alone, and rejoin the ISR. Then: no producer got an error, every
acknowledged record is in its partition exactly once at its acknowledged offset in the order sent,
and every replica holds the same batches byte for byte (nothing the zombie wrote alone survives).

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES). Run against Apache Kafka 4.3 with
--cluster-kafka.
"""
from __future__ import annotations

import pytest

from cluster import failover_cycles, running_cluster
from replication_load import ConfluentLoad, KafkaPythonLoad, acks_go_on, check_log

TOPIC, PARTITIONS = "paused-leader", 3
DEFAULT_CYCLES = 2

pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("repl-pause"), request.config) as c:
        yield c


def test_paused_leader_comes_back_as_follower_and_loses_nothing(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    cluster.create_topic(TOPIC, PARTITIONS, 3, {"min.insync.replicas": "2"})
    producers = [ConfluentLoad(cluster.bootstrap, TOPIC, PARTITIONS).start(),
                 KafkaPythonLoad(cluster.bootstrap, TOPIC, PARTITIONS).start()]
    try:
        acks_go_on(producers, "acknowledgements before the first pause")
        for cycle in range(cycles):
            victim = cluster.wait_partitions(TOPIC, lambda s: s[0].leader >= 0, "a leader of partition 0")[0].leader
            node = cluster.node(victim)
            node.pause()
            try:
                cluster.wait_partitions(TOPIC, lambda s: s[0].leader not in (victim, -1),
                                        f"cycle {cycle}: a new leader of partition 0 while broker {victim} is stopped",
                                        timeout=90)
                acks_go_on(producers, f"cycle {cycle}: acknowledgements while broker {victim} is stopped")
            finally:
                node.resume()
            cluster.wait_full_isr(TOPIC, timeout=120)
            acks_go_on(producers, f"cycle {cycle}: acknowledgements after broker {victim} came back")
    finally:
        for p in producers:
            p.stop()
    checked = check_log(cluster, TOPIC, PARTITIONS, producers)
    assert checked >= len(producers) * 20 * (cycles + 1)
    cluster.wait_full_isr(TOPIC)
    assert cluster.wait_identical_replicas(TOPIC, PARTITIONS) > 0
