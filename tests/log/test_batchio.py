"""odradek.log.batchio: the C accelerator agrees with the Python definition, and
PartitionLog's plain-append fast path writes exactly what its general path writes."""
from __future__ import annotations

import os
import struct

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from odradek.log import LogConfig, PartitionLog, RealFileSystem, batchio, errors
from odradek.log.segment import LogSegment
from odradek.wire import records
from odradek.wire.compression import Codec as Compression
from odradek.wire.records import build_batch

try:  # pip install builds it; a missing accelerator is a failed build, not a skip
    from odradek.log import _batchio
except ImportError as e:  # pragma: no cover - reported as a failure below
    _batchio = None
    _IMPORT_ERROR = e


def test_accelerator_is_built_and_used():
    assert _batchio is not None, f"odradek.log._batchio not built: {_IMPORT_ERROR}"
    assert batchio.ACCELERATED
    assert batchio.plain_batch is _batchio.plain_batch
    assert batchio.pwrite_batch is _batchio.pwrite_batch


def _batch(n=3, *, codec=Compression.NONE, pid=-1, seq=-1, txn=False, control=False, ts=1000):
    return build_batch([(b"k%d" % i, b"v" * (i * 7), (), ts + i) for i in range(n)],
                       compression=codec, producer_id=pid, producer_epoch=0 if pid >= 0 else -1,
                       base_sequence=seq, is_transactional=txn, is_control=control)


VALID = [
    _batch(),
    _batch(1),
    _batch(40, codec=Compression.GZIP),
    _batch(5, codec=Compression.ZSTD),
    _batch(4, pid=7, seq=0),
]


@st.composite
def record_sets(draw):
    """Valid batches, two batches back to back, and every kind of damage."""
    base = bytearray(draw(st.sampled_from(VALID + [_batch(2, txn=True, pid=3, seq=0)])))
    kind = draw(st.sampled_from(["valid", "flip", "truncate", "extend", "two", "field"]))
    if kind == "flip":
        i = draw(st.integers(0, len(base) - 1))
        base[i] ^= 1 << draw(st.integers(0, 7))
    elif kind == "truncate":
        base = base[:draw(st.integers(0, len(base) - 1))]
    elif kind == "extend":
        base += draw(st.binary(min_size=1, max_size=20))
    elif kind == "two":
        base += VALID[0]
    elif kind == "field":  # header fields the fast path looks at, set to edge values
        off, fmt = draw(st.sampled_from([(8, ">i"), (16, ">b"), (21, ">h"), (23, ">i"), (57, ">i")]))
        lo, hi = {">i": (-2**31, 2**31 - 1), ">h": (-2**15, 2**15 - 1), ">b": (-128, 127)}[fmt]
        struct.pack_into(fmt, base, off, draw(st.integers(lo, hi)))
    return bytes(base)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(rs=record_sets(), max_bytes=st.sampled_from([0, 61, 200, 1 << 20]), crc=st.booleans(),
       as_view=st.booleans())
def test_plain_batch_c_matches_python(rs, max_bytes, crc, as_view):
    data = memoryview(rs) if as_view else rs
    assert _batchio.plain_batch(data, max_bytes, crc) == batchio.py_plain_batch(data, max_bytes, crc)


def test_plain_batch_answers():
    b = VALID[4]
    h = records.read_batch_header(b)
    assert batchio.plain_batch(b, 1 << 20, True) == (
        h.batch_length, h.last_offset_delta, h.max_timestamp, h.producer_id,
        h.producer_epoch, h.base_sequence, h.records_count)
    assert batchio.plain_batch(b, len(b) - 1, True) is None          # over max bytes
    assert batchio.plain_batch(VALID[2], 1 << 20, True) is None      # compressed: general path
    assert batchio.plain_batch(_batch(2, txn=True, pid=1, seq=0), 1 << 20, True) is None
    bad = bytearray(b)
    bad[-2] ^= 0xFF  # a value byte: the records stay well formed
    assert batchio.plain_batch(bytes(bad), 1 << 20, True) is None    # CRC mismatch
    assert batchio.plain_batch(bytes(bad), 1 << 20, False) is not None


@pytest.mark.parametrize("impl", ["c", "py"])
@pytest.mark.parametrize("epoch", [None, 0, 7, -1, 2**31 - 1])
def test_pwrite_batch_rewrites_only_offset_and_epoch(tmp_path, impl, epoch):
    fn = _batchio.pwrite_batch if impl == "c" else batchio.py_pwrite_batch
    b = VALID[2]
    path = tmp_path / "f"
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fn(fd, 0, b, 12345, epoch)
        fn(fd, len(b), memoryview(b), 2**40, epoch)
    finally:
        os.close(fd)
    data = path.read_bytes()
    assert len(data) == 2 * len(b)
    for pos, base in ((0, 12345), (len(b), 2**40)):
        out = data[pos:pos + len(b)]
        h = records.validate_batch(out)  # the CRC still holds
        assert h.base_offset == base
        assert h.partition_leader_epoch == (records.read_batch_header(b).partition_leader_epoch
                                            if epoch is None else epoch)
        assert out[16:] == b[16:] and out[8:12] == b[8:12]


