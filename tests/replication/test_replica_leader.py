"""The leader side, one Kafka rule per test (Partition.scala): the HW over the maximal ISR,
ISR shrink after replica.lag.time.max.ms and expansion once caught up in this leader epoch
(both only as AlterPartition proposals until the controller answers), acks=all with the
effective min ISR, and the checks on follower fetches."""

from dataclasses import dataclass

from odradek.log.leader_epoch_cache import EpochEndOffset, LeaderEpochCache
from odradek.replication.leader import CommittedIsr, LeaderConfig, PartitionLeader, PendingExpandIsr, PendingShrinkIsr
from odradek.replication.messages import LeaderAndIsr, ProduceCompletion, ReplicaFetch
from odradek.wire.errors import ErrorCode

NOW = 1_000_000
LAG = 100
ALIVE = {1: 10, 2: 20, 3: 30}


@dataclass
class Log:
    log_end_offset: int = 0
    log_start_offset: int = 0
    epochs: LeaderEpochCache = LeaderEpochCache()


def make(isr=(1, 2, 3), replicas=(1, 2, 3), *, leo=10, hw=10, min_isr=2, epoch=5, log=None):
    log = log or Log(leo, 0, LeaderEpochCache().assign(0, 0))
    leader = PartitionLeader(1, log, LeaderConfig(min_isr, LAG), LeaderAndIsr(1, epoch, 7, frozenset(isr)),
                             tuple(replicas), hw, NOW, ALIVE)
    log.epochs = log.epochs.assign(*leader.ready().epoch_start)
    return leader, log


_ids = iter(range(1, 1 << 30))


def fetch(leader, replica, offset, now=NOW, *, epoch=None, last_epoch=None, broker_epoch=None):
    return leader.on_fetch(ReplicaFetch(next(_ids), replica, ALIVE[replica] if broker_epoch is None else broker_epoch,
                                        leader.leader_epoch if epoch is None else epoch, offset,
                                        leader.leader_epoch if last_epoch is None else last_epoch, 0), now)


def append(leader, log, n, now=NOW, request_id=None):
    log.log_end_offset += n
    leader.on_append(now, request_id, log.log_end_offset - 1, timeout_ms=1000)


def test_make_leader_assigns_the_epoch_at_the_log_end_and_keeps_the_hw():
    leader, log = make(leo=10, hw=7)
    assert leader.high_watermark == 7 and leader.epoch_start_offset == 10
    assert log.epochs.end_offset_for(5, 10) == EpochEndOffset(5, 10)


def test_hw_is_the_smallest_leo_in_the_isr_and_waits_for_unknown_followers():
    leader, log = make(hw=10)
    append(leader, log, 5)
    assert leader.high_watermark == 10  # followers' LEOs unknown in this epoch
    fetch(leader, 2, 15)
    assert leader.high_watermark == 10
    fetch(leader, 3, 12)
    assert leader.high_watermark == 12
    fetch(leader, 3, 15)
    assert leader.high_watermark == 15


def test_hw_never_goes_back():
    leader, log = make(hw=10)
    append(leader, log, 5)
    fetch(leader, 2, 15)
    fetch(leader, 3, 15)
    assert leader.high_watermark == 15
    fetch(leader, 3, 11)  # (a follower that truncated and refetches)
    assert leader.high_watermark == 15


def test_fetch_answers_the_hw_from_before_its_own_update():
    leader, log = make(hw=10)
    append(leader, log, 5)
    fetch(leader, 2, 15)
    d = fetch(leader, 3, 15)
    assert d.high_watermark == 10 and leader.high_watermark == 15


def test_isr_shrinks_after_the_lag_time_as_a_proposal_only():
    leader, log = make(hw=10)
    fetch(leader, 2, 10)
    fetch(leader, 3, 10)
    append(leader, log, 5)
    fetch(leader, 2, 15, NOW + 10)
    leader.tick(NOW + LAG)
    assert isinstance(leader.isr_state, CommittedIsr)  # not yet: last caught up at NOW
    leader.tick(NOW + LAG + 1)
    st = leader.isr_state
    assert isinstance(st, PendingShrinkIsr) and st.removing == {3}
    (p,) = leader.ready().proposals
    assert p.isr_ids == {1, 2} and (p.leader_epoch, p.partition_epoch) == (5, 7)
    assert [(m.broker_id, m.broker_epoch) for m in p.new_isr] == [(1, 10), (2, 20)]
    # Until the controller answers, the HW still waits for replica 3 (the maximal ISR is the old one).
    assert leader.isr == {1, 2, 3} and leader.high_watermark == 10
    leader.on_alter_partition_answer(p.proposal_id, LeaderAndIsr(1, 5, 8, frozenset({1, 2})), NOW + LAG + 2)
    assert leader.isr == {1, 2} and leader.partition_epoch == 8 and leader.high_watermark == 15


