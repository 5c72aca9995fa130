"""A broker's heartbeats across a controller failover: a newly active controller gives every
broker one fresh session (broker.session.timeout.ms) and fences the ones it does not hear from
in it. A heartbeat that went to the deposed controller, stalled and never answering, must be
given up in time for the next one to reach the new controller inside that session: Kafka's
heartbeat channel times a request out after half a session (KAFKA-14392). Before, odradek
waited 5 s for it, longer than the 3 s session of the cluster tests: under load a live broker
was fenced after a controller election, its coordinators left the metadata, and clients lost
them (compat_tests/test_cluster_eos_leader_failover.py)."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from odradek.broker.broker_lifecycle import BrokerLifecycle
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import broker_heartbeat_response as bhr

SESSION_MS, INTERVAL_MS = 3000, 500


class _Done(BaseException):
    """Ends the heartbeat loop (which logs and goes on after any Exception)."""


class FailoverChannel:
    """The controller channel through a failover: the first heartbeat goes to the deposed
    controller, which never answers (the call ends with NOT_CONTROLLER once its timeout ran out;
    that time is counted, not slept); the next one reaches the new controller. ``timeouts_s``:
    the timeout each heartbeat was sent with."""

    def __init__(self):
        self.timeouts_s: list[float] = []

    async def call(self, req, version, api_key, timeout_s=None):
        self.timeouts_s.append(timeout_s)
        if len(self.timeouts_s) == 1:
            return bhr.BrokerHeartbeatResponse(error_code=ErrorCode.NOT_CONTROLLER)
        raise _Done()


@pytest.mark.timeout(30)
@pytest.mark.parametrize("session_ms", [SESSION_MS, 9000])
def test_a_heartbeat_stuck_at_a_deposed_controller_leaves_time_for_the_new_one(session_ms):
    me = SimpleNamespace(fenced=False)
    image = SimpleNamespace(offset=100, brokers={4: me})
    config = SimpleNamespace(broker_heartbeat_interval_ms=INTERVAL_MS, broker_session_timeout_ms=session_ms)
    server = SimpleNamespace(controller=SimpleNamespace(image=image), node_id=4, cluster_id="cid", config=config)
    channel = FailoverChannel()
    lifecycle = BrokerLifecycle(server, channel, [bytes(16)])
    lifecycle.broker_epoch = 7
    with pytest.raises(_Done):
        asyncio.run(lifecycle._heartbeats())
    stuck_s, _ = channel.timeouts_s
    # the new controller's session for this broker began at the latest when the stuck heartbeat
    # was sent; the next heartbeat goes out after the stuck one's timeout and one interval
    assert stuck_s * 1000 + INTERVAL_MS < session_ms
    assert stuck_s * 1000 == session_ms / 2  # Kafka's brokerSessionTimeoutMs / 2
