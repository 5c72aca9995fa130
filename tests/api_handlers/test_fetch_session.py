"""KIP-227 fetch sessions: the cache and its contexts (with a fake clock), and the Fetch
handler over them (with a fake partition log): full -> incremental -> changes only ->
forgotten partitions -> epoch errors -> eviction, and long polls in a session."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from odradek.api_handlers import fetch
from odradek.api_handlers.context import Delayed, RequestContext
from odradek.api_handlers.fetch_session import (FINAL_EPOCH, INT32_MAX, FetchSessionCache, FullFetchContext,
                                                IncrementalFetchContext, PartitionRequest, SessionErrorContext,
                                                SessionlessFetchContext, next_epoch)
from fake_services import services
from odradek.api_handlers.ports import UNKNOWN_PARTITION, NotLed
from odradek.wire.api import decode_request, decode_response, encode_request, encode_response_parts
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic, ForgottenTopic
from odradek.wire.messages.fetch_response import PartitionData

ID_A = bytes(range(1, 17))
ID_B = bytes(range(2, 18))
ID_GONE = b"\x09" * 16


# ------------------------------------------------------------------ cache + contexts


def preq(topic, part, offset=0, topic_id=b"\0" * 16, max_bytes=1024):
    return PartitionRequest(topic, topic_id, part, offset, max_bytes)


def data(topic="a", parts=(0, 1), offset=0):
    return {(topic, p): preq(topic, p, offset) for p in parts}


def pdata(p, hw=10, lso=10, lso_start=0, records=b"", error=0):
    return (p, PartitionData(partition_index=p.partition, error_code=error, high_watermark=hw,
                             last_stable_offset=lso, log_start_offset=lso_start, records=records,
                             preferred_read_replica=-1))


def names(_):
    return None


def full_session(cache, fd=None, now=0, version=12, privileged=False):
    fd = fd if fd is not None else data()
    ctx = cache.new_context(version, 0, 0, privileged, fd, [], names, now)
    assert isinstance(ctx, FullFetchContext)
    err, sid, kept = ctx.respond([pdata(p) for p in ctx.partitions()], now)
    assert err == 0 and len(kept) == len(fd)
    return sid


def test_next_epoch():
    assert next_epoch(0) == 1
    assert next_epoch(41) == 42
    assert next_epoch(INT32_MAX) == 1
    assert next_epoch(FINAL_EPOCH) == FINAL_EPOCH


def test_full_fetch_creates_session_at_epoch_1():
    cache = FetchSessionCache(rng=random.Random(1))
    sid = full_session(cache)
    assert sid != 0 and len(cache) == 1 and cache.total_partitions == 2
    assert cache.get(sid).epoch == 1


def test_sessionless_when_epoch_final_and_for_old_versions():
    cache = FetchSessionCache()
    ctx = cache.new_context(6, 0, FINAL_EPOCH, False, data(), [], names, 0)
    assert isinstance(ctx, SessionlessFetchContext)
    err, sid, kept = ctx.respond([pdata(p) for p in ctx.partitions()], 0)
    assert (err, sid, len(kept)) == (0, 0, 2) and len(cache) == 0


def test_incremental_answers_only_changes():
    cache = FetchSessionCache()
    sid = full_session(cache)
    # nothing changed: an empty response, epoch moves on
    ctx = cache.new_context(12, sid, 1, False, {}, [], names, 5)
    assert isinstance(ctx, IncrementalFetchContext)
    assert [p.partition for p in ctx.partitions()] == [0, 1]
    err, rsid, kept = ctx.respond([pdata(p) for p in ctx.partitions()], 5)
    assert (err, rsid, kept) == (0, sid, [])
    assert cache.get(sid).epoch == 2
    # new data on partition 1, a HW move on 0 (seen once), then only the new data again
    ctx = cache.new_context(12, sid, 2, False, {}, [], names, 6)
    ps = ctx.partitions()
    err, _, kept = ctx.respond([pdata(ps[0], hw=11), pdata(ps[1], records=b"x" * 70)], 6)
    assert [p.partition for p, _ in kept] == [0, 1]
    ctx = cache.new_context(12, sid, 3, False, {}, [], names, 7)
    ps = ctx.partitions()
    err, _, kept = ctx.respond([pdata(p, hw=11, records=b"x" if p.partition == 1 else b"") for p in ps], 7)
    assert [p.partition for p, _ in kept] == [1]


def test_incremental_log_start_lso_and_errors_are_changes():
    cache = FetchSessionCache()
    sid = full_session(cache)
    epoch = 1
    for change, expect in [(dict(lso_start=3), True), (dict(lso_start=3), False), (dict(lso_start=3, lso=8), True),
                           (dict(lso_start=3, lso=8, error=int(E.NOT_LEADER_OR_FOLLOWER)), True),
                           (dict(lso_start=3, lso=8, error=int(E.NOT_LEADER_OR_FOLLOWER)), True),
                           (dict(lso_start=3, lso=8), True),  # error gone: sent again (HW was forgotten)
                           (dict(lso_start=3, lso=8), False)]:
        ctx = cache.new_context(12, sid, epoch, False, {}, [], names, 0)
        epoch += 1
        p0 = ctx.partitions()[0]
        _, _, kept = ctx.respond([pdata(p0, **change)], 0)
        assert bool(kept) == expect, change


def test_incremental_updates_offsets_adds_and_forgets():
    cache = FetchSessionCache()
    sid = full_session(cache)
    ctx = cache.new_context(12, sid, 1, False, {("a", 1): preq("a", 1, 50, max_bytes=7), ("b", 0): preq("b", 0, 3)},
                            [("a", 0)], names, 0)
    ps = {(p.topic, p.partition): p for p in ctx.partitions()}
    assert set(ps) == {("a", 1), ("b", 0)}
    assert (ps[("a", 1)].fetch_offset, ps[("a", 1)].max_bytes) == (50, 7)
    assert cache.total_partitions == 2
    # a newly added partition has no HW yet: it is in the next response
    _, _, kept = ctx.respond([pdata(p) for p in ctx.partitions()], 0)
    assert [(p.topic, p.partition) for p, _ in kept] == [("b", 0)]


def test_partitions_with_data_rotate_to_the_back():
    cache = FetchSessionCache()
    sid = full_session(cache, data(parts=(0, 1, 2)))
    ctx = cache.new_context(12, sid, 1, False, {}, [], names, 0)
    ps = ctx.partitions()
    ctx.respond([pdata(p, records=b"x" if p.partition == 0 else b"") for p in ps], 0)
    assert [p.partition for p in cache.new_context(12, sid, 2, False, {}, [], names, 0).partitions()] == [1, 2, 0]


def test_forgetting_every_partition_closes_the_session():
    cache = FetchSessionCache()
    sid = full_session(cache)
    ctx = cache.new_context(12, sid, 1, False, {}, [("a", 0), ("a", 1)], names, 0)
    assert isinstance(ctx, SessionlessFetchContext)
    assert cache.get(sid) is None and cache.total_partitions == 0


def test_session_errors():
    cache = FetchSessionCache()
    sid = full_session(cache)
    ctx = cache.new_context(12, sid + 1, 1, False, {}, [], names, 0)
    assert isinstance(ctx, SessionErrorContext) and ctx.error == E.FETCH_SESSION_ID_NOT_FOUND
    assert ctx.respond([], 0) == (E.FETCH_SESSION_ID_NOT_FOUND, 0, [])
    ctx = cache.new_context(12, sid, 7, False, {}, [], names, 0)
    assert ctx.error == E.INVALID_FETCH_SESSION_EPOCH
    ctx = cache.new_context(13, sid, 1, False, {}, [], names, 0)  # made by v12 (names), used by v13 (ids)
    assert ctx.error == E.FETCH_SESSION_TOPIC_ID_ERROR
    assert cache.get(sid).epoch == 1  # errors do not move the epoch
    assert isinstance(cache.new_context(12, sid, 1, False, {}, [], names, 0), IncrementalFetchContext)


def test_respond_after_a_newer_request_is_an_epoch_error():
    """A (long-polled) response whose session moved on meanwhile: Kafka's 'possible duplicate request'."""
    cache = FetchSessionCache()
    sid = full_session(cache)
    slow = cache.new_context(12, sid, 1, False, {}, [], names, 0)
    cache.new_context(12, sid, 2, False, {}, [], names, 0)
    assert slow.respond([pdata(p) for p in slow.partitions()], 0) == (E.INVALID_FETCH_SESSION_EPOCH, sid, [])


