"""KIP-227 incremental fetch sessions over the raw protocol: the session lifecycle
(full -> incremental with only changed partitions -> forgotten partitions -> epoch
errors -> close), long polls inside a session, and stock consumers reading everything.

Session ids are random: tests compare structure and error codes. Every test holds
against Apache Kafka too (`pytest compat_tests/test_fetch_sessions.py --bootstrap HOST:PORT`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time

import pytest

from harness import RawClient, create_topic
from odradek.wire import records
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic, ForgottenTopic
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

FINAL_EPOCH = -1


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


def produce(client, topic, partition, values):
    batch = records.build_batch([(None, v) for v in values], base_timestamp=int(time.time() * 1000))
    req = ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[
        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])])
    pr = client.call(req, 9).responses[0].partition_responses[0]
    assert pr.error_code == 0
    return pr.base_offset


def topic_id(client, topic):
    md = client.call(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
    return md.topics[0].topic_id


class Session:
    """A fetcher speaking Fetch at ``version`` (v13+: topics by id)."""

    def __init__(self, client, topic, tid, version):
        self.c, self.topic, self.tid, self.v = client, topic, tid, version
        self.id, self.epoch = 0, 0

    def request(self, parts=(), forgotten=(), epoch=None, session_id=None, max_wait=0, min_bytes=1, version=None):
        topics = [FetchTopic(topic=self.topic, topic_id=self.tid, partitions=[
            FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1 << 20) for p, o in parts])] if parts else []
        fg = [ForgottenTopic(topic=self.topic, topic_id=self.tid, partitions=list(forgotten))] if forgotten else []
        return FetchRequest(replica_id=-1, max_wait_ms=max_wait, min_bytes=min_bytes, max_bytes=1 << 24,
                            isolation_level=0, session_id=self.id if session_id is None else session_id,
                            session_epoch=self.epoch if epoch is None else epoch, topics=topics,
                            forgotten_topics_data=fg)

    def fetch(self, parts=(), forgotten=(), version=None, **kw):
        resp = self.c.call(self.request(parts, forgotten, **kw), version or self.v)
        return self.step(resp)

    def step(self, resp):
        if resp.error_code == 0 and resp.session_id != 0:
            self.id = resp.session_id
            self.epoch = self.epoch + 1 if self.epoch >= 0 else self.epoch
        return resp


def partitions(resp) -> dict[int, object]:
    out = {}
    for t in resp.responses:
        for p in t.partitions:
            out[p.partition_index] = p
    return out


def n_records(pd) -> int:
    return sum(len(recs) for _, recs in records.iter_batches(bytes(pd.records or b"")))


@pytest.fixture
def topic3(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, partitions=3)
    # Kafka answers NOT_LEADER_OR_FOLLOWER for a moment after creation: wait it out
    s = Session(raw, topic_name, b"\0" * 16, 12)
    deadline = time.monotonic() + 60
    while any(p.error_code for p in partitions(raw.call(s.request([(0, 0), (1, 0), (2, 0)], epoch=FINAL_EPOCH), 12)).values()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return topic_name


@pytest.mark.parametrize("version", [12, 13, 16])
def test_session_lifecycle(raw, topic3, version):
    tid = topic_id(raw, topic3)
    produce(raw, topic3, 0, [b"a", b"b"])
    s = Session(raw, topic3, tid, version)
    r = s.fetch([(0, 0), (1, 0), (2, 0)])
    assert r.error_code == 0 and r.session_id != 0
    ps = partitions(r)
    assert sorted(ps) == [0, 1, 2] and n_records(ps[0]) == 2 and ps[0].high_watermark == 2
    if version >= 13:
        assert [t.topic_id for t in r.responses] == [tid]

    # the consumer moved on in p0: listed, but nothing changed -> an empty response
    r = s.fetch([(0, 2)])
    assert (r.error_code, r.session_id, r.responses) == (0, s.id, [])

    # new data in p1 only
    produce(raw, topic3, 1, [b"c"])
    r = s.fetch()
    ps = partitions(r)
    assert (r.error_code, r.session_id) == (0, s.id)
    assert list(ps) == [1] and n_records(ps[1]) == 1 and ps[1].high_watermark == 1

    # p1's offset moves, p2 is forgotten; new data in p2 is not answered any more
    produce(raw, topic3, 2, [b"d"])
    r = s.fetch([(1, 1)], forgotten=[2])
    assert (r.error_code, r.responses) == (0, [])
    # p0 data again
    produce(raw, topic3, 0, [b"e"])
    r = s.fetch()
    assert list(partitions(r)) == [0]

    # a repeated epoch, a made-up session id
    r = s.c.call(s.request(epoch=s.epoch - 1), version)
    assert (r.error_code, r.session_id, r.responses) == (E.INVALID_FETCH_SESSION_EPOCH, 0, [])
    r = s.c.call(s.request(session_id=(s.id % 1_000_000) + 7), version)
    assert (r.error_code, r.session_id, r.responses) == (E.FETCH_SESSION_ID_NOT_FOUND, 0, [])
    # a session made with topic ids cannot continue without them (and the other way round)
    other = 12 if version >= 13 else 13
    r = s.c.call(s.request(), other)
    assert (r.error_code, r.session_id) == (E.FETCH_SESSION_TOPIC_ID_ERROR, 0)

    # the errors left the session as it was
    r = s.fetch([(0, 3)])
    assert (r.error_code, r.session_id, r.responses) == (0, s.id, [])

    # forgetting every partition closes the session
    r = s.c.call(s.request(forgotten=[0, 1]), version)
    assert (r.error_code, r.session_id, r.responses) == (0, 0, [])
    r = s.c.call(s.request(), version)
    assert r.error_code == E.FETCH_SESSION_ID_NOT_FOUND


def test_final_epoch_and_new_full_fetch_close_a_session(raw, topic3):
    s = Session(raw, topic3, topic_id(raw, topic3), 12)
    first = s.fetch([(0, 0)]).session_id
    # a new full fetch (epoch 0) naming the session replaces it
    r = s.c.call(s.request([(0, 0)], epoch=0), 12)
    assert r.error_code == 0 and r.session_id not in (0, first)
    second = r.session_id
    r = s.c.call(s.request(session_id=first, epoch=2), 12)
    assert r.error_code == E.FETCH_SESSION_ID_NOT_FOUND
    # epoch -1 closes it and answers sessionless
    r = s.c.call(s.request([(0, 0)], session_id=second, epoch=FINAL_EPOCH), 12)
    assert (r.error_code, r.session_id) == (0, 0) and list(partitions(r)) == [0]
    r = s.c.call(s.request(session_id=second, epoch=1), 12)
    assert r.error_code == E.FETCH_SESSION_ID_NOT_FOUND
    # sessionless from the start: session id 0 and no session made
    r = s.c.call(s.request([(0, 0)], session_id=0, epoch=FINAL_EPOCH), 12)
    assert (r.error_code, r.session_id) == (0, 0)


@pytest.mark.parametrize("version", [12, 16])
def test_long_poll_in_a_session(raw, bootstrap, topic3, version):
    s = Session(raw, topic3, topic_id(raw, topic3), version)
    s.fetch([(0, 0), (1, 0), (2, 0)])

    # nothing arrives: answered empty at the deadline, epoch moved once
    t0 = time.monotonic()
    r = s.fetch(max_wait=400)
    assert (r.error_code, r.session_id, r.responses) == (0, s.id, [])
    assert time.monotonic() - t0 >= 0.3

    # data arrives while the fetch waits: only that partition, same session
    other = RawClient(bootstrap)
    try:
        timer = threading.Timer(0.3, produce, (other, topic3, 2, [b"late"]))
        timer.start()
        t0 = time.monotonic()
        r = s.fetch(max_wait=5000)
        timer.join()
        assert time.monotonic() - t0 < 4
        ps = partitions(r)
        assert (r.error_code, r.session_id) == (0, s.id) and list(ps) == [2] and n_records(ps[2]) == 1
    finally:
        other.close()

    # the next epoch is the one after the long polls (each moved it once)
    r = s.fetch([(2, 1)])
    assert (r.error_code, r.responses) == (0, [])


# ------------------------------------------------------------------ stock consumers


@pytest.mark.skipif(shutil.which("mvn") is None or shutil.which("java") is None, reason="needs Java 17 and Maven")
@pytest.mark.parametrize("version", ["3.9.2", "4.3.0"])
def test_java_consumer_fetches_incrementally(bootstrap, version):
    """The Java consumer reads everything exactly once, and its fetches after the
    first are incremental (its FetchSessionHandler's debug log says which it built)."""
    from builds import CHECK_JVM, java_clients_classpath as build

    cmd = ["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
           "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.FetchSessionHandler=debug",
           "-cp", build(version), "odradek.compat.JavaClientsCheck", bootstrap, "consumer.incrementalFetch"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert "PASS consumer.incrementalFetch" in r.stdout, r.stdout + r.stderr[-5000:]
    full = len(re.findall(r"Built full fetch", r.stderr))
    incremental = len(re.findall(r"Built incremental fetch", r.stderr))
    failed = re.findall(r"unable to process the fetch request.*", r.stderr)
    print(f"kafka-clients {version}: {full} full, {incremental} incremental fetches")
    assert not failed, failed[:5]
    assert full >= 1 and incremental >= 20 and incremental > 5 * full, (full, incremental)


def test_confluent_consumer_reads_everything(bootstrap, topic3):
    """librdkafka sends sessionless fetches (epoch -1): unchanged, still exact."""
    from confluent_kafka import Consumer, Producer, TopicPartition

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for i in range(900):
        p.produce(topic3, value=f"v{i}".encode(), partition=i % 3)
    p.flush(10)
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": topic3, "enable.auto.commit": False,
                  "max.partition.fetch.bytes": 2048})
    c.assign([TopicPartition(topic3, i, 0) for i in range(3)])
    seen: dict[int, list[str]] = {0: [], 1: [], 2: []}
    deadline = time.monotonic() + 30
    n = 0
    while n < 900 and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            seen[m.partition()].append(m.value().decode())
            n += 1
    c.close()
    for part in range(3):
        assert seen[part] == [f"v{i}" for i in range(part, 900, 3)]
