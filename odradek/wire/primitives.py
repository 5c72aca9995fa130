"""Primitive readers and writers shared by the generated codec.

Readers take (buf, pos) and return (value, new_pos); writers append bytes to a
list of parts. Bounds problems surface as IndexError/struct.error here and are
turned into typed errors once, at the decode entry points.
"""

from __future__ import annotations

import struct

from .exceptions import MalformedError, TruncatedError

_h = struct.Struct(">h")
_i = struct.Struct(">i")
H_PACK = _h.pack
I_PACK = _i.pack
H_UNPACK = _h.unpack_from
I_UNPACK = _i.unpack_from

ZERO_UUID = bytes(16)

# Precompiled formats for arrays of fixed-size primitives with fewer than 64 elements.
ARRAY_STRUCTS = {code: [struct.Struct(f">{n}{code}") for n in range(64)] for code in "?bhHiIqd"}


def read_uvarint(buf, pos: int) -> tuple[int, int]:
    """Unsigned LEB128 varint, at most 5 bytes (Kafka's unsigned varint is 32-bit)."""
    result = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 28:
            raise MalformedError("unsigned varint longer than 5 bytes")


def uvarint_bytes(n: int) -> bytes:
    if n < 0x80:
        return _SMALL[n]
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


_SMALL = [bytes([i]) for i in range(128)]


def _take(buf, pos: int, n: int):
    end = pos + n
    if end > len(buf):
        raise TruncatedError(f"need {n} bytes at {pos}, have {len(buf) - pos}")
    return buf[pos:end], end


# ---- strings ----

def read_string(buf, pos):
    (n,) = H_UNPACK(buf, pos)
    if n < 0:
        raise MalformedError("negative length for non-nullable string")
    raw, pos = _take(buf, pos + 2, n)
    return str(raw, "utf-8"), pos


def read_nullable_string(buf, pos):
    (n,) = H_UNPACK(buf, pos)
    if n < 0:
        if n != -1:
            raise MalformedError(f"string length {n}")
        return None, pos + 2
    raw, pos = _take(buf, pos + 2, n)
    return str(raw, "utf-8"), pos


def read_compact_string(buf, pos):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise MalformedError("null for non-nullable compact string")
    raw, pos = _take(buf, pos, n - 1)
    return str(raw, "utf-8"), pos


def read_compact_nullable_string(buf, pos):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    raw, pos = _take(buf, pos, n - 1)
    return str(raw, "utf-8"), pos


def write_string(w, s):
    b = s.encode()
    w.append(H_PACK(len(b)))
    w.append(b)


def write_nullable_string(w, s):
    if s is None:
        w.append(b"\xff\xff")
    else:
        b = s.encode()
        w.append(H_PACK(len(b)))
        w.append(b)


def write_compact_string(w, s):
    b = s.encode()
    w.append(uvarint_bytes(len(b) + 1))
    w.append(b)


def write_compact_nullable_string(w, s):
    if s is None:
        w.append(b"\x00")
    else:
        b = s.encode()
        w.append(uvarint_bytes(len(b) + 1))
        w.append(b)


# ---- bytes and records (records stay views: never copied, never decoded) ----

def read_bytes(buf, pos):
    (n,) = I_UNPACK(buf, pos)
    if n < 0:
        raise MalformedError("negative length for non-nullable bytes")
    raw, pos = _take(buf, pos + 4, n)
    return bytes(raw), pos


def read_nullable_bytes(buf, pos):
    (n,) = I_UNPACK(buf, pos)
    if n < 0:
        if n != -1:
            raise MalformedError(f"bytes length {n}")
        return None, pos + 4
    raw, pos = _take(buf, pos + 4, n)
    return bytes(raw), pos


def read_compact_bytes(buf, pos):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise MalformedError("null for non-nullable compact bytes")
    raw, pos = _take(buf, pos, n - 1)
    return bytes(raw), pos


def read_compact_nullable_bytes(buf, pos):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    raw, pos = _take(buf, pos, n - 1)
    return bytes(raw), pos


def read_records(buf, pos):
    (n,) = I_UNPACK(buf, pos)
    if n < 0:
        if n != -1:
            raise MalformedError(f"records length {n}")
        return None, pos + 4
    return _take(buf, pos + 4, n)


def read_compact_records(buf, pos):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    return _take(buf, pos, n - 1)


def write_bytes(w, b):
    w.append(I_PACK(len(b)))
    w.append(b)


def write_nullable_bytes(w, b):
    if b is None:
        w.append(b"\xff\xff\xff\xff")
    else:
        w.append(I_PACK(len(b)))
        w.append(b)


def write_compact_bytes(w, b):
    w.append(uvarint_bytes(len(b) + 1))
    w.append(b)


def write_compact_nullable_bytes(w, b):
    if b is None:
        w.append(b"\x00")
    else:
        w.append(uvarint_bytes(len(b) + 1))
        w.append(b)


# ---- array lengths ----

def read_array_len(buf, pos, remaining_min: int = 1):
    (n,) = I_UNPACK(buf, pos)
    if n < 0:
        raise MalformedError("negative length for non-nullable array")
    pos += 4
    if n * remaining_min > len(buf) - pos:
        raise TruncatedError(f"array of {n} elements cannot fit")
    return n, pos


def read_nullable_array_len(buf, pos, remaining_min: int = 1):
    (n,) = I_UNPACK(buf, pos)
    if n < 0:
        if n != -1:
            raise MalformedError(f"array length {n}")
        return -1, pos + 4
    pos += 4
    if n * remaining_min > len(buf) - pos:
        raise TruncatedError(f"array of {n} elements cannot fit")
    return n, pos


def read_compact_array_len(buf, pos, remaining_min: int = 1):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise MalformedError("null for non-nullable compact array")
    n -= 1
    if n * remaining_min > len(buf) - pos:
        raise TruncatedError(f"array of {n} elements cannot fit")
    return n, pos


def read_compact_nullable_array_len(buf, pos, remaining_min: int = 1):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return -1, pos
    n -= 1
    if n * remaining_min > len(buf) - pos:
        raise TruncatedError(f"array of {n} elements cannot fit")
    return n, pos


# ---- tagged fields ----

def read_tagged_raw(buf, pos):
    """Read a tagged-field section: returns ([(tag, view)], pos)."""
    count, pos = read_uvarint(buf, pos)
    if count == 0:
        return None, pos
    out = []
    last = -1
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        if tag <= last:
            raise MalformedError("tagged fields out of order or repeated")
        last = tag
        size, pos = read_uvarint(buf, pos)
        raw, pos = _take(buf, pos, size)
        out.append((tag, raw))
    return out, pos


def write_tagged(w, fields):
    """fields: list of (tag, bytes) already in ascending tag order, or None."""
    if not fields:
        w.append(b"\x00")
        return
    w.append(uvarint_bytes(len(fields)))
    for tag, data in fields:
        w.append(uvarint_bytes(tag))
        w.append(uvarint_bytes(len(data)))
        w.append(data)


def join_parts(parts) -> bytes:
    return b"".join(parts)
