"""One process of a multi-node KRaft cluster (process.roles = broker and/or controller).

- The metadata log runs on Raft (broker/raft_driver.py): controllers are voters,
  brokers observers that fetch from the leader. Every node applies committed records
  to its Controller's MetadataImage.
- Controllers serve the CONTROLLER listener: the raft RPCs (Vote, BeginQuorumEpoch,
  EndQuorumEpoch, Fetch, FetchSnapshot), DescribeQuorum, BrokerRegistration and
  BrokerHeartbeat, and the admin writes (CreateTopics, ...). The active controller
  (the Raft leader once its LeaderChange record is applied) decides one write at a
  time and answers once the records are committed; other controllers answer
  NOT_CONTROLLER.
- Brokers register with the active controller, heartbeat, and forward the admin
  requests they get from clients to it, relaying the response (Kafka clients see a
  broker that creates topics).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import sys
import time
import uuid

from odradek.api_handlers.common import CLOSE_CONNECTION
from odradek.api_handlers.context import Delayed, RequestContext
from odradek.broker.host_resolver import host_resolves
from odradek.broker.purgatory import Purgatory
from odradek.broker.raft_driver import TICK_MS, PeerChannel, RaftDriver
from odradek.controller.decisions import BrokerRegistration
from odradek.controller.records import encode_record
from odradek.controller.result import Commit, Written
from odradek.raft import rpc
from odradek.raft.quorum_state import Leader
from odradek.raft.types import NotLeaderError, RaftConfig
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import (
    alter_client_quotas_response as acqr, alter_user_scram_credentials_response as ausr,
    alter_configs_response as acr, broker_heartbeat_request as bhq, broker_heartbeat_response as bhr,
    broker_registration_request as brq, broker_registration_response as brr, create_partitions_response as cpr,
    create_topics_request as ctq, create_topics_response as ctr, delete_topics_response as dtr,
    incremental_alter_configs_response as iacr, update_features_response as ufr,
)

log = logging.getLogger("odradek.quorum")

CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 19, 20, 37, 33, 44
ALTER_CLIENT_QUOTAS, ALTER_USER_SCRAM_CREDENTIALS, UPDATE_FEATURES = 49, 51, 57
ADMIN_WRITES = (CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS,
                ALTER_CLIENT_QUOTAS, ALTER_USER_SCRAM_CREDENTIALS, UPDATE_FEATURES)
DESCRIBE_QUORUM, BROKER_REGISTRATION, BROKER_HEARTBEAT = 55, 62, 63
NOT_CONTROLLER = int(ErrorCode.NOT_CONTROLLER)
WRITE_TIMEOUT_S = 10.0


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def cluster_id_for(config) -> str:
    """The cluster id every node derives from the voter set (no `kafka-storage format`
    step): the same controller.quorum.voters gives the same id."""
    import base64

    key = ",".join(f"{i}@{h}:{p}" for i, h, p in sorted(config.controller_quorum_voters))
    return base64.urlsafe_b64encode(hashlib.sha256(key.encode()).digest()[:16]).decode().rstrip("=")


def not_controller_response(api_key: int, req):
    e = NOT_CONTROLLER
    if api_key == CREATE_TOPICS:
        return ctr.CreateTopicsResponse(topics=[ctr.CreatableTopicResult(name=t.name, error_code=e)
                                                for t in req.topics])
    if api_key == DELETE_TOPICS:
        names = [t.name for t in req.topics] if getattr(req, "topics", None) else list(req.topic_names or [])
        return dtr.DeleteTopicsResponse(responses=[dtr.DeletableTopicResult(name=n, error_code=e) for n in names])
    if api_key == CREATE_PARTITIONS:
        return cpr.CreatePartitionsResponse(results=[cpr.CreatePartitionsTopicResult(name=t.name, error_code=e)
                                                     for t in req.topics])
    if api_key == ALTER_CONFIGS:
        return acr.AlterConfigsResponse(responses=[acr.AlterConfigsResourceResponse(
            error_code=e, resource_type=r.resource_type, resource_name=r.resource_name) for r in req.resources])
    if api_key == INCREMENTAL_ALTER_CONFIGS:
        return iacr.IncrementalAlterConfigsResponse(responses=[iacr.AlterConfigsResourceResponse(
            error_code=e, resource_type=r.resource_type, resource_name=r.resource_name) for r in req.resources])
    if api_key == ALTER_CLIENT_QUOTAS:
        return acqr.AlterClientQuotasResponse(entries=[acqr.EntryData(error_code=e, entity=[
            acqr.EntityData(entity_type=x.entity_type, entity_name=x.entity_name) for x in entry.entity])
            for entry in req.entries])
    if api_key == ALTER_USER_SCRAM_CREDENTIALS:
        users = [u.name for u in req.deletions] + [u.name for u in req.upsertions]
        return ausr.AlterUserScramCredentialsResponse(results=[
            ausr.AlterUserScramCredentialsResult(user=u, error_code=e) for u in dict.fromkeys(users)])
    if api_key == UPDATE_FEATURES:
        return ufr.UpdateFeaturesResponse(error_code=e, results=[
            ufr.UpdatableFeatureResult(feature=f.feature, error_code=e) for f in req.feature_updates])
    if api_key == BROKER_REGISTRATION:
        return brr.BrokerRegistrationResponse(error_code=e)
    if api_key == BROKER_HEARTBEAT:
        return bhr.BrokerHeartbeatResponse(error_code=e)
    if api_key == DESCRIBE_QUORUM:
        from odradek.api_handlers.describe_quorum import error_response

        return error_response(e)
    raise ValueError(api_key)


def says_not_controller(resp) -> bool:
    if getattr(resp, "error_code", 0) == NOT_CONTROLLER:
        return True
    for attr in ("topics", "responses", "results"):
        for x in getattr(resp, attr, None) or ():
            if getattr(x, "error_code", 0) == NOT_CONTROLLER:
                return True
    if hasattr(resp, "topics") and resp.topics and hasattr(resp.topics[0], "partitions"):
        for p in resp.topics[0].partitions:
            if getattr(p, "error_code", 0) == ErrorCode.NOT_LEADER_OR_FOLLOWER:
                return True
    return False


def delayed(ctx, fut: asyncio.Future, timeout_s: float = 30.0) -> Delayed:
    """Park a request in the connection's purgatory until ``fut`` is done."""
    key = ("future", id(fut))
    purgatory = ctx.broker.purgatory

    def try_complete(now):
        if not fut.done():
            return None
        if fut.cancelled() or fut.exception() is not None:
            if not fut.cancelled():
                log.info("request %d failed: %s", ctx.api_key, fut.exception())
            return CLOSE_CONNECTION
        return fut.result()

    fut.add_done_callback(lambda _f: purgatory.poke(key))
    return Delayed(try_complete, lambda now: try_complete(now) or CLOSE_CONNECTION,
                   ctx.now_ms + int(timeout_s * 1000), [key])


