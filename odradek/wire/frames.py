"""Sans-IO framing: Kafka frames are a big-endian int32 size then that many bytes."""

from __future__ import annotations

import struct

from .exceptions import FrameTooLargeError

DEFAULT_MAX_FRAME = 100 * 1024 * 1024  # socket.request.max.bytes
_size = struct.Struct(">i")


class FrameDecoder:
    """Feed any byte chunks; complete frames come out in order, with at most one copy.

    A frame lying wholly inside one fed chunk comes out as a memoryview slice of that
    chunk (no copy; valid as long as the chunk is); a frame spanning chunks is gathered
    once into a bytearray of exactly its size. A negative size or one above
    ``max_size`` raises FrameTooLargeError, and the decoder is unusable afterwards
    (the connection must be closed, as Kafka does).
    """

    __slots__ = ("max_size", "_head", "_frame", "_filled", "_failed")

    def __init__(self, max_size: int = DEFAULT_MAX_FRAME):
        self.max_size = max_size
        self._head = b""          # an incomplete 4-byte size prefix
        self._frame = None        # bytearray being filled (a frame that spans chunks)
        self._filled = 0
        self._failed = False

    def feed(self, data) -> list:
        """Complete frames (memoryview or bytearray), in order."""
        if self._failed:
            raise FrameTooLargeError(-1, self.max_size)
        frames = []
        mv = memoryview(data)
        n = len(mv)
        pos = 0
        fr = self._frame
        if fr is not None:
            take = min(len(fr) - self._filled, n)
            fr[self._filled:self._filled + take] = mv[:take]
            self._filled += take
            if self._filled < len(fr):
                return frames
            frames.append(fr)
            self._frame = None
            pos = take
        if self._head:
            k = min(4 - len(self._head), n - pos)
            self._head += bytes(mv[pos:pos + k])
            pos += k
            if len(self._head) < 4:
                return frames
            (size,) = _size.unpack(self._head)
            self._head = b""
            pos = self._begin(size, mv, pos, n, frames)
            if pos < 0:
                return frames
        while n - pos >= 4:
            (size,) = _size.unpack_from(mv, pos)
            pos = self._begin(size, mv, pos + 4, n, frames)
            if pos < 0:
                return frames
        if pos < n:
            self._head = bytes(mv[pos:])
        return frames

    def _begin(self, size: int, mv, pos: int, n: int, frames: list) -> int:
        """A frame of `size` starts at pos: emit it or start gathering it (-> -1)."""
        if size < 0 or size > self.max_size:
            self._failed = True
            raise FrameTooLargeError(size, self.max_size)
        if n - pos >= size:
            frames.append(mv[pos:pos + size])
            return pos + size
        fr = bytearray(size)
        have = n - pos
        fr[:have] = mv[pos:]
        self._frame = fr
        self._filled = have
        return -1

    @property
    def buffered(self) -> int:
        """Bytes held that do not yet form a complete frame."""
        return len(self._head) + (self._filled if self._frame is not None else 0)


def frame(payload_parts: list) -> list:
    """Prefix a list of parts with the int32 total size (parts keep their identity)."""
    total = 0
    for p in payload_parts:
        total += len(p)
    return [_size.pack(total), *payload_parts]
