"""A cluster broker's line to the active controller, and what goes over it.

ControllerChannel (Kafka's NodeToControllerChannelManager) sends a request to the
Raft leader - answered in-process when that is this node's own controller - and
retries across elections until its deadline. Forwarding (Kafka's ForwardingManager
and AutoTopicCreationManager) relays the admin writes and DescribeQuorum that clients
send to the broker listener, and asks for the topics the broker creates itself
(auto-creation, coordinators' internal topics, streams groups' internal topics) in
the background: they reach this broker with the metadata log, as with Kafka.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Callable

from odradek.api_handlers import broker_config_target
from odradek.api_handlers.incremental_alter_configs import broker_logger
from odradek.api_handlers.context import RequestContext
from odradek.api_handlers.error_responses import BUILDERS
from odradek.broker import envelope
from odradek.broker.controller_api import (
    ADMIN_WRITES, ALTER_CONFIGS, CREATE_TOPICS, DESCRIBE_QUORUM, INCREMENTAL_ALTER_CONFIGS, ControllerApi, delayed,
    not_controller_response, says_not_controller,
)
from odradek.broker.controller_server import WRITE_TIMEOUT_S, ControllerServer
from odradek.broker.raft_driver import PeerChannel
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import create_topics_request as ctq

log = logging.getLogger("odradek.quorum")


async def wait_for_image(controller, pred, timeout_s: float = 5.0) -> bool:
    """Until ``pred(controller.image)`` holds (True) or ``timeout_s`` passed (False)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not pred(controller.image):
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.01)
    return True


# Kafka's ForwardingManager: a client's admin request relayed to the active controller waits for its
# answer up to the broker's request.timeout.ms (30 s by default; its NodeToControllerChannelManager
# retries only a NOT_CONTROLLER or lost connection meanwhile, never a slow answer: an admin write is
# not sent twice), then answers the client REQUEST_TIMED_OUT (getErrorResponse of a TimeoutException)
FORWARD_TIMEOUT_S = 30.0


