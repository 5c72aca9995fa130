"""request_percentage and controller_mutation_rate enforced as Kafka 4.3 enforces them (they were
stored and never applied). Checked side by side against Kafka 4.3 with the same raw requests:
a client over controller_mutation_rate has its next CreateTopics v7 / DeleteTopics v6 /
CreatePartitions v3 topics refused with THROTTLING_QUOTA_EXCEEDED (no message) and the time its
token bucket needs in throttle_time_ms, while older versions are admitted and throttled; a client
over request_percentage gets throttle_time_ms (at most one window); clients without a quota are
never throttled; past an address's connection_creation_rate a new connection is not served and
is closed after the throttle time (Kafka 4.3 with the same loop: 10 served, then the next closed
about a second later). In a cluster the broker forwards the admin write in an Envelope, so the active
controller decides it as the client's (its client id's quota), as Kafka's ForwardingManager."""

from __future__ import annotations

import pytest

from cluster import running_odradek
from harness import BrokerProcess, RawClient
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import create_partitions_request as cp
from odradek.wire.messages import create_topics_request as ct
from odradek.wire.messages import delete_topics_request as dt
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.alter_client_quotas_request import (AlterClientQuotasRequest, EntityData, EntryData,
                                                               OpData)
from odradek.wire.messages.metadata_request import MetadataRequest

THROTTLED = ErrorCode.THROTTLING_QUOTA_EXCEEDED


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    b = BrokerProcess(str(tmp_path_factory.mktemp("request-quotas")), {})
    b.start()
    try:
        yield b
    finally:
        b.stop()


def call(bootstrap: str, client_id: str, request, version: int):
    """One request on a connection of its own (a throttled connection stays muted meanwhile)."""
    raw = RawClient(bootstrap, timeout=30)
    try:
        corr = raw.send(request, version, client_id=client_id)
        resp = raw.recv(type(request).API_KEY, version)
        assert resp.correlation_id == corr
        return resp.body
    finally:
        raw.close()


def set_quota(bootstrap: str, client_id: str, key: str, value: float) -> None:
    resp = call(bootstrap, "quota-admin", AlterClientQuotasRequest(entries=[EntryData(
        entity=[EntityData(entity_type="client-id", entity_name=client_id)],
        ops=[OpData(key=key, value=value, remove=False)])], validate_only=False), 1)
    assert [e.error_code for e in resp.entries] == [0]


def create(bootstrap: str, client_id: str, names: list[str], partitions: int, version: int = 7):
    resp = call(bootstrap, client_id, ct.CreateTopicsRequest(topics=[
        ct.CreatableTopic(name=n, num_partitions=partitions, replication_factor=1) for n in names],
        timeout_ms=30000), version)
    return resp.throttle_time_ms, [(t.name, t.error_code, t.error_message) for t in resp.topics]


def test_create_topics_past_the_controller_mutation_rate(broker):
    bs = broker.bootstrap
    set_quota(bs, "lim-create", "controller_mutation_rate", 1.0)  # a bucket of 11 partitions, 1 a second
    assert create(bs, "lim-create", ["cq-a"], 20) == (0, [("cq-a", 0, None)])  # a full bucket takes it: 11 - 20
    throttle, topics = create(bs, "lim-create", ["cq-b", "cq-c"], 1)
    assert topics == [("cq-b", THROTTLED, None), ("cq-c", THROTTLED, None)]
    assert 7_000 < throttle <= 9_000  # ~9 s until the bucket is back at zero (Kafka 4.3: 8,821 ms)
    throttle, topics = create(bs, "lim-create", ["cq-d"], 1, version=5)  # before v6: admitted, throttled
    assert topics == [("cq-d", 0, None)] and throttle > 7_000
    assert create(bs, "other-client", ["cq-e"], 30) == (0, [("cq-e", 0, None)])


