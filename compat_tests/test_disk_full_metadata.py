"""Issue 27's reproduction on a real full disk: the metadata log. The data dir is on a
small tmpfs; 80 topics exist; the disk is filled to the last byte; topics are deleted one
by one until a DeleteTopics fails (its metadata append hits ENOSPC: nothing of it may stay
on disk); space comes back; that DeleteTopics again and CreateTopics newtopic2 succeed;
SIGTERM and start again: every deleted topic is gone, the others and newtopic2 are there. Before the fix the torn batch stayed in the
metadata log, later batches were appended after it, and the restart cut them all off
(`fill` came back, `newtopic2` was gone).

Mounting a tmpfs needs root; where that is not permitted the test is skipped, saying so.
"""

from __future__ import annotations

import errno
import os

from harness import BrokerProcess

from test_disk_full import small_disk  # noqa: F401  (the tmpfs fixture)


def _fill_to_the_last_byte(path: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for chunk in (1 << 20, 4096, 64, 1):
            try:
                while True:
                    os.write(fd, b"\0" * chunk)
            except OSError as e:
                assert e.errno == errno.ENOSPC
    finally:
        os.close(fd)


def _admin(bootstrap: str):
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap})


def _delete(admin, name: str):
    """None when deleted, else the KafkaError."""
    from confluent_kafka import KafkaException

    try:
        admin.delete_topics([name], operation_timeout=10)[name].result(timeout=30)
        return None
    except KafkaException as e:
        return e.args[0]


def _topics(bootstrap: str) -> set[str]:
    return set(_admin(bootstrap).list_topics(timeout=10).topics)


def test_metadata_changes_acknowledged_around_a_full_disk_survive_restart(small_disk):  # noqa: F811
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import NewTopic

    data = os.path.join(small_disk, "data")
    ballast = os.path.join(small_disk, "ballast")
    b = BrokerProcess(data)
    b.start()
    try:
        admin = _admin(b.bootstrap)
        pads = [f"pad-{i}" for i in range(80)]
        fs = admin.create_topics([NewTopic(n, 1, 1) for n in pads], operation_timeout=30)
        for f in fs.values():
            f.result(timeout=60)
        _fill_to_the_last_byte(ballast)
        # the metadata log's last page may still have room: delete pads until a write fails
        deleted, err = [], None
        for n in pads:
            err = _delete(admin, n)
            if err is not None:
                break
            deleted.append(n)
        assert err is not None and err.code() == KafkaError.UNKNOWN, err  # UNKNOWN_SERVER_ERROR
        failed = n
        os.remove(ballast)  # space comes back
        assert _delete(admin, failed) is None
        deleted.append(failed)
        fs = admin.create_topics([NewTopic("newtopic2", 1, 1)], operation_timeout=10)
        fs["newtopic2"].result(timeout=30)
        assert b.stop() == 0
        b.start()
        topics = _topics(b.bootstrap)
        assert "newtopic2" in topics and not topics & set(deleted), sorted(topics)
        assert set(pads) - set(deleted) <= topics
    finally:
        b.kill9()
