"""The leader-epoch cache against Kafka's LeaderEpochFileCache rules, and its checkpoint format."""

import pytest

from odradek.log.leader_epoch_cache import (
    UNDEFINED, CheckpointError, EpochEndOffset, EpochEntry, LeaderEpochCache, decode_checkpoint,
    encode_checkpoint,
)


def cache(*pairs) -> LeaderEpochCache:
    c = LeaderEpochCache()
    for epoch, start in pairs:
        c = c.assign(epoch, start)
    return c


def entries(c: LeaderEpochCache):
    return [(e.epoch, e.start_offset) for e in c.entries]


def test_latest_epoch_ends_at_the_log_end():
    c = cache((0, 0), (2, 6))
    assert c.latest_epoch == 2
    assert c.end_offset_for(2, 11) == EpochEndOffset(2, 11)


def test_older_epoch_ends_where_the_next_starts():
    c = cache((0, 0), (2, 6), (4, 11))
    assert c.end_offset_for(0, 15) == EpochEndOffset(0, 6)
    assert c.end_offset_for(2, 15) == EpochEndOffset(2, 11)


def test_epoch_between_entries_answers_the_floor_epoch():
    c = cache((0, 0), (2, 6), (4, 11))
    assert c.end_offset_for(1, 15) == EpochEndOffset(0, 6)
    assert c.end_offset_for(3, 15) == EpochEndOffset(2, 11)


def test_epoch_before_the_first_answers_itself_and_the_first_start():
    c = cache((3, 5), (4, 9))
    assert c.end_offset_for(1, 12) == EpochEndOffset(1, 5)


def test_unknown_epochs_are_undefined():
    c = cache((0, 0), (2, 6))
    assert c.end_offset_for(5, 10) == UNDEFINED  # newer than every entry
    assert c.end_offset_for(-1, 10) == UNDEFINED
    assert LeaderEpochCache().end_offset_for(0, 10) == UNDEFINED


def test_an_assigned_epoch_keeps_its_first_offset():
    c = cache((2, 6))
    assert entries(c.assign(2, 7)) == [(2, 6)]
    assert entries(c.assign(2, 5)) == [(2, 5)]  # a lower start for the same epoch replaces it


def test_assign_drops_entries_that_break_monotonicity():
    c = cache((0, 0), (2, 6), (4, 11))
    assert entries(c.assign(3, 8)) == [(0, 0), (2, 6), (3, 8)]
    assert entries(c.assign(5, 6)) == [(0, 0), (5, 6)]


def test_truncate_from_end():
    c = cache((0, 0), (2, 6), (4, 11))
    assert entries(c.truncate_from_end(11)) == [(0, 0), (2, 6)]
    assert entries(c.truncate_from_end(7)) == [(0, 0), (2, 6)]
    assert entries(c.truncate_from_end(6)) == [(0, 0)]
    assert entries(c.truncate_from_end(12)) == entries(c)


def test_truncate_from_start_keeps_the_epoch_covering_the_new_start():
    c = cache((2, 6), (3, 8), (4, 11))
    assert entries(c.truncate_from_start(9)) == [(3, 9), (4, 11)]
    assert entries(c.truncate_from_start(8)) == [(3, 8), (4, 11)]
    assert entries(c.truncate_from_start(5)) == entries(c)
    assert entries(c.truncate_from_start(20)) == [(4, 20)]


def test_epoch_for_offset():
    c = cache((2, 6), (4, 11))
    assert [c.epoch_for_offset(o) for o in (5, 6, 10, 11, 99)] == [-1, 2, 2, 4, 4]


def test_checkpoint_bytes_are_kafkas():
    assert encode_checkpoint(cache((0, 0), (3, 10))) == b"0\n2\n0 0\n3 10\n"
    assert encode_checkpoint(LeaderEpochCache()) == b"0\n0\n"


def test_checkpoint_round_trip_and_empty_file():
    c = cache((0, 0), (1, 7), (5, 100))
    assert decode_checkpoint(encode_checkpoint(c)) == c
    assert decode_checkpoint(b"") == LeaderEpochCache()
    assert decode_checkpoint(b"0\r\n1\r\n4  12\r\n").entries == (EpochEntry(4, 12),)


@pytest.mark.parametrize("data", [b"1\n0\n", b"x\n", b"0\n", b"0\n2\n1 0\n", b"0\n1\n1\n", b"0\n1\n1 x\n",
                                  b"0\n1\n1 2 3\n", b"0\n0\n1 2\n"])
def test_bad_checkpoints_are_refused(data):
    with pytest.raises(CheckpointError):
        decode_checkpoint(data)


def test_invalid_entries_are_refused():
    with pytest.raises(ValueError):
        LeaderEpochCache().assign(-1, 0)
