"""UnregisterBroker (key 64) v0: remove a broker's registration (kafka-cluster unregister --id), as
Kafka's controller: it leaves every ISR and ELR first; a broker not registered is
BROKER_ID_NOT_REGISTERED. Needs ALTER on the cluster (authorization.CLUSTER_OPERATIONS); a cluster
broker forwards it to the active controller (controller_api.ADMIN_WRITES)."""

from __future__ import annotations

from odradek.api_handlers.error_responses import top_level_error
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.unregister_broker_response import UnregisterBrokerResponse

API_KEY = 64
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> UnregisterBrokerResponse:
    failed = ctx.services.metadata.unregister_broker(req.broker_id, ctx.now_ms)
    code, message = failed if failed is not None else (ErrorCode.NONE, None)
    return UnregisterBrokerResponse(throttle_time_ms=0, error_code=code, error_message=message)


# Kafka's UnregisterBrokerRequest.getErrorResponse: the code and the exception's message
error_response = top_level_error(UnregisterBrokerResponse, message=True)
