"""The small filesystem interface the log engine does all its I/O through.

`RealFileSystem` is the production implementation (plain os calls, positional
writes, real fsync). `FaultyFileSystem` keeps files in memory, tracks what has
been fsynced, and can crash after N bytes, so tests can simulate a power loss or
a kill -9 in the middle of any write and then "reboot" into what the disk holds;
it can also fail writes as a full disk (ENOSPC) or a failing one (EIO) does.
"""
from __future__ import annotations

import errno
import functools
import logging
import os
import posixpath
import random
import shutil
import threading
import time
from typing import Callable, Protocol

from .batchio import pwrite_batch, rewritten

log = logging.getLogger("odradek.log.fs")


class FileHandle(Protocol):
    path: str

    def append(self, data) -> int: ...           # returns the position written at
    # append one record batch with baseOffset (and partitionLeaderEpoch) replaced
    def append_batch(self, record_set, base_offset: int, leader_epoch: int | None) -> int: ...
    def pwrite(self, data, position: int) -> None: ...
    def read(self, position: int, length: int) -> bytes: ...
    def size(self) -> int: ...
    def fsync(self) -> None: ...
    def truncate(self, size: int) -> None: ...
    def preallocate(self, size: int) -> None: ...  # file length `size`, size() unchanged
    def close(self) -> None: ...
    # close() without closing the descriptor, which is returned (-1: none) for the caller to close
    def detach(self) -> int: ...
    def fileno(self) -> int | None: ...          # None when sendfile is impossible


class FileSystem(Protocol):
    def open(self, path: str) -> FileHandle: ...  # read/write, created if missing
    def listdir(self, path: str) -> list[str]: ...
    def read_file(self, path: str) -> bytes: ...  # the whole file (created empty if missing, as open)
    def exists(self, path: str) -> bool: ...
    def size(self, path: str) -> int: ...
    def mtime_ms(self, path: str) -> int: ...  # last modification, ms since the epoch (Java's lastModified)
    def remove(self, path: str) -> None: ...
    def rename(self, src: str, dst: str) -> None: ...  # atomic, replaces dst
    def makedirs(self, path: str) -> None: ...
    def rmtree(self, path: str) -> None: ...
    def isdir(self, path: str) -> bool: ...
    def fsync_dir(self, path: str) -> None: ...
    # fsync a file by its path, without creating it (FileNotFoundError when absent): another
    # thread's fsync of a file a log holds open (its descriptor may be parked or closed meanwhile)
    def fsync_file(self, path: str) -> None: ...
    def disk_space(self, path: str) -> tuple[int, int]: ...  # (total, usable) bytes, -1 when unknown


def read_whole(fs: FileSystem, path: str) -> bytes:
    return fs.read_file(path)


def _read_by_handle(fs: FileSystem, path: str) -> bytes:
    f = fs.open(path)
    try:
        return f.read(0, f.size())
    finally:
        f.close()


def write_atomic(fs: FileSystem, path: str, data: bytes, sync_dir: bool = True) -> None:
    """Write a small file so a crash leaves either the old or the new content. ``sync_dir`` False:
    the caller fsyncs the directory itself (once for several files) before relying on it."""
    tmp = path + ".tmp"
    write_temp(fs, tmp, data)
    fs.rename(tmp, path)
    if sync_dir:
        fs.fsync_dir(posixpath.dirname(path) or ".")


def write_unsynced(fs: FileSystem, path: str, data: bytes) -> None:
    """write_atomic without any fsync (the caller has someone fsync ``path`` and its directory
    later): a crash before then may leave the file absent, empty or torn, so its reader must tell
    (a checksum). A failure leaves no temp file behind and raises."""
    tmp = path + ".tmp"
    write_temp(fs, tmp, data, sync=False)
    fs.rename(tmp, path)


