"""odradek.wire.gzip_stream: gzip read with Java GZIPInputStream's framing rules (the
compat test test_record_validation checks the same cases against a broker)."""
import gzip
import zlib

import pytest

from odradek.wire import gzip_stream as g

DATA = b"odradek " * 100
GZ = gzip.compress(DATA, mtime=0)
HEADER = GZ[:10]


def flags(f: int, fields: bytes) -> bytes:
    return HEADER[:3] + bytes([f]) + HEADER[4:] + fields


def test_plain_member_and_concatenation():
    assert g.gunzip(GZ, 10**6) == DATA
    assert g.gunzip(GZ + gzip.compress(b"more"), 10**6) == DATA + b"more"


def test_header_fields():
    body = GZ[10:]
    assert g.gunzip(flags(0xE0, b"") + body, 10**6) == DATA  # reserved bits: ignored, as Java
    assert g.gunzip(flags(4, b"\x03\x00abc") + body, 10**6) == DATA
    assert g.gunzip(flags(8 | 16, b"n\x00c\x00") + body, 10**6) == DATA
    good_crc = (zlib.crc32(flags(2, b"")) & 0xFFFF).to_bytes(2, "little")
    assert g.gunzip(flags(2, good_crc) + body, 10**6) == DATA
    fields = flags(4 | 8 | 2, b"\x01\x00xname\x00")
    assert g.header_length(fields + (zlib.crc32(fields) & 0xFFFF).to_bytes(2, "little"), 0) == 10 + 3 + 5 + 2
    for bad in (flags(2, b"\x00\x00") + body, b"\x1f\x8c" + GZ[2:], GZ[:2] + b"\x07" + GZ[3:]):
        with pytest.raises(ValueError):
            g.gunzip(bad, 10**6)
    for short in (GZ[:9], flags(4, b"\xff\xff"), flags(8, b"name"), flags(2, b"\x00")):
        with pytest.raises(g.Truncated):
            g.header_length(short, 0)


@pytest.mark.parametrize("cut", [12, len(GZ) // 2, len(GZ) - 8, len(GZ) - 1])
def test_truncated_member(cut):
    with pytest.raises(g.Truncated):
        g.gunzip(GZ[:cut], 10**6)


def test_trailer_checked():
    for bad in (GZ[:-8] + b"\x00" * 4 + GZ[-4:], GZ[:-4] + b"\x00" * 4):
        with pytest.raises(ValueError, match="trailer"):
            g.gunzip(bad, 10**6)


def test_after_a_member():
    assert g.gunzip(GZ + b"\x00" * 40, 10**6) == DATA  # no header: ignored
    assert g.gunzip(GZ + HEADER[:5], 10**6) == DATA  # short header: ignored
    assert g.gunzip(GZ + HEADER + b"\xff" * 5, 10**6) == DATA  # 23 bytes held, <= 26: not looked at
    with pytest.raises(ValueError):
        g.gunzip(GZ + HEADER + b"\xff" * 20, 10**6)  # a header, then junk: a broken member


def test_buffer_boundary_decides_the_lookup():
    # a member of stored blocks whose deflate data ends `left` bytes before an 8 KiB
    # read ends; 15 more bytes follow (a header and junk)
    def member(left):
        size = 20000
        for _ in range(20):
            c = zlib.compressobj(0, zlib.DEFLATED, 31)
            gz = c.compress(bytes(size)) + c.flush()
            off = (len(gz) - 18) % g.JAVA_INPUT_BUFFER
            if g.JAVA_INPUT_BUFFER - off == left:
                return gz, size
            size += (g.JAVA_INPUT_BUFFER - left - off) % g.JAVA_INPUT_BUFFER or 1
        raise AssertionError
    for left, looked_at in ((30, False), (23, False), (22, True), (8, True)):
        gz, size = member(left)
        if looked_at:
            with pytest.raises(ValueError):
                g.gunzip(gz + HEADER + b"\xff" * 5, 10**6)
        else:
            assert g.gunzip(gz + HEADER + b"\xff" * 5, 10**6) == bytes(size)


def test_bounded_output():
    bomb = gzip.compress(bytes(10**6))
    assert g.gunzip(bomb, 10**6) == bytes(10**6)
    assert g.gunzip(bomb, 10**6 - 1) is None
