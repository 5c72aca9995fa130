"""Kafka's built-in producer partitioner (KIP-794), as `odradek produce` uses it.

A record with a key goes to ``toPositive(murmur2(key)) % partitions`` — the partition the
Java client (BuiltInPartitioner.partitionForKey), librdkafka's murmur2_random and the other
Kafka clients choose for the same key bytes. Records without a key stick to one partition
until about batch.size bytes went to it, then a partition is chosen again at random.
"""

from __future__ import annotations

import random

BATCH_SIZE = 16384  # the producer's batch.size default: how long a keyless run sticks

_M = 0x5BD1E995
_MASK = 0xFFFFFFFF


def murmur2(data: bytes) -> int:
    """Kafka's Utils.murmur2 (seed 0x9747b28c) as a signed 32-bit int, as Java returns it."""
    length = len(data)
    h = (0x9747B28C ^ length) & _MASK
    end = length & ~3
    for i in range(0, end, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * _M) & _MASK
        k ^= k >> 24
        k = (k * _M) & _MASK
        h = ((h * _M) & _MASK) ^ k
    rest = length & 3
    if rest == 3:
        h ^= data[end + 2] << 16
    if rest >= 2:
        h ^= data[end + 1] << 8
    if rest >= 1:
        h ^= data[end]
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def partition_for_key(key: bytes, partitions: int) -> int:
    """Kafka's BuiltInPartitioner.partitionForKey: Utils.toPositive(murmur2(key)) % partitions."""
    return (murmur2(key) & 0x7FFFFFFF) % partitions


class StickyPartitioner:
    """Kafka's uniform sticky choice for keyless records: one partition until about
    batch.size bytes were sent to it, then a random one."""

    def __init__(self, partitions: int, batch_size: int = BATCH_SIZE, rng: random.Random | None = None):
        self.partitions = partitions
        self.batch_size = batch_size
        self._rng = rng or random.Random()
        self._current = self._rng.randrange(partitions)
        self._bytes = 0

    def partition(self, size: int) -> int:
        if self._bytes >= self.batch_size:
            self._current = self._rng.randrange(self.partitions)
            self._bytes = 0
        self._bytes += size
        return self._current
