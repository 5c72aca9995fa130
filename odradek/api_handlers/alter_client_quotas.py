"""AlterClientQuotas (key 49) v0-1: ClientQuotaRecords through the controller, validated as
Kafka's ClientQuotaControlManager (entity types and combinations, keys, value ranges). More than
10,000 records refuse the request whole: POLICY_VIOLATION on every entry, with the error's default
message (AlterClientQuotasRequest.getErrorResponse)."""

from __future__ import annotations

from odradek.controller import client_quotas
from odradek.controller.result import Refusal
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_client_quotas_response import AlterClientQuotasResponse, EntityData, EntryData

API_KEY = 49
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request) -> AlterClientQuotasResponse:
    alterations = [([(e.entity_type, e.entity_name) for e in entry.entity],
                     [(op.key, None if op.remove else op.value) for op in entry.ops])
                    for entry in request.entries]
    results = ctx.services.metadata.decide_and_commit(
        lambda image: client_quotas.alter(image.client_quotas, alterations, ctx.resolve_host),
        bool(request.validate_only), ctx.now_ms)
    if isinstance(results, Refusal):  # more records than one controller batch holds
        return error_response(ctx.api_version, request, results.error_code, results.message)
    return AlterClientQuotasResponse(throttle_time_ms=0, entries=[
        EntryData(error_code=code, error_message=msg,
                  entity=[EntityData(entity_type=t, entity_name=n) for t, n in entity])
        for entity, code, msg in results])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterClientQuotasRequest.getErrorResponse."""
    default_msg = ErrorCode.from_code(code).message  # Kafka sets Errors.message() here
    return AlterClientQuotasResponse(entries=[
        EntryData(error_code=code, error_message=default_msg, entity=[
            EntityData(entity_type=e.entity_type, entity_name=e.entity_name) for e in en.entity or ()])
        for en in req.entries or ()])