def test_full_fetch_with_session_id_replaces_it_and_final_epoch_closes_it():
    cache = FetchSessionCache()
    sid = full_session(cache)
    ctx = cache.new_context(12, sid, 0, False, data(), [], names, 0)
    assert cache.get(sid) is None
    _, sid2, _ = ctx.respond([pdata(p) for p in ctx.partitions()], 0)
    assert sid2 not in (0, sid)
    ctx = cache.new_context(12, sid2, FINAL_EPOCH, False, data(), [], names, 0)
    assert isinstance(ctx, SessionlessFetchContext) and len(cache) == 0


def test_topic_id_sessions_resolve_names_later():
    cache = FetchSessionCache()
    fd = {(ID_A, 0): PartitionRequest("a", ID_A, 0, 0, 100), (ID_GONE, 0): PartitionRequest(None, ID_GONE, 0, 0, 100)}
    sid = full_session(cache, fd, version=13)
    ctx = cache.new_context(13, sid, 1, False, {}, [], lambda tid: "new" if tid == ID_GONE else None, 0)
    assert [p.topic for p in ctx.partitions()] == ["a", "new"]
    ctx = cache.new_context(13, sid, 2, False, {}, [(ID_A, 0)], names, 0)  # forgotten by id
    assert [p.topic_id for p in ctx.partitions()] == [ID_GONE]
    assert cache.new_context(12, sid, 3, False, {}, [], names, 0).error == E.FETCH_SESSION_TOPIC_ID_ERROR


