"""Gzip decompression with the framing rules of the broker Kafka runs on: Java's
GZIPInputStream, which Kafka's GzipCompression reads through an 8 KiB input buffer.

What differs from zlib's own gzip reader:
- the header's reserved flag bits are ignored (zlib refuses them);
- after a member's trailer, the next member is looked for only when the stream has
  more bytes than the inflater's buffer still holds, or that buffer holds more than
  26 bytes (trailer + header + ...); the buffer is filled 8 KiB at a time, so this
  depends on where the member ended;
- a next header that does not parse (bad magic, method, flags fields, header CRC, or
  too short) ends the stream without error: whatever follows is ignored. A header
  that parses starts a member that must then be whole.

Any other fault (bad first header, bad deflate data, truncation, trailer CRC or size)
raises ValueError; the caller turns it into CompressionError.
"""
from __future__ import annotations

import zlib

JAVA_INPUT_BUFFER = 8 * 1024  # GZIPInputStream's buffer in Kafka's GzipCompression
_MAGIC = b"\x1f\x8b"
_DEFLATED = 8
_FHCRC, _FEXTRA, _FNAME, _FCOMMENT = 0x02, 0x04, 0x08, 0x10
_TRAILER = 8
_LOOK_FOR_NEXT = 26  # GZIPInputStream.readTrailer: "n > 26"


class Truncated(ValueError):
    pass


def header_length(buf: bytes, pos: int) -> int:
    """Length of the gzip member header at pos, checked as GZIPInputStream.readHeader."""
    end = len(buf)
    if pos + 10 > end:
        raise Truncated("truncated gzip header")
    if buf[pos:pos + 2] != _MAGIC:
        raise ValueError("not in gzip format")
    if buf[pos + 2] != _DEFLATED:
        raise ValueError("unsupported gzip compression method")
    flags = buf[pos + 3]
    p = pos + 10
    if flags & _FEXTRA:
        if p + 2 > end:
            raise Truncated("truncated gzip header")
        p += 2 + int.from_bytes(buf[p:p + 2], "little")
    for bit in (_FNAME, _FCOMMENT):
        if flags & bit:
            zero = buf.find(b"\x00", p)
            if zero < 0:
                raise Truncated("truncated gzip header")
            p = zero + 1
    if flags & _FHCRC:
        if p + 2 > end:
            raise Truncated("truncated gzip header")
        if int.from_bytes(buf[p:p + 2], "little") != zlib.crc32(buf[pos:p]) & 0xFFFF:
            raise ValueError("corrupt gzip header")
        p += 2
    if p > end:
        raise Truncated("truncated gzip header")
    return p - pos


def _chunk_end(e: int, buffered_end: int, in_pos: int, total: int) -> int:
    """End of what the inflater's buffer held when its stream ended at e: the buffered
    input, or the 8 KiB read from the underlying stream that reached e."""
    if e <= buffered_end:
        return buffered_end
    chunks = -(-(e - in_pos) // JAVA_INPUT_BUFFER)
    return min(total, in_pos + chunks * JAVA_INPUT_BUFFER)


def gunzip(data, max_size: int) -> bytes | None:
    """The decompressed bytes, or None when they exceed max_size bytes."""
    buf = bytes(data)
    total = len(buf)
    start = header_length(buf, 0)  # read directly from the stream, not buffered
    in_pos = buffered_end = start
    out = bytearray()
    while True:
        d = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            member = d.decompress(buf[start:], max_size + 1 - len(out))
            while d.unconsumed_tail and len(out) + len(member) <= max_size:
                member += d.decompress(d.unconsumed_tail, max_size + 1 - len(out) - len(member))
        except zlib.error as e:
            raise ValueError(str(e)) from None
        if len(out) + len(member) > max_size:
            return None
        if not d.eof:
            raise Truncated("truncated gzip stream")
        e = total - len(d.unused_data)
        if e + _TRAILER > total:
            raise Truncated("truncated gzip trailer")
        crc = int.from_bytes(buf[e:e + 4], "little")
        size = int.from_bytes(buf[e + 4:e + 8], "little")
        if crc != zlib.crc32(member) or size != len(member) & 0xFFFFFFFF:
            raise ValueError("corrupt gzip trailer")
        out += member
        buffered_end = _chunk_end(e, buffered_end, in_pos, total)
        in_pos = max(buffered_end, e + _TRAILER)
        n = buffered_end - e  # bytes the inflater still held, trailer included
        if not (total > in_pos or n > _LOOK_FOR_NEXT):
            return bytes(out)
        try:
            m = _TRAILER + header_length(buf, e + _TRAILER)
        except ValueError:
            return bytes(out)  # "ignore any malformed, do nothing"
        start = e + m
        if n <= m:  # the header was read past the buffer: nothing buffered is left
            in_pos = buffered_end = max(buffered_end, start)
