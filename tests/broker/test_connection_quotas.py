"""The connection limits' counting core (broker/connection_limits.ConnectionQuotas) reconfigured at
run time, as Kafka's SocketServer.reconfigure changes ConnectionQuotas: new limits hold for the
connections to come, the counted ones stay (a lowered max.connections reports its excess for the
broker to close), a raised max.connections lets the waiting ones in."""

from __future__ import annotations

from odradek.broker.connection_limits import ConnectionQuotas, ListenerQuota, resolve_overrides

UNBOUNDED = 2147483647


class Waiter:
    def __init__(self, quotas: ConnectionQuotas):
        self.quotas = quotas
        self.admitted = None

    def connection_slot_free(self) -> None:
        self.admitted = self.quotas.admit("10.0.0.9", 0)


def test_per_ip_lowered_refuses_new_connections_and_keeps_the_counted_ones():
    q = ConnectionQuotas(UNBOUNDED, UNBOUNDED, (), UNBOUNDED)
    assert [q.admit("10.0.0.1", 0) for _ in range(3)] == [0, 0, 0]
    q.reconfigure(UNBOUNDED, 2, {}, UNBOUNDED)
    assert q.admit("10.0.0.1", 0) is None and q.admit("10.0.0.2", 0) == 0
    assert q.by_ip == {"10.0.0.1": 3, "10.0.0.2": 1} and q.excess() == 0
    q.release("10.0.0.1")
    q.release("10.0.0.1")
    assert q.admit("10.0.0.1", 0) == 0  # 1 there, the limit 2
    q.reconfigure(UNBOUNDED, 2, resolve_overrides((("10.0.0.2", 5),)), UNBOUNDED)
    assert q.admit("10.0.0.1", 0) is None and [q.admit("10.0.0.2", 0) for _ in range(4)] == [0, 0, 0, 0]


def test_max_connections_lowered_reports_excess_and_raised_admits_waiting():
    q = ConnectionQuotas(UNBOUNDED, UNBOUNDED, (), UNBOUNDED)
    for i in range(5):
        q.admit(f"10.0.0.{i}", 0)
    q.reconfigure(3, UNBOUNDED, {}, UNBOUNDED)
    assert q.excess() == 2 and q.must_wait()
    q.release("10.0.0.0")
    q.release("10.0.0.1")
    assert q.excess() == 0 and q.must_wait()  # at the limit
    w = Waiter(q)
    q.wait(w)
    q.reconfigure(4, UNBOUNDED, {}, UNBOUNDED)
    assert w.admitted == 0 and q.total == 4 and q.must_wait()


def test_creation_rate_set_at_run_time_throttles_the_next_connections():
    q = ConnectionQuotas(UNBOUNDED, UNBOUNDED, (), UNBOUNDED)
    assert [q.admit("10.0.0.1", 1000) for _ in range(3)] == [0, 0, 0]
    q.reconfigure(UNBOUNDED, UNBOUNDED, {}, 2)
    # 3 accepted at 1000 ms: the 4th is served when the one 2 places earlier is a second old
    assert q.admit("10.0.0.1", 1000) == 1000
    q.reconfigure(UNBOUNDED, UNBOUNDED, {}, UNBOUNDED)
    assert q.admit("10.0.0.1", 1000) == 0


class ListenerWaiter:
    def __init__(self, quotas: ConnectionQuotas, listener: str):
        self.quotas, self.listener, self.admitted = quotas, listener, None

    def connection_slot_free(self) -> None:
        self.admitted = self.quotas.admit("10.0.0.9", 0, self.listener)


def _two_listeners(max_connections: int = UNBOUNDED, internal: ListenerQuota | None = None) -> ConnectionQuotas:
    return ConnectionQuotas(max_connections, UNBOUNDED, (), UNBOUNDED, listeners={
        "PLAINTEXT": ListenerQuota(), "INTERNAL": internal or ListenerQuota()}, inter_broker_listener="INTERNAL")


def test_the_inter_broker_listener_is_protected_from_max_connections():
    """Kafka's ConnectionQuotas.protectedListener: with more than one listener, the inter-broker
    listener's connections are let in over max.connections, and are not the ones closed."""
    q = _two_listeners(2, ListenerQuota(max_connections=10))
    assert [q.admit("10.0.0.1", 0, "PLAINTEXT") for _ in range(2)] == [0, 0]
    assert q.must_wait("PLAINTEXT") and not q.must_wait("INTERNAL")
    assert [q.admit("10.0.0.2", 0, "INTERNAL") for _ in range(3)] == [0, 0, 0]
    assert q.total == 5 and q.excess() == 3 and q.protected("INTERNAL") and not q.protected("PLAINTEXT")
    w = ListenerWaiter(q, "PLAINTEXT")
    q.wait(w, "PLAINTEXT")
    assert not q.must_wait("INTERNAL")  # (not behind the other listener's waiting connection)
    for _ in range(3):
        q.release("10.0.0.2", "INTERNAL")
    assert w.admitted is None  # 2 there still: the limit
    q.release("10.0.0.1", "PLAINTEXT")
    assert w.admitted == 0 and q.listeners["PLAINTEXT"].count == 2


def test_a_listener_without_its_own_limits_takes_the_broker_wide_ones():
    """Kafka configures a ListenerConnectionQuota with the listener's values over the broker's: the
    protected listener too is held at max.connections of its own connections."""
    q = _two_listeners(2)
    assert [q.admit("10.0.0.1", 0, "INTERNAL") for _ in range(2)] == [0, 0]
    assert q.must_wait("INTERNAL") and q.must_wait("PLAINTEXT")
    q.reconfigure_listener("INTERNAL", 3, None)
    assert not q.must_wait("INTERNAL")


def test_one_listener_is_not_protected():
    q = ConnectionQuotas(1, UNBOUNDED, (), UNBOUNDED, listeners={"INTERNAL": ListenerQuota()},
                         inter_broker_listener="INTERNAL")
    assert q.admit("10.0.0.1", 0, "INTERNAL") == 0
    assert q.must_wait("INTERNAL") and not q.protected("INTERNAL")


def test_a_listeners_own_max_connections_and_creation_rate():
    """listener.name.<l>.max.connections: its connections wait for one of them to close;
    listener.name.<l>.max.connection.creation.rate throttles them (the protected listener's only by
    its own rate, the others by the broker-wide one too)."""
    q = _two_listeners(internal=ListenerQuota(max_connections=1))
    assert q.admit("10.0.0.1", 0, "INTERNAL") == 0
    assert q.must_wait("INTERNAL") and not q.must_wait("PLAINTEXT")
    w = ListenerWaiter(q, "INTERNAL")
    q.wait(w, "INTERNAL")
    q.reconfigure_listener("INTERNAL", 2, UNBOUNDED)
    assert w.admitted == 0
    q = _two_listeners(internal=ListenerQuota(creation_rate=1))
    q.reconfigure(UNBOUNDED, UNBOUNDED, {}, 1)
    assert [q.admit("10.0.0.1", 1000, "INTERNAL") for _ in range(2)] == [0, 1000]  # its own rate only
    assert [q.admit("10.0.0.1", 1000, "PLAINTEXT") for _ in range(2)] == [0, 1000]  # the broker-wide one
