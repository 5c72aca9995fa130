"""Envelope (API 58) as Kafka's controller unwraps and answers it: the forwarded request parsed from its
header and body, the principal from DefaultKafkaPrincipalBuilder's serialization, the answer the inner
response with its header; envelope-level errors for what cannot be unwrapped."""

import struct

from odradek.broker.envelope import unwrap, wrap
from odradek.wire.api import decode_response, encode_request
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.create_topics_response import CreatableTopicResult, CreateTopicsResponse
from odradek.wire.messages.default_principal_data import DefaultPrincipalData
from odradek.wire.messages.envelope_request import EnvelopeRequest
from odradek.wire.messages.fetch_request import FetchRequest

CREATE_TOPICS = 19
ANONYMOUS = struct.pack(">h", 0) + DefaultPrincipalData(type="User", name="ANONYMOUS").encode(0)


def envelope(inner: bytes, principal: bytes = ANONYMOUS, host: bytes = bytes([127, 0, 0, 1])) -> EnvelopeRequest:
    return EnvelopeRequest(request_data=inner, request_principal=principal, client_host_address=host)


def create_topics(version: int = 7, corr: int = 41) -> bytes:
    req = CreateTopicsRequest(topics=[CreatableTopic(name="t", num_partitions=1, replication_factor=1,
                                                     assignments=[], configs=[])], timeout_ms=1000)
    return encode_request(req, version, corr, client_id="adminclient-1")[4:]  # as forwarded: no size prefix


def test_the_forwarded_request_comes_out_with_its_header_principal_and_client_address():
    u = unwrap(envelope(create_topics(), host=bytes([10, 1, 2, 3])), {CREATE_TOPICS})
    assert (u.header.request_api_key, u.header.request_api_version, u.header.correlation_id) == (CREATE_TOPICS, 7, 41)
    assert u.header.client_id == "adminclient-1" and u.body.topics[0].name == "t"
    assert (u.principal.type, u.principal.name) == ("User", "ANONYMOUS") and u.client_host == "10.1.2.3"


def test_the_answer_is_the_inner_response_with_its_header():
    u = unwrap(envelope(create_topics()), {CREATE_TOPICS})
    resp = CreateTopicsResponse(topics=[CreatableTopicResult(name="t", error_code=ErrorCode.TOPIC_ALREADY_EXISTS)])
    out = wrap(u.header, resp)
    assert out.error_code == 0
    decoded = decode_response(out.response_data, CREATE_TOPICS, 7)
    assert decoded.correlation_id == 41 and decoded.body.topics[0].error_code == ErrorCode.TOPIC_ALREADY_EXISTS


def test_what_cannot_be_unwrapped_gets_the_envelopes_error():
    bad_principal = ErrorCode.PRINCIPAL_DESERIALIZATION_FAILURE
    assert unwrap(envelope(create_topics(), principal=b"\x00"), {CREATE_TOPICS}) == bad_principal
    assert unwrap(envelope(create_topics(), principal=struct.pack(">h", 9) + ANONYMOUS[2:]),
                  {CREATE_TOPICS}) == bad_principal
    assert unwrap(envelope(b"\x00\x13\x00"), {CREATE_TOPICS}) == ErrorCode.INVALID_REQUEST  # truncated header
    fetch = encode_request(FetchRequest(), 12, 1)[4:]
    assert unwrap(envelope(fetch), {CREATE_TOPICS}) == ErrorCode.INVALID_REQUEST  # not one a broker forwards
    assert unwrap(envelope(create_topics(), host=b"\x01\x02"), {CREATE_TOPICS}) == ErrorCode.INVALID_REQUEST


def test_a_sealed_request_unwraps_as_the_client_sent_it_and_its_answer_opens():
    from dataclasses import dataclass

    from odradek.broker.envelope import opened, seal
    from odradek.wire.messages.envelope_response import EnvelopeResponse

    @dataclass
    class Ctx:  # the fields of a handler's RequestContext that a broker seals
        api_key: int = CREATE_TOPICS
        api_version: int = 7
        correlation_id: int = 9
        client_id: str = "admin-7"
        principal: str = "User:alice"
        client_host: str = "10.0.0.5"

    ctx = Ctx()
    req = CreateTopicsRequest(topics=[CreatableTopic(name="t", num_partitions=3, replication_factor=1,
                                                     assignments=[], configs=[])], timeout_ms=1000)
    u = unwrap(seal(ctx, req), {CREATE_TOPICS})
    assert (u.header.client_id, u.header.correlation_id, u.body.topics[0].num_partitions) == ("admin-7", 9, 3)
    assert (u.principal.type, u.principal.name, u.client_host) == ("User", "alice", "10.0.0.5")
    answer = CreateTopicsResponse(throttle_time_ms=1234, topics=[CreatableTopicResult(name="t", error_code=89)])
    inner = opened(wrap(u.header, answer), ctx, req)
    assert (inner.throttle_time_ms, inner.topics[0].name, inner.topics[0].error_code) == (1234, "t", 89)
    refused = opened(EnvelopeResponse(error_code=ErrorCode.NOT_CONTROLLER), ctx, req)
    assert [t.error_code for t in refused.topics] == [ErrorCode.NOT_CONTROLLER]
