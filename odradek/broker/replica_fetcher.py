"""The follower side of replication on a broker (Kafka's ReplicaFetcherManager,
AbstractFetcherThread / ReplicaFetcherThread and RemoteLeaderEndPoint).

One fetcher task per source broker (and fetcher id: num.replica.fetchers, partitions
spread by Kafka's hash) keeps one connection to the leader's broker listener and sends
one Fetch at a time carrying all its partitions, as a replica (ReplicaState: replica id
and broker epoch, KIP-903). Partitions whose log has no leader epoch ask OffsetForLeaderEpoch
first (the TRUNCATING phase). The per-partition decisions are the pure
replication.follower.PartitionFollower's; this driver sends its requests, feeds it the
answers and carries out each FollowerReady on the log in order: truncate, append the
leader's batches unchanged (offsets, leader epochs, CRCs), record the high watermark,
move the log start offset (not past it), then wake the fetches waiting on the partition.
As Kafka's followers, a fetcher keeps an incremental fetch session (KIP-227) with its leader.
Errors back the partition off for replica.fetch.backoff.ms (a lost connection: every
partition of the fetcher); a storage error takes the one partition offline.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterable, NamedTuple, Protocol

from odradek.broker.fetch_session_handler import SESSION_ERRORS, FetchSessionHandler
from odradek.broker.node_link import PLAINTEXT_LINK, NodeLink
from odradek.broker.replication_throttle import ReplicationThrottle
from odradek.broker.wire_client import WireClientError, common_version
from odradek.config import BrokerConfig
from odradek.coordinator.group_records import java_string_hash
from odradek.log.config import LogConfig
from odradek.log.errors import LogError
from odradek.log.leader_epoch_cache import UNDEFINED, UNDEFINED_EPOCH, EpochEndOffset
from odradek.replication.follower import PartitionFollower
from odradek.replication.messages import EpochAnswer, EpochQuery, FetchDecision, FollowerReady, LogView, ReplicaFetch
from odradek.wire.api import decode_response, encode_request
from odradek.wire.errors import ErrorCode
from odradek.wire.exceptions import WireError
from odradek.wire.messages import fetch_request as fq
from odradek.wire.messages import offset_for_leader_epoch_request as oq
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.primitives import ZERO_UUID
from odradek.wire.records import iter_batch_headers

log = logging.getLogger("odradek.replica_fetcher")

# The versions a Kafka 4.3 follower sends (MetadataVersion.fetchRequestVersion and
# offsetForLeaderEpochRequestVersion), or the leader's highest when lower. Below v13 a
# Fetch names topics (a partition without a topic id); below v12 it cannot carry the
# last fetched epoch that truncation on fetch needs, so such a leader is not fetched from.
FETCH_VERSION = 17
FETCH_VERSION_WITHOUT_TOPIC_IDS = 12
OFFSET_FOR_LEADER_EPOCH_VERSION = 4
READ_UNCOMMITTED = 0
_size = struct.Struct(">i")
CLOSE_RETRY_S = 0.1  # a fetcher's task cancelled again this often until it ends (see ReplicaFetcher.close)
_STORAGE = "KAFKA_STORAGE_ERROR"

TopicPartition = tuple[str, int]

# how loudly a partition error of a Fetch is logged (AbstractFetcherThread.processFetchRequest)
_LEVELS = {
    ErrorCode.NOT_LEADER_OR_FOLLOWER: logging.DEBUG, ErrorCode.UNKNOWN_LEADER_EPOCH: logging.DEBUG,
    ErrorCode.FENCED_LEADER_EPOCH: logging.INFO, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: logging.WARNING,
    ErrorCode.UNKNOWN_TOPIC_ID: logging.WARNING, ErrorCode.INCONSISTENT_TOPIC_ID: logging.WARNING,
}


class FollowerLog(LogView, Protocol):
    """What the fetcher does to a follower's PartitionLog (the log layer's follower API)."""

    @property
    def config(self) -> LogConfig: ...

    @property
    def high_watermark(self) -> int: ...

    @high_watermark.setter
    def high_watermark(self, value: int) -> None: ...

    def truncate_to(self, offset: int) -> None: ...

    def truncate_fully_and_start_at(self, offset: int) -> None: ...

    def append_as_follower(self, record_set, now_ms: int, flush_later: bool = False): ...

    @property
    def flush_awaited(self) -> bool: ...

    def maybe_increment_log_start_offset(self, offset: int) -> bool: ...


class FetchedBatch(NamedTuple):
    """A complete batch of a fetched record set (replication.messages.BatchInfo), and where
    it ends in that record set. (A tuple: a fetch makes one per batch.)"""
    base_offset: int
    last_offset: int
    leader_epoch: int
    end: int


def fetched_batches(records) -> tuple[FetchedBatch, ...]:
    """The complete batches at the front of a fetched record set (a leader may end it with a
    partial batch, cut at the size limit; that one is fetched again next time)."""
    return tuple(FetchedBatch(h.base_offset, h.last_offset, h.partition_leader_epoch, pos + h.size_in_bytes)
                 for pos, h in iter_batch_headers(records))


def segment_sized(batches: tuple[FetchedBatch, ...], segment_bytes: int) -> list[tuple[int, int]]:
    """The fetched batches as (start, end) runs of whole batches of at most segment.bytes each
    (one batch alone when larger): the log takes no single append above a segment, and a
    response holds up to replica.fetch.max.bytes of a partition."""
    runs: list[tuple[int, int]] = []
    start = end = 0
    for b in batches:
        if b.end - start > segment_bytes and end > start:
            runs.append((start, end))
            start = end
        end = b.end
    runs.append((start, end))
    return runs


def fetcher_id(tp: TopicPartition, num_fetchers: int) -> int:
    """Kafka's AbstractFetcherManager.getFetcherId: Utils.abs(31 * topic.hashCode + partition)
    % num.replica.fetchers, in Java int arithmetic."""
    n = (31 * java_string_hash(tp[0]) + tp[1]) & 0xFFFFFFFF
    n = n - (1 << 32) if n & 0x80000000 else n
    return (0 if n == -(1 << 31) else abs(n)) % num_fetchers


class LeaderConnection:
    """One Kafka-protocol connection to a leader's broker listener, one request at a time
    (Kafka's BrokerBlockingSender), versions negotiated with ApiVersions on connect."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, client_id: str):
        self._reader, self._writer = reader, writer
        self.client_id = client_id
        self._corr = 0
        self.api_versions: dict[int, tuple[int, int]] = {}

    @classmethod
    async def open(cls, host: str, port: int, client_id: str, timeout_s: float,
                   link: NodeLink = PLAINTEXT_LINK) -> LeaderConnection:
        """``link``: TLS/SASL of the inter-broker listener (broker/node_link.py)."""
        async with asyncio.timeout(timeout_s):
            reader, writer = await link.open(host, port, client_id)
        conn = cls(reader, writer, client_id)
        try:
            resp = await conn.call(ApiVersionsRequest(client_software_name="odradek",
                                                      client_software_version="0.1.0"), 3, timeout_s)
            if resp.error_code != 0:  # an older broker answers with its versions in v0
                resp = await conn.call(ApiVersionsRequest(), 0, timeout_s)
        except BaseException:
            conn.close()
            raise
        conn.api_versions = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}
        return conn

    def version_for(self, request_cls, max_version: int) -> int:
        return common_version(request_cls, self.api_versions, max_version)

    async def call(self, msg, version: int, timeout_s: float):
        self._corr = (self._corr + 1) & 0x7FFFFFFF
        corr = self._corr
        self._writer.write(encode_request(msg, version, corr, self.client_id))

        async def answer() -> bytes:
            await self._writer.drain()
            (size,) = _size.unpack(await self._reader.readexactly(4))
            return await self._reader.readexactly(size)

        async with asyncio.timeout(timeout_s):
            data = await answer()
        decoded = decode_response(data, type(msg).API_KEY, version)
        if decoded.correlation_id != corr:
            raise WireClientError(f"correlation id {decoded.correlation_id}, expected {corr}")
        return decoded.body

    def close(self) -> None:
        self._writer.close()