def test_pwrite_batch_errors(tmp_path):
    for fn in (_batchio.pwrite_batch, batchio.py_pwrite_batch):
        with pytest.raises(ValueError):
            fn(0, 0, b"short", 0, None)
        with pytest.raises(OSError):
            fn(2**20, 0, VALID[0], 0, None)  # not an open fd
        fd = os.open(tmp_path / "ro", os.O_RDONLY | os.O_CREAT)
        try:
            with pytest.raises(OSError):
                fn(fd, 0, VALID[0], 0, None)
        finally:
            os.close(fd)
        with pytest.raises(OverflowError):
            fn(1, 0, VALID[0], 0, 2**31)


# ------------------------------------------------ fast path == general path


_TAIL_STATE = ("size", "next_offset", "max_timestamp", "offset_of_max_timestamp", "first_batch_timestamp",
               "bytes_since_last_index", "index_full", "dirty")


def _run(directory, ops, *, mode: str):
    """Apply ops to a fresh log; return the AppendInfos / error names, the segments' end
    state and the files. mode: "c" (SegmentTail.append_plain writes when it can),
    "python" (it only checks: PartitionLog's Python fast path writes) or "general"."""
    saved = LogSegment.__dict__.get("append_plain")
    if mode == "python":
        LogSegment.append_plain = batchio.PySegmentTail.append_plain
    elif mode == "general":
        LogSegment.append_plain = lambda self, *a: None
    try:
        cfg = LogConfig(segment_bytes=4000, index_interval_bytes=300, segment_ms=10_000)
        log = PartitionLog(RealFileSystem(), directory, cfg, now_ms=0)
        out = []
        for rs, now, epoch in ops:
            try:
                out.append(log.append(rs, now, leader_epoch=epoch))
            except errors.LogError as e:
                out.append(type(e).__name__)
        out.append([tuple(getattr(seg, a) for a in _TAIL_STATE) for seg in log.segments])
        log.close()
    finally:
        if saved is None:
            LogSegment.__dict__.get("append_plain") and delattr(LogSegment, "append_plain")
        else:
            LogSegment.append_plain = saved
    files = {n: open(os.path.join(directory, n), "rb").read() for n in sorted(os.listdir(directory))
             if not n.endswith(".checkpoint")}
    return out, files


@st.composite
def op_lists(draw):
    ops = []
    now = 1000
    seqs = {}
    for _ in range(draw(st.integers(1, 30))):
        now += draw(st.integers(0, 4000))
        pid = draw(st.sampled_from([-1, -1, 5, 6]))
        n = draw(st.integers(1, 6))
        seq = -1
        if pid >= 0:
            seq = seqs.get(pid, 0)
            jump = draw(st.sampled_from([0, 0, 0, 3, -n]))  # in order, gap, or a retry
            seq = max(0, seq + jump)
            seqs[pid] = seq + n
        rs = build_batch([(b"k", b"x" * draw(st.integers(0, 300)), (), now - 5 + i) for i in range(n)],
                         producer_id=pid, producer_epoch=0 if pid >= 0 else -1, base_sequence=seq,
                         compression=draw(st.sampled_from([Compression.NONE, Compression.LZ4])))
        if draw(st.integers(0, 9)) == 0:
            rs = rs + rs  # two batches: the general path
        if draw(st.integers(0, 14)) == 0:
            b = bytearray(rs)
            b[-1] ^= 1
            rs = bytes(b)  # corrupt
        ops.append((rs, now, draw(st.sampled_from([None, 3]))))
    return ops


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(ops=op_lists())
def test_fast_path_writes_what_the_general_path_writes(tmp_path_factory, ops):
    d = tmp_path_factory.mktemp("fastpath")
    general = _run(str(d / "general-0"), ops, mode="general")
    assert _run(str(d / "python-0"), ops, mode="python") == general
    if batchio.ACCELERATED:
        assert _run(str(d / "c-0"), ops, mode="c") == general


# ------------------------------------------------ record walk (check_records)


def _records_section(n=3, headers=((b"h", b"x"), (b"e", None))):
    b = build_batch([(b"k%d" % i if i % 2 else None, None if i == 1 else b"v" * i, list(headers), 1000 + i)
                     for i in range(n)])
    return b[records.RECORDS_OFFSET:], n


