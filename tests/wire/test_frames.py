import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.wire.exceptions import FrameTooLargeError
from odradek.wire.frames import FrameDecoder


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
