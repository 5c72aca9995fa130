"""ListConfigResources (74) as Kafka 4.3 answers it (checked against the reference broker:
v0 lists only client-metrics resources, v1 brokers/broker loggers/topics, unknown type
-> UNSUPPORTED_VERSION). kafka-python's admin list_config_resources() failed with
IncompatibleBrokerVersion: odradek did not implement the API."""

import pytest

from fake_services import services
from odradek.api_handlers import REGISTRY, list_config_resources
from odradek.api_handlers.context import RequestContext
from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.wire.messages.list_config_resources_request import ListConfigResourcesRequest


class FakeBroker:
    def __init__(self, controller):
        self.controller = controller
        self.node_id = 1
        self.services = services(controller=controller)


@pytest.fixture
def broker(tmp_path):
    c = Controller(str(tmp_path / "meta"), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    c.create_topics([CreateTopicSpec("t", 2)], False, 0)
    yield FakeBroker(c)
    c.close()


def call(mod, broker, request, version):
    req = type(request).decode(request.encode(version), version)
    ctx = RequestContext(api_key=mod.API_KEY, api_version=version, correlation_id=1, client_id="t", now_ms=5,
                         services=broker.services)
    resp = mod.handle(ctx, req)
    return type(resp).decode(resp.encode(version), version)


def listed(broker, v, types):
    r = call(list_config_resources, broker, ListConfigResourcesRequest(resource_types=types), v)
    return r.error_code, sorted((c.resource_type, c.resource_name) for c in r.config_resources)


def test_registered_as_kafka():
    assert (REGISTRY[74].MIN_VERSION, REGISTRY[74].MAX_VERSION) == (0, 1)


def test_v1_lists_brokers_loggers_and_topics(broker):
    broker.controller.create_topics([CreateTopicSpec("u", 1)], False, 0)
    assert listed(broker, 1, []) == (0, [(2, "t"), (2, "u"), (4, "1"), (8, "1")])
    assert listed(broker, 1, [4]) == (0, [(4, "1")])
    assert listed(broker, 1, [2]) == (0, [(2, "t"), (2, "u")])
    assert listed(broker, 1, [16]) == (0, [])
    assert listed(broker, 1, [32]) == (0, [])


def test_unknown_type_is_unsupported_version(broker):
    assert listed(broker, 1, [1]) == (35, [])
    assert listed(broker, 1, [2, 99]) == (35, [])


def test_v0_is_client_metrics_only(broker):
    assert listed(broker, 0, []) == (0, [])


def test_v1_lists_the_groups_with_configs(broker):
    """As Kafka 4.3 (kafka-configs --describe of a group that has configs and no members lists them there
    and said it did not exist here): a group with a GROUP config, whether or not it exists, until its
    configs are deleted."""
    from odradek.controller.controller import OP_DELETE, OP_SET

    c = broker.controller
    assert c.incremental_alter_configs([(32, "g1", [("consumer.heartbeat.interval.ms", OP_SET, "6000")])],
                                       False, 1)[0].error_code == 0
    assert listed(broker, 1, [32]) == (0, [(32, "g1")])
    assert listed(broker, 1, []) == (0, [(2, "t"), (4, "1"), (8, "1"), (32, "g1")])
    c.incremental_alter_configs([(32, "g1", [("consumer.heartbeat.interval.ms", OP_DELETE, None)])], False, 1)
    assert listed(broker, 1, [32]) == (0, [])
