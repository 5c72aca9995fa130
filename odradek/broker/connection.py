"""One client connection: frames in, requests handled strictly in order, responses out.

Reading runs ahead (pipelined requests are queued, reading pauses when the queue is
long); handling is sequential, so responses leave in request order as Kafka
guarantees. A frame that is too large or cannot be decoded closes this connection
only; a handler that raises is answered with the API's error response (as Kafka's
getErrorResponse) and the connection stays open. Fetch record data goes out with os.sendfile straight from the segment files
while the socket accepts it, and is copied only for what the kernel did not take.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import select
import time
from collections import deque
from typing import TYPE_CHECKING

from odradek.api_handlers import authorization
from odradek.api_handlers.common import CLOSE_CONNECTION
from odradek.api_handlers.context import Delayed, RequestContext, Stepped
from odradek.api_handlers.error_responses import BUILDERS, error_response
from odradek.broker.connection_limits import ConnectionLimits, close_excess
from odradek.broker.coordinator_acks import hold
from odradek.broker.controller_api import carried_out
from odradek.broker.coordinator_events import NextStep
from odradek.broker.host_resolver import host_resolves
from odradek.broker.sasl_gate import GateAnswer, gate, token_frame
from odradek.broker.socket_buffers import set_socket_buffers
from odradek.security.quotas import FETCH as FETCH_RATE
from odradek.security.quotas import PRODUCE as PRODUCE_RATE
from odradek.broker.stats import is_follower_fetch, observe_request
from odradek.coordinator.errors import CoordinatorError
from odradek.wire.api import (RequestDecodeError, decode_request, decode_request_steps, encode_response_parts,
                              encode_response_steps)
from odradek.wire.exceptions import FrameTooLargeError, UnsupportedVersionError, WireError
from odradek.wire.frames import FrameBuffer

if TYPE_CHECKING:
    from odradek.broker.listeners import ServedListener

log = logging.getLogger("odradek.broker.connection")

PRODUCE = 0
FETCH = 1
# Kafka's cluster actions (ApiKeys' clusterAction) and SASL: never under the request quota (their
# responses have no throttle time); every other request's handling time is (request_percentage)
QUOTA_EXEMPT = frozenset((4, 5, 6, 7, 17, 27, 36, 52, 53, 54, 55, 56, 57, 58, 62, 63, 67, 83, 84, 85, 86, 87))
# their handlers put the controller mutation quota's throttle in the response (controller_mutation_rate)
MUTATING = frozenset((19, 20, 37))
API_VERSIONS = 18
SASL_HANDSHAKE = 17
# run as the group coordinator's events (broker/coordinator_events.py): queued and taken a slice at a
# time, their appends written together, as Kafka's CoordinatorRuntime; other requests never wait behind them
# OffsetCommit, TxnOffsetCommit, ConsumerGroupHeartbeat, StreamsGroupHeartbeat
COORDINATOR_EVENTS = frozenset((8, 28, 68, 88))
MIN_REAUTH_INTERVAL_MS = 1000  # Kafka's KafkaChannel.MIN_REAUTH_INTERVAL_ONE_SECOND_NANOS
ANONYMOUS = "User:ANONYMOUS"
MAX_QUEUED_FRAMES = 32
_BYTES_TYPES = (bytes, bytearray, memoryview)
# a request frame this large (not Produce) is decoded in steps (16 KiB of entries, a few ms: the
# generated decoders of requests that carry thousands of entries, wire.api.decode_request_steps),
# other clients served between them
STEPPED_DECODE_BYTES = 32 * 1024
# A connection's pipelined requests are served one after another for at most this long (s); then
# the others' ready requests go first (Kafka serves a connection's next request only after the
# previous one's response: one client's backlog never holds the broker)
SERVE_SLICE_S = 0.002
# Records up to this size are read and written with the rest of the response in one
# write (one syscall, one TCP segment: what a consumer at the log end waits for);
# larger ones go with sendfile after the bytes before them.
INLINE_RECORDS_BYTES = 32 * 1024
# the small records read into a response (one pread each, a few us) between turns of the event loop: a
# fetch response over 10,000 partitions is read in steps, other clients served between them
INLINE_READS_PER_STEP = 500
# what of a fetch response is copied when the socket is full: the transport writes it
# when the socket can take bytes again, and sendfile goes on after it
SEND_CHUNK_BYTES = 16 * 1024
_seq = 0


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class _CoordinatorEvent:
    """A request as a coordinator event (KafkaConnection._as_coordinator_event): called in the
    coordinator's slice, a large one a step a call; ``spent``: its handling time so far. An object,
    not a closure that names itself for its next step: that closure was a reference cycle holding the
    whole request (~100,000 objects of a 100,000-partition OffsetCommit), which the broker's frozen
    old heap kept until a thorough collection once a full collection had frozen it in flight
    (broker/old_heap.py)."""

    __slots__ = ("conn", "mod", "ctx", "header", "body", "pending", "writes", "spent")

    def __init__(self, conn: KafkaConnection, mod, ctx: RequestContext, header, body, pending, writes: list):
        self.conn, self.mod, self.ctx, self.header, self.body = conn, mod, ctx, header, body
        self.pending, self.writes, self.spent = pending, writes, 0.0

    def __call__(self, stepped: Stepped | None = None):
        t = time.perf_counter()
        conn = self.conn
        self.ctx.now_ms = conn.broker.clock_ms()  # (when the coordinator takes it up, as Kafka's runtime)
        try:
            resp = conn._call(functools.partial(self.mod.handle, self.ctx, self.body) if stepped is None else
                              functools.partial(_next_step, stepped, contextlib.nullcontext()),
                              self.header, self.body, self.pending, self.writes)
        finally:
            self.spent += time.perf_counter() - t
        return NextStep(functools.partial(self, resp)) if isinstance(resp, Stepped) else resp


def _next_step(stepped: Stepped, scope):
    """One step of a Stepped response: the response when it is done, else the Stepped itself.
    A single node's metadata write in the step is only written (``scope``: the controller's
    deferring scope); _metadata_durable makes it durable and applies it."""
    with scope:
        done = stepped.step(_now_ms())
    return stepped if done is None else done


def _metadata_durable(controller, scope) -> asyncio.Future:
    """The fsync the scope's metadata write waits for, run in a worker thread (the event loop
    serves other clients meanwhile); then, on the loop, its commit and apply (controller.settle:
    nothing is applied or answered before the fsync returned). -> a future of None, or of the
    OSError that failed the write. The settle runs even if the connection's task is cancelled."""
    loop = asyncio.get_running_loop()
    settled = loop.create_future()

    def settle(synced: asyncio.Future) -> None:
        try:
            synced.result()  # (PendingSync keeps an OSError of the fsync for settle)
            controller.settle(scope)
            failed = None
        except Exception as e:  # noqa: BLE001 - the request is answered with its error response
            failed = e
        if not settled.done():
            settled.set_result(failed)

    loop.run_in_executor(None, scope.pending_sync).add_done_callback(settle)
    return settled


