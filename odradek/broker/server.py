"""The broker process: asyncio server, one task per connection, periodic work,
signals and the ready line."""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import os
import signal
import sys
import time
from typing import TYPE_CHECKING

from odradek.broker.connection import KafkaConnection
from odradek.broker.connection_limits import ConnectionLimits
from odradek.broker.dynamic_broker_config import DynamicBrokerConfig
from odradek.broker.socket_buffers import set_receive_buffer
from odradek.broker.heap_trim import FreeListReserve, HeapTrim, malloc_trim, shrink_set, start_worker_threads
from odradek.broker.log_flusher import LogFlusher
from odradek.broker.log_writer import ThreadedLogHandler, all_written
from odradek.broker.old_heap import THOROUGH_CHECK_MS, OldHeap
from odradek.testing.clock import SystemClock, VirtualClock
from odradek.broker.log_format import formatter
from odradek.broker.listeners import ServedListener, served_listeners
from odradek.config import ConfigError
from odradek.controller.configs import dynamic_broker_long
from odradek.security.quotas import SENSOR_EXPIRY_CHECK_MS, SENSOR_EXPIRY_MS, ClientQuotas
from odradek.security.sasl import SaslSession
from odradek.wire.frames import BufferPool

if TYPE_CHECKING:  # what a broker without these settings never imports (~30 ms of its start)
    from odradek.broker.http_server import HttpMount
    from odradek.broker.quorum import QuorumBroker
    from odradek.testing.trace_sink import TraceSink

log = logging.getLogger("odradek.broker")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def stop_serving(tasks, server, connections) -> None:
    """Cancel a listener's background tasks, stop accepting, close its connections."""
    for t in tasks:
        t.cancel()
    if server is not None:
        server.close()
    for conn in list(connections):
        conn.close()


