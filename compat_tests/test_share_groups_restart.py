"""Share groups across a broker restart, with confluent-kafka's ShareConsumer and Kafka 4.3's
kafka-share-groups tool: acknowledged records stay delivered, released ones come back with their
delivery count, offsets set with --reset-offsets stay set, and the group is still listed. (Restarts
need a broker this suite controls: skipped with --bootstrap, as against Kafka.)"""

from __future__ import annotations

import time

from harness import create_topic, kafka_tool
from test_share_groups import _drain, _name, _produce, _set_group_config, _share_consumer, ck


def _describe(bootstrap, group, topic) -> list[list[str]]:
    r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--describe", "--group", group)
    return sorted(line.split()[1:] for line in r.stdout.splitlines() if topic in line)


def test_acknowledged_and_released_records_survive_a_restart(controllable_broker):
    b = controllable_broker
    topic, group = _name("sgr"), _name("sgr")
    create_topic(b.bootstrap, topic, 2)
    _produce(b.bootstrap, topic, 10, 2)
    _set_group_config(b.bootstrap, group, "share.auto.offset.reset", "earliest")
    c = _share_consumer(b.bootstrap, group, **{"share.acknowledgement.mode": "explicit"})
    try:
        c.subscribe([topic])
        # partition 0 accepted; partition 1's records taken and left unacknowledged (released at close)
        got = [[]]
        deadline = time.time() + 60
        while len(got[0]) < 10 and time.time() < deadline:
            for m in c.poll(timeout=0.3):
                if not m.error():
                    got[0].append(m)
                    if m.partition() == 0:
                        c.acknowledge(m, ck.AcknowledgeType.ACCEPT)
        assert len(got[0]) == 10
        c.commit_sync()
    finally:
        c.close()
    # as Kafka 4.3 writes them: partition 0's acknowledgement at the start offset from before it (0,
    # with 5 records delivered-complete: lag 0), partition 1's release at 0 with nothing complete
    assert _describe(b.bootstrap, group, topic) == [[topic, "0", "0", "0"], [topic, "1", "0", "5"]]

    b.restart()
    assert _describe(b.bootstrap, group, topic) == [[topic, "0", "0", "0"], [topic, "1", "0", "5"]]
    r = kafka_tool("share-groups", "--bootstrap-server", b.bootstrap, "--list")
    assert group in r.stdout.split()
    _produce(b.bootstrap, topic, 2, 2)  # m0 -> partition 0 offset 5, m1 -> partition 1 offset 5
    c = _share_consumer(b.bootstrap, group, **{"share.acknowledgement.mode": "explicit"})
    try:
        c.subscribe([topic])
        (again,) = _drain([c], 7, ack=ck.AcknowledgeType.ACCEPT)
        c.commit_sync()
    finally:
        c.close()
    # partition 1's five again (second delivery), and the two new records; none of partition 0's five
    assert sorted((m.partition(), m.offset(), m.delivery_count()) for m in again) == \
        [(0, 5, 1)] + [(1, o, 2) for o in range(5)] + [(1, 5, 1)]


def test_reset_offsets_survive_a_restart(controllable_broker):
    b = controllable_broker
    topic, group = _name("sgr"), _name("sgr")
    create_topic(b.bootstrap, topic, 2)
    _produce(b.bootstrap, topic, 6, 2)
    r = kafka_tool("share-groups", "--bootstrap-server", b.bootstrap, "--group", group, "--reset-offsets",
                   "--topic", f"{topic}:1", "--to-latest", "--execute")
    assert r.returncode == 0, r.stderr
    r = kafka_tool("share-groups", "--bootstrap-server", b.bootstrap, "--group", group, "--reset-offsets",
                   "--topic", f"{topic}:0", "--to-earliest", "--execute")
    assert r.returncode == 0, r.stderr
    b.restart()
    assert _describe(b.bootstrap, group, topic) == [[topic, "0", "0", "3"], [topic, "1", "3", "0"]]
    r = kafka_tool("share-groups", "--bootstrap-server", b.bootstrap, "--delete-offsets", "--group", group,
                   "--topic", topic)
    assert "Successful" in r.stdout
    b.restart()
    r = kafka_tool("share-groups", "--bootstrap-server", b.bootstrap, "--describe", "--group", group)
    assert f"Share group '{group}' has no offset information." in r.stdout + r.stderr


def test_initialized_partitions_survive_a_restart_and_start_from_the_reset_offset(controllable_broker):
    """A group's partitions initialized by the group coordinator (start offset -1) stay initialized
    across a restart (not initialized again) and start, at the first fetch after it, from
    share.auto.offset.reset."""
    from test_share_group_offsets import _initialized_rows

    b = controllable_broker
    topic, group = _name("sgr"), _name("sgr")
    create_topic(b.bootstrap, topic, 2)
    c = _share_consumer(b.bootstrap, group)
    try:
        c.subscribe([topic])
        assert _initialized_rows(b.bootstrap, group, c) == [[group, topic, "0", "-", "-"], [group, topic, "1", "-", "-"]]
    finally:
        c.close()
    b.restart()
    assert _initialized_rows(b.bootstrap, group) == [[group, topic, "0", "-", "-"], [group, topic, "1", "-", "-"]]
    _produce(b.bootstrap, topic, 4, 2)
    _set_group_config(b.bootstrap, group, "share.auto.offset.reset", "earliest")
    c = _share_consumer(b.bootstrap, group, **{"share.acknowledgement.mode": "explicit"})
    try:
        c.subscribe([topic])
        (got,) = _drain([c], 4, ack=ck.AcknowledgeType.ACCEPT)
        c.commit_sync()
    finally:
        c.close()
    assert sorted((m.partition(), m.offset()) for m in got) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert _describe(b.bootstrap, group, topic) == [[topic, "0", "0", "0"], [topic, "1", "0", "0"]]
