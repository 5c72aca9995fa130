"""KIP-848 consumer groups (group.protocol=consumer) with confluent-kafka (librdkafka 2.16), the Java
client (compat_tests/java ConsumerProtocolCheck) and raw ConsumerGroupHeartbeat/Describe requests.
Every test passes against Kafka 4.3.0 too: `pytest compat_tests/test_groups_consumer_protocol.py
--bootstrap 127.0.0.1:PORT`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from harness import RawClient, create_topic
from odradek.broker.wire_client import WireClient

# a short session so a dead member is noticed quickly (Kafka's default is 45 s)
# with their minimums lowered too: Kafka 4.3 refuses to start with a value under its minimum
BROKER_OVERRIDES = {"group.consumer.session.timeout.ms": "6000", "group.consumer.min.session.timeout.ms": "6000",
                    "group.consumer.heartbeat.interval.ms": "1000", "group.consumer.min.heartbeat.interval.ms": "1000"}


def _g():
    return f"cg-{uuid.uuid4().hex[:8]}"


def _produce(ck, bootstrap, topic, n, partitions):
    p = ck.Producer({"bootstrap.servers": bootstrap})
    for i in range(n):
        p.produce(topic, f"v{i}".encode(), partition=i % partitions)
    p.flush(10)


def _consumer(ck, bootstrap, group, topic):
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                     "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([topic])
    return c


def _drain(consumers, seen, until, timeout=60):
    end = time.time() + timeout
    while time.time() < end and not until():
        for c in consumers:
            m = c.poll(0.05)
            if m is not None and not m.error():
                seen.append((m.partition(), m.offset()))
                c.commit(message=m, asynchronous=False)


def test_confluent_consumers_split_leave_exactly_once(bootstrap, topic_name):
    ck = pytest.importorskip("confluent_kafka")
    create_topic(bootstrap, topic_name, partitions=6)
    _produce(ck, bootstrap, topic_name, 30, 6)
    group = _g()
    cs = [_consumer(ck, bootstrap, group, topic_name) for _ in range(3)]
    seen: list = []
    _drain(cs, seen, lambda: all(len(c.assignment()) == 2 for c in cs) and len(seen) >= 30)
    assert [len(c.assignment()) for c in cs] == [2, 2, 2]
    admin = ck.admin.AdminClient({"bootstrap.servers": bootstrap})
    desc = admin.describe_consumer_groups([group])[group].result(10)
    assert str(desc.type).endswith("CONSUMER") and str(desc.state).endswith("STABLE")
    assert desc.partition_assignor == "uniform" and len(desc.members) == 3
    assert sum(len(m.assignment.topic_partitions) for m in desc.members) == 6
    # one leaves: the others take its partitions; with commits nothing is read twice
    cs.pop().close()
    _produce(ck, bootstrap, topic_name, 30, 6)
    _drain(cs, seen, lambda: sorted(len(c.assignment()) for c in cs) == [3, 3] and len(seen) >= 60)
    assert sorted(len(c.assignment()) for c in cs) == [3, 3]
    assert len(seen) == 60 and len(set(seen)) == 60
    committed = cs[0].committed([ck.TopicPartition(topic_name, i) for i in range(6)], timeout=10)
    assert sum(tp.offset for tp in committed) == 60
    listed = admin.list_consumer_groups().result(10)
    assert any(g.group_id == group and str(g.type).endswith("CONSUMER") for g in listed.valid)
    for c in cs:
        c.close()
    admin.delete_consumer_groups([group])[group].result(10)


DEAD_MEMBER = r"""
import sys, time, confluent_kafka as ck
c = ck.Consumer({"bootstrap.servers": sys.argv[1], "group.id": sys.argv[2], "group.protocol": "consumer",
                 "auto.offset.reset": "earliest", "enable.auto.commit": False})
c.subscribe([sys.argv[3]])
while True:
    c.poll(0.1)
    if c.assignment():
        print("assigned", flush=True)
