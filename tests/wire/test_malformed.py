"""Malformed request bodies raise typed odradek errors, never IndexError/struct.error, never hang."""

import struct

import pytest

from odradek.wire import api
from odradek.wire.exceptions import MalformedError, TruncatedError, WireError
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import ProduceRequest


def _hdr(key, version, corr=1, flexible=False):
    h = struct.pack(">hhi", key, version, corr) + b"\x00\x01c"
    return h + (b"\x00" if flexible else b"")


def _cause(frame):
    with pytest.raises(api.RequestDecodeError) as e:
        api.decode_request(frame)
    return e.value.cause


def test_bad_unsigned_varint_is_malformed():
    # Metadata v12 topics: a compact array length that never terminates within 5 bytes
    frame = _hdr(3, 12, flexible=True) + b"\xff\xff\xff\xff\xff\xff\x01"
    assert isinstance(_cause(frame), MalformedError)


def test_negative_string_length_is_malformed():
    # Metadata v4 topics array with one topic whose (non-nullable) name has length -2
    frame = _hdr(3, 4) + struct.pack(">i", 1) + struct.pack(">h", -2) + b"\x01"
    assert isinstance(_cause(frame), MalformedError)


def test_negative_array_length_is_malformed():
    frame = _hdr(0, 3) + struct.pack(">h", -1) + struct.pack(">hi", 1, 1000) + struct.pack(">i", -7)
    assert isinstance(_cause(frame), MalformedError)


def test_huge_array_count_is_truncated_not_allocated():
    frame = _hdr(3, 4) + struct.pack(">i", 2**31 - 1)
    assert isinstance(_cause(frame), TruncatedError)


def test_records_length_beyond_frame_is_truncated():
    frame = _hdr(0, 3) + struct.pack(">h", -1) + struct.pack(">hi", 1, 1000) + struct.pack(">i", 1)
    frame += struct.pack(">h", 1) + b"t" + struct.pack(">i", 1) + struct.pack(">i", 0) + struct.pack(">i", 10_000)
    assert isinstance(_cause(frame), TruncatedError)


def test_invalid_utf8_is_malformed():
    frame = _hdr(3, 4) + struct.pack(">i", 1) + struct.pack(">h", 2) + b"\xff\xfe" + b"\x01"
    assert isinstance(_cause(frame), MalformedError)


def test_repeated_tag_is_malformed():
    body = MetadataRequest(topics=[MetadataRequestTopic(name="a")]).encode(12)
    body = body[:-1] + b"\x02\x05\x00\x05\x00"  # two tagged fields, both tag 5
    frame = _hdr(3, 12, flexible=True) + body
    assert isinstance(_cause(frame), MalformedError)


@pytest.mark.parametrize("version", [3, 9, 11])
def test_every_single_byte_corruption_is_typed(version):
    req = ProduceRequest(acks=-1, timeout_ms=1000)
    raw = api.encode_request(req, version, 5, "cli")[4:]
    for i in range(len(raw)):
        for b in (0x00, 0x7F, 0x80, 0xFF):
            mutated = raw[:i] + bytes([b]) + raw[i + 1:]
            try:
                api.decode_request(mutated)
            except WireError:
                pass
