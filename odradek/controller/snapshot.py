"""A MetadataImage as the records that rebuild it: the payload of a metadata snapshot.

Kafka's KRaft snapshot is record batches of metadata records describing the whole
image, between a SnapshotHeader and a SnapshotFooter control batch. Replaying
``image_records(img)`` into an empty MetadataDelta gives back ``img``'s content.
"""

from __future__ import annotations

import struct

from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.register_broker_record import BrokerEndpoint, BrokerFeature, RegisterBrokerRecord
from odradek.wire.messages.snapshot_footer_record import SnapshotFooterRecord
from odradek.wire.messages.snapshot_header_record import SnapshotHeaderRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.records import ControlRecordType, Record, build_batch, iter_batches

from . import acls, client_quotas, producer_ids, scram
from .configs import BROKER, TOPIC
from .group_configs import GROUP
from .image import MetadataDelta, MetadataImage
from .records import decode_record, encode_record

_CONTROL_KEY = struct.Struct(">hh")  # a control record's key: version 0, ControlRecordType


def image_records(img: MetadataImage) -> list:
    out: list = [FeatureLevelRecord(name=k, feature_level=v) for k, v in sorted(img.features.items())]
    for b in sorted(img.brokers.values(), key=lambda b: b.node_id):
        # an image built without registration records (a single node's own broker) has neither
        endpoints = b.endpoints or (("PLAINTEXT", b.host, b.port, 0),)
        supported = b.features or (("metadata.version", 1, img.features.get("metadata.version", 1)),)
        out.append(RegisterBrokerRecord(
            broker_id=b.node_id, incarnation_id=b.incarnation_id, broker_epoch=b.epoch,
            end_points=[BrokerEndpoint(name=n, host=h, port=p, security_protocol=sp) for n, h, p, sp in endpoints],
            features=[BrokerFeature(name=n, min_supported_version=lo, max_supported_version=hi)
                      for n, lo, hi in supported],
            rack=b.rack, fenced=b.fenced, in_controlled_shutdown=b.in_controlled_shutdown, log_dirs=list(b.log_dirs)))
    for name, cfg in sorted(img.broker_configs.items()):
        out += [ConfigRecord(resource_type=BROKER, resource_name=name, name=k, value=v) for k, v in sorted(cfg.items())]
    for t in sorted(img.topics.values(), key=lambda t: t.name):
        out.append(TopicRecord(name=t.name, topic_id=t.topic_id))
        for p in sorted(t.partitions.values(), key=lambda p: p.partition):
            out.append(PartitionRecord(
                partition_id=p.partition, topic_id=t.topic_id, replicas=list(p.replicas), isr=list(p.isr),
                removing_replicas=list(p.removing_replicas), adding_replicas=list(p.adding_replicas),
                leader=p.leader, leader_recovery_state=p.leader_recovery_state, leader_epoch=p.leader_epoch,
                partition_epoch=p.partition_epoch, eligible_leader_replicas=list(p.elr),
                last_known_elr=list(p.last_known_elr), directories=list(p.directories)))
    for name, cfg in sorted(img.topic_configs.items()):
        out += [ConfigRecord(resource_type=TOPIC, resource_name=name, name=k, value=v) for k, v in sorted(cfg.items())]
    for name, cfg in sorted(img.group_configs.items()):
        out += [ConfigRecord(resource_type=GROUP, resource_name=name, name=k, value=v) for k, v in sorted(cfg.items())]
    out += client_quotas.image_records(img.client_quotas)
    out += scram.image_records(img.scram_credentials)
    out += acls.image_records(img.acls)
    out += producer_ids.image_records(img)
    return out


def _control_batch(base_offset: int, epoch: int, kind: ControlRecordType, value: bytes) -> bytes:
    key = _CONTROL_KEY.pack(0, kind)
    return build_batch([Record(0, 0, 0, key, value, ())], base_offset=base_offset, partition_leader_epoch=epoch,
                       is_control=True, base_timestamp=0)


def encode_snapshot(img: MetadataImage, end_offset: int, epoch: int = 0) -> bytes:
    """The snapshot file body as Kafka's RecordsSnapshotWriter lays it out (kraft.version 0): a control
    batch with the SnapshotHeaderRecord, the image's records in batches of up to 1000, a control batch
    with the SnapshotFooterRecord; offsets from 0, every batch in the snapshot's epoch. (Kafka's
    RecordsSnapshotReader refuses a snapshot whose first batch is not the header.)"""
    values = [encode_record(r) for r in image_records(img)]
    out = [_control_batch(0, epoch, ControlRecordType.SNAPSHOT_HEADER,
                          SnapshotHeaderRecord(version=0, last_contained_log_timestamp=0).encode(0))]
    base = 1
    for i in range(0, len(values), 1000):
        chunk = values[i:i + 1000]
        out.append(build_batch([(None, v, (), 0) for v in chunk], base_offset=base, partition_leader_epoch=epoch))
        base += len(chunk)
    out.append(_control_batch(base, epoch, ControlRecordType.SNAPSHOT_FOOTER,
                              SnapshotFooterRecord(version=0).encode(0)))
    return b"".join(out)


def decode_snapshot(data: bytes, end_offset: int, cluster_id: str, controller_id: int) -> MetadataImage:
    delta = MetadataDelta(MetadataImage(cluster_id=cluster_id, controller_id=controller_id))
    for header, records in iter_batches(data):
        if header.is_control:  # SnapshotHeader / Footer, KRaftVersion, Voters: not metadata records
            continue
        for r in records:
            rec, _ = decode_record(r.value)
            delta.replay(rec, end_offset - 1)
    img = delta.apply(cluster_id=cluster_id, controller_id=controller_id)
    return img
