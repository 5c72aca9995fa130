"""Builders and readers for the Kafka raft RPCs (the generated wire classes).

Every raft RPC carries one topic (__cluster_metadata) with one partition; these
helpers hide that nesting so the state machine code reads as the protocol does.
"""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages import (
    begin_quorum_epoch_request as bqe_req, begin_quorum_epoch_response as bqe_resp,
    end_quorum_epoch_request as eqe_req, end_quorum_epoch_response as eqe_resp,
    fetch_request as f_req, fetch_response as f_resp,
    fetch_snapshot_request as fs_req, fetch_snapshot_response as fs_resp,
    vote_request as v_req, vote_response as v_resp,
)

from .types import METADATA_PARTITION as P, METADATA_TOPIC as T

NONE = ErrorCode.NONE
# The metadata topic id KRaft uses on the wire (Uuid.METADATA_TOPIC_ID).
METADATA_TOPIC_ID = bytes(15) + b"\x01"

VoteRequest, VoteResponse = v_req.VoteRequest, v_resp.VoteResponse
BeginQuorumEpochRequest, BeginQuorumEpochResponse = bqe_req.BeginQuorumEpochRequest, bqe_resp.BeginQuorumEpochResponse
EndQuorumEpochRequest, EndQuorumEpochResponse = eqe_req.EndQuorumEpochRequest, eqe_resp.EndQuorumEpochResponse
FetchRequest, FetchResponse = f_req.FetchRequest, f_resp.FetchResponse
FetchSnapshotRequest, FetchSnapshotResponse = fs_req.FetchSnapshotRequest, fs_resp.FetchSnapshotResponse


def part(msg):
    """The single partition entry of a raft request/response."""
    if isinstance(msg, FetchRequest):
        return msg.topics[0].partitions[0]
    if isinstance(msg, FetchResponse):
        return msg.responses[0].partitions[0]
    return msg.topics[0].partitions[0]


def names_one_partition(msg) -> bool:
    """Whether a raft request names one topic with one partition (``part`` reads it); Kafka answers
    another INVALID_REQUEST."""
    return len(msg.topics) == 1 and len(msg.topics[0].partitions) == 1


def answered_part(resp):
    """A Fetch or FetchSnapshot response's partition and the leader it names as
    (partition, leader id, leader epoch); None when it failed as a whole or is empty."""
    parts = resp.responses if isinstance(resp, FetchResponse) else resp.topics
    if resp.error_code != ErrorCode.NONE or not parts:
        return None
    p = part(resp)
    return p, p.current_leader.leader_id, p.current_leader.leader_epoch


# ---------------------------------------------------------------- Vote
def vote_request(cluster_id, candidate, epoch, last_epoch, end_offset, pre_vote, voter_id):
    return VoteRequest(cluster_id=cluster_id, voter_id=voter_id, topics=[v_req.TopicData(
        topic_name=T, partitions=[v_req.PartitionData(
            partition_index=P, replica_epoch=epoch, replica_id=candidate,
            last_offset_epoch=last_epoch, last_offset=end_offset, pre_vote=pre_vote)])])


def vote_response(error, leader_id, epoch, granted):
    return VoteResponse(topics=[v_resp.TopicData(topic_name=T, partitions=[v_resp.PartitionData(
        partition_index=P, error_code=error, leader_id=leader_id, leader_epoch=epoch,
        vote_granted=granted)])])


# ---------------------------------------------------------------- Begin/EndQuorumEpoch
def begin_quorum_epoch_request(cluster_id, leader_id, epoch, voter_id):
    return BeginQuorumEpochRequest(cluster_id=cluster_id, voter_id=voter_id, topics=[bqe_req.TopicData(
        topic_name=T, partitions=[bqe_req.PartitionData(
            partition_index=P, leader_id=leader_id, leader_epoch=epoch)])])


def begin_quorum_epoch_response(error, leader_id, epoch):
    return BeginQuorumEpochResponse(topics=[bqe_resp.TopicData(topic_name=T, partitions=[
        bqe_resp.PartitionData(partition_index=P, error_code=error, leader_id=leader_id, leader_epoch=epoch)])])


