"""LogManager: every PartitionLog under the log.dirs, in `topic-partition` dirs."""
from __future__ import annotations

import hashlib
import logging
import posixpath
import threading
import uuid
from dataclasses import dataclass
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Generator, Iterator, Mapping

from . import clean_shutdown_file, offset_checkpoint, partition_metadata
from .compaction import CleanerConfig, LogCleaner
from .config import LogConfig
from .errors import KafkaStorageError, LogClosedError, LogCorruptionError
from .fs import FileSystem, RealFileSystem, close_detached, read_whole, write_atomic
from .offset_checkpoint import REPLICATION_OFFSET_CHECKPOINT
from .partition_log import EPOCHS_SOON, FlushObserver, PartitionLog

METADATA_TOPIC = "__cluster_metadata"  # the KRaft metadata log's dir, never a partition of this manager

DELETE_SUFFIX = "-delete"
STRAY_SUFFIX = "-stray"
MAX_DIR_NAME = 255
# the logs one step of the periodic flush check looks at (flush_dirty_steps): a log's check is a few us,
# its files' parking (a close each) ~5 us more: ~1-4 ms a step; 10,000 used logs were one piece of 20-70 ms
FLUSH_CHECK_STEP = 500


def parse_dir_name(name: str) -> tuple[str, int] | None:
    """'my-topic-3' -> ('my-topic', 3); None for anything else."""
    topic, sep, part = name.rpartition("-")
    if not sep or not topic or not part.isdigit() or "." in part:
        return None
    return topic, int(part)


def renamed_dir_name(topic: str, partition: int, suffix: str) -> str:
    """Kafka's `topic-partition.<uuid hex>-suffix`, the topic cut so the name stays within
    255 characters (LocalLog.logDirNameWithSuffixCappedLength)."""
    tail = f"-{partition}.{uuid.uuid4().hex}{suffix}"
    return topic[:MAX_DIR_NAME - len(tail)] + tail


logger = logging.getLogger(__name__)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class _Move:
    """A deleted log's directory to rename to its `-delete` name (LogManager.delete), done once."""

    __slots__ = ("log", "tp", "lock", "done")

    def __init__(self, log: PartitionLog, tp: tuple[str, int]):
        self.log, self.tp = log, tp
        self.lock = threading.Lock()
        self.done = False


@dataclass(frozen=True, slots=True)
class Released:
    """What LogManager.take_released let go of: the descriptors of removed segments and of deleted
    partitions' logs, detached from their files (RealFile.detach) and still open, and those
    partitions' renamed directories."""

    fds: list[int]
    dirs: list[str]

    def __bool__(self) -> bool:
        return bool(self.fds or self.dirs)


