"""A handler that raises gets the API's error response (UNKNOWN_SERVER_ERROR, mirroring the
request) and the connection stays usable, as Kafka's RequestHandlerHelper.handleError does;
only an acks=0 Produce, which has no response, closes the connection."""

from __future__ import annotations

import socket

from test_server import Client, running  # noqa: F401  (fixture)

from odradek.api_handlers.context import Delayed
from odradek.wire.api import encode_request
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.list_groups_request import ListGroupsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

USE = int(ErrorCode.UNKNOWN_SERVER_ERROR)


def _boom(ctx, request):
    raise RuntimeError("handler bug")


def test_handler_exception_answers_unknown_server_error_and_keeps_connection(running, monkeypatch):
    mod = running.server.registry[3]
    monkeypatch.setattr(mod, "handle", _boom)
    c = Client(running.port)
    resp = c.call(MetadataRequest(topics=[MetadataRequestTopic(name="t1"), MetadataRequestTopic(name="t2")],
                                  allow_auto_topic_creation=False), 12)
    assert [(t.name, t.error_code, t.partitions) for t in resp.topics] == [("t1", USE, []), ("t2", USE, [])]
    # same connection, next request answered normally
    assert c.call(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3).error_code == 0
    monkeypatch.undo()
    resp = c.call(MetadataRequest(topics=[MetadataRequestTopic(name="t1")], allow_auto_topic_creation=False), 12)
    assert resp.topics[0].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_delayed_that_raises_answers_unknown_server_error(running, monkeypatch):
    def delayed(ctx, request):
        def expire(now_ms):
            raise RuntimeError("completion bug")
        return Delayed(try_complete=lambda now_ms: None, on_expire=expire, deadline_ms=ctx.now_ms, watch=[])

    monkeypatch.setattr(running.server.registry[16], "handle", delayed)
    c = Client(running.port)
    resp = c.call(ListGroupsRequest(), 4)
    assert resp.error_code == USE and resp.groups == []
    assert c.call(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3).error_code == 0


def test_acks_0_produce_that_raises_closes_connection(running, monkeypatch):
    monkeypatch.setattr(running.server.registry[0], "handle", _boom)
    c = Client(running.port)
    req = ProduceRequest(acks=0, timeout_ms=1000, topic_data=[TopicProduceData(
        name="t", partition_data=[PartitionProduceData(index=0, records=b"")])])
    c.sock.sendall(encode_request(req, 9, 1))
    c.sock.settimeout(5)
    try:
        assert c.sock.recv(1) == b""
    except ConnectionResetError:
        pass
    except socket.timeout:
        raise AssertionError("connection left open")
