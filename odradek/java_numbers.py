"""Numbers as Java parses them, where Kafka's answer depends on it.

``parse_int`` is java.lang.Integer.parseInt (Scala's String.toInt): an optional sign then decimal
digits, nothing around them (no spaces, no underscores), within 32 bits; anything else is a
NumberFormatException. Python's int() is looser (" 1", "1_0", any size), so a name Kafka refuses
must not go through it (a node id in a BROKER or BROKER_LOGGER config resource's name, say).
Java also takes non-ASCII Unicode digits; they are refused here."""

from __future__ import annotations

import re

_JAVA_INT = re.compile(r"[+-]?[0-9]+")
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1


def parse_int(text: str) -> int | None:
    """Integer.parseInt(text), None where Java throws NumberFormatException."""
    if not _JAVA_INT.fullmatch(text):
        return None
    n = int(text)
    return n if INT_MIN <= n <= INT_MAX else None
