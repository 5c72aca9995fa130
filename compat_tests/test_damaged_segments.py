"""Segments damaged while the broker was stopped (cleanly): the broker starts; a torn tail
past what the stop had written is cut off with a WARN naming file, position and bytes;
a partition whose written data is damaged goes offline (ERROR), its files left as found;
the other partitions serve, and a request for the offline one gets KAFKA_STORAGE_ERROR (as Kafka
answers for a partition whose log dir is offline)."""

from __future__ import annotations

import glob
import os
import time

from harness import BrokerProcess, RawClient, create_topic
from odradek.wire import records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

from test_durability import consume_all, produce_acked


def test_torn_tail_and_damage_after_a_clean_stop(tmp_path):
    b = BrokerProcess(str(tmp_path / "data"))
    b.start()
    try:
        acked = {}
        for t in ("torn", "cut", "fine"):
            create_topic(b.bootstrap, t)
            a, errs = produce_acked(b.bootstrap, t, [b"%s-%d" % (t.encode(), i) for i in range(10)])
            assert not errs and len(a) == 10
            acked[t] = [v for _, _, v in a]
        assert b.stop() == 0

        def segment(topic):
            (path,) = glob.glob(os.path.join(b.data_dir, "**", f"{topic}-0", "*.log"), recursive=True)
            return path

        torn = segment("torn")
        size = os.path.getsize(torn)
        with open(torn, "rb") as f:
            head = f.read(40)
        with open(torn, "ab") as f:
            f.write(head)  # a batch cut short after the last one: a write that did not finish
        cut = segment("cut")
        with open(cut, "r+b") as f:
            f.truncate(os.path.getsize(cut) - 5)  # an acknowledged batch lost its end
        damaged = open(cut, "rb").read()

        b.start()
        out = "".join(b.output)
        assert f"{torn}: unreadable batch header" in out, out[-3000:]
        assert f"at byte {size}; truncated 40 bytes" in out
        assert "partition cut-0 is offline" in out
        assert os.path.getsize(torn) == size
        for t in ("torn", "fine"):
            got = [v for _, _, _, v in consume_all(b.bootstrap, t, 10)]
            assert got == acked[t]
        a, errs = produce_acked(b.bootstrap, "torn", [b"more"])
        assert not errs and len(a) == 1
        c = RawClient(b.bootstrap)
        try:
            req = ProduceRequest(acks=1, timeout_ms=5000, topic_data=[TopicProduceData(name="cut", partition_data=[
                PartitionProduceData(index=0, records=records.build_batch([(None, b"x", (), 0)]))])])
            assert c.call(req, 9).responses[0].partition_responses[0].error_code == ErrorCode.KAFKA_STORAGE_ERROR
        finally:
            c.close()
        create_topic(b.bootstrap, "later")  # a metadata update: the offline partition is not logged again
        out = "".join(b.output)
        errors = [ln for ln in out.splitlines() if " ERROR " in ln and "cut-0" in ln]
        assert len(errors) == 1 and "Traceback" not in out, out[-3000:]
        assert open(cut, "rb").read() == damaged  # left for the operator
    finally:
        b.kill9()


def test_damaged_partition_of_a_deleted_topic_goes_and_a_recreated_topic_starts_fresh(tmp_path):
    """Deleting the topic of an offline (damaged) partition deletes its directory through the
    delayed-delete path; a topic re-created under that name serves a new, empty partition
    (before the fix it answered KAFKA_STORAGE_ERROR forever, across restarts too)."""
    from confluent_kafka.admin import AdminClient

    b = BrokerProcess(str(tmp_path / "data"))
    b.start()
    try:
        create_topic(b.bootstrap, "cut")
        a, errs = produce_acked(b.bootstrap, "cut", [b"old-%d" % i for i in range(10)])
        assert not errs and len(a) == 10
        assert b.stop() == 0
        (seg,) = glob.glob(os.path.join(b.data_dir, "**", "cut-0", "*.log"), recursive=True)
        with open(seg, "r+b") as f:
            f.truncate(os.path.getsize(seg) - 5)
        b.start()
        assert "partition cut-0 is offline" in "".join(b.output)
        admin = AdminClient({"bootstrap.servers": b.bootstrap})
        admin.delete_topics(["cut"], operation_timeout=10)["cut"].result(timeout=15)
        parent = os.path.dirname(os.path.dirname(seg))
        deadline = time.monotonic() + 60  # the broker applies the deletion just after it is written
        while not [n for n in os.listdir(parent) if n.startswith("cut-0.") and n.endswith("-delete")]:
            assert time.monotonic() < deadline, os.listdir(parent)
            time.sleep(0.05)
        assert not os.path.exists(os.path.join(parent, "cut-0"))
        create_topic(b.bootstrap, "cut")
        a, errs = produce_acked(b.bootstrap, "cut", [b"new-%d" % i for i in range(3)])
        assert not errs and [o for _, o, _ in a] == [0, 1, 2]
        assert [v for _, _, _, v in consume_all(b.bootstrap, "cut", 3)] == [b"new-0", b"new-1", b"new-2"]
        b.stop()
        b.start()  # and after a restart: the new partition, whole
        assert [v for _, _, _, v in consume_all(b.bootstrap, "cut", 3)] == [b"new-0", b"new-1", b"new-2"]
    finally:
        b.kill9()