class RaftMetadataDriver:
    """The metadata driver of a Raft quorum: the active controller proposes a batch and
    gets its Commit at once; the batch reaches the image once committed (apply_batch)."""

    def __init__(self, node: "QuorumNode"):
        self._node = node

    def propose(self, records: list, now_ms: int) -> Commit:
        q = self._node
        if not q.active:
            n = q.driver.node
            raise NotLeaderError(n.leader_id, n.epoch)
        return Commit(q.driver.propose([encode_record(r) for r in records], now_ms), applied=False)


class _Api:
    """A registry entry for the CONTROLLER listener (same shape as a handler module)."""

    def __init__(self, key, lo, hi, handle):
        self.API_KEY, self.MIN_VERSION, self.MAX_VERSION, self.handle = key, lo, hi, handle


class QuorumNode:
    """Raft driver + controller + CONTROLLER listener + the broker's link to the
    active controller. Also the ``ctx.broker`` facade for the CONTROLLER listener."""

    def __init__(self, config):
        from odradek.controller import Controller

        self.config = config
        self.node_id = config.node_id
        roles = set(config.process_roles)
        self.is_controller = "controller" in roles
        self.is_broker = "broker" in roles
        self.clock_ms = _now_ms
        self.metadata_dir = os.path.join(config.data_dir, "metadata")
        self.cluster_id = cluster_id_for(config)
        self.controller = Controller(self.metadata_dir, config.node_id, config.controller_defaults(), _now_ms())
        self.voters = {vid: (h, p) for vid, h, p in config.controller_quorum_voters}
        self.broker = self  # ctx.broker on the CONTROLLER listener
        self.data_broker = None  # the Broker, with the broker role
        self.purgatory = None
        self.driver = None
        self.servers = []
        self.connections: set = set()
        self._was_active = False
        self._heartbeats: dict[int, int] = {}
        self._write_lock = None
        self._tasks: list = []
        self.broker_epoch = -1
        self.incarnation_id = uuid.uuid4().bytes
        self._creating: set[str] = set()  # internal topics asked of the controller, not yet answered

    # ------------------------------------------------------------ start-up
    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        os.makedirs(self.metadata_dir, exist_ok=True)
        self.purgatory = Purgatory(_now_ms, loop.call_later)
        self._write_lock = asyncio.Lock()
        cfg = self.config
        rc = RaftConfig(
            election_timeout=max(2, cfg.controller_quorum_election_timeout_ms // TICK_MS),
            fetch_timeout=max(4, cfg.controller_quorum_fetch_timeout_ms // TICK_MS),
            request_timeout=max(2, min(cfg.controller_quorum_request_timeout_ms, 300) // TICK_MS),
            cluster_id=self.cluster_id)
        self.driver = RaftDriver(self.node_id, self.voters, self.metadata_dir, rc, self,
                                 cfg.metadata_log_max_record_bytes_between_snapshots)
        self.controller.attach_quorum(RaftMetadataDriver(self), self.cluster_id, self.driver.node)
        self.admin_peers = {v: PeerChannel(h, p, f"odradek-{self.node_id}") for v, (h, p) in self.voters.items()}
        if self.is_controller:
            from odradek.broker.connection import KafkaConnection

            lst = cfg.controller_listener
            self.registry = self._controller_registry()
            self.server = await loop.create_server(lambda: KafkaConnection(self), lst.host or None, lst.port,
                                                   reuse_address=True)
            self.servers.append(self.server)
        self.driver.start()
        self._tasks.append(loop.create_task(self._controller_loop()))

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for s in self.servers:
            s.close()
        for c in list(self.connections):
            c.close()
        if self.driver is not None:
            self.driver.close()
            await asyncio.sleep(0.05)  # let EndQuorumEpoch go out

    # ------------------------------------------------------------ state machine (RaftDriver)
    def apply_batch(self, base_offset, values) -> None:
        self.controller.apply_batch(base_offset, values)

    def restore_snapshot(self, data, end_offset) -> None:
        self.controller.restore_snapshot(data, end_offset)

    def snapshot_bytes(self, end_offset) -> bytes:
        return self.controller.snapshot_bytes(end_offset)

    def on_change(self) -> None:
        n = self.driver.node
        # Kafka brokers name a broker as "controller" (clients cannot reach controllers).
        self.controller.set_controller_id(self.node_id if self.is_broker else n.leader_id)
        active = self.active
        if active and not self._was_active:
            self._was_active = True
            now = _now_ms()
            self._heartbeats = {b: now for b in self.controller.image.brokers}
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
                and n.applied > n.state.epoch_start_offset)

    async def _write(self, decide) -> tuple[Written, bool]:
        """Run a decision on the active controller; wait until its records are applied.
        -> (what was written, whether it is applied within WRITE_TIMEOUT_S)."""
        written = self.controller.write(decide, False, _now_ms())
        return written, await self._applied(written.commit)

    async def _applied(self, commit: Commit) -> bool:
        if commit.applied:
            return True
        try:
            await asyncio.wait_for(self.driver.wait_applied(commit.last_offset), WRITE_TIMEOUT_S)
            return True
        except asyncio.TimeoutError:
            return False

    async def _bootstrap(self) -> None:
        async with self._write_lock:
            if self.active and not self.controller.image.features:
                await self._write(lambda d: d.bootstrap())

    async def _controller_loop(self) -> None:
        """Active controller: fence brokers whose heartbeats stopped (broker.session.timeout.ms)."""
        while True:
            await asyncio.sleep(0.5)
            if not self.active:
                continue
            now = _now_ms()
            stale = [b.node_id for b in self.controller.image.brokers.values()
                     if not b.fenced and now - self._heartbeats.get(b.node_id, now) > self.config.broker_session_timeout_ms]
            if stale:
                async with self._write_lock:
                    if self.active:
                        log.info("fencing brokers %s: no heartbeat", stale)
                        await self._write(lambda d: d.fence(stale))

    # ------------------------------------------------------------ CONTROLLER listener
    def _controller_registry(self) -> dict:
        from odradek.api_handlers import REGISTRY

        reg = {}

        def raft(ctx, req):
            return delayed(ctx, self.driver.step_request(req))

        for cls in (rpc.VoteRequest, rpc.BeginQuorumEpochRequest, rpc.EndQuorumEpochRequest,
                    rpc.FetchRequest, rpc.FetchSnapshotRequest):
            lo, hi = cls.VALID_VERSIONS
            reg[cls.API_KEY] = _Api(cls.API_KEY, max(lo, 12) if cls is rpc.FetchRequest else lo, hi, raft)
        for key in ADMIN_WRITES:
            mod = REGISTRY[key]
            reg[key] = _Api(key, mod.MIN_VERSION, mod.MAX_VERSION,
                            lambda ctx, req, mod=mod: delayed(ctx, asyncio.ensure_future(self.controller_write(mod, ctx, req))))
        reg[32] = REGISTRY[32]  # DescribeConfigs: read-only
        reg[DESCRIBE_QUORUM] = _Api(DESCRIBE_QUORUM, 0, 2, lambda ctx, req: self._describe_quorum_local(ctx.now_ms))
        reg[BROKER_REGISTRATION] = _Api(BROKER_REGISTRATION, 0, 4, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.register_broker(req))))
        reg[BROKER_HEARTBEAT] = _Api(BROKER_HEARTBEAT, 0, 2, lambda ctx, req: delayed(
            ctx, asyncio.ensure_future(self.broker_heartbeat(req))))
        reg[18] = _Api(18, 0, 4, self._api_versions)
        return reg

    def _api_versions(self, ctx, req):
        from odradek.api_handlers import api_versions as av
        from odradek.wire.messages.api_versions_response import ApiVersion, ApiVersionsResponse

        keys = [ApiVersion(api_key=k, min_version=m.MIN_VERSION, max_version=m.MAX_VERSION)
                for k, m in sorted(self.registry.items())]
        resp = av.handle(ctx, req)
        if resp.error_code == 0:
            resp.api_keys = keys
        return resp

    # ctx.broker facade for the CONTROLLER listener and api_versions
    def finalized_features(self) -> dict:
        return self.controller.finalized_features()

    def finalized_features_epoch(self) -> int:
        return self.controller.finalized_features_epoch()

    def _describe_quorum_local(self, now_ms: int):
        from odradek.api_handlers.describe_quorum import from_node

        name = self.config.controller_listener_names[0]
        return from_node(self.driver.node, now_ms, TICK_MS,
                         {v: (name, h, p) for v, (h, p) in self.voters.items()})

    async def controller_write(self, mod, ctx, req):
        async with self._write_lock:
            if not self.active:
                return not_controller_response(ctx.api_key, req)
            try:
                resp = mod.handle(ctx, req)
            except NotLeaderError:
                return not_controller_response(ctx.api_key, req)
            # As Kafka's controller, answer once the log is committed up to where this
            # write left it (writes are serialised by the lock; a write of no records
            # still waits for an earlier one).
            if not await self._applied(self.driver_end()):
                return not_controller_response(ctx.api_key, req)
            return resp

    def driver_end(self) -> Commit:
        """Everything this node's metadata log holds, as a Commit to wait for."""
        last = self.driver.node.log.end_offset - 1
        return Commit(last, applied=self.driver.node.applied > last)

    async def register_broker(self, req):
        async with self._write_lock:
            if not self.active:
                return brr.BrokerRegistrationResponse(error_code=NOT_CONTROLLER)
            epoch = self.driver.node.log.end_offset  # the offset of the record = the broker epoch (as Kafka)
            lst = [lst for lst in req.listeners if lst.name != "CONTROLLER"] or req.listeners
            reg = BrokerRegistration(
                req.broker_id, req.incarnation_id, [(x.name, x.host, x.port, x.security_protocol) for x in lst],
                {f.name: (f.min_supported_version, f.max_supported_version) for f in req.features},
                req.rack, cluster_id=req.cluster_id)
            written, applied = await self._write(lambda d: d.register_broker(reg, epoch))
            if written.response:
                return brr.BrokerRegistrationResponse(error_code=written.response)
            if not applied:
                return brr.BrokerRegistrationResponse(error_code=ErrorCode.REQUEST_TIMED_OUT)
            self._heartbeats[req.broker_id] = _now_ms()
            b = self.controller.image.brokers.get(req.broker_id)
            return brr.BrokerRegistrationResponse(error_code=0, broker_epoch=b.epoch if b else epoch)

    async def broker_heartbeat(self, req):
        if not self.active:
            return bhr.BrokerHeartbeatResponse(error_code=NOT_CONTROLLER)
        def decide(d):
            return d.broker_heartbeat(req.broker_id, req.broker_epoch, req.current_metadata_offset, req.want_fence)

        first = decide(self.controller.decisions())
        if first.response.error_code:
            return bhr.BrokerHeartbeatResponse(error_code=first.response.error_code)
        self._heartbeats[req.broker_id] = _now_ms()
        reply = first.response
        if first.records:  # to be unfenced: decide again under the write lock
            async with self._write_lock:
                if self.active:
                    written, _ = await self._write(decide)
                    reply = written.response
            b = self.controller.image.brokers.get(req.broker_id)
            reply.is_fenced = b.fenced if b is not None else reply.is_fenced
        return bhr.BrokerHeartbeatResponse(error_code=reply.error_code, is_caught_up=reply.is_caught_up,
                                           is_fenced=reply.is_fenced, should_shut_down=False)

    # ------------------------------------------------------------ the broker's side
    async def call_controller(self, req, version: int, api_key: int, timeout_s: float = 15.0):
        """Send a request to the active controller (retrying across elections)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            leader = self.driver.node.leader_id
            resp = None
            if leader == self.node_id and self.is_controller:
                ctx = RequestContext(api_key=api_key, api_version=version, correlation_id=0, client_id="local",
                                     now_ms=_now_ms(), broker=self, resolve_host=host_resolves)
                if api_key == BROKER_REGISTRATION:
                    resp = await self.register_broker(req)
                elif api_key == BROKER_HEARTBEAT:
                    resp = await self.broker_heartbeat(req)
                elif api_key == DESCRIBE_QUORUM:
                    resp = self._describe_quorum_local(ctx.now_ms)
                else:
                    from odradek.api_handlers import REGISTRY

                    resp = await self.controller_write(REGISTRY[api_key], ctx, req)
            elif leader >= 0 and leader in self.admin_peers:
                try:
                    resp = await asyncio.wait_for(self.admin_peers[leader].request(req, version),
                                                  max(0.1, min(WRITE_TIMEOUT_S, deadline - loop.time())))
                except (ConnectionError, OSError, asyncio.TimeoutError) as e:
                    log.debug("controller %d: %s", leader, e)
            if resp is not None and not says_not_controller(resp):
                return resp
            if loop.time() >= deadline:
                return resp if resp is not None else not_controller_response(api_key, req)
            await asyncio.sleep(0.05)

    def forward(self, ctx, req):
        """A client's admin request on the broker listener: relay it to the active controller."""
        async def run():
            resp = await self.call_controller(req, ctx.api_version, ctx.api_key)
            if ctx.api_key == CREATE_TOPICS and not req.validate_only:
                made = [t.name for t in resp.topics if t.error_code == 0]
                await self._wait_visible(lambda img: all(n in img.topics for n in made))
            return resp
        return delayed(ctx, asyncio.ensure_future(run()))

    def describe_quorum(self, ctx, req):
        if self.is_controller and self.active:
            return self._describe_quorum_local(ctx.now_ms)
        return delayed(ctx, asyncio.ensure_future(self.call_controller(req, ctx.api_version, DESCRIBE_QUORUM)))

    async def _wait_visible(self, pred, timeout_s: float = 5.0) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while not pred(self.controller.image):
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def auto_create_topics(self, names, now_ms):
        """Metadata's auto-creation on a broker: ask the controller, answer at once
        (the client sees LEADER_NOT_AVAILABLE and retries, as with Kafka)."""
        broker = self.data_broker
        plain = [n for n in names if not broker.is_internal(n)]
        for n in names:
            if broker.is_internal(n):
                broker.ensure_internal_topic(n)
        if plain:
            self._create_in_background([ctq.CreatableTopic(name=n, num_partitions=-1, replication_factor=-1)
                                        for n in plain])
        return []

    def create_streams_internal_topics(self, topics, now_ms) -> None:
        """A streams group's internal topics on a broker: a CreateTopics to the active controller,
        in the background (the heartbeat reports them missing until they reach this broker's image)."""
        fresh = [t for t in topics if t[0] not in self._creating]
        if not fresh:
            return
        names = {t[0] for t in fresh}
        self._creating |= names
        self._create_in_background([
            ctq.CreatableTopic(name=n, num_partitions=p, replication_factor=rf,
                               configs=[ctq.CreatableTopicConfig(name=k, value=v) for k, v in c.items()])
            for n, p, rf, c in fresh]).add_done_callback(lambda _: self._creating.difference_update(names))

    def create_internal_topic(self, name: str, partitions: int, configs: dict) -> None:
        """An internal topic's first use on a broker: ask the active controller once; until the
        topic reaches this broker's image FindCoordinator answers COORDINATOR_NOT_AVAILABLE."""
        if name in self._creating:
            return
        self._creating.add(name)
        topic = ctq.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1,
                                   configs=[ctq.CreatableTopicConfig(name=k, value=v) for k, v in configs.items()])
        self._create_in_background([topic]).add_done_callback(lambda _: self._creating.discard(name))

    def _create_in_background(self, topics):
        fut = asyncio.ensure_future(self.call_controller(ctq.CreateTopicsRequest(topics=topics, timeout_ms=30000),
                                                         7, CREATE_TOPICS))

        def done(f):
            if not f.cancelled() and f.exception() is not None:
                log.warning("creating topics %s failed: %s", [t.name for t in topics], f.exception())
        fut.add_done_callback(done)
        return fut

    async def join_as_broker(self, broker) -> None:
        """Catch up on the metadata log, register, apply our registration record, open the
        logs, get unfenced, start the coordinators (internal topics are created on first use)."""
        self.data_broker = broker
        loop = asyncio.get_running_loop()
        n = self.driver.node
        t0 = loop.time()
        while not (self.active or (self.driver.leader_hw >= 0 and n.applied >= self.driver.leader_hw)):
            if loop.time() - t0 > 5 and int(loop.time() - t0) % 5 == 0:
                log.warning("broker %d: waiting for the metadata quorum (%s)", self.node_id, n.status())
            await asyncio.sleep(0.02)
        while True:
            resp = await self.call_controller(self._registration_request(), 4, BROKER_REGISTRATION, timeout_s=60)
            if resp.error_code == 0:
                self.broker_epoch = resp.broker_epoch
                break
            log.warning("broker %d: registration failed with error %d; retrying", self.node_id, resp.error_code)
            await asyncio.sleep(0.5)
        # Caught up once our own registration record (offset = broker epoch, written after
        # everything committed before it) is applied here: only then are the logs on disk
        # classified and served (a partial image would take them for deleted topics' logs).
        warn_at = loop.time() + 5
        while self.controller.image.offset < self.broker_epoch:
            if loop.time() >= warn_at:
                warn_at += 5
                log.warning("broker %d: catching up with the metadata log (%d < %d)", self.node_id,
                            self.controller.image.offset, self.broker_epoch)
            await asyncio.sleep(0.02)
        broker.replicas.start(self.controller.image)
        self._tasks.append(loop.create_task(self._heartbeat_loop()))
        await self._wait_visible(lambda img: img.brokers.get(self.node_id) is not None
                                 and not img.brokers[self.node_id].fenced, timeout_s=60)
        broker.start_coordinators()

    async def _heartbeat_loop(self) -> None:
        while True:
            img = self.controller.image
            me = img.brokers.get(self.node_id)
            fenced = me is None or me.fenced
            await asyncio.sleep(0.1 if fenced else self.config.broker_heartbeat_interval_ms / 1000)
            req = bhq.BrokerHeartbeatRequest(broker_id=self.node_id, broker_epoch=self.broker_epoch,
                                             current_metadata_offset=max(0, self.controller.image.offset),
                                             want_fence=False, want_shut_down=False)
            try:
                resp = await self.call_controller(req, 2, BROKER_HEARTBEAT, timeout_s=5)
            except Exception:  # noqa: BLE001
                log.exception("heartbeat failed")
                continue
            if resp.error_code in (ErrorCode.STALE_BROKER_EPOCH, ErrorCode.BROKER_ID_NOT_REGISTERED):
                log.warning("broker %d: re-registering (error %d)", self.node_id, resp.error_code)
                r = await self.call_controller(self._registration_request(), 4, BROKER_REGISTRATION)
                if r.error_code == 0:
                    self.broker_epoch = r.broker_epoch

    def _registration_request(self) -> brq.BrokerRegistrationRequest:
        """This broker as it registers: its advertised listener and the features it supports."""
        from odradek.controller import features

        broker = self.data_broker
        return brq.BrokerRegistrationRequest(
            broker_id=self.node_id, cluster_id=self.cluster_id, incarnation_id=self.incarnation_id,
            listeners=[brq.Listener(name=broker.config.advertised.name, host=broker.advertised_host,
                                    port=broker.advertised_port, security_protocol=0)],
            features=[brq.Feature(name=n, min_supported_version=lo, max_supported_version=hi)
                      for n, (lo, hi) in features.SUPPORTED.items()],
            rack=None, previous_broker_epoch=self.broker_epoch)

    def broker_registry(self, base: dict) -> dict:
        """The broker listener's handlers: admin writes and DescribeQuorum go to the controller."""
        reg = dict(base)
        for key in ADMIN_WRITES:
            mod = base[key]
            reg[key] = _Api(key, mod.MIN_VERSION, mod.MAX_VERSION, self.forward)
        return reg


