"""What the active controller knows of each broker's session from its heartbeats (the
in-memory half of Kafka's BrokerHeartbeatManager; the fenced / shutting-down state itself
is in the metadata image): when it last heard from it, the metadata offset it has
applied, and the offset at which its controlled shutdown was written. Time comes in as
``now_ms``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class _Session:
    last_ms: int
    metadata_offset: int = -1
    fenced: bool = True
    shutdown_offset: int = -1  # >= 0: in controlled shutdown since this metadata offset


class BrokerHeartbeats:
    def __init__(self, session_timeout_ms: int):
        self.session_timeout_ms = session_timeout_ms
        self._sessions: dict[int, _Session] = {}

    def reset(self, brokers, now_ms: int) -> None:
        """A newly active controller: every registered broker starts a fresh session
        (as Kafka's, it gets a full session timeout before it is fenced)."""
        self._sessions = {b.node_id: _Session(now_ms, -1, b.fenced) for b in brokers}

    def touch(self, broker_id: int, now_ms: int, metadata_offset: int, fenced: bool) -> None:
        s = self._sessions.setdefault(broker_id, _Session(now_ms))
        s.last_ms, s.metadata_offset, s.fenced = now_ms, metadata_offset, fenced
        if fenced:
            s.shutdown_offset = -1  # a fenced broker leaves controlled shutdown

    def contact(self, broker_id: int, now_ms: int) -> None:
        """A heartbeat of the broker's current registration came in (Kafka's BrokerHeartbeatTracker
        contact time): its session lives on, whatever the heartbeat then decides."""
        s = self._sessions.get(broker_id)
        if s is not None and now_ms > s.last_ms:
            s.last_ms = now_ms

    def registered(self, broker_id: int, now_ms: int) -> None:
        self._sessions[broker_id] = _Session(now_ms)

    def has_valid_session(self, broker_id: int, now_ms: int) -> bool:
        s = self._sessions.get(broker_id)
        return s is not None and not s.fenced and now_ms - s.last_ms <= self.session_timeout_ms

    def entered_controlled_shutdown(self, broker_id: int, offset: int) -> None:
        s = self._sessions.get(broker_id)
        if s is not None and s.shutdown_offset < 0:
            s.shutdown_offset = offset

    def lowest_active_offset(self) -> int | None:
        """The lowest metadata offset any active broker (unfenced, not shutting down) has
        applied; None when there is none."""
        return min((s.metadata_offset for s in self._sessions.values() if not s.fenced and s.shutdown_offset < 0),
                   default=None)

    def shutdown_offset_reached(self, broker_id: int) -> bool:
        """Every active broker has applied the records of this broker's controlled shutdown."""
        s = self._sessions.get(broker_id)
        low = self.lowest_active_offset()
        return s is None or low is None or s.shutdown_offset <= low

    def stale(self, unfenced_ids, now_ms: int) -> int | None:
        """The unfenced broker whose session expired longest ago, if any (fenced one at a time)."""
        expired = [(s.last_ms, b) for b in unfenced_ids
                   if (s := self._sessions.get(b)) is not None and now_ms - s.last_ms > self.session_timeout_ms]
        return min(expired)[1] if expired else None
