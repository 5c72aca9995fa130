import gzip
import struct
import zlib

import lz4.frame
import pytest
from hypothesis import given, settings, strategies as st
from kafka import codec as kcodec

from odradek.wire import compression as c
from odradek.wire.exceptions import CompressionError

CODECS = [c.NONE, c.GZIP, c.SNAPPY, c.LZ4, c.ZSTD]
COMPRESSED = [c.GZIP, c.SNAPPY, c.LZ4, c.ZSTD]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CODECS), st.binary(max_size=3000), st.integers(0, 3))
def test_roundtrip(codec, data, reps):
    data = data * (reps + 1)
    assert c.decompress(codec, c.compress(codec, data), len(data)) == data


@pytest.mark.parametrize("codec", CODECS)
def test_roundtrip_large_and_memoryview(codec):
    data = bytes(range(256)) * 1000 + b"tail"  # > one 32 KiB snappy block, > one 64 KiB lz4 block
    z = c.compress(codec, memoryview(data))
    assert c.decompress(codec, memoryview(z), len(data)) == data
    assert c.decompress(codec, bytearray(z), len(data)) == data


@pytest.mark.parametrize("codec", CODECS)
def test_bound_exact(codec):
    data = b"abc" * 1000
    z = c.compress(codec, data)
    assert c.decompress(codec, z, len(data)) == data
    with pytest.raises(CompressionError):
        c.decompress(codec, z, len(data) - 1)


@pytest.mark.parametrize("codec", COMPRESSED)
def test_decompression_bomb_is_bounded(codec):
    size = 64 * 1024 * 1024
    if codec == c.SNAPPY:
        # snappy cannot express more than ~21x in one block: build a many-block xerial bomb
        block = c.compress(c.SNAPPY, b"\0" * 32768)[16:]
        bomb = c.XERIAL_HEADER + block * (size // 32768)
    elif codec == c.GZIP:
        bomb = gzip.compress(b"\0" * size, 9)
    else:
        bomb = c.compress(codec, b"\0" * size)
    with pytest.raises(CompressionError, match="exceeds"):
        c.decompress(codec, bomb, 1 << 20)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(COMPRESSED), st.binary(max_size=200))
def test_garbage_only_raises_compression_error(codec, junk):
    try:
        c.decompress(codec, junk, 1 << 16)
    except CompressionError:
        pass


