"""A broker's configs are altered through that broker (Kafka's ConfigAdminManager.preprocess): a
cluster broker answers the others with INVALID_REQUEST itself and forwards the rest."""

from odradek.api_handlers.broker_config_target import merged, split
from odradek.wire.messages.incremental_alter_configs_request import AlterConfigsResource, IncrementalAlterConfigsRequest
from odradek.wire.messages.incremental_alter_configs_response import (AlterConfigsResourceResponse,
                                                                       IncrementalAlterConfigsResponse)


def req(*names):
    return IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(resource_type=t, resource_name=n, configs=[])
                                                     for t, n in names], validate_only=True)


def test_only_misdirected_broker_resources_are_answered_here():
    forwarded, refused = split(44, req((4, ""), (4, "2"), (4, "3"), (2, "topic"), (4, "b")), 2)
    assert [(r.resource_type, r.resource_name) for r in forwarded.resources] == [(4, ""), (4, "2"), (2, "topic")]
    assert forwarded.validate_only
    assert [(r.error_code, r.resource_name, r.error_message) for r in refused] == [
        (42, "3", "Unexpected broker id, expected 2, but received 3"),
        (42, "b", "Node id must be an integer, but it is: b")]
    answer = IncrementalAlterConfigsResponse(responses=[AlterConfigsResourceResponse(resource_type=4, resource_name="")])
    assert [r.resource_name for r in merged(44, answer, refused).responses] == ["", "3", "b"]


def test_nothing_left_to_forward():
    forwarded, refused = split(44, req((4, "7")), 2)
    assert forwarded is None and [r.resource_name for r in merged(44, None, refused).responses] == ["7"]
    same, none = split(44, req((4, "2")), 2)
    assert none == [] and same.resources[0].resource_name == "2"
