"""A partition offline here (its log damaged on disk, KAFKA_STORAGE_ERROR) is set aside like
any other log once its topic is gone: at start-up a damaged log of a deleted topic, or of an
earlier topic of the same name (another id), is renamed `-stray` with its bytes; after
start-up, when the metadata removes its topic or re-creates it under another id, it goes
through the delayed-delete path. Either way it leaves the offline set and a re-created
topic's partition is created fresh. A damaged log whose topic is still there with the same
id stays offline, its files untouched (it may hold acknowledged records). A log that could
not be created (not damaged) is tried again on the next metadata update."""
from __future__ import annotations

import glob
import os
import re

from odradek.api_handlers.ports import NotLed
from odradek.broker.replica_manager import KEEP, STRAY, ReplicaManager, classify_logs
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.log import LogManager, partition_metadata
from odradek.wire.errors import ErrorCode
from odradek.wire.records import build_batch

ME, OTHER = 1, 2
OLD, NEW, KEPT = (bytes([n]) * 16 for n in (1, 2, 3))


def topic(name: str, tid: bytes, leaders: list[int]) -> TopicImage:
    return TopicImage(name, tid, {p: PartitionImage(p, leader=b, leader_epoch=3, partition_epoch=0,
                                                    replicas=(b,), isr=(b,)) for p, b in enumerate(leaders)})


def image(*topics: TopicImage, offset: int = 10) -> MetadataImage:
    return MetadataImage(topics={t.name: t for t in topics}, topics_by_id={t.topic_id: t for t in topics},
                         brokers={ME: BrokerImage(ME, "h1", 1), OTHER: BrokerImage(OTHER, "h2", 2)},
                         offset=offset)


def manager(d: str) -> tuple[LogManager, ReplicaManager]:
    lm = LogManager([d])
    return lm, ReplicaManager(lm, ME, lambda t: None, lambda key: 0, lambda: 100)


def data_dir(tmp_path) -> str:
    """t-0 (id OLD, 3 records, its segment cut short: damaged) and k-0 (id KEPT, 2 records)."""
    d = str(tmp_path / "logs")
    lm = LogManager([d])
    for name, tid, n in (("t", OLD, 3), ("k", KEPT, 2)):
        plog = lm.get_or_create(name, 0, topic_id=tid)
        for i in range(n):
            plog.append(build_batch([(b"k", b"%s-%d" % (name.encode(), i), (), 1)]), now_ms=1)
        plog.flush()
    lm.close()
    (seg,) = glob.glob(os.path.join(d, "t-0", "*.log"))
    with open(seg, "r+b") as f:
        f.truncate(os.path.getsize(seg) - 5)  # an acknowledged batch lost its end
    return d


def files(directory: str) -> dict[str, bytes]:
    out = {}
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), "rb") as f:
            out[name] = f.read()
    return out


def set_aside(d: str, suffix: str) -> dict[str, str]:
    """'topic-partition' -> its directory renamed `<topic>-<partition>.<uuid hex><suffix>`."""
    pattern = re.compile(r"^(.+-\d+)\.[0-9a-f]{32}" + re.escape(suffix) + "$")
    return {m.group(1): n for n in os.listdir(d) if (m := pattern.match(n))}


def test_classify_offline_logs_pure():
    img = image(topic("t", NEW, [ME]), topic("k", KEPT, [OTHER]))
    local = {("gone", 0): OLD, ("t", 0): OLD, ("k", 0): KEPT, ("t", 1): None, ("k", 1): OLD}
    got = {tp: v.action for tp, v in classify_logs(img, ME, local, unreadable={("k", 1)}, offline=set(local)).items()}
    # deleted, re-created: set aside; same id (even not assigned here), no id or an unreadable one: kept offline
    assert got == {("gone", 0): STRAY, ("t", 0): STRAY, ("k", 0): KEEP, ("t", 1): KEEP, ("k", 1): KEEP}


def test_damaged_log_of_a_deleted_topic_becomes_a_stray_at_start(tmp_path):
    d = data_dir(tmp_path)
    lm, rm = manager(d)
    before = files(os.path.join(d, "t-0"))  # as the load left them
    assert set(lm.offline) == {("t", 0)}
    rm.start(image(topic("k", KEPT, [ME])))
    s = set_aside(d, "-stray")
    assert list(s) == ["t-0"] and files(os.path.join(d, s["t-0"])) == before
    assert lm.offline == {} and not os.path.exists(os.path.join(d, "t-0"))
    assert rm.leader_log("t", 0) == NotLed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    assert rm.get("k", 0).log_end_offset == 2
    lm.close()


def test_recreated_topic_is_served_fresh_and_the_damaged_log_kept_as_a_stray(tmp_path):
    d = data_dir(tmp_path)
    lm, rm = manager(d)
    before = files(os.path.join(d, "t-0"))  # as the load left them
    img = image(topic("t", NEW, [ME]), topic("k", KEPT, [ME]))
    rm.start(img)
    s = set_aside(d, "-stray")
    assert list(s) == ["t-0"] and files(os.path.join(d, s["t-0"])) == before
    plog = rm.leader_log("t", 0)
    assert not isinstance(plog, NotLed) and plog.log_end_offset == 0 and lm.topic_id("t", 0) == NEW
    rm.append("t", 0, build_batch([(b"k", b"new", (), 1)]), now_ms=2)
    assert plog.log_end_offset == 1
    lm.close()
    # a restart serves the new topic's log; the stray stays as it is
    lm2, rm2 = manager(d)
    assert lm2.offline == {}
    rm2.start(img)
    assert rm2.get("t", 0).log_end_offset == 1 and set_aside(d, "-stray") == s
    lm2.close()


