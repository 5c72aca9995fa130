"""The broker in-process: a BrokerServer on an ephemeral port, driven over real sockets."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time

import pytest

from odradek.config import BrokerConfig
from odradek.wire import records
from odradek.wire.api import decode_response, encode_request
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData


class Running:
    def __init__(self, tmp_path, freeze_heap: bool = False, **props):
        """``freeze_heap``: the heap policy of odradek serve's own process (BrokerServer's)."""
        from odradek.broker.server import BrokerServer

        base = {"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(tmp_path),
                "offsets.topic.num.partitions": "2"}
        base.update(props)
        self.server = BrokerServer(BrokerConfig.from_properties(base), freeze_heap=freeze_heap)
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(self.server.start())
            started.set()
            self.loop.run_until_complete(self.server.wait_stopped())
            self.loop.run_until_complete(self.server.close())

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(10)
        self.port = self.server.port

    def stop(self):
        self.loop.call_soon_threadsafe(self.server.stop)
        self.thread.join(10)


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.corr = 0

    def call(self, req, version):
        self.corr += 1
        self.sock.sendall(encode_request(req, version, self.corr))
        size = struct.unpack(">i", self._read(4))[0]
        resp = decode_response(self._read(size), type(req).API_KEY, version)
        assert resp.correlation_id == self.corr
        return resp.body

    def _read(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return bytes(buf)


@pytest.fixture
def running(tmp_path):
    r = Running(tmp_path)
    yield r
    r.stop()


def metadata(c, name, version=12, auto=True):
    return c.call(MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=auto),
                  version).topics[0]


def produce(c, topic, batch, partition=0):
    req = ProduceRequest(acks=-1, timeout_ms=1000, topic_data=[TopicProduceData(
        name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])])
    return c.call(req, 9).responses[0].partition_responses[0]


def fetch(c, topic, offset, max_wait=0, min_bytes=1, pmax=1 << 20, version=12):
    req = FetchRequest(replica_id=-1, max_wait_ms=max_wait, min_bytes=min_bytes, max_bytes=64 << 20,
                       topics=[FetchTopic(topic=topic, partitions=[
                           FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=pmax)])])
    return c.call(req, version).responses[0].partitions[0]


def test_auto_create_answers_unknown_topic_first(running):
    c = Client(running.port)
    first = metadata(c, "auto-t")
    assert first.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION  # Kafka 4.3's answer (was LEADER_NOT_AVAILABLE)
    second = metadata(c, "auto-t")
    assert second.error_code == 0 and len(second.partitions) == 1 and second.topic_id != bytes(16)
    assert second.partitions[0].leader_id == 1
    internal = metadata(c, "__consumer_offsets")
    assert internal.is_internal


def test_long_poll_waits_then_wakes(running):
    c = Client(running.port)
    metadata(c, "lp")
    metadata(c, "lp")
    t0 = time.monotonic()
    p = fetch(c, "lp", 0, max_wait=300)
    assert 0.25 < time.monotonic() - t0 < 60 and len(p.records) == 0  # waited max_wait, then answered

    def later():
        time.sleep(0.2)
        produce(Client(running.port), "lp", records.build_batch([(None, b"x")]))
    threading.Thread(target=later).start()
    t0 = time.monotonic()
    p = fetch(c, "lp", 0, max_wait=120_000)
    assert time.monotonic() - t0 < 60  # woken by the produce, long before max_wait
    assert [r.value for _, rs in records.iter_batches(bytes(p.records)) for r in rs] == [b"x"]


def test_large_fetch_via_sendfile_is_byte_exact(running):
    c = Client(running.port)
    metadata(c, "big")
    metadata(c, "big")
    payloads = [bytes([i]) * 200_000 for i in range(40)]  # ~8 MB: more than a socket buffer
    for i in range(0, 40, 4):
        assert produce(c, "big", records.build_batch([(None, v) for v in payloads[i:i + 4]])).error_code == 0
    p = fetch(c, "big", 0, pmax=64 << 20)
    got = [r.value for _, rs in records.iter_batches(bytes(p.records)) for r in rs]
    assert got == payloads


def test_small_fetch_across_segments_is_byte_exact(tmp_path):
    # records of a small fetch are read and written with the response (one write); here
    # they come from three segments, so three file slices
    r = Running(tmp_path, **{"log.segment.bytes": "300"})
    try:
        c = Client(r.port)
        metadata(c, "seg")
        metadata(c, "seg")
        batches = [records.build_batch([(b"k%d" % i, bytes([i]) * 200)]) for i in range(3)]
        for b in batches:
            assert produce(c, "seg", b).error_code == 0
        seg_files = sorted(p.name for p in (tmp_path / "seg-0").glob("*.log"))
        assert len(seg_files) == 3
        p = fetch(c, "seg", 0)
        got = bytes(p.records)
        assert [r.value for _, rs in records.iter_batches(got) for r in rs] == [bytes([i]) * 200 for i in range(3)]
        pos = 0
        for i, b in enumerate(batches):  # as produced, but for baseOffset and partitionLeaderEpoch
            assert got[pos + 8:pos + 12] == b[8:12] and got[pos + 16:pos + len(b)] == b[16:]
            assert struct.unpack_from(">q", got, pos)[0] == i
            pos += len(b)
        assert pos == len(got)
    finally:
        r.stop()


def test_first_batch_rule_and_partition_max_bytes(running):
    c = Client(running.port)
    metadata(c, "fb")
    metadata(c, "fb")
    produce(c, "fb", records.build_batch([(None, b"a" * 5000)]))
    produce(c, "fb", records.build_batch([(None, b"b" * 5000)]))
    p = fetch(c, "fb", 0, pmax=100)  # smaller than one batch: still gets the first batch
    assert len(list(records.iter_batches(bytes(p.records)))) == 1


def test_idle_connections_are_closed(tmp_path):
    r = Running(tmp_path, **{"connections.max.idle.ms": "300"})
    try:
        s = socket.create_connection(("127.0.0.1", r.port))
        s.settimeout(60)
        t0 = time.monotonic()
        assert s.recv(1) == b""  # closed by the broker (a socket left open would time out)
        assert time.monotonic() - t0 < 60
    finally:
        r.stop()


class _CloseWitness:
    """A flush observer (LogManager.observe_flushes): for each log's flush, the thread it ran on,
    and whether the event loop ran a callback while the flush was about to run (asked only off
    the loop's thread: on it, the callback could not run before the flush returned; a log closed
    in a pool thread while the loop waits for the pool does not see it run either)."""

    def __init__(self, loop, loop_thread: int):
        self.loop, self.loop_thread = loop, loop_thread
        self.seen: list[tuple[int, bool]] = []

    def timed(self, flush) -> None:
        served = threading.Event()
        if threading.get_ident() != self.loop_thread:
            self.loop.call_soon_threadsafe(served.set)
            served.wait(30)  # (the loop blocked in the close: False after it)
        flush()
        self.seen.append((threading.get_ident(), served.is_set()))


def test_a_clean_stop_closes_the_logs_off_the_event_loop(tmp_path):
    """A clean stop closes every log (a handful of fsyncs each, ~30 s for 1,100 logs on a busy disk)
    in a worker thread, not on the event loop, which meanwhile goes on serving what still runs on it
    (a combined node's metadata quorum): each log's closing flush runs off the loop's thread, while
    the loop runs a callback; the clean-shutdown marker is written after them, and the next start
    finds every record."""
    r = Running(tmp_path)
    c = Client(r.port)
    for name in ("a", "b"):
        metadata(c, name)
        metadata(c, name)
        assert produce(c, name, records.build_batch([(None, b"v-" + name.encode())])).error_code == 0
    witness = _CloseWitness(r.loop, r.thread.ident)
    r.server.broker.log_manager.observe_flushes(witness)
    r.stop()
    r.thread.join(120)
    assert not r.thread.is_alive()
    assert len(witness.seen) >= 2
    assert all(thread != r.thread.ident and served for thread, served in witness.seen)
    assert (tmp_path / ".kafka_cleanshutdown").exists()
    again = Running(tmp_path)
    try:
        for name in ("a", "b"):
            p = fetch(Client(again.port), name, 0)
            assert [r.value for _, rs in records.iter_batches(bytes(p.records)) for r in rs] == [b"v-" + name.encode()]
    finally:
        again.stop()
