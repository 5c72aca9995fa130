"""Metadata (key 3): brokers, cluster id, controller, topics and partition leaders.

Auto-creates unknown topics when the broker and the request allow it (all of a request's in
one CreateTopics, so Kafka's bounds on one request apply: more than 10,000 records refuses them
all); like Kafka 4.3 the answer for such a topic is UNKNOWN_TOPIC_OR_PARTITION whatever becomes of
its creation (the client asks again), and a creation that fails is logged as Kafka's
AutoTopicCreationManager logs it (checked against a Kafka 4.3 broker: Metadata v4-13, a topic
created, one colliding with an existing name, 5,001 names refused whole).
"""

from __future__ import annotations

import logging

from odradek.api_handlers.context import STEP_ENTRIES, Stepped, answered_in_parts
from odradek.controller.controller import CreateTopicSpec
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)

from odradek.controller.acls import CLUSTER, CLUSTER_NAME, CREATE, DESCRIBE, TOPIC

from .authorization import allowed, allowed_names, operations
from .common import broker_endpoint, listener_leader, offline_replicas, topic_name_error

API_KEY = 3
MIN_VERSION = 0
MAX_VERSION = 13

ZERO_UUID = b"\0" * 16
STEPPED_TOPICS = 8  # a Metadata auto-creating more topics than this creates them in steps
STEP_TOPICS = 4  # the topics one step creates
OMITTED_OPS = -2147483648
# AclOperation bits: READ 3, WRITE 4, CREATE 5, DELETE 6, ALTER 7, DESCRIBE 8,
# CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11, IDEMPOTENT_WRITE 12,
# CREATE_TOKENS 13, DESCRIBE_TOKENS 14
TOPIC_OPS = sum(1 << b for b in (3, 4, 5, 6, 7, 8, 10, 11))
CLUSTER_OPS = sum(1 << b for b in (5, 7, 8, 9, 10, 11, 12, 13, 14))

log = logging.getLogger("odradek.broker")


def _topic_response(ctx, topic, internal: bool, include_ops: bool) -> MetadataResponseTopic:
    ops = OMITTED_OPS
    if include_ops:
        ops = operations(ctx, TOPIC, topic.name, TOPIC_OPS) if ctx.services.authorizer is not None else TOPIC_OPS
    parts = []
    image = ctx.services.metadata.image
    listener, v = ctx.listener, ctx.api_version
    for p in sorted(topic.partitions):
        pi = topic.partitions[p]
        replicas, isr = list(pi.replicas), list(pi.in_sync)
        if v == 0:  # v0 names only the replicas a client can reach (Kafka's errorUnavailableEndpoints)
            replicas, isr = _reachable(image, replicas, listener), _reachable(image, isr, listener)
        # a leader that is not a registered broker (none: -1): LEADER_NOT_AVAILABLE; a registered one
        # without the client's listener: LISTENER_NOT_FOUND from v6 (KRaftMetadataCache)
        leader, registered = listener_leader(image, pi.leader, listener)
        if leader < 0:
            error = ErrorCode.LISTENER_NOT_FOUND if registered and v >= 6 else ErrorCode.LEADER_NOT_AVAILABLE
        elif len(replicas) < len(pi.replicas) or len(isr) < len(pi.in_sync):
            error = ErrorCode.REPLICA_NOT_AVAILABLE
        else:
            error = ErrorCode.NONE
        parts.append(MetadataResponsePartition(
            error_code=error, partition_index=p, leader_id=leader, leader_epoch=pi.leader_epoch,
            replica_nodes=replicas, isr_nodes=isr, offline_replicas=offline_replicas(image, pi.replicas, listener)))
    return MetadataResponseTopic(
        error_code=0, name=topic.name, topic_id=topic.topic_id, is_internal=internal, partitions=parts,
        topic_authorized_operations=ops)


def _reachable(image, ids: list, listener: str) -> list:
    return [i for i in ids if (b := image.brokers.get(i)) is not None and not b.fenced
            and broker_endpoint(b, listener) is not None]


# A Metadata sends each topic it names (or all, in a full one) as its encoding cached here,
# valid while the image keeps the same TopicImage and brokers (the image shares both across
# changes to other topics; a delta that changes the topic or the brokers makes new ones):
# (api version, include_ops, the client's listener) -> topic name -> (TopicImage, brokers,
# wire Encoded).
# Kept to the topics of the image last answered (entries of deleted topics are dropped).
_ENCODED: dict[tuple[int, bool, str], dict[str, tuple]] = {}


_SORTED: list = [None, []]  # [the image's topics mapping, its names sorted]


def _sorted_names(image) -> list[str]:
    if _SORTED[0] is not image.topics:
        _SORTED[:] = [image.topics, sorted(image.topics)]
    return _SORTED[1]


def _prune_encoded(image) -> None:
    for per in _ENCODED.values():
        if len(per) > len(image.topics):
            for name in [n for n in per if n not in image.topics]:
                del per[name]