def write_temp(fs: FileSystem, tmp: str, data: bytes, sync: bool = True) -> None:
    """The first half of write_atomic: ``data`` written to ``tmp`` and fsynced (``sync`` False: not;
    the caller renames it into place); a failure leaves no partial temp file behind and raises."""
    f = fs.open(tmp)
    try:
        f.truncate(0)
        f.append(data)
        if sync:
            f.fsync()
    except OSError:
        f.close()
        try:
            fs.remove(tmp)  # a failed write (ENOSPC, EIO) leaves no partial temp file behind
        except OSError:
            pass
        raise
    f.close()


class PendingFsync:
    """The fsync of one file, left for later and run once, by the first thread that calls it (a
    worker thread, so that the event loop does not wait for the disk); a caller that comes while
    it runs waits for it. ``error``: the OSError it raised (the bytes written before it are then
    not durable, and a later fsync's success would not say they are), else None."""

    __slots__ = ("_fs", "_path", "_lock", "_done", "error")

    def __init__(self, fs: FileSystem, path: str):
        self._fs, self._path = fs, path
        self._lock = threading.Lock()
        self._done = False
        self.error: OSError | None = None

    def __call__(self) -> None:
        with self._lock:
            if self._done:
                return
            self._done = True
            try:
                f = self._fs.open(self._path)
                try:
                    f.fsync()
                finally:
                    f.close()
            except OSError as e:
                self.error = e


# ---------------------------------------------------------------- real files

# Taken only to open a parked file again (and to park or close one), never on the path of
# an open file: the event loop and the cleaner thread may both find the same file parked,
# and only one of them may open it (the other's descriptor would leak).
_REOPEN_LOCK = threading.Lock()


class ParkWatch(Protocol):
    """Who hears that a parked file was opened again (the log that parked it, PartitionLog): so
    an idle log whose files are all parked needs no walk over its segments, and its owner's
    periodic work looks only at logs in use."""

    def wake(self) -> None: ...


class RealFile:
    """A file by descriptor, with positional I/O. park() gives the descriptor back while
    the file is idle; the next call opens the file again by its path (a parked file
    whose path is gone raises FileNotFoundError, it is never created again); close() is
    final."""

    __slots__ = ("path", "_fd", "_size", "_closed", "_watch")

    def __init__(self, path: str):
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        self._size = os.fstat(self._fd).st_size
        self._closed = False
        self._watch: ParkWatch | None = None

    def _reopen(self) -> int:
        with _REOPEN_LOCK:
            if self._fd >= 0:  # another thread opened it meanwhile
                return self._fd
            if self._closed:  # as a closed descriptor answers
                raise OSError(errno.EBADF, os.strerror(errno.EBADF), self.path)
            self._fd = os.open(self.path, os.O_RDWR)
            if self._watch is not None:
                self._watch.wake()
            return self._fd

    def append(self, data) -> int:
        fd = self._fd if self._fd >= 0 else self._reopen()
        pos = self._size
        n = len(data)
        done = os.pwrite(fd, data, pos)
        view = memoryview(data) if done < n else None
        while done < n:
            done += os.pwrite(fd, view[done:], pos + done)
        self._size = pos + n
        return pos

    def append_batch(self, record_set, base_offset: int, leader_epoch: int | None) -> int:
        fd = self._fd if self._fd >= 0 else self._reopen()
        pos = self._size
        pwrite_batch(fd, pos, record_set, base_offset, leader_epoch)
        self._size = pos + len(record_set)
        return pos

    def pwrite(self, data, position: int) -> None:
        fd = self._fd if self._fd >= 0 else self._reopen()
        view = memoryview(data)
        done = 0
        while done < len(view):
            done += os.pwrite(fd, view[done:], position + done)
        self._size = max(self._size, position + len(view))

    def read(self, position: int, length: int) -> bytes:
        return os.pread(self._fd if self._fd >= 0 else self._reopen(), length, position)

    def size(self) -> int:
        return self._size

    def fsync(self) -> None:
        os.fsync(self._fd if self._fd >= 0 else self._reopen())

    def truncate(self, size: int) -> None:
        os.ftruncate(self._fd if self._fd >= 0 else self._reopen(), size)
        self._size = size

    def preallocate(self, size: int) -> None:
        """Make the file `size` bytes long (sparse, as Java's RandomAccessFile.setLength)
        while size() stays the end of what was written."""
        fd = self._fd if self._fd >= 0 else self._reopen()
        if size > os.fstat(fd).st_size:
            os.ftruncate(fd, size)

    def park(self, watch: ParkWatch | None = None) -> None:
        """Give the descriptor back; the next call opens the file again (and calls
        watch.wake())."""
        with _REOPEN_LOCK:
            self._watch = watch
            fd, self._fd = self._fd, -1
        if fd >= 0:  # (outside the lock: see close)
            os.close(fd)

    @property
    def parked(self) -> bool:
        return self._fd < 0 and not self._closed

    def close(self) -> None:
        # the descriptor is closed outside the lock every file shares: a close(2) can wait for the
        # disk (ext4 starts the writeback of a file rewritten in place), and a clean stop closes
        # many logs' files at once in several threads (LogManager.close)
        fd = self.detach()
        if fd >= 0:
            os.close(fd)

    def detach(self) -> int:
        """close() without the close(2): the descriptor (-1 if parked) is handed to the caller, who
        closes it, in another thread if it likes (the last close of a removed file frees its disk
        space: ~1.5 s a GiB on a disk). From now on this file gives the number to nobody (fileno()
        is -1, a read raises EBADF, as after close()), so a thread that takes the number from it
        after this cannot meet the number reused by another file."""
        with _REOPEN_LOCK:
            self._closed = True
            fd, self._fd = self._fd, -1
            # (the watch is the log that parked the file, which holds the file: a cycle, which the
            # broker's frozen old heap would keep until a thorough collection - old_heap.py)
            self._watch = None
        return fd

    def fileno(self) -> int | None:
        if self._fd >= 0 or self._closed:
            return self._fd
        return self._reopen()