def test_cache_full_no_session_then_stale_eviction():
    cache = FetchSessionCache(max_sessions=2, eviction_ms=1000)
    s1 = full_session(cache, now=0)
    s2 = full_session(cache, now=10)
    assert full_session(cache, now=500) == 0  # full, nothing stale, nothing old enough
    cache.new_context(12, s2, 1, False, {}, [], names, 900)  # s2 used recently
    s3 = full_session(cache, now=1001 + 0)  # s1 unused for > 1000 ms: evicted
    assert s3 != 0 and cache.get(s1) is None and cache.get(s2) is not None and cache.evictions == 1


def test_eviction_by_size_and_privilege():
    cache = FetchSessionCache(max_sessions=2, eviction_ms=1000)
    small = full_session(cache, data(parts=(0,)), now=0)
    big = full_session(cache, data(parts=(0, 1, 2)), now=0)
    # keep both fresh (not stale), but older than eviction_ms since creation
    for sid in (small, big):
        cache.new_context(12, sid, 1, False, {}, [], names, 1500)
    # a consumer session with 2 partitions may evict the 1-partition one, not the 3-partition one
    s = full_session(cache, data(parts=(0, 1)), now=1600)
    assert s != 0 and cache.get(small) is None and cache.get(big) is not None
    # a follower (privileged) session evicts a young consumer session at once, whatever its size
    cache2 = FetchSessionCache(max_sessions=1, eviction_ms=1000)
    young = full_session(cache2, data(parts=(0, 1, 2, 3)), now=0)
    assert full_session(cache2, data(parts=(0,)), now=1) == 0
    f = full_session(cache2, data(parts=(0,)), now=2, privileged=True)
    assert f != 0 and cache2.get(young) is None
    # ... and a consumer never evicts a young privileged one
    assert full_session(cache2, data(parts=(0, 1, 2, 3, 4)), now=3) == 0


def test_zero_slots_means_no_sessions():
    cache = FetchSessionCache(max_sessions=0)
    assert full_session(cache) == 0


# ------------------------------------------------------------------ the handler


