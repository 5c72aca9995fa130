"""What the consumer (KIP-848) and streams (KIP-1071) protocols share: both are member-epoch
protocols whose groups are rebuilt from their own records, whose heartbeat answers a request or a
CoordinatorError as an error result, and whose members are fenced by a session timeout or by a
rebalance timeout while they revoke."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from .errors import CoordinatorError
from .group_state import Group

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2


def typed_group(groups: dict, group_id: str, cls: type):
    g = groups.get(group_id)
    return g if isinstance(g, cls) else None


def decoded_records(records: Iterable, record_type: Callable, types, decode: Callable) -> list:
    """The records of one protocol's family among a partition's (key, value) records, decoded
    (records this version cannot decode are skipped)."""
    out = []
    for _offset, key, value in records:
        if key is None or len(key) < 2 or record_type(key) not in types:
            continue
        try:
            out.append(decode(key, value))
        except Exception:
            continue
    return out


@dataclass
class Replayed:
    """The last value of each record of one group in a partition (None: a tombstone)."""
    metadata: object = None  # the group metadata (epoch...); None: no group
    target_metadata: object = None
    members: dict = field(default_factory=dict)  # member id -> member metadata
    current: dict = field(default_factory=dict)  # member id -> current assignment
    target: dict = field(default_factory=dict)  # member id -> target assignment
    other: dict = field(default_factory=dict)  # (record type, regex) -> value: the family's other records


def replay(records: Iterable, recs) -> dict[str, Replayed]:
    """A partition's records of one family (consumer_group_records or streams_group_records),
    last value wins, by group id."""
    out: dict[str, Replayed] = {}
    for r in decoded_records(records, recs.record_type, recs.TYPES, recs.decode):
        s = out.setdefault(r.group_id, Replayed())
        if r.kind == recs.GROUP_METADATA:
            s.metadata = r.value
        elif r.kind == recs.TARGET_METADATA:
            s.target_metadata = r.value
        elif r.kind in (recs.MEMBER_METADATA, recs.CURRENT_MEMBER, recs.TARGET_MEMBER):
            by_member = {recs.MEMBER_METADATA: s.members, recs.CURRENT_MEMBER: s.current,
                         recs.TARGET_MEMBER: s.target}
            by_member[r.kind][r.member_id] = r.value
        else:
            s.other[(r.kind, r.regex)] = r.value
    return out


def restore_member(m, current, now_ms: int, session_timeout_ms: int, revoking_state: int) -> None:
    """A loaded member's epochs and state from its current-assignment record, and its timers."""
    if current is not None:
        m.member_epoch = current.member_epoch
        m.previous_member_epoch = current.previous_member_epoch
        m.state = current.state
    m.session_deadline_ms = now_ms + session_timeout_ms
    if m.state == revoking_state:
        m.rebalance_deadline_ms = now_ms + max(m.rebalance_timeout_ms, 0)


def install_loaded(groups: dict, g) -> None:
    """A group rebuilt at load takes its id in the one map; the offsets-only classic group the
    classic loader made for the id hands over its offsets."""
    classic = groups.get(g.group_id)
    if isinstance(classic, Group) and not classic.members and classic.protocol_type is None:
        g.offsets = classic.offsets
    groups[g.group_id] = g


def answer(req, now_ms: int, validate, leave, heartbeat, result_cls):
    """A heartbeat: validated, then a leave (epoch -1/-2) or a join/heartbeat; errors as results."""
    try:
        validate(req)
        if req.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            return leave(req, now_ms)
        return heartbeat(req, now_ms)
    except CoordinatorError as f:
        return result_cls(error=f.code, error_message=f.message)


def fence_expired(g, now_ms: int, revoking_state: int, remove: Callable[[object, str, int], None]) -> None:
    """Fence members past their session, or past their rebalance timeout while revoking."""
    for m in list(g.members.values()):
        if now_ms >= m.session_deadline_ms or (
                m.rebalance_deadline_ms is not None and now_ms >= m.rebalance_deadline_ms
                and m.state == revoking_state):
            try:
                remove(g, m.member_id, now_ms)
            except Exception:
                pass
