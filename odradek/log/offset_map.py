"""The cleaner's offset map (key -> offset of the key's latest record) in a fixed memory
budget, as Kafka's SkimpyOffsetMap: an entry is the key's 16-byte MD5 digest plus an
8-byte offset, 24 bytes, and the map has ``memory // 24`` slots. Keys with the same
digest are one key, as in Kafka.

Storage is one flat array of 64-bit integers, three a slot (offset, digest low and
high halves), open addressing with double hashing. The table is sized for what the
pass can need (``expected_entries``: the cleaner gives the number of offsets in the
dirty range, an upper bound on its keys), so a small log does not take the whole
budget, and never has more than ``slots`` slots. Were that hint too low, the table
grows (up to ``slots``), holding the old and the new table for the rehash.

The cleaner puts a batch's keys with put_while_below (Kafka's check of
``map.size() < maxDesiredMapSize`` before every put) and looks them up with get_many:
one call per batch, not per record.
"""
from __future__ import annotations

import hashlib
import struct
from array import array
from math import gcd

HASH_SIZE = 16                       # MD5
BYTES_PER_ENTRY = HASH_SIZE + 8      # Kafka's SkimpyOffsetMap.bytesPerEntry for MD5
_MIN_TABLE = 67                      # a prime

_digest_halves = struct.Struct("<qq").unpack   # signed: stored in an array("q")
try:  # CPython's own MD5: about twice as fast as OpenSSL's for short keys
    from _md5 import md5 as _md5
except ImportError:  # pragma: no cover
    _md5 = hashlib.md5


class OffsetMapFullError(ValueError):
    """A new key for a map holding ``slots`` entries (Kafka: IllegalArgumentException)."""


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    f = 3
    while f * f <= n:
        if n % f == 0:
            return False
        f += 2
    return True


def _prime_at_most(n: int) -> int:
    """The largest prime <= n (n itself for n < 2: a table that small probes linearly)."""
    if n < 2:
        return n
    while not _is_prime(n):
        n -= 1
    return n


def _step(h2: int, n: int, prime: bool) -> int:
    """The probe step of a key (times 3: slots are 3 array items), coprime with n."""
    if n <= 2:
        return 3
    step = 1 + h2 % (n - 1)
    if not prime and gcd(step, n) != 1:
        step = 1
    return 3 * step


