"""The controller's replication decisions, as Kafka 4.3's ReplicationControlManager and
BrokerHeartbeatManager: fencing moves leaderships and shrinks ISRs, unfencing elects
leaderless partitions, controlled shutdown, AlterPartition with every error code, and
ElectLeaders PREFERRED / UNCLEAN."""
import random

import pytest

from odradek.controller.decisions import BrokerRegistration, CreateTopicSpec, Decisions, Env
from odradek.controller.image import BrokerImage, MetadataDelta, MetadataImage, PartitionImage, TopicImage
from odradek.controller.elr_configs import ELR_FEATURE
from odradek.controller.replication_control import IsrUpdate, then
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.broker_registration_change_record import BrokerRegistrationChangeRecord
from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.partition_change_record import PartitionChangeRecord
from odradek.wire.messages.register_broker_record import RegisterBrokerRecord
from odradek.wire.messages.unfence_broker_record import UnfenceBrokerRecord

TID, TID2 = b"\x01" * 16, b"\x02" * 16


def cluster(parts, brokers=(1, 2, 3), fenced=(), elr=False, configs=None, shutting_down=()):
    """An image with topic t: parts {index: (leader, replicas, isr)} and brokers with epoch 10 + id."""
    t = TopicImage("t", TID, {i: PartitionImage(i, leader, 3, 4, tuple(r), tuple(isr))
                              for i, (leader, r, isr) in parts.items()})
    img = MetadataImage(topics={"t": t}, topics_by_id={TID: t},
                        brokers={b: BrokerImage(b, "h", 9000 + b, None, b in fenced, bytes([b]) * 16, 10 + b,
                                                b in shutting_down) for b in brokers},
                        features={ELR_FEATURE: 1} if elr else {}, cluster_id="c")
    if configs:
        delta = MetadataDelta(img)
        for k, v in configs.items():
            delta.replay(ConfigRecord(resource_type=2, resource_name="t", name=k, value=v), 0)
        img = delta.apply()
    return img


def decide(img):
    return Decisions(Env(1, {}, lambda: b"\x09" * 16, random.Random(1)), img)


def partitions(img):
    t = img.topics["t"]
    return {i: (p.leader, p.isr, p.leader_epoch, p.partition_epoch) for i, p in sorted(t.partitions.items())}


# ------------------------------------------------------------------ fencing and unfencing

def test_fencing_a_broker_moves_its_leaderships_and_shrinks_every_isr():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3]), 1: (2, [2, 1, 3], [2, 1, 3]), 2: (1, [1], [1]),
                   3: (3, [3, 2], [3, 2])})
    r = decide(img).fence([1])
    assert r.response == [1]
    assert r.records[-1] == BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=11, fenced=1)
    after = then(img, r.records)
    assert partitions(after) == {
        0: (2, (2, 3), 4, 5),   # new leader from the ISR: leader epoch +1
        1: (2, (2, 3), 3, 5),   # ISR shrink only: the leader epoch stays
        2: (-1, (1,), 4, 5),    # no one else in sync: leaderless, the ISR not emptied
        3: (3, (3, 2), 3, 4),   # untouched
    }
    assert after.brokers[1].fenced
    # fencing again writes nothing
    assert decide(after).fence([1]).records == []


def test_fencing_two_brokers_one_after_the_other():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3])})
    r = decide(img).fence([1, 2])
    assert partitions(then(img, r.records))[0] == (3, (3,), 5, 6)


def test_unfencing_elects_leaderless_partitions_that_have_the_broker_in_their_isr():
    img = then(cluster({0: (1, [1, 2], [1, 2]), 1: (1, [1], [1])}), [])
    img = then(img, decide(img).fence([1, 2]).records)
    assert partitions(img) == {0: (-1, (2,), 5, 6), 1: (-1, (1,), 4, 5)}
    r = decide(img).broker_heartbeat(1, 11, 1000, False)
    assert r.records[0] == UnfenceBrokerRecord(id=1, epoch=11) and not r.response.is_fenced
    img = then(img, r.records)
    assert partitions(img) == {0: (-1, (2,), 5, 6), 1: (1, (1,), 5, 6)}  # 1 not in partition 0's ISR
    img = then(img, decide(img).broker_heartbeat(2, 12, 1000, False).records)
    assert partitions(img)[0] == (2, (2,), 6, 7)