def test_delete_topics_and_create_partitions_under_the_quota(broker):
    bs = broker.bootstrap
    assert create(bs, "free-admin", ["dq-a"], 30)[1] == [("dq-a", 0, None)]
    set_quota(bs, "lim-delete", "controller_mutation_rate", 1.0)
    resp = call(bs, "lim-delete", cp.CreatePartitionsRequest(topics=[cp.CreatePartitionsTopic(
        name="dq-a", count=45, assignments=None)], timeout_ms=30000, validate_only=False), 3)
    assert [(r.name, r.error_code) for r in resp.results] == [("dq-a", 0)] and resp.throttle_time_ms == 0
    resp = call(bs, "lim-delete", dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(name="dq-a")],
                                                         timeout_ms=30000), 6)
    assert [(r.name, r.error_code, r.error_message) for r in resp.responses] == [("dq-a", THROTTLED, None)]
    assert resp.throttle_time_ms > 0
    resp = call(bs, "lim-delete", dt.DeleteTopicsRequest(topic_names=["dq-a"], timeout_ms=30000), 4)
    assert [(r.name, r.error_code) for r in resp.responses] == [("dq-a", 0)]  # v4: permissive
    assert resp.throttle_time_ms > 40_000  # 45 partitions past an empty bucket, 1 a second
    meta = call(bs, "free-admin", MetadataRequest(topics=None, allow_auto_topic_creation=False), 12)
    assert "dq-a" not in {t.name for t in meta.topics}


def test_request_percentage_throttles_the_busy_client_only(broker):
    bs = broker.bootstrap
    set_quota(bs, "busy", "request_percentage", 0.01)  # a hundredth of a percent of one thread
    raw = RawClient(bs, timeout=30)
    throttles = []
    for _ in range(500):
        corr = raw.send(MetadataRequest(topics=None, allow_auto_topic_creation=False), 12, client_id="busy")
        resp = raw.recv(3, 12)
        assert resp.correlation_id == corr
        throttles.append(resp.body.throttle_time_ms)
        if resp.body.throttle_time_ms:
            break
    raw.close()
    assert throttles[-1] > 0 and max(throttles) <= 1000  # the request quota throttles one window at most
    raw = RawClient(bs, timeout=30)
    for _ in range(200):
        corr = raw.send(MetadataRequest(topics=None, allow_auto_topic_creation=False), 12, client_id="idle")
        resp = raw.recv(3, 12)
        assert resp.body.throttle_time_ms == 0
    raw.close()


def test_connection_creation_rate_of_an_address(broker):
    """Last of the single-node checks: the default ip entity bounds this test's own connections."""
    bs = broker.bootstrap
    admin = RawClient(bs, timeout=30)

    def set_rate(remove: bool) -> None:
        resp = admin.call(AlterClientQuotasRequest(entries=[EntryData(
            entity=[EntityData(entity_type="ip", entity_name=None)],
            ops=[OpData(key="connection_creation_rate", value=1.0, remove=remove)])], validate_only=False), 1)
        assert [e.error_code for e in resp.entries] == [0]

    set_rate(False)
    served = []
    try:
        for _ in range(11):
            raw = RawClient(bs, timeout=30)
            try:
                raw.send(ApiVersionsRequest(client_software_name="rate", client_software_version="1"), 3)
                served.append(raw.recv(18, 3).body.error_code == 0)
            except ConnectionError:
                served.append(False)  # closed unanswered once its throttle time passed
            finally:
                raw.close()
    finally:
        set_rate(True)
    # a 1/s rate over at least 10 one-second windows: the first 10 (the admin connection was made
    # before the quota) are served, the 11th is not (later ones may be again, by less than a
    # millisecond of throttle once a second has passed: Kafka's rounding, on both)
    assert served == [True] * 10 + [False]
    raw = RawClient(bs, timeout=30)  # the quota removed: served again
    raw.send(ApiVersionsRequest(client_software_name="rate", client_software_version="1"), 3)
    assert raw.recv(18, 3).body.error_code == 0
    raw.close()


def test_a_cluster_controller_decides_the_quota_of_the_forwarding_client(tmp_path_factory):
    with running_odradek(tmp_path_factory.mktemp("cluster-quotas"), 1, 1) as c:
        bs = c.bootstrap
        set_quota(bs, "lim-cluster", "controller_mutation_rate", 1.0)
        assert create(bs, "lim-cluster", ["kq-a"], 20) == (0, [("kq-a", 0, None)])
        throttle, topics = create(bs, "lim-cluster", ["kq-b"], 1)
        assert topics == [("kq-b", THROTTLED, None)] and throttle > 0
        assert create(bs, "other-cluster-client", ["kq-c"], 20) == (0, [("kq-c", 0, None)])
