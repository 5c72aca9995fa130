import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.wire.exceptions import FrameTooLargeError
from odradek.wire.frames import BufferPool, FrameBuffer, FrameDecoder


def _stream(payloads):
    return b"".join(struct.pack(">i", len(p)) + p for p in payloads)


PAYLOADS = [b"", b"a", b"hello world" * 50, bytes(range(256)) * 3]


def test_byte_at_a_time():
    data = _stream(PAYLOADS)
    dec = FrameDecoder()
    out = []
    for i in range(len(data)):
        out += dec.feed(data[i:i + 1])
    assert out == PAYLOADS
    assert dec.buffered == 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=8), st.randoms())
def test_random_chunks(payloads, rnd):
    data = _stream(payloads)
    dec = FrameDecoder()
    out = []
    pos = 0
    while pos < len(data):
        n = rnd.randint(1, 40)
        out += dec.feed(data[pos:pos + n])
        pos += n
    assert out == payloads


def test_negative_size_is_typed_error():
    dec = FrameDecoder()
    with pytest.raises(FrameTooLargeError):
        dec.feed(struct.pack(">i", -5))


def test_oversize_is_typed_error_before_body_arrives():
    dec = FrameDecoder(max_size=1024)
    assert dec.feed(struct.pack(">i", 1024) + b"x" * 10) == []
    dec2 = FrameDecoder(max_size=1024)
    with pytest.raises(FrameTooLargeError) as e:
        dec2.feed(struct.pack(">i", 1025))
    assert e.value.size == 1025
    with pytest.raises(FrameTooLargeError):
        dec2.feed(b"more")


def test_default_max_is_100_mib():
    assert FrameDecoder().max_size == 100 * 1024 * 1024


def test_partial_prefix_waits():
    dec = FrameDecoder()
    assert dec.feed(b"\x00\x00") == []
    assert dec.feed(b"\x00\x01z") == [b"z"]


# ---------------------------------------------------------------- FrameBuffer (read straight into the buffer)

def _feed_buffer(fb, data, sizes, keep=True):
    """Write data into fb's buffers in reads of the given sizes (cycled); the frames
    (kept as views, or copied to bytes at once so that the buffer can be reused)."""
    out = []
    pos = 0
    i = 0
    while pos < len(data):
        buf = fb.get_buffer()
        assert len(buf) > 0
        n = min(len(buf), sizes[i % len(sizes)], len(data) - pos)
        buf[:n] = data[pos:pos + n]
        del buf
        frames = fb.received(n)
        out += frames if keep else [bytes(f) for f in frames]
        del frames
        pos += n
        i += 1
    return out


def test_buffer_byte_at_a_time():
    data = _stream(PAYLOADS)
    fb = FrameBuffer(chunk=64)
    out = _feed_buffer(fb, data, [1])
    assert [bytes(f) for f in out] == PAYLOADS
    assert fb.buffered == 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=12), st.lists(st.integers(1, 700), min_size=1, max_size=5),
       st.integers(1, 512))
def test_buffer_random_reads(payloads, sizes, chunk):
    data = _stream(payloads)
    fb = FrameBuffer(chunk=chunk)
    out = _feed_buffer(fb, data, sizes)
    assert [bytes(f) for f in out] == payloads
    fb = FrameBuffer(chunk=chunk)
    assert _feed_buffer(fb, data, sizes, keep=False) == payloads  # the buffer is reused


def test_buffer_frames_stay_valid_after_more_reads():
    """A frame view is never overwritten by later reads (the log may still be writing it)."""
    payloads = [bytes([i]) * (50 + 37 * i) for i in range(40)]
    fb = FrameBuffer(chunk=256)
    out = _feed_buffer(fb, _stream(payloads), [100, 7, 300])
    assert [bytes(f) for f in out] == payloads
    assert all(isinstance(f, memoryview) for f in out)


def test_buffer_large_frame_grows_with_the_bytes_received():
    """A declared size costs no memory until its bytes come (issue 27: a 100 MiB size
    prefix used to allocate 104 MiB at once); the buffer at most doubles what arrived."""
    big = bytes(range(256)) * 4096  # 1 MiB
    fb = FrameBuffer(chunk=4096)
    first = fb.get_buffer()
    first[:8] = struct.pack(">i", len(big)) + big[:4]
    assert fb.received(8) == []
    sent, frames = 4, []
    while not frames:
        buf = fb.get_buffer()
        assert len(buf.obj) <= 2 * (sent + 4) + 2 * 4096
        n = min(len(buf), len(big) - sent)
        buf[:n] = big[sent:sent + n]
        sent += n
        del buf
        frames = fb.received(n)
    assert frames[0] == big