# what a lost or unusable connection means: back off, reconnect
_CONNECTION_ERRORS = (OSError, EOFError, asyncio.TimeoutError, asyncio.IncompleteReadError, WireError,
                      WireClientError)


@dataclass(frozen=True)
class FetcherSettings:
    """The broker-wide facts and settings every fetcher shares."""
    node_id: int
    broker_epoch: Callable[[], int]
    endpoint: Callable[[int], tuple[str, int] | None]
    clock_ms: Callable[[], int]
    poke: Callable[[tuple], None]
    max_bytes: int            # replica.fetch.max.bytes, per partition
    response_max_bytes: int   # replica.fetch.response.max.bytes
    max_wait_ms: int          # replica.fetch.wait.max.ms
    min_bytes: int            # replica.fetch.min.bytes
    backoff_ms: int           # replica.fetch.backoff.ms
    socket_timeout_ms: int    # replica.socket.timeout.ms (the request timeout)
    throttle: ReplicationThrottle | None = None  # follower.replication.throttled.rate (KIP-73)
    link: NodeLink = PLAINTEXT_LINK  # TLS/SASL of the inter-broker listener
    # the log flusher's wait for the given logs' asked flushes (the broker's LogFlusher.wait_flushed):
    # a flush.messages flush of a follower's append is then its worker's, and the fetcher waits for
    # it before it fetches again (Kafka's fetcher thread flushes in the append, then fetches); None:
    # the append flushes at once
    wait_flushed: Callable[[list], Awaitable[None]] | None = None


