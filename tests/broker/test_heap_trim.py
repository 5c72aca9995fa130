"""The heap is trimmed once after a storm of connections has closed, or a large creation of
partitions has ended, not on every change."""
from odradek.broker.heap_trim import TRIM_AFTER_CLOSED, TRIM_AFTER_CREATED, TRIM_AGAIN_AFTER, HeapTrim


def _note(t: HeapTrim, open_now: int) -> bool:
    """What the server does every second: the trim when one is due (the free lists renewed before it
    on an event loop); True when trimmed."""
    due = t.connections_due(open_now)
    if due:
        t.trim_after_connections()
    return due


def test_trims_once_when_connections_fall_well_below_their_peak():
    calls = []
    t = HeapTrim(trim=calls.append)
    assert not _note(t, 10)
    assert not _note(t, 2000)
    assert not _note(t, 2000 - TRIM_AFTER_CLOSED + 1)  # a few closed: not worth it
    assert _note(t, 5) and calls == [0]
    assert not _note(t, 5) and not _note(t, 3)  # nothing new since
    assert not _note(t, 400)
    assert _note(t, 400 - TRIM_AFTER_CLOSED) and calls == [0, 0]


def test_does_nothing_without_glibc():
    t = HeapTrim(None)
    assert not _note(t, 1000) and not _note(t, 0)


def test_trims_once_more_when_the_count_stays_down_after_a_trim():
    calls = []
    t = HeapTrim(trim=calls.append)
    _note(t, 3000)
    assert _note(t, 2) and calls == [0] and not t.settled  # (closes may go on: no free lists renewed yet)
    seen = [_note(t, n) for n in (1, 1, 0, 0, 0, 0, 0, 0)]
    assert seen == [False] * (TRIM_AGAIN_AFTER - 1) + [True] + [False] * (8 - TRIM_AGAIN_AFTER)
    assert calls == [0, 0] and t.settled  # one follow-up (the storm over: free lists renewed), then quiet
    _note(t, 600)  # another storm: trimmed after it, and followed up again
    assert _note(t, 0) and [_note(t, 0) for _ in range(TRIM_AGAIN_AFTER)][-1]


def test_trims_once_after_a_large_creation_of_partitions_has_ended():
    calls = []
    t = HeapTrim(trim=calls.append)
    assert not t.partitions(100) and not t.partitions(100)  # a few: not worth it
    counts = [2_000, 4_000, TRIM_AFTER_CREATED + 200]  # a creation under way: no trim yet
    assert [t.partitions(n) for n in counts] == [False] * 3 and calls == []
    assert t.partitions(TRIM_AFTER_CREATED + 200) and calls == [0]  # unchanged since: it ended
    assert not t.partitions(TRIM_AFTER_CREATED + 200) and calls == [0]  # once
    t.partitions(10)  # most deleted: a new creation counts from there
    t.partitions(10 + TRIM_AFTER_CREATED)
    assert t.partitions(10 + TRIM_AFTER_CREATED) and calls == [0, 0]
    assert not HeapTrim(None).partitions(0) and not HeapTrim(None).partitions(0)


def test_renewed_free_lists_hold_the_reserve_made_at_start_up():
    """On uvloop (odradek serve's loop), which keeps freed Handles and TimerHandles for reuse, as asyncio
    keeps future iterators: after a storm the renewal lets the reserve made at start-up fill the free
    lists while the storm's objects go back to pymalloc, then takes the same reserve back (the storm's
    objects, a few per pymalloc pool, kept the pools' arenas; new ones made while they were still
    held took free blocks in the same pools); handles still run, the renewal's never."""
    import asyncio

    import pytest

    from odradek.broker.heap_trim import FUTURE_ITER_FREE_LIST, HANDLE_FREE_LIST, FreeListReserve
    uvloop = pytest.importorskip("uvloop")
    ran = []
    n = 4 * FUTURE_ITER_FREE_LIST

    async def main():
        loop = asyncio.get_running_loop()
        reserve = FreeListReserve(loop)
        at_start = [{id(o) for o in objects} for objects in reserve._held]
        fut = loop.create_future()
        for _ in range(2):
            storm = [loop.call_soon(ran.append, 1) for _ in range(n)]
            storm += [loop.call_later(0.001, ran.append, 2) for _ in range(n)]
            storm += [fut.__await__() for _ in range(n)]
            while ran.count(2) < n:
                await asyncio.sleep(0.001)
            ran.clear()
            storm_ids = {id(o) for o in storm}
            storm.clear()
            for _ in range(3):  # (a timer that ran is let go of once its libuv handle has closed)
                await asyncio.sleep(0)
            # the storm's objects are in the free lists now
            await reserve.renew()
            assert not ran  # the renewal's handles never run
            after = [{id(o) for o in objects} for objects in reserve._held]
            # (a handle the loop made for its own step during the renewal may take one place)
            kept = [len(a & s) for a, s in zip(after, at_start)]
            assert kept[0] >= HANDLE_FREE_LIST - 2 and kept[1] >= HANDLE_FREE_LIST - 2, kept
            assert kept[2] >= FUTURE_ITER_FREE_LIST - 2, kept
            assert sum(len(a & storm_ids) for a in after) <= 2
        later = [loop.call_soon(ran.append, 3) for _ in range(10)] + [loop.call_later(0.001, ran.append, 4)]
        while ran.count(4) < 1:
            await asyncio.sleep(0.001)
        assert ran.count(3) == 10 and len(later) == 11
        reserve.close()
        fut.cancel()

    uvloop.run(main())


def test_shrink_set_keeps_the_object_and_its_members():
    import sys

    from odradek.broker.heap_trim import shrink_set
    s = set(range(10_000))
    grown = sys.getsizeof(s)
    for i in range(10, 10_000):
        s.discard(i)
    assert sys.getsizeof(s) == grown  # (CPython never shrinks it)
    same = s
    shrink_set(s)
    assert same is s and s == set(range(10)) and sys.getsizeof(s) < grown // 100