"""


def test_confluent_dead_member_session_expiry(bootstrap, topic_name, broker):
    ck = pytest.importorskip("confluent_kafka")
    create_topic(bootstrap, topic_name, partitions=4)
    group = _g()
    c1 = _consumer(ck, bootstrap, group, topic_name)
    proc = subprocess.Popen([sys.executable, "-c", DEAD_MEMBER, bootstrap, group, topic_name],
                            stdout=subprocess.PIPE, text=True)
    try:
        _drain([c1], [], lambda: len(c1.assignment()) == 2)
        assert len(c1.assignment()) == 2
        proc.kill()  # dies without leaving: the session timeout hands its partitions over
        # odradek here: group.consumer.session.timeout.ms=6000; Kafka: 45 s by default
        _drain([c1], [], lambda: len(c1.assignment()) == 4, timeout=70 if not broker.controllable else 60)
        assert len(c1.assignment()) == 4
    finally:
        proc.kill()
        proc.wait()
        c1.close()


def _hb(c, **kw):
    from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest

    base = dict(member_id=str(uuid.uuid4()), member_epoch=0, rebalance_timeout_ms=30000, topic_partitions=[])
    base.update(kw)
    return c.call(ConsumerGroupHeartbeatRequest(**base), 1)


def test_raw_heartbeat_errors_and_describe(bootstrap, topic_name):
    from odradek.wire.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
    from odradek.wire.messages.describe_groups_request import DescribeGroupsRequest
    from odradek.wire.messages.offset_commit_request import (
        OffsetCommitRequest,
        OffsetCommitRequestPartition,
        OffsetCommitRequestTopic,
    )

    create_topic(bootstrap, topic_name, partitions=3)
    c = RawClient(bootstrap)
    g = _g()
    # as clients do: find the coordinator first (on a fresh broker this creates __consumer_offsets;
    # before that, group requests answer NOT_COORDINATOR)
    assert WireClient.from_bootstrap(bootstrap).find_coordinator(g)[0] == 0
    none = dict(rebalance_timeout_ms=-1, topic_partitions=None)
    assert _hb(c, group_id=g, member_epoch=3, **none).error_code == 69  # GROUP_ID_NOT_FOUND
    m1 = str(uuid.uuid4())
    r = _hb(c, group_id=g, member_id=m1, subscribed_topic_names=[topic_name])
    assert r.error_code == 0 and r.member_epoch > 0 and r.heartbeat_interval_ms > 0
    assert sorted(r.assignment.topic_partitions[0].partitions) == [0, 1, 2]
    epoch = r.member_epoch
    assert _hb(c, group_id=g, member_id=m1, member_epoch=epoch + 5, **none).error_code == 110  # FENCED_MEMBER_EPOCH
    assert _hb(c, group_id=g, member_id="nobody", member_epoch=epoch, **none).error_code == 25  # UNKNOWN_MEMBER_ID
    r = _hb(c, group_id=g, rebalance_timeout_ms=-1, subscribed_topic_names=[topic_name])
    assert (r.error_code, r.error_message) == (42, "RebalanceTimeoutMs must be provided in first request.")
    assert _hb(c, group_id=g, member_id="", subscribed_topic_names=[topic_name]).error_code == 42
    assert _hb(c, group_id=g, subscribed_topic_names=[topic_name], server_assignor="sticky").error_code == 112
    assert _hb(c, group_id=g, subscribed_topic_regex="[a").error_code == 128  # INVALID_REGULAR_EXPRESSION
    # static membership: a second incarnation is refused until the first leaves with epoch -2
    r = _hb(c, group_id=g, member_id="s1", instance_id="i1", subscribed_topic_names=[topic_name])
    assert r.error_code == 0
    assert _hb(c, group_id=g, member_id="s2", instance_id="i1", subscribed_topic_names=[topic_name]).error_code == 111
    r = _hb(c, group_id=g, member_id="s1", instance_id="i1", member_epoch=-2, **none)
    assert (r.error_code, r.member_epoch) == (0, -2)
    r = _hb(c, group_id=g, member_id="s2", instance_id="i1", subscribed_topic_names=[topic_name])
    assert r.error_code == 0
    # OffsetCommit v9 checks the member epoch
    def commit(mid, ep):
        req = OffsetCommitRequest(group_id=g, generation_id_or_member_epoch=ep, member_id=mid, topics=[
            OffsetCommitRequestTopic(name=topic_name, partitions=[OffsetCommitRequestPartition(
                partition_index=0, committed_offset=1)])])
        return c.call(req, 9).topics[0].partitions[0].error_code
    r = _hb(c, group_id=g, member_id=m1, member_epoch=epoch, **none)
    epoch = r.member_epoch
    assert commit(m1, epoch) == 0
    assert commit(m1, epoch + 1) == 113  # STALE_MEMBER_EPOCH
    assert commit("nobody", epoch) == 25
    d = c.call(ConsumerGroupDescribeRequest(group_ids=[g, g + "-none"], include_authorized_operations=True), 1)
    # (Kafka answers shard by shard: the groups come in no particular order)
    ok, missing = sorted(d.groups, key=lambda x: x.group_id != g)
    assert ok.error_code == 0 and ok.assignor_name == "uniform" and len(ok.members) == 2
    assert ok.authorized_operations == 3400
    assert {m.instance_id for m in ok.members} == {None, "i1"}
    assert all(m.member_type == 1 and m.subscribed_topic_names == [topic_name] for m in ok.members)
    assert (missing.error_code, missing.group_state) == (69, "")
    # the classic DescribeGroups (v5) shows a consumer group as Dead
    dg = c.call(DescribeGroupsRequest(groups=[g]), 5).groups[0]
    assert (dg.error_code, dg.group_state, dg.members) == (0, "Dead", [])
    # the classic API cannot join a consumer group that has members... (Kafka 4.3 would host it)
    for mid, ep in ((m1, epoch), ("s2", None)):
        if ep is None:
            _hb(c, group_id=g, member_id=mid, instance_id="i1", member_epoch=-1, **none)
        else:
            _hb(c, group_id=g, member_id=mid, member_epoch=-1, **none)


def test_java_consumer_protocol(bootstrap):
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Java 17 and Maven")
    from builds import CHECK_JVM, java_clients_classpath as build

    cp = build("4.3.0")
    r = subprocess.run(["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", cp,
                        "odradek.compat.ConsumerProtocolCheck", bootstrap],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr[-4000:]
    for check in ("consumer848.threeSplitPartitions", "admin.describeConsumerGroups",
                  "consumer848.leaveAndExactlyOnce", "consumer848.committedAcrossTopicRecreation",
                  "admin.deleteConsumerGroup"):
        assert f"PASS {check}" in r.stdout, r.stdout
