"""PartitionChange: one partition's next state as Kafka 4.x's PartitionChangeBuilder
builds it: who is elected, what the record carries, when the leader epoch moves."""
from odradek.controller.image import PartitionImage
from odradek.controller.partition_change import RECOVERING, Election, PartitionChange
from odradek.wire.messages.partition_change_record import PartitionChangeRecord

TID = b"\x01" * 16


def part(leader=1, replicas=(1, 2, 3), isr=None, elr=(), last_known_elr=(), le=5, pe=7, **kw):
    return PartitionImage(0, leader, le, pe, tuple(replicas), tuple(replicas if isr is None else isr), elr=tuple(elr),
                          last_known_elr=tuple(last_known_elr), **kw)


def change(p, alive=(1, 2, 3), **kw):
    return PartitionChange(p, TID, lambda b: b in alive, **kw)


def test_nothing_to_change_is_no_record():
    assert change(part()).build() is None
    assert change(part(), target_isr=[1, 2, 3]).build() is None


def test_isr_shrink_keeps_the_leader_and_its_epoch():
    p = part()
    rec = change(p, target_isr=[1, 2]).build()
    assert rec == PartitionChangeRecord(partition_id=0, topic_id=TID, isr=[1, 2])
    after = p.merge(rec)
    assert (after.leader, after.leader_epoch, after.partition_epoch, after.isr) == (1, 5, 8, (1, 2))
    # expansion likewise
    assert p.merge(change(part(isr=(1,)), target_isr=[1, 3]).build()).leader_epoch == 5


def test_leader_leaving_the_isr_elects_the_next_replica_in_replica_order():
    p = part(leader=1, replicas=(1, 2, 3), isr=(1, 3, 2))
    rec = change(p, alive=(2, 3), target_isr=[3, 2]).build()
    assert rec.leader == 2 and rec.isr == [3, 2]  # replica order, not ISR order
    after = p.merge(rec)
    assert (after.leader, after.leader_epoch, after.partition_epoch) == (2, 6, 8)


def test_the_last_isr_member_stays_without_elr_leaderless():
    p = part(leader=1, isr=(1,))
    rec = change(p, alive=(2, 3), target_isr=[]).build()
    assert rec.leader == -1 and rec.isr is None  # the ISR is never emptied
    after = p.merge(rec)
    assert (after.leader, after.isr, after.leader_epoch) == (-1, (1,), 6)


def test_a_current_leader_that_is_still_valid_stays():
    p = part(leader=2)
    assert change(p, target_isr=[2, 3]).build() == PartitionChangeRecord(partition_id=0, topic_id=TID, isr=[2, 3])


def test_preferred_election_prefers_the_first_replica():
    p = part(leader=2)
    rec = change(p, election=Election.PREFERRED).build()
    assert rec.leader == 1 and rec.isr is None
    assert change(p, alive=(2, 3), election=Election.PREFERRED).build() is None  # 1 is down: 2 stays
    assert change(part(leader=2, isr=(2, 3)), election=Election.PREFERRED).build() is None  # 1 not in sync


def test_unclean_election_takes_an_out_of_sync_replica_and_marks_it_recovering():
    p = part(leader=-1, isr=(1,))
    assert change(p, alive=(2, 3)).build() is None  # clean: nobody to elect
    rec = change(p, alive=(2, 3), election=Election.UNCLEAN).build()
    assert (rec.leader, rec.isr, rec.leader_recovery_state) == (2, [2], RECOVERING)
    after = p.merge(rec)
    assert (after.leader, after.isr, after.leader_recovery_state, after.leader_epoch) == (2, (2,), RECOVERING, 6)
    # the recovered leader says so through AlterPartition
    rec = change(after, target_isr=[2], target_recovery_state=0).build()
    assert rec.leader_recovery_state == 0 and rec.leader == -2


def test_a_replica_leaving_the_replica_set_bumps_the_leader_epoch():
    p = part(replicas=(1, 2, 3), removing_replicas=(3,))
    rec = change(p, target_isr=[1, 2, 3]).build()  # 3 leaves once the reassignment completes
    assert rec.replicas == [1, 2] and rec.isr == [1, 2] and rec.removing_replicas == [] and rec.leader == 1
    assert p.merge(rec).leader_epoch == 6
    # adding replicas not yet in sync: not complete
    p = part(replicas=(1, 2, 3, 4), isr=(1, 2, 3), adding_replicas=(4,))
    assert change(p).build() is None
    rec = change(p, alive=(1, 2, 3, 4), target_isr=[1, 2, 3, 4]).build()
    assert rec.adding_replicas == [] and rec.isr == [1, 2, 3, 4] and rec.leader == -2 and rec.replicas is None


def test_elr_keeps_the_replicas_that_left_an_isr_under_min_isr():
    p = part(isr=(1, 2, 3))
    rec = change(p, alive=(1, 2), min_isr=2, elr_enabled=True, target_isr=[1, 2]).build()
    assert rec.isr == [1, 2] and rec.eligible_leader_replicas is None  # ISR still >= min ISR
    p = p.merge(rec)
    rec = change(p, alive=(1,), min_isr=2, elr_enabled=True, target_isr=[1]).build()
    assert rec.isr == [1] and rec.eligible_leader_replicas == [2]
    p = p.merge(rec)
    # the leader goes too: the ISR empties, the last leader is remembered, no one leads
    rec = change(p, alive=(), min_isr=2, elr_enabled=True, target_isr=[]).build()
    assert (rec.isr, rec.leader, rec.eligible_leader_replicas, rec.last_known_elr) == ([], -1, [1, 2], [1])
    p = p.merge(rec)
    assert (p.isr, p.elr, p.last_known_elr, p.leader) == ((), (1, 2), (1,), -1)
    # 2 comes back: elected from the ELR, it is the ISR
    rec = change(p, alive=(2,), min_isr=2, elr_enabled=True).build()
    assert (rec.leader, rec.isr, rec.eligible_leader_replicas, rec.last_known_elr) == (2, [2], [1], [])
    # a replica that shut down uncleanly does not enter the ELR
    p = part(isr=(1, 2))
    rec = change(p, alive=(1,), min_isr=2, elr_enabled=True, target_isr=[1], unclean_shutdown=(2,)).build()
    assert rec.isr == [1] and rec.eligible_leader_replicas is None


def test_elr_last_known_leader_is_elected_when_nothing_else_is_left():
    p = part(leader=-1, isr=(), elr=(), last_known_elr=(3,))
    rec = change(p, alive=(3,), min_isr=2, elr_enabled=True).build()
    assert (rec.leader, rec.isr, rec.leader_recovery_state, rec.last_known_elr) == (3, [3], RECOVERING, [])
    assert change(p, alive=(), min_isr=2, elr_enabled=True).build() is None