class FakeLog:
    def __init__(self):
        self.high_watermark = 0
        self.last_stable_offset = 0
        self.log_start_offset = 0
        self.batches = []  # bytes per offset

    def append(self, n=1):
        self.batches += [b"r" * 100] * n
        self.high_watermark = self.last_stable_offset = len(self.batches)

    def read(self, offset, max_bytes, upper_bound_offset, min_one_batch):
        if offset > self.high_watermark:
            from odradek.log import errors
            raise errors.OffsetOutOfRangeError("out of range")
        chunk = b"".join(self.batches[offset:upper_bound_offset])[:max(max_bytes, 100 if min_one_batch else 0)]
        f = SimpleNamespace(read=lambda pos, n: chunk[pos:pos + n])
        sl = [SimpleNamespace(file=f, position=0, length=len(chunk))] if chunk else []
        return SimpleNamespace(slices=sl, total_bytes=len(chunk), log_start_offset=self.log_start_offset,
                               first_offset=offset)

    def aborted_transactions(self, a, b):
        return []


class FakeBroker:
    def __init__(self):
        self.logs = {("a", 0): FakeLog(), ("a", 1): FakeLog(), ("b", 0): FakeLog()}
        ti = {"a": SimpleNamespace(name="a", topic_id=ID_A), "b": SimpleNamespace(name="b", topic_id=ID_B)}
        self.image = SimpleNamespace(topics=ti, topics_by_id={t.topic_id: t for t in ti.values()})
        self.fetch_sessions = FetchSessionCache(rng=random.Random(7))
        self.services = services(image_of=lambda: self.image, fetch_sessions=self.fetch_sessions,
                                 partitions=FakePartitions(self.logs))


class FakePartitions:
    """ports.Partitions over FakeLogs, every one led here at epoch 0."""

    def __init__(self, logs: dict):
        self.logs = logs

    def leader_log(self, topic, partition, current_leader_epoch=-1):
        plog = self.logs.get((topic, partition), UNKNOWN_PARTITION)
        if current_leader_epoch > 0 and plog is not UNKNOWN_PARTITION:
            return NotLed(E.UNKNOWN_LEADER_EPOCH, 0, 0)
        return plog

    consumer_log = leader_log

    def preferred_read_replica(self, topic, partition, client_rack, fetch_offset, now_ms):
        return -1

    def leader_epoch(self, topic, partition):
        return 0


def fetch_req(v, sid, epoch, parts, forgotten=(), max_wait=0, min_bytes=1):
    topics = {}
    for t, p, off in parts:
        topics.setdefault(t, []).append(FetchPartition(partition=p, fetch_offset=off, partition_max_bytes=1 << 20))
    ids = {"a": ID_A, "b": ID_B}
    return FetchRequest(replica_id=-1, max_wait_ms=max_wait, min_bytes=min_bytes, max_bytes=1 << 24, session_id=sid,
                        session_epoch=epoch,
                        topics=[FetchTopic(topic=t, topic_id=ids.get(t, ID_GONE), partitions=ps)
                                for t, ps in topics.items()],
                        forgotten_topics_data=[ForgottenTopic(topic=t, topic_id=ids[t], partitions=list(ps))
                                               for t, ps in forgotten])


def call(b, req, v, now=0):
    ctx = RequestContext(api_key=1, api_version=v, correlation_id=1, client_id="c", now_ms=now, services=b.services)
    resp = fetch.handle(ctx, req)
    if isinstance(resp, Delayed):
        return resp
    raw = b"".join(x if isinstance(x, (bytes, bytearray, memoryview)) else bytes(x)
                   for x in encode_response_parts(1, v, 1, resp))
    return decode_response(raw[4:], 1, v).body


def parts_of(resp):
    return {(t.topic_id if t.topic == "" else t.topic, p.partition_index): p for t in resp.responses
            for p in t.partitions}


