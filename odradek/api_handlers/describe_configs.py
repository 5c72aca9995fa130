"""DescribeConfigs (key 32) v1-4: topic and broker resources, synonyms, config types (v3+)."""

from __future__ import annotations

from odradek.controller.acls import DESCRIBE_CONFIGS
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)

from . import broker_loggers
from .authorization import config_resource_denied

DYNAMIC_BROKER_LOGGER_CONFIG = 6  # DescribeConfigs' config source
API_KEY = 32
MIN_VERSION = 1
MAX_VERSION = 4


def handle(ctx, request) -> DescribeConfigsResponse:
    resources = [(r.resource_type, r.resource_name, r.configuration_keys) for r in request.resources]
    refused = []
    if ctx.services.authorizer is not None:  # DESCRIBE_CONFIGS on each (Kafka's ConfigHelper): refused ones last
        denied = [(r, config_resource_denied(ctx, DESCRIBE_CONFIGS, r[0], r[1])) for r in resources]
        resources = [r for r, e in denied if e is None]
        refused = [DescribeConfigsResult(error_code=e, error_message=e.message, resource_type=r[0], resource_name=r[1],
                                         configs=[]) for r, e in denied if e is not None]
    others = [r for r in resources if r[0] != broker_loggers.BROKER_LOGGER]
    described = iter(ctx.services.metadata.describe_configs(others, bool(request.include_synonyms),
                                                            bool(request.include_documentation)) if others else [])
    # in the request's order (Kafka's ConfigHelper): this node's loggers described here (broker_loggers)
    results = [_loggers(ctx.services.node.node_id, name, keys) if rtype == broker_loggers.BROKER_LOGGER
               else _described(next(described)) for rtype, name, keys in resources]
    return DescribeConfigsResponse(throttle_time_ms=0, results=results + refused)


def _described(d) -> DescribeConfigsResult:
    configs = [
        DescribeConfigsResourceResult(
            name=c.name, value=c.value, read_only=c.read_only, config_source=c.config_source,
            is_sensitive=c.is_sensitive,
            synonyms=[DescribeConfigsSynonym(name=n, value=v, source=s) for n, v, s in c.synonyms],
            config_type=c.config_type, documentation=c.documentation)
        for c in d.configs
    ]
    # Kafka 4.3 answers with a message string, "" when it has none: a described resource too
    # (checked with raw DescribeConfigs v1 and v4 of a topic, a broker and a group against it)
    message = (d.error_message if d.error_code else None) or ""
    return DescribeConfigsResult(error_code=int(d.error_code), error_message=message, resource_type=d.resource_type,
                                 resource_name=d.resource_name, configs=configs)


def _loggers(node_id: int, name: str, keys: list[str] | None) -> DescribeConfigsResult:
    """A BROKER_LOGGER resource: each logger and its level (Kafka's ConfigHelper: dynamic broker
    logger configs, not read-only, no synonyms, no config type)."""
    try:
        levels = broker_loggers.describe(node_id, name)
    except broker_loggers.Refused as e:
        return DescribeConfigsResult(error_code=e.code, error_message=e.message, resource_type=broker_loggers.BROKER_LOGGER,
                                     resource_name=name, configs=[])
    return DescribeConfigsResult(error_code=0, error_message="", resource_type=broker_loggers.BROKER_LOGGER,
                                 resource_name=name, configs=[DescribeConfigsResourceResult(
                                     name=k, value=v, read_only=False, config_source=DYNAMIC_BROKER_LOGGER_CONFIG,
                                     is_sensitive=False, synonyms=[], config_type=0) for k, v in levels.items()
                                     if not keys or k in keys])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeConfigsRequest.getErrorResponse."""
    default_msg = ErrorCode.from_code(code).message  # Kafka sets Errors.message() here
    return DescribeConfigsResponse(results=[
        DescribeConfigsResult(error_code=code, error_message=default_msg,
                              resource_type=r.resource_type, resource_name=r.resource_name, configs=[])
        for r in req.resources or ()])
