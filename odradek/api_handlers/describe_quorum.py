"""DescribeQuorum (key 55) v0-2: the metadata quorum as the Raft core sees it
(kafka-metadata-quorum.sh describe --status/--replication, Admin.describeMetadataQuorum).

A lone `odradek serve` is its own single voter; in a cluster the quorum port answers (locally
on the Raft leader, else forwarded to it, see broker/quorum.py).
"""

from __future__ import annotations

from odradek.raft.quorum_state import Leader
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_quorum_response import (
    DescribeQuorumResponse, Listener, Node, PartitionData, ReplicaState, TopicData,
)

API_KEY = 55
MIN_VERSION = 0
MAX_VERSION = 2
METADATA_TOPIC = "__cluster_metadata"


def handle(ctx, request):
    return ctx.services.quorum.describe_quorum(ctx, request)


def quorum_error(code: int, message: str | None = None) -> DescribeQuorumResponse:
    return DescribeQuorumResponse(error_code=code, error_message=message, topics=[], nodes=[])


def from_node(node, now_ms: int, tick_ms: int, endpoints: dict, ticks_behind: int = 0) -> DescribeQuorumResponse:
    """endpoints: voter id -> (listener name, host, port); ticks_behind: the ticks due that the core has
    not stepped yet (its driver writing a Ready): its tick clock is that far behind ``now_ms``."""
    if node is None:
        return quorum_error(ErrorCode.UNKNOWN_SERVER_ERROR, "no metadata quorum")
    s = node.state
    if not isinstance(s, Leader):
        part = PartitionData(partition_index=0, error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER,
                             error_message=None, leader_id=node.leader_id, leader_epoch=node.epoch,
                             high_watermark=-1, current_voters=[], observers=[])
    else:
        def ms(tick):
            return -1 if tick < 0 else now_ms - (node.now + ticks_behind - tick) * tick_ms

        voters = [ReplicaState(replica_id=node.id, log_end_offset=node.log.end_offset,
                               last_fetch_timestamp=now_ms, last_caught_up_timestamp=now_ms)]
        for rid, p in sorted(s.replicas.items()):
            voters.append(ReplicaState(replica_id=rid, log_end_offset=p.end_offset,
                                       last_fetch_timestamp=ms(p.last_fetch_tick),
                                       last_caught_up_timestamp=ms(p.last_caught_up_tick)))
        observers = [ReplicaState(replica_id=rid, replica_directory_id=p.directory_id, log_end_offset=p.end_offset,
                                  last_fetch_timestamp=ms(p.last_fetch_tick),
                                  last_caught_up_timestamp=ms(p.last_caught_up_tick))
                     for rid, p in sorted(s.observers.items())]
        part = PartitionData(partition_index=0, error_code=0, error_message=None, leader_id=node.id,
                             leader_epoch=node.epoch, high_watermark=node.hw, current_voters=voters,
                             observers=observers)
    nodes = [Node(node_id=vid, listeners=[Listener(name=name, host=host, port=port)])
             for vid, (name, host, port) in sorted(endpoints.items())]
    return DescribeQuorumResponse(error_code=0, error_message=None,
                                  topics=[TopicData(topic_name=METADATA_TOPIC, partitions=[part])], nodes=nodes)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeQuorumRequest.getErrorResponse."""
    return DescribeQuorumResponse(error_code=code,
                                  error_message=ErrorCode.from_code(code).message)
