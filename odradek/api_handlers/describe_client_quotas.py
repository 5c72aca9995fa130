"""DescribeClientQuotas (key 48) v0-1: client quotas from the metadata image, filtered as Kafka's
ClientQuotasImage.describe (exact / default / any-specified components, strict)."""

from __future__ import annotations

from odradek.controller import client_quotas
from odradek.wire.messages.describe_client_quotas_response import (DescribeClientQuotasResponse, EntityData,
                                                                   EntryData, ValueData)

API_KEY = 48
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request) -> DescribeClientQuotasResponse:
    components = [(c.entity_type, c.match_type, c.match) for c in request.components]
    try:
        found = client_quotas.describe(ctx.services.metadata.image.client_quotas, components, bool(request.strict))
    except client_quotas.DescribeError as e:
        return DescribeClientQuotasResponse(throttle_time_ms=0, error_code=e.code, error_message=e.message,
                                            entries=None)
    return DescribeClientQuotasResponse(throttle_time_ms=0, error_code=0, error_message="", entries=[
        EntryData(entity=[EntityData(entity_type=t, entity_name=n) for t, n in entity],
                  values=[ValueData(key=k, value=v) for k, v in values.items()])
        for entity, values in found])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeClientQuotasRequest.getErrorResponse."""
    return DescribeClientQuotasResponse(error_code=code, error_message=msg, entries=None)
