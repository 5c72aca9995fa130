import struct

import pytest
from hypothesis import given, settings, strategies as st
from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

from odradek.wire import records as r
from odradek.wire.exceptions import (
    CorruptRecordError,
    InvalidRecordError,
    MalformedError,
    TruncatedError,
    UnsupportedMagicError,
    WireError,
)
from odradek.wire.varint import (
    read_uvarint,
    read_varint,
    read_varlong,
    size_of_varint,
    write_uvarint,
    write_varint,
    write_varlong,
)

CODECS = [0, 1, 2, 3, 4]

opt_bytes = st.one_of(st.none(), st.binary(max_size=60))
headers_st = st.lists(st.tuples(st.text(max_size=10), opt_bytes), max_size=3)
record_st = st.tuples(opt_bytes, opt_bytes, headers_st, st.integers(0, 2**41))


def sample_batch(codec=0, **kw):
    recs = [(b"k%d" % i, b"value-%d" % i * (i + 1), [("h", b"v"), ("n", None)], 1_700_000_000_000 + i)
            for i in range(5)]
    recs.append((None, None, [], 1_700_000_000_100))
    return r.build_batch(recs, compression=codec, **kw)


# ------------------------------------------------------------------ varints


@given(st.integers(-2**31, 2**31 - 1))
def test_varint_roundtrip(v):
    b = write_varint(v)
    assert len(b) == size_of_varint(v)
    assert read_varint(b + b"junk", 0) == (v, len(b))


@given(st.integers(-2**63, 2**63 - 1))
def test_varlong_roundtrip(v):
    b = write_varlong(v)
    assert read_varlong(b, 0) == (v, len(b))


def test_varint_errors():
    assert write_varint(-1) == b"\x01" and write_varint(1) == b"\x02" and write_varint(-64) == b"\x7f"
    assert read_uvarint(write_uvarint(300)) == (300, 2)
    with pytest.raises(TruncatedError):
        read_varint(b"\x80\x80", 0)
    with pytest.raises(TruncatedError):
        read_varint(b"", 0)
    with pytest.raises(MalformedError):
        read_varint(b"\xff" * 6, 0)
    with pytest.raises(MalformedError):
        read_varlong(b"\xff" * 11, 0)


# ------------------------------------------------------------------ round trips


@settings(max_examples=60, deadline=None)
@given(st.lists(record_st, min_size=1, max_size=8), st.sampled_from(CODECS), st.integers(0, 2**40),
       st.booleans())
def test_build_decode_roundtrip(recs, codec, base_offset, transactional):
    b = r.build_batch(recs, compression=codec, base_offset=base_offset, producer_id=7, producer_epoch=1,
                      base_sequence=3, is_transactional=transactional)
    h = r.validate_batch(b, require_dense=True)
    assert h.size_in_bytes == len(b)
    assert h.compression == codec and h.is_transactional == transactional and not h.is_control
    assert h.records_count == len(recs) and h.last_offset == base_offset + len(recs) - 1
    assert h.max_timestamp == max(t for *_, t in recs)
    h2, out = r.decode_records(b)
    assert h2 == h
    for (k, v, hs, ts), rec in zip(recs, out):
        assert (rec.key, rec.value, rec.headers) == (k, v, [tuple(x) for x in hs])
        assert rec.timestamp(h) == ts
    assert [rec.offset(h) for rec in out] == list(range(base_offset, base_offset + len(recs)))


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_builds_odradek_decodes(codec):
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=codec, is_transactional=False,
                                        producer_id=99, producer_epoch=2, base_sequence=10, batch_size=1 << 20)
    expected = []
    for i in range(20):
        key = None if i % 3 == 0 else b"key%d" % i
        value = b"v" * (i * 37) if i % 5 else None
        hdrs = [("a", b"1"), ("b", None)] if i % 2 else []
        builder.append(i, timestamp=1_600_000_000_000 + i * 10, key=key, value=value, headers=hdrs)
        expected.append((i, 1_600_000_000_000 + i * 10, key, value, hdrs))
    buf = bytes(builder.build())
    h = r.validate_batch(buf, require_dense=True)
    assert (h.producer_id, h.producer_epoch, h.base_sequence, h.compression) == (99, 2, 10, codec)
    h, recs = r.decode_records(buf)
    got = [(x.offset(h), x.timestamp(h), x.key, x.value, x.headers) for x in recs]
    assert got == expected


