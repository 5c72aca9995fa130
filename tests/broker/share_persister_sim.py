"""A seeded simulation of the share persister (broker/share_persister.py) against share coordinators
that move, on a virtual clock: no acknowledged state lost, no record acknowledged twice.

The persister of one share-partition leader (node 0: the leader of data partition t-0) writes the
share-partition's state to the share coordinator of its key: the leader of __share_group_state
partition 0, one of brokers 0-3 (node 0 itself at times: written at once, the acknowledgement's
answer held until its append is committed), each with its own ShareCoordinator over its own log.
Faults:

- the state partition's leadership moves (the old leader answers NOT_COORDINATOR; the new one
  COORDINATOR_LOAD_IN_PROGRESS while it replays the committed records); its appends not yet
  committed are lost with it (the worst case of a leader failing before the ISR had them);
- the persister's metadata lags behind (requests go to the old leader);
- a request is lost (no answer before the request timeout) or its answer is (the write went through);
- a write is refused by the share coordinator (UNKNOWN_SERVER_ERROR, not retried: the
  acknowledgements it carries are rolled back);
- the data partition's leadership moves too: the share-partition is dropped and rebuilt from the
  stored state (read from the share coordinator at a newer leader epoch).

A coordinator's write is answered only once committed (as broker/coordinator_acks.py holds it). A
member acquires records, accepts some and releases others; an acknowledgement is successful when
its answer (ShareAcknowledge's: the share-partition's error once its state writes are answered,
api_handlers/share_common.after_writes) says so. Checked: no offset is successfully acknowledged
twice; every offset successfully acknowledged is done in the state the share coordinators hold at
the end (read from the committed log by a fresh coordinator); and, once the faults stop, every
record ends done (nothing stuck). An acknowledgement is written before it changes the state (as
Kafka's SharePartition): one whose write failed left its records undone, the member's again
(acquirable again once their lock runs out), checked right after its answer.

Virtual time: an asyncio loop whose clock jumps to the next timer (``VirtualLoop``); the seed drives
every choice (the persister's jitter included), so a seed replays exactly.
"""
from __future__ import annotations

import asyncio
import importlib
import random
import selectors
from dataclasses import dataclass, field
from typing import Callable

from odradek.broker.inter_broker import NotDelivered
from odradek.broker.share_persister import REQUEST_TIMEOUT_S, SharePersister
from odradek.coordinator.errors import CoordinatorError
from odradek.coordinator.share_coordinator import ShareCoordinator
from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator
from odradek.coordinator.share_partition import ACCEPT, ACKNOWLEDGED, ARCHIVED, RELEASE
from odradek.coordinator.share_persistence import SharePersistence
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import write_share_group_state_request as wreq
from odradek.wire.messages import write_share_group_state_response as wres
from odradek.wire.messages.share_acknowledge_request import AcknowledgementBatch
from tests.broker.test_share_persister import Broker, Image, Part, Topic

TID = b"\x07" * 16
GROUP = "g"
KEY = (GROUP, TID, 0)
ME = 0
STATE_BROKERS = (ME, 1, 2, 3)  # the share-partition leader's node coordinates the state at times too
ACK_WAIT_S = 30.0  # api_handlers/share_common.STATE_WRITE_WAIT_MS
QUIET_S = 120.0  # after the faults: longer than a request timeout and the persister's backoffs
HANDLERS = {"WriteShareGroupStateRequest": "write_share_group_state",
            "ReadShareGroupStateRequest": "read_share_group_state",
            "InitializeShareGroupStateRequest": "initialize_share_group_state",
            "DeleteShareGroupStateRequest": "delete_share_group_state"}


# ---------------------------------------------------------------- virtual time

class _Clock:
    now = 0.0


class _JumpSelector(selectors.SelectSelector):
    """Nothing ever becomes readable: waiting for ``timeout`` is moving the clock by it."""

    def __init__(self, clock: _Clock):
        super().__init__()
        self._clock = clock

    def select(self, timeout=None):
        if timeout is None:
            raise RuntimeError("simulation stuck: nothing scheduled")
        self._clock.now += max(timeout, 0.0)
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self):
        self._clock = _Clock()
        super().__init__(_JumpSelector(self._clock))

    def time(self) -> float:
        return self._clock.now


