"""Start-up classification of the logs on disk (issue 25), against a metadata feed that
arrives late and in pieces: nothing is decided, served or deleted before start(image);
then the partition of a topic with the same name and id is kept and served, a log of a
topic deleted (or deleted and re-created under another id) while the broker was down,
or of a partition not assigned here, is renamed `<topic>-<partition>.<uuid>-stray` and
kept; a log without partition.metadata (an older odradek) gets the id from the metadata.
After start, only the metadata deletes a log (through the delayed-delete path)."""
from __future__ import annotations

import os
import re

from odradek.broker.replica_manager import ADOPT, KEEP, STRAY, ReplicaManager, classify_logs
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.log import LogConfig, LogManager, partition_metadata
from odradek.wire.records import build_batch

ME = 4
A1, A2, B1, C1 = (bytes([n]) * 16 for n in (1, 2, 3, 4))


def topic(name: str, tid: bytes, leaders: list[int]) -> TopicImage:
    return TopicImage(name, tid, {p: PartitionImage(p, leader=b, leader_epoch=3, partition_epoch=0,
                                                    replicas=(b,), isr=(b,)) for p, b in enumerate(leaders)})


def image(*topics: TopicImage, offset: int = 10) -> MetadataImage:
    return MetadataImage(topics={t.name: t for t in topics}, topics_by_id={t.topic_id: t for t in topics},
                         brokers={ME: BrokerImage(ME, "h", 1)}, offset=offset)


def fill(lm: LogManager, name: str, p: int, tid: bytes | None, n: int) -> None:
    log = lm.get_or_create(name, p, topic_id=tid)
    for i in range(n):
        log.append(build_batch([(b"k", b"%s-%d-%d" % (name.encode(), p, i), (), 1)]), now_ms=1)


def data_dir_with_logs(tmp_path) -> str:
    """a-0, a-1 (id A1), b-0 (id B1), legacy-0 (no partition.metadata); then a stop."""
    d = str(tmp_path / "logs")
    lm = LogManager([d])
    fill(lm, "a", 0, A1, 5)
    fill(lm, "a", 1, A1, 7)
    fill(lm, "b", 0, B1, 3)
    fill(lm, "legacy", 0, None, 4)
    lm.close()
    return d


def manager(d: str):
    lm = LogManager([d])
    rm = ReplicaManager(lm, ME, lambda t: None, lambda key: 0, lambda: 100)
    return lm, rm


def entries(d: str) -> list[str]:
    return sorted(os.listdir(d))


STRAY_NAME = re.compile(r"^(.+)-(\d+)\.[0-9a-f]{32}-stray$")


def strays(d: str) -> dict[str, str]:
    """'topic-partition' -> the stray directory name."""
    out = {}
    for name in os.listdir(d):
        m = STRAY_NAME.match(name)
        if m:
            out[f"{m.group(1)}-{m.group(2)}"] = name
    return out


def test_classify_logs_pure():
    img = image(topic("a", A1, [ME, 5]), topic("b", B1, [ME]), topic("legacy", C1, [ME]))
    local = {("a", 0): A1, ("a", 1): A1, ("b", 0): A2, ("gone", 0): C1, ("legacy", 0): None, ("a", 7): A1,
             ("legacy", 1): None}
    got = {tp: v.action for tp, v in classify_logs(img, ME, local).items()}
    assert got == {("a", 0): KEEP, ("a", 1): STRAY,  # a-1 is led by broker 5 now
                   ("b", 0): STRAY, ("gone", 0): STRAY, ("legacy", 0): ADOPT, ("a", 7): STRAY,
                   ("legacy", 1): STRAY}
    assert classify_logs(img, ME, {("a", 0): A1}, unreadable={("a", 0)})[("a", 0)].action == STRAY


def test_nothing_decided_or_served_before_start_even_as_the_metadata_trickles_in(tmp_path):
    d = data_dir_with_logs(tmp_path)
    # (the log dir's .kafka_cleanshutdown is read and deleted as the logs open, as Kafka's)
    before = [n for n in entries(d) if n != ".kafka_cleanshutdown"]
    lm, rm = manager(d)
    # the feed: empty, then only b, then a re-created under another id (an in-between state)
    feed = [MetadataImage(), image(topic("b", B1, [ME]), offset=3),
            image(topic("b", B1, [ME]), topic("a", A2, [ME, ME]), offset=5)]
    prev = None
    for img in feed:
        rm.on_metadata(prev, img)
        prev = img
        assert entries(d) == before  # nothing renamed, deleted or created
        assert all(rm.get(*tp) is None for tp in [("a", 0), ("a", 1), ("b", 0), ("legacy", 0)])
    # caught up: a (same id) and b and legacy are all there
    final = image(topic("a", A1, [ME, ME]), topic("b", B1, [ME]), topic("legacy", C1, [ME]), offset=9)
    rm.on_metadata(prev, final)
    assert entries(d) == before
    rm.start(final)
    assert entries(d) == before and strays(d) == {}
    ends = {tp: rm.get(*tp).log_end_offset for tp in [("a", 0), ("a", 1), ("b", 0), ("legacy", 0)]}
    assert ends == {("a", 0): 5, ("a", 1): 7, ("b", 0): 3, ("legacy", 0): 4}
    assert rm.get("a", 0).high_watermark == 5
    # the older odradek's log now carries its topic id, in Kafka's format
    with open(os.path.join(d, "legacy-0", "partition.metadata"), "rb") as f:
        assert f.read() == partition_metadata.encode(C1)
    lm.close()
    lm2, rm2 = manager(d)
    assert lm2.topic_id("legacy", 0) == C1 and lm2.topic_id("a", 1) == A1
    lm2.close()


