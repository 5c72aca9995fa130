"""queued.max.requests: the requests read and not yet taken up for handling, over every connection
(Kafka's request channel, 500 by default). While it is full a connection keeps what it has read
unqueued and stops reading; as requests are taken up the others are queued, in order, and all are
answered. Shown with a bound of 2: a long-polling Fetch (being handled: not counted) with four
requests pipelined behind it, then another connection's request."""

from __future__ import annotations

import struct
import time

from odradek.config import BrokerConfig
from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic

from tests.broker.test_server import Client, Running, metadata

LIMIT = 2
LONG_POLL_MS = 3000


def _until(cond, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


def _read_response(c: Client, api_key: int, version: int):
    size = struct.unpack(">i", c._read(4))[0]
    return decode_response(c._read(size), api_key, version)


def _conn_of(r: Running, c: Client):
    mine = c.sock.getsockname()
    return next(k for k in list(r.server.connections)
                if k.transport.get_extra_info("socket").getpeername() == mine)


def test_default_and_minimum_are_kafkas():
    assert BrokerConfig.from_properties({}).queued_max_requests == 500
    try:
        BrokerConfig.from_properties({"queued.max.requests": "0"})
    except ValueError as e:
        assert str(e) == "Invalid value 0 for configuration queued.max.requests: Value must be at least 1"
    else:
        raise AssertionError("queued.max.requests=0 accepted")


def test_full_queue_stops_reading_and_every_request_is_answered(tmp_path):
    r = Running(tmp_path, **{"queued.max.requests": str(LIMIT)})
    try:
        a, b = Client(r.port), Client(r.port)
        _until(lambda: metadata(a, "t").error_code == 0)  # auto-created, empty
        queue = r.server.limits.requests
        versions = ApiVersionsRequest(client_software_name="t", client_software_version="1")
        fetch = FetchRequest(replica_id=-1, max_wait_ms=LONG_POLL_MS, min_bytes=1, max_bytes=1 << 20, topics=[
            FetchTopic(topic="t", partitions=[FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])])
        a.sock.sendall(encode_request(fetch, 12, 100) + b"".join(encode_request(versions, 3, 101 + i) for i in range(4)))
        conn_a = _conn_of(r, a)
        # the Fetch is being handled (a long poll): two of the four behind it are queued, two wait unread-for
        _until(lambda: queue.queued == LIMIT and len(conn_a._over) == 2)
        b.sock.sendall(encode_request(versions, 3, 200))
        conn_b = _conn_of(r, b)
        _until(lambda: len(conn_b._over) == 1)  # read, not queued: the queue is full
        assert queue.queued == LIMIT and conn_b._requests_paused and conn_a._requests_paused
        first = _read_response(a, 1, 12)
        assert (first.correlation_id, first.body.error_code) == (100, 0)
        assert first.body.responses[0].partitions[0].records in (None, b"")
        for i in range(4):
            resp = _read_response(a, 18, 3)
            assert (resp.correlation_id, resp.body.error_code) == (101 + i, 0)
        resp = _read_response(b, 18, 3)
        assert (resp.correlation_id, resp.body.error_code) == (200, 0)
        _until(lambda: queue.queued == 0)
        assert not conn_a._over and not conn_b._over
        a.sock.close()
        b.sock.close()
    finally:
        r.stop()
