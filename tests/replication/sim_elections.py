"""The controller's partition decisions the cluster simulation needs, as Kafka's
ReplicationControlManager makes them without ELR (a fenced broker leaves every ISR but the last
member stays; a leader is the current one while valid, else the first valid replica in replica
order; AlterPartition checks leader epoch, leader, partition epoch and eligibility). They write
real PartitionChangeRecords that the image replays."""

from __future__ import annotations

import random

from odradek.controller.image import NO_LEADER, MetadataImage, PartitionImage
from odradek.replication.messages import AlterPartitionProposal
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.partition_change_record import PartitionChangeRecord


def _active(image: MetadataImage, b: int, excluded=frozenset()) -> bool:
    x = image.brokers.get(b)
    return x is not None and x.active and b not in excluded


def _elect(image: MetadataImage, p: PartitionImage, isr: list[int], excluded=frozenset()) -> int:
    if p.leader in isr and _active(image, p.leader, excluded):
        return p.leader
    return next((b for b in p.replicas if b in isr and _active(image, b, excluded)), NO_LEADER)


def _partitions(image: MetadataImage, topic: str) -> list[PartitionImage]:
    return [image.topics[topic].partitions[i] for i in sorted(image.topics[topic].partitions)]


def fence_and_elect(image: MetadataImage, topic_id: bytes, topic: str, fenced: set[int]) -> list:
    """The fenced brokers leave every ISR (never emptied) and lose their leaderships."""
    out = []
    for p in _partitions(image, topic):
        if not fenced & (set(p.isr) | {p.leader}):
            continue
        isr = [b for b in p.isr if b not in fenced] or list(p.isr)
        leader = _elect(image, p, isr, fenced)
        rec = PartitionChangeRecord(partition_id=p.partition, topic_id=topic_id)
        if isr != list(p.isr):
            rec.isr = isr
        if leader != p.leader:
            rec.leader = leader
        if rec.isr is not None or leader != p.leader:
            out.append(rec)
    return out


def elect_leaderless(image: MetadataImage, topic_id: bytes, topic: str) -> list:
    """A broker came back: leaderless partitions whose ISR holds an active broker get a leader."""
    out = []
    for p in _partitions(image, topic):
        if p.leader == NO_LEADER:
            leader = _elect(image, p, list(p.isr))
            if leader != NO_LEADER:
                out.append(PartitionChangeRecord(partition_id=p.partition, topic_id=topic_id, leader=leader))
    return out


def move_leader(image: MetadataImage, topic_id: bytes, topic: str, partition: int, rng: random.Random) -> list:
    """Leadership to another active ISR member (as a preferred-leader election would)."""
    p = image.topics[topic].partitions[partition]
    others = [b for b in p.isr if b != p.leader and _active(image, b)]
    if p.leader == NO_LEADER or not others:
        return []
    return [PartitionChangeRecord(partition_id=p.partition, topic_id=topic_id, leader=rng.choice(others))]


def alter_partition(image: MetadataImage, topic_id: bytes, topic: str, broker_id: int, broker_epoch: int,
                    partition: int, proposal: AlterPartitionProposal) -> tuple[PartitionImage | ErrorCode, list]:
    """AlterPartition for one partition -> (the partition as it will stand, or the error; records)."""
    b = image.brokers.get(broker_id)
    if b is None or b.epoch != broker_epoch:
        return ErrorCode.STALE_BROKER_EPOCH, []
    p = image.topics[topic].partitions[partition]
    if proposal.leader_epoch != p.leader_epoch:
        return ErrorCode.FENCED_LEADER_EPOCH, []
    if broker_id != p.leader or broker_id not in proposal.isr_ids:
        return ErrorCode.INVALID_REQUEST, []
    if proposal.partition_epoch != p.partition_epoch:
        return ErrorCode.INVALID_UPDATE_VERSION, []
    for m in proposal.new_isr:
        x = image.brokers.get(m.broker_id)
        if (m.broker_id not in p.replicas or x is None or not x.active
                or (m.broker_epoch != -1 and m.broker_epoch != x.epoch)):
            return ErrorCode.INELIGIBLE_REPLICA, []
    isr = [m.broker_id for m in proposal.new_isr]
    if set(isr) == set(p.isr):
        return p, []
    rec = PartitionChangeRecord(partition_id=p.partition, topic_id=topic_id, isr=isr)
    return p.merge(rec), [rec]
