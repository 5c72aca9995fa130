"""IncrementalAlterConfigs (key 44) v0-1: SET / DELETE / APPEND / SUBTRACT on topics and brokers."""

from __future__ import annotations

from odradek.wire.messages.incremental_alter_configs_response import (
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsResponse,
)

from .alter_configs import answer, resource_responses, split_refused
from .context import in_steps

API_KEY = 44
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request):
    """The response; the controller's decision over a large request is made a part at a time
    (context.in_steps), its records written as one batch."""
    resources = [(r.resource_type, r.resource_name, [(c.name, c.config_operation, c.value) for c in r.configs])
                 for r in request.resources]
    resources, refused = split_refused(ctx, resources)
    return in_steps(answer(ctx.services.metadata.incremental_alter_configs_steps, ctx, resources,
                           bool(request.validate_only), refused, IncrementalAlterConfigsResponse,
                           AlterConfigsResourceResponse))


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's IncrementalAlterConfigsRequest.getErrorResponse."""
    return IncrementalAlterConfigsResponse(responses=resource_responses(
        AlterConfigsResourceResponse, ((code, msg, r) for r in req.resources or ())))
