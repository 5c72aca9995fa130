"""A broker's new and deleted logs touch the file system off the event loop (issue 27 fairness):
with a background runner, the replica manager creates a new partition's log in memory and the log
manager's background pass (write_pending_state, a worker thread in the broker) makes its directory
and segment file, then writes its partition.metadata; a deleted partition's directory is renamed
`-delete` by that pass too. Nothing a client sees changes: a request that needs the files first
makes them, a re-created partition's old directory goes before the new one is made, a clean stop
carries out what is pending, and a crash (kill -9: nothing is lost that was written) before the
pass leaves a state the next start serves: the partition is created from the metadata, a deleted
one's directory is set aside as a stray."""
from __future__ import annotations

import os
import re

import pytest

from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import LogConfig, LogManager, RealFileSystem, partition_metadata
from odradek.wire.records import build_batch

ME = 1


class Node:
    """A single node's controller, log manager and replica manager on a real directory; the
    background callbacks (the event loop's slices) are run by run()."""

    def __init__(self, root):
        self.root = str(root)
        fs = RealFileSystem()
        self.c = Controller(os.path.join(self.root, "meta"), ME, {}, 0, fs=fs)
        self.data = os.path.join(self.root, "data")
        self.lm = LogManager([self.data], fs=fs)
        self.queued: list = []
        self.rm = ReplicaManager(self.lm, ME, lambda name: LogConfig(), lambda key: 0, lambda: 0,
                                 background=self.queued.append)
        self.c.add_listener(self.rm.on_metadata)
        self.c.start(BrokerImage(ME, "h", 9092), 0)
        self.rm.start(self.c.image)

    def run(self) -> None:
        while self.queued:
            self.queued.pop(0)()

    def dirs(self) -> list[str]:
        return sorted(n for n in os.listdir(self.data) if os.path.isdir(os.path.join(self.data, n)))

    def create(self, name: str, partitions: int, record_in: int | None = None) -> None:
        self.c.create_topics([CreateTopicSpec(name, partitions, 1)], False, 0)
        if record_in is not None:
            self.rm.append(name, record_in, build_batch([(b"k", b"v", (), 1)]), now_ms=1)

    def crash(self) -> None:
        """kill -9: nothing closed, nothing more written (what was written stays: the page cache)."""
        self.c = self.lm = self.rm = None


def deleted(names: list[str]) -> list[str]:
    return sorted(re.sub(r"\.[0-9a-f]{32}-delete$", "", n) for n in names if n.endswith("-delete"))


def test_new_logs_are_made_by_the_background_pass_not_by_the_metadata_change(tmp_path):
    n = Node(tmp_path)
    n.c.create_topics([CreateTopicSpec("t", 3, 1)], False, 0)
    assert sorted(n.rm.leaders) == [("t", 0), ("t", 1), ("t", 2)]  # served at once
    assert n.dirs() == []  # nothing made on the caller's path
    assert n.lm.state_pending and not n.lm.get("t", 0).files_made
    assert n.lm.write_pending_state() == 3
    assert n.dirs() == ["t-0", "t-1", "t-2"] and not n.lm.state_pending
    tid = n.c.image.topics["t"].topic_id
    for p in range(3):
        d = os.path.join(n.data, f"t-{p}")
        assert {"00000000000000000000.log", partition_metadata.FILE} <= set(os.listdir(d))
        assert partition_metadata.read(RealFileSystem(), d) == tid
    n.rm.append("t", 1, build_batch([(b"k", b"v", (), 1)]), now_ms=1)
    n.lm.close()
    again = LogManager([n.data])
    assert again.get("t", 1).log_end_offset == 1 and again.get("t", 0).log_end_offset == 0
    again.close()


def test_a_first_use_before_the_pass_makes_the_files_itself(tmp_path):
    n = Node(tmp_path)
    n.c.create_topics([CreateTopicSpec("t", 2, 1)], False, 0)
    info = n.rm.append("t", 0, build_batch([(b"k", b"v", (), 1)]), now_ms=1)
    assert info.base_offset == 0 and n.dirs() == ["t-0"]
    assert partition_metadata.read(RealFileSystem(), os.path.join(n.data, "t-0")) == n.c.image.topics["t"].topic_id
    # (t-1's partition.metadata; t-0's leader epoch, which its first record no longer writes: fc1732c)
    assert n.lm.write_pending_state() == 2
    n.crash()
    again = LogManager([str(tmp_path / "data")])
    assert again.get("t", 0).log_end_offset == 1
    again.close()


def test_a_crash_before_the_pass_leaves_a_partition_the_next_start_creates(tmp_path):
    n = Node(tmp_path)
    n.c.create_topics([CreateTopicSpec("t", 3, 1)], False, 0)
    tid = n.c.image.topics["t"].topic_id
    n.crash()  # the CreateTopics was answered; no directory was made yet
    n = Node(tmp_path)  # the metadata log replays the topic; its partitions are created again
    assert n.c.image.topics["t"].topic_id == tid
    assert sorted(n.rm.leaders) == [("t", 0), ("t", 1), ("t", 2)]
    n.rm.append("t", 2, build_batch([(b"k", b"v", (), 1)]), now_ms=1)
    n.lm.write_pending_state()
    assert n.dirs() == ["t-0", "t-1", "t-2"]
    n.lm.close()
    n = Node(tmp_path)
    assert n.lm.get("t", 2).log_end_offset == 1 and n.lm.topic_id("t", 0) == tid
    n.lm.close()


