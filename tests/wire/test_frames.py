import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.wire.exceptions import FrameTooLargeError
from odradek.wire.frames import FrameBuffer, FrameDecoder


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


def test_buffer_large_frame_gets_a_buffer_of_its_size():
    big = bytes(range(256)) * 4096  # 1 MiB
    fb = FrameBuffer(chunk=4096)
    first = fb.get_buffer()
    first[:8] = struct.pack(">i", len(big)) + big[:4]
    assert fb.received(8) == []
    rest = fb.get_buffer()
    assert len(rest) >= len(big) - 4  # the rest of the frame fits in one read
    rest[:len(big) - 4] = big[4:]
    (f,) = fb.received(len(big) - 4)
    assert f == big


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
