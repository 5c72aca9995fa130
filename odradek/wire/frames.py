"""Sans-IO framing: Kafka frames are a big-endian int32 size then that many bytes."""

from __future__ import annotations

import struct
from sys import getrefcount as _refcount

from .exceptions import FrameTooLargeError

DEFAULT_MAX_FRAME = 100 * 1024 * 1024  # socket.request.max.bytes
_size = struct.Struct(">i")
_HEADROOM = 4 * 1024 * 1024


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


class BufferPool:
    """Spare receive buffers for the FrameBuffers of one event loop (not thread-safe).

    A buffer a FrameBuffer leaves behind may still hold frames being handled; it waits
    here and is handed out again only once no view of it is left (its reference count
    shows that). Reusing memory spares the allocator's zero-fill and, for buffers
    above the allocator's mmap threshold, the page faults of fresh memory on every
    large request. At most ``max_bytes`` wait here; the oldest go first.
    """

    __slots__ = ("max_bytes", "_free", "_bytes", "scratch")

    def __init__(self, max_bytes: int = 16 * 1024 * 1024, scratch_bytes: int = 64 * 1024):
        self.max_bytes = max_bytes
        self._free: list = []
        self._bytes = 0
        # what a FrameBuffer holding no buffer reads into; its received() copies the bytes out
        # before the next read (one loop: get_buffer and received come in pairs)
        self.scratch = bytearray(scratch_bytes)

    def take(self, need: int):
        """A spare buffer of at least ``need`` bytes that no view holds, or None."""
        free = self._free
        for i in range(len(free) - 1, -1, -1):
            b = free[i]
            # 3 = the list, the local name, getrefcount's argument: no view of b is alive
            if len(b) >= need and _refcount(b) <= 3:
                del free[i]
                self._bytes -= len(b)
                return b
        return None

    def give(self, buf) -> None:
        n = len(buf)
        if n > self.max_bytes:
            return
        free = self._free
        free.append(buf)
        self._bytes += n
        while self._bytes > self.max_bytes:
            self._bytes -= len(free.pop(0))

    def clear(self) -> None:
        """Let go of every spare buffer (after a storm of connections: the buffers its large requests
        grew, up to max_bytes, would otherwise stay for good)."""
        self._free.clear()
        self._bytes = 0

    @property
    def spare_bytes(self) -> int:
        return self._bytes


def _grown(have: int, need: int, chunk: int) -> int:
    """The size of the next buffer for a frame of ``need`` bytes (size prefix included) of
    which ``have`` arrived. Memory follows the bytes that arrived, not the size a client
    declares: a big frame's buffer at most doubles what was received (the received part
    moves on each growth, 2x its size in all); once the whole frame fits, it gets room for
    a pipelined one after it (up to 4 MiB more)."""
    if need <= chunk:
        return need
    return min(need + min(need, _HEADROOM), max(2 * have, have + chunk))


