"""Plain values shared by the Raft core: batches, snapshot ids, envelopes, Ready, config."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from odradek.wire.messages.quorum_state_data import QuorumStateData

# The metadata partition, as KRaft names it on the wire.
METADATA_TOPIC = "__cluster_metadata"
METADATA_PARTITION = 0


@dataclass(frozen=True)
class Batch:
    """One record batch of the replicated log: all of it carries one leader epoch.

    ``raw`` is the Kafka v2 record batch as sent on the wire and written to disk.
    """

    base_offset: int
    epoch: int
    records: tuple  # record values (bytes)
    control: bool = False
    raw: bytes = b""

    @property
    def next_offset(self) -> int:
        return self.base_offset + max(1, len(self.records))

    @property
    def last_offset(self) -> int:
        return self.next_offset - 1


@dataclass(frozen=True, order=True)
class SnapshotId:
    """A snapshot covers offsets [0, end_offset); epoch is the epoch of offset end_offset-1."""

    end_offset: int
    epoch: int


@dataclass(frozen=True)
class Snapshot:
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
    apply (snapshot_to_apply, then committed_entries), then call advance(ready)."""

    messages: list = field(default_factory=list)  # [Envelope]
    truncate_log_from: int | None = None  # drop persisted batches with base >= this first
    entries: list = field(default_factory=list)  # [Batch] to append durably
    quorum_state: QuorumStateData | None = None  # to persist durably (changed)
    snapshot: Snapshot | None = None  # to persist durably (created here or fetched)
    delete_log_before: int | None = None  # log start offset moved: drop batches wholly below
    high_watermark: int | None = None  # changed high watermark (informational)
    snapshot_to_apply: Snapshot | None = None  # state machine restores from this first
    committed_entries: list = field(default_factory=list)  # [Batch], control ones included

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
