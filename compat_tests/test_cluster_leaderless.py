"""Leaderless partitions are led again when their broker comes back (issue 20, KIP-966 as in Kafka 4.3), on
real processes: 3 controllers + 4 brokers (4..7), broker.session.timeout.ms 9 s for 1. (Kafka's default: a
topic can be created in the time between a broker's kill -9 and its fencing), 6 s for 2. (cluster.FAST).
Run against Apache Kafka 4.3 with --cluster-kafka; both give the same answers at every step
(DescribeTopicPartitions: leader, ISR, ELR, LastKnownElr, as kafka-topics --describe prints them).

1. A topic created while a killed broker is still registered and unfenced: the placement counts it (as
   Kafka's), so one partition is led by the dead broker. Its session lapses, the controller fences it:
   leader none, ISR [], ELR [it], LastKnownElr [it]. Its restart after kill -9 is an unclean shutdown (the
   new incarnation leaves every ELR), and once unfenced it is elected again as the partition's last known
   leader (ISR [it]); the partition takes records and serves them. Restarted after the fence, or at once
   (its registration waits until the old incarnation's session lapses).
2. replication.factor=3: the followers killed one after the other leave the ISR, then the last ISR member
   is killed: leaderless, ELR and LastKnownElr kept. min.insync.replicas=1: that broker back is elected at
   once (last known leader). min.insync.replicas=2: the second follower is in the ELR too; the broker back
   is not elected while that ELR member is away (it may hold more), and is elected the moment that member
   registers again; then every replica rejoins the ISR and every record acknowledged before the kills is
   read back.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from cluster import Cluster, running_cluster, wait_for
from harness import RawClient
from odradek.wire.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest, TopicRequest
from replication_load import read_partitions

# broker.session.timeout.ms of the module's cluster, one per test function: 9 s (Kafka's default) where a
# topic is created between a broker's kill -9 and its fence; cluster.FAST's 6 s where the test only waits
# for fences (three a run, each the session: 9 s took 27 of the test's ~32 s)
SESSION_9S, SESSION_6S = "9000", "6000"

pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def shared_cluster(request, tmp_path_factory):
    """The module's cluster with the session a test asks for (parametrized indirectly): pytest runs the
    tests of one session together, and stops that cluster before it starts the next."""
    props = {"broker.session.timeout.ms": request.param}
    with running_cluster(tmp_path_factory.mktemp("leaderless"), request.config, 3, 4, props) as c:
        yield c


@pytest.fixture
def cluster(shared_cluster):
    """The module's cluster with every broker running and unfenced (a test that failed midway may
    have left one killed: the next starts from the same place as after a pass)."""
    for n in shared_cluster.brokers:
        if not n.alive:
            shared_cluster.start(n.id)
    want = {n.id for n in shared_cluster.brokers}
    wait_for(lambda: unfenced(shared_cluster) == want, 120, "every broker unfenced")
    return shared_cluster


@dataclass(frozen=True)
class View:
    """One partition as DescribeTopicPartitions answers it."""
    leader: int
    epoch: int
    isr: list[int]
    elr: list[int]
    last_known_elr: list[int]

    def state(self) -> tuple:
        return self.leader, sorted(self.isr), sorted(self.elr), sorted(self.last_known_elr)


def describe(cluster: Cluster, topic: str) -> dict[int, View]:
    """The topic's partitions as a live broker answers DescribeTopicPartitions (what kafka-topics
    --describe shows)."""
    errors = []
    for node in cluster.brokers:
        if not node.alive:
            continue
        c = RawClient(f"127.0.0.1:{node.port}")
        try:
            r = c.call(DescribeTopicPartitionsRequest(topics=[TopicRequest(name=topic)],
                                                      response_partition_limit=100), 0)
        except OSError as e:
            errors.append(e)
            continue
        finally:
            c.close()
        t = r.topics[0]
        assert t.error_code == 0, f"{topic}: error {t.error_code}"
        return {p.partition_index: View(p.leader_id, p.leader_epoch, list(p.isr_nodes),
                                        list(p.eligible_leader_replicas or []), list(p.last_known_elr or []))
                for p in t.partitions}
    raise AssertionError(f"no live broker answered: {errors}")


def wait_state(cluster: Cluster, topic: str, partition: int, state: tuple, what: str, timeout: float = 90) -> View:
    """Wait until the partition is (leader, ISR, ELR, LastKnownElr) = state (lists compared sorted)."""
    return wait_for(lambda: (lambda v: v if v.state() == state else None)(describe(cluster, topic)[partition]),
                    timeout, what, last=lambda: describe(cluster, topic))


def admin(cluster: Cluster) -> AdminClient:
    """An admin client on the live brokers only (a fresh one: no connection to a broker just killed)."""
    return AdminClient({"bootstrap.servers": cluster.live_bootstrap()})


def unfenced(cluster: Cluster) -> set[int]:
    """The brokers DescribeCluster lists (registered and unfenced)."""
    def ask():
        client = admin(cluster)  # held until its answer (a client destroyed fails its requests)
        return {b.id for b in client.describe_cluster().result(timeout=10).nodes}
    return wait_for(ask, 30, "DescribeCluster")


def create(cluster: Cluster, topic: NewTopic) -> None:
    """CreateTopics, again after an error or no answer (Metadata lists a broker just killed until it is
    fenced, on Kafka too, and a client may send the request there)."""
    def created():
        client = admin(cluster)
        try:
            client.create_topics([topic])[topic.topic].result(timeout=30)
        except KafkaException as e:
            if e.args[0].code() != KafkaError.TOPIC_ALREADY_EXISTS:
                raise
        return True
    wait_for(created, 60, f"topic {topic.topic} created")


def produce(cluster: Cluster, topic: str, partition: int, values: list[bytes]) -> list[int]:
    """acks=all; the offsets acknowledged (every record must be)."""
    p = Producer({"bootstrap.servers": cluster.live_bootstrap(), "acks": "all", "enable.idempotence": True})
    acked, errors = [], []
    for v in values:
        p.produce(topic, v, partition=partition,
                  on_delivery=lambda err, m: errors.append(err) if err else acked.append(m.offset()))
    assert p.flush(60) == 0
    assert errors == []
    return acked


def watermarks(cluster: Cluster, topic: str, partition: int) -> tuple[int, int]:
    c = Consumer({"bootstrap.servers": cluster.live_bootstrap(), "group.id": f"{topic}-marks"})
    try:
        return c.get_watermark_offsets(TopicPartition(topic, partition), timeout=10)
    finally:
        c.close()


@pytest.mark.parametrize("shared_cluster", [SESSION_9S], indirect=True, ids=["session-9s"])
@pytest.mark.parametrize("restart", ["after-fence", "at-once"])
def test_partition_placed_on_a_killed_unfenced_broker_is_led_by_it_once_back(cluster, restart):
    topic = f"placed-{restart}"
    victim = cluster.brokers[0].id
    cluster.kill9(victim)
    assert victim in unfenced(cluster)  # 9 s before its session lapses (SESSION_9S)
    create(cluster, NewTopic(topic, len(cluster.brokers), 1))
    created = wait_for(lambda: (lambda d: d if len(d) == len(cluster.brokers) else None)(describe(cluster, topic)),
                       30, f"{topic}'s partitions")
    # placed on every registered unfenced broker, the killed one too
    on_victim = [p for p, v in created.items() if v.leader == victim]
    assert len(on_victim) == 1, created
    part = on_victim[0]
    assert created[part].state() == (victim, [victim], [], [])
    if restart == "after-fence":
        fenced = wait_state(cluster, topic, part, (-1, [], [victim], [victim]), f"broker {victim} fenced")
        # (the broker answering DescribeCluster may apply the fence a moment after the one that answered
        # DescribeTopicPartitions: on a loaded machine the metadata reaches the brokers at different times)
        wait_for(lambda: victim not in unfenced(cluster), 60, f"broker {victim} fenced in DescribeCluster")
        assert fenced.epoch == created[part].epoch + 1
    cluster.start(victim)  # ready once unfenced
    back = wait_state(cluster, topic, part, (victim, [victim], [], []), f"broker {victim} leading {topic}-{part} again")
    assert back.epoch == created[part].epoch + 2  # leaderless, then led again
    assert wait_for(lambda: watermarks(cluster, topic, part) == (0, 0), 30, "the partition's offsets")
    assert produce(cluster, topic, part, [b"a", b"b"]) == [0, 1]
    assert read_partitions(cluster.live_bootstrap(), topic, len(cluster.brokers))[part] == [(0, b"a"), (1, b"b")]


@pytest.mark.parametrize("shared_cluster", [SESSION_6S], indirect=True, ids=["session-6s"])
@pytest.mark.parametrize("min_isr", [1, 2])
def test_the_last_isr_member_killed_and_restarted_leads_again(cluster, min_isr):
    topic = f"last-isr-{min_isr}"
    a, b, c = (n.id for n in cluster.brokers[:3])  # the fourth broker stays up to answer
    create(cluster, NewTopic(topic, num_partitions=1, replication_factor=-1, replica_assignment=[[a, b, c]],
                             config={"min.insync.replicas": str(min_isr)}))
    wait_state(cluster, topic, 0, (a, [a, b, c], [], []), "the full ISR")
    values = [f"before-{i}".encode() for i in range(100)]
    assert produce(cluster, topic, 0, values) == list(range(100))

    cluster.kill9(c)
    wait_state(cluster, topic, 0, (a, [a, b], [], []), f"broker {c} out of the ISR")
    cluster.kill9(b)
    # under min.insync.replicas the replica leaving the ISR is kept eligible (KIP-966)
    wait_state(cluster, topic, 0, (a, [a], [b] if min_isr == 2 else [], []), f"broker {b} out of the ISR")
    cluster.kill9(a)
    elr = [a, b] if min_isr == 2 else [a]
    gone = wait_state(cluster, topic, 0, (-1, [], elr, [a]), f"broker {a} fenced: no leader")

    cluster.start(a)  # unfenced when ready: its election, if any, is decided by then
    if min_isr == 1:
        wait_state(cluster, topic, 0, (a, [a], [], []), f"broker {a} leading again")
    else:
        # out of the ELR (unclean shutdown); b, still eligible, may hold more: no election yet
        assert wait_state(cluster, topic, 0, (-1, [], [b], [a]), f"broker {a} out of the ELR").epoch == gone.epoch
        cluster.start(b)  # its unclean restart empties the ELR: the last known leader is elected
        wait_for(lambda: describe(cluster, topic)[0].leader == a, 90, f"broker {a} leading again",
                 last=lambda: describe(cluster, topic))
    back = [cluster.node(n) for n in ([c] if min_isr == 2 else [b, c])]
    for node in back:  # started at once: their start-ups overlap
        node.start()
    for node in back:
        node.wait_ready()
    wait_state(cluster, topic, 0, (a, [a, b, c], [], []), "every replica back in the ISR")
    got = read_partitions(cluster.live_bootstrap(), topic, 1)[0]
    assert got == list(enumerate(values))
    assert produce(cluster, topic, 0, [b"after"]) == [100]
