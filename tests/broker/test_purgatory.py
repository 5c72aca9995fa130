"""Purgatory: completion by poke or by deadline, exactly once."""

from odradek.api_handlers.context import Delayed
from odradek.broker.purgatory import Purgatory


class FakeTimers:
    def __init__(self):
        self.now = 1000
        self.timers = []

    def clock(self):
        return self.now

    def schedule(self, delay_s, fn):
        t = [self.now + delay_s * 1000, fn, False]
        self.timers.append(t)

        class H:
            def cancel(self_inner):
                t[2] = True
        return H()

    def advance(self, ms):
        self.now += ms
        for t in list(self.timers):
            if not t[2] and t[0] <= self.now:
                t[2] = True
                t[1]()


def make(ready, watch=("k",), deadline=1500):
    return Delayed(try_complete=lambda now: "done" if ready[0] else None,
                   on_expire=lambda now: "expired", deadline_ms=deadline, watch=list(watch))


def test_poke_completes_once():
    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    ready = [False]
    out = []
    p.add(make(ready), out.append)
    assert p.poke("k") == 0 and out == []
    ready[0] = True
    assert p.poke("other") == 0
    assert p.poke("k") == 1 and out == ["done"]
    ft.advance(1000)
    assert out == ["done"] and len(p) == 0


def test_deadline_expires():
    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    out = []
    p.add(make([False], watch=("a", "b")), out.append)
    ft.advance(499)
    assert out == []
    ft.advance(1)
    assert out == ["expired"] and len(p) == 0
    assert p.poke("a") == 0


def test_cancel_and_failing_operation():
    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    out = []
    op = p.add(make([True]), out.append)
    p.cancel(op)
    assert p.poke("k") == 0 and out == []

    def boom(now):
        raise ValueError("x")
    p.add(Delayed(try_complete=boom, on_expire=lambda n: None, deadline_ms=5000, watch=["k"]), out.append)
    assert p.poke("k") == 1 and isinstance(out[0], ValueError)


def test_cancel_drops_the_timer():
    """A cancelled operation (its connection closed) gives up its deadline timer at once, which would
    otherwise keep it and what it holds until the deadline; it never completes."""
    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    out = []
    op = p.add(make([False], deadline=300000), out.append)
    assert not ft.timers[0][2]
    p.cancel(op)
    assert ft.timers[0][2]  # cancelled
    ft.advance(300000)
    assert out == [] and len(p) == 0
