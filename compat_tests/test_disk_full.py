"""A real full disk: the broker's data dir on a small tmpfs. Produce until the disk is
full (KAFKA_STORAGE_ERROR), free space (a ballast file goes), produce again, stop with
SIGTERM and start again: the broker starts and every acknowledged record is there.

Mounting a tmpfs needs root (CAP_SYS_ADMIN); where that is not permitted the test is
skipped, saying so.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

import pytest

from harness import BrokerProcess, create_topic

from test_durability import consume_all

TMPFS_MB = 24
BALLAST_MB = 6


@pytest.fixture
def small_disk():
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; not permitted here")
    d = tempfile.mkdtemp(prefix="odradek-full-")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_MB}m", "tmpfs", d],
                       capture_output=True, text=True)
    if r.returncode != 0:
        os.rmdir(d)
        pytest.skip(f"mounting a tmpfs is not permitted here: {r.stderr.strip()}")
    try:
        yield d
    finally:
        subprocess.run(["umount", "-l", d], capture_output=True)
        os.rmdir(d)


def _produce(bootstrap: str, topic: str, values: list[bytes]) -> tuple[list, list]:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0, "retries": 0,
                  "enable.idempotence": False, "message.max.bytes": 2_000_000})
    acked, failed = [], []

    def cb(err, msg):
        (acked if err is None else failed).append(msg.value() if err is None else err)

    for v in values:
        p.produce(topic, value=v, on_delivery=cb)
        p.poll(0)
    p.flush(30)
    return acked, failed


def _fill(small_disk: str, topic: str) -> tuple[BrokerProcess, str, list[bytes]]:
    """A broker on the small disk with a ballast file beside it, produced to until the disk
    is full (KAFKA_STORAGE_ERROR): the broker, the ballast's path, the acknowledged values."""
    from confluent_kafka import KafkaError

    data = os.path.join(small_disk, "data")
    ballast = os.path.join(small_disk, "ballast")
    with open(ballast, "wb") as f:
        f.write(b"\0" * (BALLAST_MB << 20))
    b = BrokerProcess(data, {"log.segment.bytes": str(4 << 20)})
    b.start()
    try:
        create_topic(b.bootstrap, topic)
        acked: list[bytes] = []
        failed: list = []
        i = 0
        while not failed and i < 2000:  # more than the disk holds
            a, failed = _produce(b.bootstrap, topic,
                                 [b"%06d-" % (i + k) + os.urandom(50_000) for k in range(20)])
            acked += a
            i += 20
        assert failed, "the disk never filled"
        assert {e.code() for e in failed} == {KafkaError.KAFKA_STORAGE_ERROR}, failed[:3]
    except BaseException:
        b.kill9()
        raise
    return b, ballast, acked


def test_disk_full_then_space_back_then_restart(small_disk, topic_name):
    b, ballast, acked = _fill(small_disk, topic_name)
    try:
        os.remove(ballast)  # space comes back
        a, failed = _produce(b.bootstrap, topic_name, [b"after-%d" % k for k in range(5)])
        assert not failed and len(a) == 5, failed[:3]
        acked += a
        assert b.stop() == 0
        b.start()  # it used to exit with LogCorruptionError "partial batch"
        got = [v for _, _, _, v in consume_all(b.bootstrap, topic_name, len(acked), timeout=60)]
        assert got == acked
    finally:
        b.kill9()


def test_kill_9_on_a_full_disk_then_space_back_then_restart(small_disk, topic_name):
    """kill -9 while the disk is full (failed appends were cut back, nothing was stopped
    cleanly), space returns, start: every acknowledged record is there, writes go on."""
    b, ballast, acked = _fill(small_disk, topic_name)
    try:
        b.kill9()
        os.remove(ballast)
        b.start()
        got = [v for _, _, _, v in consume_all(b.bootstrap, topic_name, len(acked), timeout=60)]
        assert got == acked
        a, failed = _produce(b.bootstrap, topic_name, [b"after-%d" % k for k in range(5)])
        assert not failed and len(a) == 5, failed[:3]
    finally:
        b.kill9()