class ControllerChannel:
    def __init__(self, server: ControllerServer):
        self._server = server
        self._peers = {v: PeerChannel(h, p, f"odradek-{server.node_id}", server.controller_link)
                       for v, (h, p) in server.voters.items()}

    async def call(self, req, version: int, api_key: int, timeout_s: float = 15.0,
                   on_behalf: RequestContext | None = None, attempt_s: float = WRITE_TIMEOUT_S,
                   timed_out: Callable[[], object] | None = None):
        """The active controller's response (a NOT_CONTROLLER one if none answered in time, or
        ``timed_out()``'s). ``on_behalf``: a client's request, sent in an Envelope with its
        principal, client id and address (decided as the client's: its quotas), the inner response
        returned. ``attempt_s``: how long one controller has to answer before the request is sent
        again (to the controller of the moment)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        s = self._server
        while True:
            leader = s.leader_id
            resp = None
            if leader == s.node_id and s.is_controller:
                resp = await s.answer(api_key, version, req, on_behalf)
            elif leader >= 0 and leader in self._peers:
                try:
                    # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a cancellation that
                    # meets a completing wait (see broker/replica_fetcher.py), holding up a shutdown
                    async with asyncio.timeout(max(0.1, min(attempt_s, deadline - loop.time()))):
                        if on_behalf is None:
                            resp = await self._peers[leader].request(req, version)
                        else:
                            sealed = await self._peers[leader].request(envelope.seal(on_behalf, req), 0)
                            resp = envelope.opened(sealed, on_behalf, req)
                except asyncio.TimeoutError:
                    # as Kafka's NetworkClient on a request timeout: the connection is closed (the
                    # controller answers in order: a retry behind the unanswered request would wait too)
                    log.debug("controller %d: no answer in time; reconnecting", leader)
                    self._peers[leader].close()
                except (ConnectionError, OSError) as e:
                    log.debug("controller %d: %s", leader, e)
            if resp is not None and not says_not_controller(resp):
                return resp
            if loop.time() >= deadline:
                if resp is not None:
                    return resp
                return timed_out() if timed_out is not None else not_controller_response(api_key, version, req)
            await asyncio.sleep(0.05)

    def close(self) -> None:
        for p in self._peers.values():
            p.close()


class Forwarding:
    def __init__(self, channel: ControllerChannel, server: ControllerServer):
        self._channel = channel
        self._server = server
        self._controller = server.controller
        self._creating: set[str] = set()  # topics asked of the controller, not yet answered

    def registry(self, base: dict) -> dict:
        """The broker listener's handlers, with the admin writes relayed (DescribeQuorum's
        handler reaches describe_quorum below as the broker's ports.Quorum)."""
        reg = dict(base)
        for key in ADMIN_WRITES:
            mod = base[key]
            reg[key] = ControllerApi(key, mod.MIN_VERSION, mod.MAX_VERSION, self.forward)
        return reg

    def forward(self, ctx, req):
        """A client's admin request: relay it (in an Envelope with the client's principal: the controller
        authorizes each topic or config resource, as Kafka's ControllerApis); a created topic is answered
        once it is visible here."""
        refused: dict = {}
        original = req
        if ctx.api_key in (ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS):  # a broker's configs go to that broker
            req, refused = broker_config_target.split(ctx.api_key, req, self._server.node_id,
                                                      functools.partial(broker_logger, ctx, bool(req.validate_only)))
            if req is None:
                return broker_config_target.merged(ctx.api_key, original, None, refused)

        async def run():
            resp = await self._channel.call(
                req, ctx.api_version, ctx.api_key, on_behalf=ctx, timeout_s=FORWARD_TIMEOUT_S,
                attempt_s=FORWARD_TIMEOUT_S,
                timed_out=lambda: BUILDERS[ctx.api_key](ctx.api_version, req, int(ErrorCode.REQUEST_TIMED_OUT), None))
            if ctx.api_key in (ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS):  # (in the request's order)
                resp = broker_config_target.merged(ctx.api_key, original, resp, refused)
            if ctx.api_key == CREATE_TOPICS and not req.validate_only:
                # (a combined node's own controller answers in process: a large answer's topics encoded)
                made = [t.name for t in resp.plain(ctx.api_version).topics if t.error_code == 0]
                await wait_for_image(self._controller, lambda img: all(n in img.topics for n in made))
            return resp
        return delayed(ctx, asyncio.ensure_future(run()))

    def describe_quorum(self, ctx, req):
        s = self._server
        if s.is_controller and s.active:
            return s.describe_quorum(ctx.now_ms)
        return delayed(ctx, asyncio.ensure_future(self._channel.call(req, ctx.api_version, DESCRIBE_QUORUM)))

    def create_topics(self, specs, now_ms: int) -> list:
        """Topics the broker creates itself (controller.CreateTopicSpec): one CreateTopics to the
        active controller, in the background, once per topic in flight. No results now."""
        fresh = [s for s in specs if s.name not in self._creating]
        if not fresh:
            return []
        names = {s.name for s in fresh}
        self._creating |= names
        topics = [ctq.CreatableTopic(name=s.name, num_partitions=s.num_partitions,
                                     replication_factor=s.replication_factor,
                                     configs=[ctq.CreatableTopicConfig(name=k, value=v) for k, v in s.configs.items()])
                  for s in fresh]
        fut = asyncio.ensure_future(self._channel.call(ctq.CreateTopicsRequest(topics=topics, timeout_ms=30000),
                                                       7, CREATE_TOPICS))

        def done(f):
            self._creating.difference_update(names)
            if not f.cancelled() and f.exception() is not None:
                log.warning("creating topics %s failed: %s", sorted(names), f.exception())
        fut.add_done_callback(done)
        return []
