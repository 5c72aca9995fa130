"""`odradek produce` puts a keyed record in the partition kafka-clients' producer chooses.

1,000 keys (ASCII, UTF-8 beyond ASCII, the empty key, lengths 0-40 covering every murmur2
tail length) go through compat_tests/java's PartitionerCheck, which asks kafka-clients 4.3.0's
BuiltInPartitioner.partitionForKey; the same keys are produced with `odradek produce
--key-separator` to a real broker's 7-partition topic and read back partition by partition.
Skips (naming java/mvn) where Java or Maven is missing.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import pytest

from builds import CHECK_JVM, java_clients_classpath
from harness import REPO, create_topic

from odradek.cli_partitioner import partition_for_key

KAFKA_CLIENTS = "4.3.0"
COUNTS = [1, 2, 3, 7, 12, 50, 1000]

pytestmark = pytest.mark.skipif(shutil.which("java") is None or shutil.which("mvn") is None,
                                reason="needs java and mvn (kafka-clients' partitioner)")


def _keys(n: int = 1000) -> list[bytes]:
    rng = random.Random(26)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/ éüßλж中文🙂"
    keys = {b"", b"a", b"ab", b"abc", b"abcd", "ключ".encode()}
    while len(keys) < n:
        keys.add("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))).encode())
    return sorted(keys)


def _java_partitions(keys: list[bytes]) -> list[list[int]]:
    cp = java_clients_classpath(KAFKA_CLIENTS)  # built once, locked against parallel workers
    r = subprocess.run(["java", *CHECK_JVM, "-cp", cp, "odradek.compat.PartitionerCheck", *map(str, COUNTS)],
                       input="".join(k.hex() + "\n" for k in keys), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = [[int(x) for x in line.split()] for line in r.stdout.splitlines()]
    assert len(rows) == len(keys)
    return rows


@pytest.fixture(scope="module")
def keys_and_java():
    keys = _keys()
    return keys, _java_partitions(keys)


def test_partition_for_key_matches_kafka_clients(keys_and_java):
    keys, java = keys_and_java
    ours = [[partition_for_key(k, n) for n in COUNTS] for k in keys]
    mismatches = [(k, o, j) for k, o, j in zip(keys, ours, java) if o != j]
    assert not mismatches, f"{len(mismatches)} of {len(keys)} keys differ, e.g. {mismatches[:3]}"


def test_odradek_produce_uses_the_java_clients_partition(keys_and_java, bootstrap, topic_name):
    from confluent_kafka import Consumer, TopicPartition

    keys, java = keys_and_java
    partitions = 7
    expected = {k: row[COUNTS.index(partitions)] for k, row in zip(keys, java)}
    create_topic(bootstrap, topic_name, partitions=partitions)
    stdin = b"".join(k + b"\t" + str(i).encode() + b"\n" for i, k in enumerate(keys))
    r = subprocess.run([sys.executable, "-m", "odradek", "produce", topic_name, "-b", bootstrap,
                        "--key-separator", "\t"], input=stdin, capture_output=True, timeout=120, cwd=str(REPO))
    assert r.returncode == 0, r.stderr
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": topic_name, "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic_name, p, 0) for p in range(partitions)])
        got: dict[bytes, int] = {}
        while len(got) < len(keys):
            m = c.poll(10)
            assert m is not None, f"only {len(got)} of {len(keys)} records came back"
            assert m.error() is None, m.error()
            got[m.key() or b""] = m.partition()
    finally:
        c.close()
    assert got == expected
    assert len(set(got.values())) == partitions
