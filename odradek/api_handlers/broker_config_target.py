"""Which broker a BROKER config resource of an (Incremental)AlterConfigs may name on the broker the
request was sent to, as Kafka's ConfigAdminManager.preprocess: the cluster default ("") or that
broker itself (a client's admin sends a broker's configs to that broker); the active controller
then takes any broker id (ControllerConfigurationValidator). A cluster broker answers the
misdirected resources itself and forwards the others."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages import alter_configs_response as acr
from odradek.wire.messages import incremental_alter_configs_response as iacr

BROKER = 4
ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 33, 44
_RESULT = {ALTER_CONFIGS: acr.AlterConfigsResourceResponse, INCREMENTAL_ALTER_CONFIGS: iacr.AlterConfigsResourceResponse}
_RESPONSE = {ALTER_CONFIGS: acr.AlterConfigsResponse, INCREMENTAL_ALTER_CONFIGS: iacr.IncrementalAlterConfigsResponse}


def misdirected(resources, node_id: int) -> dict[int, str]:
    """index of a resource -> why this broker refuses it (INVALID_REQUEST)."""
    out = {}
    for i, r in enumerate(resources):
        if r.resource_type != BROKER or r.resource_name == "":
            continue
        try:
            named = int(r.resource_name)
        except ValueError:
            out[i] = f"Node id must be an integer, but it is: {r.resource_name}"
            continue
        if named != node_id:
            out[i] = f"Unexpected broker id, expected {node_id}, but received {r.resource_name}"
    return out


def split(api_key: int, req, node_id: int):
    """-> (the request of the resources to forward, or None if none is left; the refused results)."""
    refused = misdirected(req.resources, node_id)
    if not refused:
        return req, []
    results = [_RESULT[api_key](error_code=ErrorCode.INVALID_REQUEST, error_message=msg,
                                resource_type=req.resources[i].resource_type,
                                resource_name=req.resources[i].resource_name) for i, msg in refused.items()]
    kept = [r for i, r in enumerate(req.resources) if i not in refused]
    return (type(req)(resources=kept, validate_only=req.validate_only) if kept else None), results


def merged(api_key: int, resp, refused: list):
    """The forwarded answer (None: nothing forwarded) with the refused resources' results."""
    if resp is None:
        return _RESPONSE[api_key](throttle_time_ms=0, responses=list(refused))
    resp.responses = list(resp.responses) + refused
    return resp
