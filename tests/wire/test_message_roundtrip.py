"""Every generated (message, version) round-trips: encode -> decode -> same object and bytes."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odradek.wire import messages
from odradek.wire.exceptions import WireError

from strategies import message

CASES = []
for table in (messages.REQUEST, messages.RESPONSE, messages.HEADER, messages.METADATA,
              messages.DATA, messages.COORDINATOR_KEY, messages.COORDINATOR_VALUE):
    for name, (_mod, _key, (lo, hi), _flex) in sorted(table.items()):
        for v in range(max(lo, 0), hi + 1):
            CASES.append((name, v))
# Every message module imported before the first example: hypothesis reads the constants of each newly imported
# project module and then drops its cache of the constants each strategy may use; one module imported per test
# made it rebuild that cache in every test (~0.7 of the module's ~12 CPU s)
for _name in {name for name, _ in CASES}:
    messages.load(_name)


def test_every_request_has_a_response():
    assert set(messages.REQUEST_BY_KEY) == set(messages.RESPONSE_BY_KEY)
    assert len(messages.REQUEST_BY_KEY) > 80


@pytest.mark.parametrize("name,version", CASES, ids=[f"{n}-v{v}" for n, v in CASES])
def test_roundtrip(name, version):
    cls = messages.load(name)

    @settings(max_examples=4, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data):
        obj = data.draw(message(cls, version, cls.is_flexible(version)))
        raw = obj.encode(version)
        back, end = cls.decode_from(raw, version)
        assert end == len(raw)
        assert back == obj
        assert back.encode(version) == raw
        # every strict prefix is a typed truncation error, never IndexError/struct.error
        for cut in {0, len(raw) // 2, len(raw) - 1} - {len(raw)}:
            if cut < 0:
                continue
            try:
                cls.decode(raw[:cut], version)
            except WireError:
                pass

    check()
