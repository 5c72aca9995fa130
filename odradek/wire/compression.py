"""Record-batch compression codecs, by Kafka attribute id (bits 0-2 of a batch's attributes).

    NONE=0, GZIP=1, SNAPPY=2, LZ4=3, ZSTD=4

``compress(codec, data, level=None)`` writes what the Java client writes:
gzip streams, xerial-framed snappy (32 KiB blocks), LZ4 frames with independent
64 KiB blocks and no content size (what KafkaLZ4BlockInputStream can read), and a
zstd frame.

``decompress(codec, data, max_size)`` reads what Kafka's own readers read, with their
framing rules (Java's GZIPInputStream, snappy-java's SnappyInputStream,
KafkaLZ4BlockInputStream, zstd-jni): concatenated gzip members, xerial streams and
zstd frames, raw unframed snappy blocks, one LZ4 frame (what follows its end mark is
ignored), and the junk each of them ignores. It is bounded: output larger than
``max_size`` bytes raises ``CompressionError`` without being fully materialised, and
so does any input Kafka fails to read. No zlib.error, lz4/zstd/snappy exception ever
escapes.
"""

from __future__ import annotations

import enum
import functools
import importlib
import struct
import zlib

from odradek.wire import gzip_stream, lz4_frame
from odradek.wire.exceptions import CompressionError

# The codec libraries load on first use: a broker that never sees compressed data
# does not pay their start-up time and resident memory.
@functools.cache
def _codec_module(name: str):
    return importlib.import_module(name)


def _cramjam():
    return _codec_module("cramjam")


def _lz4_frame():
    return _codec_module("lz4.frame")


@functools.cache
def _zstd_decompressor():
    return _codec_module("zstandard").ZstdDecompressor()


__all__ = [
    "Codec",
    "NONE",
    "GZIP",
    "SNAPPY",
    "LZ4",
    "ZSTD",
    "XERIAL_MAGIC",
    "compress",
    "decompress",
]


class Codec(enum.IntEnum):
    NONE = 0
    GZIP = 1
    SNAPPY = 2
    LZ4 = 3
    ZSTD = 4

    @property
    def label(self) -> str:
        """The name used by Kafka's compression.type config."""
        return self.name.lower()


NONE, GZIP, SNAPPY, LZ4, ZSTD = 0, 1, 2, 3, 4

# xerial snappy-java framing: magic, then int32 version and int32 compatible version,
# then [int32 compressed length][raw snappy block]... (all big-endian).
XERIAL_MAGIC = b"\x82SNAPPY\x00"
XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
XERIAL_HEADER_SIZE = len(XERIAL_HEADER)
XERIAL_MIN_COMPATIBLE_VERSION = 1  # checked only for concatenated streams, as snappy-java
XERIAL_BLOCK_SIZE = 32 * 1024  # snappy-java SnappyOutputStream default
_I32 = struct.Struct(">i")

_CHUNK = 256 * 1024


def _fail(codec: int, why: object) -> CompressionError:
    return CompressionError(f"{_name(codec)}: {why}")


def _name(codec: int) -> str:
    try:
        return Codec(codec).label
    except ValueError:
        return f"codec {codec}"


def _too_big(codec: int, max_size: int) -> CompressionError:
    return CompressionError(f"{_name(codec)}: decompressed size exceeds limit of {max_size} bytes")


# ---------------------------------------------------------------------------- compress


def compress(codec: int, data: bytes | bytearray | memoryview, level: int | None = None) -> bytes:
    """Compress ``data`` as Kafka's Java producer would for ``codec``."""
    if codec == NONE:
        return bytes(data)
    if codec == GZIP:
        c = zlib.compressobj(-1 if level is None else level, zlib.DEFLATED, 31)
        return c.compress(data) + c.flush()
    if codec == SNAPPY:
        return _snappy_xerial_compress(data)
    if codec == LZ4:
        return _lz4_frame().compress(
            bytes(data),
            compression_level=0 if level is None else level,
            block_size=_lz4_frame().BLOCKSIZE_MAX64KB,
            block_linked=False,
            content_checksum=False,
            block_checksum=False,
            store_size=False,
        )
    if codec == ZSTD:
        return bytes(_cramjam().zstd.compress(bytes(data), level=3 if level is None else level))
    raise CompressionError(f"unknown compression codec {codec}")


def _snappy_xerial_compress(data) -> bytes:
    mv = memoryview(data).cast("B")
    out = [XERIAL_HEADER]
    for i in range(0, len(mv), XERIAL_BLOCK_SIZE):
        block = bytes(_cramjam().snappy.compress_raw(mv[i : i + XERIAL_BLOCK_SIZE]))
        out.append(_I32.pack(len(block)))
        out.append(block)
    return b"".join(out)


# -------------------------------------------------------------------------- decompress


