"""A Produce, Fetch or DeleteRecords over many partitions is answered in steps (issue 27 fairness:
context.in_steps, STEP_PARTITIONS partitions a step, the broker serving other clients between them;
DescribeLogDirs, DescribeTopicPartitions and a Metadata whose topics are not found encoded:
STEP_ENTRIES a step). Each
answer is the one the same partitions get asked a topic at a time (each small enough for one piece),
on a broker with the same history; a small request is answered at once, by the same code with no
generator (the hot path pays nothing for the steps)."""
from inproc_broker import call, handler_generators, start_broker
from inproc_broker import drive as _drive

from odradek.api_handlers.common import SliceRecords
from odradek.api_handlers.context import STEP_ENTRIES, STEP_PARTITIONS, Stepped
from odradek.wire.api import encode_response_parts
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.delete_records_request import (DeleteRecordsPartition, DeleteRecordsRequest,
                                                          DeleteRecordsTopic)
from odradek.wire.messages.describe_log_dirs_request import DescribableLogDirTopic, DescribeLogDirsRequest
from odradek.wire.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest, TopicRequest
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic, ForgottenTopic
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from odradek.wire.records import build_batch

TOPICS = [f"t{i}" for i in range(12)]
PARTITIONS = 50  # of each topic: 600 in all, each topic under STEP_PARTITIONS
ALL = len(TOPICS) * PARTITIONS


def _broker(tmp_path, name: str):
    b = start_broker(tmp_path / name)
    created, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
        CreatableTopic(name=t, num_partitions=PARTITIONS, replication_factor=1) for t in TOPICS],
        timeout_ms=1000), 7))
    assert [t.error_code for t in created.plain(7).topics] == [0] * len(TOPICS)
    return b


def _produce(b, topics, acks: int = 1):
    batch = build_batch([(None, b"v", None, b.clock_ms())])
    return ProduceRequest(acks=acks, timeout_ms=1000, topic_data=[TopicProduceData(
        name=t, partition_data=[PartitionProduceData(index=p, records=batch) for p in range(PARTITIONS)])
        for t in topics])


def _fetch(topics):
    return FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=50 << 20, isolation_level=0,
                        session_id=0, session_epoch=-1, topics=[FetchTopic(topic=t, partitions=[
                            FetchPartition(partition=p, fetch_offset=0, log_start_offset=-1,
                                           partition_max_bytes=1 << 20) for p in range(PARTITIONS)])
                            for t in topics], forgotten_topics_data=[])


def _delete_records(topics):
    return DeleteRecordsRequest(timeout_ms=1000, topics=[DeleteRecordsTopic(name=t, partitions=[
        DeleteRecordsPartition(partition_index=p, offset=1) for p in range(PARTITIONS)]) for t in topics])


def _wire(key: int, version: int, resp) -> bytes:
    """The response as the connection writes it, file slices read."""
    out = []
    for part in encode_response_parts(key, version, 1, resp):
        out.append(bytes(part))  # (SliceRecords: its slices' bytes)
    return b"".join(out)


def _stepped(b, module: str, req, version: int, steps: int):
    resp = call(b, module, req, version)
    assert isinstance(resp, Stepped), module
    resp, taken = _drive(b, resp)
    assert taken == steps, module  # (the first part came with the call)
    return resp


def _topic_at_a_time(b, module: str, make, version: int) -> list:
    out = []
    for t in TOPICS:
        resp = call(b, module, make([t]), version)
        assert not isinstance(resp, Stepped), module
        out.append(resp)
    return out


