"""Incremental fetch sessions (KIP-227), as Kafka's FetchSession / FetchSessionCache /
FetchManager.newContext.

A consumer's first fetch is "full" (epoch 0): the broker answers every partition and,
if the cache has room, a new session id. Later fetches are "incremental" (session id,
epoch 1, 2, ...): they list only partitions whose request parameters changed (plus
forgotten_topics_data to drop some), and the response lists only partitions with
something new (records, high watermark / log start / LSO change, an error). Epoch -1
(FINAL) closes a session; a full fetch with a session id replaces it.

Pure and synchronous: time comes in as ``now_ms``; the broker owns the one cache
(``ctx.services.fetch_sessions``) and the Fetch handler asks it for a context per request.
Partition keys are (topic_id, partition) for sessions made by Fetch v13+, else
(topic name, partition), as Kafka's CachedPartition equality.
"""

from __future__ import annotations

import logging
import random

from odradek.wire.errors import ErrorCode

log = logging.getLogger(__name__)

INVALID_SESSION_ID = 0
INITIAL_EPOCH = 0
FINAL_EPOCH = -1
INT32_MAX = 2**31 - 1


def next_epoch(epoch: int) -> int:
    """FetchMetadata.nextEpoch: the epoch after ``epoch`` (wraps to 1, FINAL stays FINAL)."""
    if epoch < 0:
        return FINAL_EPOCH
    if epoch == INT32_MAX:
        return 1
    return epoch + 1


def is_full(epoch: int) -> bool:
    return epoch == INITIAL_EPOCH or epoch == FINAL_EPOCH


class PartitionRequest:
    """One partition of a fetch: what to read (from the request, or cached in a session)
    and, once in a session, the last response values the client has seen."""

    __slots__ = ("topic", "topic_id", "partition", "fetch_offset", "max_bytes", "current_leader_epoch",
                 "log_start_offset", "last_fetched_epoch",
                 "high_watermark", "last_stable_offset", "local_log_start_offset")

    def __init__(self, topic, topic_id, partition, fetch_offset, max_bytes, current_leader_epoch=-1,
                 log_start_offset=-1, last_fetched_epoch=-1):
        self.topic = topic  # None: a topic id this broker does not know (yet)
        self.topic_id = topic_id
        self.partition = partition
        self.fetch_offset = fetch_offset
        self.max_bytes = max_bytes
        self.current_leader_epoch = current_leader_epoch
        self.log_start_offset = log_start_offset  # the fetcher's own (followers)
        self.last_fetched_epoch = last_fetched_epoch
        self.high_watermark = -1
        self.last_stable_offset = -1
        self.local_log_start_offset = -1

    def update_request_params(self, req: "PartitionRequest") -> None:
        self.fetch_offset = req.fetch_offset
        self.max_bytes = req.max_bytes
        self.current_leader_epoch = req.current_leader_epoch
        self.log_start_offset = req.log_start_offset
        self.last_fetched_epoch = req.last_fetched_epoch

    def maybe_update_response_data(self, pd, update: bool) -> bool:
        """Whether this partition must be in an incremental response (Kafka's
        CachedPartition.maybeUpdateResponseData); ``update`` remembers what was sent."""
        must = False
        if pd.records is not None and len(pd.records) > 0:
            must = True
        if self.high_watermark != pd.high_watermark:
            must = True
            if update:
                self.high_watermark = pd.high_watermark
        if self.local_log_start_offset != pd.log_start_offset:
            must = True
            if update:
                self.local_log_start_offset = pd.log_start_offset
        # Kafka does not compare the LSO (on one broker it moves only with the HW, by a
        # control batch); we do, so a read_committed client never misses an LSO move.
        if self.last_stable_offset != pd.last_stable_offset:
            must = True
            if update:
                self.last_stable_offset = pd.last_stable_offset
        if pd.preferred_read_replica is not None and pd.preferred_read_replica >= 0:
            must = True
        if pd.error_code != 0:
            # re-sent until the error goes away: forget the HW we told
            if update:
                self.high_watermark = -1
            must = True
        return must

    def remember_response(self, pd) -> None:
        self.high_watermark = pd.high_watermark
        self.last_stable_offset = pd.last_stable_offset
        self.local_log_start_offset = pd.log_start_offset

    def __repr__(self) -> str:
        return (f"PartitionRequest({self.topic or self.topic_id!r}-{self.partition}, "
                f"offset={self.fetch_offset}, max_bytes={self.max_bytes}, hw={self.high_watermark})")


def partition_key(p: PartitionRequest, uses_topic_ids: bool):
    return (p.topic_id, p.partition) if uses_topic_ids else (p.topic, p.partition)


