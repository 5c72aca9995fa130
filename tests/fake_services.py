"""Handler services (odradek/api_handlers/ports.py) for tests: the broker's own adapters over the
real parts a test has (Controller, ReplicaManager, coordinators), fakes for the rest."""
from __future__ import annotations

from odradek.api_handlers.fetch_session import FetchSessionCache
from odradek.api_handlers.ports import Node, Services
from odradek.broker.services import (INTERNAL_TOPICS, ControllerMetadata, GroupsPort, LeaderPartitions,
                                     LocalLogDirs, LocalQuorum, NoLogDirs, NoPartitions, NoTopicCreation)
from odradek.controller.features import BOOTSTRAP
from odradek.controller.image import MetadataImage, PartitionImage, TopicImage

NODE = Node(1, "127.0.0.1", 9092)


class ImageMetadata:
    """ports.Metadata over an image a test builds (read through ``image_of``, so the test may replace
    it between requests), with the bootstrap features; these tests make no metadata writes."""

    def __init__(self, image_of):
        self._image_of = image_of

    @property
    def image(self):
        return self._image_of()

    def finalized_features(self) -> dict[str, int]:
        return dict(BOOTSTRAP)

    def finalized_features_epoch(self) -> int:
        return 0

    def is_internal(self, topic: str) -> bool:
        return topic in INTERNAL_TOPICS


def services(*, controller=None, image_of=None, replicas=None, log_manager=None, groups=None, txns=None,
             txn_offsets=None, fetch_sessions=None, partitions=None, wake=lambda key: 0) -> Services:
    """A Services for a handler test: metadata from ``controller`` (a started Controller) or
    ``image_of``; partitions from ``replicas`` (a ReplicaManager) or ``partitions`` (a fake)."""
    metadata = ControllerMetadata(controller) if controller is not None else ImageMetadata(image_of)
    if partitions is None:
        partitions = LeaderPartitions(replicas) if replicas is not None else NoPartitions()
    return Services(
        node=NODE, metadata=metadata, topic_creation=NoTopicCreation(),
        quorum=LocalQuorum(controller, NODE.node_id, "CONTROLLER", NODE.host, NODE.port),
        partitions=partitions,
        log_dirs=LocalLogDirs(log_manager) if log_manager is not None else NoLogDirs(),
        fetch_sessions=FetchSessionCache() if fetch_sessions is None else fetch_sessions, producer_ids=None, clock=lambda: 0, wake=wake,
        auto_create_topics_enable=False,
        groups=GroupsPort(groups) if groups is not None else None, txns=txns, txn_offsets=txn_offsets)


def image_of_topics(topics: dict) -> MetadataImage:
    """A MetadataImage of {name: (topic id, partition count)}."""
    me = NODE.node_id
    made = {name: TopicImage(name, tid, {p: PartitionImage(p, me, 0, 0, (me,), (me,)) for p in range(n)})
            for name, (tid, n) in topics.items()}
    return MetadataImage(topics=made, topics_by_id={t.topic_id: t for t in made.values()})
