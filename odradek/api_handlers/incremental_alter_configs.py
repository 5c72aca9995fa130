"""IncrementalAlterConfigs (key 44) v0-1: SET / DELETE / APPEND / SUBTRACT on topics and brokers."""

from __future__ import annotations

from odradek.wire.messages.incremental_alter_configs_response import (
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsResponse,
)

from .alter_configs import resource_responses, split_refused

API_KEY = 44
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request) -> IncrementalAlterConfigsResponse:
    resources = [(r.resource_type, r.resource_name, [(c.name, c.config_operation, c.value) for c in r.configs])
                 for r in request.resources]
    resources, refused = split_refused(ctx, resources)
    results = (ctx.services.metadata.incremental_alter_configs(resources, bool(request.validate_only), ctx.now_ms)
               if resources else [])
    return IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=resource_responses(
        AlterConfigsResourceResponse, [(r.error_code, r.error_message, r) for r in results] + refused))


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's IncrementalAlterConfigsRequest.getErrorResponse."""
    return IncrementalAlterConfigsResponse(responses=resource_responses(
        AlterConfigsResourceResponse, ((code, msg, r) for r in req.resources or ())))