def test_buffer_declared_size_alone_holds_one_chunk():
    fb = FrameBuffer(max_size=200 << 20, chunk=64 * 1024)
    b = fb.get_buffer()
    b[:4 + 3000] = struct.pack(">i", 100 << 20) + b"x" * 3000
    del b
    assert fb.received(4 + 3000) == [] and fb.pending_size == 100 << 20
    assert len(fb.get_buffer().obj) == 64 * 1024


def test_buffer_oversize_is_typed_error_before_body_arrives():
    fb = FrameBuffer(max_size=1024)
    b = fb.get_buffer()
    b[:4] = struct.pack(">i", 1025)
    with pytest.raises(FrameTooLargeError) as e:
        fb.received(4)
    assert e.value.size == 1025
    fb2 = FrameBuffer()
    fb2.get_buffer()[:4] = struct.pack(">i", -1)
    with pytest.raises(FrameTooLargeError):
        fb2.received(4)


def test_buffer_is_reused_once_no_frame_view_is_left():
    payload = b"x" * 100
    fb = FrameBuffer(chunk=1024)
    b1 = fb.get_buffer()
    b1[:104] = _stream([payload])
    base = id(b1.obj)  # (holding the bytearray itself would keep it from being reused)
    del b1
    (f,) = fb.received(104)
    b2 = fb.get_buffer()
    assert id(b2.obj) == base and len(b2) == 1024 - 104  # the frame is alive: read on after it
    b2[:104] = _stream([b"y" * 100])
    del b2
    (g,) = fb.received(104)
    f.release()
    del f
    assert bytes(g) == b"y" * 100
    b3 = fb.get_buffer()
    assert len(b3) == 1024 - 208  # g still alive
    del b3
    del g
    b4 = fb.get_buffer()
    assert id(b4.obj) == base and len(b4) == 1024  # nothing alive: reused from the start


# ---------------------------------------------------------------- BufferPool (receive buffers reused across frames)

def test_pool_hands_out_a_buffer_only_when_no_view_is_left():
    pool = BufferPool(max_bytes=1 << 20)
    b = bytearray(1000)
    view = memoryview(b)[10:20]
    pool.give(b)
    del b
    assert pool.take(500) is None  # a frame view still points into it
    del view
    got = pool.take(500)
    assert got is not None and len(got) == 1000
    assert pool.take(500) is None and pool.spare_bytes == 0


def test_pool_size_and_bound():
    pool = BufferPool(max_bytes=3000)
    for n in (1000, 1000, 1000, 1000):
        pool.give(bytearray(n))
    assert pool.spare_bytes == 3000  # the oldest went
    assert pool.take(1001) is None
    pool.give(bytearray(5000))  # above the bound: not kept
    assert pool.spare_bytes == 3000



def test_a_cleared_pool_keeps_no_spare_buffer():
    """After a storm the server lets go of the spare buffers its large requests grew (up to max_bytes,
    16 MiB by default, would otherwise stay for good); frames go on being read, into new buffers."""
    pool = BufferPool(max_bytes=1 << 20)
    spares = [bytearray(n) for n in (128 << 10, 256 << 10, 512 << 10)]
    for b in spares:
        pool.give(b)
    assert pool.spare_bytes == 896 << 10
    pool.clear()
    assert pool.spare_bytes == 0 and pool.take(1) is None
    fb = FrameBuffer(chunk=64 * 1024, pool=pool)
    payloads = [b"x" * (200 << 10), b"y" * 10]
    assert _feed_releasing(fb, _stream(payloads), [4096] * 1000) == payloads

def _big_stream(n_frames, size):
    payloads = [bytes([i % 251]) * (size + 97 * (i % 5)) for i in range(n_frames)]
    return payloads, _stream(payloads)


