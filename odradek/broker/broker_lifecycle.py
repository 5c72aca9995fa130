"""A cluster broker's membership (Kafka's BrokerLifecycleManager): catch up with the
metadata log, register with the broker's advertised listener, rack and the features it
supports, heartbeat, get unfenced; register again when the controller lost the
registration; on shutdown, a controlled shutdown (heartbeats with want_shut_down until
the controller, having moved this broker's leaderships away, says should_shut_down)."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from odradek.broker.controller_api import BROKER_HEARTBEAT, BROKER_REGISTRATION
from odradek.broker.controller_channel import ControllerChannel, wait_for_image
from odradek.broker.controller_server import ControllerServer
from odradek.controller import features
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import broker_heartbeat_request as bhq, broker_registration_request as brq

log = logging.getLogger("odradek.quorum")


class BrokerLifecycle:
    def __init__(self, server: ControllerServer, channel: ControllerChannel, log_dirs: list[bytes]):
        self._server = server
        self.log_dirs = list(log_dirs)  # the directory ids of the log dirs (meta.properties)
        self._channel = channel
        self._controller = server.controller
        self.node_id = server.node_id
        self.broker_epoch = -1
        # the epoch of this broker's last clean shutdown (the log dirs' .kafka_cleanshutdown
        # files, read as the logs open; -1 after a crash): every registration of this
        # process sends it, as Kafka's BrokerLifecycleManager, so that the controller keeps
        # a cleanly restarted replica in the ELR (KIP-966)
        self.previous_broker_epoch = -1
        self.incarnation_id = uuid.uuid4().bytes
        self._broker = None
        self._heartbeat_task = None

    async def join(self, broker) -> None:
        """Catch up on the metadata log, register, apply our registration record, open the
        logs, get unfenced, start the coordinators (internal topics are created on first use)."""
        self._broker = broker
        self.previous_broker_epoch = broker.log_manager.previous_broker_epoch
        loop = asyncio.get_running_loop()
        warn_at = loop.time() + 5
        while not self._server.caught_up():
            if loop.time() >= warn_at:  # once every 5 s
                warn_at += 5
                log.warning("broker %d: waiting for the metadata quorum (%s)", self.node_id,
                            self._server.driver.node.status())
            await asyncio.sleep(0.02)
        while True:
            resp = await self._channel.call(self._registration(), 4, BROKER_REGISTRATION, timeout_s=60)
            if resp.error_code == 0:
                self.broker_epoch = resp.broker_epoch
                break
            log.warning("broker %d: registration failed with error %d; retrying", self.node_id, resp.error_code)
            await asyncio.sleep(0.5)
        # Caught up once our own registration record (offset = broker epoch, written after
        # everything committed before it) is applied here: only then are the logs on disk
        # classified and served (a partial image would take them for deleted topics' logs).
        warn_at = loop.time() + 5
        while self._controller.image.offset < self.broker_epoch:
            if loop.time() >= warn_at:
                warn_at += 5
                log.warning("broker %d: catching up with the metadata log (%d < %d)", self.node_id,
                            self._controller.image.offset, self.broker_epoch)
            await asyncio.sleep(0.02)
        broker.replicas.start(self._controller.image)
        self._heartbeat_task = loop.create_task(self._heartbeats())
        await wait_for_image(self._controller, lambda img: img.brokers.get(self.node_id) is not None
                             and not img.brokers[self.node_id].fenced, timeout_s=60)
        broker.start_coordinators()

    def _registration(self) -> brq.BrokerRegistrationRequest:
        """This broker as it registers: its advertised listener and the features it supports."""
        b = self._broker
        return brq.BrokerRegistrationRequest(
            broker_id=self.node_id, cluster_id=self._server.cluster_id, incarnation_id=self.incarnation_id,
            listeners=[brq.Listener(name=name, host=host, port=port, security_protocol=proto)
                       for name, host, port, proto in b.registered_endpoints()],
            features=[brq.Feature(name=n, min_supported_version=lo, max_supported_version=hi)
                      for n, (lo, hi) in features.SUPPORTED.items()],
            rack=b.config.broker_rack, log_dirs=self.log_dirs, previous_broker_epoch=self.previous_broker_epoch)

    async def _heartbeats(self) -> None:
        config = self._server.config
        interval_s = config.broker_heartbeat_interval_ms / 1000
        # as Kafka's heartbeat channel (KAFKA-14392): a heartbeat is given up after half a
        # session, so that one stuck at a deposed or stalled controller leaves time for the next
        # to reach the new one before that controller's fresh session for this broker runs out
        timeout_s = config.broker_session_timeout_ms / 2000
        while True:
            me = self._controller.image.brokers.get(self.node_id)
            await asyncio.sleep(0.1 if me is None or me.fenced else interval_s)
            try:
                resp = await self._channel.call(self._heartbeat(), 2, BROKER_HEARTBEAT, timeout_s=timeout_s)
            except Exception:  # noqa: BLE001
                log.exception("heartbeat failed")
                continue
            if resp.error_code in (ErrorCode.STALE_BROKER_EPOCH, ErrorCode.BROKER_ID_NOT_REGISTERED):
                log.warning("broker %d: re-registering (error %d)", self.node_id, resp.error_code)
                r = await self._channel.call(self._registration(), 4, BROKER_REGISTRATION)
                if r.error_code == 0:
                    self.broker_epoch = r.broker_epoch

    def _heartbeat(self, want_shut_down: bool = False) -> bhq.BrokerHeartbeatRequest:
        return bhq.BrokerHeartbeatRequest(broker_id=self.node_id, broker_epoch=self.broker_epoch,
                                          current_metadata_offset=max(0, self._controller.image.offset),
                                          want_fence=False, want_shut_down=want_shut_down)

    async def controlled_shutdown(self, timeout_s: float) -> bool:
        """Ask the active controller to let this broker go: it moves the leaderships away
        and takes the broker out of every ISR while the broker still serves; True once it
        says should_shut_down, False after ``timeout_s`` (then the broker stops anyway, as
        Kafka's after its shutdown timeout)."""
        if self._heartbeat_task is None or self.broker_epoch < 0:
            return False
        self._heartbeat_task.cancel()
        self._heartbeat_task = None
        deadline = time.monotonic() + timeout_s
        log.info("broker %d: beginning controlled shutdown", self.node_id)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                log.error("broker %d: timed out waiting for the controller to approve controlled shutdown",
                          self.node_id)
                return False
            try:
                # no active controller for 3 s (the quorum is going down too): nothing to wait for
                resp = await self._channel.call(self._heartbeat(want_shut_down=True), 2, BROKER_HEARTBEAT,
                                                timeout_s=max(0.1, min(3.0, left)))
            except Exception:  # noqa: BLE001
                log.exception("controlled shutdown heartbeat failed")
                return False
            if resp.error_code == ErrorCode.NOT_CONTROLLER:
                log.warning("broker %d: no active controller; shutting down without its approval", self.node_id)
                return False
            if resp.error_code == 0 and resp.should_shut_down:
                log.info("broker %d: the controller has approved the controlled shutdown", self.node_id)
                return True
            await asyncio.sleep(0.05)

    def close(self) -> None:
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