def handle(ctx, req):
    """The response, all of it from one image. Its topics are added a part at a time (_Answer.part): a
    part ends once STEP_ENTRIES partitions were made that were not found encoded, so a small Metadata, or
    a large one found encoded, is answered by one part, with no generator (the hot path pays nothing for
    the steps); a large cold one (the first after a start, a change of the brokers) goes on a part a
    step (context.answered_in_parts)."""
    answer = _Answer(ctx, req)
    return answered_in_parts(answer.part, answer.response)


class _Answer:
    """A Metadata's answer, made a part at a time (``part``), then ``response``."""

    __slots__ = ("ctx", "req", "image", "include_ops", "names", "topics_out", "denied_out", "to_create", "made",
                 "allow_auto", "describable", "may_create", "seen")

    def __init__(self, ctx, req):
        services = ctx.services
        v = ctx.api_version
        self.ctx = ctx
        self.req = req
        self.image = image = services.metadata.image
        self.include_ops = v >= 8 and bool(req.include_topic_authorized_operations)
        self.topics_out = []
        self.denied_out = []  # TOPIC_AUTHORIZATION_FAILED answers, after the others (as Kafka)
        self.to_create = []  # unknown topics this request auto-creates
        self.made = 0  # the partitions of the topics made (not found encoded) since the last part
        authorizing = services.authorizer is not None
        if req.topics is None or (v == 0 and not req.topics):
            names = _sorted_names(image)
            if authorizing:  # topics the principal may not DESCRIBE are left out
                describable = allowed_names(ctx, DESCRIBE, TOPIC, names)
                names = [n for n in names if n in describable]
            self.names = names  # every topic
            return
        self.names = None  # the request's topics
        self.allow_auto = services.auto_create_topics_enable and (v < 4 or req.allow_auto_topic_creation)
        self.seen = set()
        if authorizing:
            asked = {t.name if t.name else (ti.name if (ti := image.topics_by_id.get(t.topic_id)) else "")
                     for t in req.topics}
            self.describable = allowed_names(ctx, DESCRIBE, TOPIC, asked)
            self.may_create = allowed(ctx, CREATE, CLUSTER, CLUSTER_NAME) or None
        else:
            self.describable = self.may_create = None

    def part(self, start: int) -> int | None:
        """The topics from the ``start``-th (of every topic or of the request's) answered until STEP_ENTRIES
        partitions were made: -> where the next part starts, None when all are answered."""
        return self._every(start) if self.names is not None else self._asked(start)

    def _every(self, start: int) -> int | None:
        names, topics, out = self.names, self.image.topics, self.topics_out
        is_internal = self.ctx.services.metadata.is_internal
        for i in range(start, len(names)):
            name = names[i]
            out.append(self._encoded(topics[name], is_internal(name)))
            if self.made >= STEP_ENTRIES and i + 1 < len(names):
                self.made = 0
                return i + 1
        return None

    def _asked(self, start: int) -> int | None:
        v, image, asked = self.ctx.api_version, self.image, self.req.topics
        is_internal = self.ctx.services.metadata.is_internal
        topics_out, denied_out, describable, seen = self.topics_out, self.denied_out, self.describable, self.seen
        for i in range(start, len(asked)):
            t = asked[i]
            name = t.name
            if name is None or (v >= 10 and t.topic_id != ZERO_UUID and not name):
                topic = image.topics_by_id.get(t.topic_id)
                if topic is None:
                    topics_out.append(MetadataResponseTopic(
                        error_code=ErrorCode.UNKNOWN_TOPIC_ID, name=None, topic_id=t.topic_id,
                        is_internal=False, partitions=[]))
                    continue
                if describable is not None and topic.name not in describable:
                    denied_out.append(MetadataResponseTopic(
                        error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=None, topic_id=t.topic_id,
                        is_internal=False, partitions=[]))
                    continue
            else:
                if name in seen:
                    continue
                seen.add(name)
                if describable is not None and name not in describable:
                    # the topic's existence is not disclosed
                    denied_out.append(MetadataResponseTopic(
                        error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=name, topic_id=ZERO_UUID,
                        is_internal=False, partitions=[]))
                    continue
                topic = image.topics.get(name)
                if topic is None:
                    self._unknown(name)
                    continue
            topics_out.append(self._encoded(topic, is_internal(topic.name)))
            if self.made >= STEP_ENTRIES and i + 1 < len(asked):
                self.made = 0
                return i + 1
        return None

    def _encoded(self, topic, internal: bool):
        """A topic's answer: as encoded for the image's brokers before (_ENCODED), else made (and kept)."""
        ctx, include_ops = self.ctx, self.include_ops
        if include_ops and ctx.services.authorizer is not None:  # (the operations are the principal's)
            self.made += len(topic.partitions)
            return _topic_response(ctx, topic, internal, include_ops)
        v = ctx.api_version
        key = (v, include_ops, ctx.listener)
        per = _ENCODED.get(key)
        if per is None:
            per = _ENCODED[key] = {}
        brokers = self.image.brokers
        hit = per.get(topic.name)
        if hit is not None and hit[0] is topic and hit[1] is brokers:
            return hit[2]
        self.made += len(topic.partitions)
        enc = _topic_response(ctx, topic, internal, include_ops).encoded(v)
        per[topic.name] = (topic, brokers, enc)
        return enc

    def _unknown(self, name: str) -> None:
        """The answer for a topic the image does not hold (auto-created if the request and the broker
        allow it, and the principal may)."""
        ctx, allow_auto = self.ctx, self.allow_auto
        is_internal = ctx.services.metadata.is_internal
        if (allow_auto and self.describable is not None and self.may_create is None
                and not allowed(ctx, CREATE, TOPIC, name)):  # CREATE on the cluster or on the topic
            self.denied_out.append(MetadataResponseTopic(
                error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=name, topic_id=ZERO_UUID,
                is_internal=is_internal(name), partitions=[]))
            return
        if topic_name_error(name) is not None:
            err = ErrorCode.INVALID_TOPIC_EXCEPTION
        elif allow_auto:
            # as Kafka 4.3 answers while it creates a topic (an internal one with its coordinator's settings)
            err = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            self.to_create.append(name)
        else:
            err = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        self.topics_out.append(MetadataResponseTopic(
            error_code=err, name=name, topic_id=ZERO_UUID, is_internal=is_internal(name), partitions=[],
            topic_authorized_operations=OMITTED_OPS))

    def response(self):
        """The answer once every topic is: the brokers and the cluster added (a Stepped while many topics
        are auto-created)."""
        ctx, req, image = self.ctx, self.req, self.image
        services = ctx.services
        v = ctx.api_version
        _prune_encoded(image)
        brokers = []
        for node_id in sorted(image.brokers):
            bi = image.brokers[node_id]
            ep = None if bi.fenced else broker_endpoint(bi, ctx.listener)
            if ep is None:
                continue
            brokers.append(MetadataResponseBroker(node_id=bi.node_id, host=ep[0], port=ep[1], rack=bi.rack))
        if not brokers:
            node = services.node
            brokers.append(MetadataResponseBroker(node_id=node.node_id, host=node.host, port=node.port, rack=None))
        cluster_ops = OMITTED_OPS
        if 8 <= v <= 10 and req.include_cluster_authorized_operations:
            cluster_ops = CLUSTER_OPS
            if services.authorizer is not None:
                cluster_ops = (operations(ctx, CLUSTER, CLUSTER_NAME, CLUSTER_OPS)
                               if allowed(ctx, DESCRIBE, CLUSTER, CLUSTER_NAME) else 0)
        resp = MetadataResponse(
            throttle_time_ms=0, brokers=brokers, cluster_id=image.cluster_id,
            controller_id=image.controller_id, topics=self.topics_out + self.denied_out,
            cluster_authorized_operations=cluster_ops,
            error_code=0)
        to_create = self.to_create
        if not to_create:
            return resp
        if len(to_create) <= STEPPED_TOPICS:
            _auto_create(services, to_create, ctx.now_ms)
            return resp
        return Stepped(_AutoCreateSteps(services, to_create, resp, ctx.now_ms).step)