@pytest.mark.parametrize("codec", COMPRESSED)
def test_truncation_and_bitflips(codec):
    data = bytes(range(200)) * 50
    z = c.compress(codec, data)
    for cut in range(0, len(z) - 1, max(1, len(z) // 60)):
        with pytest.raises(CompressionError):
            c.decompress(codec, z[:cut], len(data))
    for i in range(0, len(z), max(1, len(z) // 40)):
        bad = bytearray(z)
        bad[i] ^= 0x5A
        try:
            out = c.decompress(codec, bytes(bad), len(data))
        except CompressionError:
            continue
        assert isinstance(out, bytes)


def test_unknown_codec():
    with pytest.raises(CompressionError):
        c.decompress(7, b"x", 10)
    with pytest.raises(CompressionError):
        c.compress(5, b"x")


# ------------------------------------------------------------------ snappy framing


def test_golden_xerial_snappy():
    # raw snappy block for b"hello": varint length 5, literal tag (5-1)<<2, bytes
    raw = b"\x05\x10hello"
    framed = b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1) + struct.pack(">i", len(raw)) + raw
    assert c.decompress(c.SNAPPY, framed, 100) == b"hello"
    two = framed + struct.pack(">i", len(raw)) + raw
    assert c.decompress(c.SNAPPY, two, 100) == b"hellohello"
    assert c.decompress(c.SNAPPY, raw, 100) == b"hello"  # unframed raw block
    # empty xerial stream (header only) is empty output, as in snappy-java
    assert c.decompress(c.SNAPPY, framed[:16], 100) == b""
    # what we write is exactly this framing
    assert c.compress(c.SNAPPY, b"hello") == framed


def test_xerial_block_layout():
    data = b"x" * 70000
    z = c.compress(c.SNAPPY, data)
    assert z[:16] == c.XERIAL_HEADER
    pos, blocks = 16, 0
    while pos < len(z):
        (n,) = struct.unpack_from(">i", z, pos)
        pos += 4 + n
        blocks += 1
    assert pos == len(z) and blocks == 3  # 32 KiB blocks


def test_snappy_bad_block_length():
    framed = c.XERIAL_HEADER + struct.pack(">i", 1000) + b"\x05\x10hello"
    with pytest.raises(CompressionError):
        c.decompress(c.SNAPPY, framed, 100)
    with pytest.raises(CompressionError):
        c.decompress(c.SNAPPY, c.XERIAL_HEADER + b"\x00\x00\x00\x00", 100)  # a zero-length chunk
    # fewer than 4 bytes where a chunk length would be: snappy-java ends the stream there
    assert c.decompress(c.SNAPPY, c.XERIAL_HEADER + b"\x00\x00", 100) == b""


def test_snappy_concatenated_streams():
    one, two = c.compress(c.SNAPPY, b"one"), c.compress(c.SNAPPY, b"two")
    assert c.decompress(c.SNAPPY, one + two, 100) == b"onetwo"
    assert c.decompress(c.SNAPPY, one + c.XERIAL_HEADER, 100) == b"one"
    assert c.decompress(c.SNAPPY, one + b"\x82SNA" + b"not-the-magic", 100) == b"one"  # not a header: the end
    for bad in (one + c.XERIAL_MAGIC + struct.pack(">ii", 0, 0) + two[16:],  # version 0
                one + c.XERIAL_MAGIC[:6]):  # a header cut short
        with pytest.raises(CompressionError):
            c.decompress(c.SNAPPY, bad, 100)


def test_lz4_reads_one_frame_as_kafka():
    one, two = c.compress(c.LZ4, b"one"), c.compress(c.LZ4, b"two")
    assert c.decompress(c.LZ4, one + two, 100) == b"one"  # Kafka stops at the end mark
    assert c.decompress(c.LZ4, one + b"junk", 100) == b"one"
    checked = lz4.frame.compress(b"data", content_checksum=True, block_linked=False)
    assert c.decompress(c.LZ4, checked[:-4] + bytes(4), 100) == b"data"  # not verified by Kafka
    for bad in (checked[:-4], one[:-4], one[:4] + bytes([one[4] | 0x01]) + one[5:],
                one[:5] + bytes([0x30]) + one[6:]):
        with pytest.raises(CompressionError):
            c.decompress(c.LZ4, bad, 100)


# ------------------------------------------------------------------ interop with kafka-python's codecs


@pytest.mark.parametrize(
    "codec,enc,dec",
    [
        (c.GZIP, kcodec.gzip_encode, kcodec.gzip_decode),
        (c.SNAPPY, kcodec.snappy_encode, kcodec.snappy_decode),
        (c.LZ4, kcodec.lz4_encode, kcodec.lz4_decode),
        (c.ZSTD, kcodec.zstd_encode, kcodec.zstd_decode),
    ],
)
def test_kafka_python_codec_interop(codec, enc, dec):
    data = b"kafka " * 20000
    assert c.decompress(codec, enc(data), len(data)) == data
    assert dec(c.compress(codec, data)) == data


def test_kafka_python_xerial_snappy_is_read():
    data = bytes(range(256)) * 300
    framed = kcodec.snappy_encode(data, xerial_compatible=True, xerial_blocksize=32 * 1024)
    assert framed.startswith(c.XERIAL_MAGIC)
    assert c.decompress(c.SNAPPY, framed, len(data)) == data


def test_lz4_frame_is_what_java_reads():
    z = c.compress(c.LZ4, b"y" * 200000)
    assert z[:4] == b"\x04\x22\x4d\x18"
    flg, bd = z[4], z[5]
    assert flg & 0x20  # block independence (KafkaLZ4BlockInputStream decodes blocks independently)
    assert not flg & 0x08  # no content size
    assert (bd >> 4) & 7 == 4  # 64 KiB max block size
    info = lz4.frame.get_frame_info(z)
    assert info["block_linked"] is False


def test_gzip_concatenated_members():
    data = gzip.compress(b"one") + gzip.compress(b"two")
    assert c.decompress(c.GZIP, data, 10) == b"onetwo"
    with pytest.raises(CompressionError):
        c.decompress(c.GZIP, zlib.compress(b"not gzip framing"), 100)
