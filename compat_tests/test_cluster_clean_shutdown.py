"""A broker's restart after a clean stop vs after a crash (KIP-966, Eligible Leader Replicas on,
as on a new Kafka 4.3 cluster), on 3 controllers + 3 brokers of real processes (cluster.py;
`--cluster-kafka` runs the same scenario on Apache Kafka 4.3).

A broker stopped with SIGTERM writes `.kafka_cleanshutdown` (its broker epoch) in its log dir and
registers with that previous broker epoch when it comes back: the controller keeps it in the
Eligible Leader Replicas, so with every replica of a partition down it alone can be elected (a
clean election). A broker killed with SIGKILL leaves no file: it registers with -1, the controller
takes it out of the ELR (it may have lost unflushed records) and it cannot be elected.

Topic RF=3 with min.insync.replicas=3: each replica that leaves the ISR goes to the ELR."""

from __future__ import annotations

import json

import pytest

from cluster import running_cluster, wait_for
from harness import RawClient
from odradek.wire.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest, TopicRequest



@pytest.fixture(scope="module")
def shared_cluster(tmp_path_factory, pytestconfig):
    with running_cluster(tmp_path_factory.mktemp("clean-shutdown"), pytestconfig) as c:
        yield c


@pytest.fixture
def cluster(shared_cluster):
    """The module's cluster with every broker running and unfenced (a test leaves brokers stopped: the
    next one starts them again, cleanly; a restarted broker reads and deletes its clean-shutdown file,
    so none is left over for the next test). Each test has a topic of its own."""
    for n in shared_cluster.brokers:
        if not n.alive:
            shared_cluster.start(n.id)
    want = {n.id for n in shared_cluster.brokers}
    wait_for(lambda: {b.id for b in shared_cluster.admin.list_topics(timeout=5).brokers.values()} == want, 120,
             "every broker unfenced")
    return shared_cluster


def describe(port: int, topic: str) -> tuple[int, list[int], list[int]]:
    """(leader, ISR, ELR) of partition 0 as broker ``port`` answers DescribeTopicPartitions."""
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(DescribeTopicPartitionsRequest(topics=[TopicRequest(name=topic)]), 0)
    finally:
        c.close()
    t, = resp.topics
    assert t.error_code == 0, t.error_code
    p, = t.partitions
    return p.leader_id, sorted(p.isr_nodes), sorted(p.eligible_leader_replicas)


def clean_shutdown_epoch(cluster, node_id: int) -> int | None:
    path = cluster.node(node_id).log_dir / ".kafka_cleanshutdown"
    return json.loads(path.read_text())["brokerEpoch"] if path.exists() else None


def stop_all_but_first_follower(cluster, topic: str, *, kill_first: bool) -> tuple[int, int, int]:
    """Create the topic, take its replicas down follower first, then the other follower, the leader
    last; the first one killed with SIGKILL or stopped with SIGTERM, the others stopped with SIGTERM.
    Returns (first, second, leader)."""
    state = cluster.create_topic(topic, 1, 3, {"min.insync.replicas": "3"})[0]
    leader = state.leader
    first, second = [b for b in state.replicas if b != leader]
    port = cluster.node(leader).port
    if kill_first:
        cluster.kill9(first)
        assert clean_shutdown_epoch(cluster, first) is None
    else:
        assert cluster.stop(first) == cluster.node(first).clean_exit_code
        assert clean_shutdown_epoch(cluster, first) is not None
    # out of the ISR (fenced or shut down), into the ELR: the ISR is below min.insync.replicas
    wait_for(lambda: describe(port, topic)[1:] == (sorted([leader, second]), [first]), 60, f"{first} in the ELR",
             last=lambda: describe(port, topic))
    assert cluster.stop(second) == cluster.node(second).clean_exit_code
    wait_for(lambda: describe(port, topic)[1:] == ([leader], sorted([first, second])), 60, f"{second} in the ELR",
             last=lambda: describe(port, topic))
    assert cluster.stop(leader) == cluster.node(leader).clean_exit_code
    assert clean_shutdown_epoch(cluster, leader) is not None
    return first, second, leader


def test_a_cleanly_stopped_replica_stays_eligible_and_is_elected(cluster):
    topic = "cs-clean"
    first, _, _ = stop_all_but_first_follower(cluster, topic, kill_first=False)
    cluster.start(first)
    port = cluster.node(first).port
    # registered with its previous epoch: still eligible, and elected, alone
    leader, isr, _ = wait_for(lambda: (lambda d: d if d[0] == first else None)(describe(port, topic)), 60,
                              f"{first} elected from the ELR", last=lambda: describe(port, topic))
    assert isr == [first]
    assert clean_shutdown_epoch(cluster, first) is None  # read and deleted at start


def test_a_killed_replica_leaves_the_elr_and_is_not_elected(cluster):
    topic = "cs-killed"
    first, second, last_leader = stop_all_but_first_follower(cluster, topic, kill_first=True)
    cluster.start(first)
    port = cluster.node(first).port
    # registered as after a crash: out of the ELR (the same metadata batch as its registration,
    # so once it is unfenced the ELR no longer names it), no leader
    wait_for(lambda: first in {b.id for b in cluster.admin.list_topics(timeout=5).brokers.values()}, 60,
             f"broker {first} unfenced")
    leader, isr, elr = describe(port, topic)
    assert first not in elr and first not in isr
    assert leader == -1
    # a cleanly stopped replica coming back is eligible: elected, and the crashed one catches up
    cluster.start(second)
    wait_for(lambda: describe(port, topic)[0] == second, 60, f"{second} elected from the ELR",
             last=lambda: describe(port, topic))
    # every replica back in the ISR: the crashed one caught up (the leader's AlterPartitions accepted)
    cluster.start(last_leader)
    cluster.wait_full_isr(topic)
