"""PartitionLog: the ordered list of segments of one topic-partition.

Appends validate the batches (via odradek.wire.records), rewrite baseOffset in
place (outside the CRC) and write the bytes as they came, in one write. The
common case, one plain batch, is checked, written by one pwritev that puts the
offsets into the header (no copy) and tracked in one C call, the segment's
SegmentTail.append_plain (batchio). Reads
return file slices for sendfile. Recovery after an unclean shutdown re-validates
every segment at or above the recovery point, rebuilds its indexes and truncates
the first invalid or partial batch together with everything after it.
"""
from __future__ import annotations

import errno
import logging
import posixpath
import random
import threading
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, NoReturn, Protocol

from odradek.wire import records
from odradek.wire.exceptions import InvalidRecordError as WireInvalidRecordError
from odradek.wire.exceptions import RecordCountError as WireRecordCountError
from odradek.wire.exceptions import WireError

from . import errors, partition_metadata
from .batchio import AppendInfo, append_info
from .config import LogConfig
from .fs import FileHandle, FileSystem, close_detached, read_whole, write_atomic, write_temp, write_unsynced
from .leader_epoch_cache import CheckpointError, LeaderEpochCache, decode_checkpoint, encode_checkpoint
from .producer_state import (CheckResult, ProducerStateTable, list_snapshots,
                             load_latest_snapshot, snapshot_open_txns, snapshot_path)
from .record_check import check_client_batches
from .segment import HEADER_SIZE, LogSegment, file_name
from .shared_values import SharedValues
from .timestamps import check_timestamps
from .transaction_state import CHECKPOINT_FILE as TXN_CHECKPOINT_FILE
from .transaction_state import PartitionTxnState, read_marker
from .txn_index import AbortedTxn

logger = logging.getLogger("odradek.log")

_LOG_OVERHEAD = records.LOG_OVERHEAD
# a failed write with these leaves the disk as it was once cut back: writes go on
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
_OK = CheckResult.OK

_JITTER_RNG = random.Random()
CLEAN_SHUTDOWN_FILE = ".clean-shutdown"
CHECKPOINT_FILE = "log-state.checkpoint"
LEADER_EPOCH_CHECKPOINT_FILE = "leader-epoch-checkpoint"  # Kafka's name and text format
MAX_RETIRED_OPEN = 64  # removed segments held open per log (see _hold)
DELETED_SUFFIX = ".deleted"  # a file of a segment out of the log, removed soon (a load removes it)
# a file a cleaner swap set aside (replace_segments): a load restores its segment's log while the swap
# did not commit (a .log.cleaned is there), else removes it; a retention's .deleted never comes back
SWAP_DELETED_SUFFIX = ".swapdeleted"
# the stamp of a removed segment let go of at the next look, whatever its delay (see _hold)
_DUE_AT_ONCE = float("-inf")
CLEANED_SUFFIX = ".cleaned"  # the files of the cleaner's copy of a group of segments (see replace_segments)
# what the absence of log-state.checkpoint means to a load (every value 0): a log whose checkpoint
# would say just that, and whose directory holds none, writes none (a new, unused partition)
_UNKNOWN = b"?"  # (what _durable_get gives for a state file whose content is not known)
_ZERO_CHECKPOINT = b"0\nlog_start_offset=0\nrecovery_point=0\ncleaner_checkpoint=0\nhigh_watermark=0\n"
# PartitionLog._durable: a state file known to be absent maps to None; this key to None: no
# producer snapshot in the directory
_NO_SNAPSHOTS = "*.snapshot"
# the files besides its one segment's that an empty log loaded hollow may hold (_load_hollow)
_HOLLOW_LOAD_FILES = frozenset((CHECKPOINT_FILE, LEADER_EPOCH_CHECKPOINT_FILE, partition_metadata.FILE,
                                TXN_CHECKPOINT_FILE))
# PartitionLog._durable: (name, content, name, content, ...) sorted by name, an immutable
# mapping shared by every log in the same state (see _durable_with): 100,000 new partitions
# hold one or two of them between them, not a dict each
DurableFiles = tuple
# the _durable of a log whose directory holds none of its state files (a new partition)
_NO_STATE_FILES: DurableFiles = tuple(x for name in sorted((CHECKPOINT_FILE, TXN_CHECKPOINT_FILE, _NO_SNAPSHOTS))
                                      for x in (name, None))
_SHARED_DURABLE: SharedValues[DurableFiles, DurableFiles] = SharedValues()
_SHARED_DURABLE.get(_NO_STATE_FILES, lambda: _NO_STATE_FILES)
_SHARED_DURABLE_BELOW = 512  # bytes of content: a larger state (a producer snapshot) is a log's own
# the last hollow log's segment summary (PartitionLog._hollow_seg), shared by the next ones
# equal to it (made in the same millisecond with the same settings)
_last_hollow: tuple | None = None
# the last field of _hollow_seg, the state of the empty segment's files: False (made) or True (made,
# its index files empty and fsynced, or absent), or a new log's (PartitionLog(defer_files=True)):
# FILES_NOT_MADE, its directory and segment file still to be made (make_files: its owner's
# background pass, or its first use, whichever comes first), FILES_GONE, its partition deleted
# before they were (they never are: a use that needs them fails as one of a deleted log's files)
FILES_NOT_MADE = 2
FILES_GONE = 3


def _shared_hollow(seg: tuple) -> tuple:
    """``seg``, or the equal summary the last hollow log holds (the logs one metadata change creates:
    the same tuple)."""
    global _last_hollow
    if seg == _last_hollow:
        return _last_hollow
    _last_hollow = seg
    return seg


def _parse_checkpoint(data: bytes) -> dict[str, int] | None:
    """log-state.checkpoint's values (None: unreadable)."""
    out = {}
    try:
        for line in data.decode().splitlines()[1:]:
            k, _, v = line.partition("=")
            out[k] = int(v)
    except ValueError:  # (UnicodeDecodeError too)
        return None
    return out


# PartitionLog._load_hollow: (log-state.checkpoint, leader-epoch-checkpoint, base offset) -> what a
# log loaded hollow from such files holds (see _hollow_load_state); immutable values, shared
_HOLLOW_LOADS: dict[tuple, tuple] = {}
_HOLLOW_LOADS_MAX = 1024


def _hollow_load_state(cp_data: bytes | None, epochs_data: bytes | None, base: int,
                       snap_data: bytes | None = None, txn_data: bytes | None = None) -> tuple | None:
    """(recovery point, leader-epoch cache, epochs_unwritten, _durable) of an empty log at ``base``
    loaded hollow from these files (None: absent; the producer snapshot, at ``base``, and the
    transaction checkpoint only as an older odradek's stop wrote them for an empty log: no
    producer, no transaction); None when the files call for the whole load."""
    empty_txns = PartitionTxnState().checkpoint_bytes(base)
    if snap_data not in (None, ProducerStateTable().to_bytes()) or txn_data not in (None, empty_txns):
        return None
    cp: dict[str, int] = {}
    if cp_data is not None:
        cp = _parse_checkpoint(cp_data)
        if cp is None or cp.get("log_start_offset", 0) > base:
            return None
    cache = LeaderEpochCache()
    if epochs_data is not None:
        try:
            cache = decode_checkpoint(epochs_data)
        except CheckpointError:
            return None
    cache = cache.truncate_from_end(base).truncate_from_start(base)
    durable = _durable_with(_NO_STATE_FILES, CHECKPOINT_FILE, cp_data)
    if snap_data is not None:  # (as the whole load after a clean stop notes them)
        durable = _durable_with(durable, _NO_SNAPSHOTS, None, known=False)
        durable = _durable_with(durable, f"{base:020d}.snapshot", snap_data)
    if txn_data is not None:
        durable = _durable_with(durable, TXN_CHECKPOINT_FILE, txn_data)
    unwritten = 0
    if epochs_data is not None:
        durable = _durable_with(durable, LEADER_EPOCH_CHECKPOINT_FILE, epochs_data)
        if encode_checkpoint(cache) != epochs_data:
            unwritten = EPOCHS_AT_END
    return min(cp.get("recovery_point", 0), base), cache, unwritten, durable


def _durable_get(d: DurableFiles, name: str, default: bytes | None = None) -> bytes | None:
    """What the state file ``name`` durably holds in ``d`` (None: it is absent; ``default``: not known)."""
    for i in range(0, len(d), 2):
        if d[i] == name:
            return d[i + 1]
    return default


def _durable_with(d: DurableFiles, name: str, data: bytes | None, known: bool = True) -> DurableFiles:
    """``d`` with ``name`` holding ``data`` (``known`` False: with ``name`` unknown), shared with
    every log in that same state while it is small."""
    names = d[::2]
    if name in names:  # (a new tuple by slices: every log's state write comes here)
        i = 2 * names.index(name)
        new = d[:i] + (name, data) + d[i + 2:] if known else d[:i] + d[i + 2:]
    elif known:
        i = 2 * bisect_left(names, name)
        new = d[:i] + (name, data) + d[i:]
    else:
        new = d
    values = new[1::2]
    if sum(len(v) for v in values if v is not None) >= _SHARED_DURABLE_BELOW \
            or any(v is not None and type(v) is not bytes for v in values):
        return new
    return _SHARED_DURABLE.get(new, lambda: new)
# PartitionLog.epochs_unwritten: what the leader-epoch-checkpoint lacks. EPOCHS_AT_END and
# EPOCHS_SOON: the file and the cache differ only in entries at or past the log end (which a load
# drops anyway) or before the log start (which a load cuts too), so a close or a crash loses nothing;
# EPOCHS_AT_END: a load dropped entries at the log end and left the file as it was (Kafka's
# truncateFromEndAsyncFlush); EPOCHS_SOON: a new leader's epoch at the log end, a follower's
# truncation at its end, a log start moved up (Kafka's truncateFromStartAsyncFlush), written soon by
# the owner's background pass (LogManager.write_pending_state). EPOCHS_BELOW_END: records were
# appended past what the file lacks (a new epoch's first batch, a leader's or a follower's), also
# written by the background pass, and before any checkpoint that moves the recovery point past them
# (_write_checkpoint): a load after a crash takes the file's entries below the recovery point as
# they are and rebuilds the others from the batches' own partitionLeaderEpoch (_load_epochs), so no
# record waits for the file (Kafka's first append after makeLeader writes none either).
EPOCHS_AT_END = 1
EPOCHS_SOON = 2
EPOCHS_BELOW_END = 3
_EPOCHS_MASK = 3
# PartitionLog._unwritten, beside the epochs' state: log-state.checkpoint holds a log start below the
# log's (Kafka's maybeIncrementLogStartOffset keeps it in memory: its kafka-log-start-offset-checkpoint
# task writes it every log.flush.start.offset.checkpoint.interval.ms, LogManager.checkpoint_log_starts
# here, or any checkpoint written before). A crash before then leaves the log start lower, never higher.
START_UNWRITTEN = 4

EARLIEST_TIMESTAMP = -2
LATEST_TIMESTAMP = -1
MAX_TIMESTAMP = -3
EARLIEST_LOCAL_TIMESTAMP = -4


@dataclass(frozen=True)
class FileSlice:
    """A range of a segment file a fetch sends."""
    path: str
    position: int
    length: int
    file: FileHandle             # file.fileno() for os.sendfile (None on fake filesystems)


@dataclass
class FetchSlices:
    """What a fetch of one partition reads: its file slices and offsets."""
    slices: list[FileSlice] = field(default_factory=list)
    total_bytes: int = 0
    first_offset: int = -1       # base offset of the first batch returned
    next_offset: int = -1        # where a consumer continues (> every offset returned)
    high_watermark: int = 0
    log_start_offset: int = 0
    log_end_offset: int = 0

    def read_bytes(self) -> bytes:
        """Materialize (tests, non-sendfile transports)."""
        return b"".join(s.file.read(s.position, s.length) for s in self.slices)


@dataclass(frozen=True)
class RetentionCut:
    """What PartitionLog.cut_by_retention took out of a log under its lock, for finish_cut to
    finish without it."""
    count: int                          # segments out of the log
    deleted: list[str]                  # their files, renamed to .deleted, to remove
    checkpoint: bytes | None            # the log-state.checkpoint to write (None: the file holds it)
    epochs: LeaderEpochCache | None     # the leader-epoch cache to write (None: unchanged)


@dataclass(frozen=True)
class TimestampOffset:
    """An offset and its timestamp."""
    offset: int
    timestamp: int


class FlushObserver(Protocol):
    """Who times each flush of a log (the broker's metrics: Kafka's LogFlushRateAndTimeMs)."""

    def timed(self, flush: Callable[[], None]) -> None:
        """Run ``flush`` (its exception goes through) and note how long it took."""


class _Rolled:
    """What rolls left to another thread (PartitionLog.flush_rolled, Kafka's "flush-log" task): the
    segments below ``upto`` to fsync, then the recovery point moved there; the producer snapshot and
    transaction checkpoint taken at the last roll (``files``: (name, content) pairs): the snapshot
    written by the roll itself unless ``written`` is None (its fsync left), the checkpoint to write."""

    __slots__ = ("upto", "files", "written")

    def __init__(self, upto: int, files: tuple[tuple[str, bytes], ...], written: str | None):
        self.upto = upto
        self.files = files
        self.written = written


