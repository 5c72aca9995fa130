"""What the two sides of a cluster node share about the controller's APIs: which admin
requests go to the active controller, the NOT_CONTROLLER answer, and parking a
request in purgatory until an asyncio future (a forwarded or quorum-committed write) is done.
"""

from __future__ import annotations

import asyncio
import logging

from odradek.api_handlers.common import CLOSE_CONNECTION
from odradek.api_handlers.context import Delayed
from odradek.api_handlers.error_responses import error_response
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import (
    alter_partition_response as apr, broker_heartbeat_response as bhr, broker_registration_response as brr,
)

log = logging.getLogger("odradek.quorum")

CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 19, 20, 37, 33, 44
ALTER_CLIENT_QUOTAS, ALTER_USER_SCRAM_CREDENTIALS, UPDATE_FEATURES, ELECT_LEADERS = 49, 51, 57, 43
ALTER_PARTITION_REASSIGNMENTS = 45
ADMIN_WRITES = (CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS,
                ALTER_CLIENT_QUOTAS, ALTER_USER_SCRAM_CREDENTIALS, UPDATE_FEATURES, ELECT_LEADERS,
                ALTER_PARTITION_REASSIGNMENTS)
DESCRIBE_QUORUM, BROKER_REGISTRATION, BROKER_HEARTBEAT, ALTER_PARTITION = 55, 62, 63, 56
NOT_CONTROLLER = int(ErrorCode.NOT_CONTROLLER)


class NotControllerError(Exception):
    """This controller is not the active one (Kafka's NotControllerException)."""

    code = ErrorCode.NOT_CONTROLLER


def not_controller_response(api_key: int, version: int, req):
    """The NOT_CONTROLLER answer: an admin request's is its handler's error response (Kafka's
    getErrorResponse, as ControllerApis answers a NotControllerException)."""
    if api_key == BROKER_REGISTRATION:
        return brr.BrokerRegistrationResponse(error_code=NOT_CONTROLLER)
    if api_key == BROKER_HEARTBEAT:
        return bhr.BrokerHeartbeatResponse(error_code=NOT_CONTROLLER)
    if api_key == ALTER_PARTITION:
        return apr.AlterPartitionResponse(error_code=NOT_CONTROLLER)
    return error_response(api_key, version, req, NotControllerError())


def says_not_controller(resp) -> bool:
    if getattr(resp, "error_code", 0) == NOT_CONTROLLER:
        return True
    for attr in ("topics", "responses", "results"):
        for x in getattr(resp, attr, None) or ():
            if getattr(x, "error_code", 0) == NOT_CONTROLLER:
                return True
    if hasattr(resp, "topics") and resp.topics and hasattr(resp.topics[0], "partitions"):
        for p in resp.topics[0].partitions:
            if getattr(p, "error_code", 0) == ErrorCode.NOT_LEADER_OR_FOLLOWER:
                return True
    return False


def delayed(ctx, fut: asyncio.Future, timeout_s: float = 30.0) -> Delayed:
    """Park a request in the connection's purgatory until ``fut`` is done."""
    key = ("future", id(fut))
    wake = ctx.services.wake

    def try_complete(now):
        if not fut.done():
            return None
        if fut.cancelled() or fut.exception() is not None:
            if not fut.cancelled():
                log.info("request %d failed: %s", ctx.api_key, fut.exception())
            return CLOSE_CONNECTION
        return fut.result()

    fut.add_done_callback(lambda _f: wake(key))
    return Delayed(try_complete, lambda now: try_complete(now) or CLOSE_CONNECTION,
                   ctx.now_ms + int(timeout_s * 1000), [key])


class ControllerApi:
    """A registry entry for the CONTROLLER listener, or a forwarded API on the broker
    listener (the same shape as a handler module)."""

    def __init__(self, key, lo, hi, handle):
        self.API_KEY, self.MIN_VERSION, self.MAX_VERSION, self.handle = key, lo, hi, handle
