"""Share groups (KIP-932, "queues for Kafka") with stock clients: confluent-kafka's ShareConsumer
(librdkafka), GROUP config resources with its admin client, and Kafka's own kafka-share-groups and
kafka-console-share-consumer tools (Maven Central jars). Each test passes against Kafka 4.3 too."""

from __future__ import annotations

import time
import uuid

import pytest

from harness import create_topic, kafka_tool


ck = pytest.importorskip("confluent_kafka")
if not hasattr(ck, "ShareConsumer"):
    pytest.skip("this confluent-kafka has no ShareConsumer", allow_module_level=True)


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _admin(bootstrap):
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap})


def _set_group_config(bootstrap, group, name, value):
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource

    res = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=[
        ConfigEntry(name, str(value), incremental_operation=AlterConfigOpType.SET)])
    admin = _admin(bootstrap)  # kept alive until the futures complete
    for f in admin.incremental_alter_configs([res], request_timeout=10).values():
        f.result()


def _produce(bootstrap, topic, n, partitions):
    p = ck.Producer({"bootstrap.servers": bootstrap})
    for i in range(n):
        p.produce(topic, value=f"m{i}".encode(), partition=i % partitions)
    assert p.flush(10) == 0


def _share_consumer(bootstrap, group, **conf):
    return ck.ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, **conf})


def _drain(consumers, want, timeout=60.0, ack=None):
    got = [[] for _ in consumers]
    deadline = time.time() + timeout
    while sum(map(len, got)) < want and time.time() < deadline:
        for i, c in enumerate(consumers):
            for m in c.poll(timeout=0.3):
                if m.error():
                    continue
                got[i].append(m)
                if ack is not None:
                    c.acknowledge(m, ack)
    return got


@pytest.fixture
def share_topic(bootstrap):
    topic = _name("share")
    create_topic(bootstrap, topic, 2)
    return topic


@pytest.fixture
def earliest_group(bootstrap):
    group = _name("sg")
    _set_group_config(bootstrap, group, "share.auto.offset.reset", "earliest")
    return group


def test_two_share_consumers_get_disjoint_records_covering_all(bootstrap, share_topic, earliest_group):
    _produce(bootstrap, share_topic, 30, 2)
    conf = {"share.acknowledgement.mode": "explicit"}
    c1, c2 = _share_consumer(bootstrap, earliest_group, **conf), _share_consumer(bootstrap, earliest_group, **conf)
    try:
        c1.subscribe([share_topic])
        c2.subscribe([share_topic])
        g1, g2 = _drain([c1, c2], 30, ack=ck.AcknowledgeType.ACCEPT)
        c1.commit_sync()
        c2.commit_sync()
        o1 = {(m.partition(), m.offset()) for m in g1}
        o2 = {(m.partition(), m.offset()) for m in g2}
        assert not (o1 & o2)
        assert o1 | o2 == {(p, o) for p in (0, 1) for o in range(15)}
        assert all(m.delivery_count() == 1 for m in g1 + g2)
        assert sorted(m.value() for m in g1 + g2) == sorted(f"m{i}".encode() for i in range(30))
    finally:
        c1.close()
        c2.close()


def test_latest_by_default_and_records_after_subscribe(bootstrap, share_topic):
    group = _name("sg")
    _produce(bootstrap, share_topic, 4, 2)  # offsets 0-1 of each partition, before the group exists: not for it
    c = _share_consumer(bootstrap, group)
    try:
        c.subscribe([share_topic])
        # until each share-partition has started (at the log end then, share.auto.offset.reset=latest; it is
        # not described before something is acknowledged, on Kafka 4.3 too): a marker written to a partition
        # that has delivered none yet comes back once its share-partition is there
        got, started = [], set()
        p = ck.Producer({"bootstrap.servers": bootstrap})
        deadline = time.time() + 60
        while started != {0, 1} and time.time() < deadline:
            for partition in {0, 1} - started:
                p.produce(share_topic, value=b"marker", partition=partition)
            assert p.flush(10) == 0
            for m in c.poll(timeout=1.0):
                if not m.error():
                    got.append(m)
                    started.add(m.partition())
        assert started == {0, 1}, "no marker delivered in 60 s"
        _produce(bootstrap, share_topic, 6, 2)
        deadline = time.time() + 60
        while sum(m.value() != b"marker" for m in got) < 6 and time.time() < deadline:
            got += [m for m in c.poll(timeout=0.3) if not m.error()]
        assert sorted(m.value() for m in got if m.value() != b"marker") == [f"m{i}".encode() for i in range(6)]
        assert min(m.offset() for m in got) >= 2  # nothing written before the group
    finally:
        c.close()


def test_release_redelivers_with_a_higher_delivery_count(bootstrap, share_topic, earliest_group):
    _produce(bootstrap, share_topic, 4, 2)
    c = _share_consumer(bootstrap, earliest_group, **{"share.acknowledgement.mode": "explicit"})
    try:
        c.subscribe([share_topic])
        (first,) = _drain([c], 4, ack=ck.AcknowledgeType.RELEASE)
        assert len(first) == 4 and all(m.delivery_count() == 1 for m in first)
        c.commit_sync()
        (again,) = _drain([c], 4, ack=ck.AcknowledgeType.ACCEPT)
        assert {(m.partition(), m.offset()) for m in again} == {(m.partition(), m.offset()) for m in first}
        assert all(m.delivery_count() == 2 for m in again)
        c.commit_sync()
    finally:
        c.close()


