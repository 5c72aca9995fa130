"""Sans-IO framing: Kafka frames are a big-endian int32 size then that many bytes."""

from __future__ import annotations

import struct

from .exceptions import FrameTooLargeError

DEFAULT_MAX_FRAME = 100 * 1024 * 1024  # socket.request.max.bytes
_size = struct.Struct(">i")


class FrameDecoder:
    """Feed any byte chunks; complete frames come out as bytes, in order.

    A negative size or one above ``max_size`` raises FrameTooLargeError; the
    decoder is unusable afterwards (the connection must be closed, as Kafka does).
    """

    __slots__ = ("max_size", "_buf", "_need", "_failed")

    def __init__(self, max_size: int = DEFAULT_MAX_FRAME):
        self.max_size = max_size
        self._buf = bytearray()
        self._need = -1  # size of the frame being collected, -1 while reading the prefix
        self._failed = False

    def feed(self, data) -> list[bytes]:
        if self._failed:
            raise FrameTooLargeError(-1, self.max_size)
        buf = self._buf
        buf += data
        frames = []
        pos = 0
        end = len(buf)
        while True:
            if self._need < 0:
                if end - pos < 4:
                    break
                (size,) = _size.unpack_from(buf, pos)
                if size < 0 or size > self.max_size:
                    self._failed = True
                    raise FrameTooLargeError(size, self.max_size)
                pos += 4
                self._need = size
            if end - pos < self._need:
                break
            frames.append(bytes(buf[pos:pos + self._need]))
            pos += self._need
            self._need = -1
        if pos:
            del buf[:pos]
        return frames

    @property
    def buffered(self) -> int:
        """Bytes held that do not yet form a complete frame."""
        return len(self._buf)

    def pending_frame_size(self) -> int:
        """Size of the frame being collected, or -1 if none has been announced."""
        return self._need


def frame(payload_parts: list) -> list:
    """Prefix a list of parts with the int32 total size (parts keep their identity)."""
    total = 0
    for p in payload_parts:
        total += len(p)
    return [_size.pack(total), *payload_parts]
