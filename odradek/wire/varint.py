"""Kafka varints: zigzag varint (int32) / varlong (int64) and unsigned varint.

Readers take ``(buf, pos)`` and return ``(value, new_pos)``; ``buf`` is anything
indexable to ints (bytes, bytearray, memoryview of bytes). They raise
TruncatedError when the buffer ends mid-varint and MalformedError when a varint is
longer than its type allows (5 bytes for int32, 10 for int64), as Kafka does.
"""

from __future__ import annotations

from odradek.wire.exceptions import MalformedError, TruncatedError

__all__ = [
    "read_varint",
    "read_varlong",
    "read_uvarint",
    "write_varint",
    "write_varlong",
    "write_uvarint",
    "size_of_varint",
    "size_of_varlong",
    "size_of_uvarint",
    "zigzag32",
    "zigzag64",
]


def _read_unsigned(buf, pos: int, max_bytes: int, mask: int) -> tuple[int, int]:
    try:
        b = buf[pos]
        if b < 0x80:
            return b, pos + 1
        result = b & 0x7F
        shift = 7
        pos += 1
        for _ in range(max_bytes - 1):
            b = buf[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if b < 0x80:
                return result & mask, pos
            shift += 7
    except IndexError:
        raise TruncatedError("buffer ended inside a varint") from None
    raise MalformedError(f"varint longer than {max_bytes} bytes")


def read_uvarint(buf, pos: int = 0) -> tuple[int, int]:
    """Unsigned varint (up to 32 bits), as used by flexible-version lengths."""
    return _read_unsigned(buf, pos, 5, 0xFFFFFFFF)


def read_varint(buf, pos: int = 0) -> tuple[int, int]:
    """Zigzag-encoded int32."""
    b = buf[pos] if pos < len(buf) else -1
    if 0 <= b < 0x80:  # one-byte fast path
        return (b >> 1) ^ -(b & 1), pos + 1
    z, pos = _read_unsigned(buf, pos, 5, 0xFFFFFFFF)
    return (z >> 1) ^ -(z & 1), pos


def read_varlong(buf, pos: int = 0) -> tuple[int, int]:
    """Zigzag-encoded int64."""
    z, pos = _read_unsigned(buf, pos, 10, 0xFFFFFFFFFFFFFFFF)
    return (z >> 1) ^ -(z & 1), pos


def zigzag32(v: int) -> int:
    if not -0x80000000 <= v <= 0x7FFFFFFF:
        raise ValueError(f"{v} does not fit in int32")
    return ((v << 1) ^ (v >> 31)) & 0xFFFFFFFF


def zigzag64(v: int) -> int:
    if not -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:
        raise ValueError(f"{v} does not fit in int64")
    return ((v << 1) ^ (v >> 63)) & 0xFFFFFFFFFFFFFFFF


# Single-byte encodings are by far the most common: precompute them.
_SMALL = [bytes([i]) for i in range(128)]


def write_uvarint(v: int) -> bytes:
    if v < 0:
        raise ValueError("unsigned varint cannot be negative")
    if v < 0x80:
        return _SMALL[v]
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def write_varint(v: int) -> bytes:
    return write_uvarint(zigzag32(v))


def write_varlong(v: int) -> bytes:
    return write_uvarint(zigzag64(v))


def size_of_uvarint(v: int) -> int:
    n = 1
    while v >= 0x80:
        v >>= 7
        n += 1
    return n


def size_of_varint(v: int) -> int:
    return size_of_uvarint(zigzag32(v))


def size_of_varlong(v: int) -> int:
    return size_of_uvarint(zigzag64(v))
