"""What a broker's BrokerRegistration says about its last stop (KIP-966): after a clean
close it sends, as previous_broker_epoch, the broker epoch its log dirs' .kafka_cleanshutdown
files recorded; after a kill (no close) -1. A Broker on a temporary data dir, and a
BrokerLifecycle whose controller channel records the registration it is asked to send."""
from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace

import pytest

from odradek.broker.broker import Broker
from odradek.broker.broker_lifecycle import BrokerLifecycle
from odradek.config import BrokerConfig
from odradek.log import clean_shutdown_file as csf
from odradek.wire.messages import broker_registration_request as brq

from inproc_broker import Clock


class _Sent(Exception):
    pass


class RecordingChannel:
    """A controller channel that records the first request and stops the caller there."""

    def __init__(self):
        self.sent = []

    async def call(self, req, version, api_key, timeout_s=None):
        self.sent.append((req, version, api_key))
        raise _Sent()


DIR_ID = bytes(range(16))


def broker(data_dir, epoch: int) -> Broker:
    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(data_dir),
                                        "node.id": "4"})
    b = Broker(cfg, Clock(), lambda delay, fn: None)
    b.start(broker_epoch=lambda: epoch)
    return b


def registration(b: Broker) -> brq.BrokerRegistrationRequest:
    """The BrokerRegistration the lifecycle sends first for broker ``b``."""
    image = SimpleNamespace(offset=100, brokers={})
    server = SimpleNamespace(controller=SimpleNamespace(image=image), node_id=4, cluster_id="cid",
                             caught_up=lambda: True)
    channel = RecordingChannel()
    lifecycle = BrokerLifecycle(server, channel, [DIR_ID])
    with pytest.raises(_Sent):
        asyncio.run(lifecycle.join(b))
    (req, version, _), = channel.sent
    assert version >= 3  # previous_broker_epoch is in v3+
    assert req.log_dirs == [DIR_ID]  # Kafka's controller refuses a registration without log dirs
    return req


def kill(b: Broker) -> None:
    """Stop without closing anything: what kill -9 leaves on disk."""
    os.close(b._lock_fd)
    b._lock_fd = None


def test_first_start_registers_with_no_previous_epoch(tmp_path):
    b = broker(tmp_path / "logs", 5)
    try:
        assert registration(b).previous_broker_epoch == -1
    finally:
        b.close()


def test_after_a_clean_close_the_previous_epoch_is_the_one_it_closed_in(tmp_path):
    b = broker(tmp_path / "logs", 57)
    b.close()
    assert (tmp_path / "logs" / csf.FILE).read_bytes() == b'{"version":0,"brokerEpoch":57}'
    b2 = broker(tmp_path / "logs", 80)
    try:
        assert registration(b2).previous_broker_epoch == 57
        assert not (tmp_path / "logs" / csf.FILE).exists()  # read and deleted as the logs opened
    finally:
        b2.close()
    b3 = broker(tmp_path / "logs", 81)
    try:
        assert registration(b3).previous_broker_epoch == 80
    finally:
        b3.close()


def test_after_a_kill_the_previous_epoch_is_minus_one(tmp_path):
    b = broker(tmp_path / "logs", 57)
    b.close()
    b2 = broker(tmp_path / "logs", 80)  # reads 57, deletes the file ...
    kill(b2)  # ... and dies without closing
    b3 = broker(tmp_path / "logs", 90)
    try:
        assert registration(b3).previous_broker_epoch == -1
    finally:
        b3.close()