class BrokerServer:
    def __init__(self, config, http_mounts: tuple[HttpMount, ...] = (), freeze_heap: bool = False):
        """``freeze_heap``: a process's own broker (odradek serve) freezes what its start-up made
        (freeze_start_up_heap); not an in-process one (tests), whose process goes on after it."""
        self.config = config
        self.freeze_heap = freeze_heap
        self.loop = None
        self.broker = None
        self.server = None  # the first listener's asyncio server (the one the ready line names)
        self.servers: list = []  # every client listener's
        self.served: list[ServedListener] = []  # every client listener as served (TLS, SASL)
        self.connections: set[KafkaConnection] = set()
        self.buffer_pool = BufferPool()  # receive buffers, shared by the connections
        # a process's own broker: the survivors of each full garbage collection are frozen (old_heap.py)
        self.old_heap = OldHeap() if freeze_heap else None
        self.heap_trim = HeapTrim(malloc_trim(),  # what a connection storm freed goes back to the OS
                                  self.old_heap.thorough if self.old_heap is not None else gc.collect)
        self.free_lists: FreeListReserve | None = None  # what refills the loop's free lists after a storm
        self.limits = ConnectionLimits.from_config(config)  # queued.max.request.bytes, max.connections*
        self._stopping = None
        self._tasks: list[asyncio.Task] = []
        self.port = None
        # odradek for tests (odradek/testing): the broker's clock, injected faults, the request trace
        self.clock = VirtualClock() if config.testing_virtual_clock else SystemClock()
        self.faults = None  # odradek.testing.control.enable: the fault rules (odradek.testing.faults)
        if config.testing_control_enable:
            from odradek.testing.faults import FaultTable

            self.faults = FaultTable()
        self.trace: TraceSink | None = None  # opened by start() (a bad path stops the start with its error)
        self._woken = None  # set to run the periodic work at once (the virtual clock advanced)
        self.log_flusher: LogFlusher | None = None
        # odradek.http.port: metrics and health (broker/observability.py); None: no HTTP listener
        self.http = None
        if config.http_port is not None:
            from odradek.broker.observability import NodeHttp

            self.http = NodeHttp(config.http_host, config.http_port)
        self.topic_stats = self.http.topic_stats if self.http is not None else None
        self.request_stats = self.http.request_stats if self.http is not None else None
        self.control = None  # the pause switch and test network of odradek.testing (control_routes.NodeControl)
        if self.faults is not None:
            from odradek.broker.control_routes import NodeControl, add_control_routes

            self.control = NodeControl()
            self.control.govern(self.connections)
            if self.http is not None:  # the test control API beside metrics
                add_control_routes(self.http.routes, self.faults, self.clock, self.control)
        self.connections_created = 0
        self.connections_by_listener: dict[str, int] = {}  # created, per listener name (metrics)
        self.client_quotas: ClientQuotas | None = None  # byte-rate quotas, once the broker's image exists
        self.http_mounts = http_mounts  # more pages on the HTTP listener (the console), from the entry point

    async def start(self, cluster: QuorumBroker | None = None) -> None:
        """Bind, open the broker, serve. ``cluster``: a broker of a KRaft cluster
        (broker/quorum.py): its controller follows the metadata log, admin requests go
        to the active controller, and it serves once registered and unfenced. The HTTP
        listener (if any) comes up first, so /health/ready says 503 during log recovery."""
        from odradek.api_handlers import REGISTRY
        from odradek.broker.broker import Broker

        self.loop = asyncio.get_running_loop()
        if self.freeze_heap:  # (a process's own broker: the loop's default executor is its own)
            await start_worker_threads(self.loop)
        self._stopping = asyncio.Event()
        self.registry = REGISTRY if cluster is None else cluster.registry(REGISTRY)
        if self.config.testing_trace_file:
            from odradek.testing.trace_sink import TraceSink

            self.trace = TraceSink(self.config.testing_trace_file, self.clock.now_ms)
        if self.http is not None:
            await self.http.start(self.loop)
        lst = self.config.listener
        # bind first: a port in use must fail before any data is touched
        bound = {}
        self.served = served_listeners(self.config)
        for served in self.served:
            server = await self.loop.create_server(
                functools.partial(self._new_connection, served), served.listener.host or None, served.listener.port,
                reuse_address=True, backlog=1024, start_serving=False, ssl=served.tls)
            for sock in server.sockets:
                set_receive_buffer(sock, self.config)
            self.servers.append(server)
            bound[served.name] = server.sockets[0].getsockname()[1]
        self.server = self.servers[0]
        self.port = bound[lst.name]
        self.ports = bound  # listener name -> bound port
        self.broker = Broker(self.config, self.clock.now_ms, self.loop.call_later, topic_stats=self.topic_stats,
                             background=self.loop.call_soon)
        self.client_quotas = ClientQuotas(lambda: self.broker.controller.image.client_quotas,
                                          self.config.quota_window_size_seconds * 1000, self.config.quota_window_num)
        for name, port in bound.items():
            self.broker.set_bound_port(name, port)
        # log loading and recovery off the loop: the HTTP listener answers meanwhile (503 ready), and
        # a cluster node's metadata log keeps following its quorum (the images it reads are immutable)
        await self.loop.run_in_executor(None, self.broker.open_logs, cluster.controller if cluster else None)
        if cluster is None:
            self.broker.start()
            # a single node decides its admin writes itself (a cluster broker forwards them)
            self.broker.services.mutation_quota = self.client_quotas.mutation_quota
        else:
            self.broker.start(controller=cluster.controller, topic_creator=cluster.forwarding,
                              controller_call=cluster.channel.call,
                              broker_epoch=lambda: cluster.lifecycle.broker_epoch)
        # the dynamic broker configs (the persisted ones at once, then each change)
        dynamic = DynamicBrokerConfig(self.config.node_id, self.config, self.limits.quotas, lambda: self.connections,
                                      self.broker.replica_fetchers, self.broker.log_manager.cleaner, self.loop)
        self.broker.controller.add_listener(dynamic.on_metadata)
        dynamic.on_metadata(None, self.broker.controller.image)
        if cluster is not None:
            await cluster.lifecycle.join(self.broker)
        for served in self.served:  # OAUTHBEARER's JWKS fetched once before serving, then kept fresh
            if served.jwks is not None:
                await served.jwks.start()
        if self.freeze_heap:
            freeze_start_up_heap()
            self.old_heap.install()
        self.free_lists = FreeListReserve(self.loop)  # made before any client: in arenas that live anyway
        for served, server in zip(self.config.listeners, self.servers):
            await server.start_serving()
            log.info("Awaiting socket connections on %s:%d (%s).", served.host or "0.0.0.0", bound[served.name],
                     served.name)
        # the logs' flushes (flush.ms, flush.messages) in a worker thread, as Kafka's kafka-log-flusher
        self.log_flusher = LogFlusher(self.loop, self.broker.log_manager, self.broker.purgatory_poke)
        self.broker.flush_waiter = self.log_flusher.wait_flushed  # (the replica fetchers' wait)
        self._tasks.append(self.loop.create_task(self._periodic()))
        if self.http is not None:
            self.http.serve_broker_metrics(self.broker, self._connection_counts,
                                           lambda: dict(self.connections_by_listener))
            if cluster is None:  # a single node is its own (always active) controller
                self.http.serve_controller_metrics(lambda: self.broker.controller.image, lambda: True, None)
            for mount in self.http_mounts:
                mount(self.http.routes, f"{lst.host or '127.0.0.1'}:{self.port}")
            self.http.ready = True

    def sasl_session(self, listener: ServedListener | None) -> SaslSession | None:
        """A new connection's SASL exchange on a SASL_PLAINTEXT/SASL_SSL listener; None otherwise."""
        if listener is None:
            return None
        return listener.sasl_session(self.config, self.broker.controller.image.scram_credentials)

    def _new_connection(self, listener: ServedListener) -> KafkaConnection:
        self.connections_created += 1
        self.connections_by_listener[listener.name] = self.connections_by_listener.get(listener.name, 0) + 1
        return KafkaConnection(self, self.limits, listener)

    def _connection_counts(self) -> dict[str, int]:
        out = {lst.name: 0 for lst in self.config.listeners}
        for conn in self.connections:
            out[conn.listener_name] = out.get(conn.listener_name, 0) + 1
        return out

    def stop(self) -> None:
        if self._stopping is not None:
            self._stopping.set()

    async def wait_stopped(self) -> None:
        await self._stopping.wait()

    async def close(self) -> None:
        if self.http is not None:
            self.http.close()
        for server in self.servers[1:]:
            server.close()
        for served in self.served:
            if served.jwks is not None:
                served.jwks.close()
        stop_serving(self._tasks, self.server, self.connections)
        if self.broker is not None and self.broker.replica_fetchers is not None:
            await self.broker.replica_fetchers.close()  # no follower writes once the logs close
        for inter_broker in (self.broker.txn_markers, self.broker.txn_verifier, self.broker.share_persister) if self.broker is not None else ():
            if inter_broker is not None:
                await inter_broker.close()
        if self.log_flusher is not None:
            self.log_flusher.close()
        if self.broker is not None:
            epoch = self.broker.stop_work()
            # the logs close in a worker thread (a handful of fsyncs each): the loop meanwhile serves
            # what still runs on it, a combined node's metadata quorum (Broker.close_logs)
            await self.loop.run_in_executor(None, self.broker.close_logs, epoch)
            self.broker.close_metadata()
        if self.trace is not None:
            self.trace.close()
        if self.old_heap is not None:
            self.old_heap.uninstall()
        if self.free_lists is not None:
            self.free_lists.close()

    # ------------------------------------------------------------ periodic work

    async def _periodic(self) -> None:
        cfg = self.config
        b = self.broker
        now = self.clock.now_ms()
        if isinstance(self.clock, VirtualClock):  # an advance runs what is due at once
            self._woken = asyncio.Event()
            self.clock.on_advance(lambda _now: self.loop.call_soon_threadsafe(self._woken.set))
        # Kafka's LogManager runs its first retention pass 30 s after start (InitialTaskDelayMs)
        next_retention = now + min(cfg.log_retention_check_interval_ms, 30000)
        flush_interval = min(cfg.log_flush_scheduler_interval_ms, 1000)
        next_flush = now + flush_interval
        next_idle = _now_ms() + 1000
        next_thorough = _now_ms() + THOROUGH_CHECK_MS  # (whether the frozen old heap calls for a full walk)
        backoff = self._cleaner_backoff_ms()
        next_clean = now + backoff
        # Kafka's PeriodicProducerExpirationCheck, every producer.id.expiration.check.interval.ms
        next_producer_expiry = now + cfg.producer_id_expiration_check_interval_ms
        next_sensor_expiry = now + SENSOR_EXPIRY_CHECK_MS
        cleaning = None
        retaining = None  # a retention pass (a background thread)
        removing = None  # deleted partitions' directories being removed (a background thread)
        # new logs' directories, partition.metadata and first epoch being written, deleted logs'
        # directories being renamed away (a background thread: LogManager.write_pending_state)
        recording = None
        checkpointing = None  # the replication-offset-checkpoint being written (a background thread)
        # the log start offsets moved in memory, written in a background thread (Kafka's
        # kafka-log-start-offset-checkpoint task: first after InitialTaskDelayMs, then every
        # log.flush.start.offset.checkpoint.interval.ms; 0: that once), the first at most 30 s after start
        start_interval = cfg.log_flush_start_offset_checkpoint_interval_ms
        next_log_starts: int | None = now + (min(start_interval, 30000) if start_interval > 0 else 30000)
        starting = None
        while True:
            if self._woken is None:
                await asyncio.sleep(0.1)
            else:
                try:
                    await asyncio.wait_for(self._woken.wait(), 0.1)
                except asyncio.TimeoutError:
                    pass
                self._woken.clear()
            now = self.clock.now_ms()
            try:
                b.tick(now)
                if removing is None or removing.done():
                    # (detached here, on the loop, closed and removed in a worker: that frees disk space)
                    released = b.log_manager.take_released(now)
                    removing = (asyncio.ensure_future(self.loop.run_in_executor(
                        None, b.log_manager.let_go, released)) if released else None)
                if (recording is None or recording.done()) and b.log_manager.state_pending:
                    recording = asyncio.ensure_future(
                        self.loop.run_in_executor(None, b.log_manager.write_pending_state))
                if now >= next_flush:
                    next_flush = now + flush_interval
                    for _ in b.flush_dirty_steps(now):  # (10,000 used logs: ~20-70 ms in one piece)
                        await asyncio.sleep(0)
                    if (checkpointing is None or checkpointing.done()) and b.log_manager.high_watermarks_due(now):
                        checkpointing = asyncio.ensure_future(
                            self.loop.run_in_executor(None, b.log_manager.checkpoint_high_watermarks))
                if next_log_starts is not None and now >= next_log_starts and (starting is None or starting.done()):
                    next_log_starts = now + start_interval if start_interval > 0 else None
                    starting = asyncio.ensure_future(
                        self.loop.run_in_executor(None, b.log_manager.checkpoint_log_starts))
                    starting.add_done_callback(_log_failure)
                # in a worker thread, as Kafka's kafka-log-retention task (LogManager.apply_retention);
                # one pass at a time: one still running when the next is due delays it, as Kafka's
                # fixed-rate scheduler
                if now >= next_retention and (retaining is None or retaining.done()):
                    next_retention = now + cfg.log_retention_check_interval_ms
                    retaining = asyncio.ensure_future(self.loop.run_in_executor(None, b.apply_retention, now))
                    retaining.add_done_callback(_log_failure)
                if now >= next_producer_expiry:
                    next_producer_expiry = now + cfg.producer_id_expiration_check_interval_ms
                    b.remove_expired_producers(now)
                if now >= next_sensor_expiry:
                    next_sensor_expiry = now + SENSOR_EXPIRY_CHECK_MS
                    self._expire_quota_sensors(now)
                real_now = _now_ms()  # connections idle in real time, whatever the broker's clock
                if real_now >= next_idle:
                    next_idle = real_now + 1000
                    self._close_idle(real_now)
                    if self.heap_trim.connections_due(len(self.connections)):
                        shrink_set(self.connections)
                        self.buffer_pool.clear()
                        if self.heap_trim.settled:
                            await self.free_lists.renew()
                        self.heap_trim.trim_after_connections()
                    self.heap_trim.partitions(len(b.log_manager.logs))
                if self.old_heap is not None and real_now >= next_thorough:
                    next_thorough = real_now + THOROUGH_CHECK_MS
                    if self.old_heap.thorough_due():
                        self.old_heap.thorough()
                if (cleaning is not None and cleaning.done() and not cleaning.cancelled()
                        and cleaning.exception() is None and cleaning.result() is not None):
                    next_clean = now  # as Kafka's cleaner thread: back off only when idle
                    cleaning = None
                if backoff != (backoff := self._cleaner_backoff_ms()):
                    next_clean = now  # Kafka restarts its cleaner threads with the new backoff: a pass now
                if now >= next_clean and cfg.log_cleaner_enable and (cleaning is None or cleaning.done()):
                    next_clean = now + backoff
                    if b.has_compacted_logs():
                        clean = b.log_manager.clean_once
                        if self.http is not None:  # the pass's time for the cleaner metrics
                            clean = functools.partial(self.http.log_stats.timed_clean, clean)
                        cleaning = asyncio.ensure_future(self.loop.run_in_executor(None, clean, now))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("periodic task failed")

    def _cleaner_backoff_ms(self) -> int:
        """log.cleaner.backoff.ms, dynamic as on Kafka (IncrementalAlterConfigs on this broker or the default)."""
        return dynamic_broker_long(self.broker.image.broker_configs, self.config.node_id, "log.cleaner.backoff.ms",
                                   self.config.log_cleaner_backoff_ms)

    def _expire_quota_sensors(self, now: int) -> None:
        """Clients gone for an hour leave the quota sensors and the throttle-time metric."""
        if self.client_quotas is not None:
            self.client_quotas.expire(now)
        if self.request_stats is not None:
            self.request_stats.throttles.expire(now, SENSOR_EXPIRY_MS)

    def _close_idle(self, now: int) -> None:
        limit = self.config.connections_max_idle_ms
        if limit < 0:
            return
        for conn in list(self.connections):
            if conn.idle_since_ms is not None and now - conn.idle_since_ms > limit:
                log.debug("closing idle connection %s", conn.name)
                conn.close()