class _Collecting:
    """A parked ``delayed`` whose completion also notes its coordinator appends in ``writes`` (one
    object, not closures: a 10,000-member group parks 10,000 JoinGroups)."""

    __slots__ = ("delayed", "pending", "writes")

    def __init__(self, delayed: Delayed, pending, writes: list):
        self.delayed = delayed
        self.pending = pending
        self.writes = writes

    def _run(self, fn, now_ms: int):
        opened = self.pending.begin()
        try:
            return fn(now_ms)
        finally:
            self.pending.end(opened)
            self.writes.extend(opened)

    def try_complete(self, now_ms: int):
        return self._run(self.delayed.try_complete, now_ms)

    def on_expire(self, now_ms: int):
        return self._run(self.delayed.on_expire, now_ms)


def _collecting(delayed: Delayed, pending, writes: list) -> Delayed:
    """``delayed`` whose completion also notes its coordinator appends in ``writes``."""
    c = _Collecting(delayed, pending, writes)
    return Delayed(try_complete=c.try_complete, on_expire=c.on_expire, deadline_ms=delayed.deadline_ms,
                   watch=delayed.watch)


def _coordinator_error_response(key: int, version: int, body, code: int):
    return error_response(key, version, body, CoordinatorError(code))


def _resolve(fut: asyncio.Future, result) -> None:
    """The purgatory's answer to a parked request (its connection may have gone meanwhile)."""
    if not fut.done():
        fut.set_result(result)


