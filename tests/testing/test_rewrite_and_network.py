"""odradek/testing/rewrite.py (a fault's response patch), network.py (cut / slow peers) and their
control API routes."""

import json

import pytest

from odradek.testing.clock import VirtualClock
from odradek.testing.control_api import handle
from odradek.testing.faults import FaultError, FaultTable, parse
from odradek.testing.network import Network, peer_of
from odradek.wire.messages.fetch_request import FetchRequest, ReplicaState
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from odradek.wire.messages.produce_response import (PartitionProduceResponse, ProduceResponse,
                                                    TopicProduceResponse)


def produce_response():
    return ProduceResponse(responses=[TopicProduceResponse(name="t", partition_responses=[
        PartitionProduceResponse(index=0, base_offset=5), PartitionProduceResponse(index=1, base_offset=7)])])


def test_a_patch_sets_fields_in_every_element_of_an_array():
    t = FaultTable()
    t.add(parse({"api": "Produce", "rewrite": {"throttle_time_ms": 9,
                                              "responses": {"partition_responses": {"error_code": 6}}}}))
    req = ProduceRequest(topic_data=[TopicProduceData(name="t", partition_data=[PartitionProduceData(index=0)])])
    fault = t.match(0, 9, "c", req, lambda _: None)
    resp = fault.rewrite(produce_response())
    assert resp.throttle_time_ms == 9
    assert [(p.index, p.error_code, p.base_offset) for p in resp.responses[0].partition_responses] == [
        (0, 6, 5), (1, 6, 7)]
    assert t.rules()[0]["rewrite"] == {"throttle_time_ms": 9, "responses": {"partition_responses": {"error_code": 6}}}


@pytest.mark.parametrize("patch, why", [
    ({"nope": 1}, "has no field 'nope'"),
    ({"responses": {"partition_responses": {"error_code": "x"}}}, "responses.partition_responses.error_code is an int16"),
    ({"responses": {"partition_responses": {"error_code": 1 << 15}}}, "is an int16"),
    ({"responses": 3}, "is a non-empty JSON object"),
    ({"responses": {"topic_id": "abc"}}, "cannot be set from JSON"),
    ({}, "non-empty"),
])
def test_a_bad_patch_is_refused_when_injected(patch, why):
    with pytest.raises(FaultError, match="bad rewrite") as e:
        parse({"api": "Produce", "rewrite": patch})
    assert why in str(e.value)


def test_a_callable_rewrite_only_in_process_and_not_with_an_action():
    with pytest.raises(FaultError, match="in this process"):
        parse({"api": "Produce", "rewrite": lambda r: r})
    rule = parse({"api": "Produce", "rewrite": lambda r: None}, in_process=True)
    t = FaultTable()
    t.add(rule)
    resp = produce_response()
    assert t.match(0, 9, "c", ProduceRequest(), lambda _: None).rewrite(resp) is resp  # None: changed in place
    with pytest.raises(FaultError, match="not both"):
        parse({"api": "Produce", "rewrite": {"throttle_time_ms": 1}, "action": "drop_response"})


def test_peers_are_known_by_client_id_and_fetch_replica_id():
    assert peer_of("broker-5-fetcher-0", 1, FetchRequest()) == 5
    assert peer_of("whatever", 1, FetchRequest(replica_state=ReplicaState(replica_id=6))) == 6
    assert peer_of("x", 1, FetchRequest(replica_id=4)) == 4
    assert peer_of("odradek-12", 63, None) == 12 and peer_of("raft-3", 52, None) == 3
    assert peer_of("rdkafka", 0, None) is None and peer_of(None, 3, None) is None
    assert peer_of("broker-x-1", 3, None) is None


def test_network_cut_slow_clients_heal():
    n = Network()
    assert n.verdict("broker-5-fetcher-0", 1, FetchRequest()) is None
    n.update({"cut": [5], "slow": {"6": 700}})
    assert n.verdict("broker-5-txn-verifier", 24, None).close
    assert n.verdict("broker-6-fetcher-0", 1, FetchRequest()).delay_ms == 700
    assert n.verdict("app", 0, None) is None
    n.update({"clients": True, "slow": {"6": 0}})
    assert n.verdict("app", 0, None).close and n.verdict("broker-6-fetcher-0", 1, FetchRequest()) is None
    assert n.describe() == {"cut": [5], "clients_cut": True, "slow": {}}
    n.update({"heal": True, "cut": [7]})
    assert n.describe() == {"cut": [7], "clients_cut": False, "slow": {}}


class FakeNode:
    def __init__(self):
        self.network = Network()
        self.paused = False
        self.dropped = []

    def pause(self):
        self.paused = True

    def resume(self):
        self.paused = False

    def drop_connections(self, client_id):
        self.dropped.append(client_id)
        return 2


def call(method, path, body=None, node=None, faults=None):
    return handle(method, path, b"" if body is None else json.dumps(body).encode(),
                  faults if faults is not None else FaultTable(), VirtualClock(1000), node)


def test_node_routes():
    node = FakeNode()
    assert call("POST", "/control/connections/drop", {"client_id": "c1"}, node) == (200, {"dropped": 2})
    assert node.dropped == ["c1"]
    assert call("POST", "/control/connections/drop", {"client": "c1"}, node)[0] == 400
    assert call("POST", "/control/pause", node=node) == (200, {"paused": True})
    assert call("GET", "/control/pause", node=node) == (200, {"paused": True})
    assert call("POST", "/control/resume", node=node) == (200, {"paused": False})
    assert call("POST", "/control/network", {"cut": [4, 5]}, node)[1]["cut"] == [4, 5]
    status, answer = call("POST", "/control/network", {"cut": ["4"]}, node)
    assert status == 400 and "list of node ids" in answer["error"]
    assert call("POST", "/control/network", {"bogus": 1}, node)[0] == 400
    assert call("DELETE", "/control/network", node=node)[1]["cut"] == []
    assert call("PUT", "/control/network", node=node)[0] == 405
    assert call("POST", "/control/pause", node=None)[0] == 404
    status, answer = handle("GET", "/control/faults", b"", None, VirtualClock(0), node)
    assert status == 404 and "controller-only" in answer["error"]
