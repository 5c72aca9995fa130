"""A committed large batch applied a part at a time on a Raft quorum node (issue 27):
Controller.apply_batch_steps decodes and replays REPLAY_STEP records a part, publishes nothing
before its end, and then publishes one image, the image apply_batch makes of the same batches
(the same snapshot bytes, the same listener calls)."""
import os
import random

from odradek.controller.controller import REPLAY_STEP, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.controller.snapshot import encode_snapshot
from odradek.raft.file_storage import FileStorage
from odradek.raft.local_log import DIR_NAME


def _batches(tmp_path):
    """The data batches of a single voter's metadata log after a 700-topic create (2,100 records)
    and a few small writes: [(base offset, encoded records)]."""
    c = Controller(str(tmp_path / "single"), 1, {}, 0, rng=random.Random(5))
    c.start(BrokerImage(1, "localhost", 9092), 0)
    try:
        assert all(r.error_code == 0 for r in c.create_topics([CreateTopicSpec(f"t{i}", 2, 1) for i in range(700)], False, 0))
        assert all(r.error_code == 0 for r in c.create_topics([CreateTopicSpec("small", 3, 1)], False, 0))
        c.delete_topics(["t5"], now_ms=0)
    finally:
        c.close()
    state = FileStorage(os.path.join(str(tmp_path / "single"), DIR_NAME)).load()  # (the log read back)
    return [(b.base_offset, list(b.records)) for b in state.batches if not b.control]


def _observer(tmp_path, name):
    c = Controller(str(tmp_path / name), 2, {}, 0, quorum=True)
    told = []
    c.add_listener(lambda old, new: told.append((new.offset, sorted(new.changes.topics) if new.changes else None)))
    return c, told


def test_a_large_batch_replayed_in_parts_publishes_the_image_of_the_one_piece_apply(tmp_path):
    batches = _batches(tmp_path)
    large = [b for b in batches if len(b[1]) > REPLAY_STEP]
    assert len(large) == 1 and len(large[0][1]) == 2100
    whole, told_whole = _observer(tmp_path, "whole")
    parts, told_parts = _observer(tmp_path, "parts")
    for base, values in batches:
        whole.apply_batch(base, values)
        if len(values) <= REPLAY_STEP:
            parts.apply_batch(base, values)
            continue
        before, n = parts.image, len(told_parts)
        steps = parts.apply_batch_steps(base, values)
        yields = 0
        for _ in steps:
            yields += 1
            assert parts.image is before and len(told_parts) == n  # nothing of it seen before its end
        assert yields == 2100 // REPLAY_STEP and len(told_parts) == n + 1
    assert told_parts == told_whole
    end = batches[-1][0] + len(batches[-1][1])
    assert encode_snapshot(parts.image, end, 1) == encode_snapshot(whole.image, end, 1)
    assert "t699" in parts.image.topics and "t5" not in parts.image.topics


def test_a_batch_replayed_in_parts_keeps_a_controller_id_set_meanwhile(tmp_path):
    base, values = next(b for b in _batches(tmp_path) if len(b[1]) > REPLAY_STEP)
    c, _ = _observer(tmp_path, "obs")
    steps = c.apply_batch_steps(base, values)
    next(steps)
    c.set_controller_id(3)  # (the Raft driver's on_change between two parts)
    for _ in steps:
        pass
    assert c.image.controller_id == 3 and len(c.image.topics) == 700
