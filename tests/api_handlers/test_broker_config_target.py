"""What a cluster broker refuses of an (Incremental)AlterConfigs itself (Kafka's
ConfigAdminManager.preprocess): a broker resource naming another broker, and a resource named more
than once (each of them); it forwards the rest and answers in the request's order."""

from odradek.api_handlers.broker_config_target import merged, split
from odradek.wire.messages.incremental_alter_configs_request import AlterConfigsResource, IncrementalAlterConfigsRequest
from odradek.wire.messages.incremental_alter_configs_response import (AlterConfigsResourceResponse,
                                                                       IncrementalAlterConfigsResponse)


def req(*names):
    return IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(resource_type=t, resource_name=n, configs=[])
                                                     for t, n in names], validate_only=True)


def test_only_misdirected_broker_resources_are_answered_here():
    asked = req((4, ""), (4, "2"), (4, "3"), (2, "topic"), (4, "b"))
    forwarded, refused = split(44, asked, 2)
    assert [(r.resource_type, r.resource_name) for r in forwarded.resources] == [(4, ""), (4, "2"), (2, "topic")]
    assert forwarded.validate_only
    assert [(i, r.error_code, r.resource_name, r.error_message) for i, r in refused.items()] == [
        (2, 42, "3", "Unexpected broker id, expected 2, but received 3"),
        (4, 42, "b", "Node id must be an integer, but it is: b")]
    # the controller's answer in its own order; the client's in the request's
    answer = IncrementalAlterConfigsResponse(responses=[
        AlterConfigsResourceResponse(resource_type=2, resource_name="topic", error_code=3),
        AlterConfigsResourceResponse(resource_type=4, resource_name="2"),
        AlterConfigsResourceResponse(resource_type=4, resource_name="")])
    assert [(r.resource_name, r.error_code) for r in merged(44, asked, answer, refused).responses] == [
        ("", 0), ("2", 0), ("3", 42), ("topic", 3), ("b", 42)]


def test_a_resource_named_twice_is_refused_each_time_and_not_forwarded():
    asked = req((2, "t"), (4, ""), (2, "t"), (4, "3"), (4, "3"), (2, "u"))
    forwarded, refused = split(44, asked, 2)
    assert [r.resource_name for r in forwarded.resources] == ["", "u"]
    assert {i: r.error_message for i, r in refused.items()} == {i: "Each resource must appear at most once."
                                                                for i in (0, 2, 3, 4)}
    answer = IncrementalAlterConfigsResponse(responses=[AlterConfigsResourceResponse(resource_type=4, resource_name="")])
    # (a resource the controller did not answer: UNKNOWN_SERVER_ERROR, as Kafka's broker)
    assert [(r.resource_name, r.error_code) for r in merged(44, asked, answer, refused).responses] == [
        ("t", 42), ("", 0), ("t", 42), ("3", 42), ("3", 42), ("u", -1)]


def test_nothing_left_to_forward():
    asked = req((4, "7"))
    forwarded, refused = split(44, asked, 2)
    assert forwarded is None and [r.resource_name for r in merged(44, asked, None, refused).responses] == ["7"]
    same, none = split(44, req((4, "2")), 2)
    assert none == {} and same.resources[0].resource_name == "2"


def test_keys_named_twice_and_missing_values_are_refused_before_any_logger_is_changed():
    """ConfigAdminManager.preprocess, in its order, for every resource type: a resource named twice,
    then a key named twice, then null values (all of them named; DELETE takes none; legacy AlterConfigs
    takes none for any key); a BROKER_LOGGER resource that passes is carried out here (``logger``)."""
    from odradek.wire.messages.incremental_alter_configs_request import AlterableConfig

    def res(t, n, *configs):
        return AlterConfigsResource(resource_type=t, resource_name=n, configs=[
            AlterableConfig(name=k, config_operation=op, value=v) for k, op, v in configs])

    carried_out = []
    asked = IncrementalAlterConfigsRequest(resources=[
        res(8, "2", ("root", 0, "INFO"), ("root", 1, None)),
        res(8, "+2", ("root", 0, None), ("a", 2, None), ("b", 1, None)),
        res(2, "t", ("retention.ms", 0, None)),
        res(8, "02", ("root", 0, "INFO")),
        res(4, "02", ("x", 0, "1")), res(4, " 2", ("x", 0, "1")), res(4, "2147483648", ("x", 0, "1"))])
    forwarded, answered = split(44, asked, 2, lambda r: carried_out.append(r.resource_name) or (0, None))
    assert [(i, r.error_code, r.error_message) for i, r in answered.items()] == [
        (0, 42, "Error due to duplicate config keys"),
        (1, 42, "Null value not supported for : root, a"),
        (2, 42, "Null value not supported for : retention.ms"),
        (3, 0, None),
        (5, 42, "Node id must be an integer, but it is:  2"),
        (6, 42, "Node id must be an integer, but it is: 2147483648")]
    assert carried_out == ["02"] and [r.resource_name for r in forwarded.resources] == ["02"]


def test_java_int():
    from odradek.java_numbers import parse_int

    assert [parse_int(s) for s in ("1", "+1", "-1", "007", "-2147483648", "2147483647")] == [
        1, 1, -1, 7, -2147483648, 2147483647]
    assert [parse_int(s) for s in (" 1", "1 ", "1_0", "", "+", "--1", "1.0", "2147483648", "\u0661")] == [None] * 9
