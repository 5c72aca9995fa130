"""Small helpers the group handlers share (odradek/api_handlers/{join_group,offset_commit,...}.py)."""

from __future__ import annotations


def coordinates(ctx, group_id: str) -> bool:
    """This node holds the group's __consumer_offsets partition. Kafka answers NOT_COORDINATOR
    otherwise, also before the topic exists (the first FindCoordinator creates it)."""
    return ctx.broker.groups.is_coordinator(group_id)


def client_host(ctx) -> str:
    """Kafka shows the client's InetAddress.toString(): '/127.0.0.1'."""
    host = ctx.client_host or ""
    if host and not host.startswith("/"):
        host = "/" + host
    return host


def topic_partitions(ctx, topic: str):
    """The set of partition indexes of ``topic`` in the current metadata image, or None if unknown.

    Returns the sentinel ANY when the broker has no metadata image to check against.
    """
    controller = getattr(ctx.broker, "controller", None)
    image = getattr(controller, "image", None)
    topics = getattr(image, "topics", None)
    if topics is None:
        return ANY
    t = topics.get(topic) if hasattr(topics, "get") else None
    if t is None:
        return None
    parts = getattr(t, "partitions", None)
    if parts is None:
        return ANY
    return parts


def metadata_topics(ctx):
    """({name: TopicImage}, {topic id: TopicImage}) of the current metadata image (empty without one)."""
    controller = getattr(ctx.broker, "controller", None)
    image = getattr(controller, "image", None)
    return getattr(image, "topics", None) or {}, getattr(image, "topics_by_id", None) or {}


def split_known_partitions(ctx, topics, value):
    """Request topics -> ({(topic, partition): value(p)} for partitions in the metadata image,
    {(topic, partition): UNKNOWN_TOPIC_OR_PARTITION} for the others)."""
    from odradek.wire.errors import ErrorCode

    known: dict = {}
    unknown: dict = {}
    for t in topics:
        parts = topic_partitions(ctx, t.name)
        for p in t.partitions:
            tp = (t.name, p.partition_index)
            if parts is None or p.partition_index not in parts:
                unknown[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            else:
                known[tp] = value(p)
    return known, unknown


class _Any:
    def __contains__(self, item) -> bool:
        return True


ANY = _Any()