def test_a_follower_at_the_leaders_end_is_never_out_of_sync():
    leader, log = make(hw=10)
    fetch(leader, 2, 10)
    fetch(leader, 3, 10)
    assert leader.out_of_sync_replicas(NOW + 10 * LAG) == set()


def test_a_slow_follower_that_keeps_reaching_the_previous_end_stays_in_sync():
    leader, log = make(hw=10)
    now = NOW
    fetch(leader, 3, 10, now)
    for _ in range(10):  # each fetch reaches what the leader had at the previous one
        end = log.log_end_offset
        append(leader, log, 5, now)
        now += LAG // 2
        fetch(leader, 2, end + 5, now)
        fetch(leader, 3, end, now)
    assert 3 not in leader.out_of_sync_replicas(now + LAG // 2)


def test_isr_expands_once_caught_up_to_the_hw_and_into_this_epoch():
    leader, log = make(isr=(1, 2), hw=10, leo=10)
    append(leader, log, 5)
    fetch(leader, 2, 15)
    assert leader.high_watermark == 15
    fetch(leader, 3, 12)
    assert isinstance(leader.isr_state, CommittedIsr)  # behind the HW
    fetch(leader, 3, 15)
    st = leader.isr_state
    assert isinstance(st, PendingExpandIsr) and st.adding == 3 and st.maximal == {1, 2, 3}
    (p,) = leader.ready().proposals
    assert p.isr_ids == {1, 2, 3} and dict((m.broker_id, m.broker_epoch) for m in p.new_isr)[3] == 30
    # The pending member already holds the HW back (stricter is safe).
    append(leader, log, 5)
    fetch(leader, 2, 20)
    assert leader.high_watermark == 15


def test_no_expansion_before_the_follower_reaches_this_leader_epoch():
    """Kafka's rule: at or past the HW is not enough; the follower must reach the offset this
    leader epoch started at, or data committed between HW and that offset could be lost."""
    leader, log = make(isr=(1,), replicas=(1, 2), hw=6, leo=10, min_isr=1)
    assert leader.high_watermark == 10  # ISR {1}: its own LEO
    leader2, log2 = make(isr=(1,), replicas=(1, 2), hw=6, leo=10, min_isr=2)
    assert leader2.high_watermark == 6  # under min ISR: the HW stays
    fetch(leader2, 2, 8)
    assert isinstance(leader2.isr_state, CommittedIsr)
    fetch(leader2, 2, 10)
    assert isinstance(leader2.isr_state, PendingExpandIsr)


def test_ineligible_followers_are_not_proposed():
    leader, log = make(isr=(1, 2), hw=10)
    leader.update_alive_brokers({1: 10, 2: 20}, NOW)  # 3 is fenced
    fetch(leader, 3, 10)
    assert isinstance(leader.isr_state, CommittedIsr)


def test_a_fetch_with_an_older_broker_epoch_is_refused():
    leader, _ = make()
    assert fetch(leader, 2, 10, broker_epoch=19).error == ErrorCode.NOT_LEADER_OR_FOLLOWER
    assert fetch(leader, 2, 10, broker_epoch=-1).error == ErrorCode.NONE


def test_fetch_leader_epoch_checks():
    leader, _ = make(epoch=5)
    assert fetch(leader, 2, 10, epoch=4).error == ErrorCode.FENCED_LEADER_EPOCH
    assert fetch(leader, 2, 10, epoch=6).error == ErrorCode.UNKNOWN_LEADER_EPOCH
    # Past the leader's end: without a last fetched epoch (Fetch < v12) out of range; with one,
    # the epoch's end is the divergence.
    assert fetch(leader, 2, 11, last_epoch=-1).error == ErrorCode.OFFSET_OUT_OF_RANGE
    assert fetch(leader, 2, 11).diverging_epoch == EpochEndOffset(5, 10)


def test_fetch_with_a_diverging_last_epoch():
    log = Log(15, 0, LeaderEpochCache().assign(0, 0).assign(3, 10))
    leader, _ = make(log=log, epoch=5)  # epochs (0,0) (3,10) (5,15)
    d = fetch(leader, 2, 12, last_epoch=2)
    assert d.diverging_epoch == EpochEndOffset(0, 10) and d.read_from is None
    assert fetch(leader, 2, 14, last_epoch=4).diverging_epoch == EpochEndOffset(3, 15)
    assert fetch(leader, 2, 16, last_epoch=3).diverging_epoch == EpochEndOffset(3, 15)
    ok = fetch(leader, 2, 13, last_epoch=3)
    assert ok.diverging_epoch is None and ok.read_from == 13
    assert fetch(leader, 2, 13, last_epoch=9).error == ErrorCode.OFFSET_OUT_OF_RANGE  # epoch unknown


def test_acks_all_needs_the_effective_min_isr_before_the_append():
    leader, _ = make(isr=(1,), replicas=(1, 2, 3), min_isr=2)
    assert leader.check_append(-1) == ErrorCode.NOT_ENOUGH_REPLICAS
    assert leader.check_append(1) == ErrorCode.NONE
    # min.insync.replicas above the replication factor counts as the replication factor.
    leader, _ = make(isr=(1, 2), replicas=(1, 2), min_isr=3)
    assert leader.effective_min_isr == 2 and leader.check_append(-1) == ErrorCode.NONE


def test_acks_all_completes_when_the_hw_passes_the_batch():
    leader, log = make(hw=10)
    fetch(leader, 2, 10)
    fetch(leader, 3, 10)
    append(leader, log, 3, request_id=77)  # offsets 10..12
    fetch(leader, 2, 13)
    fetch(leader, 3, 12)
    assert leader.ready().completions == []
    fetch(leader, 3, 13)
    assert leader.ready().completions == [ProduceCompletion(77, ErrorCode.NONE)]


def test_acks_all_waiting_when_the_isr_falls_under_min_times_out():
    """Kafka 4.3 does not move the HW while the ISR is under the effective min ISR, so a
    produce already waiting is not answered NONE; it ends with REQUEST_TIMED_OUT."""
    leader, log = make(hw=10)
    fetch(leader, 2, 10)
    fetch(leader, 3, 10)
    append(leader, log, 1, request_id=5)
    leader.apply_metadata(LeaderAndIsr(1, 5, 8, frozenset({1})), (1, 2, 3), NOW + 1, ALIVE)
    fetch(leader, 2, 11, NOW + 2)
    fetch(leader, 3, 11, NOW + 2)
    assert leader.high_watermark == 10 and leader.ready().completions == []
    leader.tick(NOW + 1000)
    assert leader.ready().completions == [ProduceCompletion(5, ErrorCode.REQUEST_TIMED_OUT)]


def test_resigning_fails_the_waiting_produces():
    leader, log = make()
    append(leader, log, 1, request_id=9)
    assert leader.resign() == [ProduceCompletion(9, ErrorCode.NOT_LEADER_OR_FOLLOWER)]


def test_alter_partition_answers():
    leader, log = make(hw=10)
    fetch(leader, 2, 10)
    leader.tick(NOW + LAG + 1)  # 3 never fetched: out of sync
    (p,) = leader.ready().proposals
    # A stale answer (another proposal id) changes nothing.
    leader.on_alter_partition_answer(p.proposal_id + 1, LeaderAndIsr(1, 5, 8, frozenset({1, 2})), NOW)
    assert isinstance(leader.isr_state, PendingShrinkIsr)
    # INVALID_UPDATE_VERSION: stay pending until the metadata tells.
    leader.on_alter_partition_answer(p.proposal_id, ErrorCode.INVALID_UPDATE_VERSION, NOW)
    assert isinstance(leader.isr_state, PendingShrinkIsr) and leader.ready().proposals == []
    # A retriable error: the same proposal again.
    leader.on_alter_partition_answer(p.proposal_id, ErrorCode.REQUEST_TIMED_OUT, NOW)
    assert leader.ready().proposals == [p]
    # INELIGIBLE_REPLICA: back to the committed ISR.
    leader.on_alter_partition_answer(p.proposal_id, ErrorCode.INELIGIBLE_REPLICA, NOW)
    assert leader.isr_state == CommittedIsr(frozenset({1, 2, 3}))
    # An answer from an older leader epoch is ignored.
    leader.tick(NOW + LAG + 2)
    (p2,) = leader.ready().proposals
    leader.on_alter_partition_answer(p2.proposal_id, LeaderAndIsr(1, 4, 9, frozenset({1, 2})), NOW)
    assert isinstance(leader.isr_state, PendingShrinkIsr)


def test_metadata_at_the_same_epoch_replaces_the_isr_and_keeps_follower_progress():
    leader, log = make(isr=(1, 2), hw=10)
    fetch(leader, 2, 10)
    fetch(leader, 3, 10)
    append(leader, log, 2)
    fetch(leader, 2, 12)
    assert leader.high_watermark == 10  # 3 is caught up and eligible: the HW waits for it
    leader.apply_metadata(LeaderAndIsr(1, 5, 9, frozenset({1, 2, 3})), (1, 2, 3), NOW + 1, ALIVE)
    assert leader.partition_epoch == 9 and leader.followers[2].log_end_offset == 12
    fetch(leader, 3, 12, NOW + 2)
    assert leader.high_watermark == 12


def test_a_newer_partition_epoch_drops_a_pending_expansion_but_not_the_followers_progress():
    """Found by the simulation (seed 2369): a metadata update while an expansion is pending
    must not reset the follower's caught-up time (Kafka resets it only for a new leader
    epoch), or the HW runs past a follower the controller is about to put in the ISR."""
    leader, log = make(isr=(1,), replicas=(1, 2, 3), hw=10, leo=10, min_isr=1)
    fetch(leader, 3, 10)
    (p,) = leader.ready().proposals
    assert isinstance(leader.isr_state, PendingExpandIsr)
    leader.apply_metadata(LeaderAndIsr(1, 5, 7, frozenset({1})), (1, 2, 3), NOW + 1, ALIVE)  # same epoch: nothing
    assert isinstance(leader.isr_state, PendingExpandIsr)
    leader.apply_metadata(LeaderAndIsr(1, 5, 8, frozenset({1})), (1, 2, 3), NOW + 2, ALIVE)
    assert leader.isr_state == CommittedIsr(frozenset({1}))
    append(leader, log, 5, NOW + 3)
    assert leader.high_watermark == 10  # 3 is caught up and eligible: the HW waits for it
    leader.on_alter_partition_answer(p.proposal_id, LeaderAndIsr(1, 5, 9, frozenset({1, 3})), NOW + 4)
    assert leader.isr == {1}  # the answer to a dropped proposal is ignored


def test_single_replica_leaders_share_their_empty_parts_and_still_wait_for_acks():
    """Issue 28 (memory per partition): a broker leads up to 100,000 partitions, most with no
    follower and no waiting produce; their leaders share one ISR state, one empty follower map
    and one empty waiting list (no per-leader instance dict either), and an acks=all produce
    still waits on its own leader's list."""
    a, alog = make(isr=(1,), replicas=(1,), min_isr=1)
    b, _ = make(isr=(1,), replicas=(1,), min_isr=1)
    assert a.isr_state is b.isr_state == CommittedIsr(frozenset({1}))
    assert a.followers is b.followers and not a.followers
    assert a.waiting is b.waiting and not a.waiting
    assert not hasattr(a, "__dict__")
    a.on_append(NOW, 7, 3, timeout_ms=1000)  # an acks=all produce up to offset 3: HW 10 already past it
    assert a.ready().completions == [ProduceCompletion(7, ErrorCode.NONE)] and not b.waiting
    alog.log_end_offset = 20
    a.on_append(NOW, 8, 19, timeout_ms=1000)
    assert a.ready().completions == [ProduceCompletion(8, ErrorCode.NONE)] and a.high_watermark == 20
    c, clog = make(isr=(1, 2), replicas=(1, 2), min_isr=2, hw=10, leo=10)
    append(c, clog, 5, request_id=9)
    assert len(c.waiting) == 1 and not b.waiting and c.ready().completions == []
    fetch(c, 2, 15)
    assert c.ready().completions == [ProduceCompletion(9, ErrorCode.NONE)] and not c.waiting