def test_unclean_leader_election_enable_elects_out_of_sync_replicas():
    img = cluster({0: (1, [1, 2], [1])}, configs={"unclean.leader.election.enable": "true"})
    after = then(img, decide(img).fence([1]).records)
    p = after.topics["t"].partitions[0]
    assert (p.leader, p.isr, p.leader_recovery_state, p.leader_epoch) == (2, (2,), 1, 4)


def test_with_elr_fenced_replicas_stay_eligible_and_the_isr_may_empty():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3])}, elr=True, configs={"min.insync.replicas": "2"})
    img = then(img, decide(img).fence([3]).records)
    p = img.topics["t"].partitions[0]
    assert (p.leader, p.isr, p.elr) == (1, (1, 2), ())
    img = then(img, decide(img).fence([2]).records)
    p = img.topics["t"].partitions[0]
    assert (p.leader, p.isr, p.elr) == (1, (1,), (2,))
    img = then(img, decide(img).fence([1]).records)
    p = img.topics["t"].partitions[0]
    assert (p.leader, p.isr, p.elr, p.last_known_elr) == (-1, (), (1, 2), (1,))
    # broker 2 comes back: elected from the ELR
    img = then(img, decide(img).broker_heartbeat(2, 12, 1000, False).records)
    p = img.topics["t"].partitions[0]
    assert (p.leader, p.isr, p.elr, p.last_known_elr) == (2, (2,), (1,), ())


# ------------------------------------------------------------------ controlled shutdown

def test_controlled_shutdown_moves_leaderships_then_lets_the_broker_go():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3]), 1: (2, [2, 1], [2, 1]), 2: (1, [1], [1])})
    d = decide(img)
    r = d.broker_heartbeat(1, 11, 1000, False, want_shut_down=True)
    assert r.response.in_controlled_shutdown and not r.response.should_shut_down and not r.response.is_fenced
    assert r.records[0] == BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=11, in_controlled_shutdown=1)
    img = then(img, r.records)
    assert img.brokers[1].in_controlled_shutdown and not img.brokers[1].active
    assert partitions(img) == {0: (2, (2, 3), 4, 5), 1: (2, (2,), 3, 5), 2: (-1, (1,), 4, 5)}
    # leads nothing now, but the other brokers have not seen it yet
    r = decide(img).broker_heartbeat(1, 11, 1000, False, want_shut_down=True, shutdown_offset_reached=False)
    assert r.records == [] and r.response.in_controlled_shutdown and not r.response.should_shut_down
    r = decide(img).broker_heartbeat(1, 11, 1000, False, want_shut_down=True)
    assert r.response.should_shut_down and r.response.is_fenced
    assert r.records == [BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=11, fenced=1)]
    # a broker that leads nothing is let go at once; one that is fenced too
    img2 = cluster({0: (2, [2, 1], [2, 1])})
    r = decide(img2).broker_heartbeat(1, 11, 1000, False, want_shut_down=True)
    assert r.response.should_shut_down and partitions(then(img2, r.records))[0] == (2, (2,), 3, 5)
    r = decide(cluster({}, fenced=(1,))).broker_heartbeat(1, 11, 1000, False, want_shut_down=True)
    assert r.response.should_shut_down


def test_a_broker_in_controlled_shutdown_is_not_placed():
    img = cluster({}, shutting_down=(3,))
    res = decide(img).create_topics([CreateTopicSpec("u", 3, 2)])
    assert res.response[0].error_code == 0
    assert all(3 not in p.replicas for p in res.records[1:])


# ------------------------------------------------------------------ registration

