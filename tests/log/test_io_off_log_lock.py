"""The background threads (retention, the cleaner's swap) hold a log's lock only for what changes
the log in memory and for renames: its fsyncs and file removals come after, so the event loop's
appends, reads and leadership changes of that log never wait for the disk (issue 27). A kill -9 at
any of those steps leaves a log a load makes whole (the cleaner's: test_log_crash's
test_crash_at_every_step_of_a_group_swap)."""
from __future__ import annotations

import pytest

from odradek.log import LogConfig, SimulatedCrash
from odradek.log.compaction import LogCleaner
from odradek.log.leader_epoch_cache import LeaderEpochCache
from odradek.log.log_manager import LogManager

from log_helpers import SteppedFS, batch, read_all

CFG = LogConfig(segment_bytes=10_000, retention_ms=1000)
NOW = 100_000  # the first three segments' records are 99 s old, past retention.ms


def retained_log(fs: SteppedFS):
    """A log of three closed segments of three records, each of its own leader epoch, old enough
    for retention, and an active one of a recent record (epoch 3); all flushed."""
    lm = LogManager("/data", fs=fs, default_config=CFG)
    log = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    for epoch in range(3):
        for i in range(3):
            log.append(batch([b"v%d-%d" % (epoch, i)], ts=1000), now_ms=1000, leader_epoch=epoch)
        log.roll(1000)
    log.append(batch([b"recent"], ts=NOW), now_ms=NOW, leader_epoch=3)
    log.high_watermark = log.log_end_offset
    log.flush()
    lm.write_pending_state()
    return lm, log


def epochs_of(log) -> list[tuple[int, int]]:
    return [(e.epoch, e.start_offset) for e in log.epochs.entries]


def epochs_of_batches(log) -> list[tuple[int, int]]:
    cache = LeaderEpochCache()
    for seg in log.segments:
        for _, h in seg.batches():
            cache = cache.assign(h.partition_leader_epoch, h.base_offset)
    return [(e.epoch, e.start_offset) for e in cache.entries]


def test_retention_holds_the_logs_lock_across_no_fsync_or_remove():
    """The retention pass takes the segments out of the log under its lock, renaming their files
    to .deleted there (as Kafka); the leader-epoch-checkpoint and log-state.checkpoint are written
    and fsynced, and the .deleted files removed, with the lock free for the event loop (it holds
    it only to rename each written file into place)."""
    fs = SteppedFS()
    lm, log = retained_log(fs)
    fs.watch = log.lock
    assert lm.apply_retention(NOW) == 3
    assert {what for what, _ in fs.under_lock} == {"rename"}
    assert sum(path.endswith((".log", ".index", ".timeindex")) for _, path in fs.under_lock) == 9
    free = [what for what, _ in fs.lock_free]
    assert free.count("fsync") == 2 and free.count("fsync_dir") == 2 and free.count("remove") == 9
    assert log.log_start_offset == 9 and epochs_of(log) == [(3, 9)]
    names = fs.listdir("/data/t-0")
    assert not [n for n in names if n.endswith((".deleted", ".tmp"))], names
    assert bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].durable) == b"0\n1\n3 9\n"
    assert b"log_start_offset=9\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].durable)
    fs.watch = None
    # nothing is written again at the close: the files hold what the log does
    fsyncs = fs.fsyncs
    log.append(batch([b"more"], ts=NOW), now_ms=NOW, leader_epoch=3)
    lm.close()
    again = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)
    log2 = again.get("t", 0)
    assert log2.log_start_offset == 9 and epochs_of(log2) == [(3, 9)]
    assert [v for _, _, v in read_all(log2)] == [b"recent", b"more"]
    assert fs.fsyncs > fsyncs
    again.close()


def test_a_checkpoint_written_meanwhile_is_not_overwritten_by_the_retention_pass():
    """A log-state.checkpoint written after the retention's cut (by the background pass after a roll
    on the event loop) holds the newer state: the retention pass, finishing without the lock, drops
    its own."""
    fs = SteppedFS()
    lm, log = retained_log(fs)
    with log.lock:
        cut = log.cut_by_retention(NOW)
    assert cut is not None and cut.checkpoint is not None
    log.append(batch([b"x"], ts=NOW), now_ms=NOW, leader_epoch=3)
    log.roll(NOW)
    lm.write_pending_state()  # writes log-state.checkpoint: the new recovery point, and the new log start
    written = bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert b"log_start_offset=9\n" in written and b"recovery_point=11\n" in written
    log.finish_cut(cut)
    assert bytes(fs.files["/data/t-0/log-state.checkpoint"].data) == written
    assert not [n for n in fs.listdir("/data/t-0") if n.endswith((".deleted", ".tmp"))]
    lm.close()