# ---------------------------------------------------------------- the share coordinators' brokers

@dataclass
class StateBroker:
    """One of brokers 1-3: its share coordinator over its own log, whose appends are committed (in
    ``Cluster.committed``) after a replication delay unless it stops leading first."""
    node: int
    cluster: "Cluster"
    store: ShareCoordinator = None
    pending: list = field(default_factory=list)  # [(record, asyncio.Future)] appended, not committed
    appended: list = field(default_factory=list)  # the futures of the appends since the caller last took them
    unloaded: Callable[[int], None] | None = None  # called with the partition when it stops coordinating it

    def __post_init__(self):
        self.store = ShareCoordinator(self, lambda: 1)

    # StateLog
    def append(self, partition, records, now_ms):
        fut = self.cluster.loop.create_future()
        self.appended.append(fut)
        for r in records:
            self.pending.append((r, fut))
        self.cluster.loop.call_later(self.cluster.rng.uniform(0.001, 0.2), self._commit, fut)
        return len(self.cluster.committed) + len(self.pending) - 1

    def has_partition(self, partition):
        return True

    def start_offset(self, partition):
        return 0

    def end_offset(self, partition):
        return len(self.cluster.committed) + len(self.pending)

    def _commit(self, fut) -> None:
        """The records up to ``fut``'s last are replicated (in order): committed, their writes answered."""
        if not any(f is fut for _, f in self.pending):
            return  # committed already, or lost with a leadership
        while self.pending:
            r, f = self.pending.pop(0)
            self.cluster.committed.append(r)
            last = not self.pending or self.pending[0][1] is not f
            if last and not f.done():
                f.set_result(True)
            if last and f is fut:
                return

    def lose_leadership(self) -> None:
        for _, f in self.pending:
            if not f.done():
                f.set_result(False)
        self.pending.clear()
        self.store.partitions.resign(0, None)
        self.store.unload(0)
        if self.unloaded is not None:  # (the broker's unload hook: broker.py _follow_share_state_partitions)
            self.unloaded(0)


class Cluster:
    def __init__(self, rng: random.Random, loop: asyncio.AbstractEventLoop):
        self.rng = rng
        self.loop = loop
        self.committed: list = []  # the state partition's committed records (key, value)
        self.brokers = {n: StateBroker(n, self) for n in STATE_BROKERS}
        self.leader = None
        self.leader_epoch = 0
        self.seen_leader = None  # what the persister's metadata image says
        self.data_epoch = 0
        self.image = Image({"t": Topic("t", TID, {0: Part(ME)}),
                            "__share_group_state": Topic("__share_group_state", b"\x02" * 16, {0: Part(-1)})},
                           {n: Broker() for n in STATE_BROKERS})

    def move_state_leader(self) -> None:
        old = self.leader
        if old is not None:
            self.brokers[old].lose_leadership()
        self.leader = self.rng.choice([n for n in STATE_BROKERS if n != old])
        self.leader_epoch += 1
        b = self.brokers[self.leader]
        load = b.store.partitions.elect(0, self.leader_epoch, 0)
        records = list(self.committed)

        def loaded():
            if b.store.partitions.loaded(load):
                b.store.load(0, [(i, k, v) for i, (k, v) in enumerate(records)])

        self.loop.call_later(self.rng.uniform(0.0, 1.5), loaded)
        leader = self.leader
        self.loop.call_later(self.rng.uniform(0.0, 1.0), self._see, leader)

    def _see(self, leader: int) -> None:
        if leader == self.leader:
            self.seen_leader = leader
            self.image.topics["__share_group_state"].partitions[0] = Part(leader)


