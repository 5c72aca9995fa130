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


def test_one_timer_for_many_operations_expiring_in_deadline_order():
    """The deadlines share one loop timer (a timer per operation costs ~700 bytes: 7 MB for a
    10,000-member group's parked joins), set for the earliest; each operation expires at its own."""
    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    out = []
    for deadline, name in ((3000, "c"), (1500, "a"), (2000, "b"), (2000, "b2")):
        p.add(Delayed(try_complete=lambda now: None, on_expire=lambda now, n=name: n, deadline_ms=deadline,
                      watch=["k"]), out.append)
    assert len([t for t in ft.timers if not t[2]]) == 1 and len(p) == 4
    ft.advance(500)
    assert out == ["a"]
    ft.advance(500)
    assert out == ["a", "b", "b2"]
    ft.advance(1000)
    assert out == ["a", "b", "b2", "c"] and len(p) == 0
    assert not [t for t in ft.timers if not t[2]]  # nothing waits: no timer


def test_a_timer_firing_before_the_clock_moved_expires_what_it_was_set_for():
    """A virtual clock does not move with the loop's time: the timer's own deadline has come."""
    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    out = []
    p.add(make([False], deadline=1500), out.append)
    ft.timers[0][1]()  # fires, the clock still at 1000
    assert out == ["expired"]


class _Held:
    pass


def test_a_done_operation_lets_go_of_what_it_held_and_stale_deadlines_go():
    import gc
    import weakref

    ft = FakeTimers()
    p = Purgatory(ft.clock, ft.schedule)
    out = []
    refs = []
    for i in range(1000):
        held = _Held()
        refs.append(weakref.ref(held))
        p.add(Delayed(try_complete=lambda now, h=held: "done", on_expire=lambda now: "expired",
                      deadline_ms=300000, watch=["k"]), out.append)
    del held
    p.add(make([False], watch=("other",), deadline=600000), out.append)  # one still waits
    assert p.poke("k") == 1000 and len(p) == 1
    gc.collect()
    assert not [r for r in refs if r() is not None]  # answered: nothing of theirs is kept till the deadline
    assert len(p._deadlines) <= 1 + 256  # the answered ones' heap entries went (rebuilt)
