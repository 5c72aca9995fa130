"""JoinGroup (key 11): classic group membership; parks until the rebalance completes."""

from __future__ import annotations

from typing import Any, Callable

from odradek.api_handlers.context import Delayed
from odradek.api_handlers.group_common import client_host, coordinator_error, coordinator, image_topics
from odradek.coordinator.group_state import JoinResult, Slot
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.join_group_response import JoinGroupResponse, JoinGroupResponseMember

API_KEY = 11
MIN_VERSION = 0
MAX_VERSION = 9

# A parked join is completed by the coordinator (driven by tick); this margin only bounds one the
# coordinator never answers, so the client retries instead of hanging.
PARK_MARGIN_MS = 5000


class _Parked:
    """A parked JoinGroup or SyncGroup: its slot and how its answer is made. One small object (no
    closures, and not the request: a 10,000-member group parks 10,000 joins at once)."""

    __slots__ = ("slot", "version", "build", "fallback", "member_id")

    def __init__(self, slot: Slot, version: int, build: Callable[[int, Any], Any], fallback: Callable[[str], Any],
                 member_id: str):
        self.slot = slot
        self.version = version
        self.build = build
        self.fallback = fallback
        self.member_id = member_id

    def try_complete(self, now_ms: int):
        r = self.slot.result
        return None if r is None else self.build(self.version, r)

    def on_expire(self, now_ms: int):
        r = self.slot.result
        return self.build(self.version, self.fallback(self.member_id) if r is None else r)


def park(ctx, slot: Slot, build: Callable[[int, Any], Any], timeout_ms: int, group_id: str,
         fallback: Callable[[str], Any], member_id: str = ""):
    """Answer now (build(version, result)) if the slot is done, else a Delayed watching ("group",
    group_id); one the coordinator never answers gets build(version, fallback(member_id))."""
    if slot.done:
        return build(ctx.api_version, slot.result)
    parked = _Parked(slot, ctx.api_version, build, fallback, member_id)
    return Delayed(try_complete=parked.try_complete, on_expire=parked.on_expire,
                   deadline_ms=ctx.now_ms + max(timeout_ms, 0) + PARK_MARGIN_MS,
                   watch=[("group", group_id)])


def _rebalancing(member_id: str) -> JoinResult:
    return JoinResult(error=ErrorCode.REBALANCE_IN_PROGRESS, member_id=member_id)


def build_response(v: int, r: JoinResult) -> JoinGroupResponse:
    protocol_name = r.protocol_name
    if protocol_name is None and v < 7:
        protocol_name = ""
    return JoinGroupResponse(
        throttle_time_ms=0,
        error_code=r.error,
        generation_id=r.generation_id,
        protocol_type=r.protocol_type,
        protocol_name=protocol_name,
        leader=r.leader,
        skip_assignment=r.skip_assignment,
        member_id=r.member_id,
        members=[JoinGroupResponseMember(member_id=mid, group_instance_id=iid, metadata=md)
                 for mid, iid, md in r.members],
    )


def handle(ctx, request):
    v = ctx.api_version
    if coord_err := coordinator_error(ctx, request.group_id):
        return build_response(v, JoinResult(error=coord_err))
    coord = coordinator(ctx)
    rebalance_timeout = request.rebalance_timeout_ms if v >= 1 else request.session_timeout_ms
    slot = coord.join_group(
        request.group_id,
        request.member_id,
        request.group_instance_id if v >= 5 else None,
        ctx.client_id or "",
        client_host(ctx),
        request.session_timeout_ms,
        rebalance_timeout,
        request.protocol_type,
        [(p.name, p.metadata) for p in request.protocols],
        ctx.now_ms,
        api_version=v,
        topics=image_topics(ctx),  # (a classic member of a consumer group is assigned by topic id)
    )
    initial_delay = coord.initial_rebalance_delay_ms
    return park(ctx, slot, build_response, rebalance_timeout + initial_delay, request.group_id, _rebalancing,
                request.member_id)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's JoinGroupRequest.getErrorResponse."""
    return JoinGroupResponse(error_code=code, generation_id=-1,
                             protocol_name=None if v >= 7 else "",
                             leader="", member_id="", members=[])
