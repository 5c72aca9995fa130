"""FrameDecoder on the broker read path: memoryview frames, one copy at most."""
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.wire.frames import FrameDecoder
from odradek.wire.exceptions import FrameTooLargeError

MAX = 1 << 20


def _stream(payloads):
    return b"".join(struct.pack(">i", len(p)) + p for p in payloads)


PAYLOADS = [b"", b"a", b"hello world" * 50, bytes(range(256)) * 3, b""]


def _feed_all(reader, chunks):
    out = []
    for c in chunks:
        out += [bytes(f) for f in reader.feed(c)]
    return out


def test_byte_at_a_time():
    data = _stream(PAYLOADS)
    r = FrameDecoder(MAX)
    assert _feed_all(r, [data[i:i + 1] for i in range(len(data))]) == PAYLOADS
    assert r.buffered == 0


def test_whole_stream_in_one_chunk_is_zero_copy():
    data = _stream(PAYLOADS)
    frames = FrameDecoder(MAX).feed(data)
    assert [bytes(f) for f in frames] == PAYLOADS
    assert all(isinstance(f, memoryview) and f.obj is data for f in frames)


def test_spanning_frame_is_one_bytearray():
    payload = bytes(range(256)) * 40
    data = _stream([payload])
    r = FrameDecoder(MAX)
    assert r.feed(data[:1000]) == []
    assert r.buffered == 1000 - 4
    (f,) = r.feed(data[1000:])
    assert isinstance(f, bytearray) and f == payload


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=8), st.randoms())
def test_random_chunks(payloads, rnd):
    data = _stream(payloads)
    chunks = []
    pos = 0
    while pos < len(data):
        n = rnd.randint(1, 40)
        chunks.append(data[pos:pos + n])
        pos += n
    r = FrameDecoder(MAX)
    assert _feed_all(r, chunks) == payloads
    assert r.buffered == 0


@pytest.mark.parametrize("size", [-1, MAX + 1])
def test_bad_size_raises_and_stays_failed(size):
    r = FrameDecoder(MAX)
    with pytest.raises(FrameTooLargeError):
        r.feed(struct.pack(">i", size) + b"x")
    with pytest.raises(FrameTooLargeError):
        r.feed(b"more")


def test_bad_size_after_split_prefix():
    r = FrameDecoder(MAX)
    data = struct.pack(">i", MAX + 1)
    assert r.feed(data[:2]) == []
    with pytest.raises(FrameTooLargeError):
        r.feed(data[2:])