def test_produce_fetch_delete_records_in_steps_answer_as_a_topic_at_a_time(tmp_path):
    big, small = _broker(tmp_path, "big"), _broker(tmp_path, "small")
    try:
        steps = ALL // STEP_PARTITIONS
        produced = _stepped(big, "produce", _produce(big, TOPICS), 9, steps)
        alone = _topic_at_a_time(small, "produce", lambda ts: _produce(small, ts), 9)
        assert produced.responses == [t for r in alone for t in r.responses]
        assert {p.error_code for t in produced.responses for p in t.partition_responses} == {0}

        # (the request's partitions listed STEP_ENTRIES a step, then read STEP_PARTITIONS a step)
        fetched = _stepped(big, "fetch", _fetch(TOPICS), 12, ALL // STEP_ENTRIES + steps)
        records = [p.records for t in fetched.responses for p in t.partitions]
        assert len(records) == ALL and all(isinstance(r, SliceRecords) for r in records)
        alone = _topic_at_a_time(small, "fetch", _fetch, 12)
        assert _wire(1, 12, fetched) == _wire(1, 12, type(fetched)(
            throttle_time_ms=0, error_code=0, session_id=0, responses=[t for r in alone for t in r.responses]))

        deleted = _stepped(big, "delete_records", _delete_records(TOPICS), 2, steps)
        alone = _topic_at_a_time(small, "delete_records", _delete_records, 2)
        assert deleted.topics == [t for r in alone for t in r.topics]
        assert {(p.error_code, p.low_watermark) for t in deleted.topics for p in t.partitions} == {(0, 1)}
    finally:
        big.close()
        small.close()


def test_small_data_requests_are_answered_at_once(tmp_path):
    b = _broker(tmp_path, "b")
    try:
        one = [TOPICS[0]]
        for module, req, version in (("produce", _produce(b, one), 9), ("fetch", _fetch(one), 12),
                                     ("delete_records", _delete_records(one), 2)):
            assert not isinstance(call(b, module, req, version), Stepped), module
    finally:
        b.close()


def test_small_fetch_produce_and_metadata_run_no_generator_large_ones_step(tmp_path):
    """A request of at most one step's partitions takes the direct path: no generator of the handlers
    runs (Produce, Fetch of STEP_PARTITIONS partitions, a Metadata whose partitions made stay under
    STEP_ENTRIES); one more partition and the same request goes in steps, answered alike."""
    b = _broker(tmp_path, "b")
    try:
        _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
            CreatableTopic(name="wide", num_partitions=STEP_PARTITIONS + 1, replication_factor=1)],
            timeout_ms=1000), 7))
        batch = build_batch([(None, b"v", None, b.clock_ms())])

        def produce(n: int):
            return ProduceRequest(acks=1, timeout_ms=1000, topic_data=[TopicProduceData(
                name="wide", partition_data=[PartitionProduceData(index=p, records=batch) for p in range(n)])])

        def fetch(parts):
            return FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=50 << 20, isolation_level=0,
                                session_id=0, session_epoch=-1, topics=[FetchTopic(topic="wide", partitions=[
                                    FetchPartition(partition=p, fetch_offset=0, log_start_offset=-1,
                                                   partition_max_bytes=1 << 20) for p in parts])],
                                forgotten_topics_data=[])

        small, ran = handler_generators(lambda: call(b, "produce", produce(STEP_PARTITIONS), 9))
        assert ran == set() and not isinstance(small, Stepped)
        large, ran = handler_generators(lambda: _drive(b, call(b, "produce", produce(STEP_PARTITIONS + 1), 9)))
        assert "_produce_steps" in ran and large[1] == 1
        assert {p.error_code for p in large[0].responses[0].partition_responses} == {0}

        small, ran = handler_generators(lambda: call(b, "fetch", fetch(range(STEP_PARTITIONS)), 12))
        assert ran == set() and not isinstance(small, Stepped)
        (large, steps), ran = handler_generators(lambda: _drive(b, call(b, "fetch", fetch(range(STEP_PARTITIONS + 1)), 12)))
        assert "_answer_steps" in ran and steps == 1
        # the partitions of both answered alike (each partition twice produced to, once in each produce)
        assert _wire(1, 12, small) == _wire(1, 12, type(large)(throttle_time_ms=0, error_code=0, session_id=0,
                                                               responses=[type(large.responses[0])(
                                                                   topic="wide", topic_id=large.responses[0].topic_id,
                                                                   partitions=large.responses[0].partitions[:-1])]))

        every = MetadataRequest(topics=None, allow_auto_topic_creation=False)
        cold, ran = handler_generators(lambda: _drive(b, call(b, "metadata", every, 12)))  # "wide" alone is a step
        assert "_rest_of_parts" in ran and cold[1] >= 1
        warm, ran = handler_generators(lambda: call(b, "metadata", every, 12))
        assert ran == set() and not isinstance(warm, Stepped)
        assert _wire(3, 12, cold[0]) == _wire(3, 12, warm)
        asked, ran = handler_generators(lambda: call(b, "metadata", MetadataRequest(
            topics=[MetadataRequestTopic(name=t) for t in TOPICS[:2] + ["wide"]], allow_auto_topic_creation=False),
            12))
        assert ran == set() and [t.name for t in asked.plain(12).topics] == TOPICS[:2] + ["wide"]
    finally:
        b.close()


