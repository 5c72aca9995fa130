"""Error responses (Kafka's AbstractRequest.getErrorResponse) for every advertised API
and version: built from a request, encoded and decoded at that version, with the error
code where Kafka puts it — mirroring the request's topics / partitions / groups."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odradek.api_handlers import REGISTRY
from odradek.api_handlers.error_responses import BUILDERS, api_error, error_code_for, error_response
from odradek.coordinator.group_coordinator import CoordinatorError
from odradek.log.errors import OffsetOutOfRangeError, RecordTooLargeError
from odradek.wire.api import request_class
from odradek.wire.errors import ErrorCode
from odradek.wire.exceptions import UnsupportedVersionError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wire"))
from strategies import message  # noqa: E402

USE = -1
ALL = [(k, v) for k in sorted(REGISTRY) for v in range(REGISTRY[k].MIN_VERSION, REGISTRY[k].MAX_VERSION + 1)]


def filled(cls, version, counter=None):
    """A request with every field present at `version`: arrays of two, distinct values."""
    counter = counter if counter is not None else iter(range(1, 1 << 30))
    module = importlib.import_module(cls.__module__)
    kw = {}
    for (attr, t, vlo, vhi, _nlo, _nhi, _tag, _tlo, struct_name) in cls._FIELDS:
        if not vlo <= version <= vhi:
            continue
        is_array = t.startswith("[]")
        et = t[2:] if is_array else t

        def one():
            if struct_name is not None:
                return filled(getattr(module, struct_name), version, counter)
            n = next(counter)
            if et in ("int8",):
                return n % 100 + 1
            if et.startswith("int") or et.startswith("uint"):
                return n
            if et == "bool":
                return True
            if et == "float64":
                return float(n)
            if et == "uuid":
                return n.to_bytes(16, "big")
            if et == "string":
                return f"s{n}"
            return b""  # bytes, records

        kw[attr] = [one(), one()] if is_array else one()
    return cls(**kw)


def get(obj, path):
    """Values at a dotted path; 'x[]' flattens a list."""
    vals = [obj]
    for part in path.split("."):
        flat = part.endswith("[]")
        name = part[:-2] if flat else part
        nxt = []
        for o in vals:
            x = getattr(o, name) if name else o
            if flat:
                nxt.extend(x or ())
            else:
                nxt.append(x)
        vals = nxt
    return vals


# key -> rules (vmin, vmax, kind, response path, request path):
#   "err": every value at the response path is the error code, one per request item
#          (request path None: exactly one value, a top-level error code)
#   "same": the response mirrors the request's values (names, ids, partition indexes)
#   "empty": the response list is empty
R = 32767
EXPECT = {
    83: [(0, R, "err", "results[].partitions[].error_code", "topics[].partitions[]"),
         (0, R, "same", "results[].topic_id", "topics[].topic_id"),
         (0, R, "same", "results[].partitions[].partition", "topics[].partitions[].partition")],
    84: [(0, R, "err", "results[].partitions[].error_code", "topics[].partitions[]"),
         (0, R, "same", "results[].topic_id", "topics[].topic_id"),
         (0, R, "same", "results[].partitions[].partition", "topics[].partitions[].partition")],
    85: [(0, R, "err", "results[].partitions[].error_code", "topics[].partitions[]"),
         (0, R, "same", "results[].topic_id", "topics[].topic_id"),
         (0, R, "same", "results[].partitions[].partition", "topics[].partitions[].partition")],
    86: [(0, R, "err", "results[].partitions[].error_code", "topics[].partitions[]"),
         (0, R, "same", "results[].topic_id", "topics[].topic_id"),
         (0, R, "same", "results[].partitions[].partition", "topics[].partitions[].partition")],
    87: [(0, R, "err", "results[].partitions[].error_code", "topics[].partitions[]"),
         (0, R, "same", "results[].topic_id", "topics[].topic_id"),
         (0, R, "same", "results[].partitions[].partition", "topics[].partitions[].partition")],
    0: [(0, R, "err", "responses[].partition_responses[].error_code", "topic_data[].partition_data[]"),
        (0, R, "same", "responses[].name", "topic_data[].name"),
        (0, R, "same", "responses[].partition_responses[].index", "topic_data[].partition_data[].index")],
    1: [(0, 12, "err", "responses[].partitions[].error_code", "topics[].partitions[]"),
        (0, 12, "same", "responses[].topic", "topics[].topic"),
        (0, 12, "same", "responses[].partitions[].partition_index", "topics[].partitions[].partition"),
        (7, R, "err", "error_code", None),
        (7, R, "same", "session_id", "session_id"),
        (13, R, "empty", "responses", None)],
    2: [(0, R, "err", "topics[].partitions[].error_code", "topics[].partitions[]"),
        (0, R, "same", "topics[].partitions[].partition_index", "topics[].partitions[].partition_index")],
    3: [(0, R, "err", "topics[].error_code", "topics[]"),
        (0, R, "same", "topics[].name", "topics[].name")],
    8: [(0, R, "err", "topics[].partitions[].error_code", "topics[].partitions[]"),
        (0, R, "same", "topics[].partitions[].partition_index", "topics[].partitions[].partition_index")],
    9: [(0, 1, "err", "topics[].partitions[].error_code", "topics[].partition_indexes[]"),
        (2, 7, "err", "error_code", None),
        (8, R, "err", "groups[].error_code", "groups[]"),
        (8, R, "same", "groups[].group_id", "groups[].group_id")],
    10: [(0, 3, "err", "error_code", None),
         (4, R, "err", "coordinators[].error_code", "coordinator_keys[]"),
         (4, R, "same", "coordinators[].key", "coordinator_keys[]")],
    11: [(0, R, "err", "error_code", None)],
    12: [(0, R, "err", "error_code", None)],
    13: [(0, R, "err", "error_code", None)],
    14: [(0, R, "err", "error_code", None)],
    15: [(0, R, "err", "groups[].error_code", "groups[]"),
         (0, R, "same", "groups[].group_id", "groups[]")],
    16: [(0, R, "err", "error_code", None)],
    17: [(0, R, "err", "error_code", None)],
    18: [(0, R, "err", "error_code", None), (0, R, "empty", "api_keys", None)],
    19: [(0, R, "err", "topics[].error_code", "topics[]"), (0, R, "same", "topics[].name", "topics[].name")],
    20: [(0, 5, "err", "responses[].error_code", "topic_names[]"),
         (0, 5, "same", "responses[].name", "topic_names[]"),
         (6, R, "err", "responses[].error_code", "topics[]"),
         (6, R, "same", "responses[].topic_id", "topics[].topic_id")],
    21: [(0, R, "err", "topics[].partitions[].error_code", "topics[].partitions[]")],
    22: [(0, R, "err", "error_code", None)],
    23: [(0, R, "err", "topics[].partitions[].error_code", "topics[].partitions[]"),
         (0, R, "same", "topics[].partitions[].partition", "topics[].partitions[].partition")],
    24: [(0, 3, "err", "results_by_topic_v3_and_below[].results_by_partition[].partition_error_code",
          "v3_and_below_topics[].partitions[]"),
         (4, R, "err", "error_code", None)],
    25: [(0, R, "err", "error_code", None)],
    26: [(0, R, "err", "error_code", None)],
    27: [(0, R, "err", "markers[].topics[].partitions[].error_code", "markers[].topics[].partition_indexes[]")],
    28: [(0, R, "err", "topics[].partitions[].error_code", "topics[].partitions[]")],
    29: [(0, R, "err", "error_code", None)],
    30: [(0, R, "err", "results[].error_code", "creations[]")],
    31: [(0, R, "err", "filter_results[].error_code", "filters[]")],
    32: [(0, R, "err", "results[].error_code", "resources[]"),
         (0, R, "same", "results[].resource_name", "resources[].resource_name")],
    33: [(0, R, "err", "responses[].error_code", "resources[]"),
         (0, R, "same", "responses[].resource_name", "resources[].resource_name")],
    34: [(0, R, "err", "results[].partitions[].error_code", "dirs[].topics[].partitions[]")],
    # before v3 there is no top-level error code: Kafka's answer is just an empty result list
    35: [(3, R, "err", "error_code", None), (0, R, "empty", "results", None)],
    36: [(0, R, "err", "error_code", None)],
    37: [(0, R, "err", "results[].error_code", "topics[]")],
    38: [(0, R, "err", "error_code", None)],
    39: [(0, R, "err", "error_code", None)],
    40: [(0, R, "err", "error_code", None)],
    41: [(0, R, "err", "error_code", None)],
    42: [(0, R, "err", "results[].error_code", "groups_names[]"),
         (0, R, "same", "results[].group_id", "groups_names[]")],
    43: [(0, R, "err", "replica_election_results[].partition_result[].error_code", "topic_partitions[].partitions[]"),
         (1, R, "err", "error_code", None)],
    44: [(0, R, "err", "responses[].error_code", "resources[]")],
    45: [(0, R, "err", "error_code", None),
         (0, R, "err", "responses[].partitions[].error_code", "topics[].partitions[]")],
    46: [(0, R, "err", "error_code", None),
         (0, R, "same", "topics[].partitions[].partition_index", "topics[].partition_indexes[]")],
    47: [(0, R, "err", "error_code", None)],
    48: [(0, R, "err", "error_code", None)],
    49: [(0, R, "err", "entries[].error_code", "entries[]"),
         (0, R, "same", "entries[].entity[].entity_name", "entries[].entity[].entity_name")],
    50: [(0, R, "err", "error_code", None), (0, R, "err", "results[].error_code", "users[]")],
    51: [(0, R, "err", "results[].error_code", "deletions[]|upsertions[]")],
    55: [(0, R, "err", "error_code", None)],
    57: [(0, R, "err", "error_code", None)],
    60: [(0, R, "err", "error_code", None)],
    61: [(0, R, "err", "topics[].partitions[].error_code", "topics[].partition_indexes[]")],
    64: [(0, R, "err", "error_code", None)],
    65: [(0, R, "err", "transaction_states[].error_code", "transactional_ids[]"),
         (0, R, "same", "transaction_states[].transactional_id", "transactional_ids[]")],
    66: [(0, R, "err", "error_code", None)],
    68: [(0, R, "err", "error_code", None)],
    69: [(0, R, "err", "groups[].error_code", "group_ids[]"), (0, R, "same", "groups[].group_id", "group_ids[]")],
    74: [(0, R, "err", "error_code", None)],
    75: [(0, R, "err", "topics[].error_code", "topics[]"), (0, R, "same", "topics[].name", "topics[].name")],
    76: [(0, R, "err", "error_code", None)],
    77: [(0, R, "err", "groups[].error_code", "group_ids[]"), (0, R, "same", "groups[].group_id", "group_ids[]")],
    78: [(0, R, "err", "error_code", None)],
    79: [(0, R, "err", "error_code", None)],
    88: [(0, R, "err", "error_code", None)],
    89: [(0, R, "err", "groups[].error_code", "group_ids[]"), (0, R, "same", "groups[].group_id", "group_ids[]")],
    90: [(0, R, "err", "groups[].error_code", "groups[]"),
         (0, R, "same", "groups[].group_id", "groups[].group_id")],
    91: [(0, R, "err", "error_code", None)],
    92: [(0, R, "err", "error_code", None)],
}


def test_every_advertised_api_has_a_builder_and_expectations():
    # a new handler module needs a builder here (and may land before or after it)
    assert set(REGISTRY) <= set(BUILDERS)
    assert set(REGISTRY) <= set(EXPECT)
    assert len(ALL) > 200


def _request_items(req, path):
    out = []
    for p in path.split("|"):
        out.extend(get(req, p))
    return out


@pytest.mark.parametrize("key,version", ALL)
def test_error_response_mirrors_request(key, version):
    req = filled(request_class(key), version)
    resp = error_response(key, version, req, RuntimeError("boom"))
    assert resp is not None
    back = type(resp).decode(resp.encode(version), version)  # as the client reads it
    rules = [r for r in EXPECT[key] if r[0] <= version <= r[1]]
    assert rules, "no expectation at this version"
    for _lo, _hi, kind, rpath, qpath in rules:
        got = get(back, rpath)
        if kind == "err":
            n = 1 if qpath is None else len(_request_items(req, qpath))
            assert n >= 1
            assert got == [USE] * n, (rpath, got)
        elif kind == "same":
            assert got == get(req, qpath), rpath
        else:
            assert got == [[]], rpath
    # no other error code anywhere but 0 or the one given
    codes = [c for c in _all_codes(back)]
    assert set(codes) <= {0, USE}


def _all_codes(obj):
    from odradek.wire.base import Message
    if isinstance(obj, list):
        for x in obj:
            yield from _all_codes(x)
    elif isinstance(obj, Message):
        for s in obj.__slots__:
            v = getattr(obj, s)
            if s in ("error_code", "partition_error_code"):
                yield v
            else:
                yield from _all_codes(v)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_requests_give_encodable_error_responses(data):
    key, version = data.draw(st.sampled_from(ALL))
    cls = request_class(key)
    req = data.draw(message(cls, version, cls.is_flexible(version)))
    resp = error_response(key, version, req, ValueError("x"))
    if resp is None:
        assert key == 0 and req.acks == 0
        return
    type(resp).decode(resp.encode(version), version)


def test_produce_acks_0_has_no_error_response():
    req = filled(request_class(0), 9)
    req.acks = 0
    assert error_response(0, 9, req, RuntimeError("boom")) is None


def test_unknown_server_error_carries_no_message():
    assert api_error(RuntimeError("secret internals")) == (USE, None)
    req = filled(request_class(19), 7)
    resp = error_response(19, 7, req, RuntimeError("secret internals"))
    assert [t.error_message for t in resp.topics] == [None, None]


def test_known_exceptions_map_to_their_codes():
    assert error_code_for(CoordinatorError(ErrorCode.NOT_COORDINATOR)) == ErrorCode.NOT_COORDINATOR
    assert error_code_for(OffsetOutOfRangeError("out")) == ErrorCode.OFFSET_OUT_OF_RANGE
    assert error_code_for(RecordTooLargeError("big")) == ErrorCode.MESSAGE_TOO_LARGE
    assert error_code_for(KeyError("x")) == ErrorCode.UNKNOWN_SERVER_ERROR
    code, msg = api_error(OffsetOutOfRangeError("offset 7 out of range"))
    assert (code, msg) == (int(ErrorCode.OFFSET_OUT_OF_RANGE), "offset 7 out of range")
    req = filled(request_class(2), 7)
    resp = error_response(2, 7, req, CoordinatorError(ErrorCode.NOT_COORDINATOR))
    assert {p.error_code for t in resp.topics for p in t.partitions} == {int(ErrorCode.NOT_COORDINATOR)}


def test_api_versions_unsupported_version_lists_its_own_range():
    req = filled(request_class(18), 3)
    resp = error_response(18, 3, req, UnsupportedVersionError(18, 9))
    assert resp.error_code == ErrorCode.UNSUPPORTED_VERSION
    assert [(k.api_key, k.min_version, k.max_version) for k in resp.api_keys] == \
        [(18, REGISTRY[18].MIN_VERSION, REGISTRY[18].MAX_VERSION)]


def test_fetch_v13_plus_only_top_level_and_session_kept():
    req = filled(request_class(1), 13)
    resp = error_response(1, 13, req, RuntimeError())
    assert resp.error_code == USE and resp.responses == [] and resp.session_id == req.session_id
