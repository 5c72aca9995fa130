"""How a node reaches another node's listener (the controller listener: Raft peers and a broker's
controller channel; the inter-broker listener: replica fetchers and inter-broker RPCs), as that
listener's protocol asks: TLS with the listener's ssl.* settings (broker/tls.client_context), and
SASL with the mechanism Kafka's nodes use (sasl.mechanism.controller.protocol,
sasl.mechanism.inter.broker.protocol), PLAIN only: the client credentials are the username and
password of the listener's plain.sasl.jaas.config, as Kafka's broker takes them."""

from __future__ import annotations

import asyncio
import ssl
import struct
from dataclasses import dataclass

from odradek.config import ConfigError, listener_protocol
from odradek.security.sasl import jaas_credentials
from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest

_size = struct.Struct(">i")


class NodeAuthenticationError(ConnectionError):
    """The other node refused this node's SASL authentication."""


@dataclass(frozen=True)
class NodeLink:
    tls: ssl.SSLContext | None = None
    plain: tuple[str, str] | None = None  # SASL PLAIN (username, password)

    async def open(self, host: str, port: int, client_id: str):
        """(reader, writer) of a connection to host:port, through TLS and SASL as this link asks."""
        reader, writer = await asyncio.open_connection(host, port, ssl=self.tls,
                                                       server_hostname=host if self.tls is not None else None)
        if self.plain is not None:
            try:
                await _authenticate(reader, writer, client_id, *self.plain)
            except BaseException:
                writer.close()
                raise
        return reader, writer


PLAINTEXT_LINK = NodeLink()


async def _call(reader, writer, msg, version: int, corr: int, client_id: str):
    writer.write(encode_request(msg, version, corr, client_id))
    await writer.drain()
    (size,) = _size.unpack(await reader.readexactly(4))
    return decode_response(await reader.readexactly(size), type(msg).API_KEY, version).body


async def _authenticate(reader, writer, client_id: str, user: str, password: str) -> None:
    hs = await _call(reader, writer, SaslHandshakeRequest(mechanism="PLAIN"), 1, 1, client_id)
    if hs.error_code:
        raise NodeAuthenticationError(f"SaslHandshake PLAIN: error {hs.error_code} (offered {hs.mechanisms})")
    token = b"\0" + user.encode() + b"\0" + password.encode()
    auth = await _call(reader, writer, SaslAuthenticateRequest(auth_bytes=token), 2, 2, client_id)
    if auth.error_code:
        raise NodeAuthenticationError(f"SaslAuthenticate: error {auth.error_code}: {auth.error_message}")


def node_link(cfg, listener: str, mechanism: str) -> NodeLink:
    """This node's link to another node's ``listener`` (``mechanism``: the node SASL mechanism setting)."""
    from odradek.broker.tls import client_context

    proto = listener_protocol(cfg, listener)
    tls = client_context(cfg, listener) if proto in ("SSL", "SASL_SSL") else None
    if proto not in ("SASL_PLAINTEXT", "SASL_SSL"):
        return NodeLink(tls)
    creds = jaas_credentials(cfg.sasl_jaas(listener, mechanism))
    if mechanism != "PLAIN" or creds is None:
        raise ConfigError(f"listener {listener} ({proto}) between cluster nodes: odradek's nodes authenticate with "
                          f"PLAIN and the username/password of listener.name.{listener.lower()}.plain.sasl.jaas.config "
                          f"(mechanism {mechanism})")
    return NodeLink(tls, creds)
