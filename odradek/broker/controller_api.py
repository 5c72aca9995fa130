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
from odradek.wire.base import Message
from odradek.wire.messages.describe_quorum_response import DescribeQuorumResponse
from odradek.wire.messages import (
    allocate_producer_ids_response as aipr, alter_partition_response as apr,
    assign_replicas_to_dirs_response as ard, broker_heartbeat_response as bhr,
    broker_registration_response as brr,
)

log = logging.getLogger("odradek.quorum")

CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 19, 20, 37, 33, 44
ALTER_CLIENT_QUOTAS, ALTER_USER_SCRAM_CREDENTIALS, UPDATE_FEATURES, ELECT_LEADERS = 49, 51, 57, 43
ALTER_PARTITION_REASSIGNMENTS = 45
CREATE_ACLS, DELETE_ACLS, UNREGISTER_BROKER = 30, 31, 64
ADMIN_WRITES = (CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS,
                ALTER_CLIENT_QUOTAS, ALTER_USER_SCRAM_CREDENTIALS, UPDATE_FEATURES, ELECT_LEADERS,
                ALTER_PARTITION_REASSIGNMENTS, CREATE_ACLS, DELETE_ACLS, UNREGISTER_BROKER)
# the admin writes whose request may ask the controller to validate it only (validate_only)
VALIDATING = frozenset({CREATE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS,
                        ALTER_CLIENT_QUOTAS, UPDATE_FEATURES})
DESCRIBE_QUORUM, BROKER_REGISTRATION, BROKER_HEARTBEAT, ALTER_PARTITION = 55, 62, 63, 56
ASSIGN_REPLICAS_TO_DIRS = 73
ALLOCATE_PRODUCER_IDS = 67
NOT_CONTROLLER = int(ErrorCode.NOT_CONTROLLER)


METADATA = 3


def validates_only(api_key: int, req) -> bool:
    """An admin write that asks only to be validated: the controller decides it, writes nothing."""
    return api_key in VALIDATING and bool(req.validate_only)


def carried_out(api_key: int, req) -> bool:
    """Whether a request made in steps goes on when its client disconnects: an admin write that writes,
    and a Metadata of topics that may auto-create them (Kafka creates them as it handles the request,
    whether or not its client stays for the answer; checked on Kafka 4.3: 300 unknown topics of a
    Metadata whose socket closed right after the send are all created)."""
    if api_key == METADATA:
        return bool(req.topics) and bool(req.allow_auto_topic_creation)
    return api_key in ADMIN_WRITES and not validates_only(api_key, req)


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
    if api_key == ASSIGN_REPLICAS_TO_DIRS:
        return ard.AssignReplicasToDirsResponse(error_code=NOT_CONTROLLER)
    if api_key == ALLOCATE_PRODUCER_IDS:
        return aipr.AllocateProducerIdsResponse(error_code=NOT_CONTROLLER)
    return error_response(api_key, version, req, NotControllerError())


def says_not_controller(resp) -> bool:
    """The answer came from a node that is not the active controller: NOT_CONTROLLER as the
    response's error or as an entry's (an admin write's topics / results), or, DescribeQuorum's
    way, NOT_LEADER_OR_FOLLOWER for the metadata partition. Read through the response's fields
    (Message.to_dict), whatever the API."""
    if not isinstance(resp, Message):
        return False  # CLOSE_CONNECTION: an answer, not a redirection
    if isinstance(resp, DescribeQuorumResponse) and resp.error_code != NOT_CONTROLLER:
        return any(p.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER for t in resp.topics for p in t.partitions)
    fields = resp.to_dict()
    if fields.get("error_code") == NOT_CONTROLLER:
        return True
    return any(isinstance(entry, dict) and entry.get("error_code") == NOT_CONTROLLER
               for value in fields.values() if isinstance(value, list) for entry in value)


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
