"""CreateTopics (key 19) v2-7: validate_only, configs in the response from v5, topic ids from v7."""

from __future__ import annotations

from odradek.controller.controller import CreateTopicSpec
from odradek.wire.messages.create_topics_response import (
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsResponse,
)

API_KEY = 19
MIN_VERSION = 2
MAX_VERSION = 7


def handle(ctx, request) -> CreateTopicsResponse:
    specs = []
    for t in request.topics:
        assignments = {a.partition_index: list(a.broker_ids) for a in t.assignments} if t.assignments else None
        specs.append(CreateTopicSpec(
            name=t.name,
            num_partitions=t.num_partitions,
            replication_factor=t.replication_factor,
            assignments=assignments,
            configs={c.name: c.value for c in t.configs},
        ))
    results = ctx.services.metadata.create_topics(specs, bool(request.validate_only), ctx.now_ms)
    topics = []
    for r in results:
        out = CreatableTopicResult(name=r.name, topic_id=r.topic_id, error_code=int(r.error_code),
                                   error_message=r.error_message, num_partitions=r.num_partitions,
                                   replication_factor=r.replication_factor, configs=[])
        if ctx.api_version >= 5 and r.error_code == 0:
            out.configs = [CreatableTopicConfigs(name=c.name, value=c.value, read_only=c.read_only,
                                                 config_source=c.config_source, is_sensitive=c.is_sensitive)
                           for c in r.configs]
        topics.append(out)
    return CreateTopicsResponse(throttle_time_ms=0, topics=topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's CreateTopicsRequest.getErrorResponse."""
    return CreateTopicsResponse(topics=[
        CreatableTopicResult(name=t.name, error_code=code, error_message=msg)
        for t in req.topics or ()])
