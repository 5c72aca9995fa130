"""Replicas of new partitions (CreateTopics, CreatePartitions) as Kafka 4.3's controller
places and validates them: StripedReplicaPlacer over the usable brokers (fenced ones too,
never as leader; not those in controlled shutdown), rack-aware; the ISR is the active
replicas and the leader its first; Kafka's INVALID_REPLICATION_FACTOR /
INVALID_REPLICA_ASSIGNMENT messages word for word."""
import random
from collections import Counter

import pytest

from odradek.controller.decisions import CreateTopicSpec, Decisions, Env
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.controller.placement import InvalidReplicationFactor, UsableBroker, place
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.partition_record import PartitionRecord


def decisions(brokers=(1, 2, 3), topics=(), defaults=None, fenced=(), shutting_down=(), racks=None,
              seed=1) -> Decisions:
    racks = racks or {}
    img = MetadataImage(topics={t.name: t for t in topics}, topics_by_id={t.topic_id: t for t in topics},
                        brokers={b: BrokerImage(b, "h", 9000 + b, racks.get(b), b in fenced,
                                                in_controlled_shutdown=b in shutting_down) for b in brokers})
    rng = random.Random(seed)
    return Decisions(Env(1, defaults or {}, lambda: b"\x07" * 16, rng), img)


def one(d: Decisions, **kw):
    res = d.create_topics([CreateTopicSpec("t", **kw)])
    return res.response[0], [r for r in res.records if isinstance(r, PartitionRecord)]


def test_replicas_spread_over_the_brokers_leaders_evenly():
    r, parts = one(decisions(), num_partitions=6, replication_factor=3)
    assert r.error_code == 0 and r.replication_factor == 3 and r.num_partitions == 6
    for p in parts:
        assert sorted(p.replicas) == [1, 2, 3] and p.isr == p.replicas and p.leader == p.replicas[0]
        assert p.leader_epoch == 0 and p.partition_epoch == 0 and p.eligible_leader_replicas == []
    assert Counter(p.leader for p in parts) == {1: 2, 2: 2, 3: 2}
    r, parts = one(decisions(brokers=(1, 2, 3, 4, 5)), num_partitions=10, replication_factor=2)
    assert all(len(set(p.replicas)) == 2 for p in parts)
    assert Counter(p.leader for p in parts) == {b: 2 for b in (1, 2, 3, 4, 5)}
    assert Counter(b for p in parts for b in p.replicas) == {b: 4 for b in (1, 2, 3, 4, 5)}


def test_replicas_of_a_partition_go_to_different_racks():
    racks = {1: "a", 2: "a", 3: "b", 4: "b", 5: "c", 6: "c"}
    for seed in range(20):
        _, parts = one(decisions(brokers=racks, racks=racks, seed=seed), num_partitions=12, replication_factor=3)
        for p in parts:
            assert sorted(racks[b] for b in p.replicas) == ["a", "b", "c"]
        assert Counter(p.leader for p in parts) == {b: 2 for b in racks}
    # two racks, three replicas: each rack holds at least one
    racks = {1: "a", 2: "a", 3: "b", 4: "b"}
    _, parts = one(decisions(brokers=racks, racks=racks), num_partitions=8, replication_factor=3)
    assert all({racks[b] for b in p.replicas} == {"a", "b"} for p in parts)


def test_fenced_brokers_hold_replicas_but_never_lead_nor_join_the_isr():
    _, parts = one(decisions(brokers=(1, 2, 3), fenced=(3,)), num_partitions=4, replication_factor=3)
    for p in parts:
        assert sorted(p.replicas) == [1, 2, 3] and 3 not in p.isr and p.leader in (1, 2)
        assert p.isr == [b for b in p.replicas if b != 3] and p.leader == p.isr[0]
    # a broker in controlled shutdown is not usable at all
    r, _ = one(decisions(brokers=(1, 2, 3), shutting_down=(3,)), num_partitions=1, replication_factor=3)
    assert r.error_code == E.INVALID_REPLICATION_FACTOR
    assert r.error_message == ("Unable to replicate the partition 3 time(s): The target replication factor of 3 "
                               "cannot be reached because only 2 broker(s) are registered or some brokers have all "
                               "their log directories cordoned.")


