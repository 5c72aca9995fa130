"""Kafka's Uuid: 16 bytes on the wire, base64url text (Uuid.toString), the zero uuid as "none"."""

from __future__ import annotations

import base64
import random

from .primitives import ZERO_UUID


def uuid_str(u: bytes) -> str:
    """Kafka's Uuid.toString(): base64url, no padding (22 chars)."""
    return base64.urlsafe_b64encode(bytes(u)).decode().rstrip("=")


def random_uuid(rng: random.Random) -> bytes:
    """Kafka's Uuid.randomUuid(): random, never the zero uuid. ``rng`` is injected (a
    simulation passes a seeded one; random.Random() seeds itself from the OS)."""
    while True:
        u = rng.randbytes(16)
        if u != ZERO_UUID:
            return u
