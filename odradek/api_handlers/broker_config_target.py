"""What a cluster broker refuses of an (Incremental)AlterConfigs itself, as Kafka's
ConfigAdminManager.preprocess, before forwarding the rest to the active controller: a resource named
more than once, and a BROKER resource that names another broker than the cluster default ("") or this
one (a client's admin sends a broker's configs to that broker; the active controller then takes any
broker id, ControllerConfigurationValidator). The answer keeps the request's order."""

from __future__ import annotations

from odradek.controller.decisions import DUPLICATE_RESOURCE
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import alter_configs_response as acr
from odradek.wire.messages import incremental_alter_configs_response as iacr

BROKER, BROKER_LOGGER = 4, 8
ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 33, 44
_RESULT = {ALTER_CONFIGS: acr.AlterConfigsResourceResponse, INCREMENTAL_ALTER_CONFIGS: iacr.AlterConfigsResourceResponse}
_RESPONSE = {ALTER_CONFIGS: acr.AlterConfigsResponse, INCREMENTAL_ALTER_CONFIGS: iacr.IncrementalAlterConfigsResponse}


def refused_here(resources, node_id: int) -> dict[int, str]:
    """index of a resource -> why this broker refuses it (INVALID_REQUEST) before forwarding the rest: a
    resource named more than once (each of them), a broker resource naming another broker."""
    counts: dict[tuple[int, str], int] = {}
    for r in resources:
        counts[(r.resource_type, r.resource_name)] = counts.get((r.resource_type, r.resource_name), 0) + 1
    out = {}
    for i, r in enumerate(resources):
        if counts[(r.resource_type, r.resource_name)] > 1:
            out[i] = DUPLICATE_RESOURCE
        elif r.resource_type != BROKER or r.resource_name == "":
            continue
        else:
            try:
                named = int(r.resource_name)
            except ValueError:
                out[i] = f"Node id must be an integer, but it is: {r.resource_name}"
                continue
            if named != node_id:
                out[i] = f"Unexpected broker id, expected {node_id}, but received {r.resource_name}"
    return out


def split(api_key: int, req, node_id: int, logger=None):
    """-> (the request of the resources to forward, or None if none is left; {index: the result of a
    resource refused or carried out here}). ``logger(resource)``: (error code, message) of an
    IncrementalAlterConfigs' BROKER_LOGGER resource, carried out here (this node's loggers)."""
    refused = refused_here(req.resources, node_id)
    results = {i: _RESULT[api_key](error_code=ErrorCode.INVALID_REQUEST, error_message=msg,
                                   resource_type=req.resources[i].resource_type,
                                   resource_name=req.resources[i].resource_name) for i, msg in refused.items()}
    if logger is not None and api_key == INCREMENTAL_ALTER_CONFIGS:
        for i, r in enumerate(req.resources):
            if i not in results and r.resource_type == BROKER_LOGGER:
                code, msg = logger(r)
                results[i] = _RESULT[api_key](error_code=code, error_message=msg, resource_type=r.resource_type,
                                              resource_name=r.resource_name)
    if not results:
        return req, {}
    refused = results
    kept = [r for i, r in enumerate(req.resources) if i not in refused]
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
