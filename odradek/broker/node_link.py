"""How a node reaches another node's listener (the controller listener: Raft peers and a broker's
controller channel; the inter-broker listener: replica fetchers and inter-broker RPCs), as that
listener's protocol asks: TLS with the listener's ssl.* settings (broker/tls.client_context), and
SASL with the mechanism Kafka's nodes use (sasl.mechanism.controller.protocol,
sasl.mechanism.inter.broker.protocol): PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, the client
credentials being the username and password of the listener's <mechanism>.sasl.jaas.config, as
Kafka's broker takes them."""

from __future__ import annotations

import asyncio
import secrets
import ssl
import struct
from dataclasses import dataclass

from odradek.config import ConfigError, listener_protocol
from odradek.security.sasl import PLAIN, jaas_credentials
from odradek.security.scram_client import ScramClient, ScramError
from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest

_size = struct.Struct(">i")


class NodeAuthenticationError(ConnectionError):
    """The other node refused this node's SASL authentication."""


@dataclass(frozen=True)
class NodeSasl:
    """The SASL credentials a node authenticates with to another node."""
    mechanism: str  # PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
    username: str
    password: str


@dataclass(frozen=True)
class NodeLink:
    """How a node connects to another node: TLS and SASL, each if its listener asks for it."""
    tls: ssl.SSLContext | None = None
    sasl: NodeSasl | None = None

    async def open(self, host: str, port: int, client_id: str):
        """(reader, writer) of a connection to host:port, through TLS and SASL as this link asks."""
        reader, writer = await asyncio.open_connection(host, port, ssl=self.tls,
                                                       server_hostname=host if self.tls is not None else None)
        if self.sasl is not None:
            try:
                await _authenticate(reader, writer, client_id, self.sasl)
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


async def _authenticate(reader, writer, client_id: str, sasl: NodeSasl) -> None:
    hs = await _call(reader, writer, SaslHandshakeRequest(mechanism=sasl.mechanism), 1, 1, client_id)
    if hs.error_code:
        raise NodeAuthenticationError(f"SaslHandshake {sasl.mechanism}: error {hs.error_code} "
                                      f"(offered {hs.mechanisms})")

    async def step(token: bytes, corr: int) -> bytes:
        auth = await _call(reader, writer, SaslAuthenticateRequest(auth_bytes=token), 2, corr, client_id)
        if auth.error_code:
            raise NodeAuthenticationError(f"SaslAuthenticate: error {auth.error_code}: {auth.error_message}")
        return bytes(auth.auth_bytes)

    if sasl.mechanism == PLAIN:
        await step(b"\0" + sasl.username.encode() + b"\0" + sasl.password.encode(), 2)
        return
    scram = ScramClient(sasl.mechanism, sasl.username, sasl.password, secrets.token_urlsafe(24))
    try:
        server_first = await step(scram.first(), 2)
        scram.verify(await step(scram.final(server_first), 3))
    except ScramError as e:
        raise NodeAuthenticationError(f"{sasl.mechanism}: {e}") from None


def node_link(cfg, listener: str, mechanism: str) -> NodeLink:
    """This node's link to another node's ``listener`` (``mechanism``: the node SASL mechanism setting)."""
    from odradek.broker.tls import client_context

    proto = listener_protocol(cfg, listener)
    tls = client_context(cfg, listener) if proto in ("SSL", "SASL_SSL") else None
    if proto not in ("SASL_PLAINTEXT", "SASL_SSL"):
        return NodeLink(tls)
    creds = jaas_credentials(cfg.sasl_jaas(listener, mechanism))
    if creds is None:  # BrokerConfig._check_node_sasl refuses it at start-up
        raise ConfigError(f"listener {listener} ({proto}) between cluster nodes: no username and password in "
                          f"listener.name.{listener.lower()}.{mechanism.lower()}.sasl.jaas.config")
    return NodeLink(tls, NodeSasl(mechanism, *creds))