def end_quorum_epoch_request(cluster_id, leader_id, epoch, preferred):
    return EndQuorumEpochRequest(cluster_id=cluster_id, topics=[eqe_req.TopicData(
        topic_name=T, partitions=[eqe_req.PartitionData(
            partition_index=P, leader_id=leader_id, leader_epoch=epoch,
            preferred_successors=list(preferred),
            preferred_candidates=[eqe_req.ReplicaInfo(candidate_id=c) for c in preferred])])])


def preferred_successors(req) -> list[int]:
    p = part(req)
    if p.preferred_candidates:
        return [c.candidate_id for c in p.preferred_candidates]
    return list(p.preferred_successors)


def end_quorum_epoch_response(error, leader_id, epoch):
    return EndQuorumEpochResponse(topics=[eqe_resp.TopicData(topic_name=T, partitions=[
        eqe_resp.PartitionData(partition_index=P, error_code=error, leader_id=leader_id, leader_epoch=epoch)])])


# ---------------------------------------------------------------- Fetch
def fetch_request(cluster_id, replica_id, epoch, fetch_offset, last_fetched_epoch, log_start,
                  high_watermark, max_wait_ms):
    return FetchRequest(
        cluster_id=cluster_id, replica_id=replica_id,
        replica_state=f_req.ReplicaState(replica_id=replica_id, replica_epoch=-1),
        max_wait_ms=max_wait_ms, min_bytes=0,
        topics=[f_req.FetchTopic(topic=T, topic_id=METADATA_TOPIC_ID, partitions=[f_req.FetchPartition(
            partition=P, current_leader_epoch=epoch, fetch_offset=fetch_offset,
            last_fetched_epoch=last_fetched_epoch, log_start_offset=log_start,
            partition_max_bytes=1 << 20, high_watermark=high_watermark)])])


def fetch_replica_id(req) -> int:
    rid = req.replica_state.replica_id
    return rid if rid >= 0 else req.replica_id


def fetch_response(error, leader_id, epoch, *, high_watermark=-1, log_start=-1, records=None,
                   diverging=None, snapshot_id=None):
    pd = f_resp.PartitionData(
        partition_index=P, error_code=error, high_watermark=high_watermark,
        log_start_offset=log_start, records=records,
        current_leader=f_resp.LeaderIdAndEpoch(leader_id=leader_id, leader_epoch=epoch))
    if diverging is not None:
        pd.diverging_epoch = f_resp.EpochEndOffset(epoch=diverging[0], end_offset=diverging[1])
    if snapshot_id is not None:
        pd.snapshot_id = f_resp.SnapshotId(end_offset=snapshot_id.end_offset, epoch=snapshot_id.epoch)
    return FetchResponse(responses=[f_resp.FetchableTopicResponse(
        topic=T, topic_id=METADATA_TOPIC_ID, partitions=[pd])])


# ---------------------------------------------------------------- FetchSnapshot
def fetch_snapshot_request(cluster_id, replica_id, epoch, snapshot_id, position, max_bytes):
    return FetchSnapshotRequest(cluster_id=cluster_id, replica_id=replica_id, max_bytes=max_bytes,
                                topics=[fs_req.TopicSnapshot(name=T, partitions=[fs_req.PartitionSnapshot(
                                    partition=P, current_leader_epoch=epoch,
                                    snapshot_id=fs_req.SnapshotId(end_offset=snapshot_id.end_offset,
                                                                  epoch=snapshot_id.epoch),
                                    position=position)])])


def fetch_snapshot_response(error, leader_id, epoch, snapshot_id=None, size=0, position=0, chunk=None):
    p = fs_resp.PartitionSnapshot(
        index=P, error_code=error, size=size, position=position, unaligned_records=chunk,
        current_leader=fs_resp.LeaderIdAndEpoch(leader_id=leader_id, leader_epoch=epoch))
    if snapshot_id is not None:
        p.snapshot_id = fs_resp.SnapshotId(end_offset=snapshot_id.end_offset, epoch=snapshot_id.epoch)
    return FetchSnapshotResponse(topics=[fs_resp.TopicSnapshot(name=T, partitions=[p])])


def leader_of(resp) -> tuple[int, int]:
    """(leader_id, epoch) a response reports."""
    p = part(resp)
    if isinstance(resp, (FetchResponse, FetchSnapshotResponse)):
        return p.current_leader.leader_id, p.current_leader.leader_epoch
    return p.leader_id, p.leader_epoch