@pytest.mark.parametrize("mode", ["lost", "kept"])
def test_a_kill_at_every_step_of_a_retention_pass_leaves_a_log_that_loads_whole(mode):
    """A crash at each fsync, rename and remove of a retention pass (lost: only what was fsynced is
    there; kept: kill -9, the page cache is kept): the load finds the log without a prefix of its
    old segments, starting at the first one left (never a hole, never a record lost above it), its
    leader epochs cut there, no .deleted or temporary file left; the next pass finishes the job."""
    fs = SteppedFS()
    lm, log = retained_log(fs)
    expected = read_all(log)
    fs.steps = 0
    assert lm.apply_retention(NOW) == 3
    total = fs.steps
    lm.close()
    assert total >= 15
    starts = set()
    for n in range(total + 1):
        fs = SteppedFS(seed=n)
        lm, log = retained_log(fs)
        fs.steps, fs.crash_at = 0, n
        try:
            lm.apply_retention(NOW)
        except SimulatedCrash:
            pass
        fs2 = fs.restart(mode, seed=n)
        lm2 = LogManager("/data", fs=fs2, default_config=CFG)
        log2 = lm2.get("t", 0)
        start = log2.log_start_offset
        starts.add(start)
        assert start in (0, 3, 6, 9) and log2.segments[0].base_offset == start, n
        assert read_all(log2) == [r for r in expected if r[0] >= start], n
        assert epochs_of(log2) == epochs_of_batches(log2), n
        names = fs2.listdir("/data/t-0")
        assert not [name for name in names if name.endswith((".deleted", ".tmp"))], (n, names)
        log2.high_watermark = log2.log_end_offset
        lm2.apply_retention(NOW)
        assert log2.log_start_offset == 9
        lm2.close()
        lm3 = LogManager("/data", fs=fs2.restart("lost"), default_config=CFG)
        assert lm3.get("t", 0).log_start_offset == 9 and epochs_of(lm3.get("t", 0)) == [(3, 9)]
        lm3.close()
    assert starts == {0, 3, 6, 9}


def test_the_cleaners_swap_holds_the_logs_lock_only_for_renames_and_one_directory_fsync():
    """A compaction pass: the cleaned copy is read whole (CRCs, its indexes built) and its indexes
    and txn index written and fsynced before the log's lock is taken; under it only renames and the
    one directory fsync that makes the old segments' set-aside durable before the commit; the
    commit's directory fsync, the .deleted removes and the cleaner checkpoint after it."""
    from test_log_crash import check_group_reopen, group_workload

    fs = SteppedFS()
    log, original = group_workload(fs)
    fs.watch = log.lock
    res = LogCleaner().clean(log, now_ms=3000)
    assert res.segments_written >= 2 and res.segments_rewritten > res.segments_written
    under = [what for what, _ in fs.under_lock]
    assert set(under) == {"rename", "fsync_dir"} and under.count("fsync_dir") == res.segments_written
    free = [what for what, _ in fs.lock_free]
    assert free.count("read") > 0 and free.count("fsync") >= 2 * res.segments_written
    assert free.count("fsync_dir") >= 2 * res.segments_written and free.count("remove") > 0
    fs.watch = None
    assert b"cleaner_checkpoint=%d\n" % log.cleaner_checkpoint in bytes(
        fs.files[log.dir + "/log-state.checkpoint"].durable)
    log.close()
    check_group_reopen(fs.restart("lost"), original)


def test_a_swap_given_up_after_the_copy_was_checked_leaves_none_of_its_files():
    """The log changes while the cleaner checks its copy without the lock (here DeleteRecords takes
    the group's first segment away): the swap is given up under the lock, the copy's index and txn
    index files removed before the cleaner removes the copy itself (a load finding a
    .txnindex.cleaned without it would install it), and the log is as it was."""
    from test_log_crash import group_workload

    class Racing(SteppedFS):
        log = None

        def step(self, what, path):
            super().step(what, path)
            if what == "fsync" and path.endswith(".index.cleaned") and self.log is not None:
                log, self.log = self.log, None
                log.delete_records(log.segments[1].base_offset)

    fs = Racing()
    log, original = group_workload(fs)
    before = read_all(log, start=log.segments[1].base_offset)
    fs.log = log
    res = LogCleaner().clean(log, now_ms=3000)
    assert res.aborted and res.segments_written == 0
    assert not [n for n in fs.listdir(log.dir) if n.endswith((".cleaned", ".deleted", ".swapdeleted"))]
    assert read_all(log) == before
    log.close()


def test_a_retention_pass_finishing_after_its_partition_was_deleted_and_made_again_leaves_the_new_log_alone():
    """The partition is deleted (its directory renamed away) and made again at the same path
    between the retention's cut and the writes it finishes without the lock: nothing of the old
    log's is written or removed in the new directory (its log-state.checkpoint would have given
    the new log the old one's log start: a load would have cut the new log's records)."""
    fs = SteppedFS()
    lm, log = retained_log(fs)
    with log.lock:
        cut = log.cut_by_retention(NOW)
    assert cut is not None and cut.checkpoint is not None and cut.epochs is not None
    lm.delete("t", 0)
    new = lm.get_or_create("t", 0, topic_id=b"\x08" * 16)
    new.append(batch([b"new"], ts=NOW), now_ms=NOW, leader_epoch=0)
    new.flush()
    lm.write_pending_state()
    before = {name: bytes(fs.files["/data/t-0/" + name].data) for name in fs.listdir("/data/t-0")}
    log.finish_cut(cut)
    assert {name: bytes(fs.files["/data/t-0/" + name].data) for name in fs.listdir("/data/t-0")} == before
    lm.close()
    again = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)
    assert again.get("t", 0).log_start_offset == 0 and [v for _, _, v in read_all(again.get("t", 0))] == [b"new"]
    again.close()
