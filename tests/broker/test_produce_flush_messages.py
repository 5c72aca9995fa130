"""A produce whose append reaches flush.messages is answered once the log flusher has fsynced it (Kafka
flushes in the append, before the answer), not before, and the append itself does not fsync: the
handler returns a wait on the partition's purgatory key, which the flusher's pass completes."""
from inproc_broker import call, start_broker
from inproc_broker import drive as _drive

from odradek.api_handlers.context import Delayed
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from odradek.wire.records import build_batch


def _produce(b, acks: int) -> ProduceRequest:
    batch = build_batch([(None, b"v", None, b.clock_ms())])
    return ProduceRequest(acks=acks, timeout_ms=30000, topic_data=[TopicProduceData(
        name="t", partition_data=[PartitionProduceData(index=0, records=batch)])])


def test_the_answer_waits_for_the_flushers_fsync(tmp_path):
    b = start_broker(tmp_path / "b", log_flush_interval_messages="1")
    created, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
        CreatableTopic(name="t", num_partitions=1, replication_factor=1)], timeout_ms=1000), 7))
    assert [t.error_code for t in created.plain(7).topics] == [0]
    asked = []
    b.log_manager.flusher = lambda: asked.append(1)  # (the server's LogFlusher: a pass in a worker)
    log = b.log_manager.get("t", 0)
    for acks, offset in ((1, 0), (-1, 1)):
        resp = call(b, "produce", _produce(b, acks), 9)
        assert isinstance(resp, Delayed) and ("partition", "t", 0) in resp.watch
        assert log.recovery_point == offset and resp.try_complete(b.clock_ms()) is None
        assert asked and b.log_manager.run_requested_flushes() == [("t", 0)]
        done = resp.try_complete(b.clock_ms())
        assert log.recovery_point == offset + 1
        part = done.responses[0].partition_responses[0]
        assert (part.error_code, part.base_offset) == (0, offset)
    b.close()


def test_a_wait_whose_partition_is_deleted_meanwhile_is_answered_not_leader(tmp_path):
    from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState

    b = start_broker(tmp_path / "b", log_flush_interval_messages="1")
    _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
        CreatableTopic(name="t", num_partitions=1, replication_factor=1)], timeout_ms=1000), 7))
    b.log_manager.flusher = lambda: None
    resp = call(b, "produce", _produce(b, 1), 9)
    assert isinstance(resp, Delayed)
    _drive(b, call(b, "delete_topics", DeleteTopicsRequest(topics=[DeleteTopicState(name="t")], timeout_ms=1000), 6))
    assert b.log_manager.get("t", 0) is None
    b.log_manager.run_requested_flushes()  # (nothing left to flush: the deleted log was taken out)
    done = resp.try_complete(b.clock_ms())
    assert done.responses[0].partition_responses[0].error_code == 6  # NOT_LEADER_OR_FOLLOWER
    b.close()
