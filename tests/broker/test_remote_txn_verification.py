"""A partition leader whose transaction coordinator is another broker (KIP-890, Kafka's
AddPartitionsToTxnManager), through the Produce handler and a real ReplicaManager: the first
transactional batch of a transaction waits for the coordinator's verdict (verify_only before
Produce v12, add from v12), later batches of the open transaction do not ask again, and the
verdicts reach the producer as Kafka's ReplicaManager maps them. And the markers such a
coordinator sends (WriteTxnMarkers) to __consumer_offsets while the group coordinator here is
loading the partition: refused, nothing written, retried later."""
from __future__ import annotations

from odradek.api_handlers import produce, write_txn_markers
from odradek.api_handlers.context import Delayed, RequestContext
from odradek.api_handlers.ports import TxnVerification
from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.log import LogManager
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import produce_request as pr
from odradek.wire.messages import write_txn_markers_request as wm
from odradek.wire.records import build_batch

from fake_services import services

ME = 1
T = bytes([9]) * 16


def image() -> MetadataImage:
    t = TopicImage("t", T, {p: PartitionImage(p, ME, 1, 1, (ME,), (ME,)) for p in range(2)})
    o = TopicImage("__consumer_offsets", bytes(15) + b"\x01", {0: PartitionImage(0, ME, 1, 1, (ME,), (ME,))})
    return MetadataImage(topics={"t": t, o.name: o}, topics_by_id={T: t, o.topic_id: o},
                         brokers={ME: BrokerImage(ME, "h", 9092)}, offset=1)


class Offsets:
    """ports.TxnOffsets: which __consumer_offsets partitions the group coordinator has loaded."""

    def __init__(self):
        self.error = E.COORDINATOR_LOAD_IN_PROGRESS
        self.completed: list[tuple] = []

    def partition_error(self, partition):
        return self.error

    def complete(self, pid, partition, commit, now_ms):
        self.completed.append((pid, partition, commit))


class ElsewhereTxns:
    """ports.Txns of a broker that does not coordinate the transactional id."""

    def is_coordinator(self, transactional_id: str) -> bool:
        return False

    def check_produce(self, pid, epoch, topic, partition):
        return E.INVALID_TXN_STATE  # nothing of the producer here


class Verifier:
    def __init__(self):
        self.asked: list[tuple] = []
        self.pending: list[TxnVerification] = []

    def verify(self, transactional_id, producer_id, producer_epoch, partitions, add):
        self.asked.append((transactional_id, producer_id, producer_epoch, sorted(partitions), add))
        v = TxnVerification(("txn-verification", len(self.asked)))
        self.pending.append(v)
        return v


class World:
    def __init__(self, tmp_path):
        self.rm = ReplicaManager(LogManager([str(tmp_path / "logs")]), ME, lambda t: None, lambda key: None,
                                 lambda: 1000, min_insync_replicas=lambda t: 1)
        self.rm.start(image())
        self.verifier = Verifier()
        self.services = services(image_of=lambda: self.rm.image, replicas=self.rm, txns=ElsewhereTxns())
        self.services.txn_verifier = self.verifier
        self.seq = {0: 0, 1: 0}

    def ctx(self, key: int, v: int) -> RequestContext:
        return RequestContext(api_key=key, api_version=v, correlation_id=1, client_id="c", now_ms=1000,
                              services=self.services)

    def produce(self, v: int, partitions=(0,), pid=7, epoch=0):
        data = []
        for p in partitions:
            batch = build_batch([(b"k", b"v", (), 1000)], producer_id=pid, producer_epoch=epoch,
                                base_sequence=self.seq[p], is_transactional=True)
            data.append(pr.PartitionProduceData(index=p, records=batch))
        req = pr.ProduceRequest(transactional_id="tx", acks=-1, timeout_ms=5000,
                                topic_data=[pr.TopicProduceData(name="t", partition_data=data)])
        return produce.handle(self.ctx(0, v), req)

    def answer(self, delayed: Delayed, errors: dict):
        v = self.verifier.pending[-1]
        assert delayed.watch == [v.key] and delayed.try_complete(1000) is None  # not answered yet
        v.errors = errors
        return delayed.try_complete(1000)