@pytest.mark.parametrize("codec", CODECS)
def test_odradek_builds_kafka_python_decodes(codec):
    buf = sample_batch(codec, base_offset=1000, producer_id=5, producer_epoch=0, base_sequence=0)
    batch = DefaultRecordBatch(bytearray(buf))
    assert batch.validate_crc()
    assert batch.compression_type == codec and batch.base_offset == 1000
    got = [(m.offset, m.timestamp, m.key, m.value, [tuple(x) for x in m.headers]) for m in batch]
    assert got[0] == (1000, 1_700_000_000_000, b"k0", b"value-0", [("h", b"v"), ("n", None)])
    assert got[-1] == (1005, 1_700_000_000_100, None, None, [])
    # several batches back to back read by MemoryRecords
    mr = MemoryRecords(bytes(buf) + sample_batch(codec, base_offset=1006))
    n = 0
    while mr.has_next():
        n += len(list(mr.next_batch()))
    assert n == 12


# ------------------------------------------------------------------ validation


def test_crc_tamper_every_protected_byte_region():
    b = sample_batch(0)
    r.validate_batch(b)
    for i in range(r.ATTRIBUTES_OFFSET, len(b), 7):
        bad = bytearray(b)
        bad[i] ^= 0x01
        with pytest.raises(CorruptRecordError):
            r.validate_batch(bad)
        with pytest.raises(CorruptRecordError):
            r.decode_records(bad)


@pytest.mark.parametrize("codec", CODECS)
def test_truncation_at_every_offset(codec):
    b = sample_batch(codec)
    for cut in range(len(b)):
        for fn in (r.validate_batch, r.decode_records):
            with pytest.raises((TruncatedError, CorruptRecordError)):
                fn(b[:cut])
        with pytest.raises(CorruptRecordError):
            r.validate_record_set(b[:cut])
        assert list(r.iter_batch_headers(b[:cut])) == []


@pytest.mark.parametrize("codec", CODECS)
def test_random_corruption_with_fixed_crc_never_leaks(codec):
    """Flip bytes in the records section, then fix the CRC, so decode must parse garbage."""
    b = sample_batch(codec)
    for i in range(r.RECORDS_OFFSET, len(b)):
        for x in (0x01, 0x80, 0xFF):
            bad = bytearray(b)
            bad[i] ^= x
            struct.pack_into(">I", bad, r.CRC_OFFSET, r.compute_crc(bad))
            try:
                r.decode_records(bad)
            except CorruptRecordError:
                pass


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=0, max_size=120), st.sampled_from(CODECS), st.integers(0, 5))
def test_fuzz_records_section(junk, codec, count):
    """Arbitrary records section under a valid header/CRC: only typed errors."""
    hdr = bytearray(r.build_batch([], compression=0)[: r.BATCH_HEADER_SIZE])
    buf = hdr + junk
    struct.pack_into(">i", buf, r.LENGTH_OFFSET, len(buf) - r.LOG_OVERHEAD)
    struct.pack_into(">h", buf, r.ATTRIBUTES_OFFSET, codec)
    struct.pack_into(">i", buf, r.RECORDS_COUNT_OFFSET, count)
    struct.pack_into(">i", buf, r.LAST_OFFSET_DELTA_OFFSET, max(count - 1, 0))
    struct.pack_into(">I", buf, r.CRC_OFFSET, r.compute_crc(buf))
    try:
        r.decode_records(buf)
    except CorruptRecordError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_whole_buffer(junk):
    for fn in (r.validate_batch, r.decode_records, r.validate_record_set):
        try:
            fn(junk)
        except WireError:
            pass
    try:
        list(r.iter_batch_headers(junk))
    except CorruptRecordError:
        pass


def test_header_errors():
    b = bytearray(sample_batch())
    with pytest.raises(TruncatedError):
        r.read_batch_header(b[:60])
    short = bytearray(b)
    struct.pack_into(">i", short, r.LENGTH_OFFSET, 48)
    with pytest.raises(CorruptRecordError):
        r.read_batch_header(short)
    magic1 = bytearray(b)
    magic1[r.MAGIC_OFFSET] = 1
    with pytest.raises(UnsupportedMagicError):
        r.validate_batch(magic1)
    with pytest.raises(UnsupportedMagicError):
        r.validate_batch(magic1[:30])  # legacy message shorter than a v2 header
    with pytest.raises(CorruptRecordError):
        r.validate_record_set(magic1)


