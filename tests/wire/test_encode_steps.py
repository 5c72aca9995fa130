"""A large response of the few that can carry thousands of entries (a topic's partitions) is
encoded in steps (issue 27 fairness: the broker serves other clients between them, every
ENCODE_STEP_ENTRIES entries): Message.encode_parts_steps and api.encode_response_steps give the
same bytes, and the same error, as the one-piece encode."""

import gen_wire_tool
import pytest
from wide_messages import drive_to as _drive, large, wide

from odradek.wire import api, messages
from odradek.wire.exceptions import WireError

GEN = gen_wire_tool.load()
STEPPED = sorted(GEN.STEPPED_RESPONSES)
ENTRIES = 2500


def _entries(msg) -> int:
    """The structs in the arrays of `msg`, at any depth."""
    n = 0
    for attr in msg.__slots__:
        value = getattr(msg, attr, None)
        if isinstance(value, list):
            n += sum(1 + _entries(e) for e in value if hasattr(e, "__slots__"))
        elif hasattr(value, "__slots__") and hasattr(value, "_FIELDS"):
            n += _entries(value)
    return n


def _cases():
    """One version of each distinct stepped encoder (versions of one layout share it)."""
    for name in STEPPED:
        firsts = {}
        for v, fn in sorted(messages.load(name)._ENCODE_STEPS.items()):
            firsts.setdefault(fn, v)
        yield from ((name, v) for v in firsts.values())


CASES = list(_cases())


def test_every_stepped_response_has_steps():
    for name in STEPPED:
        cls = messages.load(name)
        assert cls._ENCODE_STEPS, name
        assert set(cls._ENCODE_STEPS) <= set(cls._ENCODERS)


@pytest.mark.parametrize("name,version", CASES)
def test_stepped_encode_is_the_whole_encode(name, version):
    cls = messages.load(name)
    most = 0
    for msg in (large(cls, version, ENTRIES), wide(cls, version, ENTRIES)):
        parts, yields = _drive(msg.encode_parts_steps(version))
        assert b"".join(parts) == msg.encode(version)
        assert cls.decode(msg.encode(version), version) == msg
        assert yields <= _entries(msg) // GEN.ENCODE_STEP_ENTRIES
        most = max(most, yields)
    assert most >= ENTRIES // GEN.ENCODE_STEP_ENTRIES
    # a small one: one step
    assert _drive(cls().encode_parts_steps(version))[1] == 0


@pytest.mark.parametrize("name,version", CASES)
def test_stepped_encode_fails_as_the_whole_encode(name, version):
    cls = messages.load(name)
    msg = large(cls, version, ENTRIES)
    for attr, typ, vmin, vmax, *_rest, struct_name in cls._FIELDS:
        if vmin <= version <= vmax and typ.startswith("[]") and struct_name is not None and getattr(msg, attr):
            getattr(msg, attr)[ENTRIES // 2] = None  # an entry that is not one
    with pytest.raises(WireError) as whole:
        msg.encode_parts(version)
    with pytest.raises(WireError) as stepped:
        _drive(msg.encode_parts_steps(version))
    assert str(stepped.value) == str(whole.value)


def test_a_response_frame_encoded_in_steps():
    from odradek.wire.messages.offset_commit_response import (OffsetCommitResponse, OffsetCommitResponsePartition,
                                                              OffsetCommitResponseTopic)

    resp = OffsetCommitResponse(topics=[OffsetCommitResponseTopic(name=f"t{i}", partitions=[
        OffsetCommitResponsePartition(partition_index=p, error_code=3) for p in range(100)]) for i in range(100)])
    for version in (2, 8, 9):
        parts, yields = _drive(api.encode_response_steps(8, version, 42, resp))
        assert b"".join(parts) == api.encode_response(8, version, 42, resp)
        assert yields == 100 * 101 // GEN.ENCODE_STEP_ENTRIES  # (a topic and its partitions: 101 entries)


def test_each_step_is_one_part_and_records_stay_their_own():
    """The small parts a step encodes are joined into one (a 100,000-entry answer is ~100 parts for
    the connection to size and write, not ~700,000); a large records field is left as it is, the
    same object, for the connection to write (or sendfile) on its own."""
    from odradek.wire.base import JOINED_PART_BYTES
    from odradek.wire.messages.fetch_response import FetchResponse, FetchableTopicResponse, PartitionData
    from odradek.wire.messages.offset_commit_response import (OffsetCommitResponse, OffsetCommitResponsePartition,
                                                              OffsetCommitResponseTopic)

    resp = OffsetCommitResponse(topics=[OffsetCommitResponseTopic(name=f"t{i}", partitions=[
        OffsetCommitResponsePartition(partition_index=p, error_code=3) for p in range(100)]) for i in range(100)])
    parts, yields = _drive(resp.encode_parts_steps(8))
    assert b"".join(parts) == resp.encode(8)
    assert yields == 10 and len(parts) == yields + 1
    big = b"r" * (JOINED_PART_BYTES + 1)
    fetch = FetchResponse(responses=[FetchableTopicResponse(topic=f"t{i}", partitions=[
        PartitionData(partition_index=p, records=big if p == 7 else b"") for p in range(100)]) for i in range(30)])
    parts, yields = _drive(fetch.encode_parts_steps(12))
    assert b"".join(parts) == fetch.encode(12)
    assert sum(p is big for p in parts) == 30