def test_a_new_incarnation_waits_for_the_old_session_and_leaves_isrs_after_an_unclean_shutdown():
    img = cluster({0: (2, [1, 2, 3], [1, 2, 3])}, elr=True, configs={"min.insync.replicas": "2"})
    reg = BrokerRegistration(1, b"\x55" * 16, [("PLAINTEXT", "h", 9001, 0)], {ELR_FEATURE: (0, 1)},
                             cluster_id="c")  # it supports the finalized ELR level, as a broker must
    d = decide(img)
    assert d.register_broker(reg, 50, has_valid_session=True).response == E.DUPLICATE_BROKER_REGISTRATION
    r = d.register_broker(reg, 50)
    assert r.response == 0 and isinstance(r.records[-1], RegisterBrokerRecord) and r.records[-1].broker_epoch == 50
    assert r.records[0] == PartitionChangeRecord(partition_id=0, topic_id=TID, isr=[2, 3])
    # shut down cleanly (its last epoch): out of the ISR as a fence (new leaders), not out of the ELR
    reg.previous_broker_epoch = 11
    r = d.register_broker(reg, 50)
    assert r.records[0] == PartitionChangeRecord(partition_id=0, topic_id=TID, isr=[2, 3])
    assert isinstance(r.records[1], RegisterBrokerRecord)
    # without ELR a new incarnation is handled as a fence: a partition it led elects another leader
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3])})
    r = decide(img).register_broker(BrokerRegistration(1, b"\x56" * 16, [("PLAINTEXT", "h", 9001, 0)], {},
                                                       cluster_id="c", previous_broker_epoch=11), 60)
    after = then(img, r.records)
    assert partitions(after)[0] == (2, (2, 3), 4, 5) and after.brokers[1].fenced and after.brokers[1].epoch == 60
    # the same incarnation amends its registration: epoch and state kept
    same = BrokerRegistration(1, b"\x01" * 16, [("PLAINTEXT", "h2", 9001, 0)], {ELR_FEATURE: (0, 1)},
                              cluster_id="c")
    rec = d.register_broker(same, 50, has_valid_session=True).records[0]
    assert (rec.broker_epoch, rec.fenced, rec.end_points[0].host) == (11, False, "h2")


# ------------------------------------------------------------------ leaderless partitions led again (KIP-966)
# The record sequences below are the ones Apache Kafka 4.3's controller wrote in the same scenarios on
# real processes (its __cluster_metadata log read with kafka-dump-log --cluster-metadata-decoder).

def crashed(broker_id: int, incarnation: int) -> BrokerRegistration:
    """A new incarnation after a kill -9: no clean shutdown epoch to send."""
    return BrokerRegistration(broker_id, bytes([incarnation]) * 16, [("PLAINTEXT", "h", 9000 + broker_id, 0)],
                              {ELR_FEATURE: (0, 1)}, cluster_id="c", previous_broker_epoch=-1)


def change(**kw) -> PartitionChangeRecord:
    return PartitionChangeRecord(partition_id=0, topic_id=TID, **kw)


def state(img):
    p = img.topics["t"].partitions[0]
    return p.leader, p.isr, p.elr, p.last_known_elr, p.leader_recovery_state, p.leader_epoch


def test_a_partition_placed_on_a_killed_unfenced_broker_is_led_by_it_again_after_the_fence():
    """replication.factor 1 on broker 1, killed before its session lapsed: fenced, it stays the
    partition's eligible and last known leader; its new incarnation (unclean shutdown) leaves the
    ELR and, unfenced, is elected as the last known leader (recovering, as an unclean election)."""
    img = cluster({0: (1, [1], [1])}, elr=True)
    r = decide(img).fence([1])
    assert r.records[0] == change(isr=[], leader=-1, eligible_leader_replicas=[1], last_known_elr=[1])
    img = then(img, r.records)
    assert state(img) == (-1, (), (1,), (1,), 0, 4)
    r = decide(img).register_broker(crashed(1, 0x61), 50)
    assert r.response == 0 and r.records[0] == change(eligible_leader_replicas=[])
    assert isinstance(r.records[1], RegisterBrokerRecord) and len(r.records) == 2
    img = then(img, r.records)
    assert state(img) == (-1, (), (), (1,), 0, 4)
    r = decide(img).broker_heartbeat(1, 50, 1000, False)
    assert r.records == [UnfenceBrokerRecord(id=1, epoch=50),
                         change(isr=[1], leader=1, leader_recovery_state=1, last_known_elr=[])]
    assert state(then(img, r.records)) == (1, (1,), (), (), 1, 5)


