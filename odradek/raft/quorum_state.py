"""The node's role in an epoch, one small class per state (as Kafka's QuorumState),
and the persisted quorum-state record (Kafka's ``quorum-state`` file, QuorumStateData).

Unattached  knows the epoch, maybe who it voted for; no leader known
Prospective running a pre-vote for epoch+1 (nothing persisted, epoch unchanged)
Candidate   voted for itself in its own epoch, collecting votes
Leader      won the epoch; tracks each replica's fetch position for the high watermark
Follower    fetches from the known leader of the epoch
Resigned    was leader of the epoch and stepped down (shutdown or lost quorum)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from odradek.wire.messages.quorum_state_data import QuorumStateData, Voter


@dataclass
class EpochState:
    """A Raft node's state in one epoch."""
    epoch: int
    leader_id: int = -1
    voted_id: int = -1
    deadline: int = 0  # tick at which this state's timer fires

    @property
    def name(self) -> str:
        return type(self).__name__


@dataclass
class Unattached(EpochState):
    """No leader known in this epoch (a vote may have been cast: voted_id)."""


@dataclass
class Prospective(EpochState):
    """Asking for pre-votes before standing as a candidate."""
    granted: set = field(default_factory=set)
    rejected: set = field(default_factory=set)
    lost_leader: int = -1  # the leader of this epoch we timed out on (not followed again)


@dataclass
class Candidate(EpochState):
    """Standing for election in this epoch."""
    granted: set = field(default_factory=set)
    rejected: set = field(default_factory=set)


@dataclass
class ReplicaProgress:
    """What the leader knows of a voter's or observer's fetches."""
    end_offset: int = -1  # last fetch offset: everything below is on its disk
    last_fetch_tick: int = -1
    last_caught_up_tick: int = -1
    directory_id: bytes = bytes(16)  # an observer's, from its Fetch (ReplicaDirectoryId, v17)


@dataclass
class Leader(EpochState):
    """The leader of this epoch."""
    epoch_start_offset: int = 0
    granting: set = field(default_factory=set)
    replicas: dict = field(default_factory=dict)  # voter id -> ReplicaProgress
    observers: dict = field(default_factory=dict)  # observer id -> ReplicaProgress
    begin_acked: set = field(default_factory=set)
    begin_sent_tick: int = -1
    parked: dict = field(default_factory=dict)  # replica id -> (envelope, expiry tick)


@dataclass
class SnapshotFetch:
    """A snapshot being fetched from the leader."""
    snapshot_id: object
    buf: bytearray = field(default_factory=bytearray)


@dataclass
class Follower(EpochState):
    """Following this epoch's leader."""
    fetch_corr: int = -1  # the one outstanding Fetch/FetchSnapshot, by correlation id
    fetch_offset: int = -1
    fetch_sent_tick: int = -1
    next_fetch_tick: int = 0
    snapshot_fetch: SnapshotFetch | None = None


@dataclass
class Resigned(EpochState):
    """A leader that stepped down in its epoch (shutdown, lost quorum, or restarted): others elect next."""
    preferred: list = field(default_factory=list)


def to_record(cluster_id, state: EpochState, voters) -> QuorumStateData:
    return QuorumStateData(
        cluster_id=cluster_id or "", leader_id=state.leader_id, leader_epoch=state.epoch,
        voted_id=state.voted_id, applied_offset=0,
        current_voters=[Voter(voter_id=v) for v in sorted(voters)])


def to_json(qs: QuorumStateData) -> bytes:
    """The quorum-state file as Kafka writes it (FileQuorumStateStore, data_version 0)."""
    return json.dumps({
        "clusterId": qs.cluster_id, "leaderId": qs.leader_id, "leaderEpoch": qs.leader_epoch,
        "votedId": qs.voted_id, "appliedOffset": qs.applied_offset,
        "currentVoters": [{"voterId": v.voter_id} for v in qs.current_voters],
        "data_version": 0,
    }).encode()


def from_json(raw: bytes) -> QuorumStateData:
    d = json.loads(raw)
    return QuorumStateData(
        cluster_id=d.get("clusterId", ""), leader_id=d.get("leaderId", -1),
        leader_epoch=d.get("leaderEpoch", -1), voted_id=d.get("votedId", -1),
        applied_offset=d.get("appliedOffset", 0),
        current_voters=[Voter(voter_id=v["voterId"]) for v in d.get("currentVoters") or []])