@dataclass(eq=False)
class FollowedPartition:
    """A partition this broker follows: its log, its topic id and the PartitionFollower of the
    current leader epoch."""
    tp: TopicPartition
    topic_id: bytes
    plog: FollowerLog
    follower: PartitionFollower
    delayed_until: int = 0  # no request before this time (ms), after an error
    leader_high_watermark: int = -1  # the leader's, from its last answer (-1: none yet)

    @property
    def leader_epoch(self) -> int:
        return self.follower.leader_epoch

    @property
    def in_sync(self) -> bool:
        """Caught up with the leader's high watermark (Kafka's PartitionFetchState.isReplicaInSync:
        a known lag of 0)."""
        return 0 <= self.leader_high_watermark <= self.plog.log_end_offset


def new_follower(s: FetcherSettings, leader_id: int, leader_epoch: int, plog: FollowerLog) -> PartitionFollower:
    """Kafka's makeFollower: fetch from the log end with the latest epoch (or truncate first)."""
    return PartitionFollower(s.node_id, s.broker_epoch(), leader_id, leader_epoch, plog, plog.high_watermark,
                             request_timeout_ms=s.socket_timeout_ms)


class ReplicaFetcher:
    """One source broker's fetcher (Kafka's ReplicaFetcherThread): an asyncio task."""

    def __init__(self, settings: FetcherSettings, leader_id: int, fetcher_no: int,
                 on_failed: Callable[[TopicPartition], None]):
        self.s = settings
        self.leader_id = leader_id
        self.fetcher_no = fetcher_no
        self.client_id = f"broker-{settings.node_id}-fetcher-{fetcher_no}"
        self.partitions: dict[TopicPartition, FollowedPartition] = {}
        self._on_failed = on_failed
        self._conn: LeaderConnection | None = None
        self.session = FetchSessionHandler()  # the incremental fetch session with the leader (KIP-227)
        self._unreachable = False  # logged once per outage
        self._wake = asyncio.Event()
        self._unflushed: list[FollowerLog] = []  # logs whose flush the next fetch waits for
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"ReplicaFetcher-{fetcher_no}-{leader_id}")

    # ------------------------------------------------------------ membership
    def add(self, p: FollowedPartition) -> None:
        self.partitions[p.tp] = p
        self._wake.set()

    def remove(self, tp: TopicPartition) -> FollowedPartition | None:
        return self.partitions.pop(tp, None)

    async def close(self) -> None:
        """Stop the task and close the connection. The task is cancelled again until it ends:
        a cancellation that meets an await completing in the same loop step can be lost (Python
        3.11's asyncio.wait_for returns the result instead, so a fetcher would run on and its
        close never return; the timeouts here use asyncio.timeout, which does not lose it)."""
        while not self._task.done():
            self._task.cancel()
            await asyncio.wait((self._task,), timeout=CLOSE_RETRY_S)
        if not self._task.cancelled() and self._task.exception() is not None:
            log.error("fetcher %d of leader %d ended with %r", self.fetcher_no, self.leader_id, self._task.exception())
        self._disconnect()

    def _disconnect(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # ------------------------------------------------------------ the loop
    async def _run(self) -> None:
        while True:
            try:
                await self._do_work()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - never let one bad round stop the fetcher
                log.exception("fetcher %d of leader %d failed a round; backing off", self.fetcher_no, self.leader_id)
                self._disconnect()
                self.session.fail()
                self._delay(self.partitions.values())
                await asyncio.sleep(self.s.backoff_ms / 1000)

    async def _do_work(self) -> None:
        now = self.s.clock_ms()
        ready = [p for p in self.partitions.values() if p.delayed_until <= now]
        if not ready:
            waits = [p.delayed_until - now for p in self.partitions.values()]
            await self._idle(min(waits, default=self.s.backoff_ms))
            return
        conn = await self._connection()
        if conn is None:
            self._delay(self.partitions.values())
            return
        now = self.s.clock_ms()  # (partitions may have come or gone while connecting)
        throttle = self.s.throttle
        polled = [(p, p.follower.poll(now)) for p in self.partitions.values() if p.delayed_until <= now
                  and (throttle is None or not throttle.follower_holds(*p.tp, p.in_sync, now))]
        queries = [(p, q) for p, q in polled if isinstance(q, EpochQuery)]
        fetches = [(p, f) for p, f in polled if isinstance(f, ReplicaFetch)]
        if not queries and not fetches:  # (every request still out: cannot happen, never spin)
            await self._idle(self.s.backoff_ms)
            return
        try:
            if queries:
                await self._truncate(conn, queries)
        except _CONNECTION_ERRORS as e:
            self._lost(e, queries, fetches)
            return
        try:
            if fetches:
                await self._fetch(conn, fetches)
        except _CONNECTION_ERRORS as e:
            self._lost(e, (), fetches)
        if self._unflushed:  # (the next fetch tells the leader these offsets: fsynced first)
            unflushed, self._unflushed = self._unflushed, []
            await self.s.wait_flushed(unflushed)

    async def _idle(self, timeout_ms: int) -> None:
        self._wake.clear()
        try:
            async with asyncio.timeout(max(timeout_ms, 1) / 1000):
                await self._wake.wait()
        except TimeoutError:
            pass

    async def _connection(self) -> LeaderConnection | None:
        if self._conn is not None:
            return self._conn
        addr = self.s.endpoint(self.leader_id)
        if addr is None:
            if not self._unreachable:
                log.warning("fetcher %d: no endpoint known for leader %d; retrying every %d ms",
                            self.fetcher_no, self.leader_id, self.s.backoff_ms)
                self._unreachable = True
            return None
        try:
            self._conn = await LeaderConnection.open(addr[0], addr[1], self.client_id, self.s.socket_timeout_ms / 1000,
                                                     self.s.link)
        except _CONNECTION_ERRORS as e:
            if not self._unreachable:
                log.warning("fetcher %d: cannot connect to leader %d at %s:%d: %s; retrying every %d ms",
                            self.fetcher_no, self.leader_id, addr[0], addr[1], str(e) or type(e).__name__,
                            self.s.backoff_ms)
                self._unreachable = True
            return None
        if self._unreachable:
            log.info("fetcher %d: connected to leader %d at %s:%d", self.fetcher_no, self.leader_id, *addr)
            self._unreachable = False
        return self._conn

    def _lost(self, e: BaseException, queries, fetches) -> None:
        """The connection failed mid-exchange: the requests sent or about to be are answered
        with the error (Kafka's Errors.forException), every partition backs off."""
        log.warning("fetcher %d: connection to leader %d lost: %s; backing off %d ms",
                    self.fetcher_no, self.leader_id, str(e) or type(e).__name__, self.s.backoff_ms)
        self._disconnect()
        self.session.fail()
        error = ErrorCode.REQUEST_TIMED_OUT if isinstance(e, asyncio.TimeoutError) else ErrorCode.NETWORK_EXCEPTION
        for p, q in queries:
            if self.partitions.get(p.tp) is p:
                p.follower.on_epoch_answer(EpochAnswer(q.request_id, q.current_leader_epoch, error, UNDEFINED))
        for p, f in fetches:
            if self.partitions.get(p.tp) is p:
                p.follower.on_fetch_answer(FetchDecision(f.request_id, f.current_leader_epoch, error, f.fetch_offset))
        self._delay(self.partitions.values())

    def _delay(self, partitions: Iterable[FollowedPartition]) -> None:
        until = self.s.clock_ms() + self.s.backoff_ms
        for p in partitions:
            p.delayed_until = max(p.delayed_until, until)

    def _fail(self, p: FollowedPartition) -> None:
        self.partitions.pop(p.tp, None)
        self._on_failed(p.tp)

    # ------------------------------------------------------------ OffsetForLeaderEpoch
    async def _truncate(self, conn: LeaderConnection, queries: list[tuple[FollowedPartition, EpochQuery]]) -> None:
        """The TRUNCATING phase (Kafka's maybeTruncate): ask the leader where our latest epoch
        ends; a log without epochs truncates to its high watermark without asking."""
        asked = [(p, q) for p, q in queries if q.leader_epoch != UNDEFINED_EPOCH]
        for p, q in queries:
            if q.leader_epoch == UNDEFINED_EPOCH:
                self._answered_epoch(p, EpochAnswer(q.request_id, q.current_leader_epoch, ErrorCode.NONE, UNDEFINED))
        if not asked:
            return
        topics: dict[str, oq.OffsetForLeaderTopic] = {}
        for p, q in asked:
            t = topics.setdefault(p.tp[0], oq.OffsetForLeaderTopic(topic=p.tp[0], partitions=[]))
            t.partitions.append(oq.OffsetForLeaderPartition(
                partition=p.tp[1], current_leader_epoch=q.current_leader_epoch, leader_epoch=q.leader_epoch))
        req = oq.OffsetForLeaderEpochRequest(replica_id=self.s.node_id, topics=list(topics.values()))
        version = conn.version_for(oq.OffsetForLeaderEpochRequest, OFFSET_FOR_LEADER_EPOCH_VERSION)
        resp = await conn.call(req, version, self.s.socket_timeout_ms / 1000)
        got = {(t.topic, r.partition): r for t in resp.topics for r in t.partitions}
        for p, q in asked:
            r = got.get(p.tp)
            answer = EpochAnswer(q.request_id, q.current_leader_epoch, ErrorCode.UNKNOWN_SERVER_ERROR, UNDEFINED) \
                if r is None else EpochAnswer(q.request_id, q.current_leader_epoch, ErrorCode.from_code(r.error_code),
                                              EpochEndOffset(r.leader_epoch, r.end_offset))
            self._answered_epoch(p, answer)

    def _answered_epoch(self, p: FollowedPartition, answer: EpochAnswer) -> None:
        if self.partitions.get(p.tp) is not p:
            return  # stopped or moved to another leader epoch meanwhile
        if answer.error != ErrorCode.NONE:
            log.info("partition %s-%d: the leader answered OffsetForLeaderEpoch with %s; retrying in %d ms",
                     *p.tp, answer.error.name, self.s.backoff_ms)
            p.follower.on_epoch_answer(answer)
            self._delay((p,))
            return
        self._apply(p, p.follower.on_epoch_answer(answer), b"")

    # ------------------------------------------------------------ Fetch
    async def _fetch(self, conn: LeaderConnection, fetches: list[tuple[FollowedPartition, ReplicaFetch]]) -> None:
        by_id = all(p.topic_id != ZERO_UUID for p, _ in fetches)
        version = conn.version_for(fq.FetchRequest, FETCH_VERSION if by_id else FETCH_VERSION_WITHOUT_TOPIC_IDS)
        if version < FETCH_VERSION_WITHOUT_TOPIC_IDS:
            raise WireClientError(f"leader {self.leader_id} answers Fetch up to v{version}; "
                                  f"replication needs v{FETCH_VERSION_WITHOUT_TOPIC_IDS} (last fetched epoch)")
        by_id = by_id and version >= 13

        def key(p: FollowedPartition):
            return (p.topic_id if by_id else p.tp[0], p.tp[1])
        wanted = {key(p): (f.fetch_offset, f.log_start_offset, f.current_leader_epoch, f.last_fetched_epoch)
                  for p, f in fetches}
        session_id, epoch, send, forget = self.session.build(wanted, by_id)
        sending = set(send)
        topics: dict[object, fq.FetchTopic] = {}
        for p, f in fetches:
            if key(p) not in sending:
                continue  # in the fetch session as it stands
            t = topics.get(key(p)[0])
            if t is None:
                t = topics[key(p)[0]] = fq.FetchTopic(topic=p.tp[0], topic_id=p.topic_id, partitions=[])
            t.partitions.append(fq.FetchPartition(
                partition=p.tp[1], current_leader_epoch=f.current_leader_epoch, fetch_offset=f.fetch_offset,
                last_fetched_epoch=f.last_fetched_epoch, log_start_offset=f.log_start_offset,
                partition_max_bytes=self.s.max_bytes))
        forgotten: dict[object, fq.ForgottenTopic] = {}
        for topic, partition in forget:
            ft = forgotten.get(topic)
            if ft is None:
                ft = forgotten[topic] = fq.ForgottenTopic(topic="" if by_id else topic,
                                                          topic_id=topic if by_id else ZERO_UUID, partitions=[])
            ft.partitions.append(partition)
        req = fq.FetchRequest(
            replica_id=self.s.node_id,
            replica_state=fq.ReplicaState(replica_id=self.s.node_id, replica_epoch=self.s.broker_epoch()),
            max_wait_ms=self.s.max_wait_ms, min_bytes=self.s.min_bytes, max_bytes=self.s.response_max_bytes,
            isolation_level=READ_UNCOMMITTED, session_id=session_id, session_epoch=epoch,
            topics=list(topics.values()), forgotten_topics_data=list(forgotten.values()))
        resp = await conn.call(req, version, self.s.socket_timeout_ms / 1000)
        top = ErrorCode.from_code(resp.error_code)
        before = self.session.session_id
        self.session.on_response(top, resp.session_id)
        if top != ErrorCode.NONE:
            log.info("fetcher %d: leader %d answered the fetch with %s (session %d, epoch %d)",
                     self.fetcher_no, self.leader_id, top.name, session_id, epoch)
        elif self.session.session_id != before and self.session.session_id:
            log.info("fetcher %d: incremental fetch session %d with leader %d", self.fetcher_no,
                     self.session.session_id, self.leader_id)
        got = {}
        for t in resp.responses:
            for d in t.partitions:
                got[(t.topic_id if by_id else t.topic, d.partition_index)] = d
        for p, f in fetches:
            if self.partitions.get(p.tp) is not p:
                continue  # stopped or moved to another leader epoch while the fetch was out
            d = None if top != ErrorCode.NONE else got.get(key(p))
            if d is None:
                # no news for it in this session, or the whole request failed: fetch it again
                # (after the back-off, unless only the fetch session was lost: a full fetch next)
                error = top if top != ErrorCode.NONE else ErrorCode.UNKNOWN_SERVER_ERROR
                p.follower.on_fetch_answer(FetchDecision(f.request_id, f.current_leader_epoch, error, f.fetch_offset))
                if top != ErrorCode.NONE and top not in SESSION_ERRORS:
                    self._delay((p,))
                continue
            self._answered_fetch(p, f, d)

    def _answered_fetch(self, p: FollowedPartition, f: ReplicaFetch, d) -> None:
        error = ErrorCode.from_code(d.error_code)
        div = d.diverging_epoch
        diverging = EpochEndOffset(div.epoch, div.end_offset) if div.epoch >= 0 else None  # isDivergingEpoch
        decision = FetchDecision(f.request_id, f.current_leader_epoch, error, f.fetch_offset,
                                 d.high_watermark, d.log_start_offset, diverging)
        records = d.records if d.records is not None else b""
        if error == ErrorCode.NONE:
            p.leader_high_watermark = d.high_watermark
            if self.s.throttle is not None:  # every throttled partition's bytes count, in sync or not
                self.s.throttle.follower_fetched(*p.tp, len(records), self.s.clock_ms())
        if error != ErrorCode.NONE or diverging is not None:
            ready = p.follower.on_fetch_answer(decision)
            if error not in (ErrorCode.NONE, ErrorCode.OFFSET_OUT_OF_RANGE):
                # keep the partition and retry: the metadata brings the new leader or epoch
                log.log(_LEVELS.get(error, logging.ERROR),
                        "partition %s-%d: leader %d answered %s at offset %d (leader epoch %d); retrying in %d ms",
                        *p.tp, self.leader_id, error.name, f.fetch_offset, f.current_leader_epoch, self.s.backoff_ms)
                self._delay((p,))
                return
            self._apply(p, ready, b"")
            return
        try:
            batches = fetched_batches(records)
        except WireError as e:
            log.error("partition %s-%d: invalid batches fetched from leader %d at offset %d: %s",
                      *p.tp, self.leader_id, f.fetch_offset, e)
            p.follower.on_fetch_answer(FetchDecision(f.request_id, f.current_leader_epoch,
                                                     ErrorCode.CORRUPT_MESSAGE, f.fetch_offset))
            self._delay((p,))
            return
        ready = p.follower.on_fetch_answer(decision, batches)
        if batches and not ready.append:  # not at our fetch offset: never spin on it
            log.warning("partition %s-%d: leader %d sent batches from offset %d for a fetch at %d; retrying in %d ms",
                        *p.tp, self.leader_id, batches[0].base_offset, f.fetch_offset, self.s.backoff_ms)
            self._delay((p,))
            return
        self._apply(p, ready, records)

    # ------------------------------------------------------------ the log
    def _apply(self, p: FollowedPartition, ready: FollowerReady, records) -> None:
        """Carry out a FollowerReady on the log, in its order. A failed append leaves the log as
        it was: the partition restarts its follower from the log (Kafka updates the fetch state
        only after processPartitionData) and backs off."""
        plog = p.plog
        hw_before = plog.high_watermark
        try:
            if ready.truncate_to is not None:
                if ready.truncate_to < hw_before:
                    log.warning("partition %s-%d: truncating to offset %d below the high watermark %d",
                                *p.tp, ready.truncate_to, hw_before)
                plog.truncate_to(ready.truncate_to)
            if ready.truncate_fully_to is not None:
                log.info("partition %s-%d: behind the leader's log start; restarting the log at offset %d",
                         *p.tp, ready.truncate_fully_to)
                plog.truncate_fully_and_start_at(ready.truncate_fully_to)
            if ready.append:
                view = memoryview(records)
                later = self.s.wait_flushed is not None
                for start, end in segment_sized(ready.append, plog.config.segment_bytes):
                    plog.append_as_follower(view[start:end], self.s.clock_ms(), flush_later=later)
                if later and plog.flush_awaited:
                    self._unflushed.append(plog)
            if ready.high_watermark is not None:  # before the log start, which may not pass it (as Kafka)
                plog.high_watermark = ready.high_watermark
            if ready.log_start_offset is not None:
                plog.maybe_increment_log_start_offset(ready.log_start_offset)
        except (LogError, WireError) as e:
            if isinstance(e, LogError) and e.error_name == _STORAGE:
                log.error("partition %s-%d: the log failed (%s); partition offline, no longer fetched", *p.tp, e)
                self._fail(p)
                return
            log.error("partition %s-%d: cannot apply what leader %d sent at offset %d: %s; retrying in %d ms",
                      *p.tp, self.leader_id, p.follower.fetch_offset, e, self.s.backoff_ms)
            f = p.follower
            p.follower = new_follower(self.s, f.leader_id, f.leader_epoch, plog)
            self._delay((p,))
            return
        except Exception:  # noqa: BLE001 - as Kafka: an unexpected error fails this partition only
            log.exception("partition %s-%d: unexpected error applying what leader %d sent; partition failed",
                          *p.tp, self.leader_id)
            self._fail(p)
            return
        if ready.append or plog.high_watermark != hw_before or ready.truncate_to is not None \
                or ready.truncate_fully_to is not None:
            self.s.poke(("partition", p.tp[0], p.tp[1]))


@dataclass
class _Placement:
    """The leader a partition is fetched from and the fetcher that fetches it."""
    leader_id: int
    fetcher_no: int


def broker_endpoints(image: Callable[[], object]) -> Callable[[int], tuple[str, int] | None]:
    """``endpoint`` for the manager from the current metadata image (``image()``): a leader's
    registered broker listener while it is unfenced (Kafka's getAliveBrokerNode), else None."""
    def endpoint(broker_id: int) -> tuple[str, int] | None:
        b = image().brokers.get(broker_id)
        return None if b is None or b.fenced else (b.host, b.port)
    return endpoint


class ReplicaFetcherManager:
    """The follower partitions of this broker, spread over fetchers by source broker (Kafka's
    ReplicaFetcherManager). ``endpoint(broker_id)`` is the leader's broker listener (host,
    port), None while unknown; ``poke(key)`` wakes what waits on a partition."""

    def __init__(self, node_id: int, broker_epoch: Callable[[], int],
                 endpoint: Callable[[int], tuple[str, int] | None], config: BrokerConfig,
                 clock_ms: Callable[[], int], poke: Callable[[tuple], None],
                 throttle: ReplicationThrottle | None = None, link: NodeLink = PLAINTEXT_LINK,
                 wait_flushed: Callable[[list], Awaitable[None]] | None = None):
        self.settings = FetcherSettings(
            node_id=node_id, broker_epoch=broker_epoch, endpoint=endpoint, clock_ms=clock_ms, poke=poke,
            max_bytes=config.replica_fetch_max_bytes, response_max_bytes=config.replica_fetch_response_max_bytes,
            max_wait_ms=config.replica_fetch_wait_max_ms, min_bytes=config.replica_fetch_min_bytes,
            backoff_ms=config.replica_fetch_backoff_ms, socket_timeout_ms=config.replica_socket_timeout_ms,
            throttle=throttle, link=link, wait_flushed=wait_flushed)
        self.num_fetchers = config.num_replica_fetchers
        self.fetchers: dict[tuple[int, int], ReplicaFetcher] = {}
        self._closing: set[asyncio.Task] = set()  # idle fetchers shutting down
        self._placement: dict[TopicPartition, _Placement] = {}
        # partitions whose log failed (Kafka's FailedPartitions), until followed again
        self.failed: set[TopicPartition] = set()

    def become_follower(self, tp: TopicPartition, leader_id: int, leader_epoch: int, plog: FollowerLog,
                        topic_id: bytes | None = None) -> None:
        """Follow ``leader_id`` at ``leader_epoch`` from the log's end (a new PartitionFollower);
        the same leader and epoch again changes nothing (Kafka keeps the fetch state)."""
        current = self.followed(tp)
        if current is not None and current.follower.leader_id == leader_id \
                and current.leader_epoch == leader_epoch and current.plog is plog:
            return
        self._remove(tp)
        self.failed.discard(tp)
        self._place(tp, leader_id, leader_epoch, plog, topic_id or ZERO_UUID)
        log.info("partition %s-%d: following leader %d at leader epoch %d from offset %d",
                 tp[0], tp[1], leader_id, leader_epoch, plog.log_end_offset)
        self._close_idle()

    def _place(self, tp: TopicPartition, leader_id: int, leader_epoch: int, plog: FollowerLog,
               topic_id: bytes) -> None:
        """A new follower of the partition on its fetcher (by num.replica.fetchers), from the log's end."""
        s = self.settings
        where = _Placement(leader_id, fetcher_id(tp, self.num_fetchers))
        fetcher = self.fetchers.get((where.leader_id, where.fetcher_no))
        if fetcher is None:
            fetcher = self.fetchers[(where.leader_id, where.fetcher_no)] = ReplicaFetcher(
                s, leader_id, where.fetcher_no, self._failed)
        fetcher.add(FollowedPartition(tp, topic_id, plog, new_follower(s, leader_id, leader_epoch, plog)))
        self._placement[tp] = where

    def resize(self, num_fetchers: int) -> None:
        """num.replica.fetchers changed (Kafka's resizeThreadPool): every partition whose fetcher id
        changes moves to its new fetcher, fetching on from its log's end at the same leader epoch;
        the fetchers left without partitions stop."""
        if num_fetchers == self.num_fetchers:
            return
        log.info("Resizing fetcher thread pool size from %d to %d", self.num_fetchers, num_fetchers)
        self.num_fetchers = num_fetchers
        for tp, where in list(self._placement.items()):
            if fetcher_id(tp, num_fetchers) == where.fetcher_no:
                continue
            p = self.followed(tp)
            self._remove(tp)
            if p is not None:
                self._place(tp, where.leader_id, p.leader_epoch, p.plog, p.topic_id)
        self._close_idle()

    def stop_following(self, tps: Iterable[TopicPartition]) -> None:
        """No more fetching (nor writing to the log) for these partitions: once this returns,
        the fetchers do not touch their logs again."""
        for tp in tps:
            self._remove(tp)
            self.failed.discard(tp)
        self._close_idle()

    def followed(self, tp: TopicPartition) -> FollowedPartition | None:
        where = self._placement.get(tp)
        if where is None:
            return None
        fetcher = self.fetchers.get((where.leader_id, where.fetcher_no))
        return fetcher.partitions.get(tp) if fetcher is not None else None

    async def close(self) -> None:
        fetchers, self.fetchers = list(self.fetchers.values()), {}
        self._placement.clear()
        for f in fetchers:
            await f.close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

    def _remove(self, tp: TopicPartition) -> None:
        where = self._placement.pop(tp, None)
        if where is not None:
            fetcher = self.fetchers.get((where.leader_id, where.fetcher_no))
            if fetcher is not None:
                fetcher.remove(tp)

    def _failed(self, tp: TopicPartition) -> None:
        self._placement.pop(tp, None)
        self.failed.add(tp)

    def _close_idle(self) -> None:
        """Kafka's shutdownIdleFetcherThreads: a fetcher left without partitions stops."""
        for key, fetcher in list(self.fetchers.items()):
            if not fetcher.partitions:
                del self.fetchers[key]
                task = asyncio.get_running_loop().create_task(fetcher.close())
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