def test_topics_deleted_or_recreated_while_down_become_strays_never_deleted(tmp_path):
    d = data_dir_with_logs(tmp_path)
    sizes = {n: os.path.getsize(os.path.join(d, n, "00000000000000000000.log")) for n in ["a-0", "a-1", "b-0"]}
    lm, rm = manager(d)
    rm.on_metadata(None, MetadataImage())  # the replayed local metadata: nothing yet
    # a deleted and re-created (id A2, a-1 now on broker 5), b deleted, legacy deleted
    final = image(topic("a", A2, [ME, 5]), offset=20)
    rm.start(final)
    s = strays(d)
    assert sorted(s) == ["a-0", "a-1", "b-0", "legacy-0"]
    for n in ["a-0", "a-1", "b-0"]:
        assert os.path.getsize(os.path.join(d, s[n], "00000000000000000000.log")) == sizes[n]
    with open(os.path.join(d, s["a-0"], "partition.metadata"), "rb") as f:
        assert partition_metadata.decode(f.read()) == A1
    assert not [n for n in os.listdir(d) if n.endswith("-delete")]
    # the re-created topic's partition here starts empty, with the new id
    assert rm.get("a", 0).log_end_offset == 0 and lm.topic_id("a", 0) == A2
    assert rm.get("a", 1) is None and lm.get("a", 1) is None
    assert lm.list() == [("a", 0)]
    lm.close()
    # a restart keeps the strays as they are (not loaded, not removed)
    lm2, rm2 = manager(d)
    rm2.start(final)
    assert strays(d) == s and lm2.list() == [("a", 0)]
    lm2.close()


def test_after_start_only_the_metadata_deletes(tmp_path):
    d = data_dir_with_logs(tmp_path)
    lm, rm = manager(d)
    img = image(topic("a", A1, [ME, ME]), topic("b", B1, [ME]), topic("legacy", C1, [ME]))
    rm.start(img)
    # RemoveTopicRecord for b: its log goes through the delayed-delete path
    nxt = image(topic("a", A1, [ME, ME]), topic("legacy", C1, [ME]), offset=11)
    rm.on_metadata(img, nxt)
    assert lm.get("b", 0) is None and any(n.startswith("b-0.") and n.endswith("-delete") for n in os.listdir(d))
    # a deleted and re-created under another id in one batch: the old log deleted, a new one empty
    again = image(topic("a", A2, [ME, ME]), topic("legacy", C1, [ME]), offset=12)
    rm.on_metadata(nxt, again)
    assert rm.get("a", 0).log_end_offset == 0 and lm.topic_id("a", 0) == A2
    assert rm.get("legacy", 0).log_end_offset == 4
    assert strays(d) == {}
    lm.close()


def test_start_gives_each_log_its_topics_config(tmp_path):
    """Logs open before the metadata is there, with the broker defaults; start() applies each
    topic's config (a compacted, never-expiring topic must not run with delete / 7 days)."""
    d = data_dir_with_logs(tmp_path)
    lm = LogManager([d])
    assert lm.get("a", 0).config.cleanup_policy == ("delete",)
    compact = LogConfig(cleanup_policy=("compact",), retention_ms=-1)
    rm = ReplicaManager(lm, ME, lambda t: compact if t == "a" else LogConfig(), lambda key: 0, lambda: 100)
    rm.start(image(topic("a", A1, [ME, ME]), topic("b", B1, [ME]), topic("legacy", C1, [ME])))
    assert [lm.get("a", p).config.cleanup_policy for p in (0, 1)] == [("compact",)] * 2
    assert lm.get("a", 0).config.retention_ms == -1 and lm.get("b", 0).config.cleanup_policy == ("delete",)
    lm.close()


def test_a_replica_that_is_not_the_leader_keeps_its_log_but_serves_nothing(tmp_path):
    d = data_dir_with_logs(tmp_path)
    lm, rm = manager(d)
    parts = {0: PartitionImage(0, leader=5, leader_epoch=1, partition_epoch=0, replicas=(5, ME), isr=(5, ME)),
             1: PartitionImage(1, leader=ME, leader_epoch=1, partition_epoch=0, replicas=(ME, 5), isr=(ME, 5))}
    rm.start(image(TopicImage("a", A1, parts)))
    assert lm.get("a", 0).log_end_offset == 5 and rm.get("a", 0) is None
    assert rm.get("a", 1).log_end_offset == 7
    assert strays(d) == {"b-0": strays(d)["b-0"], "legacy-0": strays(d)["legacy-0"]}
    lm.close()


def test_set_aside_names_stay_within_255_characters(tmp_path):
    """Kafka cuts the topic so `<topic>-<partition>.<uuid>-stray|-delete` fits a file name."""
    d = str(tmp_path / "logs")
    long = "x" * 249
    lm = LogManager([d])
    fill(lm, long, 7, A1, 1)
    fill(lm, long, 8, A1, 1)
    assert lm.mark_stray(long, 7) and lm.delete(long, 8)
    names = sorted(os.listdir(d))
    assert [len(n) for n in names] == [255, 255]
    assert {n[-6:] for n in names} == {"-stray", "delete"}
    assert all(re.fullmatch(r"x+-[78]\.[0-9a-f]{32}-(stray|delete)", n) for n in names)
    lm.close()
