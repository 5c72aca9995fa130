"""load_latest_snapshot: the newest readable snapshot in the log's range [first segment's base, log
end]; the others deleted (Kafka's truncateAndReload); a file another thread removed between the listing
and the read (the background pass's prune, rev-i 5) is skipped, never an error."""
from __future__ import annotations

from odradek.log import FaultyFileSystem
from odradek.log.producer_state import ProducerStateTable, list_snapshots, load_latest_snapshot, snapshot_path

D = "/data/t-0"


class ListsAGhost(FaultyFileSystem):
    """A directory listing that still names a snapshot another thread has just removed."""

    def listdir(self, path: str) -> list[str]:
        return super().listdir(path) + ["00000000000000000250.snapshot"]


def write_snapshots(fs: FaultyFileSystem, offsets) -> None:
    fs.makedirs(D)
    for off in offsets:
        f = fs.open(snapshot_path(D, off))
        f.append(ProducerStateTable().to_bytes({}))
        f.close()


def test_only_a_snapshot_within_the_logs_range_is_taken_and_the_others_go():
    fs = FaultyFileSystem()
    write_snapshots(fs, (3, 6, 9, 20))
    off, _, _ = load_latest_snapshot(fs, D, 10, 6)
    assert off == 9
    assert list_snapshots(fs, D) == [6, 9]  # below the first segment and past the log end: gone


def test_none_below_the_first_segment_is_taken():
    fs = FaultyFileSystem()
    write_snapshots(fs, (3,))
    assert load_latest_snapshot(fs, D, 10, 6) is None
    assert list_snapshots(fs, D) == []


def test_a_snapshot_removed_meanwhile_is_skipped():
    fs = ListsAGhost()
    write_snapshots(fs, (100,))
    off, _, _ = load_latest_snapshot(fs, D, 300, 0)
    assert off == 100