def test_pooled_buffers_are_reused_for_large_frames():
    """Large pipelined frames, each handled (view dropped) while the next one arrives:
    a few buffers go round instead of one fresh buffer per frame."""
    payloads, data = _big_stream(60, 300_000)
    pool = BufferPool()
    fb = FrameBuffer(chunk=64 * 1024, pool=pool)
    seen = set()
    out = []
    pos = 0
    held = []
    while pos < len(data):
        buf = fb.get_buffer()
        seen.add(id(buf.obj))
        n = min(len(buf), 65536, len(data) - pos)
        buf[:n] = data[pos:pos + n]
        del buf
        held += fb.received(n)
        while len(held) > 1:  # one frame still being handled while the next arrives
            out.append(bytes(held.pop(0)))
        pos += n
    out += [bytes(f) for f in held]
    assert out == payloads
    # the first frame's buffer grows (64 KiB -> 128 KiB -> 256 KiB -> its size), then
    # the pooled ones go round
    assert len(seen) <= 6, len(seen)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5000), max_size=20), st.lists(st.integers(1, 3000), min_size=1, max_size=5),
       st.integers(16, 1024), st.integers(0, 3))
def test_pooled_frames_stay_valid(sizes, reads, chunk, keep_every):
    """A kept frame is never overwritten, though another connection takes every buffer the
    pool will hand out and scribbles over it."""
    payloads = [bytes([i % 251]) * s for i, s in enumerate(sizes)]
    data = _stream(payloads)
    pool = BufferPool(max_bytes=64 * 1024)
    fb = FrameBuffer(chunk=chunk, pool=pool)
    kept = []
    pos = 0
    i = 0
    while pos < len(data):
        buf = fb.get_buffer()
        n = min(len(buf), reads[i % len(reads)], len(data) - pos)
        buf[:n] = data[pos:pos + n]
        del buf
        for f in fb.received(n):
            kept.append(f if keep_every and len(kept) % (keep_every + 1) == 0 else bytes(f))
        taken = []
        while (b := pool.take(1)) is not None:
            b[:] = b"\xff" * len(b)
            taken.append(b)
        for b in taken:
            pool.give(b)
        del taken, b
        pos += n
        i += 1
    assert [bytes(f) for f in kept] == payloads


# ---------------------------------------------------------------- release: no receive memory between frames

def _feed_releasing(fb, data, sizes):
    """As _feed_buffer, releasing the buffer after every read (as an idle connection does)."""
    out = []
    pos = i = 0
    while pos < len(data):
        buf = fb.get_buffer()
        n = min(len(buf), sizes[i % len(sizes)], len(data) - pos)
        buf[:n] = data[pos:pos + n]
        del buf
        out += [bytes(f) for f in fb.received(n)]
        fb.release()
        pos += n
        i += 1
    return out


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=12), st.lists(st.integers(1, 700), min_size=1, max_size=5),
       st.integers(1, 512))
def test_released_buffer_reads_into_the_pool_scratch(payloads, sizes, chunk):
    fb = FrameBuffer(chunk=chunk, pool=BufferPool(scratch_bytes=256))
    assert _feed_releasing(fb, _stream(payloads), sizes) == payloads
    assert fb.buffered == 0


def test_an_idle_buffer_holds_nothing_and_a_partial_frame_what_arrived():
    pool = BufferPool()
    fb = FrameBuffer(max_size=200 << 20, pool=pool)
    b = fb.get_buffer()
    assert b.obj is pool.scratch  # nothing of its own while no frame is partly in
    data = _stream([b"a" * 10, b"b" * 20]) + struct.pack(">i", 1000) + b"c" * 300
    b[:len(data)] = data
    del b
    frames = fb.received(len(data))
    assert [bytes(f) for f in frames] == [b"a" * 10, b"b" * 20]
    assert fb.buffered == 304 and not fb.release()  # a partial frame keeps its buffer
    own = fb.get_buffer()
    assert own.obj is not pool.scratch and len(own.obj) == 1004  # a small frame: its size
    own[:700] = b"c" * 700
    del own
    (f,) = fb.received(700)
    assert bytes(f) == b"c" * 1000
    del f
    assert fb.release() and fb.get_buffer().obj is pool.scratch


def test_a_declared_100_mib_frame_after_release_holds_what_arrived():
    pool = BufferPool()
    fb = FrameBuffer(max_size=200 << 20, pool=pool)
    b = fb.get_buffer()
    b[:4 + 3000] = struct.pack(">i", 100 << 20) + b"x" * 3000
    del b
    assert fb.received(4 + 3000) == [] and fb.pending_size == 100 << 20
    assert len(fb.get_buffer().obj) <= 3004 + 64 * 1024
    fb.release_all()  # the connection closed: the partial frame goes too
    assert fb.buffered == 0 and fb.get_buffer().obj is pool.scratch
