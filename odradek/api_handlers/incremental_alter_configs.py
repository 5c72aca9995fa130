"""IncrementalAlterConfigs (key 44) v0-1: SET / DELETE / APPEND / SUBTRACT on topics and brokers."""

from __future__ import annotations

from odradek.wire.messages.incremental_alter_configs_response import (
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsResponse,
)

from typing import NamedTuple

from . import broker_loggers
from .alter_configs import answer, resource_responses, split_refused
from .context import in_steps

API_KEY = 44
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request):
    """The response; the controller's decision over a large request is made a part at a time
    (context.in_steps), its records written as one batch. A BROKER_LOGGER resource is this node's
    loggers' levels, changed here (broker_loggers), answered after the others (as Kafka's ControllerApis;
    a cluster broker answers them in the request's order, broker_config_target)."""
    resources = [(r.resource_type, r.resource_name, [(c.name, c.config_operation, c.value) for c in r.configs])
                 for r in request.resources]
    resources, refused = split_refused(ctx, resources)
    loggers = [r for r in resources if r[0] == broker_loggers.BROKER_LOGGER]
    if loggers:
        resources = [r for r in resources if r[0] != broker_loggers.BROKER_LOGGER]
        refused = [logger_result(ctx.services.node.node_id, r, bool(request.validate_only)) for r in loggers] + refused
    return in_steps(answer(ctx.services.metadata.incremental_alter_configs_steps, ctx, resources,
                           bool(request.validate_only), refused, IncrementalAlterConfigsResponse,
                           AlterConfigsResourceResponse))


class _Resource(NamedTuple):
    resource_type: int
    resource_name: str


def logger_result(node_id: int, resource, validate_only: bool) -> tuple:
    """(error code, message, resource) of a BROKER_LOGGER resource (type, name, [(logger, op, level)]),
    carried out unless ``validate_only``."""
    rtype, name, ops = resource
    try:
        broker_loggers.alter(node_id, name, ops, validate_only)
    except broker_loggers.Refused as e:
        return e.code, e.message, _Resource(rtype, name)
    return 0, None, _Resource(rtype, name)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's IncrementalAlterConfigsRequest.getErrorResponse."""
    return IncrementalAlterConfigsResponse(responses=resource_responses(
        AlterConfigsResourceResponse, ((code, msg, r) for r in req.resources or ())))