def test_counts_sanity_and_dense():
    b = bytearray(sample_batch())
    neg = bytearray(b)
    struct.pack_into(">i", neg, r.RECORDS_COUNT_OFFSET, -1)
    struct.pack_into(">I", neg, r.CRC_OFFSET, r.compute_crc(neg))
    with pytest.raises(CorruptRecordError):
        r.validate_batch(neg)
    huge = bytearray(b)
    struct.pack_into(">i", huge, r.RECORDS_COUNT_OFFSET, 10**9)
    struct.pack_into(">i", huge, r.LAST_OFFSET_DELTA_OFFSET, 10**9)
    struct.pack_into(">I", huge, r.CRC_OFFSET, r.compute_crc(huge))
    with pytest.raises(CorruptRecordError):
        r.validate_batch(huge)
    # compacted-style batch with an offset gap: fine unless dense is required
    gap = r.build_batch([r.Record(offset_delta=0, key=b"a", value=b"1"), r.Record(offset_delta=4, key=b"b", value=b"2")],
                        base_timestamp=50)
    h = r.validate_batch(gap)
    assert h.last_offset_delta == 4 and h.records_count == 2
    with pytest.raises(InvalidRecordError):
        r.validate_batch(gap, require_dense=True)
    _, recs = r.decode_records(gap)
    assert [x.offset(h) for x in recs] == [0, 4] and recs[1].timestamp(h) == 50
    with pytest.raises(InvalidRecordError):
        r.validate_batch(r.build_batch([]), require_dense=True)


def test_validate_record_set_and_iter_headers():
    a, b2 = sample_batch(0, base_offset=0), sample_batch(4, base_offset=6)
    hs = r.validate_record_set(a + b2)
    assert [h.base_offset for h in hs] == [0, 6]
    with pytest.raises(CorruptRecordError):
        r.validate_record_set(b"")
    with pytest.raises(CorruptRecordError):
        r.validate_record_set(a + b2[:-1])
    with pytest.raises(CorruptRecordError):
        r.validate_record_set(a + b"\x00" * 5)
    # fetch responses may end with a partial batch: iteration stops quietly
    got = list(r.iter_batch_headers(a + b2 + b2[:40]))
    assert [(p, h.base_offset) for p, h in got] == [(0, 0), (len(a), 6)]
    got = list(r.iter_batch_headers(memoryview(a + b2 + b2[:70])))
    assert len(got) == 2
    decoded = list(r.iter_batches(a + b2 + b2[:70]))
    assert [len(recs) for _, recs in decoded] == [6, 6]


# ------------------------------------------------------------------ in-place writers


def test_set_base_offset_and_epoch_keep_crc():
    buf = bytearray(sample_batch(3))
    buf2 = bytearray(10) + buf
    for b, pos in ((buf, 0), (buf2, 10)):
        r.set_base_offset(b, pos, 123456789)
        r.set_partition_leader_epoch(memoryview(b), pos, 42)
        h = r.validate_batch(b, pos)
        assert h.base_offset == 123456789 and h.partition_leader_epoch == 42
        assert h.next_offset == 123456789 + 6


def test_set_log_append_time():
    buf = bytearray(sample_batch(1))
    old_crc = r.read_batch_header(buf).crc
    r.set_log_append_time(buf, 0, 1_800_000_000_000)
    h = r.validate_batch(buf)
    assert h.crc != old_crc
    assert h.timestamp_type == r.TimestampType.LOG_APPEND_TIME
    assert h.max_timestamp == 1_800_000_000_000
    _, recs = r.decode_records(buf)
    assert all(x.timestamp(h) == 1_800_000_000_000 for x in recs)
    kb = DefaultRecordBatch(buf)
    assert kb.validate_crc() and kb.timestamp_type == 1
    assert all(m.timestamp == 1_800_000_000_000 for m in kb)


