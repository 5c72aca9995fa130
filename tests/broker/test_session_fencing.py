"""The active controller fences a broker only if no heartbeat of it came in by the time it looks
(broker/session_fencing.py). After a gap in which the controller's process was not scheduled, its
fence check wakes with the clock moved past a live broker's session while that broker's heartbeat,
sent in time, still waits to be read; Kafka's controller counts such a heartbeat (its contact time
is tracked as the request comes in, before the fence event runs). Here the heartbeat reaches the
heartbeat tracker a few loop iterations after the check wakes, as a request read from a socket does
(read, decode, dispatch), on a fake clock."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from odradek.broker.session_fencing import SessionFencer
from odradek.controller.broker_heartbeats import BrokerHeartbeats

SESSION_MS = 6000
READ_HOPS = 5  # loop iterations from a request's bytes in the socket to its handler


def _scenario(drain_s: float) -> list[int]:
    """Brokers 1 and 2 last heard from at 0; the controller looks at 7000 (its own gap). Broker 1's
    heartbeat came in during the gap and is read READ_HOPS iterations later; broker 2 is silent.
    Returns the brokers fenced."""
    clock = SimpleNamespace(ms=0)
    heartbeats = BrokerHeartbeats(SESSION_MS)
    heartbeats.reset([SimpleNamespace(node_id=1, fenced=False), SimpleNamespace(node_id=2, fenced=False)], 0)
    fenced: list[int] = []

    async def fence(broker_id: int) -> bool:
        fenced.append(broker_id)
        heartbeats.touch(broker_id, clock.ms, -1, True)
        return True

    def unfenced() -> list[int]:
        return [b for b in (1, 2) if b not in fenced]

    def read_heartbeat(hops: int) -> None:
        if hops:
            asyncio.get_running_loop().call_soon(read_heartbeat, hops - 1)
        else:
            heartbeats.contact(1, clock.ms)

    async def main() -> None:
        clock.ms = 7000
        asyncio.get_running_loop().call_soon(read_heartbeat, READ_HOPS)
        await SessionFencer(heartbeats, unfenced, fence, lambda: clock.ms, drain_s=drain_s).fence_expired()

    asyncio.run(main())
    return fenced


@pytest.mark.timeout(30)
def test_a_heartbeat_read_after_the_controllers_gap_keeps_the_session():
    assert _scenario(drain_s=0.05) == [2]  # the silent broker is fenced, the live one is not


@pytest.mark.timeout(30)
def test_without_the_drain_the_live_broker_is_fenced():
    """The scenario does reproduce what the drain prevents: judged at once, broker 1 is fenced too."""
    assert _scenario(drain_s=0) == [1, 2]


def test_contact_counts_only_for_a_known_session_and_never_goes_back():
    hb = BrokerHeartbeats(SESSION_MS)
    hb.contact(9, 100)  # no session (not registered with this controller): nothing kept
    assert hb.stale([9], 10 ** 9) is None
    hb.registered(1, 1000)
    hb.contact(1, 5000)
    hb.contact(1, 4000)
    assert hb.stale([1], 5000 + SESSION_MS) is None
    assert hb.stale([1], 5001 + SESSION_MS) == 1
