"""IncrementalAlterConfigs (key 44) v0-1: SET / DELETE / APPEND / SUBTRACT on topics and brokers."""

from __future__ import annotations

import functools

from odradek.controller.acls import ALTER_CONFIGS, CLUSTER, CLUSTER_ACTION, CLUSTER_NAME
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.incremental_alter_configs_response import (
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsResponse,
)

from . import authorization, broker_loggers
from .alter_configs import answer, resource_responses
from .context import in_steps

API_KEY = 44
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request):
    """The response; the controller's decision over a large request is made a part at a time
    (context.in_steps), its records written as one batch. A BROKER_LOGGER resource is this node's
    loggers' levels, changed here (broker_logger): on a broker's listener (a single node's) after
    Kafka's checks of every resource (broker_config_target.preprocess), answered in the request's
    order; on a quorum's CONTROLLER listener after the others, as Kafka's ControllerApis."""
    validate_only = bool(request.validate_only)
    logger = functools.partial(broker_logger, ctx, validate_only)
    resources, carried_out = list(request.resources), []
    if ctx.services.controller_listener:  # (ControllerApis: CLUSTER_ACTION on the cluster, not ALTER_CONFIGS)
        carried_out = [(*_loggers_here(ctx, validate_only, r, CLUSTER_ACTION), r) for r in resources
                       if r.resource_type == broker_loggers.BROKER_LOGGER]
        resources = [r for r in resources if r.resource_type != broker_loggers.BROKER_LOGGER]
    return in_steps(answer(ctx.services.metadata.incremental_alter_configs_steps, ctx, API_KEY, resources,
                           validate_only, _entries, IncrementalAlterConfigsResponse, AlterConfigsResourceResponse,
                           logger, carried_out))


def _entries(resource) -> list:
    return [(c.name, c.config_operation, c.value) for c in resource.configs]


def broker_logger(ctx, validate_only: bool, resource) -> tuple[int, str | None]:
    """A BROKER_LOGGER resource of a client's IncrementalAlterConfigs on a broker's listener, carried out
    on this node unless ``validate_only`` (Kafka's RuntimeLoggerManager, after ALTER_CONFIGS on the
    cluster): (error code, message)."""
    return _loggers_here(ctx, validate_only, resource, ALTER_CONFIGS)


def _loggers_here(ctx, validate_only: bool, resource, op: int) -> tuple[int, str | None]:
    if not authorization.allowed(ctx, op, CLUSTER, CLUSTER_NAME):
        return int(ErrorCode.CLUSTER_AUTHORIZATION_FAILED), ErrorCode.CLUSTER_AUTHORIZATION_FAILED.message
    try:
        broker_loggers.alter(ctx.services.node.node_id, resource.resource_name, _entries(resource), validate_only)
    except broker_loggers.Refused as e:
        return int(e.code), e.message
    return 0, None


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's IncrementalAlterConfigsRequest.getErrorResponse."""
    return IncrementalAlterConfigsResponse(responses=resource_responses(
        AlterConfigsResourceResponse, ((code, msg, r) for r in req.resources or ())))
