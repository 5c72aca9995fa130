"""socket.send.buffer.bytes / socket.receive.buffer.bytes: the SO_SNDBUF / SO_RCVBUF of the
broker's side of a real connection (Kafka's acceptor sets them; -1 keeps the OS default)."""

from __future__ import annotations

import socket

from odradek.config import BrokerConfig
from odradek.wire.messages.metadata_request import MetadataRequest

from tests.broker.test_server import Client, Running


def _kernel_value(option: int, size: int) -> int:
    """What the kernel reports for a socket given ``size`` (Linux doubles it, clamps it to its max)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, option, size)
        return s.getsockopt(socket.SOL_SOCKET, option)


def _server_side(r: Running, c: Client):
    """The broker's socket of the client's connection (the one whose peer is the client)."""
    mine = c.sock.getsockname()
    for conn in list(r.server.connections):
        sock = conn.transport.get_extra_info("socket")
        if sock is not None and sock.getpeername() == mine:
            return sock
    raise AssertionError("no broker connection for the client")


def test_defaults_are_kafkas():
    cfg = BrokerConfig.from_properties({})
    assert (cfg.socket_send_buffer_bytes, cfg.socket_receive_buffer_bytes) == (102400, 102400)
    assert "socket.send.buffer.bytes" not in cfg.unused


def test_accepted_socket_takes_the_configured_buffers(tmp_path):
    r = Running(tmp_path, **{"socket.send.buffer.bytes": "131072", "socket.receive.buffer.bytes": "65536"})
    try:
        c = Client(r.port)
        c.call(MetadataRequest(topics=[]), 12)  # served: the connection is the broker's
        sock = _server_side(r, c)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) == _kernel_value(socket.SO_SNDBUF, 131072)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) == _kernel_value(socket.SO_RCVBUF, 65536)
        listening = r.server.server.sockets[0]
        assert listening.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) == _kernel_value(socket.SO_RCVBUF, 65536)
        c.sock.close()
    finally:
        r.stop()


def test_minus_one_keeps_the_os_default(tmp_path):
    r = Running(tmp_path, **{"socket.send.buffer.bytes": "-1", "socket.receive.buffer.bytes": "-1"})
    try:
        c = Client(r.port)
        c.call(MetadataRequest(topics=[]), 12)
        sock = _server_side(r, c)
        # not the 102400 default a Kafka setting would have set (the kernel's own size, autotuned)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) != _kernel_value(socket.SO_SNDBUF, 102400)
        c.sock.close()
    finally:
        r.stop()
