"""What a broker does itself of an (Incremental)AlterConfigs, as Kafka's ConfigAdminManager.preprocess,
before the rest goes to the controller (forwarded to the active controller on a cluster broker, decided
at once on a single node): each resource named more than once is refused; then, resource by resource, a
config key named twice, a value missing (null) for any operation but DELETE, a BROKER resource naming
another broker than the cluster default ("") or this one (a client's admin sends a broker's configs to
that broker; the active controller then takes any broker id, ControllerConfigurationValidator); a
BROKER_LOGGER resource of an IncrementalAlterConfigs is carried out here (this node's loggers). The
answer keeps the request's order (ConfigAdminManager.reassemble*Response)."""

from __future__ import annotations

from typing import Callable

from odradek.controller.decisions import DUPLICATE_RESOURCE
from odradek.java_numbers import parse_int
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import alter_configs_response as acr
from odradek.wire.messages import incremental_alter_configs_response as iacr

BROKER, BROKER_LOGGER = 4, 8
OP_DELETE = 1
ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 33, 44
_RESULT = {ALTER_CONFIGS: acr.AlterConfigsResourceResponse, INCREMENTAL_ALTER_CONFIGS: iacr.AlterConfigsResourceResponse}
_RESPONSE = {ALTER_CONFIGS: acr.AlterConfigsResponse, INCREMENTAL_ALTER_CONFIGS: iacr.IncrementalAlterConfigsResponse}

# (error code, message) of a resource answered by the broker itself
Answer = tuple[int, "str | None"]


def preprocess(api_key: int, resources, node_id: int,
               logger: Callable[[object], Answer] | None = None) -> dict[int, Answer]:
    """index of a resource -> its answer, for those this broker answers itself (ConfigAdminManager.preprocess,
    its checks in its order); the others are the controller's. ``logger(resource)``: the answer to an
    IncrementalAlterConfigs' BROKER_LOGGER resource that passed the checks (carried out here)."""
    counts: dict[tuple[int, str], int] = {}
    for r in resources:
        counts[(r.resource_type, r.resource_name)] = counts.get((r.resource_type, r.resource_name), 0) + 1
    invalid = int(ErrorCode.INVALID_REQUEST)
    out: dict[int, Answer] = {}
    for i, r in enumerate(resources):
        if counts[(r.resource_type, r.resource_name)] > 1:
            out[i] = invalid, DUPLICATE_RESOURCE
            continue
        names = [c.name for c in r.configs]
        if len(set(names)) != len(names):
            out[i] = invalid, "Error due to duplicate config keys"
            continue
        nulls = [c.name for c in r.configs if c.value is None
                 and (api_key == ALTER_CONFIGS or c.config_operation != OP_DELETE)]
        if nulls:
            out[i] = invalid, "Null value not supported for : " + ", ".join(nulls)
            continue
        if r.resource_type == BROKER_LOGGER and api_key == INCREMENTAL_ALTER_CONFIGS and logger is not None:
            out[i] = logger(r)
        elif r.resource_type == BROKER and r.resource_name != "":
            named = parse_int(r.resource_name)
            if named is None:
                out[i] = invalid, f"Node id must be an integer, but it is: {r.resource_name}"
            elif named != node_id:
                out[i] = invalid, f"Unexpected broker id, expected {node_id}, but received {r.resource_name}"
    return out


def split(api_key: int, req, node_id: int, logger: Callable[[object], Answer] | None = None):
    """-> (the request of the resources to forward, or None if none is left; {index: the result of a
    resource refused or carried out here} (``preprocess``))."""
    results = {i: _RESULT[api_key](error_code=code, error_message=msg, resource_type=req.resources[i].resource_type,
                                   resource_name=req.resources[i].resource_name)
               for i, (code, msg) in preprocess(api_key, req.resources, node_id, logger).items()}
    if not results:
        return req, {}
    kept = [r for i, r in enumerate(req.resources) if i not in results]
    return (type(req)(resources=kept, validate_only=req.validate_only) if kept else None), results


def merged(api_key: int, original, resp, refused: dict):
    """The answer to ``original``, in its order (Kafka's ConfigAdminManager.reassemble*Response): each
    resource's result refused here, else the forwarded answer's (``resp``; None: nothing forwarded) for
    its name and type (UNKNOWN_SERVER_ERROR if it has none)."""
    answered = {(r.resource_name, r.resource_type): r for r in (resp.responses if resp is not None else ())}
    out = []
    for i, r in enumerate(original.resources):
        got = refused.get(i) or answered.get((r.resource_name, r.resource_type))
        if got is None:
            got = _RESULT[api_key](error_code=ErrorCode.UNKNOWN_SERVER_ERROR, error_message=None,
                                   resource_type=r.resource_type, resource_name=r.resource_name)
        out.append(got)
    if resp is None:
        return _RESPONSE[api_key](throttle_time_ms=0, responses=out)
    resp.responses = out
    return resp