@pytest.mark.parametrize("v", [7, 12, 13, 16, 17, 18])
def test_handler_session_lifecycle(v):
    b = FakeBroker()
    b.logs[("a", 0)].append(3)
    key = (lambda t: ID_A if t == "a" else ID_B) if v >= 13 else (lambda t: t)
    r = call(b, fetch_req(v, 0, 0, [("a", 0, 0), ("a", 1, 0)]), v)
    assert r.error_code == 0 and r.session_id != 0
    assert set(parts_of(r)) == {(key("a"), 0), (key("a"), 1)}
    assert len(parts_of(r)[(key("a"), 0)].records) == 300
    sid = r.session_id
    # next offset for a-0 changed: listed; nothing new anywhere -> no partitions
    r = call(b, fetch_req(v, sid, 1, [("a", 0, 3)]), v)
    assert (r.error_code, r.session_id, r.responses) == (0, sid, [])
    # an append to a-1 only
    b.logs[("a", 1)].append(2)
    r = call(b, fetch_req(v, sid, 2, []), v)
    assert list(parts_of(r)) == [(key("a"), 1)] and len(parts_of(r)[(key("a"), 1)].records) == 200
    # add b-0, forget a-1
    b.logs[("b", 0)].append(1)
    r = call(b, fetch_req(v, sid, 3, [("a", 1, 2), ("b", 0, 0)], forgotten=[("a", [1])]), v)
    assert list(parts_of(r)) == [(key("b"), 0)]
    assert sorted(p.partition for p in b.fetch_sessions.get(sid).partitions.values()) == [0, 0]
    # stale epoch, unknown session
    r = call(b, fetch_req(v, sid, 3, []), v)
    assert (r.error_code, r.session_id, r.responses) == (E.INVALID_FETCH_SESSION_EPOCH, 0, [])
    r = call(b, fetch_req(v, sid + 1, 1, []), v)
    assert r.error_code == E.FETCH_SESSION_ID_NOT_FOUND
    # close
    r = call(b, fetch_req(v, sid, FINAL_EPOCH, [("a", 0, 3)]), v)
    assert (r.error_code, r.session_id) == (0, 0) and b.fetch_sessions.get(sid) is None


@pytest.mark.parametrize("hw", [2**63 - 1, -1, 0, 2, 1000])
def test_handler_v17_v18_follower_fields_change_nothing_for_a_consumer(hw):
    """ReplicaDirectoryId (v17, KIP-853) and HighWatermark (v18, KIP-1166): Kafka's broker reads
    neither (FetchRequest.fetchData drops them); a consumer's fetch answers as at v16."""
    answers = []
    for v in (16, 17, 18):
        b = FakeBroker()
        b.logs[("a", 0)].append(3)
        req = fetch_req(v, 0, FINAL_EPOCH, [("a", 0, 1), ("a", 1, 0)])
        for fp in req.topics[0].partitions:
            fp.replica_directory_id, fp.high_watermark = b"\x05" * 16, hw
        wire = encode_request(req, v, 1, client_id="c")  # the tagged fields go over the wire and back
        req = decode_request(wire[4:])[1]
        if v >= 18:
            assert req.topics[0].partitions[0].high_watermark == hw
        r = call(b, req, v)
        answers.append([(p.partition_index, p.error_code, p.high_watermark, len(p.records))
                        for t in r.responses for p in t.partitions])
    assert answers[0] == answers[1] == answers[2] == [(0, 0, 3, 200), (1, 0, 0, 0)]


def test_handler_v4_to_v6_never_gets_a_session():
    b = FakeBroker()
    r = call(b, FetchRequest(max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, topics=[
        FetchTopic(topic="a", partitions=[FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=100)])]), 6)
    assert r.session_id == 0 and len(b.fetch_sessions) == 0


def test_handler_unknown_topic_id_in_a_session_is_always_answered():
    b = FakeBroker()
    r = call(b, fetch_req(13, 0, 0, [("a", 0, 0), ("gone", 0, 0)]), 13)
    sid = r.session_id
    assert parts_of(r)[(ID_GONE, 0)].error_code == E.UNKNOWN_TOPIC_ID
    r = call(b, fetch_req(13, sid, 1, []), 13)
    assert list(parts_of(r)) == [(ID_GONE, 0)]


