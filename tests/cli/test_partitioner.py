"""Kafka's producer partitioner in odradek produce: murmur2 with Kafka's own test vectors
(UtilsTest.testMurmur2), toPositive % partitions, and the sticky choice for keyless records."""

from __future__ import annotations

import random

import pytest

from odradek.cli_partitioner import StickyPartitioner, murmur2, partition_for_key


@pytest.mark.parametrize("data,expected", [
    (b"21", -973932308),
    (b"foobar", -790332482),
    (b"a-little-bit-long-string", -985981536),
    (b"a-little-bit-longer-string", -1486304829),
    (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971),
    (b"abc", 479470107),
])
def test_murmur2_kafka_vectors(data, expected):
    assert murmur2(data) == expected


def test_partition_is_positive_murmur2_mod_count():
    # murmur2(b"foobar") is negative: toPositive masks the sign bit (no abs(), as Kafka)
    assert partition_for_key(b"foobar", 1000) == (-790332482 & 0x7FFFFFFF) % 1000 == 166
    for k in (b"", b"a", b"ab", b"abc", b"abcd", "ключ".encode()):
        assert 0 <= partition_for_key(k, 7) < 7


def test_keyless_records_stick_for_a_batch_then_move():
    s = StickyPartitioner(50, batch_size=1000, rng=random.Random(1))
    chosen = [s.partition(100) for _ in range(1000)]
    runs = [chosen[i:i + 10] for i in range(0, len(chosen), 10)]
    assert all(len(set(run)) == 1 for run in runs)  # 10 x 100 bytes = one batch.size per partition
    assert len(set(chosen)) > 30  # and the batches spread over the partitions
