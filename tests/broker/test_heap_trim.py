"""The heap is trimmed once after a storm of connections has closed, not on every change."""
from odradek.broker.heap_trim import TRIM_AFTER_CLOSED, HeapTrim


def test_trims_once_when_connections_fall_well_below_their_peak():
    calls = []
    t = HeapTrim(trim=calls.append)
    assert not t.connections(10)
    assert not t.connections(2000)
    assert not t.connections(2000 - TRIM_AFTER_CLOSED + 1)  # a few closed: not worth it
    assert t.connections(5) and calls == [0]
    assert not t.connections(5) and not t.connections(3)  # nothing new since
    assert not t.connections(400)
    assert t.connections(400 - TRIM_AFTER_CLOSED) and calls == [0, 0]


def test_does_nothing_without_glibc():
    t = HeapTrim(None)
    assert not t.connections(1000) and not t.connections(0)
