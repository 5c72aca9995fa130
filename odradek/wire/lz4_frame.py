"""The extent of an LZ4 frame as Kafka's KafkaLZ4BlockInputStream reads it (the
reader of Kafka's LZ4 batches, on brokers and Java clients alike).

Kafka reads one frame and stops at its end mark: anything after it, another frame
included, is never looked at. It refuses what its FLG/BD classes refuse (a set
DictID or reserved bit, a version other than 1, dependent blocks, a block size id
outside 4-7), a block larger than the maximum size, and a missing end mark or
content checksum; it does not verify the content checksum or the content size.
``blocks_end`` checks all that and returns where the blocks end, so that the frame
up to there can be handed to liblz4, which checks the header checksum, the block
checksums and the block data, and never reaches the end-of-frame checks Kafka skips.
"""
from __future__ import annotations

MAGIC = 0x184D2204
_FLG_RESERVED = 0x03  # Kafka's FLG counts the DictID bit as reserved
_FLG_CONTENT_CHECKSUM = 0x04
_FLG_CONTENT_SIZE = 0x08
_FLG_BLOCK_CHECKSUM = 0x10
_FLG_BLOCK_INDEPENDENCE = 0x20
_UNCOMPRESSED = 0x80000000


def blocks_end(buf: bytes) -> int:
    """Offset of the end mark of the frame at the start of buf; ValueError if Kafka
    would fail to read the frame."""
    end = len(buf)
    if end < 6:
        raise ValueError("lz4: premature end of stream")
    if int.from_bytes(buf[:4], "little") != MAGIC:
        raise ValueError("lz4: stream unsupported (not an LZ4 frame)")
    flg, bd = buf[4], buf[5]
    if flg & _FLG_RESERVED:
        raise ValueError("lz4: reserved FLG bits must be 0")
    if not flg & _FLG_BLOCK_INDEPENDENCE:
        raise ValueError("lz4: dependent block stream is unsupported")
    if flg >> 6 != 1:
        raise ValueError(f"lz4: version {flg >> 6} is unsupported")
    size_id = (bd >> 4) & 0x07
    if bd & 0x8F or not 4 <= size_id <= 7:
        raise ValueError("lz4: bad block descriptor")
    max_block = 1 << (2 * size_id + 8)
    pos = 6 + (8 if flg & _FLG_CONTENT_SIZE else 0) + 1  # + header checksum byte
    if pos > end:
        raise ValueError("lz4: premature end of stream")
    block_checksum = 4 if flg & _FLG_BLOCK_CHECKSUM else 0
    while True:
        if pos + 4 > end:
            raise ValueError("lz4: premature end of stream")
        size = int.from_bytes(buf[pos:pos + 4], "little") & ~_UNCOMPRESSED
        if size == 0:
            if flg & _FLG_CONTENT_CHECKSUM and pos + 8 > end:
                raise ValueError("lz4: content checksum missing")
            return pos
        if size > max_block:
            raise ValueError(f"lz4: block size {size} exceeds max {max_block}")
        pos += 4 + size + block_checksum
        if pos > end:
            raise ValueError("lz4: premature end of stream")