class KafkaConnection(asyncio.BufferedProtocol):
    # a broker holds one per client, 10,000 for a 10,000-member group: slots, not a __dict__ (more
    # than 30 attributes: an instance dict of its own, ~1.5 KiB)
    __slots__ = ("server", "broker", "registry", "request_stats", "listener", "listener_name", "sasl",
                 "_tls_principal", "decoder", "frames", "_arrivals", "_memory", "_quotas", "_admitted",
                 "_reserved", "_held", "_memory_paused", "_parked", "_throttled", "_session_expires_ms",
                 "_reauth_started_ms", "_slot_waiting", "transport", "task", "closed", "name", "client_host",
                 "client_id", "idle_since_ms", "_wakeup", "_reading_paused", "_write_paused", "_drain_waiter",
                 "_op", "_sock_fd", "seq")

    def __init__(self, server, limits: ConnectionLimits | None = None, listener: ServedListener | None = None):
        global _seq
        _seq += 1
        self.seq = _seq  # the order connections came in
        self.server = server
        self.broker = server.broker
        self.registry = server.registry
        self.request_stats = server.request_stats  # None unless metrics are served
        self.listener = listener  # the client listener it came in on (None: the CONTROLLER listener)
        self.listener_name = listener.name if listener is not None and listener.advertised else ""
        self.sasl = server.sasl_session(listener)  # a SASL listener's authentication; None otherwise
        self._tls_principal: str | None = None  # an SSL listener's client certificate principal
        self.decoder = FrameBuffer(self._max_frame(), pool=getattr(server, "buffer_pool", None))
        # complete frames to handle, oldest first (at most MAX_QUEUED_FRAMES or so: a list, not a
        # deque, whose empty block costs 600 bytes more on every connection)
        self.frames: list = []
        # when each queued frame was complete (time.perf_counter), for RequestQueueTimeMs
        self._arrivals: deque | None = deque() if self.request_stats is not None else None
        self._memory = limits.memory if limits is not None else None
        self._quotas = limits.quotas if limits is not None else None
        self._admitted = False  # counted by the quotas (released when the connection goes)
        self._reserved = 0  # queued.max.request.bytes taken for the frame being read
        self._held = 0  # ... and for the complete frames queued or being handled
        self._memory_paused = False
        # complete frames waiting for room in the pool (queued.max.request.bytes set)
        self._parked: deque | None = deque() if self._memory is not None else None
        self._throttled = False
        self._session_expires_ms: int | None = None  # a SASL session's end (connections.max.reauth.ms)
        self._reauth_started_ms = -MIN_REAUTH_INTERVAL_MS  # when the last re-authentication began
        self._slot_waiting = False  # over max.connections, waiting for another to close
        self.transport = None
        self.task = None
        self.closed = False
        self.name = f"conn-{self.seq}"
        self.client_host = ""
        self.client_id: str | None = None  # of the last request (odradek.testing's drop_connections)
        self.idle_since_ms = _now_ms()
        self._wakeup = None
        self._reading_paused = False
        self._write_paused = False
        self._drain_waiter = None
        self._op = None
        self._sock_fd = None

    # ------------------------------------------------------------ asyncio.Protocol

    def connection_made(self, transport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if peer:
            self.client_host = str(peer[0])
            self.name = f"{peer[0]}:{peer[1]}-{self.seq}"
        if self.listener is not None and self.listener.protocol == "SSL":
            self._tls_principal = self.listener.tls_principal(transport.get_extra_info("ssl_object"))
            if self._tls_principal is None:  # no ssl.principal.mapping.rules rule applies: Kafka fails it
                log.info("%s: no ssl.principal.mapping.rules rule applies to the client certificate; closing",
                         self.name)
                transport.abort()
                return
        sock = transport.get_extra_info("socket")
        if sock is not None:
            set_socket_buffers(sock, self.server.config)
        try:
            # no sendfile (nor peer checks) under TLS: the bytes must go through the SSL transport
            ssl_object = transport.get_extra_info("ssl_object")
            tls = ssl_object is not None
            self._sock_fd = sock.fileno() if sock is not None and not tls else None
        except Exception:
            self._sock_fd = None
            ssl_object = None
        self.server.connections.add(self)
        if self._quotas is not None and self._quotas.must_wait(self.listener_name):
            # max.connections reached: as Kafka's acceptor, wait (unserved) for a slot
            self._slot_waiting = True
            self.idle_since_ms = None  # not served yet, so not idle either
            transport.pause_reading()
            self._quotas.wait(self, self.listener_name)
            return
        self._start()

    @property
    def counted(self) -> bool:
        """Counted by the connection quotas: admitted, not waiting for a slot nor gone."""
        return self._admitted

    def connection_slot_free(self) -> None:
        """Another connection closed: this one, the oldest waiting, takes its slot."""
        self._slot_waiting = False
        if self.closed:
            return
        if self._peer_gone():  # the client gave up waiting: leave without taking the slot
            self.close()
            return
        self.idle_since_ms = _now_ms()
        self._start()
        if not self.closed:
            self._maybe_resume_reading()

    def _peer_gone(self) -> bool:
        fd = self._sock_fd
        if fd is None:
            return False
        p = select.poll()
        p.register(fd, select.POLLRDHUP)
        return bool(p.poll(0))

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        rate_limited = self.server.client_quotas
        if rate_limited is not None and self.client_host:
            throttle_ms = rate_limited.record_connection(self.client_host, _now_ms())
            if throttle_ms:  # the address's connection_creation_rate: as Kafka's acceptor, closed unserved later
                log.debug("%s: connection creation rate of %s exceeded; closing in %d ms", self.name,
                          self.client_host, throttle_ms)
                self._throttled = True
                self.transport.pause_reading()
                loop.call_later(throttle_ms / 1000, self.close)
                return
        if self._quotas is not None:
            delay = self._quotas.admit(self.client_host, _now_ms(), self.listener_name)
            if delay is None:
                self.close()
                return
            self._admitted = True
            if self._quotas.excess():  # the protected listener's, let in over max.connections
                close_excess(self._quotas, self.server.connections)
            if delay > 0:  # max.connection.creation.rate: served once the delay is over
                self._throttled = True
                self.transport.pause_reading()
                loop.call_later(delay / 1000, self._end_throttle)
        self.task = loop.create_task(self._run())

    def _end_throttle(self) -> None:
        self._throttled = False
        self._maybe_resume_reading()

    def _maybe_resume_reading(self) -> None:
        if not (self.closed or self._throttled or self._memory_paused or self._reading_paused):
            self.transport.resume_reading()

    def resume_reading_for_memory(self) -> None:
        """The request memory pool has room again: take this connection's waiting frames
        from it and read on."""
        self._memory_paused = False
        if self.closed:
            return
        self._admit_waiting()
        self._maybe_resume_reading()

    # The socket reads straight into the frame buffer (no chunk objects, no gathering):
    # a request's bytes are copied once, by the log's write.
    def get_buffer(self, sizehint: int):
        return self.decoder.get_buffer()

    def buffer_updated(self, nbytes: int) -> None:
        try:
            frames = self.decoder.received(nbytes)
        except FrameTooLargeError as e:
            log.debug("%s: %s; closing connection", self.name, e)
            self.close(abort=True)
            return
        if self._memory is not None:
            self._account(frames)  # queues what the pool admits
        elif frames:
            self.frames.extend(frames)
            if self._arrivals is not None:
                self._arrivals.extend([time.perf_counter()] * len(frames))
            self._wake()
        if len(self.frames) >= MAX_QUEUED_FRAMES and not self._reading_paused:
            self._reading_paused = True
            self.transport.pause_reading()

    def _account(self, frames: list) -> None:
        """queued.max.request.bytes: queue the frames the pool admits. A complete frame counts its
        size until handled; a frame being read counts its declared size from when its size
        prefix is in. A frame that starts while the pool is spent waits, uncounted and
        unhandled, and this connection stops reading until requests finish and free the
        pool, as a Kafka channel whose MemoryPool allocation failed is muted."""
        if frames and self._reserved:  # the frame that was being read: its size was taken
            f = frames[0]
            self._memory.take(len(f) - self._reserved)
            self._held += len(f)
            self._reserved = 0
            self.frames.append(f)
            if self._arrivals is not None:
                self._arrivals.append(time.perf_counter())
            self._wake()
            frames = frames[1:]
        self._parked.extend(frames)
        self._admit_waiting()

    def _admit_waiting(self) -> None:
        """Take from the pool, while it has room, the frames waiting for it and then the
        frame being read; stop reading while any still waits."""
        mem = self._memory
        parked = self._parked
        while parked and not mem.spent:
            f = parked.popleft()
            mem.take(len(f))
            self._held += len(f)
            self.frames.append(f)
            if self._arrivals is not None:
                self._arrivals.append(time.perf_counter())
            self._wake()
        pending = self.decoder.pending_size
        if not parked and pending >= 0 and not self._reserved and not mem.spent:
            mem.take(pending)
            self._reserved = pending
        if parked or (pending >= 0 and not self._reserved):
            if not self._memory_paused:
                self._memory_paused = True
                self.transport.pause_reading()
                mem.wait(self)

    def eof_received(self):
        return False

    def connection_lost(self, exc) -> None:
        self.closed = True
        self.server.connections.discard(self)
        if self._slot_waiting:
            self._slot_waiting = False
            self._quotas.forget(self, self.listener_name)
        if self._admitted:
            self._admitted = False
            self._quotas.release(self.client_host, self.listener_name)
        self.decoder.release_all()
        mem = self._memory
        if mem is not None:
            mem.forget(self)
            held, self._held, self._reserved = self._held + self._reserved, 0, 0
            if held:
                mem.give(held)
        if self._op is not None:
            self.broker.purgatory.cancel(self._op)
            self._op = None
        if self.task is not None and not self.task.done():
            self.task.cancel()
        services = self.broker.services if self.broker is not None else None
        shares = services.shares if services is not None else None
        if shares is not None:  # the share sessions this connection opened end with it, as on Kafka
            shares.connection_closed(self.name)
        w = self._drain_waiter
        if w is not None and not w.done():
            w.set_result(None)

    def pause_writing(self) -> None:
        self._write_paused = True

    def resume_writing(self) -> None:
        self._write_paused = False
        w = self._drain_waiter
        if w is not None and not w.done():
            w.set_result(None)

    # ------------------------------------------------------------ processing

    def close(self, abort: bool = False) -> None:
        if self.transport is not None and not self.closed:
            self.closed = True
            if abort:
                self.transport.abort()
            else:
                self.transport.close()

    def _wake(self) -> None:
        w = self._wakeup
        if w is not None and not w.done():
            w.set_result(None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        slice_start = loop.time()
        try:
            while not self.closed:
                if not self.frames:
                    self.decoder.release()  # an idle connection holds no receive buffer
                    self.idle_since_ms = _now_ms()
                    self._wakeup = loop.create_future()
                    await self._wakeup
                    self._wakeup = None
                    slice_start = loop.time()
                    continue
                if loop.time() - slice_start >= SERVE_SLICE_S:
                    await asyncio.sleep(0)  # the other connections' ready requests first
                    slice_start = loop.time()
                    continue
                frame = self.frames.pop(0)
                queued = self._arrivals.popleft() if self._arrivals is not None else 0.0
                if self._reading_paused and len(self.frames) < MAX_QUEUED_FRAMES // 2:
                    self._reading_paused = False
                    self._maybe_resume_reading()
                self.idle_since_ms = None
                n = len(frame)
                handling = self._handle(frame, loop, queued)
                frame = None  # (no view of the receive buffer left here while a parked request waits)
                await handling
                handling = None  # (a finished coroutine keeps its frame's memory: ~600 bytes while idle)
                if self._memory is not None and self._held:
                    self._held -= n
                    self._memory.give(n)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("%s: connection task failed", self.name)
            self.close(abort=True)

    async def _handle(self, frame, loop, queued: float = 0.0) -> None:
        # Produce is decoded from the frame view, so its records stay zero-copy views;
        # every other request gets bytes (its fields may be kept, hashed or stored).
        produce = len(frame) >= 2 and frame[0] == 0 and frame[1] == PRODUCE
        if not produce:
            whole = frame.obj if isinstance(frame, memoryview) else None  # (a frame copied out whole)
            frame = whole if type(whole) is bytes and len(whole) == len(frame) else bytes(frame)
        if self.sasl is not None and self.sasl.unframed and not self.sasl.authenticated:
            await self._unframed_token(bytes(frame))  # after a SaslHandshake v0
            return
        try:
            if produce or len(frame) < STEPPED_DECODE_BYTES:
                header, body = decode_request(frame)
            else:
                decoding = decode_request_steps(frame)
                while (decoded := next(decoding)) is None:
                    await asyncio.sleep(0)
                    if self.closed:
                        return
                header, body = decoded
        except RequestDecodeError as e:
            if e.api_key == API_VERSIONS and isinstance(e.cause, UnsupportedVersionError):
                await self._answer_unsupported_api_versions(e.correlation_id)
                return
            log.debug("%s: undecodable request (api %s v%s): %s; closing connection",
                     self.name, e.api_key, e.api_version, e)
            self.close(abort=True)
            return
        except WireError as e:
            log.debug("%s: bad request frame: %s; closing connection", self.name, e)
            self.close(abort=True)
            return
        request_size = len(frame)
        frame = whole = None  # (decoded: a parked request keeps its fields, not its bytes)
        key = header.request_api_key
        ver = header.request_api_version
        corr = header.correlation_id
        self.client_id = header.client_id
        if self.server.control is not None:  # odradek.testing.control.enable: pause, test network
            if not await self._let_through(key, header.client_id, body):
                return
        mod = self.registry.get(key)
        if mod is None or not mod.MIN_VERSION <= ver <= mod.MAX_VERSION:
            if key == API_VERSIONS:
                await self._answer_unsupported_api_versions(corr)
                return
            log.debug("%s: unsupported api %d v%d; closing connection", self.name, key, ver)
            self.close(abort=True)
            return
        if self.sasl is not None:
            if self._session_expires_ms is not None:  # connections.max.reauth.ms (KIP-368)
                now = _now_ms()
                if key == SASL_HANDSHAKE and now - self._reauth_started_ms >= MIN_REAUTH_INTERVAL_MS:
                    # the client re-authenticates: a new exchange (Kafka's KafkaChannel begins one at most
                    # once a second; a handshake sooner is an ordinary request, ILLEGAL_SASL_STATE)
                    self._reauth_started_ms = now
                    self.sasl = self.sasl.reauthentication()
                    self._session_expires_ms = None
                    self.decoder.max_size = self._max_frame()
                elif now >= self._session_expires_ms:
                    log.debug("%s: SASL session expired without re-authentication; closing connection", self.name)
                    self.close(abort=True)
                    return
            if not self.sasl.authenticated:  # a SASL listener's door (broker/sasl_gate.py)
                door = gate(self.sasl, key, ver, body, self.server.config.connections_max_reauth_ms, _now_ms())
                if door is not None:
                    await self._through_gate(key, ver, corr, door)
                    return
        fault = None
        if self.server.faults is not None:  # odradek.testing.control.enable: injected faults (odradek/testing)
            fault = self.server.faults.match(key, ver, header.client_id, body, self._topic_name)
        if self.server.trace is not None:
            self.server.trace.request(self.name, header, body, fault)
        if fault is not None:
            if fault.delay_ms:
                await asyncio.sleep(fault.delay_ms / 1000)
            if fault.action == "close_connection" or self.closed:
                self.close(abort=True)
                return
            if fault.error_code is not None:
                resp = BUILDERS[key](ver, body, fault.error_code, None)
                if resp is None:  # acks=0 Produce: Kafka closes the connection instead
                    self.close()
                    return
                resp = self._rewritten(fault, resp, ver)
                if resp is not None:
                    await self._send(key, ver, corr, resp)
                return
        stats = self.request_stats
        started = time.perf_counter() if stats is not None else 0.0
        ctx = RequestContext(api_key=key, api_version=ver, correlation_id=corr, client_id=header.client_id,
                             now_ms=self.broker.clock_ms(), services=self.broker.services, connection_id=self.name,
                             client_host=self.client_host, principal=self.principal, header=header,
                             resolve_host=host_resolves, listener=self.listener_name)
        if ctx.services.authorizer is not None:  # authorizer.class.name (api_handlers/authorization.py)
            denied = authorization.gate(ctx, key, body)
            if denied is not None:
                resp = BUILDERS[key](ver, body, denied, authorization.denied_message(ctx, key, denied))
                if resp is None:  # acks=0 Produce: Kafka closes the connection instead
                    self.close()
                else:
                    await self._send(key, ver, corr, resp)
                return
        pending = self.broker.coordinator_writes
        writes: list = []  # the coordinator appends this response stands for
        quotas = self.server.client_quotas
        timed = quotas is not None and quotas.any()  # the handling time, for request_percentage
        busy = time.perf_counter() if timed else 0.0
        events = self.broker.coordinator_events
        if key in COORDINATOR_EVENTS and events is not None:
            resp, busy = await self._as_coordinator_event(events, mod, ctx, header, body, pending, writes)
            if self.closed:
                return
        else:
            resp = self._call(functools.partial(mod.handle, ctx, body), header, body, pending, writes)
            if timed:
                busy = time.perf_counter() - busy
        if isinstance(resp, Stepped):  # a large admin write: other clients are served between its steps
            # a controller decision that writes, a Metadata that auto-creates topics: carried out if the
            # client goes away meanwhile (given up like the others when it only validates: it writes nothing)
            carried = carried_out(key, body)
            steps = self._steps(resp, header, body, pending, writes, timed, not carried)
            resp, spent = await (self.broker.carried_out.run(steps) if carried else steps)
            busy += spent
            if self.closed:
                return
        if resp is None:
            return
        handled = time.perf_counter() if stats is not None else 0.0
        while isinstance(resp, Delayed):  # (a completed wait may lead to another: Produce's verification)
            resp = await self._park(_collecting(resp, pending, writes), key)
            if isinstance(resp, BaseException):
                resp = self._error_response(header, body, resp)
                if resp is None:
                    return
        if isinstance(resp, Stepped) and key in COORDINATOR_EVENTS and events is not None:
            # (the commit after its wait, in steps: a TxnOffsetCommit verified by another broker's
            # transaction coordinator goes on as coordinator events, as Kafka's write after verification)
            resp, _ = await self._as_coordinator_event(events, mod, ctx, header, body, pending, writes, resp)
            if self.closed:
                return
        if writes and resp is not None and resp is not CLOSE_CONNECTION:
            # answered once its coordinator writes are committed (acks=-1, as Kafka's coordinators)
            resp = hold(self.broker.replicas, writes, resp,
                        functools.partial(_coordinator_error_response, key, ver, body),
                        self.broker.clock_ms(), self.broker.coordinator_write_timeout_ms(writes))
            if isinstance(resp, Delayed):
                resp = await self._park(resp, key)
        if resp is None or self.closed:
            return  # acks=0 produce: no response at all
        if fault is not None and fault.action == "drop_response":
            return
        if resp is CLOSE_CONNECTION:
            self.close()
            return
        if fault is not None:
            resp = self._rewritten(fault, resp, ver)
            if resp is None:
                return
        throttle_ms = 0
        if (timed and key not in QUOTA_EXEMPT
                and not (key == FETCH and is_follower_fetch(body))):
            resp, throttle_ms = self._throttle(key, header.client_id, request_size, resp, busy)
        if stats is None:
            await self._send(key, ver, corr, resp)
        else:
            answered = time.perf_counter()
            await self._send(key, ver, corr, resp)
            observe_request(stats, self.server.topic_stats, self.broker.controller.image, key, ver, body, resp,
                            queued, started, handled, answered, time.perf_counter(), throttle_ms)
        if throttle_ms:
            await asyncio.sleep(throttle_ms / 1000)  # the channel stays muted while throttled (KIP-219)

    async def _steps(self, resp: Stepped, header, body, pending, writes: list, timed: bool, while_open: bool):
        """The response of a Stepped, made a step at a time (other clients served between steps), and
        the time its steps took (``timed``); ``while_open``: given up when the connection closes."""
        busy = 0.0
        while isinstance(resp, Stepped):
            await asyncio.sleep(0)
            if while_open and self.closed:
                return None, busy
            step = time.perf_counter() if timed else 0.0
            scope = self.broker.controller.deferring()  # the step's metadata write: fsynced off the loop
            resp = self._call(functools.partial(_next_step, resp, scope), header, body, pending, writes)
            if timed:
                busy += time.perf_counter() - step
            if scope.syncs:
                failed = await _metadata_durable(self.broker.controller, scope)
                if failed is not None:
                    resp = self._error_response(header, body, failed)
        return resp, busy

    async def _as_coordinator_event(self, events, mod, ctx: RequestContext, header, body, pending, writes: list,
                                    stepped: Stepped | None = None):
        """The request handled as a coordinator event (queued, then run in the coordinator's slice;
        a large one a step an event, coordinator_events.NextStep; ``stepped``: going on with its
        steps); -> its response and its handling time (not its wait in the queue)."""
        event = _CoordinatorEvent(self, mod, ctx, header, body, pending, writes)
        try:
            resp = await events.run(event if stepped is None else functools.partial(event, stepped))
        except CoordinatorError as e:  # its batch could not be written
            resp = error_response(ctx.api_key, ctx.api_version, body, e)
        return resp, event.spent

    async def _let_through(self, key: int, client_id: str | None, body) -> bool:
        """A paused node answers once resumed; a cut peer's (or client's) request closes its
        connection, a slow peer's waits (odradek/testing/network.py). False: not to be handled."""
        ctl = self.server.control
        await ctl.wait_running()
        verdict = ctl.network.verdict(client_id, key, body)
        if verdict is not None:
            if verdict.close:
                self.close(abort=True)
                return False
            await asyncio.sleep(verdict.delay_ms / 1000)
        return not self.closed

    def _rewritten(self, fault, resp, version: int):
        """The response as the fault's rewrite makes it (given it with its cached encodings
        decoded); None (the connection closed) if it fails."""
        if fault.rewrite is None:
            return resp
        try:
            return fault.rewrite(resp.plain(version))
        except Exception:  # noqa: BLE001 - a test's callback: its error is logged, the client sees a reset
            log.exception("%s: the rewrite of fault %d failed; closing connection", self.name, fault.rule_id)
            self.close(abort=True)
            return None

    def _throttle(self, key: int, client_id: str | None, request_bytes: int, resp, busy_s: float):
        """The request counted against the client's quotas (security/quotas.py): its handling time
        (request_percentage), a produce request's bytes or a fetch response's (the byte rates); the
        response with the largest throttle time (a CreateTopics/DeleteTopics/CreatePartitions one
        may carry the controller mutation quota's already), and that time, for which the channel is
        muted. A throttled fetch gets no data, as Kafka's getThrottledResponse."""
        quotas = self.server.client_quotas
        user = self.principal.split(":", 1)[1]
        client = client_id or ""
        now = _now_ms()
        ms = quotas.record_request_time(user, client, busy_s, now)
        if key in MUTATING:
            ms = max(ms, resp.throttle_time_ms)
        elif key == PRODUCE or key == FETCH:
            if key == PRODUCE:
                kind, size = PRODUCE_RATE, request_bytes
            else:
                kind = FETCH_RATE
                size = sum(len(p.records) for t in resp.responses for p in t.partitions if p.records is not None)
            byte_ms = quotas.record(kind, user, client, size, now)
            if self.request_stats is not None:  # the byte-rate sensor's throttle-time
                self.request_stats.throttles.record(quotas.quotas(), kind, user, client, byte_ms, now)
            ms = max(ms, byte_ms)
            if key == FETCH and ms and size:  # Kafka sends none of it and takes the bytes back from the rate
                quotas.unrecord(FETCH_RATE, user, client, size, now)
                resp = type(resp)(throttle_time_ms=ms, error_code=resp.error_code, session_id=resp.session_id,
                                  responses=[])
        if ms:
            resp.throttle_time_ms = max(resp.throttle_time_ms, ms)
        return resp, ms

    def _max_frame(self) -> int:
        """The largest request frame read: sasl.server.max.receive.size on a SASL listener until the
        client has authenticated (Kafka's SaslServerAuthenticator closes the connection past it), else
        socket.request.max.bytes."""
        cfg = self.server.config
        if self.sasl is not None and not self.sasl.authenticated:
            return cfg.sasl_server_max_receive_size
        return cfg.socket_request_max_bytes

    @property
    def principal(self) -> str:
        """The connection's principal, as Kafka's DefaultKafkaPrincipalBuilder: the SASL user once
        authenticated; on SSL the client certificate's subject DN mapped by ssl.principal.mapping.rules
        (User:CN=...,O=... by DEFAULT); else User:ANONYMOUS (as Kafka's PLAINTEXT). On a CONTROLLER
        listener too (Kafka's ControllerApis authorize its clients; the admin writes a broker forwards
        come in an Envelope naming the client's principal)."""
        p = self.sasl.principal if self.sasl is not None else self._tls_principal
        return p or ANONYMOUS

    def _topic_name(self, topic_id) -> str | None:
        t = self.broker.image.topics_by_id.get(topic_id)
        return None if t is None else t.name

    async def _unframed_token(self, token: bytes) -> None:
        door = token_frame(self.sasl, token, _now_ms())
        if door.failed_auth:
            if self.request_stats is not None:
                self.request_stats.authenticated(self.listener_name, False)
            await self._failed_authentication()
        if door.response is None:
            self.close(abort=not door.failed_auth)
            return
        self._authenticated(door)
        self.transport.write(len(door.response).to_bytes(4, "big") + door.response)

    async def _failed_authentication(self) -> None:
        log.info("%s: failed authentication with SASL mechanism %s from %s", self.name, self.sasl.mechanism,
                 self.client_host)
        await asyncio.sleep(self.server.config.connection_failed_authentication_delay_ms / 1000)

    def _authenticated(self, door: GateAnswer) -> None:
        """Counts a gate's answer that ends the exchange (either way) and, once authenticated, lifts
        the frame limit and starts the session's lifetime."""
        stats = self.request_stats
        if stats is not None and (self.sasl.authenticated or (door.close and door.response is not None)):
            stats.authenticated(self.listener_name, self.sasl.authenticated)
        if self.sasl.authenticated:
            self.decoder.max_size = self._max_frame()
            # connections.max.reauth.ms or an OAUTHBEARER token's expiry, the sooner (KIP-368)
            now = _now_ms()
            lifetime = self.sasl.lifetime_ms(self.server.config.connections_max_reauth_ms, now)
            if lifetime is not None and not self.sasl.unframed:  # v0 has no re-authentication (KIP-368 is v1+)
                self._session_expires_ms = now + lifetime

    async def _through_gate(self, key: int, ver: int, corr: int, door: GateAnswer) -> None:
        if door.response is None:
            log.debug("%s: request api %d before SASL authentication; closing connection", self.name, key)
            self.close(abort=True)
            return
        if door.failed_auth:
            await self._failed_authentication()
        self._authenticated(door)
        await self._send(key, ver, corr, door.response)
        if door.close:
            self.close()

    def _call(self, fn, header, body, pending, writes: list):
        """fn()'s response, its coordinator appends noted in writes; the API's error response if it
        raises (None: the connection is closed instead)."""
        opened = pending.begin()
        try:
            return fn()
        except Exception as e:
            return self._error_response(header, body, e)
        finally:
            pending.end(opened)
            writes.extend(opened)

    async def _park(self, delayed: Delayed, api_key: int):
        """The response of a parked operation, once the purgatory completes it."""
        fut = asyncio.get_running_loop().create_future()
        self._op = self.broker.purgatory.add(delayed, functools.partial(_resolve, fut))
        stats = self.request_stats
        if stats is not None:
            stats.park(api_key, 1)
        try:
            return await fut
        finally:
            self._op = None
            if stats is not None:
                stats.park(api_key, -1)

    def _error_response(self, header, body, exc):
        """Kafka's handleError: log, then answer with the API's error response and keep the
        connection; None (connection closed) where Kafka has none (acks=0 Produce)."""
        summary = repr(body)
        if len(summary) > 1000:
            summary = summary[:1000] + "..."
        log.error("%s: unexpected error handling request api=%d v%d correlation_id=%d client_id=%s body=%s",
                  self.name, header.request_api_key, header.request_api_version, header.correlation_id,
                  header.client_id, summary, exc_info=exc)
        try:
            resp = error_response(header.request_api_key, header.request_api_version, body, exc)
        except Exception:
            log.exception("%s: cannot build the error response; closing connection", self.name)
            self.close(abort=True)
            return None
        if resp is None:
            self.close()
        return resp

    async def _answer_unsupported_api_versions(self, corr: int) -> None:
        from odradek.api_handlers import api_versions

        await self._send(API_VERSIONS, 0, corr, api_versions.unsupported_version_response())

    # ------------------------------------------------------------ writing

    async def _send(self, key: int, ver: int, corr: int, resp) -> None:
        if self.server.control is not None and self.server.control.paused:  # answered once resumed
            await self.server.control.wait_running()
            if self.closed:
                return
        if self.server.trace is not None:
            self.server.trace.response(self.name, key, ver, corr, resp)
        try:
            if getattr(resp, "_ENCODE_STEPS", None):  # (an answer that can hold thousands of entries: other clients between its steps)
                encoding = encode_response_steps(key, ver, corr, resp)
                while True:
                    try:
                        next(encoding)
                    except StopIteration as done:
                        parts = done.value
                        break
                    await asyncio.sleep(0)
                    if self.closed:
                        return
            else:
                parts = encode_response_parts(key, ver, corr, resp)
        except WireError:
            log.exception("%s: cannot encode response to api %d v%d; closing connection", self.name, key, ver)
            self.close(abort=True)
            return
        t = self.transport
        pending = []
        reads = 0
        for p in parts:
            if isinstance(p, _BYTES_TYPES):
                pending.append(p)
            else:
                slices = getattr(p, "slices", ())
                if sum(sl.length for sl in slices) <= INLINE_RECORDS_BYTES:
                    for sl in slices:
                        data = self._read_slice(sl, sl.position, sl.length)
                        if data is None:
                            return
                        pending.append(data)
                    reads += 1
                    if reads % INLINE_READS_PER_STEP == 0:  # (this connection's one response: nothing else writes)
                        t.write(b"".join(pending))
                        pending = []
                        await asyncio.sleep(0)
                        if self.closed:
                            return
                    continue
                if pending:
                    t.write(b"".join(pending))
                    pending = []
                if not await self._send_records(p):
                    return
        if pending:
            t.write(b"".join(pending) if len(pending) > 1 else pending[0])
        if self._write_paused and not self.closed:
            await self._drained()

    async def _drained(self) -> None:
        self._drain_waiter = asyncio.get_running_loop().create_future()
        try:
            await self._drain_waiter
        finally:
            self._drain_waiter = None

    async def _send_records(self, rec) -> bool:
        """Write a records field given as file slices; False if the connection was closed.
        sendfile while the socket takes the bytes; when it is full, one small chunk goes
        through the transport, which waits for the socket, and sendfile goes on once that
        chunk has left: a client that does not read holds a chunk of the response in memory,
        not the rest of it. Before the first wait of a slice the descriptor is duplicated
        and the rest of the slice comes from the duplicate: the segment may be closed (or
        parked) meanwhile and its descriptor number given to another file."""
        t = self.transport
        for sl in getattr(rec, "slices", ()):
            pos, left = sl.position, sl.length
            try:
                fd = sl.file.fileno() if sl.file is not None else None
                if fd is not None and fd < 0:
                    raise OSError("segment file closed")
            except OSError as e:  # closed, or parked and its path is gone
                log.debug("%s: segment %s cannot be read: %s", self.name, sl.path, e)
                self.close(abort=True)
                return False
            own = None  # the duplicate this slice holds while it waits for the socket
            try:
                while left > 0:
                    if fd is not None and self._sock_fd is not None and not self.closed \
                            and t.get_write_buffer_size() == 0:
                        try:
                            while left > 0:
                                n = os.sendfile(self._sock_fd, fd, pos, left)
                                if n == 0:
                                    break
                                pos += n
                                left -= n
                        except (BlockingIOError, InterruptedError):
                            pass
                        except OSError as e:
                            log.debug("%s: sendfile failed: %s", self.name, e)
                            self.close(abort=True)
                            return False
                        if left == 0:
                            break
                    if fd is None or left <= SEND_CHUNK_BYTES:
                        data = self._read_slice(sl, pos, left, own)  # (no descriptor: tests)
                        if data is None:
                            return False
                        t.write(data)
                        break
                    data = self._read_slice(sl, pos, SEND_CHUNK_BYTES, own)
                    if data is None:
                        return False
                    pos += SEND_CHUNK_BYTES
                    left -= SEND_CHUNK_BYTES
                    low_high = t.get_write_buffer_limits()
                    t.set_write_buffer_limits(high=0, low=0)  # paused if it waits, resumed once it left
                    t.write(data)
                    del data
                    if self._write_paused and not self.closed:
                        if own is None:
                            try:
                                own = fd = os.dup(fd)
                            except OSError as e:
                                log.debug("%s: segment %s closed: %s", self.name, sl.path, e)
                                self.close(abort=True)
                                return False
                        await self._drained()
                    t.set_write_buffer_limits(high=low_high[1], low=low_high[0])
                    if self.closed:
                        return False
            finally:
                if own is not None:
                    os.close(own)
        return True

    def _read_slice(self, sl, pos: int, length: int, fd: int | None = None):
        """length bytes of a file slice from pos (through the descriptor fd when given), or
        None (connection closed) when short or unreadable (its segment let go of meanwhile: a
        removed segment's file.delete.delay.ms passed, or its partition deleted)."""
        try:
            data = sl.file.read(pos, length) if fd is None else os.pread(fd, length, pos)
        except OSError as e:
            log.debug("%s: segment %s cannot be read: %s", self.name, sl.path, e)
            self.close(abort=True)
            return None
        if len(data) != length:
            log.error("%s: segment %s shorter than expected; closing connection", self.name, sl.path)
            self.close(abort=True)
            return None
        return data
