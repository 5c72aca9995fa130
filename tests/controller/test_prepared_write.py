"""A large decision's write made a part at a time (issue 27): its batch encoded and framed in steps
(raft.codec.Prepared, records.encoded_steps) and, on a single voter, its records replayed into the
delta in steps too; still one batch, the same bytes, the same image as a write made in one piece."""
import os
import random

from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.controller.records import encode_record, encoded_steps
from odradek.controller.steps import whole
from odradek.raft import codec
from odradek.wire.messages.topic_record import TopicRecord


def test_a_batch_prepared_in_parts_is_the_batch_made_whole():
    records = [TopicRecord(name=f"topic-{i}" * (i % 7 + 1), topic_id=os.urandom(16)) for i in range(1234)]
    for ts in (0, 1_764_284_000_123):
        made = codec.data_batch(4242, 7, [encode_record(r) for r in records], ts)
        prepared = whole(encoded_steps(records, ts, step=100))
        assert codec.prepared_batch(4242, 7, prepared).raw == made.raw
        assert codec.prepared_batch(4242, 7, prepared).records == made.records


def _controller(d):
    c = Controller(str(d), 1, {}, 0, rng=random.Random(5))
    c.start(BrokerImage(1, "localhost", 9092), 0)
    return c


def _topics(image):
    return {n: (t.topic_id, dict(t.partitions)) for n, t in image.topics.items()}


def test_a_large_create_written_in_steps_is_one_batch_and_replays_the_same(tmp_path):
    c = _controller(tmp_path)
    try:
        steps = c.create_topics_steps([CreateTopicSpec(f"t{i}", 2, 1) for i in range(700)], 1)  # 2,100 records
        with c.deferring() as scope:
            parts = 0
            try:
                while True:
                    next(steps)
                    parts += 1
            except StopIteration as done:
                results = done.value
        assert parts > 5 and all(r.error_code == 0 for r in results)
        assert "t0" not in c.image.topics  # written, not applied before its fsync
        end = c.raft_node.log.end_offset
        c.settle(scope)
        assert len([n for n in c.image.topics if n.startswith("t")]) == 700
        assert c.image.offset == end - 1  # the batch's last offset
        applied = _topics(c.image)
    finally:
        c.close()
    c = _controller(tmp_path)  # the log read back: one batch with all of them, the same image
    try:
        assert _topics(c.image) == applied
        assert any(b.next_offset - b.base_offset == 2100 for b in c.raft_node.log.batches if not b.control)
    finally:
        c.close()


def test_a_decision_made_again_smaller_writes_its_own_records_not_the_first_batch(tmp_path):
    """A large decision (encoded ahead) that another write overtakes is made again; if the new one
    is small (not encoded ahead), its own records are written - not the first decision's batch."""
    c = _controller(tmp_path)
    try:
        steps = c.create_topics_steps([CreateTopicSpec(f"t{i}", 2, 1) for i in range(700)], 1)  # 2,100 records
        for _ in range(8):  # into the first decision's encoding
            next(steps)
        others = c.create_topics([CreateTopicSpec(f"t{i}", 1, 1) for i in range(600)], False, 1)
        assert all(r.error_code == 0 for r in others)
        try:
            while True:
                next(steps)
        except StopIteration as done:
            results = done.value
        assert sum(r.error_code == 0 for r in results) == 100  # made again: t600..t699 only
        c.settle_any() if hasattr(c, "settle_any") else None
        applied = _topics(c.image)
        assert len([n for n in applied if n.startswith("t")]) == 700
    finally:
        c.close()
    c = _controller(tmp_path)  # the log read back gives the same topics (one TopicRecord each)
    try:
        assert _topics(c.image) == applied
    finally:
        c.close()