def test_a_deleted_partitions_directory_is_renamed_by_the_pass(tmp_path):
    n = Node(tmp_path)
    n.create("t", 2, record_in=0)
    n.lm.write_pending_state()
    n.c.delete_topics(["t"], now_ms=0)
    assert n.rm.leaders == {} and n.lm.list() == []
    assert n.dirs() == ["t-0", "t-1"]  # not renamed on the caller's path
    assert n.lm.state_pending
    n.lm.write_pending_state()
    assert deleted(n.dirs()) == ["t-0", "t-1"] and not n.lm.state_pending
    dead = n.lm.release_deleted(0) + n.lm.release_deleted(10 ** 9)
    n.lm.remove_dirs(dead)
    assert n.dirs() == []
    n.lm.close()


def test_a_crash_before_the_rename_leaves_a_stray_the_next_start_sets_aside(tmp_path):
    n = Node(tmp_path)
    n.create("t", 1, record_in=0)
    n.c.delete_topics(["t"], now_ms=0)
    n.crash()
    n = Node(tmp_path)
    assert "t" not in n.c.image.topics and n.lm.list() == []
    (stray,) = n.dirs()
    assert stray.startswith("t-0.") and stray.endswith("-stray")
    n.lm.close()


def test_a_partition_deleted_before_its_files_were_made_never_gets_them(tmp_path):
    n = Node(tmp_path)
    n.c.create_topics([CreateTopicSpec("t", 2, 1)], False, 0)
    plog = n.lm.get("t", 0)
    n.c.delete_topics(["t"], now_ms=0)
    n.lm.write_pending_state()
    assert n.dirs() == [] and not n.lm.state_pending
    with pytest.raises(FileNotFoundError):
        plog.make_files()  # (a request still holding the log: as a deleted log's file)
    assert n.dirs() == []
    assert n.lm.release_deleted(10 ** 9) == []
    n.lm.close()
    assert n.dirs() == []


def test_a_recreated_partitions_old_directory_goes_before_the_new_one_is_made(tmp_path):
    n = Node(tmp_path)
    n.c.create_topics([CreateTopicSpec("t", 1, 1)], False, 0)
    n.rm.append("t", 0, build_batch([(b"k", b"old", (), 1)]), now_ms=1)
    old_id = n.c.image.topics["t"].topic_id
    n.c.delete_topics(["t"], now_ms=0)
    n.c.create_topics([CreateTopicSpec("t", 1, 1)], False, 0)
    new_id = n.c.image.topics["t"].topic_id
    assert new_id != old_id
    assert deleted(n.dirs()) == ["t-0"]  # renamed at once: the new log takes its name
    n.rm.append("t", 0, build_batch([(b"k", b"new", (), 1)]), now_ms=2)
    n.lm.write_pending_state()
    (dead,) = [d for d in n.dirs() if d.endswith("-delete")]
    assert partition_metadata.read(RealFileSystem(), os.path.join(n.data, dead)) == old_id
    assert partition_metadata.read(RealFileSystem(), os.path.join(n.data, "t-0")) == new_id
    assert n.lm.get("t", 0).log_end_offset == 1
    n.lm.close()


def test_a_clean_stop_carries_out_what_is_pending(tmp_path):
    n = Node(tmp_path)
    n.create("gone", 1, record_in=0)
    n.c.delete_topics(["gone"], now_ms=0)
    n.create("t", 2)
    n.lm.close()  # no background pass ran
    names = n.dirs()
    assert deleted(names) == ["gone-0"] and "t-0" in names and "t-1" in names
    tid = n.c.image.topics["t"].topic_id
    assert partition_metadata.read(RealFileSystem(), os.path.join(n.data, "t-1")) == tid
    n = Node(tmp_path)
    assert sorted(n.lm.list()) == [("t", 0), ("t", 1)] and n.lm.topic_id("t", 0) == tid
    n.lm.close()


def test_a_failed_make_is_retried_and_a_produce_meanwhile_fails_with_a_storage_error(tmp_path):
    from odradek.log.errors import KafkaStorageError

    n = Node(tmp_path)
    blocker = os.path.join(n.data, "t-0")
    with open(blocker, "wb"):
        pass  # a file where the partition's directory must go: making it fails
    n.c.create_topics([CreateTopicSpec("t", 1, 1)], False, 0)
    assert n.lm.write_pending_state() == 0 and n.lm.state_pending  # kept pending
    with pytest.raises(KafkaStorageError):
        n.rm.append("t", 0, build_batch([(b"k", b"v", (), 1)]), now_ms=1)
    os.remove(blocker)
    assert n.lm.write_pending_state() == 1 and not n.lm.state_pending
    assert n.rm.append("t", 0, build_batch([(b"k", b"v", (), 1)]), now_ms=1).base_offset == 0
    n.lm.close()


def test_without_a_background_runner_logs_are_made_at_once(tmp_path):
    data = tmp_path / "data"
    lm = LogManager([str(data)])
    rm = ReplicaManager(lm, ME, lambda name: LogConfig(), lambda key: 0, lambda: 0)
    c = Controller(str(tmp_path / "meta"), ME, {}, 0)
    c.add_listener(rm.on_metadata)
    c.start(BrokerImage(ME, "h", 9092), 0)
    rm.start(c.image)
    c.create_topics([CreateTopicSpec("t", 1, 1)], False, 0)
    assert os.path.isdir(data / "t-0") and lm.get("t", 0).files_made
    c.delete_topics(["t"], now_ms=0)
    assert deleted(os.listdir(data)) == ["t-0"]
    lm.close()
