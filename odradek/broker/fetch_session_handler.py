"""The client side of an incremental fetch session (KIP-227), as Kafka's FetchSessionHandler
keeps it for each replica fetcher: the first Fetch is full and asks for a session; then each
Fetch names only the partitions whose fetch state changed and those to forget, and the leader
answers only the partitions with news. Pure: the fetcher asks what to send and reports how it
went."""

from __future__ import annotations

from typing import Hashable

from odradek.api_handlers.fetch_session import INITIAL_EPOCH, INVALID_SESSION_ID, next_epoch
from odradek.wire.errors import ErrorCode

# top-level Fetch errors about the session itself: no data, no back-off, a full fetch next
SESSION_ERRORS = frozenset({ErrorCode.FETCH_SESSION_ID_NOT_FOUND, ErrorCode.INVALID_FETCH_SESSION_EPOCH,
                            ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR})


class FetchSessionHandler:
    def __init__(self) -> None:
        self.session_id = INVALID_SESSION_ID
        self.epoch = INITIAL_EPOCH
        self.by_topic_id = True
        self.partitions: dict[Hashable, tuple] = {}  # in the session: key -> the fetch state last sent

    def build(self, wanted: dict[Hashable, tuple], by_topic_id: bool) -> tuple[int, int, list, list]:
        """(session id, epoch, keys to send, keys to forget) for a Fetch of ``wanted`` (key ->
        its fetch state). A full fetch (epoch 0) sends all; with a session id it also closes
        that session (the leader opens a new one)."""
        if by_topic_id != self.by_topic_id:  # keys change kind: start over (FETCH_SESSION_TOPIC_ID_ERROR else)
            self.by_topic_id, self.epoch = by_topic_id, INITIAL_EPOCH
        previous, self.partitions = self.partitions, dict(wanted)
        if self.epoch == INITIAL_EPOCH:
            return self.session_id, INITIAL_EPOCH, list(wanted), []
        send = [k for k, state in wanted.items() if previous.get(k) != state]
        forget = [k for k in previous if k not in wanted]
        return self.session_id, self.epoch, send, forget

    def on_response(self, error: ErrorCode, session_id: int) -> None:
        """Kafka's handleResponse: a full answer opens the session the leader named (none: full
        fetches go on); an incremental one moves the epoch; an error starts over with a full
        fetch, closing the session unless the leader no longer has it."""
        if error != ErrorCode.NONE:
            self.fail(forget_session=error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND)
        elif self.epoch == INITIAL_EPOCH:
            self.session_id = session_id
            if session_id != INVALID_SESSION_ID:
                self.epoch = next_epoch(INITIAL_EPOCH)
        else:
            self.epoch = next_epoch(self.epoch)

    def fail(self, forget_session: bool = False) -> None:
        """The Fetch failed (Kafka's handleError): the next one is full."""
        self.epoch = INITIAL_EPOCH
        if forget_session:
            self.session_id = INVALID_SESSION_ID
