"""AlterConfigs (key 33) v0-2: the legacy whole-set replacement of a resource's dynamic configs."""

from __future__ import annotations

from typing import NamedTuple

from odradek.controller.acls import ALTER_CONFIGS
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_configs_response import AlterConfigsResourceResponse, AlterConfigsResponse

from . import broker_config_target
from .authorization import config_resource_denied
from .context import in_steps

API_KEY = 33
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, request):
    """The response; the controller's decision over a large request is made a part at a time
    (context.in_steps), its records written as one batch."""
    return in_steps(answer(ctx.services.metadata.alter_configs_steps, ctx, API_KEY, request.resources,
                           bool(request.validate_only), lambda r: [(c.name, c.value) for c in r.configs],
                           AlterConfigsResponse, AlterConfigsResourceResponse))


def answer(decide_steps, ctx, api_key: int, resources: list, validate_only: bool, entries, response: type,
           result: type, logger=None, carried_out: list = ()):
    """AlterConfigs' and IncrementalAlterConfigs' answer to the request's ``resources`` (``entries(r)``: a
    resource's entries as the decision takes them). On a broker's listener (a single node's), as Kafka's
    KafkaApis: what the broker answers itself first (broker_config_target.preprocess, ``logger`` its
    BROKER_LOGGER resources), then those the principal may not alter, then the controller's decision
    over the rest; answered in the request's order (ConfigAdminManager.reassemble*Response). On a
    quorum's CONTROLLER listener (ControllerApis): the decided resources, the refused, then
    ``carried_out`` ([(error code, message, resource)]: its BROKER_LOGGER resources)."""
    controller = ctx.services.controller_listener
    here = {} if controller else broker_config_target.preprocess(api_key, resources, ctx.services.node.node_id,
                                                                 logger)
    rest = [(r.resource_type, r.resource_name, entries(r)) for i, r in enumerate(resources) if i not in here]
    rest, refused = split_refused(ctx, rest)
    results = (yield from decide_steps(rest, validate_only, ctx.now_ms)) if rest else []
    answered = [(r.error_code, r.error_message, r) for r in results] + refused
    if controller:
        return response(throttle_time_ms=0, responses=resource_responses(result, answered + list(carried_out)))
    by_resource = {(r.resource_type, r.resource_name): (code, msg, r) for code, msg, r in answered}
    in_order = []
    for i, r in enumerate(resources):
        key = _Resource(r.resource_type, r.resource_name)
        in_order.append((*here[i], key) if i in here else by_resource.get(tuple(key), (
            ErrorCode.UNKNOWN_SERVER_ERROR, None, key)))
    return response(throttle_time_ms=0, responses=resource_responses(result, in_order))


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