class FrameBuffer:
    """Receive side of a buffered protocol (asyncio.BufferedProtocol): the socket reads
    straight into memory handed out here, and complete frames come out as memoryview
    slices of it, so a request is never copied between the kernel and its handler.

    ``get_buffer()`` returns the writable space to read into; ``received(n)`` says n
    bytes were written there and returns the frames now complete, in order.

    Memory that holds a frame is never written again while any view of it is alive
    (the log may still be writing it, a handler may keep it): the buffer is reused
    from its start only when every frame has been handled and no view of it is left
    (its reference count shows that: each frame view holds a reference to it).
    Otherwise reading goes on after the last frame, and when the buffer is full, or
    a partial frame does not fit in what is left, the next buffer - twice what has
    arrived of the frame, up to the whole frame with room for a pipelined one after it
    (a declared size costs no memory until its bytes come) - comes from ``pool`` (a BufferPool shared by the connections, which also takes the
    buffer left behind) or is allocated, and only the received part of that one frame
    moves there. A negative size or one above ``max_size`` raises
    FrameTooLargeError, and the buffer is unusable afterwards (close the connection).

    Between frames (``release()``, when the connection is idle) the buffer is let go: with
    a pool, the next read goes to the pool's shared scratch buffer, and what arrived there
    is copied out - complete frames as they are, a partial one into a buffer of its own
    sized by the bytes that came (as above) - so an idle or closing connection holds no
    receive memory, as Kafka's channel holds none between requests.
    """

    __slots__ = ("max_size", "chunk", "pool", "_buf", "_start", "_end", "_failed", "_scratch")

    def __init__(self, max_size: int = DEFAULT_MAX_FRAME, chunk: int = 64 * 1024,
                 pool: BufferPool | None = None):
        self.max_size = max_size
        self.chunk = chunk
        self.pool = pool
        self._buf = None    # bytearray being filled; views of it are made per use
        self._start = 0     # first byte not yet part of an emitted frame
        self._end = 0       # bytes of _buf received so far
        self._failed = False
        self._scratch = None  # the pool's scratch, when the last get_buffer() returned it

    def get_buffer(self) -> memoryview:
        buf = self._buf
        if buf is None:
            if self.pool is not None:
                self._scratch = self.pool.scratch
                return memoryview(self._scratch)
            self._buf = buf = bytearray(self.chunk)
            self._start = self._end = 0
            return memoryview(buf)
        start, end = self._start, self._end
        have = end - start
        need = 4
        if have >= 4:
            size = _size.unpack_from(buf, start)[0]
            if 0 <= size <= self.max_size:  # (received() raises for any other)
                need += size
        cap = len(buf)
        # 3 = self._buf + the local name + getrefcount's argument: no frame view of buf is alive
        if _refcount(buf) <= 3 and need <= cap:
            if start:  # move the partial frame (if any) to the front and reuse the buffer
                if have:
                    buf[:have] = buf[start:end]
                self._start = 0
                self._end = end = have
            return memoryview(buf)[end:]
        if end < cap and (start + need <= cap or need > self.chunk):
            return memoryview(buf)[end:]  # (a big frame fills this one before it grows)
        # the next buffer; the partial frame (if any) moves to its front
        chunk = self.chunk
        size = _grown(have, need, chunk)
        pool = self.pool
        new = None
        if pool is not None:
            if need > chunk:  # a spare buffer (it costs no new memory), the whole frame's if one fits it
                new = pool.take(need) or pool.take(size)
            if cap > chunk:
                pool.give(buf)
        if new is None:
            new = bytearray(-(-size // chunk) * chunk)
        if have:
            new[:have] = memoryview(buf)[start:end]
        self._buf = new
        self._start = 0
        self._end = have
        return memoryview(new)[have:]

    def received(self, n: int) -> list:
        """Complete frames (memoryviews), in order, after n bytes were read into the
        last buffer returned by get_buffer()."""
        if self._failed:
            raise FrameTooLargeError(-1, self.max_size)
        if self._scratch is not None:
            return self._from_scratch(n)
        end = self._end = self._end + n
        pos = self._start
        buf = self._buf
        frames = []
        mv = None
        while end - pos >= 4:
            (size,) = _size.unpack_from(buf, pos)
            if size < 0 or size > self.max_size:
                self._failed = True
                raise FrameTooLargeError(size, self.max_size)
            if end - pos - 4 < size:
                break
            pos += 4
            if mv is None:
                mv = memoryview(buf)  # its slices keep buf referenced (see get_buffer)
            frames.append(mv[pos:pos + size])
            pos += size
        self._start = pos
        return frames

    @property
    def buffered(self) -> int:
        """Bytes held that do not yet form a complete frame."""
        return self._end - self._start

    def _from_scratch(self, n: int) -> list:
        """Copy out what was read into the shared scratch: complete frames each into its own
        bytes, a partial frame into a spare buffer of the pool that holds the whole frame, else
        into one sized by what arrived of it."""
        scratch = self._scratch
        self._scratch = None
        frames = []
        pos = 0
        need = 4
        with memoryview(scratch) as mv:
            while n - pos >= 4:
                (size,) = _size.unpack_from(scratch, pos)
                if size < 0 or size > self.max_size:
                    self._failed = True
                    raise FrameTooLargeError(size, self.max_size)
                if n - pos - 4 < size:
                    need = 4 + size
                    break
                frames.append(memoryview(bytes(mv[pos + 4:pos + 4 + size])))
                pos += 4 + size
            rest = n - pos
            if rest:
                buf = None
                if need > self.chunk and self.pool is not None:
                    buf = self.pool.take(need)  # a spare buffer costs no new memory: the whole frame's
                if buf is None:
                    buf = bytearray(max(rest, need if need <= self.chunk else _grown(rest, need, self.chunk)))
                buf[:rest] = mv[pos:n]
                self._buf = buf
                self._start = 0
                self._end = rest
        return frames

    def release(self) -> bool:
        """Let go of the buffer when no partial frame is in it (an idle connection holds no
        memory; the next read takes a buffer again): it goes to the pool, which hands it out
        only once no frame view of it is left. False when a partial frame keeps it."""
        buf = self._buf
        if buf is None:
            return True
        if self._end != self._start:
            return False
        self._buf = None
        self._start = self._end = 0
        if self.pool is not None and len(buf) > self.chunk:
            self.pool.give(buf)
        return True

    def release_all(self) -> None:
        """The connection is gone: let go of the buffer, a partial frame in it too."""
        self._start = self._end
        self.release()

    @property
    def pending_size(self) -> int:
        """The declared size of the frame being received (its prefix is in), else -1."""
        if self._end - self._start < 4:
            return -1
        return _size.unpack_from(self._buf, self._start)[0]


def frame(payload_parts: list) -> list:
    """Prefix a list of parts with the int32 total size (parts keep their identity)."""
    total = 0
    for p in payload_parts:
        total += len(p)
    return [_size.pack(total), *payload_parts]
