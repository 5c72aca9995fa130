"""What an odradek broker replays from an Apache Kafka 4.3 controller's metadata log: every record
type of Kafka's MetadataRecordType decodes, a metadata transaction (Begin/End/AbortTransactionRecord,
as Kafka's controller writes around its bootstrap records) is published whole or not at all, broker
fencing/unregistration and ClearElrRecord replay as Kafka's images do, and a Kafka snapshot's
SnapshotHeader/Footer control batches are skipped."""
from __future__ import annotations

import struct

import pytest

from odradek.controller.controller import Controller
from odradek.controller.image import MetadataDelta, MetadataImage
from odradek.controller.records import RECORD_TYPES, decode_record, encode_record
from odradek.controller.snapshot import decode_snapshot
from odradek.wire.exceptions import MalformedError
from odradek.wire.messages.abort_transaction_record import AbortTransactionRecord
from odradek.wire.messages.begin_transaction_record import BeginTransactionRecord
from odradek.wire.messages.clear_elr_record import ClearElrRecord
from odradek.wire.messages.end_transaction_record import EndTransactionRecord
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.fence_broker_record import FenceBrokerRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.producer_ids_record import ProducerIdsRecord
from odradek.wire.messages.register_broker_record import BrokerEndpoint, RegisterBrokerRecord
from odradek.wire.messages.register_controller_record import RegisterControllerRecord
from odradek.wire.messages.snapshot_footer_record import SnapshotFooterRecord
from odradek.wire.messages.snapshot_header_record import SnapshotHeaderRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.messages.unregister_broker_record import UnregisterBrokerRecord
from odradek.wire.records import ControlRecordType, Record, build_batch
from odradek.wire.primitives import uvarint_bytes

TOPIC_ID = bytes(range(1, 17))
# the api keys of Kafka 4.3's MetadataRecordType (6, 13 and 16 are retired)
KAFKA_METADATA_RECORD_KEYS = set(range(0, 29)) - {6, 13, 16}


def test_every_kafka_metadata_record_type_decodes():
    assert set(RECORD_TYPES) == KAFKA_METADATA_RECORD_KEYS
    for key, cls in RECORD_TYPES.items():
        for version in range(cls.VALID_VERSIONS[0], cls.VALID_VERSIONS[1] + 1):
            rec, v = decode_record(encode_record(cls(), version))
            assert type(rec) is cls and v == version


def test_an_unknown_record_type_is_refused_by_the_serde_and_skipped_by_the_replay(tmp_path):
    unknown = uvarint_bytes(1) + uvarint_bytes(99) + uvarint_bytes(0)
    with pytest.raises(MalformedError, match="unknown metadata record type 99"):
        decode_record(unknown)
    c = Controller(str(tmp_path), 3, {}, 0)
    c.apply_batch(0, [unknown, encode_record(FeatureLevelRecord(name="metadata.version", feature_level=30))])
    assert c.image.features == {"metadata.version": 30} and c.image.offset == 1


def _broker(node_id: int, epoch: int) -> RegisterBrokerRecord:
    return RegisterBrokerRecord(broker_id=node_id, broker_epoch=epoch, incarnation_id=bytes(16), fenced=False,
                                end_points=[BrokerEndpoint(name="PLAINTEXT", host="127.0.0.1", port=9000 + node_id,
                                                           security_protocol=0)])