class Calls:
    """The persister's inter-broker calls: delivered to the broker's handler (its answer once its
    appends are committed), or lost, or answered and the answer lost."""

    def __init__(self, cluster: Cluster, faults: bool = True):
        self.cluster = cluster
        self.faults = faults

    async def call(self, broker_id, request, max_version, min_version=0):
        c, rng = self.cluster, self.cluster.rng
        await asyncio.sleep(rng.uniform(0.0005, 0.01))
        if self.faults and rng.random() < 0.1:  # the request is lost
            await asyncio.sleep(REQUEST_TIMEOUT_S)
            raise NotDelivered("request lost")
        if self.faults and isinstance(request, wreq.WriteShareGroupStateRequest) and rng.random() < 0.05:
            # the share coordinator refuses the write (its append failed): not retried, the
            # acknowledgements it carries are rolled back and answered with the error
            return wres.WriteShareGroupStateResponse(results=[wres.WriteStateResult(
                topic_id=t.topic_id, partitions=[wres.PartitionResult(
                    partition=p.partition, error_code=int(E.UNKNOWN_SERVER_ERROR)) for p in t.partitions])
                for t in request.topics])
        b = c.brokers[broker_id]
        before = len(b.pending)
        futs = []
        ctx = _Ctx(_States(b.store), int(c.loop.time() * 1000))
        mod = importlib.import_module(f"odradek.api_handlers.{HANDLERS[type(request).__name__]}")
        response = mod.handle(ctx, request)
        futs = {id(f): f for _, f in b.pending[before:]}
        committed = all([await f for f in futs.values()])
        if not committed:  # its leader changed before the write was committed: the write is gone
            for t in response.results:
                for p in t.partitions:
                    p.error_code = int(E.NOT_COORDINATOR)
        await asyncio.sleep(rng.uniform(0.0005, 0.01))
        if self.faults and rng.random() < 0.05:  # the answer is lost
            await asyncio.sleep(REQUEST_TIMEOUT_S)
            raise NotDelivered("answer lost")
        return response

    def close(self):
        pass


@dataclass
class _States:
    share_states: ShareCoordinator


@dataclass
class _Ctx:
    services: _States
    now_ms: int


class _NoOffsetsLog:
    """__consumer_offsets: not this simulation's subject (the group's epoch records go nowhere)."""

    def append(self, partition, records, now_ms):
        return 0

    def read(self, partition):
        return []

    def has_partition(self, partition):
        return False


# ---------------------------------------------------------------- the run

@dataclass
class Outcome:
    acked: list = field(default_factory=list)  # offsets successfully acknowledged, in order
    twice: list = field(default_factory=list)
    lost: list = field(default_factory=list)   # successfully acknowledged, not done in the final state
    stuck: list = field(default_factory=list)  # not done at the end
    failed_acks: int = 0
    errors: list = field(default_factory=list)
    rolled_back: int = 0  # failed acknowledgements whose write was answered with an error
    applied_anyway: list = field(default_factory=list)  # offsets of those found done in memory (must stay empty)
    finished: bool = False  # every record done before the time ran out
    leader_moves: int = 0
    data_moves: int = 0


def run(seed: int, records: int = 40) -> Outcome:
    loop = VirtualLoop()
    try:
        return loop.run_until_complete(_run(seed, records, loop))
    finally:
        loop.close()


