"""WriteTxnMarkers (API 27) sent to a partition leader as a transaction coordinator would:
the marker closes the producer's transaction (the last stable offset moves past it, an
abort is listed in a read_committed Fetch's aborted transactions), and the per-partition
errors are Kafka's: UNKNOWN_TOPIC_OR_PARTITION for a partition not hosted, INVALID_PRODUCER_EPOCH
for an older producer epoch, TRANSACTION_COORDINATOR_FENCED for an older coordinator epoch than
the producer's last marker. Runs against Apache Kafka 4.3 too (``--bootstrap``): no authorizer,
so CLUSTER_ACTION is allowed."""
from __future__ import annotations

import time
import uuid

from harness import create_topic

from odradek.broker.wire_client import WireClient
from odradek.wire import records as R
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import add_partitions_to_txn_request as ap
from odradek.wire.messages import fetch_request as fq
from odradek.wire.messages import init_producer_id_request as ip
from odradek.wire.messages import list_offsets_request as lo
from odradek.wire.messages import produce_request as pr
from odradek.wire.messages import write_txn_markers_request as wm


def _open_txn(c: WireClient, topic: str, partitions: list[int], records: int = 3) -> tuple[int, int]:
    """An ongoing transaction with ``records`` records in each partition: (producer id, epoch)."""
    txn_id = f"wtm-{uuid.uuid4().hex[:8]}"
    assert c.find_coordinator(txn_id, key_type=1, wait_s=60)[0] == 0
    deadline = time.monotonic() + 60
    while True:
        r = c.send(ip.InitProducerIdRequest(transactional_id=txn_id, transaction_timeout_ms=600_000), 3)
        if r.error_code not in (E.COORDINATOR_LOAD_IN_PROGRESS, E.COORDINATOR_NOT_AVAILABLE, E.NOT_COORDINATOR) \
                or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert r.error_code == 0, r
    pid, epoch = r.producer_id, r.producer_epoch
    a = c.send(ap.AddPartitionsToTxnRequest(
        v3_and_below_transactional_id=txn_id, v3_and_below_producer_id=pid, v3_and_below_producer_epoch=epoch,
        v3_and_below_topics=[ap.AddPartitionsToTxnTopic(name=topic, partitions=partitions)]), 3)
    assert all(p.partition_error_code == 0 for t in a.results_by_topic_v3_and_below for p in t.results_by_partition), a
    now = int(time.time() * 1000)
    batch = R.build_batch([(b"k", b"v%d" % i, (), now) for i in range(records)], base_timestamp=now,
                          producer_id=pid, producer_epoch=epoch, base_sequence=0, is_transactional=True)
    resp = c.send(pr.ProduceRequest(transactional_id=txn_id, acks=-1, timeout_ms=30_000, topic_data=[
        pr.TopicProduceData(name=topic, partition_data=[pr.PartitionProduceData(index=p, records=batch)
                                                        for p in partitions])]), 9)
    assert [p.error_code for t in resp.responses for p in t.partition_responses] == [0] * len(partitions), resp
    return pid, epoch


def _markers(c: WireClient, markers: list[tuple[int, int, bool, int, str, list[int]]]) -> dict:
    """Send WriteTxnMarkers: {(topic, partition): error code} (the answer is keyed by producer id
    as Kafka's: markers of one producer come back merged)."""
    req = wm.WriteTxnMarkersRequest(markers=[
        wm.WritableTxnMarker(producer_id=pid, producer_epoch=epoch, transaction_result=commit,
                             coordinator_epoch=ce, topics=[wm.WritableTxnMarkerTopic(name=t, partition_indexes=ps)])
        for pid, epoch, commit, ce, t, ps in markers])
    resp = c.send(req, 1)
    assert len({m.producer_id for m in resp.markers}) == len(resp.markers) == len({m[0] for m in markers})
    return {(t.name, p.partition_index): p.error_code for m in resp.markers for t in m.topics for p in t.partitions}


def _offsets(c: WireClient, topic: str, partitions: list[int], isolation: int) -> list[int]:
    r = c.send(lo.ListOffsetsRequest(replica_id=-1, isolation_level=isolation, topics=[
        lo.ListOffsetsTopic(name=topic, partitions=[lo.ListOffsetsPartition(partition_index=p, timestamp=-1)
                                                    for p in partitions])]), 5)
    return [p.offset for t in r.topics for p in t.partitions]


def _aborted(c: WireClient, topic: str, partition: int) -> list[tuple[int, int]]:
    r = c.send(fq.FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, isolation_level=1,
                               topics=[fq.FetchTopic(topic=topic, partitions=[
                                   fq.FetchPartition(partition=partition, fetch_offset=0,
                                                     partition_max_bytes=1 << 20)])]), 11)
    part = r.responses[0].partitions[0]
    assert part.error_code == 0, part
    return [(a.producer_id, a.first_offset) for a in part.aborted_transactions or []]


def test_markers_close_transactions_and_move_the_lso(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, partitions=2)
    with WireClient.from_bootstrap(bootstrap) as c:
        pid, epoch = _open_txn(c, topic_name, [0, 1])
        assert _offsets(c, topic_name, [0, 1], isolation=1) == [0, 0]  # the open transaction holds the LSO
        assert _markers(c, [(pid, epoch, True, 0, topic_name, [0]), (pid, epoch, False, 0, topic_name, [1])]) \
            == {(topic_name, 0): 0, (topic_name, 1): 0}
        # 3 records + the marker in each partition; both transactions are closed
        assert _offsets(c, topic_name, [0, 1], isolation=1) == [4, 4]
        assert _offsets(c, topic_name, [0, 1], isolation=0) == [4, 4]
        assert _aborted(c, topic_name, 0) == []
        assert _aborted(c, topic_name, 1) == [(pid, 0)]


def test_marker_errors(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, partitions=1)
    with WireClient.from_bootstrap(bootstrap) as c:
        pid, epoch = _open_txn(c, topic_name, [0])
        # a partition that does not exist, and an unknown topic: not hosted here
        assert _markers(c, [(pid, epoch, True, 3, topic_name, [7]), (pid, epoch, True, 3, f"no-{topic_name}", [0])]) \
            == {(topic_name, 7): E.UNKNOWN_TOPIC_OR_PARTITION, (f"no-{topic_name}", 0): E.UNKNOWN_TOPIC_OR_PARTITION}
        # an older producer epoch than the partition's last batch
        if epoch > 0:
            assert _markers(c, [(pid, epoch - 1, True, 3, topic_name, [0])]) == {(topic_name, 0): E.INVALID_PRODUCER_EPOCH}
        assert _markers(c, [(pid, epoch, False, 3, topic_name, [0])]) == {(topic_name, 0): 0}
        # the producer's last marker came from coordinator epoch 3: epoch 2 is a fenced coordinator
        assert _markers(c, [(pid, epoch, False, 2, topic_name, [0])]) == {(topic_name, 0): E.TRANSACTION_COORDINATOR_FENCED}
        # the same epoch again is accepted (a coordinator retrying), and nothing was opened: the LSO is the end
        assert _markers(c, [(pid, epoch, False, 3, topic_name, [0])]) == {(topic_name, 0): 0}
        assert _offsets(c, topic_name, [0], isolation=1) == [5]
        # an older producer epoch than the markers'
        assert _markers(c, [(pid, epoch + 1, False, 3, topic_name, [0])]) == {(topic_name, 0): 0}
        assert _markers(c, [(pid, epoch, False, 3, topic_name, [0])]) == {(topic_name, 0): E.INVALID_PRODUCER_EPOCH}