def decompress(codec: int, data: bytes | bytearray | memoryview, max_size: int) -> bytes:
    """Decompress ``data``; CompressionError if corrupt or larger than ``max_size`` bytes."""
    if max_size < 0:
        raise ValueError("max_size must be >= 0")
    if codec == NONE:
        if len(data) > max_size:
            raise _too_big(codec, max_size)
        return bytes(data)
    try:
        if codec == GZIP:
            return _gzip_decompress(data, max_size)
        if codec == SNAPPY:
            return _snappy_decompress(data, max_size)
        if codec == LZ4:
            return _lz4_decompress(data, max_size)
        if codec == ZSTD:
            return _zstd_decompress(data, max_size)
    except CompressionError:
        raise
    except (MemoryError, RecursionError):
        raise
    except Exception as e:  # zlib.error, RuntimeError (lz4), ZstdError, cramjam errors, ...
        raise _fail(codec, e) from e
    raise CompressionError(f"unknown compression codec {codec}")


def _gzip_decompress(data, max_size: int) -> bytes:
    if not len(data):
        raise _fail(GZIP, "empty input")
    out = gzip_stream.gunzip(data, max_size)  # Java's framing rules (see gzip_stream)
    if out is None:
        raise _too_big(GZIP, max_size)
    return out


def _snappy_block(block, max_size: int, produced: int) -> bytes:
    n = _cramjam().snappy.decompress_raw_len(block)
    if produced + n > max_size:
        raise _too_big(SNAPPY, max_size)
    return bytes(_cramjam().snappy.decompress_raw(block))


def _snappy_decompress(data, max_size: int) -> bytes:
    """As snappy-java's SnappyInputStream (Kafka's reader): xerial framing when the input
    starts with its magic (versions not checked there), else one raw block. A chunk
    length that is the magic's first 4 bytes starts a concatenated stream: a full
    header follows, with version >= 1, or, when it is not the magic, the stream ends
    there; fewer than 4 bytes left also end it."""
    mv = memoryview(data).cast("B")
    end = len(mv)
    if end < XERIAL_HEADER_SIZE or mv[:8] != XERIAL_MAGIC:
        if end == 0:
            raise _fail(SNAPPY, "empty input")
        return _snappy_block(mv, max_size, 0)
    pos = XERIAL_HEADER_SIZE
    parts = []
    produced = 0
    while pos + 4 <= end:
        if mv[pos:pos + 4] == XERIAL_MAGIC[:4]:
            if pos + XERIAL_HEADER_SIZE > end:
                raise _fail(SNAPPY, "insufficient header size in a concatenated block")
            if mv[pos:pos + 8] != XERIAL_MAGIC:
                break
            if _I32.unpack_from(mv, pos + 8)[0] < XERIAL_MIN_COMPATIBLE_VERSION:
                raise _fail(SNAPPY, "incompatible xerial version in a concatenated block")
            pos += XERIAL_HEADER_SIZE
            continue
        (n,) = _I32.unpack_from(mv, pos)
        pos += 4
        if n <= 0 or pos + n > end:
            raise _fail(SNAPPY, "xerial chunk length out of range")
        part = _snappy_block(mv[pos : pos + n], max_size, produced)
        produced += len(part)
        parts.append(part)
        pos += n
    return b"".join(parts)


def _lz4_decompress(data, max_size: int) -> bytes:
    buf = bytes(data)
    if not buf:
        raise _fail(LZ4, "empty input")
    # one frame, up to (not including) its end mark: see lz4_frame
    d = _lz4_frame().LZ4FrameDecompressor()
    out = bytearray(d.decompress(buf[:lz4_frame.blocks_end(buf)], max_length=max_size + 1))
    while len(out) <= max_size and not d.needs_input:
        out += d.decompress(b"", max_length=max_size + 1 - len(out))
    if len(out) > max_size:
        raise _too_big(LZ4, max_size)
    return bytes(out)


def _zstd_decompress(data, max_size: int) -> bytes:
    buf = bytes(data)
    if not buf:
        raise _fail(ZSTD, "empty input")
    # Pass 1, bounded: count the output across all frames, stopping past max_size.
    # (stream_reader never materialises more than one chunk, but it ends quietly on a
    # truncated frame, so it cannot be the whole story.)
    total = 0
    with _zstd_decompressor().stream_reader(buf, read_across_frames=True) as r:
        while True:
            chunk = r.read(_CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > max_size:
                raise _too_big(ZSTD, max_size)
    # Pass 2, strict: frame by frame, each must end; its output is the same bounded bytes.
    out = []
    produced = 0
    while buf:
        d = _zstd_decompressor().decompressobj()
        part = d.decompress(buf)
        produced += len(part)
        if produced > max_size:
            raise _too_big(ZSTD, max_size)
        if not d.eof:
            raise _fail(ZSTD, "truncated zstd frame")
        out.append(part)
        buf = d.unused_data
    return b"".join(out)
