"""Helpers shared by the data-path handlers."""

from __future__ import annotations

import re

from odradek.log.errors import LogError
from odradek.wire.errors import ErrorCode

_LEGAL_TOPIC = re.compile(r"^[a-zA-Z0-9._-]+$")
MAX_TOPIC_NAME = 249


def topic_name_error(name) -> str | None:
    """Why `name` is not a legal topic name (Kafka's Topic.validate), or None."""
    if not name:
        return "Topic name is illegal, it can't be empty"
    if name in (".", ".."):
        return "Topic name cannot be \".\" or \"..\""
    if len(name) > MAX_TOPIC_NAME:
        return f"Topic name is illegal, it can't be longer than {MAX_TOPIC_NAME} characters"
    if not _LEGAL_TOPIC.match(name):
        return (f"Topic name \"{name}\" is illegal, it contains a character other than ASCII "
                "alphanumerics, '.', '_' and '-'")
    return None


def log_error_code(exc: LogError) -> int:
    """Kafka error code for an exception from odradek.log (by its error_name)."""
    name = exc.error_name
    if name == "RECORD_TOO_LARGE":
        name = "MESSAGE_TOO_LARGE"
    try:
        return int(ErrorCode[name])
    except KeyError:
        return int(ErrorCode.UNKNOWN_SERVER_ERROR)


class _CloseConnection:
    """Returned by a handler instead of a response: close the connection (Kafka does
    this for an acks=0 Produce that failed, so the client refreshes its metadata)."""

    def __repr__(self) -> str:
        return "CLOSE_CONNECTION"


CLOSE_CONNECTION = _CloseConnection()


class SliceRecords:
    """A Fetch response's records field backed by log file slices (sent with sendfile).

    len() is the byte count the encoder writes as the field's length.
    """

    __slots__ = ("slices", "total")

    def __init__(self, fetch_slices):
        self.slices = fetch_slices.slices
        self.total = fetch_slices.total_bytes

    def __len__(self) -> int:
        return self.total

    def __bytes__(self) -> bytes:
        return b"".join(s.file.read(s.position, s.length) for s in self.slices)


def broker_endpoint(b, listener: str) -> tuple[str, int] | None:
    """(host, port) of broker ``b`` on ``listener``, the listener a client connected to (Kafka answers
    each client with the endpoints of its own listener; a broker without it is left out); "": the
    broker's first registered endpoint."""
    if not listener or not b.endpoints:
        return b.host, b.port
    for name, host, port, _ in b.endpoints:
        if name == listener:
            return host, port
    return None


def leader_endpoints(image, leader_ids, endpoint_cls, listener: str = "") -> list:
    """KIP-951's NodeEndpoints of a Produce/Fetch response: each named leader that is a
    registered, unfenced broker (Kafka's getAliveBrokerNode), in node id order."""
    out = []
    for node_id in sorted(set(leader_ids)):
        b = image.brokers.get(node_id)
        if b is not None and not b.fenced and (ep := broker_endpoint(b, listener)) is not None:
            out.append(endpoint_cls(node_id=node_id, host=ep[0], port=ep[1], rack=b.rack))
    return out


def mirror_partitions(topics, topic_result, partition_result) -> list:
    """An error response's topic list mirroring the request's: topic_result(topic, partition results),
    one partition_result(partition) for each of the topic's partitions (None lists: empty)."""
    return [topic_result(t, [partition_result(p) for p in t.partitions or ()]) for t in topics or ()]


def offline_replicas(image, replicas, listener: str = "") -> list:
    """A partition's replicas on brokers not registered, fenced or without the client's ``listener``
    (KRaftMetadataCache's getOfflineReplicas, Metadata and DescribeTopicPartitions)."""
    brokers = image.brokers
    return [r for r in replicas if (b := brokers.get(r)) is None or b.fenced or broker_endpoint(b, listener) is None]


def listener_leader(image, leader: int, listener: str) -> tuple[int, bool]:
    """(the leader id a client on ``listener`` is told, whether the leader is a registered broker):
    -1 when it is not registered or has no endpoint on that listener (KRaftMetadataCache's
    getAliveEndpoint; Metadata then answers LEADER_NOT_AVAILABLE or LISTENER_NOT_FOUND)."""
    b = image.brokers.get(leader)
    if b is None:
        return -1, False
    return (leader if broker_endpoint(b, listener) is not None else -1), True
