"""An ip client-quota entity is an IP literal or a name that resolves (Kafka's controller:
InetAddress.getByName). The decision is pure: IP literals by `ipaddress`, names through the
resolver the broker injects (broker/host_resolver.py); no lookup happens in controller/."""

from odradek.controller import client_quotas as Q
from odradek.wire.errors import ErrorCode


def alter(host, resolvable=Q.is_ip_literal):
    return Q.alter({}, [([("ip", host)], [("connection_creation_rate", 5.0)])], resolvable)


def test_ip_literals_need_no_resolver():
    for host in ("10.0.0.1", "::1", "fe80::1"):
        records, [(_, code, _)] = alter(host)
        assert code == 0 and len(records) == 1


def test_a_name_is_checked_by_the_injected_resolver():
    asked = []

    def resolver(h):
        asked.append(h)
        return h == "db.internal"

    records, [(_, code, msg)] = alter("db.internal", resolver)
    assert code == 0 and records
    records, [(_, code, msg)] = alter("nowhere.internal", resolver)
    assert (code, msg, records) == (ErrorCode.INVALID_REQUEST, "nowhere.internal is not a valid IP or resolvable host.", [])
    assert asked == ["db.internal", "nowhere.internal"]


def test_without_a_resolver_a_name_is_refused():
    _, [(_, code, msg)] = alter("localhost")
    assert code == ErrorCode.INVALID_REQUEST and msg == "localhost is not a valid IP or resolvable host."


def test_the_brokers_resolver():
    from odradek.broker.host_resolver import host_resolves

    assert host_resolves("127.0.0.1") and host_resolves("localhost")
    assert not host_resolves("no-such-host.invalid")  # .invalid never resolves (RFC 2606)