def test_group_config_resource(bootstrap):
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import ConfigResource

    group = _name("sg")
    _set_group_config(bootstrap, group, "share.record.lock.duration.ms", 20000)
    res = ConfigResource(ConfigResource.Type.GROUP, group)
    admin = _admin(bootstrap)
    configs = admin.describe_configs([res], request_timeout=10)[res].result()
    lock = configs["share.record.lock.duration.ms"]
    assert lock.value == "20000" and lock.source == 8  # GROUP_CONFIG
    assert configs["share.auto.offset.reset"].value == "latest"
    assert configs["share.delivery.count.limit"].value == "5"
    with pytest.raises(KafkaException) as e:
        _set_group_config(bootstrap, group, "share.no.such.config", 1)
    assert e.value.args[0].code() == ck.KafkaError.INVALID_CONFIG
    with pytest.raises(KafkaException) as e:
        _set_group_config(bootstrap, group, "share.record.lock.duration.ms", 10)  # below the broker's minimum
    assert e.value.args[0].code() == ck.KafkaError.INVALID_CONFIG


def test_kafka_share_groups_tool_lists_and_describes(bootstrap, share_topic, earliest_group):
    _produce(bootstrap, share_topic, 10, 2)
    c = _share_consumer(bootstrap, earliest_group, **{"share.acknowledgement.mode": "explicit",
                                                      "client.id": "share-tool-test"})
    try:
        c.subscribe([share_topic])
        (got,) = _drain([c], 10, ack=ck.AcknowledgeType.ACCEPT)
        assert len(got) == 10
        c.commit_sync()
        r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--list")
        assert r.returncode == 0, r.stderr
        assert earliest_group in r.stdout.split()
        r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--describe", "--group", earliest_group,
                       "--members")
        assert r.returncode == 0, r.stderr
        assert "share-tool-test" in r.stdout and share_topic in r.stdout
        r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--describe", "--group", earliest_group,
                       "--state")
        assert r.returncode == 0, r.stderr
        assert "Stable" in r.stdout
        deadline = time.time() + 60
        while True:  # Kafka persists share-partition state asynchronously: allow it a moment
            r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--describe", "--group", earliest_group)
            assert r.returncode == 0, r.stderr
            rows = sorted(tuple(line.split()[1:]) for line in r.stdout.splitlines() if share_topic in line)
            if [row[3] for row in rows] == ["0", "0"] or time.time() > deadline:
                break
            time.sleep(0.5)
        # every record acknowledged: no lag. The START-OFFSET is 5 on odradek (the SPSO moves past
        # acknowledged records at once); Kafka 4.3 shows 0 here and counts the acknowledged records
        # apart (KIP-1226's delivery-complete count) until its next fetch moves the SPSO.
        assert [(row[0], row[1], row[3]) for row in rows] == [(share_topic, "0", "0"), (share_topic, "1", "0")]
        assert {row[2] for row in rows} <= {"0", "5"}
    finally:
        c.close()
    r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--delete", "--group", earliest_group)
    assert r.returncode == 0, r.stderr + r.stdout
    r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--list")
    assert earliest_group not in r.stdout.split()


def test_kafka_console_share_consumer(bootstrap, share_topic, earliest_group):
    _produce(bootstrap, share_topic, 6, 2)
    r = kafka_tool("console-share-consumer", "--bootstrap-server", bootstrap, "--topic", share_topic, "--group",
                   earliest_group, "--max-messages", "6", "--timeout-ms", "30000")
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == [f"m{i}" for i in range(6)]


# ---- share sessions on the wire: how long a member's session and acquired records live (Kafka 4.3's
# SharePartitionManager / ShareSessionCache): not ended by the member leaving the group, ended by its
# final-epoch ShareAcknowledge or by the close of the connection that opened it.

def _member_id() -> str:
    return uuid.uuid4().hex[:22]


def _join_until_assigned(c, group, member, topic) -> tuple[int, dict]:
    """ShareGroupHeartbeat until the member is assigned partitions (they are assigned once the group
    has initialized them): (member epoch, {topic_id: [partitions]})."""
    from odradek.wire.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

    c.await_group_coordinator(group)
    epoch, deadline = 0, time.time() + 60
    while True:
        r = c.call(ShareGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=epoch,
                                              subscribed_topic_names=[topic] if epoch == 0 else None), 1)
        if r.error_code in (14, 15, 16):  # the coordinator still loading (Kafka: __consumer_offsets just made)
            assert time.time() < deadline, f"error {r.error_code} for 60 s"
            time.sleep(0.1)
            continue
        assert r.error_code == 0, r.error_message
        epoch = r.member_epoch
        if r.assignment is not None and r.assignment.topic_partitions:
            return epoch, {tp.topic_id: list(tp.partitions) for tp in r.assignment.topic_partitions}
        assert time.time() < deadline, "no assignment in 60 s"
        time.sleep(0.1)