def test_a_killed_broker_registering_again_before_its_fence_is_still_the_last_known_leader():
    """The new incarnation registers once the old session lapsed but before the controller fenced
    it: its unclean shutdown takes it out of the ISR (leaderless, last known leader kept), then
    unfenced it is elected."""
    img = cluster({0: (1, [1], [1])}, elr=True)
    d = decide(img)
    assert d.register_broker(crashed(1, 0x62), 50, has_valid_session=True).response == E.DUPLICATE_BROKER_REGISTRATION
    r = d.register_broker(crashed(1, 0x62), 50)
    assert r.records[0] == change(isr=[], leader=-1, last_known_elr=[1])
    img = then(img, r.records)
    assert state(img) == (-1, (), (), (1,), 0, 4) and img.brokers[1].fenced
    r = decide(img).broker_heartbeat(1, 50, 1000, False)
    assert r.records[1] == change(isr=[1], leader=1, leader_recovery_state=1, last_known_elr=[])


@pytest.mark.parametrize("min_isr", [1, 2])
def test_the_last_isr_member_killed_and_back_leads_again(min_isr):
    """replication.factor 3: followers 3 then 2 fenced, then the leader 1, the last ISR member. With
    min.insync.replicas=1 its new incarnation is elected once unfenced. With 2, replica 2 is in the
    ELR too: 1 is not elected while 2 may hold more, and 2's new incarnation (unclean: out of the
    ELR) lets the last known leader be elected."""
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3])}, elr=True, configs={"min.insync.replicas": str(min_isr)})
    steps = []
    for b in (3, 2, 1):
        r = decide(img).fence([b])
        steps.append(r.records[0])
        img = then(img, r.records)
    if min_isr == 2:
        assert steps == [change(isr=[1, 2]), change(isr=[1], eligible_leader_replicas=[2]),
                         change(isr=[], leader=-1, eligible_leader_replicas=[1, 2], last_known_elr=[1])]
    else:
        assert steps == [change(isr=[1, 2]), change(isr=[1]),
                         change(isr=[], leader=-1, eligible_leader_replicas=[1], last_known_elr=[1])]
    r = decide(img).register_broker(crashed(1, 0x63), 50)
    assert r.records[0] == change(eligible_leader_replicas=[2] if min_isr == 2 else [])
    img = then(img, r.records)
    r = decide(img).broker_heartbeat(1, 50, 1000, False)
    img = then(img, r.records)
    if min_isr == 1:
        assert r.records[1] == change(isr=[1], leader=1, leader_recovery_state=1, last_known_elr=[])
        assert state(img) == (1, (1,), (), (), 1, 5)
        return
    assert r.records == [UnfenceBrokerRecord(id=1, epoch=50)]  # 2, eligible, is away
    assert state(img) == (-1, (), (2,), (1,), 0, 4)
    r = decide(img).register_broker(crashed(2, 0x64), 60)
    assert r.records[0] == change(isr=[1], leader=1, leader_recovery_state=1, eligible_leader_replicas=[],
                                  last_known_elr=[])
    assert state(then(img, r.records)) == (1, (1,), (), (), 1, 5)


def test_a_cleanly_stopped_eligible_replica_is_elected_from_the_elr():
    """Its previous broker epoch matches: it stays in the ELR and, unfenced, is elected cleanly."""
    img = cluster({0: (1, [1], [1])}, elr=True)
    img = then(img, decide(img).fence([1]).records)
    reg = crashed(1, 0x65)
    reg.previous_broker_epoch = 11
    r = decide(img).register_broker(reg, 50)
    assert isinstance(r.records[0], RegisterBrokerRecord)
    img = then(img, r.records)
    r = decide(img).broker_heartbeat(1, 50, 1000, False)
    assert r.records[1] == change(isr=[1], leader=1, eligible_leader_replicas=[], last_known_elr=[])
    assert state(then(img, r.records)) == (1, (1,), (), (), 0, 5)


# ------------------------------------------------------------------ AlterPartition

def alter(img, broker=1, epoch=11, topic=TID, **kw):
    u = dict(partition=0, leader_epoch=3, partition_epoch=4, new_isr=[(1, 11), (2, 12)])
    u.update(kw)
    return decide(img).alter_partition(broker, epoch, [(topic, [IsrUpdate(**u)])])


