"""A large request of the few that carry thousands of entries is decoded in steps (issue 27
fairness: the broker serves other clients between them, every DECODE_STEP_BYTES or so): Message.decode_steps and
api.decode_request_steps give the same object and the same errors, at the same input, as the
one-piece decode (which runs the same generated generator through)."""

import struct

import gen_wire_tool
import pytest
from wide_messages import drive as _drive, large as _large, wide as _wide

from odradek.wire import api, messages
from odradek.wire.exceptions import WireError

GEN = gen_wire_tool.load()
STEPPED = sorted(GEN.STEPPED)


def _outcome(fn):
    try:
        return fn()
    except WireError as e:
        return (type(e), str(e))


def _steps_inside(cls, version: int) -> bool:
    """Whether the stepped decoder of `cls` at `version` steps inside its arrays' entries too."""
    return any(n.startswith("_n_") for n in cls._STEPS[version].__code__.co_names)


def _cases():
    """One version of each distinct stepped decoder (versions of one layout share it)."""
    for name in STEPPED:
        firsts = {}
        for v, fn in sorted(messages.load(name)._STEPS.items()):
            firsts.setdefault(fn, v)
        yield from ((name, v) for v in firsts.values())


CASES = list(_cases())


def test_every_stepped_request_has_steps_for_the_versions_with_a_top_level_array():
    for name in STEPPED:
        cls = messages.load(name)
        assert cls._STEPS, name
        assert set(cls._STEPS) <= set(cls._DECODERS)


def _same_in_steps(cls, version: int, req):
    """`req` encoded (and some bytes after it) decoded in steps and whole: the same object and end.
    -> (the bytes, the yields)."""
    data = req.encode(version) + b"trailing"
    whole, end = cls.decode_from(data, version)
    stepped, stepped_end, yields = _drive(cls.decode_steps(data, version))
    assert stepped == whole == req
    assert stepped_end == end == len(data) - len(b"trailing")
    return data, yields


@pytest.mark.parametrize("name,version", CASES)
def test_stepped_decode_is_the_whole_decode(name, version):
    cls = messages.load(name)
    data, yields = _same_in_steps(cls, version, _large(cls, version))
    # a step per DECODE_STEP_BYTES of the array (an entry is not cut: a step ends with one, of < 512 bytes here)
    assert len(data) // (GEN.DECODE_STEP_BYTES + 512) - 1 <= yields <= len(data) // GEN.DECODE_STEP_BYTES
    assert yields >= 2
    # a small one: no step at all
    small = cls().encode(version)
    assert _drive(cls.decode_steps(small, version))[2] == 0


@pytest.mark.parametrize("name,version", CASES)
def test_a_long_array_inside_one_entry_is_decoded_in_steps(name, version):
    """One topic of thousands of partitions (an OffsetCommit, a ListOffsets...): the steps go on
    inside the entry, every DECODE_STEP_BYTES or so, with the same object and end."""
    cls = messages.load(name)
    data, yields = _same_in_steps(cls, version, _wide(cls, version))
    assert yields <= len(data) // GEN.DECODE_STEP_BYTES
    if _steps_inside(cls, version):
        assert len(data) >= 3 * GEN.DECODE_STEP_BYTES
        assert yields >= len(data) // (GEN.DECODE_STEP_BYTES + 512) - 1 and yields >= 2
        for cut in (len(data) // 3, len(data) // 2, len(data) - len(b"trailing") - 1):
            part = data[:cut]
            assert _outcome(lambda: _drive(cls.decode_steps(part, version))[:2]) == \
                _outcome(lambda: cls.decode_from(part, version)), cut


def test_the_requests_with_partitions_inside_topics_step_inside_them():
    """(the requests named in issue 27's hunt whose topics carry partition lists of structs)"""
    for name, version in (("OffsetCommitRequest", 9), ("ListOffsetsRequest", 9), ("DeleteRecordsRequest", 2),
                          ("AlterConfigsRequest", 2), ("AlterPartitionReassignmentsRequest", 0),
                          ("OffsetDeleteRequest", 0), ("OffsetForLeaderEpochRequest", 4), ("FetchRequest", 17),
                          ("TxnOffsetCommitRequest", 4), ("OffsetFetchRequest", 9)):
        assert _steps_inside(messages.load(name), version), name


@pytest.mark.parametrize("name,version", CASES)
def test_stepped_decode_fails_as_the_whole_decode(name, version):
    cls = messages.load(name)
    data = _large(cls, version).encode(version)
    cuts = [0, 1, 2, 5, len(data) // 3, len(data) // 2, len(data) - 3, len(data) - 1]
    for cut in cuts:
        part = data[:cut]
        whole = _outcome(lambda: cls.decode_from(part, version))
        assert isinstance(whole, tuple) and issubclass(whole[0], WireError)
        assert _outcome(lambda: _drive(cls.decode_steps(part, version))[:2]) == whole, cut
    bad = bytearray(data)
    bad[len(data) // 2:len(data) // 2 + 4] = b"\xff\xff\xff\xff"  # a length gone wrong mid-array
    whole = _outcome(lambda: cls.decode_from(bytes(bad), version))
    assert _outcome(lambda: _drive(cls.decode_steps(bytes(bad), version))[:2]) == whole


def _request_outcome(fn):
    try:
        return fn()
    except api.RequestDecodeError as e:
        return (e.api_key, e.api_version, e.correlation_id, type(e.cause), str(e.cause))


def _steps_of(frame):
    steps = api.decode_request_steps(frame)
    yields = 0
    while (got := next(steps)) is None:
        yields += 1
    return got, yields


def test_a_request_frame_decoded_in_steps():
    from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest

    req = CreateTopicsRequest(topics=[CreatableTopic(name=f"t{i}", num_partitions=1, replication_factor=1)
                                      for i in range(10_000)], timeout_ms=5000)
    frame = api.encode_request(req, 7, 42, client_id="c")[4:]
    (header, body), yields = _steps_of(frame)
    assert (header.request_api_key, header.request_api_version, header.correlation_id) == (19, 7, 42)
    assert body == req and yields == len(frame) // GEN.DECODE_STEP_BYTES  # (its entries of 25 bytes)
    assert api.decode_request(frame) == (header, body)
    # cut short, or bytes gone wrong: the same RequestDecodeError (a truncated request closes the connection)
    for bad in (frame[:len(frame) // 2], frame[:9], frame[:len(frame) - 1],
                frame[:5000] + struct.pack(">h", -7) + frame[5002:]):
        whole = _request_outcome(lambda: api.decode_request(bad))
        assert isinstance(whole, tuple)
        assert _request_outcome(lambda: _steps_of(bad)[0]) == whole
    # an API it does not know, or a version it does not serve: the header's error, before any step
    for key, version in ((9999, 0), (19, 99)):
        odd = struct.pack(">hhi", key, version, 7) + frame[8:]
        assert _request_outcome(lambda: _steps_of(odd)[0]) == _request_outcome(lambda: api.decode_request(odd))