class _MadeOnUse:
    """A part of a log that an empty, idle log gives up (PartitionLog._try_hollow): a non-data
    descriptor, so while the log holds the part (in its instance dict) reading it costs
    nothing extra; when the log does not, the first read remakes it (PartitionLog._fill)."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        obj._fill()
        return obj.__dict__[self.name]


class PartitionLog:
    # close() ran: a compaction pass still under way swaps nothing in (Kafka's cleaner aborts at
    # shutdown); a class default, so that an open log's own fields do not grow (100,000 hollow logs)
    closed = False
    # what an empty idle log gives up and remakes on use (see _try_hollow): the only parts of
    # an idle log that grow its memory beyond a few fields (a segment with its file, indexes
    # and paths; the producer and transaction tables)
    segments = _MadeOnUse()
    _bases = _MadeOnUse()
    producer_state = _MadeOnUse()
    txn_state = _MadeOnUse()
    # (base offset, created ms, roll jitter ms, index interval bytes, index max bytes, the state of
    # its files: whether its index files are empty and fsynced, or absent, or FILES_NOT_MADE /
    # FILES_GONE) of the one empty segment of a hollow log, as it was made; None: the log holds its parts
    _hollow_seg: tuple[int, int, int, int, int, int] | None = None
    # the topic id a new log is yet to record in its partition.metadata (Kafka records it and
    # flushes the file later: from its scheduler, before the first append, at close or rename);
    # None: recorded (or none to record)
    pending_topic_id: bytes | None = None
    # bytes cut off by the load's recovery (set only on a log that was recovered)
    truncated_on_recovery = 0
    rng: random.Random = _JITTER_RNG  # segment.jitter.ms draws
    # segments out of the log whose files are gone: [segment, ms when detach_retired first saw
    # it]; their fds stay open for file.delete.delay.ms (reads in flight, a sendfile). The empty
    # tuple shared by every log without any (a list is made at the first)
    _retired: list[list] | tuple = ()
    # bumped by every truncation below the log end and by the partition's deletion: what a roll
    # left to another thread (_rolled) and that thread took before is then not written
    _cuts = 0
    # the partition was deleted (forget_writes): its directory goes, and a new log of the partition
    # may take its path, so what another thread still has to write or remove there is not done
    gone = False
    # what rolls left to write and fsync (flush_rolled), or None (a class default: a log's own
    # field from its first roll, so that a new log's fields stay as few; see __init__)
    _rolled: _Rolled | None = None
    # a flush is asked of the owner's flusher (flush.ms, flush.messages: run_requested_flush)
    flush_requested = False
    # the log end an append's flush.messages flush was asked up to (its answer waits: flushed)
    flush_wanted_upto = 0

    def __init__(self, fs: FileSystem, directory: str, config: LogConfig | None = None,
                 *, now_ms: int = 0, rng: random.Random | None = None, clean_shutdown: bool | None = None,
                 new: bool = False, defer_files: bool = False):
        """Open (recovering if needed) or create the log in `directory`. ``clean_shutdown``: whether
        the log was closed cleanly, as its owner knows it (the LogManager: its log dir's
        .kafka_cleanshutdown, as Kafka's); the log then writes no marker of its own on close.
        None (a log on its own): its own `.clean-shutdown` marker says so, and close writes it.
        ``new``: a partition being created (its directory, if absent, is made and nothing loaded);
        with ``defer_files`` (and no preallocation) the directory is taken to be absent and neither
        it nor the segment file is made here: make_files makes them, before anything is written
        (the owner calls it off the event loop; see FILES_NOT_MADE)."""
        self.fs = fs
        self._dir_clean = clean_shutdown
        # segment.jitter.ms draws: one generator for every log (a Random holds 2.5 KB of state)
        if rng is not None:  # (else the class's: one generator for every log)
            self.rng = rng
        self.dir = directory
        self.config = config or LogConfig()
        self.lock = threading.RLock()
        self.segments: list[LogSegment] = []
        self._bases: list[int] = []
        self.log_start_offset = 0
        self.recovery_point = 0
        self.cleaner_checkpoint = 0
        self._high_watermark = 0
        self.producer_state = ProducerStateTable()
        self.txn_state = PartitionTxnState()
        self._epochs = LeaderEpochCache()
        self._latest_epoch = -1  # self._epochs.latest_epoch, read on every leader append
        self.unflushed_messages = 0
        self.last_flush_ms = now_ms
        self.flush_observer: FlushObserver | None = None  # set by the LogManager when metrics are served
        self.recovered_unclean = False
        # why the log takes no more writes (a failed write or fsync it could not undo), or None
        self.offline: str | None = None
        # told fn(log, why) when the log goes offline after its load (Kafka's LogDirFailureChannel:
        # the LogManager takes the log's directory offline)
        self.failure_listener: Callable[["PartitionLog", str], None] | None = None
        # > 0 while the cleaner (another thread) reads this log's files: none is parked then
        self.files_in_use = 0
        # park_files found every segment parked, and none was opened since (the log is the ParkWatch
        # of the files it parks: one that opens again calls wake)
        self._all_parked = False
        self._on_wake: Callable[["PartitionLog"], None] | None = None  # (set_activity_listener)
        self._idle_leo = -1  # log end offset at the last maybe_flush (idle: unchanged since)
        # small state files (checkpoints, producer snapshots) -> the content they durably hold,
        # so a flush or close that would rewrite them unchanged (an idle partition) skips them
        self._durable: DurableFiles = ()
        # (set here on every log, in this order, so all logs share one key table: 30 attributes
        # at most, CPython's limit for that; an attribute first set later costs a whole dict)
        self._hollow_seg = None
        self.pending_topic_id = None
        # what the state files lack: the epochs' (epochs_unwritten) | START_UNWRITTEN (one field:
        # a log's 26th attribute would cost every log its shared key table, ~1.3 KB)
        self._unwritten = 0
        defer_files = defer_files and new and not self.config.preallocate
        fresh = new and (defer_files or not fs.isdir(directory))
        if (new and not defer_files) or clean_shutdown is None:  # (an owner's load names a directory it listed)
            fs.makedirs(directory)
        try:
            if fresh and not self.config.preallocate:  # a new partition: nothing on disk to load
                # (Kafka's createLog): its first segment's file, and the log hollow until used
                if not defer_files:
                    fs.open(posixpath.join(directory, file_name(0, ".log"))).close()
                c = self.config
                # (no index file: a load takes an empty segment's absent indexes as empty)
                self._hollow((0, now_ms, c.random_segment_jitter(self.rng), c.index_interval_bytes,
                              c.segment_index_bytes, FILES_NOT_MADE if defer_files else True))
                self._durable = _NO_STATE_FILES
                self._all_parked = True
            elif fresh:
                self._set_segments([self._new_segment(0, now_ms, fresh=True)])
                self.park_files()
            else:
                self._load(now_ms)
        except OSError:  # (a write of the recovery failed: the caller takes the log offline)
            self.close_files()
            raise

    # ------------------------------------------------------------ offsets

    @property
    def active(self) -> LogSegment:
        return self.segments[-1]

    @property
    def log_end_offset(self) -> int:
        h = self._hollow_seg
        return self.segments[-1].next_offset if h is None else h[0]

    @property
    def high_watermark(self) -> int:
        return self._high_watermark

    @high_watermark.setter
    def high_watermark(self, value: int) -> None:
        with self.lock:
            self._high_watermark = min(max(value, self.log_start_offset), self.log_end_offset)
        self.wake()  # (the owner's high-watermark checkpoint looks at this log)

    # ------------------------------------------------------------ leader epochs

    @property
    def epochs(self) -> LeaderEpochCache:
        """The leader-epoch cache (Kafka's LeaderEpochFileCache): which leader epoch wrote
        from which offset. Kept current by appends and truncations, persisted as
        `leader-epoch-checkpoint`: at once by a truncation below the recovery point, else by the
        owner's background pass, before the recovery point passes a change, or at close (see
        EPOCHS_BELOW_END)."""
        return self._epochs

    def assign_epoch(self, epoch: int, start_offset: int) -> None:
        """Record that `epoch` starts at `start_offset` (Kafka's maybeAssignEpochStartOffset,
        which a new leader calls with its log end offset), in memory: the file is written later
        (see EPOCHS_SOON)."""
        with self.lock:
            if start_offset == self.log_end_offset and self.offline is None:
                # a new leader's epoch at its log end (makeLeader): the checkpoint is written after
                # this, off the caller's path (the owner's background pass), and before the recovery
                # point passes it; a crash or a close before then loses nothing (a load drops the
                # entries at or past the log end, and rebuilds those past the recovery point from
                # the batches). Written here, 5,000 new leaderships were 10,000 fsyncs on the event loop.
                cache = self._epochs.assign(epoch, start_offset)
                if cache is not self._epochs:
                    if (self.epochs_unwritten == EPOCHS_AT_END  # (the file may hold it: a restarted leader's)
                            and _durable_get(self._durable, LEADER_EPOCH_CHECKPOINT_FILE) == encode_checkpoint(cache)):
                        self._epochs, self._latest_epoch = cache, cache.latest_epoch
                        self.epochs_unwritten = 0
                    else:
                        self._epochs_later(cache)
                return
            self._assign_epoch(epoch, start_offset)

    def _assign_epoch(self, epoch: int, start_offset: int) -> None:
        """A new epoch from an append, before its batch is written (a leader's first record when
        assign_epoch did not take, a follower's batch of a new epoch): kept in memory, the file
        written by the background pass, or before the recovery point passes it, or at close
        (EPOCHS_BELOW_END); a crash before then finds the batch's own partitionLeaderEpoch above
        the recovery point, where the load rebuilds the cache from the batches. Written here, a
        follower of 5,000 new leaders made 10,000 fsyncs on the event loop at their first records."""
        cache = self._epochs.assign(epoch, start_offset)
        if cache is not self._epochs:
            self._epochs_later(cache, EPOCHS_BELOW_END)

    def _set_epochs(self, cache: LeaderEpochCache) -> None:
        """Install `cache` and write it through (a truncation below the recovery point: the file
        must not hold entries of records cut before records after the cut are appended; a crash
        then leaves the old or the new file whole, and the load truncates whatever stale entries
        the old one had to the recovered log). A failed write takes the log offline for writes:
        the file then holds entries the log no longer has, which a restart cuts to the log it
        finds, but appends made after them with no epoch change would be taken for theirs."""
        self._epochs = cache
        self._latest_epoch = cache.latest_epoch
        try:
            self._write_state(LEADER_EPOCH_CHECKPOINT_FILE, encode_checkpoint(cache))
            self.epochs_unwritten = 0
        except OSError as e:
            self._go_offline(f"{posixpath.join(self.dir, LEADER_EPOCH_CHECKPOINT_FILE)}: {e}")
            raise

    @property
    def epochs_unwritten(self) -> int:
        """What leader-epoch-checkpoint lacks: 0, EPOCHS_AT_END, EPOCHS_SOON or EPOCHS_BELOW_END."""
        return self._unwritten & _EPOCHS_MASK

    @epochs_unwritten.setter
    def epochs_unwritten(self, value: int) -> None:
        self._unwritten = (self._unwritten & ~_EPOCHS_MASK) | value

    @property
    def start_unwritten(self) -> bool:
        """log-state.checkpoint holds a lower log start than the log's (START_UNWRITTEN)."""
        return bool(self._unwritten & START_UNWRITTEN)

    def _epochs_later(self, cache: LeaderEpochCache, state: int = EPOCHS_SOON) -> None:
        """Install ``cache`` in memory only, its file written later (see EPOCHS_SOON): the state goes
        up to ``state``, never down, and the owner's background pass hears of it."""
        self._epochs, self._latest_epoch = cache, cache.latest_epoch
        if self._unwritten & _EPOCHS_MASK < state:
            self.epochs_unwritten = state
        self.wake()

    @property
    def size_in_bytes(self) -> int:
        if self._hollow_seg is not None:
            return 0
        return sum(s.size for s in self.segments)

    # ------------------------------------------------------------ loading

    def _checkpoint_path(self) -> str:
        return posixpath.join(self.dir, CHECKPOINT_FILE)

    def _read_checkpoint(self) -> tuple[dict[str, int], bytes | None]:
        """(values, file content) of the log-state checkpoint."""
        path = self._checkpoint_path()
        if not self.fs.exists(path):
            self._note_durable(CHECKPOINT_FILE, None)
            return {}, None
        data = read_whole(self.fs, path)
        out = _parse_checkpoint(data)
        if out is None:  # damaged: the log itself is the truth
            logger.warning("%s: unreadable; the log start offset, recovery point and high "
                           "watermark are taken from the log", path)
            return {}, None
        return out, data

    def _checkpoint_text(self, recovery_point: int | None = None) -> bytes:
        rp = self.recovery_point if recovery_point is None else recovery_point
        return (f"0\nlog_start_offset={self.log_start_offset}\nrecovery_point={rp}\n"
                f"cleaner_checkpoint={self.cleaner_checkpoint}\nhigh_watermark={self._high_watermark}\n").encode()

    def _durable_recovery_point(self) -> int:
        """The recovery point log-state.checkpoint holds, or at most (the log start, when not known):
        a lower one only makes a load scan more."""
        data = _durable_get(self._durable, CHECKPOINT_FILE)
        cp = _parse_checkpoint(data) if data is not None else None
        rp = cp.get("recovery_point") if cp is not None else None
        return min(self.recovery_point, self.log_start_offset if rp is None else rp)

    def _write_checkpoint(self, sync_dir: bool = True) -> bool:
        """log-state.checkpoint: log start, recovery point, cleaner progress and the high
        watermark. Under a LogManager the high watermark's truth at a start is the log
        dir's replication-offset-checkpoint (Kafka's file; it overrides this line when it
        names the partition); this line serves a log it does not name yet and a log used
        on its own. (The recovery point it holds never passes an epoch the epochs' file lacks:
        see _epochs_before_recovery_point.)"""
        text = self._checkpoint_text()
        if text == _ZERO_CHECKPOINT and _durable_get(self._durable, CHECKPOINT_FILE, b"") is None:
            return False  # no file says the same to a load
        wrote = self._write_state(CHECKPOINT_FILE, text, sync_dir)
        self._unwritten &= ~START_UNWRITTEN
        return wrote

    def _epochs_before_recovery_point(self, sync_dir: bool = True) -> None:
        """Under the lock, before the recovery point moves in memory: leader epochs the file lacks
        below the log end (EPOCHS_BELOW_END) written first, as a load trusts the epochs' file below
        the recovery point (and rebuilds the rest from the batches); and before them the log start
        they were cut at, if it is still in memory only (the epochs' file never leads the log start
        on disk). So every checkpoint written with the log's recovery point is safe to load."""
        if self._unwritten & _EPOCHS_MASK != EPOCHS_BELOW_END:
            return
        if self._unwritten & START_UNWRITTEN:
            self._write_checkpoint(sync_dir)  # (the recovery point not moved yet)
        self._write_state(LEADER_EPOCH_CHECKPOINT_FILE, encode_checkpoint(self._epochs), sync_dir)
        self.epochs_unwritten = 0

    def _epochs_before_recovery_point_beside(self, cuts: int) -> None:
        """_epochs_before_recovery_point without the log's lock held across the writes (a flush in a
        worker thread, _sync_below: a roll's, flush.ms'): the log start first if in memory only, then the epochs' file, each
        renamed into place only if still wanted; a cache changed meanwhile is left for the next
        write (the recovery point then stays where it is). Raises OSError."""
        with self.lock:
            cache = self._epochs if self._unwritten & _EPOCHS_MASK == EPOCHS_BELOW_END else None
        if cache is None:
            return
        self.write_log_start()
        if self.start_unwritten:
            return  # (another checkpoint meanwhile: the next write)
        data = encode_checkpoint(cache)
        if self._write_beside(LEADER_EPOCH_CHECKPOINT_FILE, data, lambda: self._epochs is cache
                              and self._cuts == cuts and not self.closed and not self.gone):
            with self.lock:
                if self._epochs is cache:
                    self._note_durable(LEADER_EPOCH_CHECKPOINT_FILE, data)
                    self.epochs_unwritten = 0

    def _note_checkpoint(self, text: bytes) -> None:
        """Under the lock: log-state.checkpoint now durably holds ``text`` (written beside)."""
        self._note_durable(CHECKPOINT_FILE, text)
        if f"\nlog_start_offset={self.log_start_offset}\n".encode() in text:
            self._unwritten &= ~START_UNWRITTEN

    def write_log_start(self) -> bool:
        """Write log-state.checkpoint if its log start is below the log's (START_UNWRITTEN): the
        owner's periodic pass (LogManager.checkpoint_log_starts, in a worker thread), with the log's
        lock held only for the rename, and only if no other checkpoint was written meanwhile (the
        newer one wins); True if written. The recovery point it holds is the one on disk (every move
        of it writes a checkpoint, after the leader epochs below it), so nothing else changes."""
        with self.lock:
            if not self._unwritten & START_UNWRITTEN or self.offline is not None:
                return False
            before = _durable_get(self._durable, CHECKPOINT_FILE, _UNKNOWN)
            rp = self.recovery_point
            # (the recovery point on disk: a checkpoint that failed may have left a later one in memory)
            text = self._checkpoint_text(self._durable_recovery_point())

        def still_wanted() -> bool:
            return (self._unwritten & START_UNWRITTEN and self.recovery_point == rp
                    and _durable_get(self._durable, CHECKPOINT_FILE, _UNKNOWN) is before)

        self.make_files()
        if not self._write_beside(CHECKPOINT_FILE, text, still_wanted):
            return False
        with self.lock:
            if still_wanted():
                self._note_checkpoint(text)
        return True

    def _write_state(self, name: str, data: bytes, sync_dir: bool = True) -> bool:
        """write_atomic, unless the file already holds exactly `data`, fsynced; True if written
        (``sync_dir`` False: the caller then fsyncs the log's directory, see close)."""
        self.make_files()
        path = posixpath.join(self.dir, name)
        if _durable_get(self._durable, name) == data and self.fs.exists(path):
            return False
        if name.endswith(".snapshot"):
            self._forget_durable(_NO_SNAPSHOTS)  # (a failed write may leave one)
        write_atomic(self.fs, path, data, sync_dir)
        self._note_durable(name, data)
        return True

    def _note_durable(self, name: str, data: bytes | None) -> None:
        """The state file ``name`` now durably holds ``data`` (None: it is absent)."""
        self._durable = _durable_with(self._durable, name, data)

    def _forget_durable(self, name: str) -> None:
        """What the state file ``name`` holds is not known any more."""
        if name in self._durable[::2]:
            self._durable = _durable_with(self._durable, name, None, known=False)

    def _remove_state(self, name: str) -> None:
        self._forget_durable(name)
        self.fs.remove(posixpath.join(self.dir, name))

    def _write_producer_snapshot(self, offset: int, sync_dir: bool = True) -> bool:
        """Producer state and open transactions as of `offset` (Kafka's snapshot at a close);
        True if a file was written."""
        wrote = False
        for name, data in self._snapshot_files(offset):
            wrote = self._write_state(name, data, sync_dir) or wrote
        if wrote:
            self._prune_snapshots()
        return wrote

    def _snapshot_files(self, offset: int) -> tuple[tuple[str, bytes], ...]:
        """(name, content) of the producer snapshot and the transaction checkpoint as of `offset`;
        none for an empty log without them (their absence says the same to a load, as Kafka's
        takeSnapshot writes none when nothing was appended since the last)."""
        if self._hollow_seg is None:
            producers, txns = self.producer_state, self.txn_state
        else:  # (a hollow log has neither: the empty tables' bytes, not remade for this)
            producers, txns = ProducerStateTable(), PartitionTxnState()
        d = self._durable
        if (offset == self.log_start_offset == self.log_end_offset and not producers.producers
                and not txns.ongoing and _durable_get(d, _NO_SNAPSHOTS, b"") is None
                and _durable_get(d, TXN_CHECKPOINT_FILE, b"") is None):
            return ()
        return ((posixpath.basename(snapshot_path(self.dir, offset)), producers.to_bytes(txns.ongoing)),
                (TXN_CHECKPOINT_FILE, txns.checkpoint_bytes(offset)))

    def _new_segment(self, base_offset: int, now_ms: int, fresh: bool = False, suffix: str = "") -> LogSegment:
        """The segment at base_offset; fresh: a new file (preallocated if configured); ``suffix``:
        its files' names have it (LogSegment)."""
        self.make_files()
        c = self.config
        return LogSegment(self.fs, self.dir, base_offset, index_interval_bytes=c.index_interval_bytes,
                          index_max_bytes=c.segment_index_bytes, created_ms=now_ms,
                          roll_jitter_ms=c.random_segment_jitter(self.rng),
                          preallocate_bytes=c.segment_bytes if fresh and c.preallocate else 0, suffix=suffix)

    def _set_segments(self, segs: list[LogSegment]) -> None:
        self.segments = segs
        if self._hollow_seg is not None:  # (remade, or replaced by a truncation): the tables back
            d = self.__dict__
            d.setdefault("producer_state", ProducerStateTable())
            d.setdefault("txn_state", PartitionTxnState())
            self._hollow_seg = None
        self.wake()  # a new segment's file is open
        self._bases = [s.base_offset for s in segs]

    def _load(self, now_ms: int) -> None:
        fs, d = self.fs, self.dir
        names = fs.listdir(d)
        if self._dir_clean and self._load_hollow(names, now_ms):
            return
        clean_marker = posixpath.join(d, CLEAN_SHUTDOWN_FILE)
        marked = CLEAN_SHUTDOWN_FILE in names  # (a managed log's is an older odradek's: removed too)
        clean = marked if self._dir_clean is None else self._dir_clean
        cp, cp_data = self._read_checkpoint()
        if clean and cp_data is not None:
            self._note_durable(CHECKPOINT_FILE, cp_data)  # the clean stop wrote and fsynced it
        self.log_start_offset = cp.get("log_start_offset", 0)
        self.recovery_point = cp.get("recovery_point", 0)
        self.cleaner_checkpoint = cp.get("cleaner_checkpoint", 0)
        hw = cp.get("high_watermark", 0)
        bases = []
        # An interrupted cleaner swap (replace_segments): while a `.log.cleaned` is
        # there the swap did not commit, so the segments it set aside (.log.swapdeleted)
        # come back; once it is gone the swap committed and they, and its txn index,
        # finish. A retention's (or a truncation's) `.log.deleted` never comes back.
        swap_pending = any(n.endswith(".log.cleaned") for n in names)
        # (an older odradek's swap set them aside as .log.deleted: one above the base F of a
        # `<F>.log.cleaned` whose `<F>.log` is live is such, as the swap keeps its group's first
        # segment live; retention's, or a truncation's below them, never is: rev-j 4)
        live = {int(n[:-4]) for n in names if n.endswith(".log") and n[:-4].isdigit()}
        swaps = [int(n[:-12]) for n in names if n.endswith(".log.cleaned") and n[:-12].isdigit()]
        legacy_above = min((f for f in swaps if f in live), default=None)
        for name in names:
            stem, _, ext = name.partition(".")
            path = posixpath.join(d, name)
            if swap_pending and stem.isdigit() and (
                    ext == "log" + SWAP_DELETED_SUFFIX
                    or (ext == "log.deleted" and legacy_above is not None and int(stem) > legacy_above)):
                fs.rename(path, posixpath.join(d, stem + ".log"))
                bases.append(int(stem))
            elif ext == "txnindex.cleaned" and stem.isdigit() and not swap_pending:
                fs.rename(path, posixpath.join(d, stem + ".txnindex"))
            elif ext in ("log.cleaned", "log.swap", "deleted", "log.deleted", "index.deleted",
                         "timeindex.deleted", "txnindex.deleted", "txnindex.cleaned", "index.cleaned",
                         "timeindex.cleaned", "snapshot.tmp") or name.endswith((".tmp", SWAP_DELETED_SUFFIX)):
                # (a committed swap's .index.cleaned not renamed into place yet: rebuilt from the log)
                fs.remove(path)  # interrupted cleaning / deletion / checkpoint write
            elif ext == "log" and stem.isdigit():
                bases.append(int(stem))
        names = fs.listdir(d)
        present = set(bases)
        for name in names:  # indexes without a log: left over from a deletion
            stem, _, ext = name.partition(".")
            if ext in ("index", "timeindex", "txnindex") and stem.isdigit() and int(stem) not in present:
                fs.remove(posixpath.join(d, name))
        bases.sort()
        if marked:
            fs.remove(clean_marker)  # a crash from here on must not look clean
        self.recovered_unclean = not clean and bool(bases)
        recovered_from: int | None = None  # base of the first segment recovery scanned
        segs: list[LogSegment] = []
        for i, base in enumerate(bases):
            seg = self._new_segment(base, now_ms)
            next_base = bases[i + 1] if i + 1 < len(bases) else None
            below_rp = next_base is not None and next_base <= self.recovery_point
            trusted = clean or below_rp
            why = seg.load_clean() if trusted else None
            if not trusted or why is not None:
                if recovered_from is None:
                    recovered_from = base
                if why is not None:  # a repair, logged as Kafka does
                    logger.warning("%s: %s; recovering the segment and rebuilding its indexes",
                                   seg.path, why)
                expected = segs[-1].next_offset if segs else base
                oi = seg.offset_index.values  # (as load_clean found it)
                indexed_end = oi[-1] if why is not None and oi else -1
                scan = seg.recover(expected, truncate=False)
                seg.mark_unsynced()  # found after an unclean stop: the next flush makes it durable
                damage = None  # fsynced data that fails validation, or is gone: refuse to guess
                if scan.error is None and trusted:  # whole batches, but fewer than were durable
                    if indexed_end >= seg.size:
                        damage = f"its fsynced index has an entry at byte {indexed_end}"
                    elif clean and next_base is None and seg.next_offset < self.recovery_point:
                        damage = f"the clean stop had flushed up to offset {self.recovery_point}"
                    if damage is not None:
                        damage = f"the log ends at byte {seg.size} (offset {seg.next_offset}), but {damage}"
                elif scan.error is not None:
                    # after a clean stop, bytes cut short past every offset the stop had
                    # written (the recovery point is its log end): not data, cut them off
                    torn_tail = (clean and next_base is None and scan.torn_tail
                                 and seg.next_offset >= self.recovery_point)
                    if (clean or below_rp or seg.next_offset < self.recovery_point) and not torn_tail:
                        damage = scan.error
                if damage is not None:
                    for s in segs + [seg]:
                        s.close()
                    raise errors.LogCorruptionError(seg.path, scan.valid_bytes, seg.next_offset, damage)
                if scan.error is not None:
                    # a torn write (after a kill -9; or, after a clean stop, a last batch cut
                    # short): cut it off, as Kafka's recovery does
                    logger.warning("%s: %s at byte %d; truncated %d bytes, the log ends at offset %d",
                                   seg.path, scan.error, scan.valid_bytes, scan.truncated_bytes,
                                   seg.next_offset)
                    seg.log.truncate(scan.valid_bytes)
                    seg.offset_index.flush(fsync=False)
                    seg.time_index.flush(fsync=False)
                    self.truncated_on_recovery += scan.truncated_bytes
                    segs.append(seg)
                    # everything after a torn or corrupt tail is unreachable
                    for later in bases[i + 1:]:
                        dead = self._new_segment(later, now_ms)
                        logger.warning("%s: after the truncated segment; deleted (%d bytes)",
                                       dead.path, dead.size)
                        self.truncated_on_recovery += dead.size
                        dead.delete()
                    break
                seg.offset_index.flush(fsync=False)
                seg.time_index.flush(fsync=False)
            segs.append(seg)
        if not segs:
            segs.append(self._new_segment(self.log_start_offset, now_ms, fresh=True))
        self._set_segments(segs)
        leo = self.log_end_offset
        if self.log_start_offset > leo:
            self._truncate_fully_and_start_at(self.log_start_offset, now_ms)
            leo = self.log_end_offset
        self.log_start_offset = max(self.log_start_offset, self.segments[0].base_offset)
        self.recovery_point = min(self.recovery_point, leo)
        self.cleaner_checkpoint = min(max(self.cleaner_checkpoint, self.log_start_offset), leo)
        self._high_watermark = min(max(hw, self.log_start_offset), leo)
        self._rebuild_producer_state(durable_files=clean)
        self._load_epochs(recovered_from, durable_file=clean)
        if self.recovered_unclean:
            self.flush()  # make the recovered state the new recovery point
        self.park_files()  # a start-up holds one partition's descriptors at a time

    def _load_hollow(self, names: list[str], now_ms: int) -> bool:
        """The load of an empty log after a clean stop, made hollow without opening its segment
        (most partitions of a broker with many: a restart reads a few small files per log, not
        its segment and indexes): one empty segment file at the log start, empty or absent
        index files, no producer snapshot or transaction checkpoint but an empty one at the log
        start (what an older odradek's stop wrote). The state is what _load then _try_hollow
        would make of it; False (nothing changed) for any other log."""
        c = self.config
        if c.compact or c.preallocate or len(names) > 8:
            return False
        seg_name = snap_name = None
        for name in names:
            if name.endswith(".log"):
                if seg_name is not None:
                    return False
                seg_name = name
            elif name.endswith(".snapshot"):
                if snap_name is not None:
                    return False
                snap_name = name
            elif name not in _HOLLOW_LOAD_FILES and not name.endswith((".index", ".timeindex")):
                return False
        if seg_name is None or not seg_name[:-4].isdigit() or snap_name not in (None, seg_name[:-4] + ".snapshot"):
            return False
        stem = seg_name[:-4]
        base = int(stem)
        fs, d = self.fs, self.dir
        for name in names:
            if name.endswith(".index") or name.endswith(".timeindex"):
                if name.partition(".")[0] != stem or fs.size(posixpath.join(d, name)):
                    return False  # (another segment's, or entries to check: the whole load)
        if fs.size(posixpath.join(d, seg_name)):
            return False
        cp_data = read_whole(fs, self._checkpoint_path()) if CHECKPOINT_FILE in names else None
        epochs_data = None
        if LEADER_EPOCH_CHECKPOINT_FILE in names:
            epochs_data = read_whole(fs, posixpath.join(d, LEADER_EPOCH_CHECKPOINT_FILE))
        snap_data = read_whole(fs, posixpath.join(d, snap_name)) if snap_name is not None else None
        txn_data = read_whole(fs, posixpath.join(d, TXN_CHECKPOINT_FILE)) if TXN_CHECKPOINT_FILE in names else None
        key = (cp_data, epochs_data, base, snap_data, txn_data)
        derived = _HOLLOW_LOADS.get(key)  # (most logs of a restart: the same few files)
        if derived is None:
            derived = _hollow_load_state(cp_data, epochs_data, base, snap_data, txn_data)
            if derived is None:
                return False  # (unreadable, or the log starts past its segment: the whole load)
            if len(_HOLLOW_LOADS) >= _HOLLOW_LOADS_MAX:
                _HOLLOW_LOADS.clear()
            _HOLLOW_LOADS[key] = derived
        recovery_point, cache, self.epochs_unwritten, self._durable = derived
        # as _load: the log starts at its segment, every offset within [start, end] = [base, base]
        self.log_start_offset = self.cleaner_checkpoint = self._high_watermark = base
        self.recovery_point = recovery_point
        self._epochs, self._latest_epoch = cache, cache.latest_epoch
        self._hollow((base, now_ms, c.random_segment_jitter(self.rng), c.index_interval_bytes,
                      c.segment_index_bytes, True))
        self._all_parked = True
        return True

    def _load_epochs(self, recovered_from: int | None, durable_file: bool) -> None:
        """The leader-epoch cache from its checkpoint, as Kafka's log loading: the entries
        of the segments recovery scanned come again from their batches' partitionLeaderEpoch
        (the file may have missed or outrun them at a crash), and entries past the log end
        or before the log start are cut. A missing or unreadable file is rebuilt from every
        batch (a log written before odradek kept the file, or a damaged one)."""
        path = posixpath.join(self.dir, LEADER_EPOCH_CHECKPOINT_FILE)
        cache: LeaderEpochCache | None = None
        data: bytes | None = None
        if self.fs.exists(path):
            data = read_whole(self.fs, path)
            try:
                cache = decode_checkpoint(data)
            except CheckpointError as e:
                logger.warning("%s: %s; rebuilding the leader epochs from the log", path, e)
            if durable_file:
                self._note_durable(LEADER_EPOCH_CHECKPOINT_FILE, data)
        scan_from: int | None = None
        if cache is not None and recovered_from is None:
            last = self._last_batch_header()
            if last is not None and last.partition_leader_epoch > cache.latest_epoch:
                logger.warning("%s: names no epoch as recent as %d, that of the last batch (offset %d); rebuilding "
                               "the leader epochs from the log", path, last.partition_leader_epoch,
                               last.base_offset)
                cache = None  # a damaged file (an emptied one reads as no epochs at all)
        if cache is None:
            cache, scan_from = LeaderEpochCache(), self.log_start_offset
        elif recovered_from is not None:
            cache, scan_from = cache.truncate_from_end(recovered_from), recovered_from
        if scan_from is not None and scan_from < self.log_end_offset:
            cache = self._epochs_from_batches(cache, scan_from)
        cache = cache.truncate_from_end(self.log_end_offset).truncate_from_start(self.log_start_offset)
        self._epochs, self._latest_epoch = cache, cache.latest_epoch
        if durable_file and data is not None and scan_from is None:
            # the clean stop's file, cut at the log's ends: a later load cuts it the same way, so
            # it is rewritten only before the next record or change (an empty log's epoch at its
            # end, which every load drops, is no write per partition at every start)
            if encode_checkpoint(cache) != data:
                self.epochs_unwritten = EPOCHS_AT_END
        elif cache.entries or data is not None:  # (a new partition writes none until its first epoch)
            self._write_state(LEADER_EPOCH_CHECKPOINT_FILE, encode_checkpoint(cache))

    def _last_batch_header(self):
        """The header of the log's last batch (None for an empty log); reads from the last
        offset index entry of the last segment holding batches."""
        for seg in reversed(self.segments):
            if seg.size:
                oi = seg.offset_index.values
                last = None
                for _, h in seg.batches(oi[-1] if oi else 0):
                    last = h
                return last
        return None

    def _epochs_from_batches(self, cache: LeaderEpochCache, start: int) -> LeaderEpochCache:
        """`cache` with the partitionLeaderEpoch of every batch from offset `start` assigned
        (batches without one, -1, add nothing)."""
        i = max(0, bisect_right(self._bases, start) - 1)
        for seg in self.segments[i:]:
            pos = seg.position_of(start) if seg.base_offset <= start else 0
            for _, h in seg.batches(pos):
                if h.partition_leader_epoch >= 0 and h.base_offset >= start:
                    cache = cache.assign(h.partition_leader_epoch, h.base_offset)
        return cache

    def _rebuild_producer_state(self, durable_files: bool = False) -> None:
        """durable_files: the snapshot and checkpoint found are a clean stop's (fsynced)."""
        leo = self.log_end_offset
        # (not one below the first segment: the records after it went, rev-i 2)
        snap = load_latest_snapshot(self.fs, self.dir, leo, self.segments[0].base_offset)
        if snap is None:  # (and no snapshot file left)
            self.producer_state = ProducerStateTable()
            start = self.log_start_offset
            self._note_durable(_NO_SNAPSHOTS, None)
        else:
            start, self.producer_state, data = snap
            if durable_files:
                self._note_durable(posixpath.basename(snapshot_path(self.dir, start)), data)
        # open transactions: from the checkpoint taken with that snapshot, else from the snapshot
        # itself (Kafka's loadProducerEntry: each entry's currentTxnFirstOffset); a transaction
        # whose first batch retention deleted is still open there (rev-j 1)
        cp = None
        if self.fs.exists(posixpath.join(self.dir, TXN_CHECKPOINT_FILE)):
            cp = PartitionTxnState.load_checkpoint(self.fs, self.dir)
        else:
            self._note_durable(TXN_CHECKPOINT_FILE, None)
        open_at_start = None
        if cp is not None and cp[0] == start:
            txn_start, self.txn_state = cp
            if durable_files:
                self._note_durable(TXN_CHECKPOINT_FILE, self.txn_state.checkpoint_bytes(start))
        else:
            # the markers below the snapshot are scanned from the log start as before, only to put
            # back an aborted-txn index entry a crash lost (append skips those indexed); at the
            # snapshot the open set becomes the snapshot's
            txn_start, self.txn_state = self.log_start_offset, PartitionTxnState()
            if snap is not None:
                open_at_start = snapshot_open_txns(snap[2])
        scan_from = min(start, txn_start)
        if scan_from >= leo:
            if open_at_start is not None:
                self.txn_state.ongoing = open_at_start
            return
        i = max(0, bisect_right(self._bases, scan_from) - 1)
        for seg in self.segments[i:]:
            pos = seg.position_of(scan_from) if seg.base_offset <= scan_from else 0
            for p, h in seg.batches(pos):
                if h.base_offset >= start:
                    if open_at_start is not None:
                        self.txn_state.ongoing, open_at_start = open_at_start, None
                    self.producer_state.update_from_header(h)
                if h.base_offset >= txn_start and h.is_transactional and h.producer_id >= 0:
                    self._track_txn(seg, seg.read(p, h.size_in_bytes) if h.is_control else None, 0,
                                    h, h.base_offset)
        if open_at_start is not None:
            self.txn_state.ongoing = open_at_start

    def _track_txn(self, seg: LogSegment, buf, pos: int, h, base: int) -> None:
        """Open/close the producer's transaction for a transactional batch at `base`."""
        if not h.is_control:
            self.txn_state.on_data(h.producer_id, base)
            return
        commit, coordinator_epoch = read_marker(buf, pos)
        if commit is None:
            return
        self.producer_state.note_coordinator_epoch(h.producer_id, coordinator_epoch)
        entry = self.txn_state.on_marker(h.producer_id, base, commit)
        if entry is not None:
            try:
                seg.txn_index.append(entry)
            except OSError as e:  # after the marker was written: the state in memory is half
                self._go_offline(f"{seg.txn_index_path}: {e}")  # done; a restart rebuilds it
                raise

    @property
    def last_stable_offset(self) -> int:
        """Offsets below it hold no record of a transaction still open (read_committed bound)."""
        if self._hollow_seg is not None:  # (no transaction open in an empty, hollow log)
            return self._high_watermark
        # (a transaction whose first batch retention deleted holds it at the log start, as Kafka's
        # UnifiedLog.maybeIncrementFirstUnstableOffset: max(first offset, log start))
        first = self.txn_state.first_unstable_offset()
        hw = self._high_watermark
        return hw if first is None else min(max(first, self.log_start_offset), hw)

    def aborted_transactions(self, fetch_offset: int, upper_bound_offset: int) -> list[AbortedTxn]:
        """Aborted transactions overlapping [fetch_offset, upper_bound_offset), for a read_committed Fetch."""
        with self.lock:
            out: list[AbortedTxn] = []
            if self._hollow_seg is not None:  # an empty log holds no marker
                return out
            i = max(0, bisect_right(self._bases, fetch_offset) - 1)
            for seg in self.segments[i:]:  # an entry sits in the segment of its marker
                out.extend(seg.txn_index.collect(fetch_offset, upper_bound_offset))
            return out

    # ------------------------------------------------------------ append

    def append(self, record_set, now_ms: int, *, leader_epoch: int | None = None,
               log_append_time: bool | None = None, assign_offsets: bool = True,
               validate: bool = True, coordinator: bool = False, flush_later: bool = False) -> AppendInfo:
        """Append one or more record batches.

        assign_offsets=True (leader): validate, check producer sequences, give the
        batches the next offsets; leader_epoch (the partition's current epoch) is stamped
        on them and, when newer than the cache's latest, starts at their first offset.
        False: as append_as_follower. validate=False skips the CRC check when the
        caller (the produce handler) has just done it on the same bytes.
        coordinator=True (Kafka's AppendOrigin.COORDINATOR): a batch the broker's coordinator
        built from its own records, every one keyed: its records are not read back (the client
        batch checks, which Kafka's LogValidator makes only for AppendOrigin.CLIENT, and the
        compacted topic's key check: ~10 ms of decoding for a 2,000-offset commit). The header
        checks, offsets, leader epoch and producer and transaction state are as for any append.
        flush_later=True: a flush.messages flush this append calls for is left to the owner's
        flusher (a worker thread) if it has one; the caller answers once ``flushed`` says so (the
        produce handler: Kafka flushes in the append, before the answer).
        """
        cfg = self.config
        if self.offline is not None:
            raise errors.KafkaStorageError(self.offline)
        if self.closed:  # (checked again under the lock: a worker may be closing it now)
            self._refuse_closed()
        if self.pending_topic_id is not None or self._unwritten & _EPOCHS_MASK:
            self._before_records()
        if assign_offsets and log_append_time is None and cfg.plain_append:
            # What a producer sends nearly every time, kept lean: one valid batch,
            # CreateTime, a non-compacted topic, no transaction, a sequence that
            # follows on, no roll due. Anything else leaves this block before any
            # side effect; the general path below redoes the work and names errors.
            lock = self.lock
            lock.acquire()  # try/finally costs less than `with` here
            try:
                if self.closed:
                    self._refuse_closed()
                seg = self.segments[-1]
                if leader_epoch is not None and leader_epoch > self._latest_epoch:
                    self._assign_epoch(leader_epoch, seg.next_offset)  # a new leader's first append
                # check and, without a producer id, roll or timestamp to deal with, write
                # and track it in one C call (SegmentTail.append_plain); else the header
                h = seg.append_plain(record_set, cfg.plain_max_bytes, validate, now_ms,
                                     cfg.timestamp_after_max_ms, cfg.segment_bytes,
                                     cfg.max_segment_ms, leader_epoch, self.log_start_offset)
                if type(h) is AppendInfo:  # written
                    unflushed = self.unflushed_messages = self.unflushed_messages + h[4]
                    if unflushed >= cfg.flush_messages:
                        self._flush_appended(flush_later)
                    return h
                if h is not None:
                    blen, lod, max_ts, pid, pep, bseq, count = h
                    if max_ts <= now_ms + cfg.timestamp_after_max_ms:
                        # (a timestamp too far ahead: the general path names the records)
                        base = seg.next_offset
                        last = base + lod
                        if ((not seg.size or not self._should_roll(  # else the general path rolls
                                seg, blen + _LOG_OVERHEAD, max_ts, last, now_ms))
                                and (pid < 0 or self.producer_state.check(
                                    pid, pep, bseq, lod).result is _OK)):
                            seg.append_batch(record_set, base, leader_epoch, last, max_ts)
                            if pid >= 0:
                                self.producer_state.update(pid, pep, bseq, base, last, max_ts)
                            unflushed = self.unflushed_messages = self.unflushed_messages + count
                            if unflushed >= cfg.flush_messages:
                                self._flush_appended(flush_later)
                            return append_info(base, last, -1, self.log_start_offset, count, max_ts)
            except OSError as e:
                self._failed_write(e)
                raise
            finally:
                lock.release()
        buf = bytearray(record_set)
        try:
            if validate:
                headers = records.validate_record_set(buf, require_dense=assign_offsets)
            else:
                headers = [h for _, h in records.iter_batch_headers(buf)]
        except WireRecordCountError as e:
            raise errors.RecordStructureError(str(e)) from e
        except WireInvalidRecordError as e:
            raise errors.InvalidRecordError(str(e)) from e
        except WireError as e:
            raise errors.CorruptRecordError(str(e)) from e
        if not headers:
            raise errors.InvalidRecordError("empty record set")
        total = 0
        for h in headers:
            size = h.batch_length + 12
            total += size
            if size > cfg.max_message_bytes and assign_offsets:  # (the leader took it: Kafka's ignoreRecordSize)
                raise errors.RecordTooLargeError(
                    f"batch of {size} bytes exceeds max.message.bytes {cfg.max_message_bytes}")
        if total != len(buf):
            raise errors.CorruptRecordError("trailing bytes after the last batch")
        if len(buf) > cfg.segment_bytes:
            raise errors.RecordBatchTooLargeError(
                f"{len(buf)} bytes exceed segment.bytes {cfg.segment_bytes}")
        if cfg.compact and assign_offsets and not coordinator:
            from .compaction import validate_compacted_record_set
            validate_compacted_record_set(buf, posixpath.basename(self.dir))
        use_lat = cfg.log_append_time if log_append_time is None else log_append_time
        if assign_offsets and validate and not coordinator:
            check_client_batches(buf, headers)
        if assign_offsets and not use_lat:
            check_timestamps(buf, headers, now_ms, cfg.timestamp_before_max_ms,
                             cfg.timestamp_after_max_ms)

        with self.lock:
            if self.closed:
                self._refuse_closed()
            if assign_offsets:
                self._check_markers(buf, headers)
            try:
                return self._append_checked(buf, headers, total, now_ms, leader_epoch, use_lat,
                                            assign_offsets, flush_later)
            except OSError as e:
                self._failed_write(e)
                raise

    def _check_markers(self, buf, headers) -> None:
        """The transaction markers of a leader's append, checked against the producer's epoch
        and the coordinator epoch of its last marker (its entry keeps it: _track_txn)."""
        pos = 0
        for h in headers:
            if h.is_control and h.producer_id >= 0:
                try:
                    commit, epoch = read_marker(buf, pos)
                except WireError as e:
                    raise errors.CorruptRecordError(f"control batch: {e}") from e
                if commit is not None:
                    chk = self.producer_state.check_marker(h.producer_id, h.producer_epoch, epoch)
                    if chk is CheckResult.INVALID_PRODUCER_EPOCH:
                        raise errors.InvalidProducerEpochError(
                            f"marker of producer {h.producer_id}: epoch {h.producer_epoch} is stale")
                    if chk is CheckResult.COORDINATOR_FENCED:
                        raise errors.TransactionCoordinatorFencedError(
                            f"marker of producer {h.producer_id}: coordinator epoch {epoch} is stale")
            pos += h.batch_length + 12

    def append_as_follower(self, record_set, now_ms: int, flush_later: bool = False) -> AppendInfo:
        """Kafka's appendAsFollower: the batches as the leader wrote them (offsets, leader
        epochs, timestamps and CRC kept; the bytes land unchanged). The CRCs are checked;
        the first offset may not be below the log end offset (UnexpectedAppendOffsetError;
        above it is a gap the leader's compaction left) and offsets must increase. No
        sequence, producer epoch, timestamp, key or max.message.bytes check: the leader
        made them. Producer and transaction state and the leader-epoch cache follow each
        batch exactly as on the leader, so this replica can lead next. ``flush_later``: as append's
        (the replica fetcher then waits for the flush before it fetches again)."""
        return self.append(record_set, now_ms, assign_offsets=False, log_append_time=False,
                           flush_later=flush_later)

    def _before_records(self) -> None:
        """What an append does first on a log with state files still to write: the topic id goes to
        disk before any record (Kafka's maybeFlushMetadataFile); leader epochs the file lacks stay
        in memory, and the records about to follow them make them EPOCHS_BELOW_END (written by the
        background pass, or before the recovery point passes them: no fsync on the append's path,
        as Kafka's first append after makeLeader)."""
        if self.pending_topic_id is not None:
            self.write_pending_state(epochs=False)
        with self.lock:
            state = self._unwritten & _EPOCHS_MASK
            if state and state != EPOCHS_BELOW_END:
                self.epochs_unwritten = EPOCHS_BELOW_END
                if state == EPOCHS_AT_END:
                    self.wake()  # (the background pass writes it now)

    def write_pending_state(self, epochs: bool = True) -> bool:
        """Write what a new log holds only in memory: its topic id (partition.metadata), then its
        leader epochs (leader-epoch-checkpoint; not with ``epochs`` False: see EPOCHS_SOON), each
        atomically and fsynced; False when nothing was pending. A failure (ENOSPC, EIO) leaves it
        pending, the log as it was, and raises KafkaStorageError.

        The files are written and fsynced without the log's lock held (the owner's background pass
        runs this in a worker thread: the event loop, making this log's replica a leader meanwhile,
        never waits for its disk - 5,000 new leaderships waited ~40 s for 5,000 such writes, one
        log at a time, and the broker missed its session), each to a temp file of its own, renamed
        into place under the lock only if the log still lacks what it holds (a newer cache written
        meanwhile wins), and taken as written once the directory is fsynced."""
        with self.lock:
            tid = self.pending_topic_id
            cache = self._epochs if self.epochs_unwritten and epochs else None
        if tid is None and cache is None:
            return False
        wrote = False
        try:
            self.make_files()
            if cache is not None and self._unwritten & START_UNWRITTEN:
                self.write_log_start()  # first: the epochs' file never leads the log start
                if self._unwritten & START_UNWRITTEN:  # (another checkpoint meanwhile: next time)
                    cache = None
                    self.wake()
            if tid is not None:
                # (not wanted any more: the partition was deleted meanwhile, LogManager.delete)
                if not self._write_beside(partition_metadata.FILE, partition_metadata.encode(tid),
                                          lambda: self.pending_topic_id == tid):
                    return False
                with self.lock:
                    if self.pending_topic_id == tid:
                        self.pending_topic_id = None
                wrote = True
            if cache is not None:
                data = encode_checkpoint(cache)
                path = posixpath.join(self.dir, LEADER_EPOCH_CHECKPOINT_FILE)
                if _durable_get(self._durable, LEADER_EPOCH_CHECKPOINT_FILE) != data or not self.fs.exists(path):
                    if not self._write_beside(LEADER_EPOCH_CHECKPOINT_FILE, data,
                                              lambda: self._epochs is cache and self.epochs_unwritten):
                        return wrote  # (the cache changed meanwhile: its change writes the file)
                    wrote = True
                with self.lock:
                    if self._epochs is cache and self.epochs_unwritten:
                        self._note_durable(LEADER_EPOCH_CHECKPOINT_FILE, data)
                        self.epochs_unwritten = 0
        except OSError as e:
            raise errors.KafkaStorageError(f"{self.dir}: writing its partition.metadata or "
                                           f"leader-epoch-checkpoint failed: {e}") from e
        return wrote

    def _write_beside(self, name: str, data: bytes, still_wanted: Callable[[], bool]) -> bool:
        """write_atomic of the state file ``name`` with the log's lock held only for the rename, and
        only if ``still_wanted()`` then (else the temp file is dropped: False)."""
        path = posixpath.join(self.dir, name)
        # (a .tmp, which a load removes; the writing thread's own: write_atomic's is a lock holder's)
        tmp = f"{path}.{threading.get_ident()}.tmp"
        write_temp(self.fs, tmp, data)
        with self.lock:
            if not still_wanted():
                try:
                    self.fs.remove(tmp)
                except OSError:  # (gone with its directory, renamed away or removed)
                    pass
                return False
            self.fs.rename(tmp, path)
        self.fs.fsync_dir(self.dir)
        return True

    def _refuse_closed(self) -> NoReturn:
        """A write to this log after its close (a callback the event loop still ran while a
        worker closed the logs): refused, nothing written, the log not taken offline - its files
        are closed, and the EBADF a write would get is no disk failure (no log dir failure, no
        halt before the clean-shutdown markers)."""
        raise errors.LogClosedError(f"{self.dir}: the log is closed")

    def _failed_write(self, e: OSError) -> None:
        """A write of an append failed (ENOSPC, EIO): cut back what part of it landed in the
        active segment, so no later write builds on a torn batch. If that fails too, or the
        disk failed (not full), the log takes no more writes until a restart recovers it,
        as Kafka takes a failed log directory offline."""
        seg = self.segments[-1]
        try:
            seg.discard_unwritten()
        except OSError as e2:
            self._go_offline(f"{seg.path}: a failed write could not be undone: {e2}")
            return
        if e.errno not in _NO_SPACE:
            self._go_offline(f"{seg.path}: {e}")
        else:
            logger.warning("%s: append failed (%s); its bytes were cut back, writes go on "
                           "when there is space", seg.path, e)

    def _go_offline(self, why: str) -> None:
        if self.offline is None:
            logger.error("%s: taking the log offline for writes until a restart: %s", self.dir, why)
            self.offline = why
            if self.failure_listener is not None:
                self.failure_listener(self, why)

    def _flush_appended(self, later: bool) -> None:
        """The flush.messages flush after an append. The batch is in the log already: if the
        fsync fails (EIO, ENOSPC alike) the log goes offline for writes and the append is
        answered KAFKA_STORAGE_ERROR, so a producer's retry cannot land the batch a second
        time (Kafka takes the log directory offline on any flush IOException). A restart
        recovers the log. ``later`` (and an owner): requested of the owner's flusher, up to
        this log end, which the caller waits for (``flushed``)."""
        if later and self._on_wake is not None:
            if self.flush_wanted_upto < self.log_end_offset:
                self.flush_wanted_upto = self.log_end_offset
            self._request_flush()
            return
        try:
            self.flush()
        except OSError as e:
            self._go_offline(f"flush after an append failed: {e}")
            raise errors.KafkaStorageError(self.offline) from e

    def _append_checked(self, buf, headers, total: int, now_ms: int, leader_epoch: int | None,
                        use_lat: bool, assign_offsets: bool, flush_later: bool) -> AppendInfo:
        """append's general path, under the lock, after the checks of the record set."""
        cfg = self.config
        seg = self.segments[-1]
        leo = seg.next_offset  # self.log_end_offset
        if assign_offsets:
            for h in headers:
                if h.producer_id >= 0 and not h.is_control:
                    chk = self.producer_state.check(h.producer_id, h.producer_epoch,
                                                    h.base_sequence, h.last_offset_delta)
                    if chk.result is CheckResult.DUPLICATE:
                        d = chk.duplicate_of
                        return append_info(d.first_offset, d.last_offset,
                                          now_ms if use_lat else -1, self.log_start_offset,
                                          0, d.max_timestamp, duplicate=True)
                    if chk.result is CheckResult.OUT_OF_ORDER_SEQUENCE:
                        raise errors.OutOfOrderSequenceError(
                            f"producer {h.producer_id}: sequence {h.base_sequence} out of order")
                    if chk.result is CheckResult.INVALID_PRODUCER_EPOCH:
                        raise errors.InvalidProducerEpochError(
                            f"producer {h.producer_id}: epoch {h.producer_epoch} is stale")
            if leader_epoch is not None and leader_epoch > self._latest_epoch:
                self._assign_epoch(leader_epoch, leo)
        else:
            if headers[0].base_offset < leo:
                raise errors.UnexpectedAppendOffsetError(
                    f"batch base offset {headers[0].base_offset} < log end offset {leo}")
            prev_last = leo - 1
            for h in headers:
                if h.base_offset <= prev_last:
                    raise errors.OffsetsOutOfOrderError(
                        f"batch base offset {h.base_offset} <= previous last offset {prev_last}")
                prev_last = h.last_offset
            for h in headers:  # each batch's epoch as its leader stamped it (Kafka: per batch;
                # the same epoch again, at a higher offset, changes nothing)
                if h.partition_leader_epoch != self._latest_epoch and h.partition_leader_epoch >= 0:
                    self._assign_epoch(h.partition_leader_epoch, h.base_offset)

        if len(headers) == 1:  # the common case, kept lean
            h = headers[0]
            base = leo if assign_offsets else h.base_offset
            if assign_offsets:
                records.set_base_offset(buf, 0, base)
            if leader_epoch is not None:
                records.set_partition_leader_epoch(buf, 0, leader_epoch)
            bmax = h.max_timestamp
            if use_lat and assign_offsets:
                records.set_log_append_time(buf, 0, now_ms)
                bmax = now_ms
            last = base + h.last_offset_delta
            if seg.size and self._should_roll(seg, total, bmax, last, now_ms):
                seg = self._roll(now_ms, base)
            seg.append_batch(buf, base, leader_epoch, last, bmax)
            if h.producer_id >= 0:
                if h.is_transactional:
                    self._track_txn(seg, buf, 0, h, base)
                if h.is_control:
                    self.producer_state.update_from_header(h)
                else:
                    self.producer_state.update(h.producer_id, h.producer_epoch, h.base_sequence,
                                               base, last, bmax)
            self.unflushed_messages += h.records_count
            if self.unflushed_messages >= cfg.flush_messages:
                self._flush_appended(flush_later)
            return append_info(base, last, now_ms if use_lat else -1,
                              self.log_start_offset, h.records_count, bmax)

        batches = []
        seg_batches = []
        pos = 0
        next_offset = leo
        count = 0
        max_ts = -1
        for h in headers:
            if assign_offsets:
                records.set_base_offset(buf, pos, next_offset)
                base = next_offset
            else:
                base = h.base_offset
            last = base + h.last_offset_delta
            if leader_epoch is not None:
                records.set_partition_leader_epoch(buf, pos, leader_epoch)
            bmax = h.max_timestamp
            if use_lat and assign_offsets:
                records.set_log_append_time(buf, pos, now_ms)
                bmax = now_ms
            size = h.batch_length + 12
            batches.append((base, last, bmax, h, pos))
            seg_batches.append((pos, last, bmax, size))
            if bmax > max_ts:
                max_ts = bmax
            count += h.records_count
            next_offset = last + 1
            pos += size
        first_base, last_offset = batches[0][0], batches[-1][1]
        first_ts = batches[0][2]

        if seg.size and self._should_roll(seg, len(buf), first_ts, last_offset, now_ms):
            seg = self._roll(now_ms, first_base)
        seg.append(buf, seg_batches)
        for base, last, bmax, h, bpos in batches:
            if h.producer_id >= 0:
                if h.is_transactional:
                    self._track_txn(seg, buf, bpos, h, base)
                if h.is_control:
                    self.producer_state.update_from_header(h)
                else:
                    self.producer_state.update(h.producer_id, h.producer_epoch, h.base_sequence,
                                               base, last, bmax)
        self.unflushed_messages += count
        if self.unflushed_messages >= cfg.flush_messages:
            self._flush_appended(flush_later)
        return append_info(first_base, last_offset, now_ms if use_lat else -1,
                          self.log_start_offset, count, max_ts)

    def _should_roll(self, seg: LogSegment, size: int, first_ts: int, last_offset: int,
                     now_ms: int) -> bool:
        cfg = self.config
        if seg.size > cfg.segment_bytes - size or seg.index_full:
            return True
        if seg.first_batch_timestamp >= 0 and first_ts >= 0:
            waited = first_ts - seg.first_batch_timestamp
        else:
            waited = now_ms - seg.created_ms
        if waited > cfg.max_segment_ms - seg.roll_jitter_ms:
            return True
        return not seg.can_hold(last_offset)

    def roll(self, now_ms: int) -> LogSegment:
        with self.lock:
            if self.active.size == 0:
                return self.active
            return self._roll(now_ms, self.log_end_offset)

    def _roll(self, now_ms: int, base_offset: int) -> LogSegment:
        """A new active segment at base_offset. The old one's index entries go to their files (the
        page cache); its fsyncs, the producer snapshot taken here and the recovery point's move are
        left to the owner's background pass (flush_rolled), as Kafka's roll schedules its "flush-log"
        task: on the caller's thread (the event loop's produce or replica fetch) a roll fsynced the
        whole old segment and wrote three files (13.8 ms median, 371 ms max with 4 MiB unflushed on
        a disk; a topic's partitions roll together at segment.ms). A log without an owner (no
        activity listener: a log on its own) does that work here."""
        old = self.active
        old.on_become_inactive()
        old.write_indexes()
        if not self.config.compact:
            old.park()  # opened again when read
        # as Kafka's takeSnapshot(sync=false): producer state at the new segment's base written
        # here (the page cache), fsynced later; held only in memory, a retention or a truncation
        # before the pass made a crash or the truncation rebuild from an older snapshot (rev-i 2).
        # (Before the new segment: a crash in between leaves no segment past the old one's end.)
        files = self._snapshot_files(base_offset)
        written = self._write_roll_snapshot(files)
        new = self._new_segment(base_offset, now_ms, fresh=True)
        self._rolled = _Rolled(base_offset, files, written)
        self._set_segments(self.segments + [new])  # (wakes the owner, which takes _rolled)
        logger.info("%s: rolled new log segment at offset %d", self.dir, base_offset)
        if self._on_wake is None:
            self.flush_rolled()
        return new

    def _write_roll_snapshot(self, files: tuple[tuple[str, bytes], ...]) -> str | None:
        """Under the lock, at a roll: the producer snapshot among ``files`` written into place without
        an fsync (a crash may tear it: its checksum then drops it at the load); its name, or None if
        none or the write failed (ENOSPC: the background pass writes it then). The transaction
        checkpoint, which has no checksum to tell a torn one, is left to the pass (a load finding
        an older one scans for open transactions instead)."""
        for name, data in files:
            if not name.endswith(".snapshot"):
                continue
            self._forget_durable(_NO_SNAPSHOTS)
            self._forget_durable(name)
            try:
                write_unsynced(self.fs, posixpath.join(self.dir, name), data)
            except OSError as e:
                logger.warning("%s: writing the producer snapshot %s at a roll failed (left to the "
                               "background pass): %s", self.dir, name, e)
                return None
            return name
        return None

    @property
    def truncations(self) -> int:
        """How many times the log was truncated (or deleted) since it was opened: what an append
        stays below until the counter moves (a produce waiting for its flush)."""
        return self._cuts

    @property
    def rolled_pending(self) -> bool:
        """A roll left fsyncs or files to write to the owner's background pass (flush_rolled)."""
        return self._rolled is not None

    def forget_rolled(self) -> None:
        """What rolls left to write is not wanted any more (a truncation below the log end, the
        partition's deletion): a background pass or flush under way writes none of it. Without the lock
        (LogManager.delete_many): a pass checks it under the lock before each rename."""
        self._cuts += 1  # (a worker's flush or pass under way then writes nothing)
        self._rolled = None

    def forget_writes(self) -> None:
        """The partition is deleted (LogManager.delete, before its directory is renamed away): what
        the log holds only in memory is not recorded, and what other threads still have to write or
        remove in its directory (a roll's files, a retention pass's or a cleaner swap's) is not done
        (a new log of the partition may have its path by then). Without the lock: each of those
        checks it under the lock before a rename, and the directory's rename takes the lock."""
        self.pending_topic_id = None
        self._unwritten = 0
        self.forget_rolled()
        self.gone = True

    def flush_rolled(self) -> bool:
        """What rolls left (Kafka's "flush-log" task of a roll: flushUptoOffsetExclusive of the new
        segment's base, and the fsync of the producer snapshot taken at the roll): the segments below
        that offset fsynced, then the recovery point moved there; the producer snapshot and
        transaction checkpoint written; the log-state checkpoint written. Run by the owner's
        background pass (a worker thread): the files are fsynced by their paths and written to temp
        files without the log's lock, which is held only to read what to do, to note what became
        durable and to rename a file into place if still wanted (a truncation or a deletion
        meanwhile drops it). False when nothing was pending. A failed fsync takes the log offline
        (not for space), as a failed flush, and raises KafkaStorageError."""
        with self.lock:
            r = self._rolled
            if r is None or self.closed or self.offline is not None:
                return False
            cuts = self._cuts
            todo = self._unsynced_below(r.upto)
        if not self._sync_below(r.upto, cuts, todo):
            return True
        with self.lock:
            files = r.files
            for name, _ in files:
                if name.endswith(".snapshot") and name != r.written:
                    self._forget_durable(_NO_SNAPSHOTS)  # (the rename below may put one there)

        def still_wanted() -> bool:
            return self._cuts == cuts and not self.closed

        try:
            wrote = False
            for name, data in files:
                if name == r.written:  # (the roll wrote it: its fsync, and its directory entry's)
                    try:
                        self.fs.fsync_file(posixpath.join(self.dir, name))
                    except FileNotFoundError:  # (a truncation removed it meanwhile)
                        continue
                    self.fs.fsync_dir(self.dir)
                    with self.lock:  # (a later roll's, or a close's, may be at the same name)
                        if still_wanted() and self._rolled is r:
                            self._note_durable(name, data)
                    wrote = True
                elif self._write_beside(name, data, still_wanted):
                    with self.lock:
                        if still_wanted():
                            self._note_durable(name, data)
                    wrote = True
            if wrote:
                with self.lock:  # (under the lock: a truncation's reload meanwhile reads them)
                    if still_wanted():
                        for off in list_snapshots(self.fs, self.dir)[:-2]:
                            self._forget_durable(posixpath.basename(snapshot_path(self.dir, off)))
                            try:
                                self.fs.remove(snapshot_path(self.dir, off))
                            except FileNotFoundError:
                                pass
            self._checkpoint_after_flush(cuts)
        except OSError as e:
            self._background_failed(cuts, e, "writing the producer snapshot or log-state checkpoint of a roll")
        with self.lock:
            if self._rolled is r:
                self._rolled = None
        return True

    def _unsynced_below(self, upto: int) -> list[tuple[LogSegment, list[str], tuple]]:
        """Under the lock: (segment, paths to fsync, what it holds) of the segments below ``upto``
        with bytes or index entries not fsynced, their index entries written into the files first."""
        todo = []
        if self._hollow_seg is not None:  # (an empty log: its segments below it all went)
            return todo
        for seg in self.segments:
            if seg.base_offset >= upto:
                break
            seg.write_indexes()  # (an old segment's: written at its roll already)
            paths, held = seg.unsynced_files()
            if paths:
                todo.append((seg, paths, held))
        return todo

    def _sync_below(self, upto: int, cuts: int, todo: list, space_too: bool = False) -> bool:
        """Kafka's flush(offset): the files _unsynced_below named fsynced by their paths, without the
        log's lock (a worker thread: the event loop appends and reads meanwhile), then under it the
        segments noted synced and the recovery point moved to ``upto`` (markFlushed), unless a
        truncation or a deletion came meanwhile (``cuts``) or the log closed: False then. A failed
        fsync takes the log offline (not for space) and raises KafkaStorageError. A segment made since
        the recovery point fsyncs the log's directory too, before the recovery point moves (Kafka's
        LocalLog.flush: flushDirIfExists): its directory entry is durable when the flush is answered."""
        new_segment = any(seg.base_offset >= self.recovery_point for seg, _, _ in todo)

        def flush_segments() -> None:
            for seg, paths, held in todo:
                for path in paths:
                    try:
                        self.fs.fsync_file(path)
                    except FileNotFoundError:
                        with self.lock:
                            if seg in self.segments and self._cuts == cuts and not self.closed:
                                raise  # (else gone by retention, the cleaner, a truncation: not wanted)
            if new_segment:
                try:
                    self.fs.fsync_dir(self.dir)
                except FileNotFoundError:
                    with self.lock:
                        if self._cuts == cuts and not self.closed:
                            raise  # (else the partition was deleted: not wanted)

        try:
            if self.flush_observer is None:
                flush_segments()
            else:
                self.flush_observer.timed(flush_segments)
        except OSError as e:
            self._background_failed(cuts, e, "flush", space_too)
        try:
            self._epochs_before_recovery_point_beside(cuts)
        except OSError as e:
            self._background_failed(cuts, e, "writing the leader epochs before the recovery point", space_too)
        with self.lock:
            if self._cuts != cuts or self.closed:
                return False
            if self._hollow_seg is None:
                for seg, _, held in todo:
                    if seg in self.segments:
                        seg.mark_synced(held)
            # (every byte below upto was fsynced then, or before: a segment clean when taken; and
            # the epochs' file holds their epochs, else it stays: see _epochs_before_recovery_point)
            if self.recovery_point < upto <= self.log_end_offset and self.epochs_unwritten != EPOCHS_BELOW_END:
                self.recovery_point = upto  # (Kafka's markFlushed)
            return True

    def _checkpoint_after_flush(self, cuts: int) -> None:
        """log-state.checkpoint as the log is now, written without the lock (_write_beside), renamed
        into place only if it still says the same, no truncation or deletion came and the log is open."""
        with self.lock:
            text = self._checkpoint_text()
        if _durable_get(self._durable, CHECKPOINT_FILE) != text and self._write_beside(
                CHECKPOINT_FILE, text, lambda: self._cuts == cuts and not self.closed
                and self._checkpoint_text() == text):
            with self.lock:
                if self._checkpoint_text() == text:
                    self._note_checkpoint(text)

    def _background_failed(self, cuts: int, e: OSError, what: str, space_too: bool = False) -> None:
        """A worker's fsync or write of this log failed: the log goes offline for writes (not for
        space, which a later pass retries), as Kafka takes the log dir offline when its scheduler's
        flush fails, unless what it wrote is not wanted any more; raises KafkaStorageError."""
        why = f"{what} failed: {e}"
        with self.lock:
            if (space_too or e.errno not in _NO_SPACE) and self._cuts == cuts and not self.closed:
                self._go_offline(why)
        raise errors.KafkaStorageError(f"{self.dir}: {why}") from e

    def _request_flush(self) -> None:
        """Ask the owner for a flush of everything written (through the activity listener: the
        LogManager hands it to its flusher, a worker thread, or runs it at once without one)."""
        if not self.flush_requested:
            self.ask_flush()

    def ask_flush(self) -> None:
        """Ask the owner for a flush of everything written, even if one was asked already (a pass
        that ended below what it was asked for, or a flush awaited that no pass is taking up)."""
        self.flush_requested = True
        self.wake()

    @property
    def flush_awaited(self) -> bool:
        """An append's flush.messages flush (flush_later) is still to be done: its log end not fsynced yet."""
        return not self.flushed(self.flush_wanted_upto) and not self.gone and not self.closed

    def flushed(self, offset: int) -> bool:
        """Every offset below ``offset`` is fsynced (the recovery point is past it), or the log
        went offline meanwhile (its answer is then KAFKA_STORAGE_ERROR)."""
        return self.recovery_point >= offset or self.offline is not None

    def run_requested_flush(self) -> bool:
        """The flush _request_flush asked for (Kafka's flush(false) of kafka-log-flusher, or of an
        append at flush.messages): every segment up to the log end as it is now fsynced by its
        paths without the log's lock (the event loop appends and reads meanwhile), then the
        recovery point moved there and log-state.checkpoint written (_sync_below,
        _checkpoint_after_flush). False when none was asked. A failure takes the log offline
        (ENOSPC too: Kafka takes the log dir offline on any flush IOException), raising
        KafkaStorageError; an append waiting for it is answered so."""
        with self.lock:
            if not self.flush_requested:
                return False
            self.flush_requested = False
            if self.closed or self.offline is not None or self._hollow_seg is not None:
                return False
            cuts = self._cuts
            upto = self.log_end_offset
            unflushed = self.unflushed_messages
            todo = self._unsynced_below(upto)
        try:
            if not self._sync_below(upto, cuts, todo, space_too=True):
                return True
            with self.lock:
                self.unflushed_messages = max(0, self.unflushed_messages - unflushed)
                # (the leader epochs' write overtaken - the cache replaced meanwhile by a log start
                # move - leaves the recovery point below: the next pass writes the new cache)
                again = (self.recovery_point < upto and self._cuts == cuts and not self.closed
                         and not self.gone and self.offline is None)
            self._checkpoint_after_flush(cuts)
        except OSError as e:
            self._background_failed(cuts, e, "writing log-state.checkpoint after a flush", space_too=True)
        if again:
            self.ask_flush()
        return True

    def _prune_snapshots(self) -> None:
        snaps = list_snapshots(self.fs, self.dir)
        for off in snaps[:-2]:
            self._remove_state(posixpath.basename(snapshot_path(self.dir, off)))

    # ------------------------------------------------------------ read

    def read(self, offset: int, max_bytes: int, upper_bound_offset: int | None = None,
             min_one_batch: bool = True) -> FetchSlices:
        """File slices holding whole batches from the one containing `offset`, up to
        max_bytes (the first batch even when larger, if min_one_batch) and only batches
        entirely below upper_bound_offset (high watermark / last stable offset)."""
        with self.lock:
            leo = self.log_end_offset
            out = FetchSlices(high_watermark=self._high_watermark,
                              log_start_offset=self.log_start_offset, log_end_offset=leo)
            if offset < self.log_start_offset or offset > leo:
                raise errors.OffsetOutOfRangeError(
                    f"offset {offset} outside [{self.log_start_offset}, {leo}]")
            ub = leo if upper_bound_offset is None else min(upper_bound_offset, leo)
            if offset >= ub:
                return out
            i = max(0, bisect_right(self._bases, offset) - 1)
            remaining = max_bytes
            while i < len(self.segments) and (remaining > 0 or not out.slices):
                seg = self.segments[i]
                i += 1
                found = seg.find_batch(offset)
                if found is None:
                    continue
                start, first = found
                if first.last_offset >= ub:
                    break
                # the upper bound as a position: the start of the batch holding ub
                ub_pos, ub_base = seg.size, None
                if ub < seg.next_offset:
                    f = seg.find_batch(ub)
                    if f is not None:
                        ub_pos, ub_base = f[0], f[1].base_offset
                nxt = None  # base offset of the batch at `end`, when already read
                if ub_pos - start <= remaining:
                    end, nxt = ub_pos, ub_base
                else:
                    # last batch boundary within max_bytes: jump with the offset index,
                    # then scan the few batches after the nearest entry
                    limit = start + remaining
                    oi = seg.offset_index
                    j = bisect_right(oi.values, limit) - 1
                    end = max(start, oi.values[j]) if j >= 0 else start
                    for p, h in seg.batches(end, ub_pos):
                        if p + h.size_in_bytes > limit:
                            nxt = h.base_offset  # (p == end)
                            break
                        end = p + h.size_in_bytes
                    if end == start and min_one_batch and not out.slices:
                        end, nxt = start + first.size_in_bytes, None
                if end > start:
                    if out.first_offset < 0:
                        out.first_offset = first.base_offset
                    seg.log.fileno()  # open (if parked) while the lock holds the segment here
                    out.slices.append(FileSlice(seg.path, start, end - start, seg.log))
                    out.total_bytes += end - start
                    remaining -= end - start
                if end < seg.size:
                    if nxt is None:
                        nxt = records.read_batch_header(seg.read(end, HEADER_SIZE), 0).base_offset
                    if end > start:
                        out.next_offset = nxt
                    break
                if end > start:
                    out.next_offset = seg.next_offset
                offset = seg.next_offset
            return out

    def offset_for_timestamp(self, timestamp: int) -> TimestampOffset | None:
        """ListOffsets: the first record with timestamp >= `timestamp`, or the special
        -1 latest / -2 earliest / -3 max-timestamp / -4 earliest-local queries."""
        with self.lock:
            if timestamp in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
                return TimestampOffset(self.log_start_offset, -1)
            if timestamp == LATEST_TIMESTAMP:
                return TimestampOffset(self.log_end_offset, -1)
            if timestamp == MAX_TIMESTAMP:
                best = None
                for seg in self.segments:
                    if seg.size and (best is None or seg.max_timestamp > best.max_timestamp):
                        best = seg
                if best is None or best.max_timestamp < 0:
                    return None
                return self._record_with_timestamp(best, best.max_timestamp)
            for seg in self.segments:
                if seg.size == 0 or seg.max_timestamp < timestamp or seg.next_offset <= self.log_start_offset:
                    continue
                below = seg.time_index.lookup_below(timestamp)
                pos = seg.offset_index.lookup(below)[1] if below is not None else 0
                for p, h in seg.batches(pos):
                    if h.max_timestamp < timestamp or h.last_offset < self.log_start_offset:
                        continue
                    _, recs = records.decode_records(seg.read(p, h.size_in_bytes), 0)
                    for r in recs:
                        off = h.base_offset + r.offset_delta
                        ts = h.max_timestamp if h.timestamp_type == 1 else h.base_timestamp + r.timestamp_delta
                        if ts >= timestamp and off >= self.log_start_offset:
                            return TimestampOffset(off, ts)
            return None

    def _record_with_timestamp(self, seg, ts: int) -> TimestampOffset:
        """The first record of `seg` whose timestamp is `ts` (Kafka answers MAX_TIMESTAMP
        with the record's own offset, not its batch's)."""
        for p, h in seg.batches(0):
            if h.max_timestamp != ts:
                continue
            if h.timestamp_type == 1:
                return TimestampOffset(h.base_offset, ts)
            _, recs = records.decode_records(seg.read(p, h.size_in_bytes), 0)
            for r in recs:
                if h.base_timestamp + r.timestamp_delta == ts:
                    return TimestampOffset(h.base_offset + r.offset_delta, ts)
        return TimestampOffset(seg.offset_of_max_timestamp, ts)

    # ------------------------------------------------------------ retention

    def apply_retention(self, now_ms: int) -> int:
        """Delete whole old segments by retention.ms / retention.bytes (if the policy
        includes delete) and those wholly below the log start offset. Only segments
        below the high watermark go. Returns the number of segments deleted. The log's lock
        is held only for cut_by_retention (see finish_cut)."""
        with self.lock:
            cut = self.cut_by_retention(now_ms)
        if cut is None:
            return 0
        self.finish_cut(cut)
        return cut.count

    def cut_by_retention(self, now_ms: int) -> "RetentionCut | None":
        """apply_retention's part under the log's lock (held by the caller): which segments go,
        taken out of the log in memory (None: none goes); finish_cut, without the lock, then
        does the rest."""
        if self._hollow_seg is not None:  # one empty segment: nothing to delete
            return None
        cfg = self.config
        total = self.size_in_bytes
        n = 0
        for i, seg in enumerate(self.segments):
            next_base = self.segments[i + 1].base_offset if i + 1 < len(self.segments) else None
            end = seg.next_offset if next_base is None else next_base
            if end > self._high_watermark or seg.size == 0 and next_base is None:
                break
            if next_base is not None and next_base <= self.log_start_offset:
                ok = True
            elif not cfg.delete:
                ok = False
            else:
                ok = (cfg.retention_ms >= 0 and self._largest_timestamp(seg) < now_ms - cfg.retention_ms) or \
                     (cfg.retention_bytes >= 0 and total - seg.size >= cfg.retention_bytes)
            if not ok:
                break
            total -= seg.size
            n += 1
        return self._cut_oldest(n, now_ms) if n else None

    def _largest_timestamp(self, seg: LogSegment) -> int:
        """The time retention.ms counts from, as Kafka's LogSegment.largestTimestamp: the largest
        record timestamp, or the segment file's modification time when no record has one (-1:
        records written without timestamps are not old, and are kept retention.ms after the
        segment's last write)."""
        if seg.max_timestamp >= 0:
            return seg.max_timestamp
        return self.fs.mtime_ms(seg.path)

    def _cut_oldest(self, n: int, now_ms: int) -> "RetentionCut":
        """The oldest ``n`` segments out of the log, under its lock: in memory only but for the
        renames of their files to .deleted (directory entries, no fsync: Kafka's
        removeAndDeleteSegments renames them under its lock too). The new log start offset and
        leader-epoch cache are in memory; their files are written by finish_cut, without the lock.
        A crash before that finds the log start at the first segment left (a load takes the
        larger of that and the checkpoint's) and cuts the cache there: the same log.

        Written here (as they once were: 2 fsyncs each, 4 removes a segment), the event loop's
        appends, reads and leadership changes of this log waited ~10-30 ms for every log the
        retention pass deleted from, on a disk."""
        if n >= len(self.segments):
            self._roll(now_ms, self.log_end_offset)
        dead, keep = self.segments[:n], self.segments[n:]
        self._set_segments(keep)
        self.log_start_offset = max(self.log_start_offset, keep[0].base_offset)
        self.cleaner_checkpoint = max(self.cleaner_checkpoint, self.log_start_offset)
        cache = self._epochs.truncate_from_start(self.log_start_offset)
        epochs = None
        if cache is not self._epochs:
            # (the file then holds entries below the log start too, which a load cuts the same way)
            self._epochs_later(cache, EPOCHS_AT_END)
            epochs = cache
        checkpoint = self._checkpoint_unwritten()
        deleted: list[str] = []
        for seg in dead:  # the oldest first: a crash between two leaves the log without a prefix
            seg.unpark()  # its descriptor keeps the data (and the space) for file.delete.delay.ms
            for p in (seg.path, seg.offset_index.path, seg.time_index.path, seg.txn_index_path):
                self._set_aside(p, deleted, DELETED_SUFFIX)
            self._hold(seg)
        return RetentionCut(n, deleted, checkpoint, epochs)

    def finish_cut(self, cut: "RetentionCut") -> None:
        """What cut_by_retention left to do, without the log's lock (the retention thread): the
        leader-epoch-checkpoint and log-state.checkpoint written (each renamed into place under
        the lock only if still wanted: not once the cache changed again, or another checkpoint
        was written, or the log closed), then the .deleted files removed. A failure raises
        OSError after the rest is done; what it left is the same to a load (the log start is
        the first segment's, the cache is cut there, .deleted files go)."""
        failed: OSError | None = None
        # the log start first: the epochs' file is cut at it, and never leads it on disk (a log
        # start moved in memory before, by a follower's fetch or DeleteRecords, may be above the
        # first segment kept, where a load would take it)
        if cut.checkpoint is not None:
            try:
                self._write_checkpoint_beside(cut.checkpoint)
            except OSError as e:
                failed = e
        cache = cut.epochs
        if cache is not None and failed is None:
            data = encode_checkpoint(cache)
            try:
                if self._write_beside(LEADER_EPOCH_CHECKPOINT_FILE, data,
                                      lambda: self._epochs is cache and not self.closed and not self.gone
                                      and not self._unwritten & START_UNWRITTEN):
                    with self.lock:
                        if self._epochs is cache:
                            self._note_durable(LEADER_EPOCH_CHECKPOINT_FILE, data)
                            self.epochs_unwritten = 0
            except OSError as e:
                failed = e
        for p in cut.deleted:
            if self.gone:  # (they went with the directory)
                break
            try:
                self.fs.remove(p)
            except FileNotFoundError:  # (the log's directory was renamed away: deleted meanwhile)
                pass
            except OSError as e:
                failed = failed or e
        if failed is not None:
            raise failed

    def _checkpoint_unwritten(self) -> bytes | None:
        """Under the lock: the log-state.checkpoint the log's state makes, to be written without the
        lock by _write_checkpoint_beside (None: the file holds it). What the file holds is unknown
        from now until that write: a write under the lock meanwhile writes anyway, and wins."""
        text = self._checkpoint_text()
        durable = _durable_get(self._durable, CHECKPOINT_FILE, b"")
        if durable == text or text == _ZERO_CHECKPOINT and durable is None:  # (see _write_checkpoint)
            return None
        self._forget_durable(CHECKPOINT_FILE)
        return text

    def _write_checkpoint_beside(self, text: bytes) -> None:
        """_checkpoint_unwritten's checkpoint written (temp file and fsync without the lock), renamed
        into place only if no other was written since (it would hold a newer state) and the log is
        open (its close writes one). Raises OSError."""
        if self._write_beside(CHECKPOINT_FILE, text, self._checkpoint_unknown):
            with self.lock:
                if self._checkpoint_unknown():
                    self._note_checkpoint(text)

    def _checkpoint_unknown(self) -> bool:
        return not self.closed and not self.gone and CHECKPOINT_FILE not in self._durable[::2]

    def _retire(self, seg: LogSegment) -> None:
        seg.unpark()  # its descriptor keeps the data (and the space) for file.delete.delay.ms
        for p in (seg.path, seg.offset_index.path, seg.time_index.path, seg.txn_index_path):
            if self.fs.exists(p):
                self.fs.remove(p)
        self._hold(seg)

    def _hold(self, seg: LogSegment) -> None:
        """Keep a segment that left the log (its files removed) open until file.delete.delay.ms
        has passed, as Kafka deletes a segment's files that long after it leaves the log: a
        read already handed out (a fetch's sendfile) still has it, and its disk space is
        freed then. At most MAX_RETIRED_OPEN per log wait; the oldest are let go of at the next
        look (detach_retired), not closed here: this runs under the log's lock, in the
        retention or cleaner thread too, and only the event loop may take a descriptor number
        away from its own sendfile bursts (see detach_retired)."""
        if self._retired:
            self._retired.append([seg, None])
        else:  # (the shared empty tuple)
            self._retired = [[seg, None]]
        for entry in self._retired[:max(len(self._retired) - MAX_RETIRED_OPEN, 0)]:
            entry[1] = _DUE_AT_ONCE

    def detach_retired(self, now_ms: int, blocking: bool = False) -> list[int]:
        """Let go of the removed segments whose file.delete.delay.ms has passed (counted from the
        first call that saw them; the broker calls this every 100 ms on its event loop): out of
        the log, their files closed without their close(2)s (LogSegment.detach). -> their
        descriptors, which the caller closes (close_detached) in a worker thread: closing a
        removed file's last descriptor frees its disk space, ~1.5 s for a 1 GiB segment on a
        disk. Called on the loop, it also keeps a fetch's sendfile burst (on the loop, with the
        raw number until it duplicates it) from meeting that number given to another file: once
        detached, the segment's files hand the number to nobody, and it is closed only after.
        The log's lock is only tried (not ``blocking``): another thread holding it (the cleaner's
        swap across a directory fsync, a flush) does not hold up the loop; the next call looks again
        (a segment stays open one tick longer)."""
        if not self._retired:
            return []
        lock = self.lock
        if not lock.acquire(blocking):
            return []
        try:
            delay = self.config.file_delete_delay_ms
            keep, fds = [], []
            for entry in self._retired:
                if entry[1] is None:
                    entry[1] = now_ms
                if now_ms - entry[1] >= delay:
                    fds += entry[0].detach()
                else:
                    keep.append(entry)
            self._retired = keep or ()
            return fds
        finally:
            lock.release()

    def release_retired(self, now_ms: int) -> int:
        """detach_retired with the descriptors closed here (a log without a broker's loop); -> how
        many segments were let go of."""
        before = len(self._retired)
        close_detached(self.detach_retired(now_ms, blocking=True))
        return before - len(self._retired)

    def close_files(self) -> None:
        """Close every file of the log, writing nothing but the trim of a preallocated file (a log
        that closes, or failed its load)."""
        with self.lock:
            if self._hollow_seg is not None:  # no file open (a hollow log has no retired segment)
                return
            for seg in self.segments + [e[0] for e in self._retired]:
                seg.close()
            self._retired = ()

    def detach_files(self) -> list[int]:
        """Every file of the log closed without its close(2)s (LogSegment.detach): a deleted
        partition's log after its delay, on the event loop, whose descriptors a worker then
        closes (see detach_retired). -> those descriptors."""
        with self.lock:
            if self._hollow_seg is not None:  # no file open (a hollow log has no retired segment)
                return []
            fds = [fd for seg in self.segments + [e[0] for e in self._retired] for fd in seg.detach()]
            self._retired = ()
            return fds

    def remove_expired_producers(self, now_ms: int, expiration_ms: int) -> int:
        """Drop the idempotence state of producers silent for expiration_ms (not those
        with a transaction open here); a later batch from one starts afresh."""
        with self.lock:
            if self._hollow_seg is not None:  # no producer state
                return 0
            return self.producer_state.remove_expired(now_ms, expiration_ms,
                                                      keep=self.txn_state.ongoing)

    def delete_records(self, offset: int) -> int:
        """DeleteRecords: move the log start offset; returns the new low watermark."""
        with self.lock:
            if offset == -1:  # Kafka: -1 means the high watermark
                offset = self._high_watermark
            if offset < 0:
                raise errors.OffsetOutOfRangeError(f"delete offset {offset} is negative")
            self.maybe_increment_log_start_offset(offset)
            return self.log_start_offset

    def maybe_increment_log_start_offset(self, offset: int) -> bool:
        """Move the log start offset up to `offset` (DeleteRecords on a leader; a follower
        following its leader's log start): never beyond the high watermark
        (OffsetOutOfRangeError, as Kafka). The leader-epoch cache is cut from the start,
        whole segments below the new start go. True when it moved.

        In memory, as Kafka's maybeIncrementLogStartOffset: log-state.checkpoint is written by the
        owner's periodic pass (LogManager.checkpoint_log_starts, every
        log.flush.start.offset.checkpoint.interval.ms) or by any checkpoint before it, the epochs'
        file by the background pass (truncateFromStartAsyncFlush). Written here, a follower whose
        leader's retention moved 10,000 log starts at once spent ~120 s of its event loop in their
        fsyncs. A crash before then leaves the log start lower (at the first segment kept, or the
        last one written), never higher: the records between are read again, as on Kafka."""
        with self.lock:
            if offset > self._high_watermark:
                raise errors.OffsetOutOfRangeError(
                    f"log start offset {offset} above high watermark {self._high_watermark}")
            if offset <= self.log_start_offset:
                return False
            self.log_start_offset = offset
            self.cleaner_checkpoint = max(self.cleaner_checkpoint, offset)
            self._unwritten |= START_UNWRITTEN
            self._truncate_epochs_from_start()
            n = 0
            while n + 1 < len(self.segments) and self.segments[n + 1].base_offset <= offset:
                n += 1
            if n:
                dead, keep = self.segments[:n], self.segments[n:]
                self._set_segments(keep)
                for seg in dead:
                    self._retire(seg)
            return True

    # ------------------------------------------------------------ truncation

    def truncate_to(self, offset: int, now_ms: int = 0) -> None:
        """Remove every offset >= offset (follower truncation). The leader-epoch cache loses
        its entries from the new log end on, also when nothing else goes (offset >= the log
        end): an epoch a leader assigned at its log end without writing in it (Kafka)."""
        with self.lock:
            if offset >= self.log_end_offset:
                # only entries at the log end go, which a load drops anyway: written soon by the
                # owner's background pass, or first by the next record (Kafka's
                # truncateFromEndAsyncFlush; written here, a follower of 5,000 new leaders made
                # 10,000 fsyncs on the event loop)
                cache = self._epochs.truncate_from_end(self.log_end_offset)
                if cache is not self._epochs and self.offline is not None:
                    self._set_epochs(cache)
                elif cache is not self._epochs:
                    self._epochs_later(cache)
                return
            if offset < self.log_start_offset:
                self._truncate_fully_and_start_at(offset, now_ms)
                return
            r = self._rolled
            self.forget_rolled()  # (a producer snapshot it left may be past the new end)
            if r is not None and offset >= r.upto:  # (all it holds is below the cut: still to do;
                # a new object, so that a pass under way, which saw the cut, does not drop it)
                self._rolled = _Rolled(r.upto, r.files, r.written)
            # Only records past the recovery point going, all of the active segment's: a crash finds
            # the checkpoint as it was, which trusts nothing of the cut (the load scans the segment
            # again and rebuilds the epochs there from its batches), so nothing is written or fsynced
            # here (Kafka's truncateTo neither: truncateFromEndAsyncFlush, the recovery point
            # checkpointed later); the epochs' file soon, by the background pass, or before the
            # recovery point passes the cut (EPOCHS_BELOW_END). Written here, each diverging
            # follower made 5 fsyncs on the event loop.
            in_memory = self.active.base_offset <= offset and self.offline is None
            keep = [s for s in self.segments if s.base_offset <= offset]
            for seg in self.segments[len(keep):]:
                self._retire(seg)
            self._set_segments(keep)
            self.active.truncate_to(offset)
            leo = self.log_end_offset  # (whole batches go: at or below offset)
            if not (in_memory and leo >= self.recovery_point and leo >= self.cleaner_checkpoint):
                in_memory = False
                self.active.flush()
            if self.log_end_offset < self.log_start_offset:
                # the batch holding the log start went: nothing visible is left
                self._truncate_fully_and_start_at(self.log_start_offset, now_ms)
                return
            if in_memory:
                self._high_watermark = max(min(self._high_watermark, leo), self.log_start_offset)
                cache = self._epochs.truncate_from_end(leo)
                if cache is not self._epochs:
                    self._epochs_later(cache)
                self._rebuild_producer_state()
                self._flush_wanted_after_truncation()
                return
            self._after_truncation()

    def truncate_fully_and_start_at(self, offset: int, now_ms: int = 0) -> None:
        with self.lock:
            self._truncate_fully_and_start_at(offset, now_ms)

    def _truncate_fully_and_start_at(self, offset: int, now_ms: int) -> None:
        self.forget_rolled()
        for seg in self.segments:
            self._retire(seg)
        for off in list_snapshots(self.fs, self.dir):
            self._remove_state(posixpath.basename(snapshot_path(self.dir, off)))
        if self.fs.exists(posixpath.join(self.dir, TXN_CHECKPOINT_FILE)):
            self._remove_state(TXN_CHECKPOINT_FILE)  # its open transactions were in the removed segments
        self._set_segments([self._new_segment(offset, now_ms, fresh=True)])
        self.log_start_offset = offset
        self.recovery_point = offset
        self.producer_state = ProducerStateTable()
        if self._epochs.entries or self.epochs_unwritten:  # (the file's entries would move to the new start)
            self._set_epochs(LeaderEpochCache())
        self._after_truncation()

    def _after_truncation(self) -> None:
        leo = self.log_end_offset
        self.recovery_point = min(self.recovery_point, leo)
        self.cleaner_checkpoint = min(self.cleaner_checkpoint, leo)
        self._high_watermark = max(min(self._high_watermark, leo), self.log_start_offset)
        # the lower recovery point first: the load then scans the cut again, whatever the epochs'
        # file still says there (and that file never leads a log start still to write)
        self._write_checkpoint()
        self._truncate_epochs_from_end()
        self._rebuild_producer_state()
        self._flush_wanted_after_truncation()

    def _flush_wanted_after_truncation(self) -> None:
        """The flush an append asked for (flush_wanted_upto) reaches the new log end at most, and
        unflushed_messages counts no cut record: else a flush awaited past the end never comes (the
        replica fetcher's wait hangs, a produce waits for no flush). What is still awaited below
        the end is asked again: a pass that saw the cut moved nothing."""
        leo = self.log_end_offset
        if self.flush_wanted_upto > leo:
            self.flush_wanted_upto = leo
        self.unflushed_messages = min(self.unflushed_messages, max(0, leo - self.recovery_point))
        if self.recovery_point < self.flush_wanted_upto and self._on_wake is not None and self.offline is None:
            self._request_flush()

    def _truncate_epochs_from_end(self) -> None:
        cache = self._epochs.truncate_from_end(self.log_end_offset)
        if cache is not self._epochs:
            self._set_epochs(cache)

    def _truncate_epochs_from_start(self) -> None:
        """Entries below the log start go, in memory (Kafka's truncateFromStartAsyncFlush): the
        file keeps them until its next write (EPOCHS_AT_END: the entries at and past the log start
        are the same in both, and a load cuts the others at the log start it finds), which comes
        after the log start is on disk (the file never leads it: a load would then take the
        records between the two for no epoch's)."""
        cache = self._epochs.truncate_from_start(self.log_start_offset)
        if cache is not self._epochs:
            self._epochs_later(cache, EPOCHS_AT_END)

    # ------------------------------------------------------------ durability

    def flush(self) -> None:
        """fsync everything written so far and move the recovery point to the end. A failed
        fsync (other than for space) leaves what was written of unknown durability: the log
        then takes no more writes until a restart recovers it."""
        if self.flush_observer is None:
            self._flush()
        else:
            self.flush_observer.timed(self._flush)

    def _flush(self, sync_dir: bool = True) -> bool:
        """flush's work; True if its checkpoint was written (``sync_dir``: see _write_state)."""
        with self.lock:
            try:
                for seg in self.segments:
                    if seg.dirty or seg is self.active:
                        seg.flush()
            except OSError as e:
                if e.errno not in _NO_SPACE:
                    self._go_offline(f"flush failed: {e}")
                raise
            self._epochs_before_recovery_point(sync_dir)
            self.recovery_point = self.log_end_offset
            self.unflushed_messages = 0
            return self._write_checkpoint(sync_dir)

    def _flush_hollow(self) -> bool:
        """What flush does for a hollow log's one empty segment: its two index files made empty
        and fsynced (once: noted in _hollow_seg), then the recovery point and the checkpoint."""
        with self.lock:
            h = self._hollow_seg
            if not h[5]:
                try:
                    for suffix in (".index", ".timeindex"):
                        f = self.fs.open(posixpath.join(self.dir, file_name(h[0], suffix)))
                        try:
                            if f.size():
                                f.truncate(0)
                            f.fsync()
                        finally:
                            f.close()
                except OSError as e:
                    if e.errno not in _NO_SPACE:
                        self._go_offline(f"flush failed: {e}")
                    raise
                self._hollow_seg = h[:5] + (True,)
            self.recovery_point = h[0]
            self.unflushed_messages = 0
            return self._write_checkpoint(sync_dir=False)

    def checkpoint(self) -> None:
        """Persist log start, high watermark and cleaner progress without an fsync of
        the data (Kafka's periodic replication-offset / log-start checkpoints)."""
        with self.lock:
            try:
                self._write_checkpoint()
            except OSError as e:
                self._periodic_failed("checkpoint", e)

    def maybe_flush(self, now_ms: int) -> bool:
        """flush.ms policy, called periodically by the LogManager. A failure is logged (once
        until a flush succeeds again) and retried at the next call. A log whose lock another thread
        holds (the background writer of a new log's partition.metadata, fsyncing) is left for the
        next call: the event loop does not wait for that thread's disk."""
        if not self.lock.acquire(blocking=False):
            return False
        try:
            return self._maybe_flush(now_ms)
        finally:
            self.lock.release()

    def _maybe_flush(self, now_ms: int) -> bool:
        if self.unflushed_messages and now_ms - self.last_flush_ms >= self.config.flush_ms:
            if self._on_wake is not None:  # the owner's flusher does it (Kafka's kafka-log-flusher thread)
                self.last_flush_ms = now_ms
                try:
                    self._request_flush()
                except (OSError, errors.KafkaStorageError) as e:  # (done here: an owner without a flusher)
                    self._periodic_failed("flush", e)
                    return False
                return True
            try:
                self.flush()
            except OSError as e:
                self._periodic_failed("flush", e)
                return False
            if self._periodic_failing:
                self._periodic_failing = False
                logger.info("%s: flushed again", self.dir)
            self.last_flush_ms = now_ms
            return True
        if not self.unflushed_messages:
            self.last_flush_ms = now_ms
        leo = self.log_end_offset
        if leo == self._idle_leo:
            self.park_files()
        self._idle_leo = leo
        return False

    def set_activity_listener(self, fn: Callable[["PartitionLog"], None] | None) -> None:
        """``fn(log)`` is called when the log is used after being idle (a parked file opened
        again, a new segment, its high watermark set): the LogManager's periodic work then
        looks at it until ``idle``."""
        self._on_wake = fn

    def wake(self) -> None:
        """The log was used after being idle (ParkWatch: a parked file of it opened again; a new
        segment, its high watermark set, a new epoch to write): not all parked, and the activity
        listener hears it."""
        self._all_parked = False
        fn = self._on_wake
        if fn is not None:
            fn(self)

    @property
    def idle(self) -> bool:
        """Nothing for the periodic work to do until the log is used again (see
        set_activity_listener): no unflushed messages, no retired segment waiting to close,
        its files parked (a compacted log, whose files stay open, is never idle)."""
        return (not self.unflushed_messages and not self._retired and not self.config.compact
                and self._all_parked)

    def park_files(self) -> int:
        """Give back the descriptors of the segment files nothing reads now (called when the
        log has taken no append since the last periodic check): an idle partition holds no
        file open, so the number of partitions is not bounded by the open-file limit. Not
        while the cleaner may read the files (a compacted log, or one being cleaned)."""
        if self.config.compact:
            return 0
        with self.lock:
            if self.files_in_use or self._all_parked:  # O(1) for an idle, parked log
                return 0
            if self._hollow_seg is not None:  # nothing open
                self._all_parked = True
                return 0
            n = 0
            for seg in self.segments:
                n += seg.park(self)
            self._all_parked = all(seg.holds_no_descriptor for seg in self.segments)
            if self._all_parked:
                self._try_hollow()
            return n

    @property
    def hollow(self) -> bool:
        """An empty idle log holding only its offsets (see _try_hollow); its first use remakes the rest."""
        return self._hollow_seg is not None

    def _try_hollow(self) -> None:
        """An empty log at rest (one empty segment, its file parked, nothing unflushed, retired
        or being cleaned, no producer or transaction state) keeps only its offsets, epochs and
        checkpoint fields: its segment object (file, indexes, paths) and producer/transaction
        tables go, and the first use remakes them as they were (_fill). 100,000 new partitions
        then cost a few fields each until they are written (Kafka: logs made on demand)."""
        segs = self.segments
        if (len(segs) != 1 or self._retired or self.offline is not None or self.files_in_use
                or self.unflushed_messages or self.config.compact or self.config.preallocate):
            return
        seg = segs[0]
        if (seg.size or seg.next_offset != seg.base_offset or seg.dirty or seg.preallocated
                or seg._txn_index is not None or seg.base_offset != self.log_start_offset):
            return
        if self.producer_state.producers or self.txn_state.ongoing:
            return
        self._hollow((seg.base_offset, seg.created_ms, seg.roll_jitter_ms, seg.index_interval_bytes,
                      self.config.segment_index_bytes,
                      seg.offset_index.synced_empty and seg.time_index.synced_empty))

    def _hollow(self, seg: tuple[int, int, int, int, int, bool]) -> None:
        self._hollow_seg = _shared_hollow(seg)
        # (del of each, not through __dict__: reading a log's __dict__ makes it a dict of its own)
        del self.segments, self._bases, self.producer_state, self.txn_state

    @property
    def files_made(self) -> bool:
        """False while a new log's directory and segment file are still to be made (FILES_NOT_MADE),
        and for good once its partition was deleted before they were (FILES_GONE)."""
        h = self._hollow_seg
        return h is None or h[5] < FILES_NOT_MADE

    def make_files(self) -> None:
        """Make the directory and the segment file of a new log made with defer_files, if they are
        still to be made (else nothing: one field read); a log deleted before that raises
        FileNotFoundError. A failure (ENOSPC, EIO) raises OSError and leaves them to be made."""
        h = self._hollow_seg
        if h is None or h[5] < FILES_NOT_MADE:
            return
        with self.lock:
            h = self._hollow_seg
            if h is None or h[5] < FILES_NOT_MADE:
                return  # (another thread made them meanwhile)
            if h[5] == FILES_GONE:
                raise FileNotFoundError(errno.ENOENT, "the partition was deleted before its log's files were made",
                                        self.dir)
            self.fs.makedirs(self.dir)
            self.fs.open(posixpath.join(self.dir, file_name(h[0], ".log"))).close()
            self._hollow_seg = _shared_hollow(h[:5] + (True,))

    def forget_files(self) -> bool:
        """The partition of a new log whose files are still to be made is deleted: they never will be
        (FILES_GONE). False (nothing changed) when they were made (the caller renames them away)."""
        with self.lock:
            h = self._hollow_seg
            if h is None or h[5] < FILES_NOT_MADE:
                return False
            self._hollow_seg = h[:5] + (FILES_GONE,)
            return True

    def _fill(self) -> None:
        """Remake what _try_hollow let go: the empty segment over its file (as it was: base
        offset, creation time, roll jitter), empty producer and transaction tables (a part
        set meanwhile, as a truncation sets the producer table, is kept)."""
        with self.lock:
            h = self._hollow_seg
            if h is None:
                return
            if self.closed:  # (its files stay unopened: nothing is read from or written to it now)
                self._refuse_closed()
            if h[5] >= FILES_NOT_MADE:
                self.make_files()
                h = self._hollow_seg
            base, created_ms, jitter_ms, interval, index_max, _ = h
            seg = LogSegment(self.fs, self.dir, base, index_interval_bytes=interval, index_max_bytes=index_max,
                             created_ms=created_ms, roll_jitter_ms=jitter_ms)
            if h[5]:  # (its index files are empty and fsynced, or absent: the same to a load)
                seg.offset_index.assume_synced_empty()
                seg.time_index.assume_synced_empty()
            self._set_segments([seg])  # (wakes the park watch: the periodic work parks it again)

    @contextmanager
    def files_held(self) -> Iterator[None]:
        """While another thread (the cleaner) reads this log's files: park_files parks none."""
        with self.lock:
            self.files_in_use += 1
        try:
            yield
        finally:
            with self.lock:
                self.files_in_use -= 1

    def unpark_files(self) -> None:
        """Open every segment file again (before the directory is renamed away)."""
        with self.lock:
            for seg in self.segments:
                seg.unpark()

    _periodic_failing = False

    def _periodic_failed(self, what: str, e: OSError) -> None:
        if not self._periodic_failing:
            self._periodic_failing = True
            logger.warning("%s: %s failed: %s; retried periodically", self.dir, what, e)

    def close(self) -> bool:
        """fsync, snapshot producer state, write the clean-shutdown marker (a log on its own: a
        managed log's is its log dir's, see __init__). What already holds exactly that, fsynced
        (all of an idle partition's files), is not rewritten; the marker always is (the load
        removed it). True when it closed cleanly."""
        clean = True
        with self.lock:
            self.closed = True
            try:
                if self.offline is not None:
                    raise errors.KafkaStorageError(self.offline)
                self.make_files()  # (a new log's, if still to be made: its partition.metadata goes there)
                # (leader epochs the file lacks are at the log end: a load drops them anyway)
                self.write_pending_state(epochs=False)
                # the state files are renamed into place without a directory fsync each: one
                # for all of them at the end, when any was written (three per touched log before)
                if self._hollow_seg is None:
                    self.active.on_become_inactive()
                    wrote = []
                    if self.flush_observer is None:
                        wrote.append(self._flush(sync_dir=False))
                    else:
                        self.flush_observer.timed(lambda: wrote.append(self._flush(sync_dir=False)))
                    wrote = wrote[0]
                else:  # the same files, without remaking the segment (a broker stop closes every log)
                    wrote = self._flush_hollow()
                wrote = self._write_producer_snapshot(self.log_end_offset, sync_dir=False) or wrote
                if self._dir_clean is None:  # (a managed log's clean stop is its log dir's marker)
                    f = self.fs.open(posixpath.join(self.dir, CLEAN_SHUTDOWN_FILE))
                    f.fsync()
                    f.close()
                    self.fs.fsync_dir(self.dir)
                elif wrote:
                    self.fs.fsync_dir(self.dir)
            except (OSError, errors.KafkaStorageError) as e:
                # no clean-shutdown marker: the next start recovers the log from its files
                logger.warning("%s: not closed cleanly (%s); the next start recovers it", self.dir, e)
                clean = False
            self.close_files()
        return clean

    # ------------------------------------------------------------ cleaner hooks

    def replace_segments(self, olds: list[LogSegment], cleaned_path: str, now_ms: int,
                         expected: list[tuple[int, int]], txn_entries=()) -> bool:
        """Crash-safe swap of one cleaned copy (fsynced at `<first base>.log.cleaned`)
        for the consecutive closed segments `olds`; `expected` is each one's (size,
        generation) when it was read, `txn_entries` the aborted-transaction index of
        the new segment. Returns False when one of them changed or went (retention or
        truncation raced the cleaner), or when the log is closed (a broker stop).

        First, without the log's lock (the cleaner's own files): the copy is read and
        checked whole (CRCs) and its indexes built, written and fsynced as
        `.index.cleaned`/`.timeindex.cleaned`, and the new txn index as
        `.txnindex.cleaned`. Then, under the lock, only renames: the later segments'
        files to `.swapdeleted`, the first one's indexes too (a crash after this
        rebuilds them from the log), one directory fsync (the renames durable before the
        commit), and the commit: the cleaned copy renamed over the first segment's log,
        then its indexes into place. The directory fsync of the commit and the removes
        of the `.swapdeleted` files come after, without the lock. _load undoes an uncommitted
        swap and finishes a committed one. (Under the lock, as it once was, the recovery
        scan of the copy, its index fsyncs and three directory fsyncs held the appends,
        reads and fetches of __consumer_offsets on the event loop.)"""
        first = olds[0]
        if cleaned_path != first.path + CLEANED_SUFFIX:
            raise ValueError(f"{cleaned_path}: not the cleaned copy of {first.path}")
        if not self._swap_wanted(olds, expected):
            return False
        fs = self.fs
        new = self._new_segment(first.base_offset, now_ms, suffix=CLEANED_SUFFIX)
        try:
            scan = new.recover(first.base_offset)
            if scan.error is not None:
                raise errors.LogCorruptionError(cleaned_path, scan.valid_bytes, scan.error_offset, scan.error)
            new.on_become_inactive()
            # (each file made by its path: not once the partition was deleted, when a new log of it
            # may have the path - its load would take a stray .txnindex.cleaned, rev-i 6)
            if self._gone_now():
                new.close()
                return False
            new.flush()
            had_txn = any(fs.exists(s.txn_index_path) for s in olds)
            if (txn_entries or had_txn) and self._gone_now():
                self._drop_cleaned(new)  # (the cleaner thread's own: no other pass of this path runs)
                return False
            if txn_entries or had_txn:  # (empty: the first segment's goes, as the commit installs this)
                f = fs.open(new.txn_index_path)
                try:
                    f.truncate(0)
                    if txn_entries:
                        f.append(b"".join(e.to_bytes() for e in txn_entries))
                    f.fsync()
                finally:
                    f.close()
        except BaseException:
            self._drop_cleaned(new)
            raise
        deleted: list[str] = []
        with self.lock:
            if not self._swap_wanted(olds, expected):
                self._drop_cleaned(new)  # (before the caller removes the .log.cleaned: see _load)
                return False
            for seg in olds:
                seg.unpark()  # (its descriptor keeps it readable for file.delete.delay.ms, see _hold)
            for seg in olds[1:]:
                self._set_aside(seg.path, deleted)
            # the first segment's indexes go: a crash after this rebuilds them from the log
            for p in (first.offset_index.path, first.time_index.path):
                self._set_aside(p, deleted)
            fs.fsync_dir(self.dir)  # (the set-aside durable before the commit: no two segments overlap)
            new.install(CLEANED_SUFFIX)  # the commit point: the cleaned copy renamed over the first log
            for seg in olds[1:]:
                for p in (seg.offset_index.path, seg.time_index.path, seg.txn_index_path):
                    self._set_aside(p, deleted)
            i = self.segments.index(first)
            self._set_segments(self.segments[:i] + [new] + self.segments[i + len(olds):])
            for seg in olds:
                self._hold(seg)
        try:
            fs.fsync_dir(self.dir)
            for p in deleted:
                if self.gone:  # (they went with the directory)
                    break
                fs.remove(p)
            # (durable before the next swap of this log: a crash during it restores .log.swapdeleted files)
            fs.fsync_dir(self.dir)
        except FileNotFoundError:  # (the log's directory was renamed away: deleted meanwhile)
            pass
        return True

    def _gone_now(self) -> bool:
        """The partition was deleted (its directory renames away under the lock after this is set)."""
        with self.lock:
            return self.gone

    def _swap_wanted(self, olds: list[LogSegment], expected: list[tuple[int, int]]) -> bool:
        """The segments a cleaner pass read are still consecutive closed segments of the log, each
        as it was, and the log is open and not deleted."""
        with self.lock:
            if self.closed or self.gone:  # (the broker stopped during the pass, or the partition went)
                return False
            try:
                i = self.segments.index(olds[0])
            except ValueError:
                return False
            if self.segments[i:i + len(olds)] != olds or i + len(olds) >= len(self.segments):
                return False
            return all(seg.size == size and seg.generation == gen for seg, (size, gen) in zip(olds, expected))

    def _set_aside(self, path: str, deleted: list[str], suffix: str = SWAP_DELETED_SUFFIX) -> None:
        """A file out of the log renamed to ``suffix`` (if there: .swapdeleted, a cleaner swap's;
        .deleted, retention's), noted in ``deleted`` for its remove."""
        if self.fs.exists(path):
            self.fs.rename(path, path + suffix)
            deleted.append(path + suffix)

    def _drop_cleaned(self, new: LogSegment) -> None:
        """A cleaned copy not swapped in: its index and txn index files removed (its .log.cleaned is
        the cleaner's to remove, after these: while it is there a load removes them anyway)."""
        new.close()
        for p in (new.offset_index.path, new.time_index.path, new.txn_index_path):
            try:
                if self.fs.exists(p):
                    self.fs.remove(p)
            except OSError as e:  # (the next load removes them)
                logger.warning("%s: could not remove %s: %s", self.dir, p, e)

    def set_cleaner_checkpoint(self, offset: int) -> None:
        """The cleaner's progress, in memory, then written to log-state.checkpoint without the log's
        lock (the cleaner thread; see finish_cut): a crash before then cleans again from the last."""
        with self.lock:
            self.cleaner_checkpoint = max(self.cleaner_checkpoint, offset)
            text = self._checkpoint_unwritten()
        if text is not None:
            self._write_checkpoint_beside(text)
