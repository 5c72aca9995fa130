"""controller_api.says_not_controller: which answers send a forwarded admin request on to the next
active controller (read through the response's fields, no attribute probes)."""
from __future__ import annotations

from odradek.api_handlers.common import CLOSE_CONNECTION
from odradek.broker.controller_api import NOT_CONTROLLER, says_not_controller
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.create_topics_response import CreatableTopicResult, CreateTopicsResponse
from odradek.wire.messages.describe_quorum_response import DescribeQuorumResponse, PartitionData, TopicData
from odradek.wire.messages.update_features_response import UpdateFeaturesResponse


def test_top_level_entries_and_describe_quorum():
    assert says_not_controller(UpdateFeaturesResponse(error_code=NOT_CONTROLLER))
    assert not says_not_controller(UpdateFeaturesResponse(error_code=E.INVALID_REQUEST))
    topics = [CreatableTopicResult(name="a", error_code=0), CreatableTopicResult(name="b", error_code=NOT_CONTROLLER)]
    assert says_not_controller(CreateTopicsResponse(topics=topics))
    assert not says_not_controller(CreateTopicsResponse(topics=topics[:1]))
    assert not says_not_controller(CreateTopicsResponse(topics=[]))

    def quorum(code):
        return DescribeQuorumResponse(topics=[TopicData(topic_name="__cluster_metadata", partitions=[
            PartitionData(partition_index=0, error_code=code)])])

    assert says_not_controller(quorum(E.NOT_LEADER_OR_FOLLOWER))
    assert not says_not_controller(quorum(E.NONE))
    assert says_not_controller(DescribeQuorumResponse(error_code=NOT_CONTROLLER, topics=[]))
    assert not says_not_controller(CLOSE_CONNECTION)