class FetchSession:
    __slots__ = ("id", "privileged", "partitions", "uses_topic_ids", "creation_ms", "last_used_ms", "epoch",
                 "cached_size", "evictable_by_all", "evictable_by_privileged")

    def __init__(self, session_id: int, privileged: bool, partitions: dict, uses_topic_ids: bool, now_ms: int,
                 epoch: int):
        self.id = session_id
        self.privileged = privileged
        self.partitions = partitions  # key -> PartitionRequest, in fetch order
        self.uses_topic_ids = uses_topic_ids
        self.creation_ms = now_ms
        self.last_used_ms = now_ms
        self.epoch = epoch
        self.cached_size = -1  # -1: not in a cache
        self.evictable_by_all = False
        self.evictable_by_privileged = False

    def evictable_key(self):
        return (self.privileged, self.cached_size, self.id)

    def update(self, fetch_data: dict, to_forget) -> tuple[list, list, list]:
        added, updated, removed = [], [], []
        parts = self.partitions
        for key, req in fetch_data.items():
            cached = parts.get(key)
            if cached is None:
                parts[key] = req
                added.append(key)
            else:
                cached.update_request_params(req)
                updated.append(key)
        for key in to_forget:
            if parts.pop(key, None) is not None:
                removed.append(key)
        return added, updated, removed

    def __repr__(self) -> str:
        return (f"FetchSession(id={self.id}, privileged={self.privileged}, partitions={len(self.partitions)}, "
                f"uses_topic_ids={self.uses_topic_ids}, epoch={self.epoch})")


# ------------------------------------------------------------------ contexts
#
# A context answers two questions for the handler: which partitions to read
# (``partitions()``), and, given what was read (``[(PartitionRequest, PartitionData)]``),
# what the response is (``respond(entries, now_ms) -> (error_code, session_id, entries)``).
# The handler creates one context per request, and a long-polled fetch keeps it until
# it completes: the session epoch moves exactly once per request.


class SessionErrorContext:
    """A fetch whose session is unknown or out of step: an empty response with the error."""

    kind = "error"

    def __init__(self, error: int, session_id: int = INVALID_SESSION_ID):
        self.error = error
        self.session_id = session_id

    def partitions(self):
        return []

    def respond(self, entries, now_ms: int):
        return self.error, INVALID_SESSION_ID, []


class SessionlessFetchContext:
    """A full fetch that asks for no session (epoch -1, or Fetch v4-6)."""

    kind = "sessionless"

    def __init__(self, fetch_data: dict):
        self.fetch_data = fetch_data

    def partitions(self):
        return list(self.fetch_data.values())

    def respond(self, entries, now_ms: int):
        return 0, INVALID_SESSION_ID, entries


class FullFetchContext:
    """A full fetch (epoch 0): everything is answered, and a session made if the cache
    has (or can make) room for it."""

    kind = "full"

    def __init__(self, cache: "FetchSessionCache", fetch_data: dict, uses_topic_ids: bool, privileged: bool):
        self.cache = cache
        self.fetch_data = fetch_data
        self.uses_topic_ids = uses_topic_ids
        self.privileged = privileged

    def partitions(self):
        return list(self.fetch_data.values())

    def respond(self, entries, now_ms: int):
        def create():
            parts = {}
            for req, pd in entries:
                req.remember_response(pd)
                parts[partition_key(req, self.uses_topic_ids)] = req
            return parts

        session_id = self.cache.maybe_create_session(now_ms, self.privileged, len(entries), self.uses_topic_ids,
                                                     create)
        return 0, session_id, entries


class IncrementalFetchContext:
    """An incremental fetch in session ``session`` (its epoch already moved on)."""

    kind = "incremental"

    def __init__(self, request_epoch: int, session: FetchSession, resolve_name):
        self.request_epoch = request_epoch
        self.session = session
        self.resolve_name = resolve_name

    def partitions(self):
        s = self.session
        out = list(s.partitions.values())
        if s.uses_topic_ids:
            for p in out:
                if p.topic is None:  # a topic created since: its id resolves now
                    p.topic = self.resolve_name(p.topic_id)
        return out

    def respond(self, entries, now_ms: int):
        s = self.session
        expected = next_epoch(self.request_epoch)
        if s.epoch != expected:
            log.info("Incremental fetch session %d expected epoch %d, but got %d. Possible duplicate request.",
                     s.id, expected, s.epoch)
            return int(ErrorCode.INVALID_FETCH_SESSION_EPOCH), s.id, []
        kept = []
        parts = s.partitions
        for req, pd in entries:
            key = partition_key(req, s.uses_topic_ids)
            cached = parts.get(key)
            if cached is None or not cached.maybe_update_response_data(pd, True):
                continue
            kept.append((req, pd))
            if pd.records is not None and len(pd.records) > 0:
                # partitions that returned data go to the back: the next fetch starts
                # with the others, so one busy partition cannot starve the rest
                parts[key] = parts.pop(key)
        return 0, s.id, kept


# ------------------------------------------------------------------ the cache