# ---------------------------------------------------------------- the process

async def _main(config) -> int:
    import signal

    from odradek.broker.server import BrokerServer

    loop = asyncio.get_running_loop()
    q = QuorumNode(config)
    server = None
    stopping = asyncio.Event()
    try:
        await q.start()
        if q.is_broker:
            server = BrokerServer(config)
            await _start_broker(server, q)
    except (OSError, RuntimeError) as e:
        print(f"odradek: cannot start: {e}", file=sys.stderr, flush=True)
        return 1
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    parts = []
    if server is not None:
        parts.append(f"broker on {config.listener.host or '0.0.0.0'}:{server.port}")
    if q.is_controller:
        cl = config.controller_listener
        parts.append(f"controller on {cl.host or '0.0.0.0'}:{cl.port}")
    print(f"odradek ready: {', '.join(parts)} (node {config.node_id}, roles {','.join(config.process_roles)}, "
          f"cluster {q.cluster_id}, data {os.path.abspath(config.data_dir)})", flush=True)
    await stopping.wait()
    if server is not None:
        await server.close()
    await q.close()
    print("odradek stopped", flush=True)
    return 0


async def _start_broker(server, q: QuorumNode) -> None:
    """BrokerServer.start, with the quorum's controller and the forwarding registry."""
    from odradek.api_handlers import REGISTRY
    from odradek.broker.broker import Broker
    from odradek.broker.connection import KafkaConnection

    loop = asyncio.get_running_loop()
    server.loop = loop
    server._stopping = asyncio.Event()
    server.registry = q.broker_registry(REGISTRY)
    lst = server.config.listener
    server.server = await loop.create_server(
        lambda: KafkaConnection(server, server.limits), lst.host or None, lst.port, reuse_address=True, backlog=1024,
        start_serving=False)
    server.port = server.server.sockets[0].getsockname()[1]
    broker = server.broker = Broker(server.config, _now_ms, loop.call_later)
    if lst.port == 0 and broker.advertised_port == 0:
        broker.advertised_port = server.port
    broker.auto_create_topics = q.auto_create_topics
    broker.create_internal_topic = q.create_internal_topic
    broker.create_streams_internal_topics = q.create_streams_internal_topics
    broker.describe_quorum = q.describe_quorum
    broker.start(controller=q.controller)
    await q.join_as_broker(broker)
    await server.server.start_serving()
    log.info("Awaiting socket connections on %s:%d.", lst.host or "0.0.0.0", server.port)
    server._tasks.append(loop.create_task(server._periodic()))


def run(config) -> int:
    logging.basicConfig(level=os.environ.get("ODRADEK_LOG_LEVEL", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    return asyncio.run(_main(config))
