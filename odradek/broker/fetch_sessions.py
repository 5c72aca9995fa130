"""Fetch sessions (KIP-227).

This cache creates no sessions: every Fetch answers with session_id 0, which Kafka
clients treat as "no session, send full fetch requests" (Kafka does the same when its
own cache is full). Incremental fetches for an unknown session get
FETCH_SESSION_ID_NOT_FOUND, after which clients start over with a full fetch.
"""

from __future__ import annotations

INVALID_SESSION_ID = 0
INITIAL_EPOCH = 0
FINAL_EPOCH = -1


class FetchSessionCache:
    def __init__(self, max_sessions: int = 0):
        self.max_sessions = max_sessions

    def lookup(self, session_id: int, epoch: int):
        """None for a full (sessionless) fetch; raises KeyError for an unknown session."""
        if session_id == INVALID_SESSION_ID:
            return None
        if epoch == FINAL_EPOCH:
            return None  # closing a session we never had: a sessionless full fetch
        raise KeyError(session_id)
