"""OldHeap (broker/old_heap.py): the survivors of a full garbage collection are frozen, so the next
full collections walk only what was made since; cyclic garbage that involves a frozen object is
freed by a thorough collection (and only by it), refcounting frees a frozen object as before."""

from __future__ import annotations

import gc
import weakref

import pytest

from odradek.broker.old_heap import OldHeap


class Node:
    def __init__(self):
        self.other = None


@pytest.fixture
def old_heap():
    heap = OldHeap()
    heap.install()
    yield heap
    heap.uninstall()
    gc.unfreeze()  # (the test process's objects back in the generations)


def test_a_full_collection_freezes_its_survivors_and_only_a_thorough_one_finds_garbage_among_them(old_heap):
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle, alive while the test holds it
    alone = Node()
    gone_cycle, gone_alone = weakref.ref(a), weakref.ref(alone)
    frozen_before = gc.get_freeze_count()
    gc.collect()
    assert old_heap.frozen == 1
    assert gc.get_freeze_count() > frozen_before
    del alone  # refcounting frees a frozen object at once
    assert gone_alone() is None
    del a, b  # now cyclic garbage, among frozen objects
    gc.collect()  # a full collection walks only what is not frozen
    assert gone_cycle() is not None
    assert old_heap.thorough() >= 2  # the two nodes (and their attribute dicts)
    assert gone_cycle() is None
    assert gc.get_freeze_count() > 0  # the survivors frozen again


def test_garbage_made_since_the_last_freeze_is_found_by_an_ordinary_full_collection(old_heap):
    gc.collect()
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None


def test_full_collections_come_after_every_few_middle_ones_each_walking_little(old_heap):
    """With the survivors frozen, CPython's own rule let a full collection come after every eleventh
    middle one, walking all those kept (a large request's objects: 12-29 ms in one piece); installed,
    one comes after every FULL_AFTER + 1, walking a few thousand objects each."""
    from odradek.broker.old_heap import FULL_AFTER

    assert gc.get_threshold()[2] == FULL_AFTER
    # (the process's heap frozen, then a full collection of what is left: CPython counts the growth
    # that lets a full collection come from the last one's survivors - after other tests unfroze
    # theirs, a first one here counted the whole process and held the next ones back)
    gc.collect()
    gc.collect()
    before = [s["collections"] for s in gc.get_stats()]
    kept = [[i] for i in range(300_000)]  # (a large request's decoded entries, alive until answered)
    middle, full = [s["collections"] - b for s, b in zip(gc.get_stats(), before)][1:]
    assert middle >= 20
    assert full >= middle // (FULL_AFTER + 1) - 1
    assert len(kept) == 300_000


def test_uninstall_gives_back_the_thresholds():
    thresholds = gc.get_threshold()
    heap = OldHeap()
    heap.install()
    heap.uninstall()
    assert gc.get_threshold() == thresholds



def test_a_thorough_collection_is_due_once_the_frozen_heap_grew_by_a_quarter():
    """Not on a clock: a heap that does not grow is not walked whole again; frozen garbage counts
    towards the growth until found, so it stays under a quarter of the heap."""
    heap = OldHeap(min_growth=1000)
    heap.install()
    try:
        heap.thorough()
        assert not heap.thorough_due()
        floor = gc.get_freeze_count()
        little = [[i] for i in range(floor // 8)]
        gc.collect()
        assert not heap.thorough_due()  # an eighth
        grown = [Node() for _ in range(floor // 4 + 2000)]
        for a, b in zip(grown[::2], grown[1::2]):
            a.other, b.other = b, a  # cycles
        gc.collect()  # (frozen with the survivors)
        assert heap.thorough_due()
        del grown, a, b  # now frozen cyclic garbage: still counted, still due
        assert heap.thorough_due()
        assert heap.thorough() >= floor // 4
        assert not heap.thorough_due()
        assert len(little) == floor // 8
    finally:
        heap.uninstall()
        gc.unfreeze()
