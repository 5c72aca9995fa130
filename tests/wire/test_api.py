"""Request/response framing: headers v1/v2, ApiVersions header v0, typed errors."""

import struct

import pytest

from odradek.wire import api
from odradek.wire.exceptions import TruncatedError, UnsupportedApiError, WireError
from odradek.wire.messages import load

ApiVersionsRequest = load("ApiVersionsRequest")
ApiVersionsResponse = load("ApiVersionsResponse")
MetadataRequest = load("MetadataRequest")
MetadataResponse = load("MetadataResponse")


def _body(frame: bytes) -> bytes:
    (n,) = struct.unpack_from(">i", frame)
    assert n == len(frame) - 4
    return frame[4:]


def test_request_roundtrip_v1_and_v2_headers():
    from odradek.wire.messages.metadata_request import MetadataRequestTopic

    req = MetadataRequest(topics=[MetadataRequestTopic(name="t1")], allow_auto_topic_creation=True)
    for version in (4, 9, 12):
        raw = api.encode_request(req, version, correlation_id=77, client_id="cli")
        header, body = api.decode_request(_body(raw))
        assert (header.request_api_key, header.request_api_version, header.correlation_id) == (3, version, 77)
        assert header.client_id == "cli"
        assert body.topics[0].name == "t1"


def test_client_id_is_int16_string_even_in_header_v2():
    raw = api.encode_request(ApiVersionsRequest(client_software_name="x", client_software_version="1"), 3, 5, "abc")
    body = _body(raw)
    # api key, version, correlation id, then INT16 length 3 + "abc", then an empty tag section
    assert body[:8] == struct.pack(">hhi", 18, 3, 5)
    assert body[8:13] == b"\x00\x03abc"
    assert body[13] == 0


def test_api_versions_response_uses_header_v0():
    resp = ApiVersionsResponse(error_code=0)
    raw = api.encode_response(18, 3, 9, resp)
    body = _body(raw)
    assert body[:4] == struct.pack(">i", 9)
    back = api.decode_response(body, 18, 3)
    assert back.correlation_id == 9 and back.body == resp


def test_flexible_response_uses_header_v1():
    raw = api.encode_response(3, 12, 9, MetadataResponse())
    body = _body(raw)
    assert body[:5] == struct.pack(">i", 9) + b"\x00"


def test_unknown_api_key_carries_correlation_id():
    frame = struct.pack(">hhi", 999, 0, 42) + b"\x00\x00"
    with pytest.raises(api.RequestDecodeError) as e:
        api.decode_request(frame)
    assert e.value.correlation_id == 42
    assert isinstance(e.value.cause, UnsupportedApiError)


def test_unsupported_version_carries_correlation_id():
    frame = struct.pack(">hhi", 18, 99, 43) + b"\x00\x00"
    with pytest.raises(api.RequestDecodeError) as e:
        api.decode_request(frame)
    assert e.value.correlation_id == 43 and e.value.api_version == 99


def test_truncated_header_is_typed():
    with pytest.raises(TruncatedError):
        api.decode_request(b"\x00\x12")


def test_every_truncation_of_a_request_is_typed():
    from odradek.wire.messages.metadata_request import MetadataRequestTopic

    req = MetadataRequest(topics=[MetadataRequestTopic(name="topic-a"), MetadataRequestTopic(name="b")])
    for version in (1, 9, 12):
        body = _body(api.encode_request(req, version, 1, "c"))
        for cut in range(len(body)):
            try:
                api.decode_request(body[:cut])
            except WireError:
                pass


def test_garbage_bodies_never_raise_untyped(tmp_path):
    import random

    rnd = random.Random(7)
    for key in api.messages.REQUEST_BY_KEY:
        cls = api.request_class(key)
        lo, hi = cls.VALID_VERSIONS
        if lo < 0:
            continue
        for version in range(lo, hi + 1):
            for _ in range(5):
                junk = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 40)))
                frame = struct.pack(">hhi", key, version, 1) + junk
                try:
                    api.decode_request(frame)
                except WireError:
                    pass