def test_alter_partition_shrinks_and_expands_the_isr():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3])})
    r = alter(img)
    code, [(tid, [res])] = r.response
    assert code == 0 and tid == TID and res.error_code == 0
    assert r.records == [PartitionChangeRecord(partition_id=0, topic_id=TID, isr=[1, 2])]
    p = res.partition_image
    assert (p.leader, p.leader_epoch, p.partition_epoch, p.isr) == (1, 3, 5, (1, 2))
    img = then(img, r.records)
    r = alter(img, partition_epoch=5, new_isr=[(1, 11), (2, 12), (3, -1)])  # -1: epoch not checked
    assert r.response[1][0][1][0].partition_image.isr == (1, 2, 3)
    # the same ISR again: no record, the current state answered
    r = alter(then(img, r.records), partition_epoch=6, new_isr=[(1, 11), (2, 12), (3, 13)])
    assert r.records == [] and r.response[1][0][1][0].partition_image.partition_epoch == 6


@pytest.mark.parametrize("kw,code", [
    (dict(epoch=99), E.STALE_BROKER_EPOCH),
    (dict(broker=7, epoch=17), E.STALE_BROKER_EPOCH),
    (dict(topic=TID2), E.UNKNOWN_TOPIC_ID),
    (dict(partition=9), E.UNKNOWN_TOPIC_OR_PARTITION),
    (dict(leader_epoch=2), E.FENCED_LEADER_EPOCH),
    (dict(leader_epoch=4), E.NOT_CONTROLLER),
    (dict(partition_epoch=5), E.NOT_CONTROLLER),
    (dict(partition_epoch=3), E.INVALID_UPDATE_VERSION),
    (dict(broker=2, epoch=12, new_isr=[(2, 12)]), E.INVALID_REQUEST),  # not the leader
    (dict(new_isr=[(2, 12)]), E.INVALID_REQUEST),  # without the leader
    (dict(new_isr=[(1, 11), (4, 14)]), E.INVALID_REQUEST),  # not a replica
    (dict(new_isr=[(1, 11), (1, 11)]), E.INVALID_REQUEST),  # twice
    (dict(new_isr=[(1, 11), (2, 12)], leader_recovery_state=1), E.INVALID_REQUEST),  # RECOVERED -> RECOVERING
    (dict(new_isr=[(1, 11), (3, 13)]), E.INELIGIBLE_REPLICA),  # 3 is fenced
    (dict(new_isr=[(1, 11), (2, 99)]), E.INELIGIBLE_REPLICA),  # broker epoch mismatch
    (dict(new_isr=[(1, 11), (4, 14)], partition=1), E.INELIGIBLE_REPLICA),  # 4 in controlled shutdown
])
def test_alter_partition_errors(kw, code):
    img = cluster({0: (1, [1, 2, 3], [1, 2]), 1: (1, [1, 2, 4], [1, 2])}, brokers=(1, 2, 3, 4), fenced=(3,),
                  shutting_down=(4,))
    r = alter(img, **kw)
    top, topics = r.response
    got = top if top else topics[0][1][0].error_code
    assert got == code and r.records == []


# ------------------------------------------------------------------ ElectLeaders