def test_handler_long_poll_in_a_session_moves_the_epoch_once():
    b = FakeBroker()
    sid = call(b, fetch_req(12, 0, 0, [("a", 0, 0), ("a", 1, 0)]), 12).session_id
    d = call(b, fetch_req(12, sid, 1, [], max_wait=500), 12, now=10)
    assert isinstance(d, Delayed)
    assert b.fetch_sessions.get(sid).epoch == 2
    assert d.try_complete(20) is None  # nothing yet
    assert b.fetch_sessions.get(sid).epoch == 2
    b.logs[("a", 1)].append(1)
    r = d.try_complete(30)
    assert (r.error_code, r.session_id) == (0, sid)
    assert [(t.topic, p.partition_index) for t in r.responses for p in t.partitions] == [("a", 1)]
    assert b.fetch_sessions.get(sid).epoch == 2
    # the next request carries epoch 2 and gets nothing new after the deadline
    d = call(b, fetch_req(12, sid, 2, [("a", 1, 1)], max_wait=500), 12, now=40)
    r = d.on_expire(540)
    assert (r.error_code, r.session_id, r.responses) == (0, sid, [])
    assert b.fetch_sessions.get(sid).epoch == 3


def test_handler_long_poll_overtaken_by_a_newer_request():
    b = FakeBroker()
    sid = call(b, fetch_req(12, 0, 0, [("a", 0, 0)]), 12).session_id
    d = call(b, fetch_req(12, sid, 1, [], max_wait=500), 12)
    # the client gave up and sent epoch 2 (or a duplicate with epoch 1)
    assert call(b, fetch_req(12, sid, 1, []), 12).error_code == E.INVALID_FETCH_SESSION_EPOCH
    assert call(b, fetch_req(12, sid, 2, []), 12).error_code == 0
    r = d.on_expire(500)
    assert (r.error_code, r.session_id, r.responses) == (E.INVALID_FETCH_SESSION_EPOCH, sid, [])


def test_handler_unknown_partition_does_not_cut_a_long_poll_short():
    b = FakeBroker()
    d = call(b, fetch_req(12, 0, 0, [("a", 0, 0), ("nope", 0, 0)], max_wait=500), 12)
    assert isinstance(d, Delayed)
    r = d.on_expire(500)
    assert parts_of(r)[("nope", 0)].error_code == E.UNKNOWN_TOPIC_OR_PARTITION
    # only unknown partitions: answered at once
    r = call(b, fetch_req(12, 0, 0, [("nope", 0, 0)], max_wait=500), 12)
    assert not isinstance(r, Delayed)


@pytest.mark.parametrize("error", [E.NOT_LEADER_OR_FOLLOWER, E.KAFKA_STORAGE_ERROR])
def test_handler_partition_led_elsewhere_or_offline_answers_a_long_poll_at_once(error):
    """Kafka's fetchMessages answers at once when a partition's read failed (errorReadingData): a
    consumer learns of a leader move or an offline log without waiting out fetch.max.wait.ms."""
    b = FakeBroker()
    b.logs[("a", 1)] = NotLed(error, leader_id=2, leader_epoch=3)
    r = call(b, fetch_req(13, 0, 0, [("a", 0, 0), ("a", 1, 0)], max_wait=500), 13)
    assert not isinstance(r, Delayed)
    assert parts_of(r)[(ID_A, 1)].error_code == error
    assert parts_of(r)[(ID_A, 0)].error_code == E.NONE


def test_handler_topic_recreated_under_the_same_name_is_inconsistent():
    b = FakeBroker()
    sid = call(b, fetch_req(13, 0, 0, [("a", 0, 0)]), 13).session_id
    new_a = SimpleNamespace(name="a", topic_id=b"\x33" * 16)
    b.image.topics["a"] = new_a
    b.image.topics_by_id = {new_a.topic_id: new_a, ID_B: b.image.topics["b"]}
    r = call(b, fetch_req(13, sid, 1, []), 13)
    assert parts_of(r)[(ID_A, 0)].error_code == E.INCONSISTENT_TOPIC_ID
