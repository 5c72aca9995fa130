"""A single `odradek serve` node's producer ids come in blocks of 1000 from its own controller
(ProducerIdsRecord in its metadata log, issue 21 item 2): never an id twice across kill -9 and
clean restarts, and a data dir of an older odradek (its `producer-ids` file: the end of the last
block it used) starts the first block above every id handed out before."""

from __future__ import annotations

import pytest

from harness import BrokerProcess, RawClient
from odradek.wire.messages.init_producer_id_request import InitProducerIdRequest

pytestmark = pytest.mark.timeout(300)


def init_producer_ids(port: int, n: int) -> list[int]:
    c = RawClient(f"127.0.0.1:{port}", timeout=30)
    try:
        out = []
        for _ in range(n):
            r = c.call(InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=2**31 - 1,
                                             producer_id=-1, producer_epoch=-1), 4)
            assert (r.error_code, r.producer_epoch) == (0, 0), r  # a single node's controller answers at once
            out.append(r.producer_id)
        return out
    finally:
        c.close()


def test_no_id_twice_across_kill9_and_restarts_above_an_older_file(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "producer-ids").write_text("5000\n")  # an older odradek handed out ids below 5000
    b = BrokerProcess(str(data))
    try:
        b.start()
        first = init_producer_ids(b.port, 3)
        assert first == [5000, 5001, 5002]
        b.kill9()
        b.start()
        second = init_producer_ids(b.port, 950)  # past 90% of the block: the next one is written too
        assert second[0] == 6000 and second == list(range(6000, 6950))
        b.stop()
        b.start()
        third = init_producer_ids(b.port, 3)
        assert third == [8000, 8001, 8002]  # 6000 and 7000 were handed out before the restart
    finally:
        b.kill9()
