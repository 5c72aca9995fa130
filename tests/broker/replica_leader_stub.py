"""A minimal leader broker for the replica fetcher's tests: an asyncio server on a free port
that answers ApiVersions, Fetch (from replicas) and OffsetForLeaderEpoch with the generated
wire messages, deciding with the real leader core (replication.leader.PartitionLeader) over
real PartitionLogs, and reading the records from them as the broker's Fetch handler does."""
from __future__ import annotations

import asyncio
import struct

from odradek.replication.leader import LeaderConfig, PartitionLeader
from odradek.replication.messages import EpochQuery, LeaderAndIsr, ReplicaFetch
from odradek.wire.api import decode_request, encode_response
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import fetch_request as fq
from odradek.wire.messages import fetch_response as fr
from odradek.wire.messages import offset_for_leader_epoch_response as orr
from odradek.wire.messages.api_versions_response import ApiVersion, ApiVersionsResponse

_size = struct.Struct(">i")
FETCH, API_VERSIONS, OFFSET_FOR_LEADER_EPOCH = 1, 18, 23


class StubLeader:
    """Leads ``logs`` ((topic, partition) -> PartitionLog) as broker ``node_id`` at
    ``leader_epoch``, with ``followers`` (id -> broker epoch) as the other replicas, in the ISR
    unless ``followers_in_sync`` is False (then the HW is the leader's log end at once)."""

    def __init__(self, node_id: int, leader_epoch: int, logs: dict, topic_ids: dict[str, bytes],
                 followers: dict[int, int], clock, *, fetch_versions=(4, 18), followers_in_sync: bool = True):
        self.node_id = node_id
        self.leader_epoch = leader_epoch
        self.logs = logs
        self.topic_ids = topic_ids
        self.clock = clock
        self.fetch_versions = fetch_versions
        self.requests: list[tuple[int, int, object]] = []  # (api key, version, request)
        self.leaders: dict[tuple[str, int], PartitionLeader] = {}
        alive = {node_id: 1, **followers}
        for tp, plog in logs.items():
            state = LeaderAndIsr(node_id, leader_epoch, 0, frozenset(alive if followers_in_sync else (node_id,)))
            leader = PartitionLeader(node_id, plog, LeaderConfig(), state, tuple(sorted(alive)),
                                     plog.high_watermark, clock(), alive)
            self.leaders[tp] = leader
            self._ready(tp)
        self._server = None
        self.stalled = False  # swallow Fetch requests without an answer
        self._changed = asyncio.Event()
        self._writers: set = set()
        self.port = 0

    def _ready(self, tp) -> None:
        rd = self.leaders[tp].ready()
        if rd.epoch_start is not None:
            self.logs[tp].assign_epoch(*rd.epoch_start)
        self.logs[tp].high_watermark = rd.high_watermark

    def append(self, tp, record_set: bytes) -> None:
        """A produce with acks=1 at the leader epoch."""
        self.logs[tp].append(record_set, self.clock(), leader_epoch=self.leader_epoch)
        self.leaders[tp].on_append(self.clock())
        self._ready(tp)
        self._changed.set()
        self._changed = asyncio.Event()

    async def start(self, port: int = 0) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def drop_connections(self) -> None:
        for w in list(self._writers):
            w.close()

    async def stop(self) -> None:
        self._server.close()
        self.drop_connections()
        await self._server.wait_closed()

    async def _serve(self, reader, writer) -> None:
        self._writers.add(writer)
        try:
            while True:
                (n,) = _size.unpack(await reader.readexactly(4))
                header, req = decode_request(await reader.readexactly(n))
                key, ver = header.request_api_key, header.request_api_version
                self.requests.append((key, ver, req))
                if self.stalled and key == FETCH:
                    continue  # a leader that takes the request and never answers
                changed = self._changed
                resp = self._answer(key, ver, req)
                if key == FETCH and _nothing_new(resp):  # long poll: until an append or max_wait_ms
                    try:
                        await asyncio.wait_for(changed.wait(), req.max_wait_ms / 1000)
                    except asyncio.TimeoutError:
                        pass
                    resp = self._answer(key, ver, req)
                writer.write(encode_response(key, ver, header.correlation_id, resp))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    def _answer(self, key: int, ver: int, req):
        if key == API_VERSIONS:
            return ApiVersionsResponse(api_keys=[ApiVersion(api_key=FETCH, min_version=self.fetch_versions[0],
                                                            max_version=self.fetch_versions[1]),
                                                 ApiVersion(api_key=API_VERSIONS, min_version=0, max_version=4),
                                                 ApiVersion(api_key=OFFSET_FOR_LEADER_EPOCH, min_version=2,
                                                            max_version=4)])
        if key == OFFSET_FOR_LEADER_EPOCH:
            topics = []
            for t in req.topics:
                parts = []
                for p in t.partitions:
                    leader = self.leaders.get((t.topic, p.partition))
                    if leader is None:
                        parts.append(orr.EpochEndOffset(error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER,
                                                        partition=p.partition))
                        continue
                    a = leader.answer_epoch_query(EpochQuery(0, req.replica_id, p.current_leader_epoch,
                                                             p.leader_epoch))
                    parts.append(orr.EpochEndOffset(error_code=a.error, partition=p.partition,
                                                    leader_epoch=a.end.epoch, end_offset=a.end.end_offset))
                topics.append(orr.OffsetForLeaderTopicResult(topic=t.topic, partitions=parts))
            return orr.OffsetForLeaderEpochResponse(topics=topics)
        assert key == FETCH
        names = {v: k for k, v in self.topic_ids.items()}
        replica = req.replica_state if ver >= 15 else fq.ReplicaState(replica_id=req.replica_id, replica_epoch=-1)
        out = []
        for t in req.topics:
            name = names[t.topic_id] if ver >= 13 else t.topic
            parts = []
            for p in t.partitions:
                tp = (name, p.partition)
                leader = self.leaders.get(tp)
                if leader is None:
                    parts.append(fr.PartitionData(partition_index=p.partition,
                                                  error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER, records=b""))
                    continue
                d = leader.on_fetch(ReplicaFetch(0, replica.replica_id, replica.replica_epoch, p.current_leader_epoch,
                                                 p.fetch_offset, p.last_fetched_epoch, p.log_start_offset),
                                    self.clock())
                records = b""
                if d.read_from is not None:
                    records = self.logs[tp].read(d.read_from, p.partition_max_bytes).read_bytes()
                div = fr.EpochEndOffset() if d.diverging_epoch is None else \
                    fr.EpochEndOffset(epoch=d.diverging_epoch.epoch, end_offset=d.diverging_epoch.end_offset)
                parts.append(fr.PartitionData(partition_index=p.partition, error_code=d.error,
                                              high_watermark=d.high_watermark, last_stable_offset=d.high_watermark,
                                              log_start_offset=d.log_start_offset, diverging_epoch=div,
                                              records=records))
                self._ready(tp)
            out.append(fr.FetchableTopicResponse(topic=t.topic, topic_id=t.topic_id, partitions=parts))
        return fr.FetchResponse(responses=out)


def _nothing_new(resp) -> bool:
    return all(p.error_code == 0 and p.diverging_epoch.epoch < 0 and not p.records
               for t in resp.responses for p in t.partitions)