def test_a_metadata_transaction_is_published_at_its_end_over_several_batches(tmp_path):
    c = Controller(str(tmp_path), 3, {}, 0)
    published = []
    c.add_listener(lambda old, new: published.append(new))
    # Kafka's controller activation on an empty log: a transaction around the bootstrap records
    c.apply_batch(0, [encode_record(BeginTransactionRecord(name="Bootstrap records")),
                      encode_record(FeatureLevelRecord(name="metadata.version", feature_level=30))])
    assert published == [] and c.image.features == {} and c.in_transaction  # no snapshot taken here
    c.apply_batch(2, [encode_record(FeatureLevelRecord(name="group.version", feature_level=1)),
                      encode_record(EndTransactionRecord()),
                      encode_record(RegisterControllerRecord(controller_id=1))])
    assert len(published) == 1
    assert dict(c.image.features) == {"metadata.version": 30, "group.version": 1} and c.image.offset == 4
    assert not c.in_transaction
    # an aborted transaction leaves nothing but the offset moved past it
    c.apply_batch(5, [encode_record(BeginTransactionRecord(name="x")), encode_record(_broker(7, 5)),
                      encode_record(AbortTransactionRecord(reason="test")), encode_record(ProducerIdsRecord())])
    assert 7 not in c.image.brokers and c.image.offset == 8


def test_fence_unregister_broker_records(tmp_path):
    d = MetadataDelta(MetadataImage())
    d.replay(_broker(2, 10), 10)
    d.replay(_broker(3, 11), 11)
    d.replay(FenceBrokerRecord(id=2, epoch=10), 12)
    img = d.apply()
    assert img.brokers[2].fenced and not img.brokers[3].fenced
    d = MetadataDelta(img)
    d.replay(UnregisterBrokerRecord(broker_id=3, broker_epoch=11), 13)
    d.replay(FenceBrokerRecord(id=3, epoch=11), 14)  # of an unregistered broker: nothing
    img = d.apply()
    assert sorted(img.brokers) == [2] and img.offset == 14


def test_clear_elr_record_empties_elr_and_last_known_elr():
    d = MetadataDelta(MetadataImage())
    d.replay(TopicRecord(name="t", topic_id=TOPIC_ID), 0)
    d.replay(PartitionRecord(partition_id=0, topic_id=TOPIC_ID, replicas=[1, 2, 3], isr=[1], leader=1,
                             leader_epoch=4, partition_epoch=7, eligible_leader_replicas=[2],
                             last_known_elr=[3]), 1)
    d.replay(PartitionRecord(partition_id=1, topic_id=TOPIC_ID, replicas=[1, 2], isr=[1, 2], leader=1,
                             leader_epoch=0, partition_epoch=0), 2)
    img = d.apply()
    for name in ("t", ""):  # the named topic, then every topic
        d = MetadataDelta(img)
        d.replay(ClearElrRecord(topic_name=name), 3)
        p0, p1 = d.apply().topics["t"].partitions[0], d.apply().topics["t"].partitions[1]
        assert (p0.elr, p0.last_known_elr, p0.leader_epoch, p0.partition_epoch) == ((), (), 4, 8)
        assert p1 == img.topics["t"].partitions[1]  # nothing to clear: untouched


def _control(kind: ControlRecordType, value: bytes, offset: int) -> bytes:
    return build_batch([Record(0, 0, 0, struct.pack(">hh", 0, kind), value, ())], base_offset=offset,
                       is_control=True, base_timestamp=0)


def test_a_kafka_snapshot_with_header_and_footer_restores():
    body = [encode_record(FeatureLevelRecord(name="metadata.version", feature_level=30)), encode_record(_broker(2, 9)),
            encode_record(TopicRecord(name="t", topic_id=TOPIC_ID))]
    data = (_control(ControlRecordType.SNAPSHOT_HEADER, SnapshotHeaderRecord(version=0, last_contained_log_timestamp=1)
                     .encode(0), 0)
            + build_batch([(None, v, (), 0) for v in body], base_offset=1)
            + _control(ControlRecordType.SNAPSHOT_FOOTER, SnapshotFooterRecord(version=0).encode(0), 4))
    img = decode_snapshot(data, 40, "cid", 1)
    b = img.brokers[2]
    assert img.features["metadata.version"] == 30 and (b.host, b.port, b.fenced, b.epoch) == ("127.0.0.1", 9002, False, 9)
    assert img.topics["t"].topic_id == TOPIC_ID and img.offset == 39