def test_header_properties():
    b = r.build_batch([(b"k", b"v", [], 5)], compression=2, timestamp_type=1, is_transactional=True,
                      producer_id=1, producer_epoch=0, base_sequence=2**31 - 1, partition_leader_epoch=9,
                      max_timestamp=77)
    h = r.read_batch_header(b)
    assert h.compression == 2 and h.timestamp_type == 1 and h.is_transactional and not h.has_delete_horizon
    assert h.partition_leader_epoch == 9 and h.max_timestamp == 77 and h.size_in_bytes == len(b)
    assert h.last_sequence == 2**31 - 1
    assert r.BATCH_HEADER_SIZE == r.HEADER_STRUCT.size == 61


# ------------------------------------------------------------------ control batches


@pytest.mark.parametrize("commit", [True, False])
def test_control_batch(commit):
    b = r.build_control_batch(commit, producer_id=77, producer_epoch=3, coordinator_epoch=12,
                              timestamp=1_700_000_000_000, base_offset=40)
    h, recs = r.decode_records(b)
    assert h.is_control and h.is_transactional and h.producer_id == 77 and h.producer_epoch == 3
    assert h.base_offset == 40 and h.records_count == 1 and h.base_sequence == -1
    assert r.parse_control_record(recs[0]) == (r.ControlRecordType.COMMIT if commit else r.ControlRecordType.ABORT, 12)
    assert recs[0].key == struct.pack(">hh", 0, int(commit))
    kb = DefaultRecordBatch(bytearray(b))
    assert kb.validate_crc() and kb.is_control_batch and kb.is_transactional


def test_parse_control_record_errors():
    with pytest.raises(CorruptRecordError):
        r.parse_control_record(r.Record(key=b"\x00"))
    with pytest.raises(CorruptRecordError):
        r.parse_control_record(r.Record(key=struct.pack(">hh", 0, 1), value=b"\x00"))
    assert r.parse_control_record(r.Record(key=struct.pack(">hh", 0, 2), value=b"x")) == (2, None)
    assert r.parse_control_record(r.Record(key=struct.pack(">hh", 0, 99))) == (99, None)


def test_decompression_bound_in_decode():
    b = r.build_batch([(None, b"\0" * 2_000_000, [], 1)], compression=4)
    with pytest.raises(CorruptRecordError):
        r.decode_records(b, max_decompressed=100_000)
    assert r.decode_records(b)[1][0].value == b"\0" * 2_000_000


def test_plain_records_are_encoded_as_the_general_path_encodes_them():
    """build_batch's one-loop path for header-less (key, value, headers, timestamp) tuples gives the bytes
    of the general path (encode_record a record): keys and values absent, empty, at the one- and
    two-byte varint edges and long; timestamps absent, at the base, before and after it."""
    import random

    from odradek.wire.records import _general_section, _plain_section  # noqa: PLC2701 - the two paths compared

    rng = random.Random(27)
    sizes = [0, 1, 63, 64, 127, 128, 4095, 4096, 20000]
    for trial in range(60):
        base = rng.choice([0, 1000, 1_700_000_000_000, -1])
        recs = [(rng.choice([None] + [b"k" * n for n in sizes]), rng.choice([None] + [b"v" * n for n in sizes]),
                 rng.choice([(), None, []]),
                 rng.choice([None, base, base + rng.randint(-100_000, 100_000), base + (1 << 40)]))
                for _ in range(rng.choice([1, 2, 30]))]
        if trial == 0:  # (offset deltas past the one- and two-byte varints)
            recs = [(b"k", b"v", (), base)] * 4097
        body, max_ts, max_delta, count, _ = _general_section(recs, base)
        assert _plain_section(recs, base) == (body, max_ts), trial
        assert (max_delta, count) == (len(recs) - 1, len(recs))
        h, got = next(r.iter_batches(r.build_batch(recs, base_timestamp=base, compression=trial % 2)))
        assert h.records_count == len(recs) and h.last_offset_delta == len(recs) - 1 and h.max_timestamp == max_ts
        assert [(x.key, x.value) for x in got] == [(k, v) for k, v, _, _ in recs]
    # anything else (a header, a Record, a 2-tuple) takes the general path
    assert _plain_section([(b"k", b"v", [("h", b"x")], 5)], 5) is None
    assert _plain_section([(b"k", b"v")], 5) is None