def _auto_create(services, names: list[str], now_ms: int) -> None:
    for r in services.topic_creation.auto_create_topics(names, now_ms):
        if r.error_code not in (0, 36):
            log.warning("Auto topic creation failed for %s with error '%s': %s", r.name,
                        ErrorCode(r.error_code).name, r.error_message)


class _AutoCreateSteps:
    """Many topics auto-created a few at a time (other clients served between steps), the
    answer once all are. The request is decided whole first: Kafka sends its topics in one
    CreateTopics, so a request over Kafka's bounds creates none."""

    def __init__(self, services, names: list[str], resp, now_ms: int):
        self.services = services
        self.resp = resp
        self.todo = names
        plain = [n for n in names if not services.metadata.is_internal(n)]
        decided = services.metadata.create_topics([CreateTopicSpec(n) for n in plain], True, now_ms) if plain else []
        if any(r.error_code == ErrorCode.POLICY_VIOLATION for r in decided):
            for r in decided:
                log.warning("Auto topic creation failed for %s with error '%s': %s", r.name,
                            ErrorCode(r.error_code).name, r.error_message)
            self.todo = [n for n in names if services.metadata.is_internal(n)]

    def step(self, now_ms: int):
        if not self.todo:
            return self.resp
        batch, self.todo = self.todo[:STEP_TOPICS], self.todo[STEP_TOPICS:]
        _auto_create(self.services, batch, now_ms)
        return None


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's MetadataRequest.getErrorResponse."""
    return MetadataResponse(topics=[
        MetadataResponseTopic(name=t.name if t.name is not None else "", topic_id=t.topic_id,
                              error_code=code, is_internal=False, partitions=[])
        for t in req.topics or ()])
