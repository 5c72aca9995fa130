"""Plain values shared by the Raft core: batches, snapshot ids, envelopes, Ready, config."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from odradek.wire.messages.quorum_state_data import QuorumStateData
from odradek.wire.records import iter_batches

# The metadata partition, as KRaft names it on the wire.
METADATA_TOPIC = "__cluster_metadata"
METADATA_PARTITION = 0


class Batch:
    """One record batch of the replicated log: all of it carries one leader epoch.

    ``raw`` is the Kafka v2 record batch as sent on the wire and written to disk; ``records``
    its record values (bytes). The log holds every batch until a snapshot, so once a driver has
    applied a batch it lets go of what no one reads again:
    - forget_records: the batch keeps ``raw`` only (the leader still sends it to followers), and
      ``records`` decodes the values from it again for the rare reader after that (a test, a dump);
    - forget_bytes: the batch keeps its offsets and epoch only (``raw`` is None), for a log no one
      fetches from once it is on disk (a single voter's: LocalRaftLog).
    Immutable otherwise; equal batches have the same offset, epoch, kind and bytes.
    """

    __slots__ = ("base_offset", "epoch", "control", "raw", "next_offset", "_records")

    def __init__(self, base_offset: int, epoch: int, records: tuple, control: bool = False, raw: bytes = b""):
        self.base_offset = base_offset
        self.epoch = epoch
        self.control = control
        self.raw: bytes | None = raw
        self.next_offset = base_offset + max(1, len(records))
        self._records: tuple | None = records

    @property
    def records(self) -> tuple:
        """The record values (bytes), decoded from ``raw`` again once forgotten."""
        if self._records is not None:
            return self._records
        if self.raw is None:
            raise RaftError(f"batch at {self.base_offset}: its bytes were let go (forget_bytes)")
        return tuple(r.value for _, recs in iter_batches(self.raw) for r in recs)

    def forget_records(self) -> None:
        """Keep only ``raw`` (a batch without it keeps its values)."""
        if self.raw:
            self._records = None

    def forget_bytes(self) -> None:
        """Keep neither the values nor ``raw``: only the offsets and epoch."""
        self._records = self.raw = None

    @property
    def last_offset(self) -> int:
        return self.next_offset - 1

    def _key(self) -> tuple:
        return self.base_offset, self.next_offset, self.epoch, self.control, self.raw or self._records

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Batch):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        size = "let go" if self.raw is None else f"{len(self.raw)} bytes"
        return f"Batch(base_offset={self.base_offset}, next_offset={self.next_offset}, epoch={self.epoch}, " \
               f"control={self.control}, raw=<{size}>)"


@dataclass(frozen=True, order=True)
class SnapshotId:
    """A snapshot covers offsets [0, end_offset); epoch is the epoch of offset end_offset-1."""

    end_offset: int
    epoch: int


@dataclass(frozen=True)
class Snapshot:
    """A snapshot of the log: its id and its data."""
    id: SnapshotId
    data: bytes


@dataclass(frozen=True)
class Envelope:
    """A Kafka raft RPC in flight: a request, or the response to request ``correlation_id``."""

    src: int
    dst: int
    correlation_id: int
    msg: Any

    @property
    def is_response(self) -> bool:
        return type(self.msg).__name__.endswith("Response")


@dataclass
class StorageState:
    """What a node finds on its disk at start: quorum state, latest snapshot, log batches."""

    quorum_state: QuorumStateData | None = None
    snapshot: Snapshot | None = None
    batches: list = field(default_factory=list)


@dataclass
class Ready:
    """What the driver must do, in this order: persist (truncate_log_from, then
    entries; quorum_state; snapshot and delete_log_before), then send messages, then
    apply (snapshot_to_apply, then committed_entries), then call advance(ready).

    The persist may run on another thread (``writes``: whether there is any): until it returned and
    advance() was called, the driver steps no input and no tick into the core, only propose() (which
    appends to the log, for the next Ready: it touches nothing this one reads). Not advanced (the
    write failed), the next Ready offers the same persistence again, and the driver hands this one back
    (RaftNode.not_persisted): its messages leave with the next Ready, once that is written."""

    messages: list = field(default_factory=list)  # [Envelope]
    truncate_log_from: int | None = None  # drop persisted batches with base >= this first
    entries: list = field(default_factory=list)  # [Batch] to append durably
    quorum_state: QuorumStateData | None = None  # to persist durably (changed)
    snapshot: Snapshot | None = None  # to persist durably (created here or fetched)
    delete_log_before: int | None = None  # log start offset moved: drop batches wholly below
    high_watermark: int | None = None  # changed high watermark (informational)
    snapshot_to_apply: Snapshot | None = None  # state machine restores from this first
    committed_entries: list = field(default_factory=list)  # [Batch], control ones included

    @property
    def writes(self) -> bool:
        """Whether it has anything to persist (a driver may write it on another thread: its
        messages and committed entries wait for that write, and the core takes no input but a
        proposal until advance())."""
        return bool(self.entries) or self.truncate_log_from is not None or self.quorum_state is not None \
            or self.snapshot is not None or self.delete_log_before is not None

    def __bool__(self) -> bool:
        return bool(
            self.messages or self.entries or self.committed_entries
            or self.truncate_log_from is not None or self.quorum_state is not None
            or self.snapshot is not None or self.delete_log_before is not None
            or self.snapshot_to_apply is not None or self.high_watermark is not None
        )


@dataclass(frozen=True)
class RaftConfig:
    """Timeouts are in ticks (the driver decides how long a tick is, e.g. 50 ms)."""

    election_timeout: int = 10  # randomized in [t, 2t)
    fetch_timeout: int = 20  # follower: no leader contact for this long -> election
    request_timeout: int = 6  # an unanswered request is resent / given up
    fetch_max_wait: int = 4  # leader parks an empty fetch at most this long
    tick_ms: int = 100  # a tick's length, for the max_wait_ms a Fetch asks the leader for
    election_backoff_max: int = 10  # random wait before retrying a failed election
    max_batches_per_fetch: int = 16
    snapshot_chunk_bytes: int = 1 << 20
    cluster_id: str | None = None
    pre_vote: bool = True


class RaftError(Exception):
    pass


class NotLeaderError(RaftError):
    def __init__(self, leader_id: int, epoch: int):
        super().__init__(f"not the leader (leader {leader_id}, epoch {epoch})")
        self.leader_id = leader_id
        self.epoch = epoch