def test_preferred_and_unclean_elections():
    img = cluster({0: (2, [1, 2, 3], [1, 2, 3]), 1: (1, [1, 2], [1, 2]), 2: (-1, [2, 3], [2]),
                   3: (1, [3, 1], [1])}, fenced=(2,))
    d = decide(img)
    r = d.elect_leaders(0, [("t", [0, 1, 2, 3, 9]), ("nope", [0])])
    assert [(x.topic, x.partitions) for x in r.response] == [
        ("t", [(0, 0, None), (1, E.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition."),
               (2, E.PREFERRED_LEADER_NOT_AVAILABLE, "The preferred leader was not available."),
               (3, E.PREFERRED_LEADER_NOT_AVAILABLE, "The preferred leader was not available."),
               (9, E.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as t-9")]),
        ("nope", [(0, E.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as nope")])]
    assert r.records == [PartitionChangeRecord(partition_id=0, topic_id=TID, leader=1)]
    # all partitions: the ones not needing an election are left out
    r = d.elect_leaders(0, None)
    assert [(x.topic, [p for p, _, _ in x.partitions]) for x in r.response] == [("t", [0, 2, 3])]
    r = d.elect_leaders(1, [("t", [0, 2])])
    assert r.response[0].partitions == [(0, E.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition."),
                                        (2, 0, None)]
    assert r.records == [PartitionChangeRecord(partition_id=2, topic_id=TID, leader=3, isr=[3],
                                               leader_recovery_state=1)]
    r = decide(cluster({0: (-1, [2], [2])}, fenced=(2,))).elect_leaders(1, [("t", [0])])
    assert r.response[0].partitions == [(0, E.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                                         "Eligible topic partition leaders are not available.")]


# ------------------------------------------------------------------ reassignments

def reassign(img, *parts, allow_rf_change=True):
    return decide(img).alter_partition_reassignments([("t", list(parts))], allow_rf_change)


def test_a_reassignment_adds_replicas_then_completes_when_they_are_in_sync():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3])}, brokers=(1, 2, 3, 4))
    r = reassign(img, (0, [2, 3, 4]))
    assert r.response == [("t", [(0, 0, None)])]
    assert r.records == [PartitionChangeRecord(partition_id=0, topic_id=TID, replicas=[2, 3, 4, 1],
                                               removing_replicas=[1], adding_replicas=[4])]
    img = then(img, r.records)
    p = img.topics["t"].partitions[0]
    assert (p.replicas, p.adding_replicas, p.removing_replicas, p.leader, p.leader_epoch) == (
        (2, 3, 4, 1), (4,), (1,), 1, 3)  # the leader stays while its replica is being removed
    # the leader's AlterPartition with 4 in sync completes it: 1 leaves, a new leader
    r = alter(img, partition_epoch=5, new_isr=[(1, 11), (2, 12), (3, 13), (4, 14)])
    assert r.response[1][0][1][0].error_code == E.NEW_LEADER_ELECTED
    img = then(img, r.records)
    p = img.topics["t"].partitions[0]
    assert (p.replicas, p.isr, p.adding_replicas, p.removing_replicas, p.leader, p.leader_epoch) == (
        (2, 3, 4), (2, 3, 4), (), (), 2, 4)


def test_reassignment_errors_reorders_and_cancels():
    img = cluster({0: (1, [1, 2, 3], [1, 2, 3]), 1: (1, [1, 2], [1, 2])}, brokers=(1, 2, 3, 4))
    r = reassign(img, (0, [3, 2, 1]), (1, None), (0, [1, 9]), (0, [4, 4]), (7, [1]))
    assert r.response == [("t", [
        (0, 0, None), (1, E.NO_REASSIGNMENT_IN_PROGRESS, None),
        (0, E.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes broker 9, but no such broker "
                                          "is registered."),
        (0, E.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes the broker 4 more than once."),
        (7, E.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find partition t:7.")])]
    assert r.records == [PartitionChangeRecord(partition_id=0, topic_id=TID, replicas=[3, 2, 1])]  # done at once
    r = reassign(img, (1, [1, 2, 3]), allow_rf_change=False)
    assert r.response == [("t", [(1, E.INVALID_REPLICATION_FACTOR, "The replication factor is changed from 2 to 3")])]
    # cancelling an ongoing one reverts it
    img = then(img, reassign(img, (1, [3, 4])).records)
    p = img.topics["t"].partitions[1]
    assert (p.replicas, p.adding_replicas, p.removing_replicas) == ((3, 4, 1, 2), (3, 4), (1, 2))
    r = reassign(img, (1, None))
    assert r.response == [("t", [(1, 0, None)])]
    p = then(img, r.records).topics["t"].partitions[1]
    assert (p.replicas, p.isr, p.adding_replicas, p.removing_replicas, p.leader) == ((1, 2), (1, 2), (), (), 1)


def test_periodic_passes_balance_leaders_and_elect_unclean_where_enabled():
    img = cluster({0: (2, [1, 2, 3], [1, 2, 3]), 1: (2, [1, 2], [2]), 2: (3, [3, 1], [3, 1])})
    r = decide(img).balance_leaders()
    assert r.response == 1 and r.records == [PartitionChangeRecord(partition_id=0, topic_id=TID, leader=1)]
    img = cluster({0: (-1, [1, 2], [1])}, fenced=(1,))
    assert decide(img).elect_unclean_leaders().records == []
    img = cluster({0: (-1, [1, 2], [1])}, fenced=(1,), configs={"unclean.leader.election.enable": "true"})
    r = decide(img).elect_unclean_leaders()
    assert r.response == 1 and (r.records[0].leader, r.records[0].isr) == (2, [2])
