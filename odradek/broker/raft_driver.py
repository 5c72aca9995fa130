"""The asyncio driver of the pure Raft core (odradek.raft.RaftNode) for a KRaft quorum.

It ticks the node every TICK_MS (every tick due, at once, before any input: _catch_up), sleeping
until the tick at which the core's timers act next (the ticks between only count time), steps
every raft RPC that arrives on the CONTROLLER listener, and performs each Ready in etcd's order:
persist (FileStorage, fsync),
then send (Kafka raft RPCs over the Kafka wire to the other controllers' CONTROLLER
listener; responses are stepped back in), then apply (committed batches and installed
snapshots go to the state machine, the controller's MetadataImage). It also takes a
snapshot of the state machine every ``snapshot_every_bytes`` of applied records.

A Ready with something to persist (Ready.writes: log entries, a truncation, the quorum state, a
snapshot, the log start moved) is written on the driver's raft IO thread, as Kafka's KafkaRaftClient
writes on its own thread, never on the event loop (issue 27: 1 to 3 fsyncs a Ready, 4-10 ms each on
a disk, and a rewrite of the metadata log at a snapshot, delayed every broker's work on a combined
node). One Ready is written at a time; until it is, nothing of it is sent or applied and the core
takes no input but proposals (which only append to its log, as the next Ready's entries): requests,
responses and ticks wait in arrival order and are stepped once the write returned and the Ready was
carried out and advanced. So every message still leaves after the write it depends on (a vote after
the quorum state naming it, a fetch position after the entries below it, the leader's high
watermark counting only its persisted end), exactly as when the loop wrote. A Ready with nothing to
persist (messages, committed entries) is carried out at once.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import errno
import heapq
import logging
import os
import random
import struct
import time
from typing import Callable

from odradek.broker.node_link import PLAINTEXT_LINK, NodeLink
from odradek.broker.stats import CommitLatency
from odradek.raft import rpc
from odradek.log.fs import FileSystem
from odradek.raft.file_storage import FileStorage, StorageOfflineError
from odradek.raft.local_log import DIR_NAME
from odradek.raft.node import RaftNode
from odradek.raft.types import Envelope, RaftConfig, RaftError, Ready
from odradek.wire.api import decode_response, encode_request

log = logging.getLogger("odradek.raft")

TICK_MS = 50
MAX_SLEEP_TICKS = 200  # the longest the driver sleeps with nothing due (a lone voter leading, idle)
# a committed batch of more records is applied a part at a time (sm.apply_batch_steps), one part a
# loop turn, the batches after it behind it: a 10,000-record batch was one piece of the event loop
STEPPED_APPLY = 1000
_size = struct.Struct(">i")
_corr = struct.Struct(">i")

# The versions the raft RPCs go out in (both ends are odradek's generated codecs).
RAFT_VERSIONS = {
    rpc.VoteRequest: rpc.VoteRequest.VALID_VERSIONS[1],
    rpc.BeginQuorumEpochRequest: rpc.BeginQuorumEpochRequest.VALID_VERSIONS[1],
    rpc.EndQuorumEpochRequest: rpc.EndQuorumEpochRequest.VALID_VERSIONS[1],
    # v18 (KIP-1166) carries the high watermark the replica knows: the leader answers at once a replica
    # behind it instead of parking its fetch (at v17 the field is left off: every commit reached some
    # brokers up to the fetch max wait, 500 ms, after the others)
    rpc.FetchRequest: rpc.FetchRequest.VALID_VERSIONS[1],
    rpc.FetchSnapshotRequest: rpc.FetchSnapshotRequest.VALID_VERSIONS[1],
}


class PeerChannel:
    """One Kafka-protocol client connection to a peer; many requests in flight,
    answered in order. A failed connect is not retried for RETRY_S (requests fail fast
    meanwhile, the Raft core resends on its own timers)."""

    RETRY_S = 0.2

    def __init__(self, host: str, port: int, client_id: str, link: NodeLink = PLAINTEXT_LINK):
        self.host, self.port = host, port
        self.client_id = client_id
        self.link = link  # TLS/SASL of the controller listener (broker/node_link.py)
        self._writer = None
        self._connecting = None
        self._queued: list[bytes] = []
        self._pending: dict[int, tuple] = {}  # corr -> (future, api key, version)
        self._corr = 0
        self._retry_at = 0.0

    def request(self, msg, version: int) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if self._writer is None and self._connecting is None and loop.time() < self._retry_at:
            fut.set_exception(ConnectionError(f"{self.host}:{self.port} unreachable"))
            return fut
        self._corr = (self._corr + 1) & 0x7FFFFFFF
        corr = self._corr
        data = encode_request(msg, version, corr, self.client_id)
        self._pending[corr] = (fut, type(msg).API_KEY, version)
        if self._writer is not None:
            self._writer.write(data)
        else:
            self._queued.append(data)
            if self._connecting is None:
                self._connecting = loop.create_task(self._run())
        return fut

    async def _run(self) -> None:
        writer = None
        try:
            reader, writer = await self.link.open(self.host, self.port, self.client_id)
            self._writer = writer
            self._connecting = None
            for data in self._queued:
                writer.write(data)
            self._queued = []
            while True:
                (size,) = _size.unpack(await reader.readexactly(4))
                frame = await reader.readexactly(size)
                (corr,) = _corr.unpack_from(frame, 0)
                entry = self._pending.pop(corr, None)
                if entry is None:
                    continue
                fut, key, ver = entry
                if not fut.done():
                    try:
                        fut.set_result(decode_response(frame, key, ver).body)
                    except Exception as e:  # noqa: BLE001 - a bad frame fails that request
                        fut.set_exception(e)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - connection refused/reset/closed
            log.debug("peer %s:%s: %s", self.host, self.port, e)
        finally:
            self._retry_at = asyncio.get_running_loop().time() + self.RETRY_S
            self._writer = None
            self._connecting = None
            self._queued = []
            pending, self._pending = self._pending, {}
            for fut, _, _ in pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError(f"{self.host}:{self.port} connection lost"))
            if writer is not None:
                writer.close()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


def request_source(msg) -> int:
    """The replica that sent a raft request."""
    if isinstance(msg, rpc.FetchRequest):
        return rpc.fetch_replica_id(msg)
    if isinstance(msg, rpc.FetchSnapshotRequest):
        return msg.replica_id
    p = rpc.part(msg)
    return p.replica_id if isinstance(msg, rpc.VoteRequest) else p.leader_id


class RaftDriver:
    """Drives one RaftNode over the network. ``sm`` is the state machine:
    apply_batch(base_offset, values), apply_batch_steps(base_offset, values) (the same as a
    generator yielding between parts; the batch published whole at its end), restore_snapshot(data, end_offset),
    snapshot_bytes(end_offset), snapshot_ready() (False while the applied records end inside a
    metadata transaction: a snapshot is never taken there, as Kafka's SnapshotGenerator) and
    on_change() (leader/epoch/commit progress)."""

    def __init__(self, node_id: int, voters: dict[int, tuple[str, int]], metadata_dir: str,
                 config: RaftConfig, sm, snapshot_every_bytes: int = 20 << 20, fs: FileSystem | None = None,
                 halt: Callable[[int], None] = os._exit, link: NodeLink = PLAINTEXT_LINK,
                 clock: Callable[[], float] = time.monotonic, apply_faults_fatal: bool = False):
        """``halt``: ends the process at once (Kafka's fatal fault handler), as a failed disk does;
        ``clock``: the ticks' clock in seconds (monotonic, as the event loop's timers);
        ``apply_faults_fatal``: whether the state machine failing on a committed batch or snapshot halts
        the node (a controller's, as Kafka's QuorumController) or is logged and counted (a broker's, as
        Kafka's MetadataLoader): _apply_failed."""
        self._halt = halt
        self._apply_faults_fatal = apply_faults_fatal
        self.apply_faults = 0  # committed batches and snapshots the state machine failed on (never applied again)
        self._halted = False  # a fatal fault with a ``halt`` that returned (tests): the driver does nothing more
        self.storage = FileStorage(os.path.join(metadata_dir, DIR_NAME), fs)
        state = self.storage.load()
        self.node = RaftNode(node_id, voters.keys(), state, config, rng_seed=random.randrange(1 << 30))
        self.voters = dict(voters)
        self.peers = {v: PeerChannel(h, p, f"raft-{node_id}", link) for v, (h, p) in voters.items() if v != node_id}
        self.sm = sm
        self.snapshot_every_bytes = snapshot_every_bytes
        self._since_snapshot = 0
        self._inbound: dict[tuple[int, int], asyncio.Future] = {}
        self._recv_corr = 0
        self._waiters: list = []  # heap of (offset, seq, future): done once applied > offset
        self._seq = 0
        self._timer: asyncio.TimerHandle | None = None  # the next wake-up (_arm), at _timer_at on the clock
        self._timer_at = 0.0
        self._closed = False
        self._clock = clock
        self._next_tick: float | None = None  # when the next tick is due (None: not started)
        self._processing = False
        self._last_state = None
        self.leader_hw = -1  # the last high watermark a leader told us (observers' catch-up)
        # the offset the state machine has applied up to (exclusive): the node's ``applied`` less the
        # committed batches still queued for it (a large batch applied a part at a time, and those after)
        self.applied = self.node.applied
        self._queued: collections.deque = collections.deque()  # (base offset, next offset, values | None)
        self._steps = None  # the apply of the queue's first batch, under way
        self._stepping: asyncio.Handle | None = None  # the next part's turn
        self.write_error: OSError | None = None  # the metadata log's last failed write, until one succeeds
        self._failed_tick = -1  # the core's tick of the last failed write: tried again at a later tick
        # the raft IO thread: writes a Ready's persistence (None once closed: written on the caller's thread)
        self._io: concurrent.futures.ThreadPoolExecutor | None = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix=f"raft-io-{node_id}")
        self._writing: tuple[Ready, concurrent.futures.Future] | None = None  # the Ready being written
        # inputs meanwhile, in order: (step, the request's answer | None)
        self._held: collections.deque[tuple[Callable[[], None], asyncio.Future | None]] = collections.deque()
        self.commit_latency = CommitLatency()  # raft-metrics commit-latency-avg/-max (broker/stats.py)

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self._process()
        self._next_tick = self._clock() + TICK_MS / 1000
        self._arm()

    def _arm(self) -> None:
        """Wake up for the tick at which the core's timers act next (RaftNode.next_tick_due), not for
        every tick: the ticks before it only count time, and _catch_up runs them before any input. A
        Ready that could not be written (a full disk) is tried again every tick, and inputs left held
        stepped at the next."""
        if self._next_tick is None or self._closed or self._halted or self._writing is not None:
            return  # (a Ready being written: its end arms again)
        n = self.node
        try:
            ahead = 1 if self.write_error is not None or self._held or n.has_ready() else n.next_tick_due() - n.now
        except Exception:  # noqa: BLE001 - never left without a wake-up: tick by tick then
            log.exception("raft %d: next tick due", n.id)
            ahead = 1
        at = self._next_tick + (min(ahead, MAX_SLEEP_TICKS) - 1) * TICK_MS / 1000
        if self._timer is not None:
            if self._timer_at <= at:
                return  # due sooner already: from there it sleeps again
            self._timer.cancel()
        self._timer_at = at
        self._timer = asyncio.get_running_loop().call_later(max(0.0, at - self._clock()), self._wake)

    def _wake(self) -> None:
        self._timer = None
        self._catch_up_and_step_held()  # (inputs left held by a failure while they were stepped)
        self._arm()

    def _catch_up(self) -> None:
        """Every tick due by now, at once: the node's timers see the time that passed (a gap in which
        this process was not scheduled included) before it handles any input, as Kafka's
        KafkaRaftClient.poll() evaluates its state at the current time before each inbound message."""
        if self._next_tick is None or self._closed or self._halted:
            return
        now = self._clock()
        while self._next_tick <= now and self._writing is None:  # (a tick's Ready being written: after it)
            self._next_tick += TICK_MS / 1000
            try:
                self.node.tick()
                self._process()
            except Exception:
                log.exception("raft tick failed")

    def catch_up(self) -> None:
        """Bring the core's clock to now (what reads its timers outside an input: DescribeQuorum)."""
        self._catch_up()
        self._arm()

    def ticks_behind(self) -> int:
        """The ticks due by the clock that the core has not stepped yet (held back while a Ready is
        being written): what the core's tick clock lags now by, for timestamps read from its ticks."""
        if self._next_tick is None:
            return 0
        behind = self._clock() - self._next_tick
        return 0 if behind < 0 else int(behind * 1000 // TICK_MS) + 1

    def close(self) -> None:
        self._closed = True  # no more wake-ups
        if self._stepping is not None:
            self._stepping.cancel()
            self._stepping = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        io, self._io = self._io, None  # from here a Ready is written on this thread
        try:
            if self._writing is not None:
                rd, done = self._writing
                self._written(rd, done.result())  # (waits for the one write under way)
            if not self._halted:
                self._failed_tick = -1  # (a write that failed at this tick: tried once more, with the resignation)
                self.node.resign()  # graceful: EndQuorumEpoch lets the others elect at once
                self._process()
        except Exception:  # noqa: BLE001 - the close goes on: the requests still answered, the peers closed
            log.exception("raft %d: closing the driver failed", self.node.id)
        # the requests held or stepped but unanswered fail: their connections close now, not at their timeout
        held, self._held = self._held, collections.deque()
        inbound, self._inbound = self._inbound, {}
        for fut in [f for _, f in held if f is not None] + list(inbound.values()):
            if not fut.done():
                fut.set_exception(ConnectionError("the raft driver is closed"))
        if io is not None:
            io.shutdown(wait=False)
        for p in self.peers.values():
            p.close()

    # ------------------------------------------------------------ inputs
    def step_request(self, msg) -> asyncio.Future:
        """A raft request from the CONTROLLER listener; the future gets the response."""
        fut = asyncio.get_running_loop().create_future()
        if self._closed or self._halted:
            fut.set_exception(ConnectionError("the raft driver is closed"))
            return fut
        self._input(lambda: self._step_request(msg, fut), fut)
        return fut

    def _step_request(self, msg, fut: asyncio.Future) -> None:
        self._recv_corr += 1
        src = request_source(msg)
        key = (src, self._recv_corr)
        self._inbound[key] = fut
        try:
            self.node.step(Envelope(src, self.node.id, self._recv_corr, msg))
        except Exception as e:  # noqa: BLE001 - a RaftError (or a fault of the core) fails this request
            self._inbound.pop(key, None)
            if not fut.done():
                fut.set_exception(e)
            return
        fut.add_done_callback(lambda _f: self._inbound.pop(key, None))

    def _input(self, step: Callable[[], None], fut: asyncio.Future | None = None) -> None:
        """Step an input into the core now (after the ticks due), or, while a Ready is being written
        (the core takes no input between a Ready and its advance), once it is: in arrival order.
        ``fut``: a request's answer (failed if the driver closes first). A closed driver steps nothing."""
        if self._closed or self._halted:
            return  # (a late response: the core is done)
        if self._writing is None and not self._held:
            self._catch_up()
        if self._writing is not None or self._held:
            self._held.append((step, fut))
            self._arm()  # (held with no write under way - a failure left them - : stepped at the next tick)
            return
        step()
        self._process()
        self._arm()

    def _catch_up_and_step_held(self) -> None:
        """The ticks due, then every input that came while a Ready was being written, in order, and
        only then the next Ready: one Ready for all of them (the core takes any number of inputs
        between two Readies), as Kafka's raft thread handles an inbound message on every poll.
        Stepping one input per write starved them behind proposals: a leader under a steady stream
        of proposals stepped no follower fetch, committed nothing and was voted out."""
        if self._writing is not None or self._closed or self._halted:
            return
        self._processing = True  # (no Ready, so no write, until all are stepped)
        try:
            self._catch_up()
            while self._held:
                step, _ = self._held.popleft()
                try:
                    step()
                except Exception:  # noqa: BLE001 - as a failed input's own caller would: logged, the rest go on
                    log.exception("raft %d: a held input failed", self.node.id)
        finally:
            self._processing = False
        try:
            self._process()
        except Exception:  # noqa: BLE001 - as a failed input's own caller would: logged, the driver goes on
            log.exception("raft %d: carrying out the held inputs failed", self.node.id)

    def propose(self, values, now_ms: int) -> int:
        """Append values as one batch on the leader; returns its last offset. Taken at once even while a
        Ready is being written (a proposal only appends to the core's log: the next Ready writes it)."""
        self._catch_up()
        last = self.node.propose(values, now_ms)
        self.commit_latency.appended(last, time.monotonic())
        self._process()
        self._arm()
        return last

    def wait_applied(self, offset: int) -> asyncio.Future:
        """Done (True) once the record at ``offset`` is committed and applied."""
        fut = asyncio.get_running_loop().create_future()
        if self.applied > offset:
            fut.set_result(True)
        else:
            self._seq += 1
            heapq.heappush(self._waiters, (offset, self._seq, fut))
        return fut

    # ------------------------------------------------------------ Ready
    def _process(self) -> None:
        if self._processing or self._writing is not None or self._halted:
            return
        self._processing = True
        try:
            n = self.node
            while n.has_ready():
                if n.now == self._failed_tick:
                    break  # (a failed write is tried again at the next tick)
                rd = n.ready()
                if rd.writes and self._io is not None:
                    self._begin_write(rd, self._io)
                    break  # carried out once written (_write_done)
                if not self._persisted(rd, self._write(rd)):
                    break  # not advanced: the core offers what it must persist again
                self._carry_out(rd)
        finally:
            self._processing = False
        self._settle()

    def _carry_out(self, rd: Ready) -> None:
        """A persisted Ready: send its messages, apply what it commits, advance; a snapshot if due."""
        n = self.node
        try:
            for env in rd.messages:
                self._send(env)
            if rd.snapshot_to_apply is not None:
                s = rd.snapshot_to_apply
                log.info("raft %d: restoring snapshot at offset %d (epoch %d, %d bytes)", n.id,
                         s.id.end_offset, s.id.epoch, len(s.data))
                self._drop_queued()  # (batches before it: the snapshot holds what they did)
                try:
                    self.sm.restore_snapshot(s.data, s.id.end_offset)
                except Exception:  # noqa: BLE001 - a fault of the state machine: _apply_failed's policy
                    self._apply_failed(f"restoring the metadata snapshot at offset {s.id.end_offset}")
                self.applied = s.id.end_offset
                self._since_snapshot = 0
            handed = self._queued[-1][1] if self._queued else self.applied  # applied or queued up to here
            for b in rd.committed_entries:
                if self._halted:
                    break
                if b.next_offset <= handed:
                    continue  # (applied or queued already: a batch is never applied twice)
                self._since_snapshot += len(b.raw)
                values = None if b.control else b.records
                if self._queued or (values is not None and len(values) > STEPPED_APPLY):
                    self._queued.append((b.base_offset, b.next_offset, values))
                else:
                    if values is not None:
                        try:
                            self.sm.apply_batch(b.base_offset, values)
                        except Exception:  # noqa: BLE001 - a fault of the state machine: _apply_failed's policy
                            self._apply_failed(f"applying the metadata batch at offset {b.base_offset}")
                    self.applied = b.next_offset
                handed = b.next_offset
                b.forget_records()  # applied or queued: the log keeps its bytes only
        finally:
            n.advance(rd)  # written: never offered (so written) again, whatever failed in carrying it out
        if self._halted:
            return
        if self._since_snapshot >= self.snapshot_every_bytes and n.applied > n.log.start_offset \
                and not self._queued and self.sm.snapshot_ready():
            n.snapshot(n.applied, self.sm.snapshot_bytes(n.applied))
            self._since_snapshot = 0

    def _apply_failed(self, what: str) -> None:
        """The state machine raised on a committed batch or snapshot (the exception being handled). A
        controller's (``apply_faults_fatal``) halts the node, as Kafka's QuorumController replays a
        committed record through its fatal fault handler: its image must not go on without a record
        the other controllers applied (a restart replays the log). A broker's is logged and counted and
        the metadata log goes on, as Kafka's MetadataLoader (its metadata-load-error-count). Either way
        the batch counts as applied: it is never applied again (a re-applied PartitionChange bumps the
        partition epoch twice), nor its Ready written again."""
        self.apply_faults += 1
        if not self._apply_faults_fatal:
            log.error("raft %d: Encountered metadata loading fault: %s", self.node.id, what, exc_info=True)
            return
        log.critical("Encountered fatal fault: %s", what, exc_info=True)
        for h in logging.getLogger().handlers:
            h.flush()
        self._halted = True
        for handle in (self._timer, self._stepping):
            if handle is not None:
                handle.cancel()
        self._timer = self._stepping = None
        self._halt(1)

    def _settle(self) -> None:
        """After Readies were carried out: commit latency, waiters, the stepped apply, on_change."""
        n = self.node
        if n.is_leader:
            self.commit_latency.committed(n.hw, time.monotonic())
        else:
            self.commit_latency.not_leader()
        self._release_waiters()
        if self._queued and self._stepping is None and not self._closed and not self._halted:
            self._stepping = asyncio.get_running_loop().call_soon(self._apply_step)
        st = (self.node.state.name, self.node.epoch, self.node.leader_id)
        if st != self._last_state:
            self._last_state = st
            log.info("raft %s", self.node.status())
        self.sm.on_change()

    def _release_waiters(self) -> None:
        while self._waiters and self._waiters[0][0] < self.applied:
            _, _, fut = heapq.heappop(self._waiters)
            if not fut.done():
                fut.set_result(True)

    def _apply_step(self) -> None:
        """One part of the queue's first batch (its apply begun if it is not); once it is applied,
        the small and control batches behind it up to the next large one; another turn if any is left."""
        self._stepping = None
        if self._closed or self._halted:
            return
        while self._queued and not self._halted:
            base, end, values = self._queued[0]
            if self._steps is None and (values is None or len(values) <= STEPPED_APPLY):
                if values is not None:
                    try:
                        self.sm.apply_batch(base, values)
                    except Exception:  # noqa: BLE001 - a fault of the state machine: _apply_failed's policy
                        self._apply_failed(f"applying the metadata batch at offset {base}")
            else:
                if self._steps is None:
                    self._steps = self.sm.apply_batch_steps(base, values)
                try:
                    next(self._steps)
                    break  # (a part done: the next one in another turn)
                except StopIteration:
                    pass
                except Exception:  # noqa: BLE001 - a fault of the state machine: _apply_failed's policy
                    self._apply_failed(f"applying the metadata batch at offset {base}")
                self._steps = None
            self._queued.popleft()
            self.applied = end
            if self._steps is None and self._queued and self._queued[0][2] is not None \
                    and len(self._queued[0][2]) > STEPPED_APPLY:
                break  # (the next large batch begins in another turn)
        self._release_waiters()
        self.sm.on_change()
        if self._queued and not self._closed and not self._halted:
            self._stepping = asyncio.get_running_loop().call_soon(self._apply_step)

    def _drop_queued(self) -> None:
        if self._steps is not None:
            self._steps.close()
            self._steps = None
        self._queued.clear()

    def _begin_write(self, rd: Ready, io: concurrent.futures.ThreadPoolExecutor) -> None:
        """Write ``rd`` on the raft IO thread; _write_done carries it out on the loop once written."""
        loop = asyncio.get_running_loop()
        done = io.submit(self._write, rd)
        self._writing = (rd, done)

        def written(_f: concurrent.futures.Future) -> None:
            try:
                loop.call_soon_threadsafe(self._write_done, rd, done)
            except RuntimeError:  # the loop is closed (its driver was never closed): nothing to carry out
                pass

        done.add_done_callback(written)

    def _write(self, rd: Ready) -> OSError | None:
        """Persist a Ready (on any thread: only the storage is touched); its error, if any."""
        try:
            self.storage.apply(rd)
        except OSError as e:
            return e
        return None

    def _write_done(self, rd: Ready, done: concurrent.futures.Future) -> None:
        if self._writing is None or self._writing[0] is not rd:
            return  # (close carried it out)
        try:
            error = done.result()
        except Exception as e:  # noqa: BLE001 - not an OSError: a fault of the storage code, as an EIO
            log.exception("raft %d: writing the metadata log failed", self.node.id)
            error = OSError(errno.EIO, f"raft IO thread: {e!r}")
        try:
            self._written(rd, error)
            if self._closed:
                return
            self._catch_up_and_step_held()  # the ticks that came due meanwhile, then the inputs that came
        except Exception:  # noqa: BLE001 - as a failed input's: logged; the driver goes on (woken, inputs stepped)
            log.exception("raft %d: carrying out a written Ready failed", self.node.id)
        finally:
            self._arm()

    def _written(self, rd: Ready, error: OSError | None) -> None:
        """The write of ``rd`` returned: carried out if it succeeded (else offered again by the core)."""
        self._writing = None
        if self._persisted(rd, error):
            self._processing = True
            try:
                self._carry_out(rd)
            finally:
                self._processing = False
        self._settle()

    def _persisted(self, rd: Ready, e: OSError | None) -> bool:
        """Whether a Ready's write succeeded: it is made durable before anything of it is sent or
        applied. A write that failed for space (ENOSPC) was rolled back by the storage; the next
        tick tries again, so a vote, a leadership or a record is never acted on before it is on
        disk, and the Ready's messages go out with the Ready that does (RaftNode.not_persisted: a
        response dropped there left its requester's connection waiting 30 s). Any other failure
        (EIO), or one the storage could not roll back, halts the node, as Kafka's."""
        if e is not None:
            self._failed_tick = self.node.now
            self.node.not_persisted(rd)
            if e.errno not in (errno.ENOSPC, errno.EDQUOT) or isinstance(e, StorageOfflineError):
                # a failing disk (EIO), or a write that could not be undone: as Kafka's raft IO
                # thread (ProcessTerminatingFaultHandler), the node ends; a restart recovers the log
                log.critical("Encountered fatal fault: Unexpected error in raft IO thread: writing the metadata "
                             "log failed: %s", e)
                for h in logging.getLogger().handlers:
                    h.flush()
                self._halt(1)
                return False
            if type(e) is not type(self.write_error):  # a full disk: rolled back by the storage
                log.error("raft %d: writing the metadata log failed: %s; retrying every tick", self.node.id, e)
            self.write_error = e
            return False
        if self.write_error is not None:
            log.warning("raft %d: the metadata log is written again", self.node.id)
            self.write_error = None
        return True

    def _send(self, env: Envelope) -> None:
        if env.is_response:
            fut = self._inbound.pop((env.dst, env.correlation_id), None)
            if fut is not None and not fut.done():
                fut.set_result(env.msg)
            return
        peer = self.peers.get(env.dst)
        if peer is None:
            return
        fut = peer.request(env.msg, RAFT_VERSIONS[type(env.msg)])
        fut.add_done_callback(lambda f, env=env: self._on_response(env, f))

    def _on_response(self, env: Envelope, fut) -> None:
        if fut.cancelled() or fut.exception() is not None:
            return  # the core resends on its request timeout
        msg = fut.result()
        if isinstance(msg, rpc.FetchResponse) and msg.error_code == 0 and msg.responses:
            p = rpc.part(msg)
            if p.error_code == 0 and p.current_leader.leader_id >= 0:
                self.leader_hw = max(self.leader_hw, p.high_watermark)
        self._input(lambda: self._step_response(env, msg))

    def _step_response(self, env: Envelope, msg) -> None:
        try:
            self.node.step(Envelope(env.dst, self.node.id, env.correlation_id, msg))
        except RaftError:
            log.exception("raft response from %s rejected", env.dst)
