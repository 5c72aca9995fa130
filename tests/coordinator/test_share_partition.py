"""SharePartition (KIP-932): acquisition, acknowledgement, lock expiry, delivery count limit, SPSO."""

from odradek.coordinator.share_partition import (
    ACCEPT, ACKNOWLEDGED, ACQUIRED, ARCHIVED, AVAILABLE, GAP, REJECT, RELEASE, RENEW, SharePartition, ShareSettings)
from odradek.wire.errors import ErrorCode as E

S = ShareSettings(record_lock_duration_ms=1000, delivery_count_limit=3, max_record_locks=100)


def test_acquire_whole_batches_and_move_speo():
    sp = SharePartition(0)
    got = sp.acquire("m1", [(0, 4), (5, 9)], max_records=3, now_ms=0, settings=S)
    assert got == [(0, 4, 1)]  # batch-optimized: the batch is completed past max_records
    assert (sp.start_offset, sp.end_offset) == (0, 5)
    assert sp.acquire("m2", [(5, 9)], 10, 0, S) == [(5, 9, 1)]
    assert sp.state_of(3) == ACQUIRED


def test_record_limit_mode_stops_exactly():
    sp = SharePartition(0)
    assert sp.acquire("m1", [(0, 9)], 3, 0, S, record_limit=True) == [(0, 2, 1)]
    assert sp.fetch_offset() == 3


def test_accept_moves_spso_and_others_cannot_ack():
    sp = SharePartition(0)
    sp.acquire("m1", [(0, 4)], 10, 0, S)
    assert sp.acknowledge("m2", 0, 1, [ACCEPT], 0, S) == E.INVALID_RECORD_STATE
    assert sp.acknowledge("m1", 0, 1, [ACCEPT], 0, S) == E.NONE
    assert sp.start_offset == 0  # the SPSO moves once the acknowledgement is written (as Kafka)
    sp.written()
    assert sp.start_offset == 2
    assert sp.acknowledge("m1", 0, 0, [ACCEPT], 0, S) == E.INVALID_RECORD_STATE  # below SPSO
    # per-offset types; a wrong count of types is an invalid request
    assert sp.acknowledge("m1", 2, 4, [ACCEPT, REJECT], 0, S) == E.INVALID_REQUEST
    assert sp.acknowledge("m1", 2, 4, [ACCEPT, REJECT, GAP], 0, S) == E.NONE
    sp.written()
    assert sp.start_offset == 5 and not sp.records


def test_release_redelivers_with_a_higher_delivery_count_then_archives():
    sp = SharePartition(10)
    for count in (1, 2, 3):
        assert sp.acquire("m1", [(10, 12)], 10, 0, S) == [(10, 12, count)]
        assert sp.acknowledge("m1", 11, 11, [RELEASE], 0, S) == E.NONE
        assert sp.acknowledge("m1", 10, 10, [RELEASE], 0, S) == E.NONE
        sp.acknowledge("m1", 12, 12, [RELEASE], 0, S)
        sp.written()  # (released once written)
    # delivered delivery.count.limit (3) times: archived, the SPSO moves past them once written
    assert sp.start_offset == 13 and sp.acquire("m1", [(10, 12)], 10, 0, S) == []


def test_only_available_records_are_reacquired():
    sp = SharePartition(0)
    sp.acquire("m1", [(0, 4)], 10, 0, S)
    sp.acknowledge("m1", 2, 2, [RELEASE], 0, S)
    assert sp.fetch_offset() == 5  # released once written
    sp.written()
    assert sp.fetch_offset() == 2
    assert sp.acquire("m2", [(0, 4)], 10, 0, S) == [(2, 2, 2)]


def test_lock_expiry_releases_and_renew_extends():
    sp = SharePartition(0)
    sp.acquire("m1", [(0, 1)], 10, now_ms=0, settings=S)
    assert sp.expire_locks(999, S) == 0
    assert sp.acknowledge("m1", 1, 1, [RENEW], 500, S) == E.NONE  # new deadline 1500
    assert sp.expire_locks(1000, S) == 1
    assert sp.state_of(0) == AVAILABLE and sp.state_of(1) == ACQUIRED
    assert sp.expire_locks(1500, S) == 1
    assert sp.acquire("m2", [(0, 1)], 10, 2000, S) == [(0, 1, 2)]


def test_release_member_and_in_flight_limit():
    sp = SharePartition(0)
    small = ShareSettings(1000, 5, max_record_locks=3)
    assert sp.acquire("m1", [(0, 9)], 100, 0, small) == [(0, 2, 1)]
    assert sp.release_member("m1", small) == 3
    assert [sp.state_of(o) for o in range(3)] == [AVAILABLE] * 3