@pytest.mark.parametrize("brokers,fenced,rf,message", [
    ((1,), (), 3, "The target replication factor of 3 cannot be reached because only 1 broker(s) are registered or "
                  "some brokers have all their log directories cordoned."),
    ((1, 2, 3), (), 4, "The target replication factor of 4 cannot be reached because only 3 broker(s) are "
                       "registered or some brokers have all their log directories cordoned."),
    ((1, 2), (1, 2), 1, "All brokers are currently fenced, or have all their log directories cordoned."),
    ((1, 2), (1, 2), 3, "All brokers are currently fenced, or have all their log directories cordoned."),
    ((), (), 1, "All brokers are currently fenced, or have all their log directories cordoned."),
])
def test_replication_factor_the_brokers_cannot_carry(brokers, fenced, rf, message):
    r, parts = one(decisions(brokers=brokers, fenced=fenced), num_partitions=2, replication_factor=rf)
    assert (r.error_code, r.error_message) == (E.INVALID_REPLICATION_FACTOR,
                                               f"Unable to replicate the partition {rf} time(s): {message}")
    assert parts == []


def test_the_default_replication_factor():
    r, parts = one(decisions(defaults={"default.replication.factor": "2"}), num_partitions=3,
                   replication_factor=-1)
    assert r.error_code == 0 and r.replication_factor == 2 and all(len(p.replicas) == 2 for p in parts)
    r, _ = one(decisions(), num_partitions=2, replication_factor=-1)
    assert r.error_code == 0 and r.replication_factor == 1


def test_manual_assignments_of_several_replicas():
    d = decisions(fenced=(3,))
    r, parts = one(d, assignments={0: [1, 2, 3], 1: [3, 2, 1]})
    assert r.error_code == 0 and r.replication_factor == 3
    assert [(p.replicas, p.isr, p.leader) for p in parts] == [([1, 2, 3], [1, 2], 1), ([3, 2, 1], [2, 1], 2)]
    cases = [
        ({0: [1, 9, 7]}, "The manual partition assignment includes broker 7, but no such broker is registered."),
        ({0: [2, 1, 2]}, "The manual partition assignment includes the broker 2 more than once."),
        ({0: []}, "The manual partition assignment includes an empty replica list."),
        ({0: [1, 2], 1: [1]}, "The manual partition assignment includes a partition with 1 replica(s), but this is "
                              "not consistent with previous partitions, which have 2 replica(s)."),
        ({0: [3]}, "All brokers specified in the manual partition assignment for partition 0 are fenced or in "
                   "controlled shutdown."),
        ({0: [1], 2: [2]}, "partitions should be a consecutive 0-based integer sequence"),
    ]
    for assignments, message in cases:
        r, parts = one(d, assignments=assignments)
        assert (r.error_code, r.error_message) == (E.INVALID_REPLICA_ASSIGNMENT, message) and parts == []


def test_create_partitions_keeps_the_topics_replication_factor():
    old = TopicImage("old", b"\x01" * 16, {0: PartitionImage(0, 1, 0, 0, (1, 2, 3), (1, 2, 3))})
    d = decisions(brokers=(1, 2, 3, 4), topics=[old])
    res = d.create_partitions([("old", 3, None)])
    assert res.response == [("old", 0, None)]
    assert [(p.partition_id, len(p.replicas), p.isr == p.replicas) for p in res.records] == [(1, 3, True),
                                                                                          (2, 3, True)]
    res = d.create_partitions([("old", 2, [[4, 2, 1]])])
    assert res.response == [("old", 0, None)] and res.records[0].replicas == [4, 2, 1]
    res = d.create_partitions([("old", 2, [[1, 2]])])
    assert res.response == [("old", E.INVALID_REPLICA_ASSIGNMENT,
                             "The manual partition assignment includes a partition with 2 replica(s), but this is "
                             "not consistent with previous partitions, which have 3 replica(s).")]
    # the placer's refusal unwrapped, as Kafka's createPartitions throws it
    res = decisions(brokers=(1, 2), topics=[old]).create_partitions([("old", 2, None)])
    assert res.response == [("old", E.INVALID_REPLICATION_FACTOR,
                             "The target replication factor of 3 cannot be reached because only 2 broker(s) are "
                             "registered or some brokers have all their log directories cordoned.")]


def test_placement_never_spins_and_uses_each_broker_once_per_partition():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 7)
        brokers = [UsableBroker(b, rng.choice([None, "r1", "r2", "r3"]), rng.random() < 0.3) for b in range(n)]
        rf = rng.randint(1, n + 1)
        try:
            out = place(brokers, rng.randint(1, 20), rf, rng)
        except InvalidReplicationFactor:
            assert rf > n or all(b.fenced for b in brokers)
            continue
        fenced = {b.node_id for b in brokers if b.fenced}
        for replicas in out:
            assert len(replicas) == rf == len(set(replicas)) and replicas[0] not in fenced


def test_the_isr_is_the_real_isr():
    p = PartitionImage(0, leader=2, leader_epoch=0, partition_epoch=0, replicas=(2, 1, 3), isr=(2, 1, 3))
    assert p.in_sync == (2, 1, 3)
