"""Raft metadata quorum: a pure KRaft consensus core (see node.RaftNode)."""

from . import rpc
from .log import MemoryStorage, RaftLog
from .node import RaftNode
from .types import (
    Batch, Envelope, NotLeaderError, RaftConfig, RaftError, Ready, Snapshot, SnapshotId, StorageState,
)

__all__ = [
    "Batch", "Envelope", "MemoryStorage", "NotLeaderError", "RaftConfig", "RaftError", "RaftLog",
    "RaftNode", "Ready", "Snapshot", "SnapshotId", "StorageState",
]
