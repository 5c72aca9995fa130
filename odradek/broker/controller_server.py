"""The controller side of a cluster node: the Raft driver of the metadata log and, on a
controller, the CONTROLLER listener (Kafka's ControllerServer + ControllerApis).

Every node runs the metadata log on Raft (broker/raft_driver.py): controllers are
voters, brokers observers that fetch from the leader; committed batches are applied
to the node's Controller (the image). On a controller the CONTROLLER listener serves
the raft RPCs, DescribeQuorum, BrokerRegistration, BrokerHeartbeat and the admin
writes. The active controller (the Raft leader once its LeaderChange record is
applied) decides one write at a time and answers once the records are committed;
the others answer NOT_CONTROLLER. It also bootstraps a fresh cluster and fences
brokers whose heartbeats stopped.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from odradek.api_handlers import authorization
from odradek.api_handlers import describe_cluster as dc
from odradek.api_handlers.error_responses import top_level_error
from odradek.api_handlers.context import RequestContext, Stepped
from odradek.broker import envelope
from odradek.broker.controller_api import (
    ADMIN_WRITES, ALLOCATE_PRODUCER_IDS, ALTER_PARTITION, ASSIGN_REPLICAS_TO_DIRS, BROKER_HEARTBEAT,
    BROKER_REGISTRATION, DESCRIBE_QUORUM, NOT_CONTROLLER,
    ControllerApi, delayed, not_controller_response,
)
from odradek.broker.socket_buffers import set_receive_buffer
from odradek.broker.coordinator_log import PendingWrites
from odradek.broker.node_link import node_link
from odradek.broker.sasl_gate import SASL_AUTHENTICATE, SASL_HANDSHAKE
from odradek.config import listener_protocol
from odradek.broker.host_resolver import host_resolves
from odradek.broker.purgatory import Purgatory
from odradek.broker.raft_driver import TICK_MS, RaftDriver
from odradek.broker.services import ControllerMetadata
from odradek.broker.session_fencing import CHECK_S as FENCE_CHECK_S, SessionFencer
from odradek.controller.acls import CLUSTER, CLUSTER_ACTION, CLUSTER_NAME
from odradek.controller.admin_writes import WriteSession
from odradek.controller.broker_heartbeats import BrokerHeartbeats
from odradek.controller.decisions import BrokerRegistration
from odradek.controller.producer_ids import ProducerIdControl, answer_when_applied
from odradek.controller.replication_control import MAX_ELECTIONS, IsrUpdate
from odradek.controller.records import encode_record
from odradek.controller.result import Commit, Written, committed_as_proposed
from odradek.raft import rpc
from odradek.raft.codec import Prepared
from odradek.raft.quorum_state import Leader
from odradek.raft.types import NotLeaderError, RaftConfig
from odradek.security.quotas import SENSOR_EXPIRY_CHECK_MS, ClientQuotas
from odradek.wire.api import response_class
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import (
    allocate_producer_ids_response as aipr, alter_partition_response as apr,
    assign_replicas_to_dirs_response as ard, broker_heartbeat_response as bhr,
    broker_registration_response as brr,
)
from odradek.wire.messages.describe_cluster_response import DescribeClusterBroker, DescribeClusterResponse

log = logging.getLogger("odradek.quorum")

WRITE_TIMEOUT_S = 10.0
# How long a leader parks a follower's or observer's Fetch that finds nothing new (the max_wait_ms the
# Fetch asks for): Kafka's KafkaRaftClient fetchMaxWaitMs, 500 ms. An idle quorum then answers 2 fetches
# a second per node, not 5 (200 ms, 4 ticks, RaftConfig's default for the simulations).
FETCH_MAX_WAIT_MS = 500
ENDPOINT_CONTROLLER = 2  # DescribeCluster's EndpointType

if TYPE_CHECKING:
    from odradek.broker.listeners import ServedListener
    from odradek.security.sasl import SaslSession


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class RaftMetadataDriver:
    """The metadata driver of a Raft quorum: the active controller proposes a batch and
    gets its Commit at once; the batch reaches the image once committed (apply_batch)."""

    def __init__(self, server: ControllerServer):
        self._server = server

    def propose(self, records: list, now_ms: int, prepared: Prepared | None = None) -> Commit:
        s = self._server
        if not s.active:
            n = s.driver.node
            raise NotLeaderError(n.leader_id, n.epoch)
        values = prepared if prepared is not None else [encode_record(r) for r in records]
        return Commit(s.driver.propose(values, now_ms), applied=False,
                      epoch=s.driver.node.epoch)


class ControllerServer:
    def __init__(self, config, controller, cluster_id: str):
        self.config = config
        self.node_id = config.node_id
        roles = set(config.process_roles)
        self.is_controller = "controller" in roles
        self.is_broker = "broker" in roles
        self.controller = controller
        self.cluster_id = cluster_id
        self.voters = {vid: (h, p) for vid, h, p in config.controller_quorum_voters}
        # this node's client side of the controller listener (raft peers, broker -> controller): TLS, SASL
        self.controller_link = node_link(config, config.controller_listener_names[0],
                                         config.sasl_mechanism_controller_protocol)
        self.metadata_dir = config.metadata_dir
        self.clock_ms = _now_ms
        self.broker = self  # the CONTROLLER listener's connections take the purgatory and services from here
        self.services = None  # api_handlers.ports.Services of the CONTROLLER listener
        self.registry: dict = {}
        self.purgatory = None
        self.coordinator_writes = PendingWrites()  # none here: no coordinator on this listener
        self.coordinator_events = None
        self.driver = None
        self.server = None
        self.connections: set = set()
        self.faults = None  # no injected faults nor request trace on the CONTROLLER listener (odradek/testing)
        self.control = None  # its pause and test network: the node's NodeControl (broker/quorum.py)
        self.trace = None
        self.request_stats = None  # the CONTROLLER listener's requests are not in the metrics (yet)
        self.client_quotas = None  # nor under client quotas
        self.mutation_quotas: ClientQuotas | None = None  # the admin writes' controller_mutation_rate, from start()
        self.topic_stats = None
        self._was_active = False
        self._heartbeats = BrokerHeartbeats(config.broker_session_timeout_ms)
        self._producer_ids = ProducerIdControl()
        self._write_lock = None
        self._tasks: list = []

    # ------------------------------------------------------------ start-up / shutdown
    def sasl_session(self, listener: ServedListener | None = None) -> SaslSession | None:
        """A SASL controller listener's exchange with a connecting node (PLAIN, as its users say)."""
        if listener is None:
            return None
        return listener.sasl_session(self.config, self.controller.image.scram_credentials)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        os.makedirs(self.metadata_dir, exist_ok=True)
        self.purgatory = Purgatory(_now_ms, loop.call_later)
        from odradek.broker.services import controller_services

        self.services = controller_services(self, lambda ctx, req: self.describe_quorum(ctx.now_ms))
        cfg = self.config
        # the client quotas this controller applies to the admin writes it decides (controller_mutation_rate)
        self.mutation_quotas = ClientQuotas(lambda: self.controller.image.client_quotas,
                                            cfg.quota_window_size_seconds * 1000, cfg.quota_window_num)
        self.services.mutation_quota = self.mutation_quotas.mutation_quota
        self._write_lock = asyncio.Lock()
        cfg = self.config
        rc = RaftConfig(
            election_timeout=max(2, cfg.controller_quorum_election_timeout_ms // TICK_MS),
            fetch_timeout=max(4, cfg.controller_quorum_fetch_timeout_ms // TICK_MS),
            request_timeout=max(2, min(cfg.controller_quorum_request_timeout_ms, 300) // TICK_MS),
            fetch_max_wait=FETCH_MAX_WAIT_MS // TICK_MS,
            tick_ms=TICK_MS,
            cluster_id=self.cluster_id)
        self.driver = RaftDriver(self.node_id, self.voters, self.metadata_dir, rc, self,
                                 cfg.metadata_log_max_record_bytes_between_snapshots, link=self.controller_link,
                                 apply_faults_fatal=self.is_controller)  # (Kafka: a controller's replay fault is fatal)
        self.controller.attach_quorum(RaftMetadataDriver(self), self.cluster_id, self.driver.node)
        if self.is_controller:
            from odradek.broker.connection import KafkaConnection

            from odradek.broker.listeners import served_listener

            lst = cfg.controller_listener
            self.registry = self._registry()
            served = served_listener(cfg, lst, advertised=False)  # SSL: its certificate principals too
            self.server = await loop.create_server(lambda: KafkaConnection(self, None, served), lst.host or None,
                                                   lst.port, reuse_address=True, ssl=served.tls)
            for sock in self.server.sockets:
                set_receive_buffer(sock, cfg)
            log.info("Awaiting socket connections on %s:%d (controller listener %s).", lst.host or "0.0.0.0",
                     self.server.sockets[0].getsockname()[1], lst.name)
        self.driver.start()
        self._tasks.append(loop.create_task(self._fence_expired_sessions()))
        self._tasks.append(loop.create_task(self._expire_mutation_quotas()))
        if cfg.auto_leader_rebalance_enable:
            self._tasks.append(loop.create_task(self._every(cfg.leader_imbalance_check_interval_seconds * 1000,
                                                            "balance_leaders", lambda d: d.balance_leaders())))
        self._tasks.append(loop.create_task(self._every(cfg.unclean_leader_election_interval_ms,
                                                        "elect_unclean_leaders", lambda d: d.elect_unclean_leaders())))

    async def close(self) -> None:
        from odradek.broker.server import stop_serving

        stop_serving(self._tasks, self.server, self.connections)
        if self.driver is not None:
            self.driver.close()
            await asyncio.sleep(0.05)  # let EndQuorumEpoch go out

    # ------------------------------------------------------------ the state machine (RaftDriver)
    def apply_batch(self, base_offset, values) -> None:
        self.controller.apply_batch(base_offset, values)

    def apply_batch_steps(self, base_offset, values):
        return self.controller.apply_batch_steps(base_offset, values)

    def restore_snapshot(self, data, end_offset) -> None:
        self.controller.restore_snapshot(data, end_offset)

    def snapshot_bytes(self, end_offset) -> bytes:
        return self.controller.snapshot_bytes(end_offset)

    def snapshot_ready(self) -> bool:
        return not self.controller.in_transaction

    def on_change(self) -> None:
        n = self.driver.node
        # Kafka brokers name a broker as "controller" (clients cannot reach controllers).
        self.controller.set_controller_id(self.node_id if self.is_broker else n.leader_id)
        active = self.active
        if active and not self._was_active:
            self._was_active = True
            self._heartbeats.reset(self.controller.image.brokers.values(), _now_ms())
            log.info("node %d: active controller in epoch %d", self.node_id, n.epoch)
            if not self.controller.image.features:
                asyncio.get_running_loop().create_task(self._bootstrap())
        elif not active:
            self._was_active = False

    @property
    def active(self) -> bool:
        """Leader, with its LeaderChange record (so every earlier one) applied."""
        n = self.driver.node if self.driver is not None else None
        return (n is not None and isinstance(n.state, Leader)
                and self.driver.applied > n.state.epoch_start_offset)

    @property
    def leader_id(self) -> int:
        return self.driver.node.leader_id

    def caught_up(self) -> bool:
        """This node leads, or has applied what the leader last said was committed."""
        hw = self.driver.leader_hw
        return self.active or (hw >= 0 and self.driver.applied >= hw)

    # ------------------------------------------------------------ writes
    async def _write(self, decide) -> tuple[Written, bool]:
        """Run a decision on the active controller; wait until its records are applied.
        -> (what was written, whether it is applied within WRITE_TIMEOUT_S)."""
        written = self.controller.write(decide, False, _now_ms())
        return written, await self._applied(written.commit)

    async def _applied(self, commit: Commit) -> bool:
        """Whether ``commit``'s batch is applied: its offset reached within WRITE_TIMEOUT_S, with the
        batch proposed there (not other records a new leader committed at the same offset)."""
        if commit.applied:
            return True
        try:
            async with asyncio.timeout(WRITE_TIMEOUT_S):  # not wait_for (see controller_channel.call)
                await self.driver.wait_applied(commit.last_offset)
        except asyncio.TimeoutError:
            return False
        n = self.driver.node
        if committed_as_proposed(commit, n.log.epoch_at(commit.last_offset), n.epoch):
            return True
        log.info("metadata write at offset %d (epoch %d) was replaced by a new leader's records",
                 commit.last_offset, commit.epoch)
        return False

    def _log_end(self) -> Commit:
        """Everything this node's metadata log holds, as a Commit to wait for."""
        last = self.driver.node.log.end_offset - 1
        return Commit(last, applied=self.driver.applied > last)

    async def _bootstrap(self) -> None:
        async with self._write_lock:
            if self.active and not self.controller.image.features:
                await self._write(lambda d: d.bootstrap(self.controller.bootstrap_records))

    async def _fence_expired_sessions(self) -> None:
        """Active controller: fence brokers whose heartbeats stopped (broker.session.timeout.ms),
        one at a time as Kafka, each fence moving the broker's leaderships and ISR places."""
        fencer = SessionFencer(self._heartbeats, self._unfenced_brokers, self._fence, _now_ms)
        while True:
            await asyncio.sleep(FENCE_CHECK_S)
            if self.active:
                await fencer.fence_expired()

    def _unfenced_brokers(self) -> list[int]:
        return [b.node_id for b in self.controller.image.brokers.values() if not b.fenced]

    async def _fence(self, broker_id: int) -> bool:
        async with self._write_lock:
            if not self.active:
                return False
            log.info("Fencing broker %d because its session has timed out.", broker_id)
            await self._write(lambda d: d.fence([broker_id]))
            self._heartbeats.touch(broker_id, _now_ms(), -1, True)
        return True

    async def _expire_mutation_quotas(self) -> None:
        """Clients gone for an hour leave the controller mutation quota's buckets, as the broker's
        quota sensors (Kafka's ControllerMutationQuotaManager expires them as its other sensors)."""
        while True:
            await asyncio.sleep(SENSOR_EXPIRY_CHECK_MS / 1000)
            if self.mutation_quotas is not None:
                self.mutation_quotas.expire(_now_ms())

    async def _every(self, interval_ms: int, what: str, decide) -> None:
        """Active controller: run a periodic election pass (preferred leaders, unclean
        elections); again at once while a pass hits its election limit."""
        while True:
            await asyncio.sleep(interval_ms / 1000)
            while self.active:
                async with self._write_lock:
                    if not self.active:
                        break
                    written, _ = await self._write(decide)
                if written.response:
                    log.info("%s: generated %d records.", what, written.response)
                if written.response < MAX_ELECTIONS:
                    break

    # ------------------------------------------------------------ the controller's APIs
    async def answer(self, api_key: int, version: int, req, on_behalf: RequestContext | None = None):
        """A request from this node's own broker side, answered as the CONTROLLER listener would
        (``on_behalf``: a client's admin write, decided with its principal, client id and address)."""
        if api_key == BROKER_REGISTRATION:
            return await self.register_broker(req)
        if api_key == BROKER_HEARTBEAT:
            return await self.broker_heartbeat(req)
        if api_key == ALTER_PARTITION:
            return await self.alter_partition(req, version)
        if api_key == ALLOCATE_PRODUCER_IDS:
            return await self.allocate_producer_ids(req)
        if api_key == DESCRIBE_QUORUM:
            return self.describe_quorum(_now_ms())
        from odradek.api_handlers import REGISTRY

        ctx = RequestContext(api_key=api_key, api_version=version, correlation_id=0, client_id="local",
                             now_ms=_now_ms(), services=self.services, principal=None, resolve_host=host_resolves)
        if on_behalf is not None:
            ctx = replace(ctx, correlation_id=on_behalf.correlation_id, client_id=on_behalf.client_id,
                          client_host=on_behalf.client_host, header=on_behalf.header, principal=on_behalf.principal)
        return await self.admin_write(REGISTRY[api_key], ctx, req)

    def _registry(self) -> dict:
        from odradek.api_handlers import REGISTRY

        reg = {}

        def raft(ctx, req):
            refused = None
            if not authorization.allowed(ctx, CLUSTER_ACTION, CLUSTER, CLUSTER_NAME):  # as Kafka's ControllerApis
                refused = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            elif not rpc.names_one_partition(req):
                refused = ErrorCode.INVALID_REQUEST
            if refused is not None:
                return top_level_error(response_class(ctx.api_key))(ctx.api_version, req, refused, None)
            return delayed(ctx, self.driver.step_request(req))

        for cls in (rpc.VoteRequest, rpc.BeginQuorumEpochRequest, rpc.EndQuorumEpochRequest,
                    rpc.FetchRequest, rpc.FetchSnapshotRequest):
            lo, hi = cls.VALID_VERSIONS
            reg[cls.API_KEY] = ControllerApi(cls.API_KEY, max(lo, 12) if cls is rpc.FetchRequest else lo, hi, raft)
        for key in ADMIN_WRITES:
            mod = REGISTRY[key]
            reg[key] = ControllerApi(key, mod.MIN_VERSION, mod.MAX_VERSION, lambda ctx, req, mod=mod: delayed(
                ctx, asyncio.ensure_future(self.admin_write(mod, ctx, req))))
        reg[32] = REGISTRY[32]  # DescribeConfigs: read-only
        if any(listener_protocol(self.config, n) in ("SASL_PLAINTEXT", "SASL_SSL")
               for n in self.config.controller_listener_names):  # a SASL controller listener (sasl_gate.py)
            reg[SASL_HANDSHAKE] = REGISTRY[SASL_HANDSHAKE]
            reg[SASL_AUTHENTICATE] = REGISTRY[SASL_AUTHENTICATE]
        reg[DESCRIBE_QUORUM] = ControllerApi(DESCRIBE_QUORUM, 0, 2, lambda ctx, req: self.describe_quorum(ctx.now_ms))
        reg[BROKER_REGISTRATION] = ControllerApi(BROKER_REGISTRATION, 0, 4, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.register_broker(req))))
        reg[BROKER_HEARTBEAT] = ControllerApi(BROKER_HEARTBEAT, 0, 2, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.broker_heartbeat(req))))
        reg[ALTER_PARTITION] = ControllerApi(ALTER_PARTITION, 2, 3, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.alter_partition(req, ctx.api_version))))
        reg[dc.API_KEY] = ControllerApi(dc.API_KEY, dc.MIN_VERSION, dc.MAX_VERSION, self.describe_cluster)
        reg[envelope.ENVELOPE] = ControllerApi(envelope.ENVELOPE, 0, 0, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.envelope(ctx, req))))
        reg[ASSIGN_REPLICAS_TO_DIRS] = ControllerApi(ASSIGN_REPLICAS_TO_DIRS, 0, 0, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.assign_replicas_to_dirs(req))))
        reg[ALLOCATE_PRODUCER_IDS] = ControllerApi(ALLOCATE_PRODUCER_IDS, 0, 0, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.allocate_producer_ids(req))))
        reg[18] = ControllerApi(18, 0, 4, self._api_versions)
        return reg

    def _api_versions(self, ctx, req):
        from odradek.api_handlers import api_versions as av
        from odradek.wire.messages.api_versions_response import ApiVersion

        keys = [ApiVersion(api_key=k, min_version=m.MIN_VERSION, max_version=m.MAX_VERSION)
                for k, m in sorted(self.registry.items())]
        resp = av.handle(ctx, req)
        if resp.error_code == 0:
            resp.api_keys = keys
        return resp

    def describe_cluster(self, ctx, req):
        """DescribeCluster sent to a controller (a client with bootstrap.controllers, e.g.
        kafka-metadata-quorum --bootstrap-controller): the controllers, each at its CONTROLLER listener,
        and the Raft leader as controller id (Kafka's ControllerApis; the voters stand for the
        controllers' registrations). A request for brokers gets MISMATCHED_ENDPOINT_TYPE."""
        if ctx.api_version >= 1 and req.endpoint_type != ENDPOINT_CONTROLLER:
            return DescribeClusterResponse(
                error_code=ErrorCode.MISMATCHED_ENDPOINT_TYPE, endpoint_type=ENDPOINT_CONTROLLER, cluster_id="",
                error_message="The request was sent to an endpoint of type CONTROLLER, but we wanted an endpoint "
                              "of type BROKER",
                controller_id=-1, brokers=[], cluster_authorized_operations=dc.INT32_MIN)
        return DescribeClusterResponse(
            error_code=0, endpoint_type=ENDPOINT_CONTROLLER, cluster_id=self.cluster_id,
            controller_id=self.driver.node.leader_id,
            brokers=[DescribeClusterBroker(broker_id=v, host=h, port=p, rack=None, is_fenced=False)
                     for v, (h, p) in sorted(self.voters.items())],
            cluster_authorized_operations=(dc.CLUSTER_OPERATIONS if req.include_cluster_authorized_operations
                                           else dc.INT32_MIN))

    def describe_quorum(self, now_ms: int):
        from odradek.api_handlers.describe_quorum import from_node

        name = self.config.controller_listener_names[0]
        self.driver.catch_up()  # the replicas' last fetch times are counted in the core's ticks
        return from_node(self.driver.node, now_ms, TICK_MS,  # (and those a write holds back: ticks_behind)
                         {v: (name, h, p) for v, (h, p) in self.voters.items()}, self.driver.ticks_behind())

    async def admin_write(self, mod, ctx, req):
        """An admin write's handler, run on the active controller with a metadata port that
        keeps each write's Commit; answered once the last of them is applied."""
        async with self._write_lock:
            if not self.active:
                return not_controller_response(ctx.api_key, ctx.api_version, req)
            session = WriteSession(self.controller)
            ctx = replace(ctx, services=replace(ctx.services, metadata=ControllerMetadata(session)))
            try:
                resp = mod.handle(ctx, req)
                while isinstance(resp, Stepped):  # a large write: other requests are served between its steps
                    await asyncio.sleep(0)
                    if not self.active:
                        return not_controller_response(ctx.api_key, ctx.api_version, req)
                    done = resp.step(_now_ms())
                    if done is not None:
                        resp = done
            except NotLeaderError:
                return not_controller_response(ctx.api_key, ctx.api_version, req)
            commit = session.last_commit()
            if not commit.written:
                # as Kafka's controller: a write without records completes at the highest
                # offset already written (an earlier write that timed out, say)
                commit = self._log_end()
            if not await self._applied(commit):
                return not_controller_response(ctx.api_key, ctx.api_version, req)
            return resp

    async def envelope(self, ctx, req):
        """Envelope from a broker (an Apache Kafka broker forwards its clients' admin writes in one):
        the inner request handled as this listener handles it, from the client's address, and its
        response wrapped (a NOT_CONTROLLER inside tells the broker to find the active controller)."""
        from odradek.api_handlers import REGISTRY
        from odradek.wire.messages.envelope_response import EnvelopeResponse

        inner = envelope.unwrap(req, ADMIN_WRITES)
        if isinstance(inner, int):
            return EnvelopeResponse(error_code=inner)
        h = inner.header
        mod = REGISTRY[h.request_api_key]
        if not mod.MIN_VERSION <= h.request_api_version <= mod.MAX_VERSION:
            return EnvelopeResponse(error_code=ErrorCode.UNSUPPORTED_VERSION)
        ictx = replace(ctx, api_key=h.request_api_key, api_version=h.request_api_version,
                       correlation_id=h.correlation_id, client_id=h.client_id, client_host=inner.client_host,
                       header=h, now_ms=_now_ms(),
                       principal=f"{inner.principal.type}:{inner.principal.name}")
        return envelope.wrap(h, await self.admin_write(mod, ictx, inner.body))

    async def register_broker(self, req):
        async with self._write_lock:
            if not self.active:
                return brr.BrokerRegistrationResponse(error_code=NOT_CONTROLLER)
            epoch = self.driver.node.log.end_offset  # the offset of the record = the broker epoch (as Kafka)
            lst = [lst for lst in req.listeners if lst.name != "CONTROLLER"] or req.listeners
            reg = BrokerRegistration(
                req.broker_id, req.incarnation_id, [(x.name, x.host, x.port, x.security_protocol) for x in lst],
                {f.name: (f.min_supported_version, f.max_supported_version) for f in req.features},
                req.rack, cluster_id=req.cluster_id, previous_broker_epoch=req.previous_broker_epoch,
                log_dirs=tuple(req.log_dirs or ()))
            now = _now_ms()
            valid = self._heartbeats.has_valid_session(req.broker_id, now)
            written, applied = await self._write(lambda d: d.register_broker(reg, epoch, has_valid_session=valid))
            if written.response:
                return brr.BrokerRegistrationResponse(error_code=written.response)
            if not applied:
                return brr.BrokerRegistrationResponse(error_code=ErrorCode.REQUEST_TIMED_OUT)
            b = self.controller.image.brokers.get(req.broker_id)
            if b is None or b.fenced:
                self._heartbeats.registered(req.broker_id, _now_ms())
            log.info("Registered broker %d (incarnation %s): broker epoch %d.", req.broker_id,
                     req.incarnation_id.hex(), b.epoch if b else epoch)
            return brr.BrokerRegistrationResponse(error_code=0, broker_epoch=b.epoch if b else epoch)

    async def broker_heartbeat(self, req):
        if not self.active:
            return bhr.BrokerHeartbeatResponse(error_code=NOT_CONTROLLER)
        hb = self._heartbeats
        bid = req.broker_id
        b = self.controller.image.brokers.get(bid)
        if b is not None and b.epoch == req.broker_epoch:
            hb.contact(bid, _now_ms())  # as it comes in (Kafka's trackBrokerHeartbeat), before any write

        def decide(d):
            return d.broker_heartbeat(bid, req.broker_epoch, req.current_metadata_offset, req.want_fence,
                                      req.want_shut_down, hb.shutdown_offset_reached(bid), req.offline_log_dirs)

        first = decide(self.controller.decisions())
        reply = first.response
        if reply.error_code:
            return bhr.BrokerHeartbeatResponse(error_code=reply.error_code)
        if first.records:  # a state change: decide again under the write lock
            async with self._write_lock:
                if not self.active:
                    return bhr.BrokerHeartbeatResponse(error_code=NOT_CONTROLLER)
                written, _ = await self._write(decide)
                reply = written.response
                if reply.error_code:
                    return bhr.BrokerHeartbeatResponse(error_code=reply.error_code)
                if reply.in_controlled_shutdown and written.commit.written:
                    hb.entered_controlled_shutdown(bid, written.commit.last_offset)
        hb.touch(bid, _now_ms(), req.current_metadata_offset, reply.is_fenced)
        return bhr.BrokerHeartbeatResponse(error_code=0, is_caught_up=reply.is_caught_up, is_fenced=reply.is_fenced,
                                           should_shut_down=reply.should_shut_down)

    async def alter_partition(self, req, version: int):
        """AlterPartition (v2-3) from a partition leader: ISR changes written as
        PartitionChangeRecords; answered once they are applied."""
        if not self.active:
            return apr.AlterPartitionResponse(error_code=NOT_CONTROLLER)
        topics = [(t.topic_id, [IsrUpdate(
            p.partition_index, p.leader_epoch, p.partition_epoch,
            [(b.broker_id, b.broker_epoch) for b in p.new_isr_with_epochs] if version >= 3
            else [(b, -1) for b in p.new_isr], p.leader_recovery_state) for p in t.partitions])
            for t in req.topics]
        async with self._write_lock:
            if not self.active:
                return apr.AlterPartitionResponse(error_code=NOT_CONTROLLER)
            written, applied = await self._write(lambda d: d.alter_partition(req.broker_id, req.broker_epoch, topics))
        if not applied:
            return apr.AlterPartitionResponse(error_code=NOT_CONTROLLER)
        code, results = written.response
        return apr.AlterPartitionResponse(error_code=code, topics=[apr.TopicData(topic_id=tid, partitions=[
            apr.PartitionData(partition_index=r.partition, error_code=r.error_code)
            if r.partition_image is None else apr.PartitionData(
                partition_index=r.partition, error_code=0, leader_id=r.partition_image.leader,
                leader_epoch=r.partition_image.leader_epoch, isr=list(r.partition_image.isr),
                leader_recovery_state=r.partition_image.leader_recovery_state,
                partition_epoch=r.partition_image.partition_epoch)
            for r in rs]) for tid, rs in results])

    async def assign_replicas_to_dirs(self, req):
        """AssignReplicasToDirs (KIP-858) from a broker: where its replicas live, written as
        PartitionChangeRecords (directories); answered once they are applied."""
        if not self.active:
            return ard.AssignReplicasToDirsResponse(error_code=NOT_CONTROLLER)
        dirs = [(d.id, [(t.topic_id, [p.partition_index for p in t.partitions]) for t in d.topics])
                for d in req.directories]
        async with self._write_lock:
            if not self.active:
                return ard.AssignReplicasToDirsResponse(error_code=NOT_CONTROLLER)
            written, applied = await self._write(
                lambda d: d.assign_replicas_to_dirs(req.broker_id, req.broker_epoch, dirs))
        if not applied:
            return ard.AssignReplicasToDirsResponse(error_code=NOT_CONTROLLER)
        code, results = written.response
        return ard.AssignReplicasToDirsResponse(error_code=code, directories=[ard.DirectoryData(id=dir_id, topics=[
            ard.TopicData(topic_id=tid, partitions=[ard.PartitionData(partition_index=i, error_code=e)
                                                    for i, e in errs])
            for tid, errs in topics]) for dir_id, topics in results])

    async def allocate_producer_ids(self, req):
        """AllocateProducerIds from a broker: the next block of producer ids, written as a
        ProducerIdsRecord and answered once it is applied (controller/producer_ids.py)."""
        if not self.active:
            return aipr.AllocateProducerIdsResponse(error_code=NOT_CONTROLLER)
        async with self._write_lock:
            if not self.active:
                return aipr.AllocateProducerIdsResponse(error_code=NOT_CONTROLLER)
            written, applied = await self._write(
                lambda d: self._producer_ids.allocate(d.image, req.broker_id, req.broker_epoch))
        a = answer_when_applied(written.response, applied)
        if a.error_code:
            return aipr.AllocateProducerIdsResponse(error_code=a.error_code)
        log.info("Allocated producer ids %d..%d to broker %d (epoch %d).", a.block.first, a.block.last,
                 req.broker_id, req.broker_epoch)
        return aipr.AllocateProducerIdsResponse(error_code=0, producer_id_start=a.block.first,
                                                producer_id_len=a.block.size)
