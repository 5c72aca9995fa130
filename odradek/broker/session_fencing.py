"""The active controller's fencing of brokers whose sessions expired (broker.session.timeout.ms).

Kafka's controller fences one stale broker at a time from a periodic event of its event queue
(ReplicationControlManager.maybeFenceOneStaleBroker), and a heartbeat's contact time is tracked as
the request comes in, before the event queue (QuorumController.processBrokerHeartbeat): so the
heartbeats that reached the controller before that event count. Here the check and the heartbeats
share one event loop: after a gap in which this process was not scheduled, the check wakes with
the clock moved on while heartbeats that came in meanwhile are still unread in their sockets. So a
broker found stale is judged again at the same moment once the loop has read what was waiting
(DRAIN_S), and fenced only if no heartbeat of it came in by then.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from odradek.controller.broker_heartbeats import BrokerHeartbeats

CHECK_S = 0.5  # how often the active controller looks for expired sessions
DRAIN_S = 0.1  # the loop's time to read the requests that came in before a broker is fenced


class SessionFencer:
    """``unfenced()``: the ids of the unfenced brokers of the image; ``fence(id)``: writes the fence
    (False when this node is no longer the active controller); ``clock_ms()``: the heartbeats' clock."""

    def __init__(self, heartbeats: BrokerHeartbeats, unfenced: Callable[[], list[int]],
                 fence: Callable[[int], Awaitable[bool]], clock_ms: Callable[[], int],
                 drain_s: float = DRAIN_S):
        self.heartbeats = heartbeats
        self.unfenced = unfenced
        self.fence = fence
        self.clock_ms = clock_ms
        self.drain_s = drain_s

    async def fence_expired(self) -> None:
        """Fence the stale brokers, one at a time; each is judged again after the drain at the
        moment it was found stale."""
        while True:
            now = self.clock_ms()
            if self.heartbeats.stale(self.unfenced(), now) is None:
                return
            await asyncio.sleep(self.drain_s)
            stale = self.heartbeats.stale(self.unfenced(), now)
            if stale is not None and not await self.fence(stale):
                return
