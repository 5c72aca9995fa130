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
