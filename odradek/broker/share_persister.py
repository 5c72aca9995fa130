"""The share-partition leaders' persister (Kafka's DefaultStatePersister / PersisterStateManager):
reads and writes a share-partition's state at the share coordinator of its key, the leader of its
__share_group_state partition.

When that coordinator is this node and loaded, the state is read or written at once (the append is
held until committed by the request's coordinator writes, broker/coordinator_acks.py). Otherwise
ReadShareGroupState / WriteShareGroupState / DeleteShareGroupState go to the leader named by the
metadata image, retried as Kafka's persister retries them: on COORDINATOR_NOT_AVAILABLE,
COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR, UNKNOWN_TOPIC_OR_PARTITION and a lost or timed-out
request, after an exponential backoff from 1 s (factor 2, at most 30 s, 20% jitter), 5 attempts.

A read in flight answers NOT_READY to the share group coordinator (the ShareFetch gets no records
for the partition meanwhile); its answer wakes the ShareFetches parked on the partition. A remote
write returns a ``ShareStateWrite`` the acknowledging request waits for; its answer settles the
acknowledgements it carries (committed, or rolled back on failure: coordinator/share_partition.py),
and a failed one leaves the share-partition to be written again. In a cluster a write that carries
acknowledgements is sent as WriteShareGroupState even when this node is the key's share
coordinator, so that they commit only once the append is committed. Writes of one key go one after the other, in order. While
__share_group_state does not exist yet, a key's changes wait (``defer``): its ShareStateWrite is
answered by the key's first write once the topic is there, sent as WriteShareGroupState even when
this node is the coordinator, so that the answer comes once the write is committed (Kafka's
acknowledgements wait for their persister write in the same way).

The group coordinator's DescribeShareGroupOffsets reads summaries through ``read_summaries``
(ReadShareGroupStateSummary to the share coordinators, ListOffsets to the partitions' leaders), and
its heartbeats initialize the share-partitions they are about to assign through ``initialize``
(InitializeShareGroupState: at once when this node is the key's coordinator, else sent with the same
retries, one at a time per key, the outcome reported to ShareGroupCoordinator.initialize_done).
tests/broker/share_persister_sim.py simulates all this against share coordinators that move.

Share-partitions follow the data partitions' leadership: when this node stops leading one, its
share-partitions are dropped (the next leader reads them back).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from typing import Callable

from odradek.api_handlers.ports import ShareStateWrite, ShareSummaries, ShareSummary
from odradek.broker.inter_broker import BrokerCalls, InterBrokerClient, NotDelivered, cancel_all
from odradek.coordinator.errors import CoordinatorError
from odradek.coordinator.share_coordinator import (
    UNINITIALIZED_START_OFFSET as UNINITIALIZED,
    ShareCoordinator,
    Snapshot,
    delivery_complete_count,
)
from odradek.coordinator.share_group_coordinator import NOT_READY, ShareGroupCoordinator
from odradek.coordinator.share_partition import SharePartition
from odradek.coordinator.share_state import SHARE_STATE_TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import delete_share_group_state_request as dreq
from odradek.wire.messages import initialize_share_group_state_request as ireq
from odradek.wire.messages import list_offsets_request as loreq
from odradek.wire.messages import read_share_group_state_request as rreq
from odradek.wire.messages import read_share_group_state_summary_request as sreq
from odradek.wire.messages import write_share_group_state_request as wreq

log = logging.getLogger(__name__)

E = ErrorCode
REQUEST_BACKOFF_MS = 1_000  # Kafka's PersisterStateManager
REQUEST_BACKOFF_MAX_MS = 30_000
MAX_ATTEMPTS = 5
JITTER = 0.2
REQUEST_TIMEOUT_S = 30.0
RETRIABLE = frozenset({E.COORDINATOR_NOT_AVAILABLE, E.COORDINATOR_LOAD_IN_PROGRESS, E.NOT_COORDINATOR,
                       E.UNKNOWN_TOPIC_OR_PARTITION, E.NETWORK_EXCEPTION, E.REQUEST_TIMED_OUT})
FENCED = frozenset({E.FENCED_STATE_EPOCH, E.FENCED_LEADER_EPOCH})
# a partition's latest offset is asked again on these (its leader moving, not answering)
END_RETRIABLE = frozenset({E.NETWORK_EXCEPTION, E.REQUEST_TIMED_OUT, E.NOT_LEADER_OR_FOLLOWER,
                           E.LEADER_NOT_AVAILABLE, E.UNKNOWN_LEADER_EPOCH, E.FENCED_LEADER_EPOCH})


class SharePersister:
    def __init__(self, node_id: int, image: Callable[[], object], store: ShareCoordinator,
                 shares: ShareGroupCoordinator, leader_epoch: Callable[[str, int], int | None],
                 poke: Callable[[tuple], object], now_ms: Callable[[], int], remote: bool,
                 client: BrokerCalls | None = None,
                 latest_offset: Callable[[str, int], int | None] = lambda topic, partition: None,
                 ensure_state_topic: Callable[[], bool] = lambda: True, rng: random.Random | None = None):
        """leader_epoch(topic, partition): the data partition's leader epoch while led here, else None;
        remote: a cluster broker (a single node's share coordinator is always this node);
        latest_offset(topic, partition): its high watermark while led here, else None;
        ensure_state_topic(): create __share_group_state if needed, True once it exists; rng: the
        backoff jitter's (a seeded one in simulations)."""
        self.node_id = node_id
        self._image = image
        self.store = store
        self.shares = shares
        self._leader_epoch = leader_epoch
        self._poke = poke
        self._now = now_ms
        self._remote = remote
        self._client = client
        self._latest_offset = latest_offset
        self._ensure_state_topic = ensure_state_topic
        self._rng = rng or random.Random()
        self._ids = itertools.count()
        self._tasks: set[asyncio.Task] = set()
        self._reads: dict[tuple, asyncio.Task] = {}
        # the remote writes of a key go one after the other, in the order they were handed out: the
        # key's lock and how many writes hold or wait for it (both taken when the write is handed out)
        self._locks: dict[tuple, asyncio.Lock] = {}
        self._queued: dict[tuple, int] = {}
        self._deferred: dict[tuple, ShareStateWrite] = {}  # keys waiting for __share_group_state
        self._initializing: set[tuple] = set()  # keys whose InitializeShareGroupState is on its way
        self.created: list[ShareStateWrite] = []  # the remote writes started since the broker last took them

    # ------------------------------------------------------------------ reads (share-partition leaders)

    def reading(self, key: tuple) -> bool:
        """A read of the key's state is in flight (or done and not yet taken)."""
        return key in self._reads

    def stored_state(self, key: tuple, topic: str, partition: int):
        """ShareGroupCoordinator.stored_state: (start offset, batches, state epoch), None, or NOT_READY."""
        epoch = self._leader_epoch(topic, partition)
        if epoch is None:
            return NOT_READY
        task = self._reads.get(key)
        if task is not None:
            if not task.done():
                return NOT_READY
            del self._reads[key]
            if not task.cancelled() and task.exception() is None and task.result() is not None:
                return _as_state(task.result())
        if self.store.partition_for(key) is None:
            return None  # no __share_group_state yet: nothing persisted (the first write creates it)
        if not self.store.error(key):
            try:
                return _as_state(self.store.read(key, epoch, self._now()))
            except CoordinatorError as e:
                log.info("share state %s: %s", key, e.code.name)
                return NOT_READY
        if not self._remote:
            return NOT_READY  # a single node still loading its share coordinator
        self._reads[key] = self._start(self._read(key, epoch, topic, partition))
        return NOT_READY

    async def _read(self, key: tuple, leader_epoch: int, topic: str, partition: int) -> Snapshot | None:
        group, tid, p = key
        req = rreq.ReadShareGroupStateRequest(group_id=group, topics=[rreq.ReadStateData(
            topic_id=tid, partitions=[rreq.PartitionData(partition=p, leader_epoch=leader_epoch)])])
        try:
            r = await self._call(key, req, 0)
            if isinstance(r, ErrorCode):
                log.info("share state %s: read failed: %s", key, r.name)
                return None
            s = r.results[0].partitions[0]
            if s.error_code:
                log.info("share state %s: read failed: %s", key, ErrorCode(s.error_code).name)
                return None
            return Snapshot(s.start_offset, [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                                             for b in s.state_batches], s.state_epoch, leader_epoch)
        finally:
            self._poke(("partition", topic, partition))

    # ------------------------------------------------------------------ writes (SharePersistence's StateWriter)

    def defer(self, key: tuple) -> None:
        """SharePersistence: no __share_group_state yet. One ShareStateWrite a key stands for its
        next write (answered as that write is), handed over in ``created`` as the writes are."""
        w = self._deferred.get(key)
        if w is None:
            w = self._deferred[key] = ShareStateWrite(("share-state-write", next(self._ids)), key)
        self.created.append(w)

    def write_state(self, key: tuple, start_offset: int | None, batches: list, now_ms: int,
                    state_epoch: int = 0, settle=None) -> None:
        t = self._image().topics_by_id.get(key[1])
        epoch = self._leader_epoch(t.name, key[2]) if t is not None else None
        snapshot = None if start_offset is None else Snapshot(start_offset, batches, state_epoch,
                                                              -1 if epoch is None else epoch)
        if snapshot is not None:
            snapshot.delivery_complete_count = delivery_complete_count(snapshot)
        deferred = self._deferred.get(key)
        # acknowledgements (settle) in a cluster go the remote way even to this node: they commit once
        # the append is committed, which the WriteShareGroupState's answer waits for
        waits = deferred is not None or settle is not None
        if not self.store.error(key) and key not in self._queued and (not waits or not self._remote):
            try:
                self._write_locally(key, snapshot, now_ms)  # raises: the change stays pending
            except CoordinatorError as e:
                if e.code in FENCED:
                    self.shares.partitions.pop(key, None)  # (as a remote write fenced, below)
                raise
            if deferred is not None:  # (a single node: committed once appended)
                self._answer(self._deferred.pop(key), E.NONE)
            if settle is not None:
                settle(E.NONE, now_ms)
            return
        if not self._remote:
            raise CoordinatorError(self.store.error(key))
        # an acknowledgement waiting for the key (deferred) goes the remote way even to this node, so
        # that its answer comes once the write is committed (the handler holds it until then)
        w = self._deferred.pop(key, None) or ShareStateWrite(("share-state-write", next(self._ids)), key)
        self.created.append(w)
        self._locks.setdefault(key, asyncio.Lock())
        self._queued[key] = self._queued.get(key, 0) + 1
        self._start(self._write(w, snapshot, self.shares.partitions.get(key), settle))

    def _answer(self, w: ShareStateWrite, err: ErrorCode) -> None:
        w.error = err
        self._poke(w.key)

    def _write_locally(self, key: tuple, snapshot: Snapshot | None, now_ms: int) -> None:
        if snapshot is None:
            self.store.delete(key, now_ms)
        else:
            self.store.write(key, snapshot, now_ms)

    async def _write(self, w: ShareStateWrite, snapshot: Snapshot | None, owner: SharePartition | None,
                     settle=None) -> None:
        """owner: the share-partition whose state this is (a failure concerns it, not one rebuilt since);
        settle: what the write's acknowledgements wait for (SharePersistence's StateWriter port)."""
        key = w.share_key
        group, tid, p = key
        lock = self._locks[key]
        err = E.UNKNOWN_SERVER_ERROR
        try:
            async with lock:
                if snapshot is None:
                    req = dreq.DeleteShareGroupStateRequest(group_id=group, topics=[dreq.DeleteStateData(
                        topic_id=tid, partitions=[dreq.PartitionData(partition=p)])])
                else:
                    req = wreq.WriteShareGroupStateRequest(group_id=group, topics=[wreq.WriteStateData(
                        topic_id=tid, partitions=[wreq.PartitionData(
                            partition=p, state_epoch=snapshot.state_epoch, leader_epoch=snapshot.leader_epoch,
                            start_offset=snapshot.start_offset,
                            delivery_complete_count=snapshot.delivery_complete_count, state_batches=[
                                wreq.StateBatch(first_offset=f, last_offset=last, delivery_state=st,
                                                delivery_count=n) for f, last, st, n in snapshot.batches])])])
                r = await self._call(key, req, 1)
                err = r if isinstance(r, ErrorCode) else ErrorCode(r.results[0].partitions[0].error_code)
        finally:
            self._queued[key] -= 1
            if not self._queued[key]:  # (a lock released with writes waiting is not free yet)
                del self._queued[key], self._locks[key]
            if err:
                log.info("share state %s: write failed: %s", key, err.name)
                sp = self.shares.partitions.get(key)
                sp = sp if sp is owner else None
                if sp is not None and err in FENCED:
                    # its state was initialized again (AlterShareGroupOffsets) or another leader took
                    # it: as Kafka's share-partition manager, the cached share-partition goes (read
                    # again at the next fetch)
                    self.shares.partitions.pop(key, None)
                elif sp is not None:
                    sp.dirty = True  # written again with the next change or tick
            if settle is not None:
                settle(err, self._now())
            self._answer(w, err)

    # ------------------------------------------------------------------ initialization (the group coordinator)

    def initialize(self, group_id: str, state_epoch: int, parts: dict) -> dict:
        """ShareGroupCoordinator.initialize_state: InitializeShareGroupState (start offset -1, this
        state epoch) of share-partitions {topic id: partitions} at their share coordinators, as
        Kafka's group coordinator asks its persister. Those this node coordinates are initialized at
        once and returned; the others are sent (retried as the writes), their outcome reported to
        ShareGroupCoordinator.initialize_done. A single node whose share coordinator cannot take
        them now reports them failed (the next heartbeat initializes them again)."""
        now = self._now()
        done: dict = {}
        failed: dict = {}
        remote = []
        for tid, ps in parts.items():
            for p in ps:
                key = (group_id, bytes(tid), p)
                if key in self._initializing:
                    continue  # one at a time: a late one must not follow a success (reported when it ends)
                if self.store.partition_for(key) is None:
                    self._ensure_state_topic()
                if self.store.partition_for(key) is not None and not self.store.error(key):
                    try:
                        self.store.initialize(key, state_epoch, UNINITIALIZED, now)
                        done.setdefault(tid, set()).add(p)
                    except CoordinatorError as e:
                        if e.code == E.FENCED_STATE_EPOCH:  # initialized at a newer epoch already (as below)
                            done.setdefault(tid, set()).add(p)
                            continue
                        log.info("share state %s: initialize failed: %s", key, e.code.name)
                        failed.setdefault(tid, set()).add(p)
                elif self._remote:
                    remote.append(key)
                else:
                    failed.setdefault(tid, set()).add(p)
        if failed:
            self.shares.initialize_done(group_id, failed, False)
        if remote:
            self._initializing.update(remote)
            self._start(self._initialize(group_id, state_epoch, remote))
        return done

    async def _initialize(self, group_id: str, state_epoch: int, keys: list) -> None:
        async def one(key):
            req = ireq.InitializeShareGroupStateRequest(group_id=group_id, topics=[ireq.InitializeStateData(
                topic_id=key[1], partitions=[ireq.PartitionData(partition=key[2], state_epoch=state_epoch,
                                                                start_offset=UNINITIALIZED)])])
            try:
                r = await self._call(key, req, 0)
            finally:
                self._initializing.discard(key)
            err = r if isinstance(r, ErrorCode) else ErrorCode(r.results[0].partitions[0].error_code)
            if err == E.FENCED_STATE_EPOCH:
                # initialized already at a newer epoch of the group (by a group coordinator before this
                # one, whose epoch record did not survive it): the state is there, carry on with it
                return E.NONE
            if err:
                log.info("share state %s: initialize failed: %s", key, err.name)
            return err

        outcome: dict = {True: {}, False: {}}
        errors = await asyncio.gather(*(one(key) for key in keys), return_exceptions=True)
        for key, err in zip(keys, errors):
            outcome[err is E.NONE].setdefault(key[1], set()).add(key[2])
        for ok, parts in outcome.items():
            if parts:
                self.shares.initialize_done(group_id, parts, ok)

    # ------------------------------------------------------------------ summaries (the group coordinator)

    def read_summaries(self, group_id: str, parts: list[tuple[bytes, str, int]]) -> ShareSummaries:
        """ReadShareGroupStateSummary of share-partitions [(topic id, topic, partition)] at their
        share coordinators (here at once, else to the leader of their __share_group_state partition,
        retried as the writes), with their data partitions' latest offsets (the high watermark when
        led here, else ListOffsets LATEST to the leader), as Kafka's group coordinator answers
        DescribeShareGroupOffsets. The remote answers come back on the loop; never blocks."""
        out = ShareSummaries(("share-summaries", next(self._ids)), {}, {})
        for tid, topic, p in parts:
            key = (group_id, bytes(tid), p)
            if self.store.partition_for(key) is None:  # no __share_group_state yet: nothing persisted
                out.results[(tid, p)] = ShareSummary(E.NONE)
                continue
            err = self.store.error(key)
            if not err:
                s = self.store.summary(key)
                out.results[(tid, p)] = ShareSummary(E.NONE, s.start_offset, s.leader_epoch,
                                                     delivery_complete_count(s))
                if s.start_offset == -1:
                    continue
            elif not self._remote:
                out.results[(tid, p)] = ShareSummary(err)
                continue
            else:
                out.pending += 1
                self._start(self._read_summary(out, key))
            end = self._latest_offset(topic, p)
            if end is not None:
                out.ends[(tid, p)] = (E.NONE, end)
            elif self._remote:
                out.pending += 1
                self._start(self._read_end(out, tid, topic, p))
            else:
                out.ends[(tid, p)] = (E.NOT_LEADER_OR_FOLLOWER, -1)
        return out

    async def _read_summary(self, out: ShareSummaries, key: tuple) -> None:
        group, tid, p = key
        req = sreq.ReadShareGroupStateSummaryRequest(group_id=group, topics=[sreq.ReadStateSummaryData(
            topic_id=tid, partitions=[sreq.PartitionData(partition=p, leader_epoch=-1)])])
        summary = ShareSummary(E.UNKNOWN_SERVER_ERROR)
        try:
            r = await self._call(key, req, 1)
            if isinstance(r, ErrorCode):
                summary = ShareSummary(r)
            else:
                s = r.results[0].partitions[0]
                summary = ShareSummary(ErrorCode(s.error_code)) if s.error_code else ShareSummary(
                    E.NONE, s.start_offset, s.leader_epoch, s.delivery_complete_count)
        finally:
            out.results[(tid, p)] = summary
            self._answered(out)

    async def _read_end(self, out: ShareSummaries, tid: bytes, topic: str, p: int) -> None:
        """The partition's latest offset from its leader (Kafka's PartitionMetadataClient), asked again
        (the leader read anew) after the persister's backoff while it moves or does not answer, at
        most MAX_ATTEMPTS times: an error here hides the partition from kafka-share-groups --describe."""
        answer = (E.UNKNOWN_SERVER_ERROR, -1)
        backoff = REQUEST_BACKOFF_MS
        try:
            for attempt in range(MAX_ATTEMPTS):
                if attempt:
                    await asyncio.sleep(backoff * self._rng.uniform(1 - JITTER, 1 + JITTER) / 1000)
                    backoff = min(backoff * 2, REQUEST_BACKOFF_MAX_MS)
                answer = await self._latest_from_leader(topic, p)
                if answer[0] not in END_RETRIABLE:
                    return
            log.info("latest offset of %s-%d: %s", topic, p, answer[0].name)
        finally:
            out.ends[(tid, p)] = answer
            self._answered(out)

    async def _latest_from_leader(self, topic: str, p: int) -> tuple[ErrorCode, int]:
        t = self._image().topics.get(topic)
        part = t.partitions.get(p) if t is not None else None
        if part is None or part.leader < 0:
            return (E.LEADER_NOT_AVAILABLE if part is not None else E.UNKNOWN_TOPIC_OR_PARTITION, -1)
        req = loreq.ListOffsetsRequest(replica_id=-1, isolation_level=0, topics=[loreq.ListOffsetsTopic(
            name=topic, partitions=[loreq.ListOffsetsPartition(partition_index=p, current_leader_epoch=-1,
                                                               timestamp=-1)])])
        try:
            r = await self._calls().call(part.leader, req, 9, 1)
        except NotDelivered as e:
            log.debug("latest offset of %s-%d: %s", topic, p, e)
            return E.NETWORK_EXCEPTION, -1
        rp = r.topics[0].partitions[0]
        return ErrorCode(rp.error_code), rp.offset

    def _answered(self, out: ShareSummaries) -> None:
        out.pending -= 1
        if not out.pending:
            self._poke(out.key)

    # ------------------------------------------------------------------ the calls

    def coordinator_of(self, key: tuple) -> int | None:
        image = self._image()
        t = image.topics.get(SHARE_STATE_TOPIC)
        p = self.store.partition_for(key)
        part = t.partitions.get(p) if t is not None and p is not None else None
        b = image.brokers.get(part.leader) if part is not None and part.leader >= 0 else None
        return part.leader if b is not None and not b.fenced else None

    async def _call(self, key: tuple, request, max_version: int):
        """The coordinator's answer, retried as Kafka's persister; an ErrorCode when it gave up."""
        backoff = REQUEST_BACKOFF_MS
        err = E.COORDINATOR_NOT_AVAILABLE
        for attempt in range(MAX_ATTEMPTS):
            if attempt:
                await asyncio.sleep(backoff * self._rng.uniform(1 - JITTER, 1 + JITTER) / 1000)
                backoff = min(backoff * 2, REQUEST_BACKOFF_MAX_MS)
            broker = self.coordinator_of(key)
            if broker is None:
                err = E.COORDINATOR_NOT_AVAILABLE
                continue
            try:
                r = await self._calls().call(broker, request, max_version)
            except NotDelivered as e:
                log.debug("share state %s: %s", key, e)
                err = E.NETWORK_EXCEPTION
                continue
            err = ErrorCode(r.results[0].partitions[0].error_code) if r.results and r.results[0].partitions \
                else E.UNKNOWN_SERVER_ERROR
            if err not in RETRIABLE:
                return r
        return err

    def _calls(self) -> BrokerCalls:
        if self._client is None:
            self._client = InterBrokerClient(self.node_id, "share-persister", self._image, REQUEST_TIMEOUT_S)
        return self._client

    def _start(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ leadership

    def leadership_changed(self, elected: dict, resigned: dict) -> None:
        """ReplicaManager listener: share-partitions of data partitions no longer led here go."""
        image = self._image()
        for (topic, p) in resigned:
            t = image.topics.get(topic)
            if t is not None and topic != SHARE_STATE_TOPIC:
                self.shares.unload_partition(bytes(t.topic_id), p)
                for key in [k for k in self._reads if k[1] == bytes(t.topic_id) and k[2] == p]:
                    self._reads.pop(key).cancel()
                for key in [k for k in self._deferred if k[1] == bytes(t.topic_id) and k[2] == p]:
                    self._answer(self._deferred.pop(key), E.NOT_LEADER_OR_FOLLOWER)  # never stored here

    def state_partition_unloaded(self, partition: int) -> None:
        """This node stopped coordinating a __share_group_state partition: its last appends may not
        have been committed (a write answered to no request, the tick's, is then lost unseen). The
        share-partitions led here whose keys it holds are written again, whole, to the next
        coordinator."""
        for key, sp in self.shares.partitions.items():
            if self.store.partition_for(key) == partition:
                sp.dirty = True

    async def close(self) -> None:
        await cancel_all(self._tasks)
        if self._client is not None:
            self._client.close()


def _as_state(s: Snapshot) -> tuple[int, list, int] | None:
    """(start offset, batches, state epoch); None: never written (nor initialized)."""
    return None if s.start_offset == -1 and not s.batches and not s.state_epoch else \
        (s.start_offset, s.batches, s.state_epoch)
