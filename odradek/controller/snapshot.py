"""A MetadataImage as the records that rebuild it: the payload of a metadata snapshot.

Kafka's KRaft snapshot is record batches of metadata records describing the whole
image (its SnapshotHeader/Footer control records are left out here). Replaying
``image_records(img)`` into an empty MetadataDelta gives back ``img``'s content.
"""

from __future__ import annotations

from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.register_broker_record import BrokerEndpoint, BrokerFeature, RegisterBrokerRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.records import build_batch, iter_batches

from . import client_quotas, producer_ids, scram
from .configs import BROKER, TOPIC
from .group_configs import GROUP
from .image import MetadataDelta, MetadataImage
from .records import decode_record, encode_record


def image_records(img: MetadataImage) -> list:
    out: list = [FeatureLevelRecord(name=k, feature_level=v) for k, v in sorted(img.features.items())]
    for b in sorted(img.brokers.values(), key=lambda b: b.node_id):
        out.append(RegisterBrokerRecord(
            broker_id=b.node_id, incarnation_id=b.incarnation_id, broker_epoch=b.epoch,
            end_points=[BrokerEndpoint(name="PLAINTEXT", host=b.host, port=b.port, security_protocol=0)],
            features=[BrokerFeature(name="metadata.version", min_supported_version=1,
                                    max_supported_version=img.features.get("metadata.version", 1))],
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
    out += producer_ids.image_records(img)
    return out


def encode_snapshot(img: MetadataImage, end_offset: int) -> bytes:
    """The snapshot file body: one record batch per 1000 records."""
    values = [encode_record(r) for r in image_records(img)]
    chunks = [values[i:i + 1000] for i in range(0, len(values), 1000)] or [[]]
    out, base = [], 0
    for ch in chunks:
        if ch:
            out.append(build_batch([(None, v, (), 0) for v in ch], base_offset=base))
            base += len(ch)
    return b"".join(out)


def decode_snapshot(data: bytes, end_offset: int, cluster_id: str, controller_id: int) -> MetadataImage:
    delta = MetadataDelta(MetadataImage(cluster_id=cluster_id, controller_id=controller_id))
    for _, records in iter_batches(data):
        for r in records:
            rec, _ = decode_record(r.value)
            delta.replay(rec, end_offset - 1)
    img = delta.apply(cluster_id=cluster_id, controller_id=controller_id)
    return img