def close_detached(fds: list[int]) -> None:
    """Close descriptors RealFile.detach handed out (one that fails is logged: its file is closed
    anyway, as close(2) leaves it)."""
    for fd in fds:
        try:
            os.close(fd)
        except OSError as e:
            log.warning("closing a released file's descriptor %d failed: %s", fd, e)


class RealFileSystem:
    def open(self, path: str) -> RealFile:
        return RealFile(path)

    def disk_space(self, path: str) -> tuple[int, int]:
        """(total, usable) bytes of the file system holding path, as Java's FileStore reports."""
        try:
            st = os.statvfs(path)
        except OSError:
            return -1, -1
        return st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize

    def listdir(self, path: str) -> list[str]:
        return os.listdir(path)

    def read_file(self, path: str) -> bytes:
        """A small file whole, without a RealFile (a start reads a few per partition)."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            data = os.pread(fd, size, 0)
            while len(data) < size:  # (a short read)
                more = os.pread(fd, size - len(data), len(data))
                if not more:
                    break
                data += more
            return data
        finally:
            os.close(fd)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def size(self, path: str) -> int:
        return os.path.getsize(path)

    def mtime_ms(self, path: str) -> int:
        return os.stat(path).st_mtime_ns // 1_000_000

    def remove(self, path: str) -> None:
        os.remove(path)

    def rename(self, src: str, dst: str) -> None:
        os.replace(src, dst)

    def makedirs(self, path: str) -> None:
        os.makedirs(path, exist_ok=True)

    def rmtree(self, path: str) -> None:
        shutil.rmtree(path, ignore_errors=True)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def fsync_dir(self, path: str) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def fsync_file(self, path: str) -> None:
        """fsync(2) flushes the file's inode whichever descriptor it is called on: one of its own,
        never one the log may park or close meanwhile (whose number another file could then take)."""
        self.fsync_dir(path)


# ------------------------------------------------------------- faulty files


class SimulatedCrash(Exception):
    """Raised by FaultyFileSystem once its byte budget is spent: the process 'died'."""


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


class _Inode:
    __slots__ = ("data", "durable", "mtime_ms")

    def __init__(self, data: bytes = b"", durable: bytes = b"", mtime_ms: int = 0):
        self.data = bytearray(data)
        self.durable = bytes(durable)
        self.mtime_ms = mtime_ms


class FaultyFile:
    def __init__(self, fs: "FaultyFileSystem", path: str, inode: _Inode):
        self.fs = fs
        self.path = path
        self.inode = inode
        self.closed = False
        self._size = len(inode.data)  # end of what was written (the file may be longer)

    def _write(self, data, position: int) -> None:
        data = bytes(data)
        fault = self.fs._write_fault(self.path, len(data))
        if fault is not None:  # the bytes that landed stay, the size does not move
            err, landed = fault
            self._place(data[:landed], position)
            raise OSError(err, os.strerror(err), self.path)
        data = self.fs._charge(data)  # may shorten the write and then raise after it
        self._place(data, position)
        self.inode.mtime_ms = self.fs.clock_ms()
        self._size = max(self._size, position + len(data))
        self.fs._after_write()

    def _place(self, data: bytes, position: int) -> None:
        buf = self.inode.data
        if position > len(buf):
            buf.extend(b"\0" * (position - len(buf)))
        buf[position:position + len(data)] = data

    def append(self, data) -> int:
        self.fs._check()
        pos = self._size
        self._write(data, pos)
        return pos

    def append_batch(self, record_set, base_offset: int, leader_epoch: int | None) -> int:
        return self.append(rewritten(record_set, base_offset, leader_epoch))

    def pwrite(self, data, position: int) -> None:
        self.fs._check()
        self._write(data, position)

    def read(self, position: int, length: int) -> bytes:
        self.fs._check()
        return bytes(self.inode.data[position:position + length])

    def size(self) -> int:
        return self._size

    def fsync(self) -> None:
        self.fs._fsync(self.path, self.inode)

    def truncate(self, size: int) -> None:
        self.fs._check()
        buf = self.inode.data
        if size < len(buf):
            del buf[size:]
        else:
            buf.extend(bytes(size - len(buf)))
        self._size = size
        self.inode.mtime_ms = self.fs.clock_ms()

    def preallocate(self, size: int) -> None:
        self.fs._check()
        buf = self.inode.data
        if size > len(buf):
            buf.extend(bytes(size - len(buf)))  # zeros, durable only after an fsync

    def close(self) -> None:
        self.closed = True

    def detach(self) -> int:
        self.closed = True
        return -1

    def fileno(self) -> int | None:
        return None


@functools.lru_cache(maxsize=1 << 14)
def _normalized(path: str) -> tuple[str, str]:
    """A path's normal form and its parent directory (the simulations that use the in-memory file
    system ask for the same few paths again and again)."""
    path = posixpath.normpath(path)
    return path, posixpath.dirname(path)


class FaultyFileSystem:
    """In-memory filesystem with crash injection.

    Directory operations (create, rename, remove) are durable at once (as with a
    journaled fs after the dir fsync the engine does); file contents are durable
    only up to the last fsync. `crash_after_bytes` makes the write that crosses the
    budget land partially and raise SimulatedCrash; every later call raises too.
    `restart(mode)` returns the filesystem a rebooted machine would see:
    "lost"  - only fsynced bytes survive;
    "kept"  - everything written survives (kill -9: the page cache is kept);
    "torn"  - fsynced bytes plus a random prefix of what followed them.
    `full_after_bytes` is a disk that fills up: the write that crosses it lands partially
    and raises OSError(ENOSPC), as does every later write until it is set back to None
    (space returns); `fsync_errno` makes every fsync raise OSError with that errno (EIO).
    """

    def __init__(self, seed: int = 0):
        self.files: dict[str, _Inode] = {}
        self.dirs: set[str] = {"/"}
        self.crash_after_bytes: int | None = None
        self.full_after_bytes: int | None = None
        self.fsync_errno: int | None = None
        self.bytes_written = 0
        self.crashed = False
        self.fsyncs = 0  # file fsyncs
        self.fsyncs_by_thread: dict[int, int] = {}  # threading.get_ident() -> its file fsyncs
        self.dir_fsyncs = 0
        self.rng = random.Random(seed)
        self._pending_error: OSError | None = None
        self._fault: list | None = None  # [errno, match, writes to let pass, sticky]
        self._fsync_fault: tuple[int, int] | None = None  # (errno, fsyncs to let pass)
        self.failed_fsyncs = 0
        self.failed_writes = 0
        # a file's modification time is this clock's at its last write (wall time unless a
        # simulation sets its own)
        self.clock_ms: Callable[[], int] = _wall_ms

    def fail_writes(self, err: int = errno.ENOSPC, *, after: int = 0, match=None,
                    sticky: bool = True) -> None:
        """Fail a write as the kernel does: the write `after` writes from now (of files whose
        path `match` accepts, every file if None) lands half its bytes and raises
        OSError(err); with `sticky` (a full disk) each later matching write fails too,
        landing nothing, until clear_write_faults() (space came back)."""
        self._fault = [err, match, after, sticky]

    def fail_fsync(self, err: int = errno.EIO, *, after: int = 0) -> None:
        """The file fsync `after` fsyncs from now raises OSError(err) (once); what was written
        stays in the file (the page cache), not durable."""
        self._fsync_fault = (err, after)

    def clear_write_faults(self) -> None:
        self._fault = None
        self._fsync_fault = None
        self.fsync_errno = None

    def _write_fault(self, path: str, n: int) -> tuple[int, int] | None:
        fault = self._fault
        if fault is None or (fault[1] is not None and not fault[1](path)):
            return None
        if fault[2] > 0:
            fault[2] -= 1
            return None
        if fault[2] == 0:
            fault[2] = -1  # the first failing write lands half its bytes, later ones none
            landed = n // 2
        else:
            landed = 0
        if not fault[3]:
            self._fault = None
        self.failed_writes += 1
        return fault[0], landed

    # fault control
    def _check(self) -> None:
        if self.crashed:
            raise SimulatedCrash("filesystem already crashed")

    def _charge(self, data: bytes) -> bytes:
        if self.full_after_bytes is not None:
            left = self.full_after_bytes - self.bytes_written
            if len(data) > left:
                self._pending_error = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                data = data[:max(left, 0)]
        if self.crash_after_bytes is not None:
            left = self.crash_after_bytes - self.bytes_written
            if len(data) > left:
                self._pending_crash = True
                data = data[:max(left, 0)]
        self.bytes_written += len(data)
        return data

    def _after_write(self) -> None:
        err, self._pending_error = self._pending_error, None
        if getattr(self, "_pending_crash", False):
            self._pending_crash = False
            self.crashed = True
            raise SimulatedCrash(f"crashed after {self.bytes_written} bytes")
        if err is not None:
            raise err

    def crash(self) -> None:
        self.crashed = True

    def _fsync(self, path: str, inode: _Inode) -> None:
        self._check()
        if self.fsync_errno is not None:
            raise OSError(self.fsync_errno, os.strerror(self.fsync_errno), path)
        if self._fsync_fault is not None:
            err, after = self._fsync_fault
            if after == 0:
                self._fsync_fault = None
                self.failed_fsyncs += 1
                raise OSError(err, os.strerror(err), path)
            self._fsync_fault = (err, after - 1)
        inode.durable = bytes(inode.data)
        self.fsyncs += 1
        thread = threading.get_ident()
        self.fsyncs_by_thread[thread] = self.fsyncs_by_thread.get(thread, 0) + 1

    def restart(self, mode: str = "lost", seed: int | None = None) -> "FaultyFileSystem":
        rng = random.Random(seed) if seed is not None else self.rng
        new = FaultyFileSystem(seed=rng.randrange(1 << 30))
        new.dirs = set(self.dirs)
        for path, inode in self.files.items():
            if mode == "kept":
                content = bytes(inode.data)
            elif mode == "lost":
                content = inode.durable
            elif mode == "torn":
                data, durable = bytes(inode.data), inode.durable
                if data.startswith(durable):
                    content = data[:rng.randint(len(durable), len(data))]
                else:
                    content = rng.choice([data, durable])
            else:
                raise ValueError(mode)
            new.files[path] = _Inode(content, content, inode.mtime_ms)
        new.clock_ms = self.clock_ms
        return new

    # FileSystem
    def _norm(self, path: str) -> str:
        return _normalized(path)[0]

    def open(self, path: str) -> FaultyFile:
        self._check()
        path, parent = _normalized(path)
        if parent not in self.dirs:
            raise FileNotFoundError(parent)
        inode = self.files.get(path)
        if inode is None:
            inode = self.files[path] = _Inode(mtime_ms=self.clock_ms())
        return FaultyFile(self, path, inode)

    def read_file(self, path: str) -> bytes:
        return _read_by_handle(self, path)

    def listdir(self, path: str) -> list[str]:
        path = self._norm(path)
        if path not in self.dirs:
            raise FileNotFoundError(path)
        prefix = path.rstrip("/") + "/"  # (string tests: posixpath.dirname per entry was most of the cost)
        n = len(prefix)
        # (over a copy: another thread, the cleaner's or the retention's, may make a file meanwhile)
        out = [p[n:] for p in list(self.files) if p.startswith(prefix) and "/" not in p[n:]]
        out += [d[n:] for d in list(self.dirs) if d != path and d.startswith(prefix) and d[n:] and "/" not in d[n:]]
        return sorted(out)

    def exists(self, path: str) -> bool:
        path = self._norm(path)
        return path in self.files or path in self.dirs

    def isdir(self, path: str) -> bool:
        return self._norm(path) in self.dirs

    def size(self, path: str) -> int:
        return len(self.files[self._norm(path)].data)

    def mtime_ms(self, path: str) -> int:
        return self.files[self._norm(path)].mtime_ms

    def remove(self, path: str) -> None:
        self._check()
        if self.files.pop(self._norm(path), None) is None:
            raise FileNotFoundError(errno.ENOENT, "no such file", path)  # (as os.remove)

    def rename(self, src: str, dst: str) -> None:
        self._check()
        src, dst = self._norm(src), self._norm(dst)
        if src in self.dirs:
            for d in sorted(self.dirs):
                if d == src or d.startswith(src + "/"):
                    self.dirs.discard(d)
                    self.dirs.add(dst + d[len(src):])
            for p in list(self.files):
                if p.startswith(src + "/"):
                    self.files[dst + p[len(src):]] = self.files.pop(p)
            return
        self.files[dst] = self.files.pop(src)

    def makedirs(self, path: str) -> None:
        self._check()
        path = self._norm(path)
        while path not in self.dirs:
            self.dirs.add(path)
            path = posixpath.dirname(path)

    def rmtree(self, path: str) -> None:
        self._check()
        path = self._norm(path)
        self.dirs = {d for d in self.dirs if not (d == path or d.startswith(path + "/"))}
        for p in list(self.files):
            if p.startswith(path + "/"):
                del self.files[p]

    def disk_space(self, path: str) -> tuple[int, int]:
        return -1, -1

    def fsync_dir(self, path: str) -> None:
        self._check()
        self.dir_fsyncs += 1

    def fsync_file(self, path: str) -> None:
        self._check()
        inode = self.files.get(self._norm(path))
        if inode is None:
            raise FileNotFoundError(errno.ENOENT, "no such file", path)
        self._fsync(path, inode)
