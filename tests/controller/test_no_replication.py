"""odradek does not replicate partitions yet (issue 20): on a cluster it refuses what it
cannot do, with Kafka's error codes, instead of recording replicas and an ISR that do not
hold the data. A single node keeps Kafka's "only 1 broker(s) are registered"."""
from odradek.controller.decisions import CreateTopicSpec, Decisions, Env
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.wire.errors import ErrorCode as E

NO_REPLICATION = "odradek does not replicate partitions yet"


def decisions(brokers=(1, 2, 3), topics=(), defaults=None) -> Decisions:
    img = MetadataImage(topics={t.name: t for t in topics}, topics_by_id={t.topic_id: t for t in topics},
                        brokers={b: BrokerImage(b, "h", 9000 + b) for b in brokers})
    return Decisions(Env(1, defaults or {}, lambda: b"\x07" * 16), img)


def one(d: Decisions, **kw):
    res = d.create_topics([CreateTopicSpec("t", **kw)])
    return res.response[0], res.records


def test_create_topics_with_more_than_one_replica_is_refused_on_a_cluster():
    d = decisions()
    for rf in (2, 3):
        r, records = one(d, num_partitions=3, replication_factor=rf)
        assert r.error_code == E.INVALID_REPLICATION_FACTOR and NO_REPLICATION in r.error_message
        assert records == []
    # more than the brokers: Kafka's own message first
    r, _ = one(d, num_partitions=1, replication_factor=4)
    assert r.error_code == E.INVALID_REPLICATION_FACTOR
    assert r.error_message.startswith("Unable to replicate the partition 4 time(s)")
    r, records = one(d, num_partitions=3, replication_factor=1)
    assert r.error_code == 0 and r.replication_factor == 1
    parts = [x for x in records if type(x).__name__ == "PartitionRecord"]
    assert [(p.replicas, p.isr, p.leader) for p in parts] == [([1], [1], 1), ([2], [2], 2), ([3], [3], 3)]


def test_single_node_keeps_kafkas_message():
    r, _ = one(decisions(brokers=(1,)), num_partitions=1, replication_factor=3)
    assert r.error_code == E.INVALID_REPLICATION_FACTOR
    assert "only 1 broker(s) are registered" in r.error_message


def test_default_replication_factor_is_the_one_replica():
    r, _ = one(decisions(), num_partitions=2, replication_factor=-1)
    assert r.error_code == 0 and r.replication_factor == 1


def test_manual_assignments_of_several_replicas_are_refused():
    d = decisions()
    r, records = one(d, assignments={0: [1, 2], 1: [2, 3]})
    assert r.error_code == E.INVALID_REPLICA_ASSIGNMENT and NO_REPLICATION in r.error_message and records == []
    # Kafka's own checks come first
    r, _ = one(d, assignments={0: [1, 9]})
    assert r.error_message == "The manual partition assignment includes broker 9, but no such broker is registered."
    r, _ = one(d, assignments={0: [3], 1: [1]})
    assert r.error_code == 0


def test_create_partitions_adds_one_replica_each_and_refuses_several():
    old = TopicImage("old", b"\x01" * 16, {0: PartitionImage(0, 1, 0, 0, (1, 2, 3), (1, 2, 3))})
    d = decisions(topics=[old])
    res = d.create_partitions([("old", 3, None)])
    assert res.response == [("old", 0, None)]
    assert [len(p.replicas) for p in res.records] == [1, 1]  # not partition 0's three
    res = d.create_partitions([("old", 2, [[1, 2]])])
    name, code, msg = res.response[0]
    assert code == E.INVALID_REPLICA_ASSIGNMENT and NO_REPLICATION in msg and res.records == []


def test_an_older_clusters_several_replicas_report_an_isr_of_the_leader_alone():
    p = PartitionImage(0, leader=2, leader_epoch=0, partition_epoch=0, replicas=(2, 1, 3), isr=(2, 1, 3))
    assert p.in_sync == (2,)
    assert PartitionImage(0, leader=-1, leader_epoch=0, partition_epoch=0, replicas=(2,), isr=(2,)).in_sync == ()
