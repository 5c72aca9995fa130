"""What the group handlers share: the coordinator port, whether this node coordinates a group,
the client's host as Kafka shows it, and the metadata image's topics as the group APIs read them."""

from __future__ import annotations

from typing import Callable

from odradek.controller.acls import READ, TOPIC
from odradek.wire.errors import ErrorCode

from .authorization import allowed_names
from .context import StepCount
from .ports import Groups


def coordinator(ctx) -> Groups:
    return ctx.services.groups


def protocol_disabled(ctx, protocol: str) -> bool:
    """``protocol`` (consumer, streams) is not in group.coordinator.rebalance.protocols: as Kafka's
    KafkaApis, its APIs stay listed by ApiVersions and answer UNSUPPORTED_VERSION."""
    return protocol not in ctx.services.rebalance_protocols


def coordinator_error(ctx, group_id: str) -> ErrorCode:
    """NONE when this node coordinates the group (it leads the group's __consumer_offsets partition
    and has loaded it). Else what Kafka answers: NOT_COORDINATOR (also before the topic exists: the
    first FindCoordinator creates it), COORDINATOR_LOAD_IN_PROGRESS while the partition loads."""
    return ctx.services.groups.coordinator_error(group_id)


def client_host(ctx) -> str:
    """Kafka shows the client's InetAddress.toString(): '/127.0.0.1'."""
    host = ctx.client_host or ""
    if host and not host.startswith("/"):
        host = "/" + host
    return host


class _TopicTable:
    """{name: (topic_id, partition count)} of a metadata image's topics, made once per topics
    mapping: an image never changes, and a change of its topics makes a new mapping (an image whose
    topics did not change shares its predecessor's). A heartbeat used to make it afresh: at 100,000
    topics 73 ms per ConsumerGroupHeartbeat (issue 27)."""

    def __init__(self):
        self.topics = None  # the image's topics mapping the table was made from (held: compared by identity)
        self.table: dict = {}

    def of(self, topics) -> dict:
        if topics is not self.topics:
            self.table = {name: (bytes(t.topic_id), len(t.partitions)) for name, t in topics.items()}
            self.topics = topics
        return self.table


_TOPIC_TABLE = _TopicTable()


def image_topics(ctx) -> dict:
    """{name: (topic_id, partition count)} of the current metadata image (shared: read it only)."""
    return _TOPIC_TABLE.of(ctx.services.metadata.image.topics)


def metadata_topics(ctx):
    """({name: TopicImage}, {topic id: TopicImage}) of the current metadata image."""
    image = ctx.services.metadata.image
    return image.topics, image.topics_by_id


class TopicAnswers:
    """Kafka's OffsetCommitResponse.Builder (TopicIdBuilder from v10, TopicNameBuilder before) and
    TxnOffsetCommitResponse.Builder: the handler's error answers first, topics in the order met, then
    the coordinator's answer merged in (its partitions join the topic already there, by id with
    ``by_id``, else by name). ``make(name, topic_id)``: an empty topic of the answer."""

    def __init__(self, by_id: bool, make: Callable):
        self.by_id = by_id
        self.make = make
        self.topics: list = []
        self._index: dict = {}

    def _add(self, topic) -> None:
        self._index.setdefault(topic.topic_id if self.by_id else topic.name, topic)
        self.topics.append(topic)

    def partitions(self, name: str, topic_id: bytes = b"") -> list:
        """The partitions of the answer's topic (made, after those there, if new): an error answer's
        partitions are appended to it."""
        t = self._index.get(topic_id if self.by_id else name)
        if t is None:
            t = self.make(name, topic_id)
            self._add(t)
        return t.partitions

    def merge(self, topics: list) -> None:
        if not self.topics:  # Kafka takes the coordinator's answer as it is
            for t in topics:
                self._add(t)
            return
        for t in topics:
            there = self._index.get(t.topic_id if self.by_id else t.name)
            if there is None:
                self._add(t)
            else:
                there.partitions.extend(t.partitions)


def split_known_partitions_in_steps(ctx, topics, value, count: StepCount):
    """Request topics -> ({(topic, partition): value(p)} for partitions in the metadata image,
    {(topic, partition): UNKNOWN_TOPIC_OR_PARTITION} for the others, TOPIC_AUTHORIZATION_FAILED for the
    topics the principal may not READ (TxnOffsetCommit, OffsetDelete: Kafka checks before existence)),
    as a generator for context.in_steps (a yield every STEP_ENTRIES partitions)."""
    known: dict = {}
    unknown: dict = {}
    image_topics = ctx.services.metadata.image.topics
    denied: set = set()
    if ctx.services.authorizer is not None:
        names = {t.name for t in topics}
        denied = names - allowed_names(ctx, READ, TOPIC, names)
    for t in topics:
        ti = image_topics.get(t.name)
        for p in t.partitions:
            if count.due():
                yield
            tp = (t.name, p.partition_index)
            if denied and t.name in denied:
                unknown[tp] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif ti is None or p.partition_index not in ti.partitions:
                unknown[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            else:
                known[tp] = value(p)
    return known, unknown


def described_entries(group) -> int:
    """The entries of a described group (a DescribeGroups, ConsumerGroupDescribe, ShareGroupDescribe or
    StreamsGroupDescribe answer's): the group and each of its members, what a step of a large describe
    counts (context.made_in_parts)."""
    return 1 + len(group.members)
