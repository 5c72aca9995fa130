"""AlterConfigs (key 33) v0-2: the legacy whole-set replacement of a resource's dynamic configs."""

from __future__ import annotations

from typing import NamedTuple

from odradek.controller.acls import ALTER_CONFIGS
from odradek.wire.messages.alter_configs_response import AlterConfigsResourceResponse, AlterConfigsResponse

from .authorization import config_resource_denied
from .context import in_steps

API_KEY = 33
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, request):
    """The response; the controller's decision over a large request is made a part at a time
    (context.in_steps), its records written as one batch."""
    resources = [(r.resource_type, r.resource_name, [(c.name, c.value) for c in r.configs])
                 for r in request.resources]
    resources, refused = split_refused(ctx, resources)
    return in_steps(answer(ctx.services.metadata.alter_configs_steps, ctx, resources, bool(request.validate_only),
                           refused, AlterConfigsResponse, AlterConfigsResourceResponse))


def answer(decide_steps, ctx, resources: list, validate_only: bool, refused: list, response: type, result: type):
    """AlterConfigs' and IncrementalAlterConfigs' answer: the decided resources, then the refused."""
    results = (yield from decide_steps(resources, validate_only, ctx.now_ms)) if resources else []
    return response(throttle_time_ms=0, responses=resource_responses(
        result, [(r.error_code, r.error_message, r) for r in results] + refused))


class _Resource(NamedTuple):
    resource_type: int
    resource_name: str


def split_refused(ctx, resources: list) -> tuple[list, list]:
    """With an authorizer: (the resources the principal may ALTER_CONFIGS, [(error, its message, resource)]
    for the others, answered after the rest as Kafka: 'Topic authorization failed.' and so on)."""
    if ctx.services.authorizer is None:
        return resources, []
    checked = [(r, config_resource_denied(ctx, ALTER_CONFIGS, r[0], r[1])) for r in resources]
    return ([r for r, e in checked if e is None],
            [(e, e.message, _Resource(r[0], r[1])) for r, e in checked if e is not None])


def resource_responses(cls: type, results) -> list:
    """[(code, message, resource)] -> the response's entries (AlterConfigs and
    IncrementalAlterConfigs answer each resource alike)."""
    return [cls(error_code=int(code), error_message=message, resource_type=r.resource_type,
                resource_name=r.resource_name) for code, message, r in results]


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterConfigsRequest.getErrorResponse."""
    return AlterConfigsResponse(responses=resource_responses(
        AlterConfigsResourceResponse, ((code, msg, r) for r in req.resources or ())))
