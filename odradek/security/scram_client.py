"""The client side of SCRAM-SHA-256 / SCRAM-SHA-512 (RFC 5802 / 7677), sans-IO, as Kafka's
ScramSaslClient: a node authenticating to another node's SASL listener. ``first()`` is the
client-first message; ``final(server_first)`` checks the server's nonce, salt and iteration count
and answers the client proof; ``verify(server_final)`` checks the server's signature (a server
that does not know the password cannot make it)."""

from __future__ import annotations

import base64
import hashlib
import hmac

from odradek.controller.scram import MIN_ITERATIONS

_HASHES = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}


class ScramError(Exception):
    """The server's SCRAM messages do not make a valid exchange (or it refused the proof)."""


def _saslname(user: str) -> str:
    return user.replace("=", "=3D").replace(",", "=2C")


class ScramClient:
    def __init__(self, mechanism: str, user: str, password: str, nonce: str):
        """nonce: the client's part of the SCRAM nonce (random, printable, no comma)."""
        if mechanism not in _HASHES:
            raise ValueError(f"not a SCRAM mechanism: {mechanism}")
        self.hash = _HASHES[mechanism]
        self.password = password
        self.nonce = nonce
        self.first_bare = f"n={_saslname(user)},r={self.nonce}"
        self._auth_message: bytes | None = None
        self._salted: bytes | None = None

    def first(self) -> bytes:
        return ("n,," + self.first_bare).encode()

    def final(self, server_first: bytes) -> bytes:
        text = server_first.decode("utf-8", "replace")
        attrs = dict(a.split("=", 1) for a in text.split(",") if "=" in a)
        nonce, salt, iterations = attrs.get("r", ""), attrs.get("s"), attrs.get("i", "")
        if not nonce.startswith(self.nonce) or len(nonce) == len(self.nonce):
            raise ScramError("Invalid server nonce: does not start with client nonce")
        if not iterations.isdigit() or int(iterations) < MIN_ITERATIONS:
            raise ScramError(f"Requested iterations {iterations} is less than minimum {MIN_ITERATIONS}")
        try:
            salt_bytes = base64.b64decode(salt or "", validate=True)
        except ValueError:
            raise ScramError("Invalid salt") from None
        self._salted = hashlib.pbkdf2_hmac(self.hash, self.password.encode(), salt_bytes, int(iterations))
        without_proof = f"c={base64.b64encode(b'n,,').decode()},r={nonce}"
        self._auth_message = f"{self.first_bare},{text},{without_proof}".encode()
        client_key = hmac.new(self._salted, b"Client Key", self.hash).digest()
        stored_key = hashlib.new(self.hash, client_key).digest()
        signature = hmac.new(stored_key, self._auth_message, self.hash).digest()
        proof = bytes(a ^ b for a, b in zip(client_key, signature))
        return f"{without_proof},p={base64.b64encode(proof).decode()}".encode()

    def verify(self, server_final: bytes) -> None:
        text = server_final.decode("utf-8", "replace")
        if self._auth_message is None or self._salted is None:
            raise ScramError("server-final before client-final")
        if text.startswith("e="):
            raise ScramError(f"Sasl authentication using SCRAM failed with error: {text[2:]}")
        server_key = hmac.new(self._salted, b"Server Key", self.hash).digest()
        expected = hmac.new(server_key, self._auth_message, self.hash).digest()
        got = text[2:] if text.startswith("v=") else ""
        try:
            ok = hmac.compare_digest(base64.b64decode(got, validate=True), expected)
        except ValueError:
            ok = False
        if not ok:
            raise ScramError("Invalid server signature in server final message")
