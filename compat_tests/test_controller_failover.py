"""Replicated partitions through the loss of the active controller (issue 20), on real processes:
3 controllers + 3 brokers, a topic with replication.factor=3 and min.insync.replicas=2.

Idempotent acks=all producers (confluent-kafka and kafka-python) send without pause while a loop
kills -9 the active controller (the quorum leader DescribeQuorum names), waits for another
controller to lead, for acknowledgements to go on and for a topic to be created through the new
controller, and restarts the killed one. A last cycle kills the active controller and the broker
leading partition 0 at the same moment: the new controller must fence the dead broker (it never
received a heartbeat from it) and elect another leader. Then, as in test_replication_failover:
no producer got an error, every acknowledged record is in its partition exactly once at its
acknowledged offset in the order sent, and every replica holds the same batches byte for byte.

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES). Run against Apache Kafka 4.3 with
--cluster-kafka.
"""
from __future__ import annotations

import pytest

from cluster import failover_cycles, running_cluster, wait_for
from replication_load import ConfluentLoad, KafkaPythonLoad, acks_go_on, check_log

TOPIC, PARTITIONS = "ctl-failover", 3
DEFAULT_CYCLES = 2

pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("ctl-failover"), request.config) as c:
        yield c


def test_active_controller_kill9_loses_no_acknowledged_record(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    cluster.create_topic(TOPIC, PARTITIONS, 3, {"min.insync.replicas": "2"})
    producers = [ConfluentLoad(cluster.bootstrap, TOPIC, PARTITIONS).start(),
                 KafkaPythonLoad(cluster.bootstrap, TOPIC, PARTITIONS).start()]
    try:
        acks_go_on(producers, "acknowledgements before the first kill")
        for cycle in range(cycles):
            active = wait_for(lambda: (lambda n: n if n > 0 else None)(cluster.quorum_leader()), 60,
                              "an active controller")
            cluster.kill9(active)
            wait_for(lambda: cluster.quorum_leader() not in (active, -1), 60,
                     f"cycle {cycle}: another active controller after controller {active}'s kill -9")
            acks_go_on(producers, f"cycle {cycle}: acknowledgements with the new active controller")
            # metadata writes go through the new controller
            cluster.create_topic(f"after-kill-{cycle}", 1, 3, {})
            cluster.start(active)
        # the active controller and the leader of partition 0 at once
        active = wait_for(lambda: (lambda n: n if n > 0 else None)(cluster.quorum_leader()), 60, "an active controller")
        victim = cluster.wait_partitions(TOPIC, lambda s: s[0].leader >= 0, "a leader of partition 0")[0].leader
        cluster.kill9(active)
        cluster.kill9(victim)
        cluster.wait_partitions(TOPIC, lambda s: s[0].leader not in (victim, -1),
                                f"a new leader of partition 0 after broker {victim} and controller {active} died",
                                timeout=90)
        acks_go_on(producers, "acknowledgements after the double kill")
        cluster.start(active)
        cluster.start(victim)
        cluster.wait_full_isr(TOPIC)
    finally:
        for p in producers:
            p.stop()
    checked = check_log(cluster, TOPIC, PARTITIONS, producers)
    assert checked >= len(producers) * 20 * (cycles + 2)
    assert cluster.wait_identical_replicas(TOPIC, PARTITIONS) > 0