def test_damaged_log_of_a_topic_still_there_stays_offline_untouched(tmp_path):
    d = data_dir(tmp_path)
    lm, rm = manager(d)
    before = files(os.path.join(d, "t-0"))  # as the load left them
    img = image(topic("t", OLD, [ME, ME]), topic("k", KEPT, [ME]))
    rm.start(img)
    for i in range(3):  # metadata updates, one moving the partition to another broker and back
        nxt = image(topic("t", OLD, [OTHER if i == 1 else ME, ME]), topic("k", KEPT, [ME]), offset=11 + i)
        rm.on_metadata(img, nxt)
        img = nxt
    assert rm.leader_log("t", 0) == NotLed(ErrorCode.KAFKA_STORAGE_ERROR, ME, 3)
    assert rm.get("t", 1).log_end_offset == 0
    assert set(lm.offline) == {("t", 0)} and files(os.path.join(d, "t-0")) == before
    assert set_aside(d, "-stray") == {} and set_aside(d, "-delete") == {}
    lm.close()
    # and across a restart
    lm2, rm2 = manager(d)
    rm2.start(img)
    assert set(lm2.offline) == {("t", 0)} and files(os.path.join(d, "t-0")) == before
    assert rm2.leader_log("t", 0).error == ErrorCode.KAFKA_STORAGE_ERROR
    lm2.close()


def test_damaged_log_goes_through_the_delayed_delete_when_its_topic_is_deleted(tmp_path):
    d = data_dir(tmp_path)
    lm, rm = manager(d)
    img = image(topic("t", OLD, [ME]), topic("k", KEPT, [ME]))
    rm.start(img)
    gone = image(topic("k", KEPT, [ME]), offset=11)
    rm.on_metadata(img, gone)
    assert lm.offline == {} and list(set_aside(d, "-delete")) == ["t-0"]
    assert not os.path.exists(os.path.join(d, "t-0"))
    # a topic of that name created again: a new, empty partition
    again = image(topic("k", KEPT, [ME]), topic("t", NEW, [ME]), offset=12)
    rm.on_metadata(gone, again)
    assert rm.get("t", 0).log_end_offset == 0 and lm.topic_id("t", 0) == NEW
    # the deleted directory goes after file.delete.delay.ms
    assert lm.release_deleted(1_000) == []
    due = lm.release_deleted(1_000 + lm.default_config.file_delete_delay_ms)
    assert [os.path.basename(p) for p in due] == list(set_aside(d, "-delete").values())
    lm.remove_dirs(due)
    assert set_aside(d, "-delete") == {} and rm.get("k", 0).log_end_offset == 2
    lm.close()


def test_damaged_log_deleted_when_its_topic_is_recreated_in_one_update(tmp_path):
    d = data_dir(tmp_path)
    lm, rm = manager(d)
    img = image(topic("t", OLD, [ME]))
    rm.start(img)
    rm.on_metadata(img, image(topic("t", NEW, [ME]), offset=11))
    assert lm.offline == {} and list(set_aside(d, "-delete")) == ["t-0"]
    plog = rm.leader_log("t", 0)
    assert not isinstance(plog, NotLed) and plog.log_end_offset == 0
    lm.write_pending_state()  # (the broker's background pass: written after the creation, as Kafka)
    with open(os.path.join(d, "t-0", partition_metadata.FILE), "rb") as f:
        assert partition_metadata.decode(f.read()) == NEW
    lm.close()


def test_a_failed_create_is_tried_again_on_the_next_metadata_update(tmp_path):
    d = tmp_path / "logs"
    lm, rm = manager(str(d))
    (d / "n-0").write_bytes(b"")  # a file where the partition's directory must go: the create fails
    img = image(topic("n", NEW, [ME]))
    rm.start(img)
    assert rm.leader_log("n", 0) == NotLed(ErrorCode.KAFKA_STORAGE_ERROR, ME, 3)
    nxt = image(topic("n", NEW, [ME]), offset=11)
    rm.on_metadata(img, nxt)  # still in the way: still offline
    assert rm.leader_log("n", 0).error == ErrorCode.KAFKA_STORAGE_ERROR
    (d / "n-0").unlink()  # the cause is gone (as space freed after ENOSPC)
    rm.on_metadata(nxt, image(topic("n", NEW, [ME]), offset=12))
    plog = rm.leader_log("n", 0)
    assert not isinstance(plog, NotLed) and plog.log_end_offset == 0 and rm.offline == set()
    rm.append("n", 0, build_batch([(b"k", b"v", (), 1)]), now_ms=2)
    assert plog.log_end_offset == 1
    lm.close()


def test_a_failed_create_of_a_deleted_topic_is_forgotten(tmp_path):
    d = tmp_path / "logs"
    lm, rm = manager(str(d))
    (d / "n-0").write_bytes(b"")
    img = image(topic("n", NEW, [ME]))
    rm.start(img)
    assert rm.offline == {("n", 0)}
    rm.on_metadata(img, image(offset=11))
    assert rm.offline == set() and rm.leader_log("n", 0) == NotLed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    lm.close()
