"""The periodic flush check (flush.ms, parking idle files) over many used logs goes in steps of
FLUSH_CHECK_STEP logs (LogManager.flush_dirty_steps: the broker's periodic task serves its clients
between them; 10,000 used logs were one piece of 20-70 ms): the same logs flushed as in one piece,
and a log deleted between two steps is left alone (issue 27 fairness)."""
from __future__ import annotations

from odradek.log import LogConfig, LogManager
from odradek.log.log_manager import FLUSH_CHECK_STEP
from odradek.wire.records import build_batch

LOGS = 2 * FLUSH_CHECK_STEP + 10


def _used(tmp_path, name: str) -> LogManager:
    lm = LogManager(str(tmp_path / name), default_config=LogConfig(flush_ms=0))  # (every check flushes)
    for p in range(LOGS):
        lm.get_or_create("t", p, topic_id=b"\x01" * 16).append(build_batch([(None, b"v", (), 1)]), now_ms=1)
    return lm


def test_the_flush_check_goes_in_steps_and_flushes_what_one_piece_does(tmp_path):
    stepped, whole = _used(tmp_path, "stepped"), _used(tmp_path, "whole")
    try:
        steps = stepped.flush_dirty_steps(2)
        taken = 0
        try:
            while True:
                next(steps)
                taken += 1
        except StopIteration as done:
            flushed = done.value
        assert taken == LOGS // FLUSH_CHECK_STEP
        assert flushed == whole.flush_dirty(2) == LOGS
        assert [lg.unflushed_messages for lg in stepped] == [lg.unflushed_messages for lg in whole] == [0] * LOGS
    finally:
        stepped.close()
        whole.close()


def test_a_log_deleted_between_steps_is_left_alone(tmp_path):
    lm = _used(tmp_path, "lm")
    try:
        steps = lm.flush_dirty_steps(2)
        next(steps)  # the first FLUSH_CHECK_STEP logs checked
        gone = lm.get("t", LOGS - 1)
        assert lm.delete("t", LOGS - 1)
        assert sum(1 for _ in steps) == LOGS // FLUSH_CHECK_STEP - 1  # (the steps left)
        assert gone.unflushed_messages == 1  # not flushed after its deletion
        assert all(lg.unflushed_messages == 0 for lg in lm)
    finally:
        lm.close()