class SkimpyOffsetMap:
    """put/get/size/latest_offset/utilization with Kafka's SkimpyOffsetMap semantics."""

    __slots__ = ("memory", "slots", "size", "latest_offset", "_max_n", "_n", "_prime", "_t")

    def __init__(self, memory: int, expected_entries: int | None = None):
        if memory < 0:
            raise ValueError(f"offset map memory must be >= 0, got {memory}")
        self.memory = memory
        self.slots = memory // BYTES_PER_ENTRY
        self.size = 0            # distinct digests put since clear()
        self.latest_offset = -1  # the last offset put (or given to update_latest_offset)
        self._max_n = self.slots   # the largest table the budget allows
        want = self.slots if expected_entries is None else max(_MIN_TABLE, 3 * expected_entries // 2)
        self._alloc(min(self._max_n, _prime_at_most(want)))

    def _alloc(self, n: int) -> None:
        # slot i is _t[3i:3i+3] = (offset, digest bits 0-63, digest bits 64-127), the
        # offset -1 for an empty slot (offsets are >= 0): one cache line per probe. A key
        # probes slots h1 % n + k * step, step = 1 + h2 % (n - 1), which visits every slot
        # when step and n are coprime: always for a prime n (every table but the one at
        # the full budget, which has exactly `slots` slots), else such a key probes linearly.
        self._n = n
        self._prime = _is_prime(n)
        self._t = array("q", [-1, 0, 0]) * n

    @property
    def table_slots(self) -> int:
        """Slots allocated now (<= slots)."""
        return self._n

    @property
    def nbytes(self) -> int:
        """Bytes the table takes now (<= memory)."""
        return self._n * BYTES_PER_ENTRY

    @property
    def utilization(self) -> float:
        """Kafka's OffsetMap.utilization: entries / slots."""
        return self.size / self.slots if self.slots else 0.0

    def clear(self) -> None:
        self.size = 0
        self.latest_offset = -1
        self._alloc(self._n)

    def update_latest_offset(self, offset: int) -> None:
        self.latest_offset = offset

    def _full(self) -> OffsetMapFullError:
        return OffsetMapFullError(f"Attempted to add a new entry to a full offset map, "
                                  f"entries: {self.size}, slots: {self.slots}")

    def put(self, key: bytes, offset: int) -> None:
        """Map key to offset (a key already there is overwritten, the size unchanged)."""
        self.put_while_below(((key, offset),), self.slots + 1)

    def put_while_below(self, items, limit: int) -> int:
        """put() each (key, offset) of ``items`` in order while the map holds fewer than
        ``limit`` entries - Kafka's ``if (map.size() < maxDesiredMapSize) map.put(...)``
        (checked before every put, an already mapped key included); returns how many were
        put, fewer than len(items) when the map reached ``limit``."""
        done = 0
        t, n, size = self._t, self._n, self.size
        end = 3 * n
        try:
            for key, offset in items:
                if size >= limit:
                    break
                if size >= self.slots:
                    raise self._full()
                h1, h2 = _digest_halves(_md5(key).digest())
                j = 3 * (h1 % n)
                o = t[j]
                if o >= 0 and (t[j + 1] != h1 or t[j + 2] != h2):
                    step = _step(h2, n, self._prime)
                    for _ in range(n - 1):
                        j += step
                        if j >= end:
                            j -= end
                        o = t[j]
                        if o < 0 or (t[j + 1] == h1 and t[j + 2] == h2):
                            break
                    else:
                        if n >= self._max_n:  # every slot holds another key
                            raise self._full()
                        self.size = size
                        self._grow()
                        t, n = self._t, self._n
                        end = 3 * n
                        self.put_while_below(((key, offset),), limit)
                        size = self.size
                        done += 1
                        continue
                t[j] = offset
                self.latest_offset = offset
                done += 1
                if o < 0:
                    t[j + 1] = h1
                    t[j + 2] = h2
                    size += 1
                    if 4 * size > 3 * n and n < self._max_n:  # load above 0.75
                        self.size = size
                        self._grow()
                        t, n = self._t, self._n
                        end = 3 * n
        finally:
            self.size = size
        return done

    def get(self, key: bytes) -> int:
        """The offset mapped for key, -1 if none."""
        return self.get_many((key,))[0]

    def get_many(self, keys) -> list[int]:
        """get() of each key."""
        t, n = self._t, self._n
        if not n:
            return [-1] * len(keys)
        end = 3 * n
        out = []
        append = out.append
        for key in keys:
            h1, h2 = _digest_halves(_md5(key).digest())
            j = 3 * (h1 % n)
            o = t[j]
            if o >= 0 and (t[j + 1] != h1 or t[j + 2] != h2):
                step = _step(h2, n, self._prime)
                o = -1
                for _ in range(n - 1):
                    j += step
                    if j >= end:
                        j -= end
                    x = t[j]
                    if x < 0:
                        break
                    if t[j + 1] == h1 and t[j + 2] == h2:
                        o = x
                        break
            append(o)
        return out

    def _grow(self) -> None:
        """Rehash into a table about twice as large (at most ``slots`` slots)."""
        old = self._t
        self._alloc(min(self._max_n, _prime_at_most(max(_MIN_TABLE, 2 * self._n + 1))))
        t, n = self._t, self._n
        end = 3 * n
        for k in range(0, len(old), 3):
            o = old[k]
            if o < 0:
                continue
            h1, h2 = old[k + 1], old[k + 2]
            j = 3 * (h1 % n)
            if t[j] >= 0:
                step = _step(h2, n, self._prime)
                while t[j] >= 0:
                    j += step
                    if j >= end:
                        j -= end
            t[j] = o
            t[j + 1] = h1
            t[j + 2] = h2