class FetchSessionCache:
    """Kafka's FetchSessionCache + FetchManager: at most ``max_sessions`` sessions; when
    full, a new session may evict (1) the least recently used one if it is stale (unused
    for more than ``eviction_ms``), else (2) the least valuable evictable one — ordered
    (privileged, size, id) — if the new one is worth more. A session becomes evictable by
    unprivileged (consumer) sessions once older than ``eviction_ms``; consumer sessions
    are evictable by privileged (follower) sessions at once."""

    def __init__(self, max_sessions: int = 1000, eviction_ms: int = 120_000, rng: random.Random | None = None):
        self.max_sessions = max_sessions
        self.eviction_ms = eviction_ms
        self.rng = rng or random.Random()
        self.sessions: dict[int, FetchSession] = {}  # in last-used order (touch moves to the end)
        self.total_partitions = 0
        self.evictions = 0
        self.incremental_fetches = 0

    def __len__(self) -> int:
        return len(self.sessions)

    def get(self, session_id: int) -> FetchSession | None:
        return self.sessions.get(session_id)

    # -- the entry point the Fetch handler uses

    def new_context(self, version: int, session_id: int, epoch: int, privileged: bool, fetch_data: dict,
                    to_forget, resolve_name, now_ms: int):
        """Kafka's FetchManager.newContext. ``fetch_data``: {key: PartitionRequest} of the
        request, in order; ``to_forget``: keys from forgotten_topics_data;
        ``resolve_name(topic_id)`` -> name or None."""
        uses_topic_ids = version >= 13
        if is_full(epoch):
            if session_id != INVALID_SESSION_ID:
                # any session named in a full fetch is closed
                self.remove(session_id)
            if epoch == FINAL_EPOCH:
                return SessionlessFetchContext(fetch_data)
            return FullFetchContext(self, fetch_data, uses_topic_ids, privileged)
        session = self.sessions.get(session_id)
        if session is None:
            log.debug("Session error for %d: no such session ID found.", session_id)
            return SessionErrorContext(int(ErrorCode.FETCH_SESSION_ID_NOT_FOUND))
        if session.epoch != epoch:
            log.debug("Session error for %d: expected epoch %d, but got %d instead.", session_id, session.epoch,
                      epoch)
            return SessionErrorContext(int(ErrorCode.INVALID_FETCH_SESSION_EPOCH))
        if session.uses_topic_ids != uses_topic_ids:
            return SessionErrorContext(int(ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR))
        session.update(fetch_data, to_forget)
        if not session.partitions:
            # nothing left to fetch: the session closes, this request is sessionless
            self.remove(session)
            return SessionlessFetchContext(fetch_data)
        self.touch(session, now_ms)
        session.epoch = next_epoch(session.epoch)
        self.incremental_fetches += 1
        return IncrementalFetchContext(epoch, session, resolve_name)

    # -- cache maintenance

    def new_session_id(self) -> int:
        while True:
            sid = self.rng.randint(1, INT32_MAX - 1)
            if sid not in self.sessions:
                return sid

    def maybe_create_session(self, now_ms: int, privileged: bool, size: int, uses_topic_ids: bool,
                             create_partitions) -> int:
        """The new session's id, or INVALID_SESSION_ID (0) if there is no room for it."""
        if len(self.sessions) >= self.max_sessions and not self._try_evict(privileged, size, now_ms):
            log.debug("No fetch session created for privileged=%s, size=%d.", privileged, size)
            return INVALID_SESSION_ID
        session = FetchSession(self.new_session_id(), privileged, create_partitions(), uses_topic_ids, now_ms,
                               next_epoch(INITIAL_EPOCH))
        self.sessions[session.id] = session
        self.touch(session, now_ms)
        log.debug("Created fetch session %r", session)
        return session.id

    def touch(self, session: FetchSession, now_ms: int) -> None:
        """Mark ``session`` used at ``now_ms``: last-used order, size, evictability."""
        sessions = self.sessions
        sessions.pop(session.id, None)
        sessions[session.id] = session
        session.last_used_ms = now_ms
        if session.cached_size != -1:
            self.total_partitions -= session.cached_size
        session.cached_size = len(session.partitions)
        self.total_partitions += session.cached_size
        old = now_ms - session.creation_ms > self.eviction_ms
        session.evictable_by_privileged = (not session.privileged) or old
        session.evictable_by_all = old

    def remove(self, session_or_id) -> FetchSession | None:
        sid = session_or_id if isinstance(session_or_id, int) else session_or_id.id
        session = self.sessions.pop(sid, None)
        if session is not None:
            self.total_partitions -= session.cached_size
            session.cached_size = -1
        return session

    def _try_evict(self, privileged: bool, size: int, now_ms: int) -> bool:
        if not self.sessions:
            return False
        lru = next(iter(self.sessions.values()))  # least recently used: touch() keeps them in order
        if now_ms - lru.last_used_ms > self.eviction_ms:
            log.debug("Evicting stale fetch session %d.", lru.id)
            self.remove(lru)
            self.evictions += 1
            return True
        if privileged:
            candidates = [s for s in self.sessions.values() if s.evictable_by_privileged]
        else:
            candidates = [s for s in self.sessions.values() if s.evictable_by_all]
        if not candidates:
            return False
        victim = min(candidates, key=FetchSession.evictable_key)
        if (privileged, size, 0) < victim.evictable_key():
            return False
        log.debug("Evicting fetch session %r for a new one (privileged=%s, size=%d).", victim, privileged, size)
        self.remove(victim)
        self.evictions += 1
        return True
