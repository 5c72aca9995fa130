"""A consumer group read at the high watermark (group_timeline.py) is the group as it was before its
first uncommitted record batch, built from what changed since (UndoDict) rather than from a copy
of its members and target assignment taken at each write: random writes, batches and high
watermarks against copies taken at each batch."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.coordinator.consumer_group_state import ConsumerGroup, ConsumerMember
from odradek.coordinator.group_model import UndoDict
from odradek.coordinator.group_timeline import GroupTimeline

GID, P = "g", 0
KEYS = st.sampled_from([f"m{i}" for i in range(6)])
ASSIGNORS = st.sampled_from([None, "uniform", "range"])
OPS = st.one_of(
    st.tuples(st.just("join"), KEYS, st.integers(0, 9), ASSIGNORS),
    st.tuples(st.just("leave"), KEYS),
    st.tuples(st.just("target"), KEYS, st.integers(0, 9)),
    st.tuples(st.just("untarget"), KEYS),
    st.tuples(st.just("new_target"), st.dictionaries(KEYS, st.integers(0, 9), max_size=4)),
    st.tuples(st.just("clear")),
    st.tuples(st.just("epoch")),
    st.tuples(st.just("batch")),  # the next write starts a new record batch
    st.tuples(st.just("commit")),  # the high watermark passes every batch written so far
)
# (the high watermark passes a record batch at a time: it is only ever at a batch's start)


def _state(g: ConsumerGroup) -> tuple:
    members = {k: (m.member_epoch, m.server_assignor) for k, m in g.members.items()}
    counts: dict = {}
    for m in g.members.values():
        if m.server_assignor:
            counts[m.server_assignor] = counts.get(m.server_assignor, 0) + 1
    return g.group_epoch, members, dict(g.target), counts


def _seen(g: ConsumerGroup) -> tuple:
    """_state of a view, with the assignor counts it keeps (preferred_assignor)."""
    epoch, members, target, _ = _state(g)
    return epoch, members, target, dict(g.members.assignor_counts)


@settings(max_examples=300, deadline=None)
@given(st.lists(OPS, max_size=40))
def test_a_view_at_the_high_watermark_is_the_group_before_its_first_uncommitted_batch(ops):
    g = ConsumerGroup(GID)
    tl = GroupTimeline()
    offset, batch_start, hw = 0, 0, 0
    starts = [0]
    before: list[tuple[int, tuple]] = []  # (offset of the batch's last write, _state before the batch)
    for op in ops:
        if op[0] == "batch":
            batch_start = offset
            starts.append(offset)
            continue
        if op[0] == "commit":
            hw = batch_start = offset
            starts.append(offset)
            before = [(o, s) for o, s in before if o >= hw]
            assert _seen(tl.view(P, hw, GID, g)) == (before[0][1] if before else _state(g))
            continue
        # a write of one record at ``offset`` in the batch starting at batch_start
        if not before or before[-1][0] < batch_start:
            before.append((offset, _state(g)))
        else:
            before[-1] = (offset, before[-1][1])
        tl.changing(P, GID, offset, batch_start, g)
        offset += 1
        if op[0] == "join":
            g.members[op[1]] = ConsumerMember(op[1], member_epoch=op[2], server_assignor=op[3])
        elif op[0] == "leave":
            g.members.pop(op[1], None)
        elif op[0] == "target":
            g.target[op[1]] = op[2]
        elif op[0] == "untarget":
            g.target.pop(op[1], None)
        elif op[0] == "new_target":
            g.target = dict(op[1])  # (a new target assignment is a plain dict)
        elif op[0] == "clear":
            g.members.clear()
        else:
            g.group_epoch += 1
        assert _seen(tl.view(P, hw, GID, g)) == (before[0][1] if before else _state(g))
    # every high watermark from here to the end, in order (a view forgets the notes below it)
    for h in sorted({h for h in starts if h >= hw} | {offset}):
        pending = [s for o, s in before if o >= h]
        assert _seen(tl.view(P, h, GID, g)) == (pending[0] if pending else _state(g))
    # all committed: the maps keep nothing for a forgotten note
    assert g.members.undo is None
    assert not isinstance(g.target, UndoDict) or g.target.undo is None


def test_a_note_costs_what_changes_not_the_group():
    """A write noting a 10,000-member group keeps only the values it replaces."""
    g = ConsumerGroup(GID)
    for i in range(10_000):
        g.members[f"m{i}"] = ConsumerMember(f"m{i}", member_epoch=1)
        g.target[f"m{i}"] = {b"t": {i}}
    tl = GroupTimeline()
    tl.changing(P, GID, 0, 0, g)
    g.members["m5"] = ConsumerMember("m5", member_epoch=2)
    g.target.pop("m7")
    (_, note), = tl.uncommitted(P, 0)[GID]
    assert len(note.members_undo) == 1 and len(note.target_undo) == 1
    view = tl.view(P, 0, GID, g)
    assert view.members["m5"].member_epoch == 1 and view.target["m7"] == {b"t": {7}}
    assert len(view.members) == len(view.target) == 10_000
    assert tl.view(P, 1, GID, g) is g and g.members.undo is None and g.target.undo is None