def codes(resp) -> list[int]:
    return [p.error_code for t in resp.responses for p in t.partition_responses]


def test_the_first_batch_waits_for_the_coordinator_and_later_ones_do_not_ask(tmp_path):
    w = World(tmp_path)
    d = w.produce(9, partitions=(0, 1))
    assert isinstance(d, Delayed)
    assert w.verifier.asked == [("tx", 7, 0, [("t", 0), ("t", 1)], False)]  # verify_only before v12
    assert w.rm.get("t", 0).log_end_offset == 0  # nothing appended before the verdict
    resp = w.answer(d, {("t", 0): E.NONE, ("t", 1): E.TRANSACTION_ABORTABLE})
    assert codes(resp) == [0, E.INVALID_TXN_STATE]
    assert w.rm.get("t", 0).log_end_offset == 1 and w.rm.get("t", 1).log_end_offset == 0
    w.seq[0] = 1
    resp = w.produce(9)  # the transaction is open in partition 0: no question
    assert codes(resp) == [0] and len(w.verifier.asked) == 1
    # the marker closes it: the next transaction's first batch asks again
    marker = wm.WriteTxnMarkersRequest(markers=[wm.WritableTxnMarker(
        producer_id=7, producer_epoch=0, transaction_result=True, coordinator_epoch=0,
        topics=[wm.WritableTxnMarkerTopic(name="t", partition_indexes=[0])])])
    assert write_txn_markers.handle(w.ctx(27, 1), marker).markers[0].topics[0].partitions[0].error_code == 0
    w.seq[0] = 2
    assert isinstance(w.produce(9), Delayed) and len(w.verifier.asked) == 2


def test_produce_v12_asks_to_add_and_verdicts_map_as_kafka(tmp_path):
    w = World(tmp_path)
    for verdict, want in ((E.PRODUCER_FENCED, E.INVALID_PRODUCER_EPOCH),
                          (E.NETWORK_EXCEPTION, E.NOT_ENOUGH_REPLICAS),
                          (E.COORDINATOR_LOAD_IN_PROGRESS, E.NOT_ENOUGH_REPLICAS),
                          (E.INVALID_TXN_STATE, E.INVALID_TXN_STATE)):
        d = w.produce(12)
        assert w.verifier.asked[-1][-1] is True  # add, for a transaction.version 2 producer
        resp = w.answer(d, {("t", 0): verdict})
        assert codes(resp) == [want], verdict
    assert w.rm.get("t", 0).log_end_offset == 0
    d = w.produce(12)
    resp = w.answer(d, {("t", 0): E.NONE})
    assert codes(resp) == [0] and w.rm.get("t", 0).log_end_offset == 1


def test_no_answer_in_time_is_not_enough_replicas(tmp_path):
    w = World(tmp_path)
    d = w.produce(9)
    resp = d.on_expire(7000)
    assert codes(resp) == [E.NOT_ENOUGH_REPLICAS] and w.rm.get("t", 0).log_end_offset == 0


def test_offsets_markers_wait_for_the_group_coordinators_load(tmp_path):
    w = World(tmp_path)
    offsets = w.services.txn_offsets = Offsets()
    marker = wm.WriteTxnMarkersRequest(markers=[wm.WritableTxnMarker(
        producer_id=7, producer_epoch=0, transaction_result=True, coordinator_epoch=0,
        topics=[wm.WritableTxnMarkerTopic(name="__consumer_offsets", partition_indexes=[0])])])

    def write():
        return write_txn_markers.handle(w.ctx(27, 1), marker).markers[0].topics[0].partitions[0].error_code
    for offsets.error in (E.COORDINATOR_LOAD_IN_PROGRESS, E.NOT_COORDINATOR):
        assert write() == E.NOT_LEADER_OR_FOLLOWER
    assert w.rm.get("__consumer_offsets", 0).log_end_offset == 0 and offsets.completed == []
    offsets.error = E.NONE  # loaded
    assert write() == 0
    assert w.rm.get("__consumer_offsets", 0).log_end_offset == 1 and offsets.completed == [(7, 0, True)]