def _leave(c, group, member) -> None:
    from odradek.wire.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

    r = c.call(ShareGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=-1), 1)
    assert (r.error_code, r.member_epoch) == (0, -1)


def _share_fetch_until(c, group, member, assigned, want: int, epoch: int = 0) -> list[tuple[int, int, int]]:
    """ShareFetch (session epoch `epoch`, then the next ones) until `want` records are acquired:
    [(partition, offset, delivery count)] sorted."""
    from odradek.wire.messages.share_fetch_request import FetchPartition, FetchTopic, ShareFetchRequest

    got, deadline = [], time.time() + 30
    while len(got) < want:
        r = c.call(ShareFetchRequest(group_id=group, member_id=member, share_session_epoch=epoch, max_wait_ms=500,
                                     min_bytes=1, max_bytes=1 << 20, max_records=500, batch_size=500, topics=[
                                         FetchTopic(topic_id=tid, partitions=[FetchPartition(partition_index=p)
                                                                             for p in ps])
                                         for tid, ps in assigned.items()]), 1)
        assert r.error_code == 0, r.error_message
        epoch += 1
        for t in r.responses:
            for p in t.partitions:
                assert p.error_code == 0, p.error_message
                got += [(p.partition_index, o, a.delivery_count)
                        for a in p.acquired_records for o in range(a.first_offset, a.last_offset + 1)]
        assert time.time() < deadline, f"{len(got)} of {want} records acquired in 30 s"
    return sorted(got)


@pytest.fixture
def long_locks_group(bootstrap, earliest_group):
    """Acquisition locks of 60 s (Kafka's largest by default): nothing here waits for one to expire."""
    _set_group_config(bootstrap, earliest_group, "share.record.lock.duration.ms", 60000)
    return earliest_group


def test_final_acknowledgement_after_leaving_the_group(bootstrap, share_topic, long_locks_group):
    """librdkafka's ShareConsumer.close() sends its leave heartbeat before its final ShareAcknowledge
    (epoch -1): the session is still there, the acknowledgements apply (odradek answered
    SHARE_SESSION_NOT_FOUND and the records were delivered again), as on Kafka 4.3."""
    from harness import RawClient
    from odradek.wire.messages.share_acknowledge_request import (AcknowledgementBatch, AcknowledgePartition,
                                                                 AcknowledgeTopic, ShareAcknowledgeRequest)

    group, m1, m2 = long_locks_group, _member_id(), _member_id()
    _produce(bootstrap, share_topic, 6, 2)
    c1 = RawClient(bootstrap)
    try:
        _, assigned = _join_until_assigned(c1, group, m1, share_topic)
        got = _share_fetch_until(c1, group, m1, assigned, 6)
        assert [(p, o) for p, o, _ in got] == [(p, o) for p in (0, 1) for o in range(3)]
        _leave(c1, group, m1)
        (tid,) = assigned
        r = c1.call(ShareAcknowledgeRequest(group_id=group, member_id=m1, share_session_epoch=-1, topics=[
            AcknowledgeTopic(topic_id=tid, partitions=[AcknowledgePartition(partition_index=p, acknowledgement_batches=[
                AcknowledgementBatch(first_offset=0, last_offset=2, acknowledge_types=[1])]) for p in (0, 1)])]), 1)
        assert r.error_code == 0
        assert sorted((p.partition_index, p.error_code) for t in r.responses for p in t.partitions) == [(0, 0), (1, 0)]
    finally:
        c1.close()
    _produce(bootstrap, share_topic, 2, 2)  # offset 3 of each partition
    c2 = RawClient(bootstrap)
    try:
        _, assigned = _join_until_assigned(c2, group, m2, share_topic)
        assert _share_fetch_until(c2, group, m2, assigned, 2) == [(0, 3, 1), (1, 3, 1)]  # 0-2 accepted: never again
    finally:
        c2.close()


def test_closing_the_connection_releases_the_session_records(bootstrap, share_topic, long_locks_group):
    """A member whose connection closes with records acquired: they are available again at once (Kafka's
    ShareSessionCache disconnect listener releases the session), not after the 60 s lock."""
    from harness import RawClient

    group, m1, m2 = long_locks_group, _member_id(), _member_id()
    _produce(bootstrap, share_topic, 4, 2)
    c1 = RawClient(bootstrap)
    _, assigned = _join_until_assigned(c1, group, m1, share_topic)
    assert _share_fetch_until(c1, group, m1, assigned, 4) == [(p, o, 1) for p in (0, 1) for o in (0, 1)]
    c1.close()  # no leave (m1 stays a member: m2 may be assigned one partition), no acknowledgement
    c2 = RawClient(bootstrap)
    try:
        _, assigned = _join_until_assigned(c2, group, m2, share_topic)
        (parts,) = assigned.values()
        assert _share_fetch_until(c2, group, m2, assigned, 2 * len(parts)) == [
            (p, o, 2) for p in sorted(parts) for o in (0, 1)]
    finally:
        c2.close()
