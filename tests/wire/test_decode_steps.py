"""A large request of the few that carry thousands of entries is decoded in steps (issue 27
fairness: the broker serves other clients between them, every DECODE_STEP_BYTES or so): Message.decode_steps and
api.decode_request_steps give the same object and the same errors, at the same input, as the
one-piece decode (which runs the same generated generator through)."""

import struct
import sys

import gen_wire_tool
import pytest

from odradek.wire import api, messages
from odradek.wire.exceptions import WireError

LARGE_BYTES = 60_000  # (three steps or so)
GEN = gen_wire_tool.load()
STEPPED = sorted(GEN.STEPPED)


def _drive(steps):
    """(object, end position, yields) of a decode_steps generator run through."""
    yields = 0
    try:
        while True:
            assert next(steps) is None
            yields += 1
    except StopIteration as done:
        return (*done.value, yields)


def _outcome(fn):
    try:
        return fn()
    except WireError as e:
        return (type(e), str(e))


def _large(cls, version: int, entries: int = 0):
    """A request of `cls` at `version` whose top-level arrays hold ``entries`` entries each (by
    default: enough for LARGE_BYTES or more)."""
    if not entries:
        return _large(cls, version, LARGE_BYTES // (len(_large(cls, version, 100).encode(version)) // 100) + 1)
    mod = sys.modules[cls.__module__]
    kw = {}
    for attr, typ, vmin, vmax, *_rest, struct_name in cls._FIELDS:
        if not vmin <= version <= vmax or not typ.startswith("[]"):
            continue
        if struct_name is not None:
            elem = getattr(mod, struct_name)
            names = [f for f, t, lo, hi, *_ in elem._FIELDS if t == "string" and lo <= version <= hi]
            kw[attr] = [elem(**{n: f"{n}-{i}" for n in names}) for i in range(entries)]
        elif typ == "[]string":
            kw[attr] = [f"s-{i}" for i in range(entries)]
    return cls(**kw)


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


@pytest.mark.parametrize("name,version", CASES)
def test_stepped_decode_is_the_whole_decode(name, version):
    cls = messages.load(name)
    req = _large(cls, version)
    data = req.encode(version) + b"trailing"
    whole, end = cls.decode_from(data, version)
    stepped, stepped_end, yields = _drive(cls.decode_steps(data, version))
    assert stepped == whole == req
    assert stepped_end == end == len(data) - len(b"trailing")
    # a step per DECODE_STEP_BYTES of the array (an entry is not cut: a step ends with one, of < 512 bytes here)
    assert len(data) // (GEN.DECODE_STEP_BYTES + 512) - 1 <= yields <= len(data) // GEN.DECODE_STEP_BYTES
    assert yields >= 2
    # a small one: no step at all
    small = cls().encode(version)
    assert _drive(cls.decode_steps(small, version))[2] == 0


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
