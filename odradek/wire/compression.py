"""Record-batch compression codecs, by Kafka attribute id (bits 0-2 of a batch's attributes).

    NONE=0, GZIP=1, SNAPPY=2, LZ4=3, ZSTD=4

``compress(codec, data, level=None)`` writes what the Java client writes:
gzip streams, xerial-framed snappy (32 KiB blocks), LZ4 frames with independent
64 KiB blocks and no content size (what KafkaLZ4BlockInputStream can read), and a
zstd frame.

``decompress(codec, data, max_size)`` reads anything a stock client writes
(including raw, unframed snappy blocks and concatenated gzip/lz4/zstd frames) and
is bounded: output larger than ``max_size`` bytes raises ``CompressionError``
without being fully materialised, and so does any corrupt input. No zlib.error,
lz4/zstd/snappy exception ever escapes.
"""

from __future__ import annotations

import enum
import functools
import importlib
import struct
import zlib

from odradek.wire import gzip_stream
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
    mv = memoryview(data).cast("B")
    if len(mv) >= 16 and mv[:8] == XERIAL_MAGIC:
        pos = 16  # magic + version + compatible version; versions are not checked (as Java)
        end = len(mv)
        parts = []
        produced = 0
        while pos < end:
            if pos + 4 > end:
                raise _fail(SNAPPY, "truncated xerial block length")
            (n,) = _I32.unpack_from(mv, pos)
            pos += 4
            if n < 0 or pos + n > end:
                raise _fail(SNAPPY, "xerial block length out of range")
            part = _snappy_block(mv[pos : pos + n], max_size, produced)
            produced += len(part)
            parts.append(part)
            pos += n
        return b"".join(parts)
    if len(mv) == 0:
        raise _fail(SNAPPY, "empty input")
    return _snappy_block(mv, max_size, 0)


def _lz4_decompress(data, max_size: int) -> bytes:
    out = bytearray()
    buf = bytes(data)
    if not buf:
        raise _fail(LZ4, "empty input")
    while buf:
        d = _lz4_frame().LZ4FrameDecompressor()
        out += d.decompress(buf, max_length=max_size + 1 - len(out))
        if len(out) > max_size:
            raise _too_big(LZ4, max_size)
        while not d.needs_input and not d.eof:
            out += d.decompress(b"", max_length=max_size + 1 - len(out))
            if len(out) > max_size:
                raise _too_big(LZ4, max_size)
        if not d.eof:
            raise _fail(LZ4, "truncated lz4 frame")
        buf = d.unused_data
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
