"""The topic id each log's partition.metadata records, as the LogManager answers it (kept per
topic, with the partitions that record another id apart: issue 28 memory): partitions of one
topic with different ids, a log without the file, deletion and re-creation under another id,
and a restart reading the files back."""
from __future__ import annotations

from odradek.log import LogManager
from odradek.log import partition_metadata

A, B = b"\x0a" * 16, b"\x0b" * 16


def test_each_partition_answers_the_id_its_own_log_records(tmp_path):
    lm = LogManager(str(tmp_path))
    for p in range(3):
        lm.get_or_create("t", p, topic_id=A)
    lm.get_or_create("t", 3, topic_id=B)  # (another id in the same topic: answered apart)
    lm.get_or_create("u", 0)  # no id to record
    assert [lm.topic_id("t", p) for p in range(5)] == [A, A, A, B, None]
    assert lm.topic_id("u", 0) is None and lm.topic_id("v", 0) is None
    lm.delete("t", 0)
    lm.delete("t", 3)
    assert lm.topic_id("t", 0) is None and lm.topic_id("t", 3) is None and lm.topic_id("t", 1) == A
    lm.delete("t", 1)
    lm.delete("t", 2)
    lm.get_or_create("t", 0, topic_id=B)  # the topic re-created under another id
    lm.get_or_create("t", 1, topic_id=B)
    assert [lm.topic_id("t", p) for p in range(3)] == [B, B, None]
    lm.assign_topic_id("u", 0, A)
    assert lm.topic_id("u", 0) == A
    lm.write_pending_state()
    lm.close()
    again = LogManager(str(tmp_path))
    assert [again.topic_id("t", p) for p in range(3)] == [B, B, None] and again.topic_id("u", 0) == A
    assert partition_metadata.read(again.fs, again.get("t", 1).dir) == B
    again.close()


def test_the_logs_of_a_topic_loaded_at_start_share_one_name_and_list_by_partition(tmp_path):
    """(issue 28 memory: a name string per log was ~55 bytes a partition after a restart)"""
    lm = LogManager(str(tmp_path))
    for p in (0, 1, 3):
        lm.get_or_create("topic-a", p, topic_id=A)
    lm.get_or_create("b", 0)
    lm.close()
    again = LogManager(str(tmp_path))
    names = [t for t, _ in again.logs if t == "topic-a"]
    assert len(names) == 3 and all(n is names[0] for n in names)
    assert sorted(again.topic_logs("topic-a")) == [0, 1, 3] and list(again.topic_logs("b")) == [0]
    again.delete("topic-a", 3)
    again.delete("topic-a", 1)
    assert list(again.topic_logs("topic-a")) == [0] and again.topic_logs("c") == {}
    again.delete("topic-a", 0)
    assert again.topic_logs("topic-a") == {} and again.topic_id("topic-a", 0) is None
    again.close()
