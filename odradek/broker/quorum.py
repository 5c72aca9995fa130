"""One process of a multi-node KRaft cluster (process.roles = broker and/or controller).

Its parts: the controller server (broker/controller_server.py: the Raft driver of the
metadata log, and on a controller the CONTROLLER listener); with the broker role, the
same BrokerServer as a single node, started with the cluster's side of it (QuorumBroker):
the node's Controller following the metadata log, the forwarding of admin requests and
topic creation to the active controller (broker/controller_channel.py), and the broker's
lifecycle (broker/broker_lifecycle.py: registration, heartbeats, unfencing).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import signal
import sys
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from odradek.broker.broker_lifecycle import BrokerLifecycle
from odradek.broker.controller_channel import ControllerChannel, Forwarding
from odradek.broker.controller_server import ControllerServer
from odradek.broker.log_writer import all_written
from odradek.broker.server import BrokerServer, run_event_loop
from odradek.log.fs import RealFileSystem
from odradek.log.meta_properties import directory_id, ensure_meta_properties, read_meta_properties

if TYPE_CHECKING:
    from odradek.broker.http_server import HttpMount


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def derived_cluster_id(config) -> str:
    """The cluster id every odradek node derives from the voter set (no `kafka-storage format`
    step): the same controller.quorum.voters gives the same id."""
    key = ",".join(f"{i}@{h}:{p}" for i, h, p in sorted(config.controller_quorum_voters))
    return base64.urlsafe_b64encode(hashlib.sha256(key.encode()).digest()[:16]).decode().rstrip("=")


def log_dir_meta(config) -> dict[str, str]:
    """The meta.properties of this node's log dir, as a formatted Kafka log dir holds it. A dir
    formatted by `kafka-storage format` (a node joining an Apache Kafka cluster) keeps its cluster
    id and directory id; an unformatted one gets the derived cluster id and a new directory id,
    written once. A meta.properties of another node id is refused, as Kafka refuses it."""
    fs = RealFileSystem()
    stored_node = read_meta_properties(fs, config.data_dir).get("node.id")
    if stored_node is not None and stored_node != str(config.node_id):
        raise RuntimeError(f"Stored node id {stored_node} doesn't match previous node id {config.node_id}. "
                           "If you moved your data, make sure your configured node id matches. If you intend "
                           "to create a new node, you should remove all data in your data directories.")
    return ensure_meta_properties(fs, config.data_dir, config.node_id, derived_cluster_id(config),
                                  lambda: uuid.uuid4().bytes)


@dataclass
class QuorumBroker:
    """What a cluster broker starts with besides its config (BrokerServer.start)."""
    controller: object  # controller.Controller, following the metadata log
    forwarding: Forwarding
    lifecycle: BrokerLifecycle
    channel: ControllerChannel  # to the active controller (the leaders' AlterPartition)

    def registry(self, base: dict) -> dict:
        return self.forwarding.registry(base)


async def _main(config, http_mounts: tuple[HttpMount, ...]) -> int:
    from odradek.controller import Controller

    loop = asyncio.get_running_loop()
    if config.testing_virtual_clock:
        print("odradek: cannot start: odradek.testing.virtual.clock=true is for a single-node broker "
              "(`odradek serve` without controller.quorum.voters): the nodes of a KRaft cluster keep the "
              "system clock (their heartbeats, session timeouts and elections run on it)", file=sys.stderr, flush=True)
        return 1
    controller = Controller(config.metadata_dir, config.node_id, config.controller_defaults(), _now_ms(), quorum=True,
                            bootstrap=config.bootstrap_scram)
    try:
        meta = log_dir_meta(config)
    except (OSError, RuntimeError) as e:
        print(f"odradek: cannot start: {e}", file=sys.stderr, flush=True)
        return 1
    cs = ControllerServer(config, controller, meta["cluster.id"])
    channel = ControllerChannel(cs)
    # heartbeats on connections of their own, as Kafka's broker ("heartbeat" channel apart from
    # "forwarding" and "alter-partition"): a controller answers a connection's requests in order, and a
    # forwarded write waiting for its commit must not hold up the heartbeats that keep this broker unfenced
    heartbeat_channel = ControllerChannel(cs)
    lifecycle = BrokerLifecycle(cs, heartbeat_channel, [directory_id(meta)])
    server = None
    # odradek.http.port: a broker's comes with its BrokerServer, a controller's is its own
    http = None
    if config.http_port is not None and not cs.is_broker:
        from odradek.broker.observability import NodeHttp

        http = NodeHttp(config.http_host, config.http_port)
    stopping = asyncio.Event()
    try:
        if http is not None:
            await http.start(loop)
        await cs.start()
        if cs.is_broker:
            server = BrokerServer(config, http_mounts, freeze_heap=True)
            await server.start(QuorumBroker(controller, Forwarding(channel, cs), lifecycle, channel))
    except (OSError, RuntimeError) as e:
        print(f"odradek: cannot start: {e}", file=sys.stderr, flush=True)
        return 1
    if config.testing_control_enable:  # odradek/testing: the node's pause and test network cover both listeners
        from odradek.broker.control_routes import NodeControl, add_control_routes
        from odradek.testing.clock import SystemClock

        if server is None:
            cs.control = NodeControl()
            if http is not None:
                add_control_routes(http.routes, None, SystemClock(), cs.control)
        else:
            cs.control = server.control
        cs.control.govern(cs.connections)
    served = http if server is None else server.http
    if served is not None:
        served.serve_controller_metrics(lambda: controller.image, (lambda: cs.active) if cs.is_controller else None,
                                        lambda: cs.driver)
        served.ready = True
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    parts = []
    if server is not None:
        parts.append(f"broker on {config.listener.host or '0.0.0.0'}:{server.port}")
    if cs.is_controller:
        cl = config.controller_listener
        parts.append(f"controller on {cl.host or '0.0.0.0'}:{cl.port}")
    all_written()
    print(f"odradek ready: {', '.join(parts)} (node {config.node_id}, roles {','.join(config.process_roles)}, "
          f"cluster {cs.cluster_id}, data {os.path.abspath(config.data_dir)})", flush=True)
    await stopping.wait()
    if server is not None and config.controlled_shutdown_enable:
        # bounded by the session timeout: by then the controller would have fenced this broker anyway
        await lifecycle.controlled_shutdown(config.broker_session_timeout_ms / 1000)
    lifecycle.close()
    if server is not None:
        await server.close()
    channel.close()
    heartbeat_channel.close()
    if http is not None:
        http.close()
    await cs.close()
    all_written()
    print("odradek stopped", flush=True)
    return 0


def run(config, http_mounts: tuple[HttpMount, ...] = ()) -> int:
    return run_event_loop(_main(config, http_mounts))