@st.composite
def sections(draw):
    sec, n = _records_section(draw(st.integers(0, 5)))
    sec = bytearray(sec)
    kind = draw(st.sampled_from(["valid", "flip", "truncate", "extend", "count", "varint"]))
    if kind == "flip" and sec:
        sec[draw(st.integers(0, len(sec) - 1))] ^= 1 << draw(st.integers(0, 7))
    elif kind == "truncate":
        sec = sec[:draw(st.integers(0, len(sec)))]
    elif kind == "extend":
        sec += draw(st.binary(min_size=1, max_size=12))
    elif kind == "count":
        n += draw(st.integers(-2, 2))
    elif kind == "varint" and sec:  # long runs of continuation bits
        i = draw(st.integers(0, len(sec) - 1))
        sec[i:i + 6] = b"\xff" * draw(st.integers(1, 11))
    return bytes(sec), n


@settings(max_examples=800, suppress_health_check=[HealthCheck.too_slow])
@given(case=sections(), offsets=st.booleans())
def test_check_records_c_matches_python(case, offsets):
    sec, n = case
    assert _batchio.check_records(sec, n, offsets) == batchio.py_check_records(sec, n, offsets)


def test_check_records_answers():
    sec, n = _records_section(4)
    for fn in (_batchio.check_records, batchio.py_check_records):
        assert fn(sec, n, True) == batchio.CHECK_OK
        assert fn(sec, n + 1, False) == batchio.CHECK_INVALID   # a record too few
        assert fn(sec, n - 1, False) == batchio.CHECK_INVALID   # trailing bytes
        assert fn(sec[:-1], n, False) == batchio.CHECK_INVALID
        assert fn(b"", 0, True) == batchio.CHECK_OK
        assert fn(b"", -1, True) == batchio.CHECK_INVALID
        swapped = records.encode_record(1, 0, b"a", b"b") + records.encode_record(0, 0, b"a", b"b")
        assert fn(swapped, 2, False) == batchio.CHECK_OK
        assert fn(swapped, 2, True) == batchio.CHECK_OFFSETS
        null_key_header = records.write_varint(6) + b"\x00\x00\x00\x01\x01\x02" + b"\x01\x01"
        assert fn(null_key_header, 1, False) == batchio.CHECK_INVALID


def test_log_refuses_malformed_records_and_writes_nothing(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), LogConfig(), now_ms=0)
    good = _batch(3)
    bad = bytearray(good)
    struct.pack_into(">i", bad, 57, 4)  # records count
    struct.pack_into(">i", bad, 23, 3)  # last offset delta consistent with the count
    struct.pack_into(">I", bad, 17, records.compute_crc(bad, 0))
    with pytest.raises(errors.RecordStructureError):
        log.append(bytes(bad), 1000)
    gz = bytearray(_batch(3, codec=Compression.GZIP))
    gz[-6:] = b"\x00" * 6
    struct.pack_into(">I", gz, 17, records.compute_crc(gz, 0))
    with pytest.raises(errors.UndecodableBatchError):
        log.append(bytes(gz), 1000)
    assert log.log_end_offset == 0 and log.size_in_bytes == 0
    assert log.append(good, 1000).base_offset == 0


# ------------------------------------------------ without the C modules


def test_pure_python_fallback_appends_and_reads(tmp_path):
    """With neither C module importable (no compiler at install), the Python definitions
    run: same offsets, same files read back."""
    import subprocess
    import sys

    script = r'''
import sys
sys.modules["odradek.log._batchio"] = None
sys.modules["odradek.wire._crc32c"] = None
from odradek.log import LogConfig, PartitionLog, RealFileSystem, batchio
from odradek.wire import records
from odradek.wire.records import build_batch
assert not batchio.ACCELERATED and batchio.AppendInfo is batchio.PyAppendInfo
import crc32c
assert records.crc32c is crc32c.crc32c
d = sys.argv[1]
log = PartitionLog(RealFileSystem(), d, LogConfig(segment_bytes=2000, index_interval_bytes=100), now_ms=0)
infos = [log.append(build_batch([(b"k", b"v" * 50, (), 1000 + i)] * 3), 2000) for i in range(20)]
infos.append(log.append(build_batch([(b"k", b"p", (), 5000)], producer_id=9, producer_epoch=0, base_sequence=0), 6000))
assert [i.base_offset for i in infos] == list(range(0, 63, 3)), infos
assert type(infos[0]) is batchio.PyAppendInfo and infos[-1].record_count == 1
log.close()
log = PartitionLog(RealFileSystem(), d, LogConfig(segment_bytes=2000, index_interval_bytes=100), now_ms=0)
assert log.log_end_offset == 61 and len(log.segments) > 1
print("ok")
'''
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "t-0")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
