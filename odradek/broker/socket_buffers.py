"""socket.send.buffer.bytes / socket.receive.buffer.bytes, as Kafka's acceptor applies them:
SO_RCVBUF on the listening socket (so the TCP window is offered from the handshake on) and
SO_SNDBUF on every accepted one; -1 leaves the OS default."""

from __future__ import annotations

import socket


def set_receive_buffer(sock, config) -> None:
    """A listening socket: its accepted sockets inherit SO_RCVBUF."""
    if config.socket_receive_buffer_bytes != -1:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, config.socket_receive_buffer_bytes)


def set_socket_buffers(sock, config) -> None:
    """An accepted socket (Kafka's Acceptor.configureAcceptedSocketChannel)."""
    if config.socket_send_buffer_bytes != -1:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, config.socket_send_buffer_bytes)
    set_receive_buffer(sock, config)