def _log_failure(done: asyncio.Future) -> None:
    """A background pass's failure, logged as the periodic loop's own (the next pass tries again)."""
    if not done.cancelled() and done.exception() is not None:
        log.error("periodic task failed", exc_info=done.exception())


def freeze_start_up_heap() -> None:
    """What start-up made (modules, configs, the image, every loaded log) lives as long as the process:
    collected once, then moved out of the garbage collector's generations (gc.freeze), so that no
    full collection scans it again. A full collection walks every tracked object, and holds the event
    loop while it does (20-90 ms in a fresh broker once 5,000 topics were created, more with a
    larger heap at start: issue 27 fairness). Cyclic garbage among frozen objects is never freed;
    a deleted partition's log leaves none (refcounting frees it: tests/broker/test_frozen_heap.py)."""
    gc.collect()
    gc.freeze()


async def _main(config, http_mounts: tuple[HttpMount, ...]) -> int:
    server = BrokerServer(config, http_mounts, freeze_heap=True)
    loop = asyncio.get_running_loop()
    try:
        await server.start()
    except ConfigError as e:
        print(f"odradek: configuration error: {e}", file=sys.stderr, flush=True)
        if server.http is not None:
            server.http.close()
        return 2
    except (OSError, RuntimeError) as e:
        print(f"odradek: cannot start: {e}", file=sys.stderr, flush=True)
        if server.server is not None:
            server.server.close()
        if server.broker is not None and server.broker.log_manager is not None:
            server.broker.close()
        return 1
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, server.stop)
    host = config.listener.host or "0.0.0.0"
    all_written()
    print(f"odradek ready on {host}:{server.port} (advertised {server.broker.advertised_host}:"
          f"{server.broker.advertised_port}, node {config.node_id}, data {os.path.abspath(config.data_dir)})",
          flush=True)
    await server.wait_stopped()
    await server.close()
    all_written()
    try:
        print("odradek stopped", flush=True)
    except OSError:
        pass
    return 0


def run(config, http_mounts: tuple[HttpMount, ...] = ()) -> int:
    return run_event_loop(_main(config, http_mounts))


def run_event_loop(main) -> int:
    """Run a process's main coroutine, on uvloop when it is installed (ODRADEK_NO_UVLOOP=1: asyncio's)."""
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(formatter(os.environ.get("ODRADEK_LOG_FORMAT", "text")))
    handler = ThreadedLogHandler(stderr)  # (the loop does not wait for stderr)
    logging.basicConfig(level=os.environ.get("ODRADEK_LOG_LEVEL", "INFO").upper(), handlers=[handler])
    try:
        import uvloop
    except ImportError:
        uvloop = None
    try:
        if uvloop is not None and os.environ.get("ODRADEK_NO_UVLOOP") != "1":
            return uvloop.run(main)
        return asyncio.run(main)
    finally:
        handler.close()