def test_gaps_and_skipped_batches_are_archived():
    sp = SharePartition(0)
    # offsets 0-1 compacted away; batch 5-6 is an aborted transaction under read_committed
    assert sp.acquire("m1", [(2, 4), (5, 6), (7, 7)], 100, 0, S, skip={(5, 6)}) == [(2, 4, 1), (7, 7, 1)]
    sp.written()
    assert sp.state_of(5) == ARCHIVED and sp.start_offset == 2
    sp.acknowledge("m1", 2, 4, [ACCEPT], 0, S)
    sp.written()
    assert sp.start_offset == 7
    sp.acknowledge("m1", 7, 7, [ACCEPT], 0, S)
    sp.written()
    assert sp.start_offset == 8 and sp.state_of(7) == ARCHIVED  # below the SPSO: done


def test_move_start_drops_deleted_records():
    sp = SharePartition(0)
    sp.acquire("m1", [(0, 9)], 100, 0, S)
    sp.move_start(5)
    assert sp.start_offset == 5 and sp.end_offset == 10 and min(sp.records) == 5
    assert sp.acknowledge("m1", 5, 9, [ACCEPT], 0, S) == E.NONE
    sp.written()
    assert sp.state_of(9) != ACKNOWLEDGED


def test_the_write_of_an_acknowledgement_carries_the_start_offset_from_before_it():
    """As Kafka's SharePartition: acknowledged records go out as a done batch at the old SPSO (what
    the share coordinator summarizes as start 0, 4 delivered-complete); the SPSO moves once written."""
    sp = SharePartition(0)
    sp.acquire("m1", [(0, 3), (4, 6)], 100, 0, S)
    sp.written()
    assert not sp.dirty and sp.start_offset == 0
    assert sp.acknowledge("m1", 0, 3, [ACCEPT], 0, S) == E.NONE
    assert sp.dirty and (sp.start_offset, sp.state_batches()) == (0, [(0, 3, ACKNOWLEDGED, 1), (4, 6, AVAILABLE, 1)])
    sp.written()
    assert (sp.start_offset, sp.state_batches()) == (4, [(4, 6, AVAILABLE, 1)])


def test_a_share_partition_started_from_the_reset_offset_is_not_written_until_it_changes():
    sp = SharePartition(7, state_epoch=3, dirty=False)
    assert not sp.dirty and sp.state_epoch == 3
    sp.acquire("m1", [(7, 8)], 100, 0, S)
    assert not sp.dirty  # acquisitions alone are not written
    sp.acknowledge("m1", 7, 7, [REJECT], 0, S)
    assert sp.dirty


def test_an_acknowledgement_commits_once_written_and_rolls_back_when_its_write_fails():
    """Kafka's SharePartition.acknowledge / rollbackOrProcessStateUpdates: the write carries the
    acknowledgement; only its success changes the state."""
    sp = SharePartition(0)
    sp.acquire("m1", [(0, 4)], 10, 0, S)
    assert sp.acknowledge("m1", 0, 2, [ACCEPT], 0, S) == E.NONE
    assert sp.state_of(0) == ACQUIRED and sp.acknowledge("m1", 0, 0, [ACCEPT], 0, S) == E.INVALID_RECORD_STATE
    batches = sp.state_batches()
    assert batches[0] == (0, 2, ACKNOWLEDGED, 1)  # what the write carries
    first = sp.hand_out()
    sp.written()
    assert sp.state_batches()[0] == (0, 2, ACKNOWLEDGED, 1)  # a later write carries it too
    assert sp.release_member("m1", S) == 2 and sp.state_of(0) == ACQUIRED  # 3-4 released, 0-2 under the write
    later = sp.hand_out()
    sp.written()
    assert sp.expire_locks(5000, S) == 0 and not sp.dirty
    sp.settle(first, False, 100, S)
    assert [sp.state_of(o) for o in range(3)] == [ACQUIRED] * 3 and sp.start_offset == 0
    assert sp.dirty  # the later write may have stored it: the state as rolled back is written again
    sp.settle(later, True, 100, S)
    assert sp.state_batches() == [(0, 4, AVAILABLE, 1)]
    # acknowledged again and written
    assert sp.acknowledge("m1", 0, 2, [ACCEPT], 100, S) == E.NONE
    second = sp.hand_out()
    sp.written()
    sp.settle(second, True, 200, S)
    assert sp.start_offset == 3 and not sp.dirty and sp.state_of(3) == AVAILABLE