class LogManager:
    def __init__(self, log_dirs: list[str] | str, *, fs: FileSystem | None = None,
                 default_config: LogConfig | None = None,
                 topic_config: Callable[[str], LogConfig | None] | None = None,
                 now_ms: int = 0, cleaner_config: CleanerConfig | None = None,
                 hw_checkpoint_interval_ms: int = 5000):
        """Open every partition found under log_dirs (recovering as needed).
        ``cleaner_config``: the log.cleaner.* settings of the compaction cleaner;
        ``hw_checkpoint_interval_ms``: replica.high.watermark.checkpoint.interval.ms."""
        self.fs = fs or RealFileSystem()
        self.log_dirs = [log_dirs] if isinstance(log_dirs, str) else list(log_dirs)
        self.default_config = default_config or LogConfig()
        self.topic_config = topic_config or (lambda topic: None)
        self.logs: dict[tuple[str, int], PartitionLog] = {}
        # the logs of each topic here, by partition number (None: no log of that partition; a list,
        # not a dict: 8 bytes a partition, not ~45), and the log dir of each log and how many logs
        # each dir holds: kept as logs come and go, so that creating a log or finding a topic's
        # logs is no pass over every log
        self._by_topic: dict[str, list[PartitionLog | None]] = {}
        # (None with a single log dir: every log is in it)
        self._dir_of: dict[tuple[str, int], str] | None = {} if len(self.log_dirs) > 1 else None
        self._dir_counts: dict[str, int] = {d: 0 for d in self.log_dirs}
        # the logs the periodic work looks at (flush.ms, parking idle files, retired segments,
        # high watermarks): those used since they were last found idle (see _watch); an idle
        # log costs nothing per period
        self._active: dict[PartitionLog, None] = {}
        # the logs that are not hollow (PartitionLog.hollow: empty, at rest, no producer state):
        # the only ones the retention and producer-expiry passes need to look at. A log goes
        # hollow only in its own periodic pass (flush_dirty takes it out then) and leaves that
        # state through its activity listener (_watch puts it back)
        self._whole: dict[PartitionLog, None] = {}
        # new logs whose partition.metadata or leader-epoch-checkpoint is still to be written
        # (PartitionLog.pending_topic_id, epochs_unwritten)
        self._unwritten_ids: dict[PartitionLog, None] = {}
        # logs that asked for a flush (flush.ms, an append's flush.messages), for the flusher
        self._flushes: dict[PartitionLog, None] = {}
        # Kafka's kafka-log-flusher: told (from any thread) when a log asks for a flush; it then runs
        # run_requested_flushes in a worker thread (the broker's LogFlusher). None: each asked flush
        # runs at once, on the thread that asked
        self.flusher: Callable[[], None] | None = None
        self._hw_dirty = True  # a high watermark or the set of logs changed since the last checkpoint
        # partitions whose log failed validation at start-up (damaged fsynced data): not
        # served, their files left as they are, until a restart finds them whole or the
        # metadata deletes their topic (mark_stray / delete); `_offline_dirs`: their directories
        self.offline: dict[tuple[str, int], LogCorruptionError | KafkaStorageError] = {}
        self._offline_dirs: dict[tuple[str, int], str] = {}
        # the topic id in each log's partition.metadata (None: no file, a log written before
        # odradek kept one; see topic_id): per topic, the id its first log here records, and the
        # logs that record another (one entry per topic, not per partition);
        # `unreadable`: a file there that cannot be parsed
        self._topic_ids: dict[str, bytes | None] = {}
        self._other_ids: dict[tuple[str, int], bytes | None] = {}
        self.unreadable: set[tuple[str, int]] = set()
        self.flush_observer: FlushObserver | None = None  # times every log's flushes (observe_flushes)
        # deleted partitions waiting out file.delete.delay.ms: [log or None, renamed dir,
        # ms when take_released first saw it]
        self._doomed: list[list] = []
        # what a take_released that raised had let go of already: handed over by the next call
        self._unreleased = Released([], [])
        # deleted partitions whose directory is still to be renamed away (delete(defer=True)), by
        # that directory, in the order of their deletes: renamed by the background pass
        # (write_pending_state), or first when a new log of the same directory is made
        self._moves: dict[str, _Move] = {}
        self.cleaner = LogCleaner(cleaner_config)
        self.lock = threading.Lock()
        self.hw_checkpoint_interval_ms = hw_checkpoint_interval_ms
        self._last_hw_checkpoint_ms = now_ms
        # log dir -> the digest of what its HW checkpoint holds (not the bytes: ~2.6 MB at 100,000 partitions)
        self._hw_written: dict[str, bytes] = {}
        self._hw_lock = threading.Lock()  # one checkpoint_high_watermarks at a time (a worker thread's, close's)
        self._hw_failing = False
        # the broker epoch of the last clean shutdown, from the log dirs' .kafka_cleanshutdown
        # files (-1: a crash, or a first start); the files are gone once the logs load
        self.previous_broker_epoch = -1
        # Kafka's LogDirFailureChannel: the log dirs where a log went offline after its load (a
        # failed write or fsync it could not undo), each told once to ``on_dir_failure(dir, why)``
        # (the broker: Kafka's ReplicaManager.handleLogDirFailure)
        self.failed_dirs: set[str] = set()
        self.on_dir_failure: Callable[[str, str], None] | None = None
        self._log_failed_cb = self._log_failed  # one bound method shared by every log
        self._closing = False  # close() has begun: a background pass of pending state stops (see close)
        self._watch_cb = self._watch
        self._load(now_ms)

    def _config_for(self, topic: str) -> LogConfig:
        return self.topic_config(topic) or self.default_config

    def _load(self, now_ms: int) -> None:
        epochs = []
        clean_dirs = set()  # the dirs whose logs all closed cleanly (the marker of each log in them)
        for d in self.log_dirs:
            self.fs.makedirs(d)
            # read, then deleted before any log loads: a crash from here on is unclean (KAFKA-10471)
            if self.fs.exists(posixpath.join(d, clean_shutdown_file.FILE)):
                clean_dirs.add(d)
            epochs.append(clean_shutdown_file.read(self.fs, d))
            clean_shutdown_file.delete(self.fs, d)
        self.previous_broker_epoch = clean_shutdown_file.previous_broker_epoch(epochs)
        configs: dict[str, LogConfig] = {}  # one per topic (the broker's topic_config is not free)
        names: dict[str, str] = {}
        ids: dict[bytes, bytes] = {}  # partition.metadata contents -> topic id
        for d in self.log_dirs:
            hws = self._read_high_watermarks(d)
            for name in self.fs.listdir(d):
                path = posixpath.join(d, name)
                if not self.fs.isdir(path):
                    continue
                if name.endswith(DELETE_SUFFIX):
                    self._doomed.append([None, path, None])  # deleted before the stop: goes after the delay
                    continue
                tp = parse_dir_name(name)
                if tp is None or tp[0] == METADATA_TOPIC:
                    # not a partition (a "-stray" left-over stays as it is, as in Kafka), or the metadata
                    # log of a metadata.log.dir that is also a log dir (the raft driver's, as Kafka's LogManager)
                    continue
                tp = (names.setdefault(tp[0], tp[0]), tp[1])  # (one name string per topic, not per log)
                try:
                    config = configs.get(tp[0])
                    if config is None:
                        config = configs[tp[0]] = self._config_for(tp[0])
                    log = PartitionLog(self.fs, path, config, now_ms=now_ms, clean_shutdown=d in clean_dirs)
                    self._add(tp, log, d)
                    if tp in hws:  # (clamped to the recovered log, as Kafka's updateHighWatermark)
                        log.high_watermark = hws[tp]
                except (LogCorruptionError, OSError) as e:  # that partition only; the others start
                    if isinstance(e, OSError):  # a write of its recovery failed (ENOSPC, EIO)
                        e = KafkaStorageError(f"{path}: loading the log failed: {e}")
                    logger.error("partition %s-%d is offline: %s", tp[0], tp[1], e)
                    self.offline[tp] = e
                    self._offline_dirs[tp] = path
                try:  # read for offline logs too: their topic id says whether the topic still exists
                    self._set_topic_id(tp, partition_metadata.read(self.fs, path, ids))
                except (OSError, partition_metadata.PartitionMetadataError) as e:
                    logger.error("log %s: cannot read %s: %s", path, partition_metadata.FILE, e)
                    self._set_topic_id(tp, None)
                    self.unreadable.add(tp)

    # ------------------------------------------------ high watermark checkpoint

    def _read_high_watermarks(self, d: str) -> dict[tuple[str, int], int]:
        """The log dir's replication-offset-checkpoint: each partition's high watermark as
        last checkpointed, the one truth about it at a start (a log it does not name, one
        from an odradek before this file or a standalone PartitionLog, keeps the value its
        own log-state.checkpoint holds). An unreadable file is logged and ignored: the high
        watermarks then come from the logs (Kafka takes the directory offline instead)."""
        path = posixpath.join(d, REPLICATION_OFFSET_CHECKPOINT)
        if not self.fs.exists(path):
            return {}
        data = read_whole(self.fs, path)
        try:
            hws = offset_checkpoint.decode(data)
        except offset_checkpoint.CheckpointError as e:
            logger.error("%s: %s; high watermarks taken from the logs' own checkpoints", path, e)
            return {}
        self._hw_written[d] = _digest(data)
        return hws

    def checkpoint_high_watermarks(self) -> None:
        """Write each log dir's replication-offset-checkpoint (Kafka's ReplicaManager
        checkpointHighWatermarks): "topic partition high-watermark" of every log in it,
        atomically (write_atomic: a crash leaves the old or the new file). A dir whose
        content would not change is not rewritten (nor created while it holds no log). A failure is logged and retried at the
        next call. May run in a worker thread while the event loop changes the logs (the broker's, see
        high_watermarks_due): it writes the logs and high watermarks of one moment."""
        with self._hw_lock:
            self._checkpoint_high_watermarks()

    def _checkpoint_high_watermarks(self) -> None:
        self._hw_dirty = False
        rows = {d: offset_checkpoint.Encoder() for d in self.log_dirs}
        logs = self.logs
        # (the keys in one step, whatever the loop does meanwhile; then a line at a time, with no
        # object per log held: see offset_checkpoint.Encoder)
        for tp in sorted(logs):
            log = logs.get(tp)
            if log is not None:  # (else gone meanwhile)
                d = self._dir_of_log(tp, log)
                out = rows.get(d) or rows.setdefault(d, offset_checkpoint.Encoder())
                out.add(tp[0], tp[1], log.high_watermark)
        try:
            for d, out in rows.items():
                data = out.bytes()
                if not out.count and d not in self._hw_written:
                    continue  # no log and no file: an absent file says the same
                digest = _digest(data)
                if self._hw_written.get(d) != digest:
                    write_atomic(self.fs, posixpath.join(d, REPLICATION_OFFSET_CHECKPOINT), data)
                    self._hw_written[d] = digest
        except OSError as e:
            if not self._hw_failing:
                logger.warning("writing %s failed: %s; retried periodically", REPLICATION_OFFSET_CHECKPOINT, e)
            self._hw_failing = True
            self._hw_dirty = True
            return
        self._hw_failing = False

    def high_watermarks_due(self, now_ms: int) -> bool:
        """replica.high.watermark.checkpoint.interval.ms has passed since the last time this or
        maybe_checkpoint_high_watermarks said so, and a high watermark or the set of logs changed: the
        caller runs checkpoint_high_watermarks (the broker, in a worker thread: its fsyncs do not
        hold the event loop; it then calls flush_dirty with checkpoint False)."""
        if now_ms - self._last_hw_checkpoint_ms < self.hw_checkpoint_interval_ms:
            return False
        self._last_hw_checkpoint_ms = now_ms
        return self._hw_dirty

    def maybe_checkpoint_high_watermarks(self, now_ms: int) -> bool:
        """checkpoint_high_watermarks once replica.high.watermark.checkpoint.interval.ms
        has passed since the last one (flush_dirty calls it)."""
        if now_ms - self._last_hw_checkpoint_ms < self.hw_checkpoint_interval_ms:
            return False
        self._last_hw_checkpoint_ms = now_ms
        if self._hw_dirty:  # else no high watermark set and no log come or gone since the last one
            self.checkpoint_high_watermarks()
        return True

    # ------------------------------------------------ log start checkpoint

    def checkpoint_log_starts(self) -> int:
        """Write the log-state.checkpoint of every log whose log start moved since its last one
        (PartitionLog.write_log_start: a follower following its leader's log start, DeleteRecords),
        as Kafka's kafka-log-start-offset-checkpoint task every
        log.flush.start.offset.checkpoint.interval.ms. The broker runs it in a worker thread: each
        log's lock is held only for its rename. A failure is logged once per pass and retried at the
        next; once close() began the pass stops (each log's close writes it). -> logs written."""
        n = 0
        failed = False
        for log in list(self.logs.values()):
            if self._closing:
                break
            if not log.start_unwritten:
                continue
            try:
                n += log.write_log_start()
            except OSError as e:
                if not failed:
                    logger.warning("%s: writing its log start offset failed: %s; retried", log.dir, e)
                failed = True
        return n

    def _dir_of_log(self, tp: tuple[str, int], log: PartitionLog) -> str:
        if self._dir_of is None:
            return self.log_dirs[0]
        return self._dir_of.get(tp) or posixpath.dirname(log.dir)

    def get(self, topic: str, partition: int) -> PartitionLog | None:
        return self.logs.get((topic, partition))

    def topic_id(self, topic: str, partition: int) -> bytes | None:
        """The topic id the log's partition.metadata records (None: none recorded)."""
        tp = (topic, partition)
        if tp in self._other_ids:
            return self._other_ids[tp]
        if tp in self.logs or tp in self.offline:
            return self._topic_ids.get(topic)
        return None

    def _set_topic_id(self, tp: tuple[str, int], topic_id: bytes | None) -> None:
        ids = self._topic_ids
        if tp[0] not in ids:
            ids[tp[0]] = topic_id
        if ids[tp[0]] == topic_id:
            self._other_ids.pop(tp, None)
        else:
            self._other_ids[tp] = topic_id

    def _drop_topic_id(self, tp: tuple[str, int]) -> None:
        """``tp`` left the manager (its log and offline entry gone first)."""
        self._other_ids.pop(tp, None)
        topic = tp[0]
        if topic not in self._by_topic and not any(t == topic for t, _ in self.offline):
            self._topic_ids.pop(topic, None)

    def get_or_create(self, topic: str, partition: int, config: LogConfig | None = None,
                      now_ms: int = 0, topic_id: bytes | None = None,
                      key: tuple[str, int] | None = None, defer_files: bool = False) -> PartitionLog:
        """The log of topic-partition, created if missing; a new log records ``topic_id``
        in its partition.metadata before anything is appended (as Kafka). ``key``: the caller's
        (topic, partition) tuple, kept as this manager's key of a new log (the broker's tables
        then hold one tuple per partition between them). ``defer_files`` (with a ``topic_id``): a
        new log's directory and segment file are made by the background pass that writes its
        partition.metadata (write_pending_state), or by its first use if that comes first, not
        here (the event loop does not wait for the disk; PartitionLog.make_files)."""
        tp = key or (topic, partition)  # (one key object for every table of the manager)
        if self._moves and tp not in self.logs:  # a deleted log's directory of that name goes first
            for d in self.log_dirs:
                move = self._moves.get(posixpath.join(d, f"{topic}-{partition}"))
                if move is not None:
                    self._move_away(move)
        with self.lock:
            log = self.logs.get(tp)
            if log is None:
                damaged = self.offline.get(tp)
                if damaged is not None:
                    raise KafkaStorageError(f"partition {topic}-{partition} is offline: {damaged}")
                if self._closing:  # (close's list of logs is taken: this one would not be closed)
                    raise LogClosedError(f"partition {topic}-{partition}: the logs are closing")
                d = min(self.log_dirs, key=lambda x: self._dir_counts[x])  # fewest partitions
                log = PartitionLog(self.fs, posixpath.join(d, f"{topic}-{partition}"),
                                   config or self._config_for(topic), now_ms=now_ms, clean_shutdown=False, new=True,
                                   defer_files=defer_files and topic_id is not None)
                if topic_id is not None:  # written soon, off the caller's path (write_pending_state)
                    log.pending_topic_id = topic_id
                    self._unwritten_ids[log] = None
                self._add(tp, log, d)
                self._set_topic_id(tp, topic_id)
            elif config is not None:
                log.config = config
            return log

    @property
    def state_pending(self) -> bool:
        """Some new log's files, partition.metadata or first leader epoch are still to be written,
        a roll's fsyncs and producer snapshot, or a deleted log's directory to be renamed away
        (write_pending_state)."""
        return bool(self._unwritten_ids or self._moves)

    def write_pending_state(self) -> int:
        """Rename away the directories of the deleted logs (delete(defer=True)), then make the
        directory and segment file (get_or_create(defer_files=True)) and write the partition.metadata
        and the leader-epoch-checkpoint of the new logs that hold them only in memory (Kafka's
        UnifiedLog schedules the first one's flush after creating a log; the broker runs this in a
        background thread, so a large creation's or deletion's file-system calls and fsyncs do not
        hold the event loop). A failure is logged once per pass; the log keeps it pending (its
        first append or its close writes it, or the next pass). Then what rolls left of each log
        (PartitionLog.flush_rolled: Kafka's "flush-log" task of a roll). Returns how many logs
        wrote their partition.metadata or leader epochs."""
        for move in list(self._moves.values()):
            self._move_away(move)
        pending = self._unwritten_ids
        n = 0
        failed = 0
        # (each log taken out just before its turn: one the event loop puts back meanwhile, a roll
        # since, is looked at by the next pass, never lost; one that failed, ENOSPC say, is put
        # back for the next pass and the others go on: another log dir may have space)
        for log in list(pending):
            if self._closing:  # (each log's close writes what it still lacks)
                break
            pending.pop(log, None)
            try:
                n += log.write_pending_state()
                log.flush_rolled()
            except KafkaStorageError as e:
                if not failed:
                    logger.warning("%s; retried", e)
                failed += 1
                pending[log] = None
        if failed > 1:
            logger.warning("%d logs' pending state not written; retried", failed)
        return n

    @property
    def flushes_due(self) -> bool:
        """Some log asked its flusher for a flush (run_requested_flushes)."""
        return bool(self._flushes)

    def run_requested_flushes(self) -> list[tuple[str, int]]:
        """The flushes the logs asked for (PartitionLog.run_requested_flush; the flusher runs this
        in a worker thread, as Kafka's kafka-log-flusher), each log taken out just before its turn;
        a failure is logged and the log (offline then) left. -> the partitions of the logs looked
        at, whose waiting answers (produces at flush.messages) may now go."""
        pending = self._flushes
        done = []
        for log in list(pending):
            if self._closing:  # (each log's close flushes it)
                break
            pending.pop(log, None)
            try:
                log.run_requested_flush()
            except KafkaStorageError as e:
                logger.warning("%s", e)
            except Exception:  # (a defect: the other logs are still flushed, and this one's waits woken)
                logger.exception("%s: flush failed", log.dir)
            tp = parse_dir_name(posixpath.basename(log.dir))
            if tp is not None:
                done.append(tp)
        return done

    def _add(self, tp: tuple[str, int], log: PartitionLog, d: str) -> None:
        self.logs[tp] = log
        parts = self._by_topic.get(tp[0])
        if parts is None:
            parts = self._by_topic[tp[0]] = []
        if len(parts) <= tp[1]:
            parts.extend([None] * (tp[1] + 1 - len(parts)))
        parts[tp[1]] = log
        if self._dir_of is not None:
            self._dir_of[tp] = d
        self._dir_counts[d] = self._dir_counts.get(d, 0) + 1
        log.set_activity_listener(self._watch_cb)
        log.flush_observer = self.flush_observer
        log.failure_listener = self._log_failed_cb
        self._watch(log)  # (its files are open: parked once found idle)
        self._hw_dirty = True

    def _log_failed(self, log: PartitionLog, why: str) -> None:
        """A log went offline after its load: its log dir has failed (reported once per dir)."""
        d = posixpath.dirname(log.dir)
        d = next((x for x in self.log_dirs if posixpath.normpath(x) == posixpath.normpath(d)), d)
        with self.lock:
            if d in self.failed_dirs:
                return
            self.failed_dirs.add(d)
        logger.error("Error while writing to the log dir %s: %s", d, why)
        if self.on_dir_failure is not None:
            self.on_dir_failure(d, why)

    def _watch(self, log: PartitionLog) -> None:
        """A log was used (a parked file opened again, its high watermark set): the periodic
        work looks at it until it is idle again."""
        self._active[log] = None
        self._whole[log] = None
        self._hw_dirty = True
        # (leader epochs to write, a roll's fsyncs and producer snapshot: write_pending_state)
        if log.epochs_unwritten >= EPOCHS_SOON or log.rolled_pending:
            self._unwritten_ids[log] = None
        if log.flush_requested:
            flusher = self.flusher
            if flusher is None:
                log.run_requested_flush()
            else:
                self._flushes[log] = None
                flusher()

    def topic_logs(self, topic: str) -> Mapping[int, PartitionLog]:
        """partition -> log of the topic's logs here."""
        return {p: log for p, log in enumerate(self._by_topic.get(topic, ())) if log is not None}

    def assign_topic_id(self, topic: str, partition: int, topic_id: bytes) -> None:
        """Record the topic id of a log that has none (written by an older odradek)."""
        log = self.logs[(topic, partition)]
        partition_metadata.write(self.fs, log.dir, topic_id)
        self._set_topic_id((topic, partition), topic_id)
        self.unreadable.discard((topic, partition))

    def _take(self, topic: str, partition: int) -> PartitionLog | None:
        """Take the partition's log out of the manager (None if it has none)."""
        with self.lock:
            self.unreadable.discard((topic, partition))
            log = self.logs.pop((topic, partition), None)
            if log is not None:
                parts = self._by_topic.get(topic)
                if parts is not None and partition < len(parts):
                    parts[partition] = None
                    while parts and parts[-1] is None:
                        parts.pop()
                    if not parts:
                        del self._by_topic[topic]
                d = self._dir_of.pop((topic, partition), None) if self._dir_of is not None else self.log_dirs[0]
                if d is not None:
                    self._dir_counts[d] -= 1
                self._unwritten_ids.pop(log, None)
                self._flushes.pop(log, None)
                log.set_activity_listener(None)  # (a deleted log's reads in flight are not periodic work)
                log.failure_listener = None
                self._active.pop(log, None)
                self._whole.pop(log, None)
                self._hw_dirty = True
            self._drop_topic_id((topic, partition))
            return log

    def _take_offline(self, topic: str, partition: int) -> str | None:
        """Take an offline partition out of the manager: its directory (None if not offline)."""
        with self.lock:
            if (topic, partition) not in self.offline:
                return None
            del self.offline[(topic, partition)]
            self._drop_topic_id((topic, partition))
            self.unreadable.discard((topic, partition))
            return self._offline_dirs.pop((topic, partition))

    def offline_list(self) -> list[tuple[str, int]]:
        """The offline partitions (damaged at load), not in ``list()``."""
        return sorted(self.offline)

    def mark_stray(self, topic: str, partition: int) -> str | None:
        """Take the log out of service, close it and rename its directory
        `topic-partition.<id>-stray` (Kafka's name for the log of a replica the metadata
        does not give this broker); its files stay on disk. Returns the new directory.
        An offline (damaged) partition's directory is renamed the same way, untouched."""
        path = self._take_offline(topic, partition)
        if path is not None:
            stray = posixpath.join(posixpath.dirname(path), renamed_dir_name(topic, partition, STRAY_SUFFIX))
            self.fs.rename(path, stray)
            self.fs.fsync_dir(posixpath.dirname(path))
            return stray
        log = self._take(topic, partition)
        if log is None:
            return None
        with log.lock:
            log.close()  # (writes a pending partition.metadata: a stray keeps its topic id)
            stray = posixpath.join(posixpath.dirname(log.dir), renamed_dir_name(topic, partition, STRAY_SUFFIX))
            self.fs.rename(log.dir, stray)
            self.fs.fsync_dir(posixpath.dirname(log.dir))
        return stray

    def update_config(self, topic: str, config: LogConfig) -> None:
        self.update_configs({topic: config})

    def update_configs(self, configs: Mapping[str, LogConfig]) -> int:
        """Give every log of each topic in ``configs`` that topic's config, in one pass over
        the logs (not one per topic: start-up applies every topic's config at once). A log
        whose config is already equal is left as it is. Returns how many logs changed."""
        changed = 0
        for t, cfg in configs.items():
            seen, differs = None, False  # (a topic's logs share their config: compared once)
            for log in self._by_topic.get(t, ()):
                if log is None or log.config is cfg:
                    continue
                if log.config is not seen:
                    seen = log.config
                    differs = cfg != seen
                if differs:
                    log.config = cfg
                    changed += 1
        return changed

    def delete(self, topic: str, partition: int, defer: bool = False) -> bool:
        """Take the partition out of service and rename its directory to
        `topic-partition.<id>-delete`; as Kafka's LogManager, the directory is removed
        log.segment.delete.delay.ms later (release_deleted, then remove_dirs), and a
        restart before that picks the deletion up again. An offline (damaged) partition's
        directory goes the same way. ``defer``: the rename is left to the background pass
        (write_pending_state; a new log of the same directory, or close, does it first); a crash
        before it leaves the directory as it was, which the next start sets aside as a stray (its
        topic is gone from the metadata), as Kafka's broker does with a log whose deletion it did
        not get to."""
        path = self._take_offline(topic, partition)
        if path is not None:
            dead = posixpath.join(posixpath.dirname(path), renamed_dir_name(topic, partition, DELETE_SUFFIX))
            self.fs.rename(path, dead)
            with self.lock:
                self._doomed.append([None, dead, None])
            return True
        log = self._take(topic, partition)
        if log is None:
            return False
        log.forget_writes()  # (the directory goes: nothing to record)
        move = _Move(log, (topic, partition))
        if defer:
            with self.lock:
                self._moves[log.dir] = move
        else:
            self._move_away(move)
        return True

    def _move_away(self, move: _Move) -> None:
        """A deleted log's directory renamed to its `-delete` name, once: by the first thread that
        asks (another waits for it). A log whose files were still to be made has none: they never are
        (PartitionLog.forget_files). A failed rename is a failure of its log dir (Kafka's asyncDelete)."""
        log = move.log
        with move.lock:
            if move.done:
                return
            move.done = True
            # (the name's random part is drawn here: a system call, off the loop with the rest)
            dead = posixpath.join(posixpath.dirname(log.dir), renamed_dir_name(*move.tp, DELETE_SUFFIX))
            try:
                with log.lock:
                    renamed = not log.forget_files()
                    if renamed:
                        if not log.hollow:  # (a hollow log has no file open, and none to read)
                            log.unpark_files()  # opened by their paths before these change
                        self.fs.rename(log.dir, dead)  # the open files stay usable (reads in flight)
            except OSError as e:
                renamed = False
                logger.error("could not rename the deleted log directory %s: %s", log.dir, e)
                self._log_failed(log, f"renaming {log.dir} to {dead} failed: {e}")
            with self.lock:
                if self._moves.get(log.dir) is move:
                    del self._moves[log.dir]
                if renamed:
                    self._doomed.append([log, dead, None])

    def delete_many(self, tps: list[tuple[str, int]], defer: bool = False) -> None:
        """delete() of several partitions. What the background writer (write_pending_state) has
        still to write for them is dropped first, all at once: it holds a log's lock across that
        log's fsyncs, and a delete waits for the lock, so deleting many new partitions one by one
        went at the writer's pace, the event loop blocked meanwhile (the writer takes each next
        log before the loop's next delete). (The flags only drop without the lock: the writer, if
        it holds the log, writes what it read, then clears them.)"""
        for tp in tps:
            log = self.logs.get(tp)
            if log is not None:
                log.forget_writes()  # (the directory goes: nothing to record)
        for tp in tps:
            self.delete(*tp, defer=defer)

    def take_released(self, now_ms: int) -> Released:
        """Let go of what has waited file.delete.delay.ms: segments out of their logs, and deleted
        partitions (after the broker's log.segment.delete.delay.ms), counted from the first call
        that saw them; their files are closed without their close(2)s (detach_retired,
        detach_files). The broker calls this every 100 ms on its event loop and hands the result to
        let_go in a worker thread: closing a removed file's last descriptor and removing a
        directory free their disk space, which on a disk takes ~1.5 s a GiB. The files are detached
        here, on the loop, so that a fetch's sendfile burst (on the loop) never holds a number the
        worker closes. Should a step raise, what was let go of already is kept and handed over
        by the next call (its descriptors detached: nobody else would close them), and the deleted
        partitions not yet let go of wait for it too."""
        left = self._unreleased
        self._unreleased = Released([], [])
        fds, dirs = left.fds, left.dirs
        due: list[list] = []
        try:
            for log in list(self._active):  # (a log with retired segments stays active until they go)
                fds += log.detach_retired(now_ms)
            delay = self.default_config.file_delete_delay_ms
            with self.lock:
                keep = []
                for entry in self._doomed:
                    if entry[2] is None:
                        entry[2] = now_ms
                    (due if now_ms - entry[2] >= delay else keep).append(entry)
                self._doomed = keep
            while due:
                log, dead, _ = due[0]
                if log is not None:
                    fds += log.detach_files()
                dirs.append(dead)
                del due[0]
        except BaseException:
            self._unreleased = Released(fds, dirs)
            if due:
                with self.lock:
                    self._doomed[:0] = due
            raise
        return Released(fds, dirs)

    def release_deleted(self, now_ms: int) -> list[str]:
        """take_released with the descriptors closed here; -> the deleted partitions' directories,
        which remove_dirs then removes."""
        released = self.take_released(now_ms)
        close_detached(released.fds)
        return released.dirs

    def let_go(self, released: Released) -> None:
        """take_released's descriptors closed and directories removed (in a worker thread)."""
        close_detached(released.fds)
        self.remove_dirs(released.dirs)

    def remove_dirs(self, dirs: list[str]) -> None:
        for d in dirs:
            try:
                self.fs.rmtree(d)
            except OSError as e:  # as Kafka: logged; the next start tries again
                logger.warning("could not remove deleted log directory %s: %s", d, e)

    def disk_space(self, log_dir: str) -> tuple[int, int]:
        """(total, usable) bytes of the disk holding log_dir (-1, -1 when unknown)."""
        return self.fs.disk_space(log_dir)

    def list(self) -> list[tuple[str, int]]:
        return sorted(self.logs)

    def __iter__(self) -> Iterator[PartitionLog]:
        return iter(list(self.logs.values()))

    # periodic hooks, called by the broker with its clock
    def apply_retention(self, now_ms: int) -> int:
        """Retention of every log with data (a hollow log is empty: nothing to delete). The broker
        runs it in a background thread, as Kafka's LogManager runs it on its scheduler thread
        (kafka-log-retention), never on a request thread: deleting on many logs at once is a roll,
        a checkpoint and file removals each, with their fsyncs (minutes for 10,000 logs on a busy
        disk), which would hold the event loop. Each log's segments are taken out under its own
        lock, as its appends and reads are (PartitionLog.cut_by_retention), and its files written
        and removed after (finish_cut: the event loop's appends to and reads of that log do not wait
        for them); a log taken out of the manager meanwhile (deleted, made stray) is left alone, and
        once close() began the pass stops at its next log (the close of a log in progress waits for
        its cut). A log whose files could not be written or removed is logged (what is left is the
        same to a load), and the pass goes on. Returns how many segments went."""
        total = 0
        for log in list(self._whole):
            with log.lock:
                if self._closing:
                    break
                if log not in self._whole:  # (taken out before its close or rename, which wait for the lock)
                    continue
                cut = log.cut_by_retention(now_ms)
                start = log.log_start_offset
            if cut is None:
                continue
            try:
                log.finish_cut(cut)
            except OSError as e:
                if log in self._whole:  # (else renamed away or closed meanwhile: nothing to finish)
                    logger.warning("%s: writing or removing files after a retention deletion failed: %s; "
                                   "the log start offset is kept in memory", log.dir, e)
            logger.info("%s: deleted %d segment(s) by retention; log start offset now %d",
                        posixpath.basename(log.dir), cut.count, start)
            total += cut.count
        return total

    def remove_expired_producers(self, now_ms: int, expiration_ms: int) -> int:
        """producer.id.expiration.ms over the logs that may hold producer state (not the hollow ones)."""
        return sum(log.remove_expired_producers(now_ms, expiration_ms) for log in list(self._whole))

    def observe_flushes(self, observer: FlushObserver | None) -> None:
        """From now on ``observer`` times each flush of every log (the broker's metrics)."""
        self.flush_observer = observer
        for log in list(self.logs.values()):
            log.flush_observer = observer

    def flush_dirty(self, now_ms: int, checkpoint: bool = True) -> int:
        """The flush.ms policy of every log, and (``checkpoint``) the high-watermark checkpoint when
        due (the broker calls this at least every second, and writes the checkpoint apart: see
        high_watermarks_due). -> the logs flushed."""
        steps = self.flush_dirty_steps(now_ms, checkpoint)
        try:
            while True:
                next(steps)
        except StopIteration as done:
            return done.value

    def flush_dirty_steps(self, now_ms: int, checkpoint: bool = True) -> Generator[None, None, int]:
        """flush_dirty as a generator that yields after every FLUSH_CHECK_STEP logs (the broker's
        periodic task serves its clients between steps); a log taken out of the manager meanwhile
        is left alone."""
        n = 0
        active = self._active
        for i, log in enumerate(list(active)):
            if i and i % FLUSH_CHECK_STEP == 0:
                yield
            if log not in active:  # (taken out, or found idle by another pass, since the list was made)
                continue
            n += log.maybe_flush(now_ms)
            # (a use in another thread remakes it under its lock, then _watch; a log whose lock a
            # thread holds, fsyncing, is looked at in the next call: the loop does not wait for it)
            if log.idle and log.lock.acquire(blocking=False):
                try:
                    if log.idle:
                        self._active.pop(log, None)
                        if log.hollow:
                            self._whole.pop(log, None)
                finally:
                    log.lock.release()
        if checkpoint:
            self.maybe_checkpoint_high_watermarks(now_ms)
        return n

    def checkpoint_all(self) -> None:
        """Persist high watermarks and log start offsets."""
        for log in self:
            log.checkpoint()
        self.checkpoint_high_watermarks()

    def clean_once(self, now_ms: int):
        """One compaction pass on the dirtiest log; run from a background thread."""
        done = self.cleaner.run_once(list(self), now_ms)
        if done is not None and not done[1].aborted:
            cleaned, r = done
            logger.info("%s: cleaned offsets [%d, %d): %d segment(s) rewritten, %d -> %d bytes, %d record(s) "
                        "removed", cleaned.dir, r.first_dirty_offset, r.end_offset, r.segments_rewritten,
                        r.bytes_before, r.bytes_after, r.records_removed)
        return done

    def start_cleaner(self, clock_ms: Callable[[], int], interval_s: float = 15.0) -> None:
        """Run clean_once in a daemon thread until close(); the broker passes its clock."""
        if getattr(self, "_cleaner_thread", None):
            return
        self._cleaner_stop = threading.Event()

        def loop():
            while not self._cleaner_stop.is_set():
                if self.clean_once(clock_ms()) is None:  # nothing to do: wait
                    self._cleaner_stop.wait(interval_s)

        self._cleaner_thread = threading.Thread(target=loop, name="log-cleaner", daemon=True)
        self._cleaner_thread.start()

    def stop_cleaner(self) -> None:
        t = getattr(self, "_cleaner_thread", None)
        if t is not None:
            self._cleaner_stop.set()
            t.join()
            self._cleaner_thread = None

    def close(self, broker_epoch: int = -1, threads: int = 1) -> None:
        """Close every log; deleted partitions still waiting out their delay keep their
        directories, which the next start removes after the delay. Then each log dir whose
        logs all closed records the clean shutdown with ``broker_epoch`` (Kafka's LogManager
        shutdown): a dir holding an offline (damaged) partition or a log that failed to
        close records none, so the next start registers as after a crash.

        ``threads``: how many logs close at once (Kafka closes a dir's logs in a pool of
        num.recovery.threads.per.data.dir threads). A log's close is a handful of fsyncs, each a
        wait for the disk; done one log after another they add up (~30 s for 1,100 logs with
        data on a busy disk), while the disk serves the fsyncs of logs closing at once together
        (one journal commit or device cache flush covers several). Each log still writes and fsyncs exactly what it would alone, under its
        own lock, and the clean-shutdown markers come only after every log closed. 1 (one after
        another, in order) on a file system whose order matters: the fault-injecting one of tests.
        A background pass of write_pending_state running meanwhile stops at its next log: it would
        write, one log after another, what the closes write at once (and the leader epochs of empty
        logs, which a close leaves out, after the clean-shutdown markers)."""
        self._closing = True
        self.stop_cleaner()
        for move in list(self._moves.values()):  # (deletes not yet carried out)
            self._move_away(move)
        self.checkpoint_high_watermarks()  # (Kafka's ReplicaManager does at its shutdown)
        failed = {posixpath.normpath(posixpath.dirname(p)) for p in self._offline_dirs.values()}
        logs = list(self)
        if threads > 1 and len(logs) > 1:
            with ThreadPoolExecutor(min(threads, len(logs)), thread_name_prefix="log-close") as pool:
                closed = list(pool.map(PartitionLog.close, logs))
        else:
            closed = [log.close() for log in logs]
        for log, ok in zip(logs, closed):
            if not ok:
                failed.add(posixpath.normpath(posixpath.dirname(log.dir)))
        with self.lock:
            doomed, self._doomed = self._doomed, []
        for log, _, _ in doomed:
            if log is not None:
                log.close_files()
        close_detached(self._unreleased.fds)  # (a take_released that raised: never handed over)
        self._unreleased = Released([], [])
        for d in self.log_dirs:
            if posixpath.normpath(d) in failed:
                continue
            try:
                clean_shutdown_file.write(self.fs, d, broker_epoch)
            except OSError as e:  # as Kafka: logged; the next start is then an unclean one
                logger.warning("could not write %s in %s: %s", clean_shutdown_file.FILE, d, e)