def test_an_incremental_fetch_of_a_large_session_reads_in_steps(tmp_path):
    """An incremental fetch names no partitions but reads its session's: STEP_PARTITIONS a step."""
    b = _broker(tmp_path, "b")
    try:
        full = _fetch(TOPICS)
        full.session_epoch = 0  # a new session of ALL partitions
        first = _stepped(b, "fetch", full, 12, ALL // STEP_ENTRIES + ALL // STEP_PARTITIONS)
        assert first.error_code == 0 and first.session_id > 0
        incremental = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=50 << 20, isolation_level=0,
                                   session_id=first.session_id, session_epoch=1, topics=[], forgotten_topics_data=[])
        (resp, steps), ran = handler_generators(lambda: _drive(b, call(b, "fetch", incremental, 12)))
        assert steps == ALL // STEP_PARTITIONS and "_read_steps" in ran
        assert (resp.error_code, resp.session_id, resp.responses) == (0, first.session_id, [])  # nothing new
        small = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=50 << 20, isolation_level=0,
                             session_id=first.session_id, session_epoch=2, topics=[], forgotten_topics_data=[
                                 ForgottenTopic(topic=t, partitions=list(range(PARTITIONS))) for t in TOPICS[1:]])
        resp, ran = handler_generators(lambda: call(b, "fetch", small, 12))  # a session of 50 partitions left
        assert ran == set() and (resp.error_code, resp.responses) == (0, [])
    finally:
        b.close()


def test_describe_log_dirs_describe_topic_partitions_and_a_cold_metadata_in_steps(tmp_path):
    b = _broker(tmp_path, "b")
    try:
        every = DescribeLogDirsRequest(topics=None)
        logs = len(b.services.log_dirs.list())  # (the topics' and any internal topic's)
        described = _stepped(b, "describe_log_dirs", every, 4, logs // STEP_ENTRIES)
        asked = DescribeLogDirsRequest(topics=[DescribableLogDirTopic(topic=t, partitions=list(range(PARTITIONS)))
                                               for t in TOPICS])
        # the partitions asked, then those described
        # (the dir's total and usable bytes set aside: other processes write to the disk between the calls)
        assert [(r.error_code, r.log_dir, r.topics) for r in
                _stepped(b, "describe_log_dirs", asked, 4, 2 * ALL // STEP_ENTRIES).results] == \
            [(r.error_code, r.log_dir, r.topics) for r in described.results]
        assert sum(len(t.partitions) for r in described.results for t in r.topics) == logs

        page = _stepped(b, "describe_topic_partitions", DescribeTopicPartitionsRequest(
            topics=[TopicRequest(name=t) for t in TOPICS], response_partition_limit=2000), 0, ALL // STEP_ENTRIES)
        alone = _topic_at_a_time(b, "describe_topic_partitions", lambda ts: DescribeTopicPartitionsRequest(
            topics=[TopicRequest(name=t) for t in ts], response_partition_limit=2000), 0)
        assert page.topics == sorted((t for r in alone for t in r.topics), key=lambda t: t.name)  # (by name)
        assert page.next_cursor is None
        assert sum(len(t.partitions) for t in page.topics) == ALL

        # the first Metadata of every topic encodes them all: STEP_ENTRIES partitions a step; then cached
        names = MetadataRequest(topics=None, allow_auto_topic_creation=False)
        cold = _stepped(b, "metadata", names, 12, ALL // STEP_ENTRIES)
        warm = call(b, "metadata", names, 12)
        assert not isinstance(warm, Stepped)
        assert _wire(3, 12, cold) == _wire(3, 12, warm)
        assert len(warm.plain(12).topics) == len(TOPICS)
    finally:
        b.close()


def test_a_describe_topic_partitions_page_holds_at_most_kafkas_limit(tmp_path):
    """Kafka caps response_partition_limit at max.request.partition.size.limit (2,000 by default)."""
    from odradek.api_handlers.describe_topic_partitions import MAX_REQUEST_PARTITION_SIZE_LIMIT as LIMIT

    b = start_broker(tmp_path)
    try:
        created, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
            CreatableTopic(name="wide", num_partitions=LIMIT + 10, replication_factor=1)], timeout_ms=1000), 7))
        assert created.plain(7).topics[0].error_code == 0
        page, _ = _drive(b, call(b, "describe_topic_partitions", DescribeTopicPartitionsRequest(
            topics=[TopicRequest(name="wide")], response_partition_limit=LIMIT * 2), 0))
        assert [p.partition_index for p in page.topics[0].partitions] == list(range(LIMIT))
        assert (page.next_cursor.topic_name, page.next_cursor.partition_index) == ("wide", LIMIT)
    finally:
        b.close()
