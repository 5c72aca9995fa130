"""Requests whose bodies carry garbage, answered as Kafka 4.3 answers the same bytes (issue 27
item 8; each case was run against a real Kafka 4.3 broker: this module passes with --bootstrap).
Kafka reads a body field by field and never checks that the frame ends there: bytes after a
complete body are ignored and the request is answered, so an ApiVersions v0-2 or ListGroups
v0-2 (empty bodies) with any bytes at all is answered. A body that does not decode (a flexible
version's tagged fields or compact fields made of garbage, or missing) closes the connection."""

from __future__ import annotations

import random
import struct

import pytest

from harness import RawClient

from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.list_config_resources_request import ListConfigResourcesRequest
from odradek.wire.messages.list_groups_request import ListGroupsRequest

TRAILING = b"\x01\x02\x03garbage"
GARBAGE = bytes(random.Random(7).randrange(256) for _ in range(40))
CORR = 41


def _header(key: int, version: int, flexible: bool) -> bytes:
    return struct.pack(">hhih", key, version, CORR, 3) + b"cid" + (b"\x00" if flexible else b"")


def _valid(request, version: int) -> bytes:
    return encode_request(request, version, CORR, client_id="cid")[4:]


def _api_versions(v: int) -> ApiVersionsRequest:
    return ApiVersionsRequest(client_software_name="x", client_software_version="1") if v >= 3 else ApiVersionsRequest()


CASES = (
    [(f"list-groups-v{v}-trailing", 16, v, _valid(ListGroupsRequest(), v) + TRAILING, True) for v in range(6)]
    + [(f"list-groups-v{v}-garbage", 16, v, _header(16, v, v >= 3) + GARBAGE, v < 3) for v in range(6)]
    + [(f"api-versions-v{v}-trailing", 18, v, _valid(_api_versions(v), v) + TRAILING, True) for v in range(5)]
    + [(f"api-versions-v{v}-garbage", 18, v, _header(18, v, v >= 3) + GARBAGE, v < 3) for v in range(5)]
    + [(f"list-config-resources-v{v}-trailing", 74, v, _valid(ListConfigResourcesRequest(), v) + TRAILING, True)
       for v in (0, 1)]
    + [(f"list-config-resources-v{v}-garbage", 74, v, _header(74, v, True) + GARBAGE, False) for v in (0, 1)]
    + [(f"list-config-resources-v{v}-no-body", 74, v, _header(74, v, True), False) for v in (0, 1)]
)


@pytest.mark.parametrize("key, version, payload, answered", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_garbage_body_as_kafka(bootstrap, key, version, payload, answered):
    c = RawClient(bootstrap)
    try:
        c.send_raw(struct.pack(">i", len(payload)) + payload)
        if not answered:
            assert c.is_closed_by_peer()
            return
        resp = decode_response(c.recv_frame(), key, version)
        assert resp.correlation_id == CORR and resp.body.error_code == 0
    finally:
        c.close()