async def _run(seed: int, records: int, loop) -> Outcome:
    rng = random.Random(seed)
    out = Outcome()
    cluster = Cluster(rng, loop)
    calls = Calls(cluster)
    now_ms = lambda: int(loop.time() * 1000)  # noqa: E731
    here = cluster.brokers[ME]
    local = here.store  # written at once while this node coordinates the state partition
    shares = ShareGroupCoordinator(settings=lambda g: {"share.auto.offset.reset": "earliest",
                                                       "share.record.lock.duration.ms": 15000},
                                   offsets=lambda t, p: (0, records))
    pokes = []
    persister = SharePersister(ME, lambda: cluster.image, local, shares,
                               lambda t, p: cluster.data_epoch, pokes.append, now_ms, remote=True,
                               client=calls, rng=random.Random(rng.random()))
    here.unloaded = persister.state_partition_unloaded
    shares.stored_state = persister.stored_state
    shares.initialize_state = persister.initialize
    persistence = SharePersistence(shares, _NoOffsetsLog(), persister, lambda g: None, lambda: 1, lambda: True)
    cluster.move_state_leader()
    stop = {"faults": False}

    async def chaos():
        while not stop["faults"]:
            await asyncio.sleep(rng.expovariate(1 / 3.0))
            if stop["faults"]:
                return
            if rng.random() < 0.7:
                cluster.move_state_leader()
                out.leader_moves += 1
            else:  # the data partition's leader moves (and comes back at a newer epoch)
                persister.leadership_changed({}, {("t", 0): None})
                cluster.data_epoch += 1
                out.data_moves += 1

    async def ticks():
        while True:
            await asyncio.sleep(0.5)
            shares.tick(now_ms())
            try:
                persistence.persist(now_ms())
            except CoordinatorError:  # a local write refused: stays pending (or its share-partition goes)
                pass

    shares.heartbeat(GROUP, "m1", 0, ["t"], None, "c", "h", now_ms(), {"t": (TID, 1)})
    chaos_task, tick_task = loop.create_task(chaos()), loop.create_task(ticks())
    deadline = 600.0
    while loop.time() < deadline:
        member = shares.groups[GROUP].members["m1"]
        shares.heartbeat(GROUP, "m1", member.member_epoch, None, None, "c", "h", now_ms(), {"t": (TID, 1)})
        # a member fetches what it is assigned: the partition once its state is initialized
        sp = shares.share_partition(GROUP, TID, "t", 0) if member.assignment.get(TID) == [0] else None
        if sp is None:
            await asyncio.sleep(0.2)
            continue
        start = sp.fetch_offset()
        got = sp.acquire("m1", [(o, o) for o in range(start, records)], rng.randint(1, 6), now_ms(),
                         shares.share_settings(GROUP), record_limit=True)
        offsets = [o for first, last, _ in got for o in range(first, last + 1)]
        if not offsets:
            if all(sp.state_of(o) in (ACKNOWLEDGED, ARCHIVED) for o in range(records)) and not sp.dirty:
                out.finished = True
                break
            await asyncio.sleep(0.2)
            continue
        await asyncio.sleep(rng.uniform(0.0, 0.3))  # the member works on them
        types = {o: (ACCEPT if rng.random() < 0.8 else RELEASE) for o in offsets}
        result = shares.acknowledge(GROUP, "m1", {(TID, 0): [AcknowledgementBatch(
            first_offset=o, last_offset=o, acknowledge_types=[t]) for o, t in types.items()]},
            lambda tid: True, now_ms())
        err = result.value.get((TID, 0), E.NONE)
        persister.created.clear()
        here.appended.clear()
        try:
            failed = persistence.persist(now_ms())
            err = err or failed.get(KEY, E.NONE)
        except CoordinatorError as e:
            err = err or e.code
        # the answer waits for this node's own coordinator appends to be committed (coordinator_acks:
        # NOT_COORDINATOR when its leadership went first) and for the writes sent elsewhere
        local_appends, here.appended = list(here.appended), []
        if not all([await f for f in local_appends]):
            err = err or E.NOT_COORDINATOR
        writes = [w for w in persister.created if w.share_key == KEY]
        waited = 0.0
        while any(w.error is None for w in writes) and waited < ACK_WAIT_S:
            await asyncio.sleep(0.25)
            waited += 0.25
        for w in writes:
            err = err or (w.error if w.error is not None else E.REQUEST_TIMED_OUT)
        if err:
            out.failed_acks += 1
            out.errors.append(err)
            if any(w.error for w in writes):  # answered with an error: rolled back, not applied
                out.rolled_back += 1
                out.applied_anyway += [o for o, t in types.items() if t == ACCEPT and sp.state_of(o) == ACKNOWLEDGED]
            continue
        for o, t in types.items():
            if t == ACCEPT:
                if o in out.acked:
                    out.twice.append(o)
                out.acked.append(o)
        if loop.time() > deadline / 2:
            stop["faults"] = True
            calls.faults = False
    stop["faults"] = True
    calls.faults = False
    # quiet: the tick writes whatever is still pending; then the final state, as a new coordinator reads it
    await asyncio.sleep(QUIET_S)
    chaos_task.cancel()
    tick_task.cancel()
    await persister.close()
    final = ShareCoordinator(_NoOffsetsLog(), lambda: 1)
    final.partitions.loaded(final.partitions.elect(0, 1, 0))
    final.load(0, [(i, k, v) for i, (k, v) in enumerate(cluster.committed)])
    s = final.states.get(0, {}).get(KEY)
    done = set()
    if s is not None:
        done = set(range(0, max(s.start_offset, 0)))
        done |= {o for first, last, state, _ in s.batches if state in (ACKNOWLEDGED, ARCHIVED)
                 for o in range(first, last + 1)}
    out.lost = sorted(set(out.acked) - done)
    out.stuck = sorted(set(range(records)) - done)
    return out
