"""broker/carried_out.py: a large admin write goes on when its client went away; a failure of it is
logged once (by its connection while the client is there to be answered, by CarriedOut after); a
validate_only one writes nothing, so it is not carried out but given up with its connection."""

from __future__ import annotations

import asyncio
import logging

import pytest

from odradek.broker.carried_out import CarriedOut
from odradek.broker.controller_api import ADMIN_WRITES, validates_only
from odradek.config import BrokerConfig
from odradek.wire.api import encode_request, request_class
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest

FAILED = "carrying out a request failed"
TOPICS = 40  # a CreateTopics of ~10 steps (more than STEPPED_TOPICS)


def _logged(caplog) -> int:
    return sum(1 for r in caplog.records if r.getMessage() == FAILED)


def test_a_failure_its_caller_answers_is_not_logged_again(caplog):
    async def failing():
        await asyncio.sleep(0)
        raise ValueError("boom")

    async def main():
        carried = CarriedOut()
        with pytest.raises(ValueError):
            await carried.run(failing())
        assert len(carried) == 0

    with caplog.at_level(logging.ERROR, logger="odradek.broker"):
        asyncio.run(main())
    assert _logged(caplog) == 0


def test_a_failure_after_its_caller_left_is_logged_once_and_a_result_dropped(caplog):
    async def main():
        carried = CarriedOut()
        for fails in (True, False):
            go = asyncio.Event()
            ran: list = []

            async def work():
                await go.wait()
                ran.append(1)
                if fails:
                    raise ValueError("boom")
                return "answer"

            caller = asyncio.ensure_future(carried.run(work()))
            await asyncio.sleep(0)
            caller.cancel()  # the client went away
            with pytest.raises(asyncio.CancelledError):
                await caller
            assert len(carried) == 1  # still carried out
            go.set()
            while len(carried):
                await asyncio.sleep(0)
            assert ran == [1]
            await asyncio.sleep(0)  # (the done callbacks)

    with caplog.at_level(logging.ERROR, logger="odradek.broker"):
        asyncio.run(main())
    assert _logged(caplog) == 1


def test_validates_only_names_the_admin_writes_asking_it():
    for key in ADMIN_WRITES:
        cls = request_class(key)
        if hasattr(cls(), "validate_only"):
            assert validates_only(key, cls(validate_only=True)) and not validates_only(key, cls(validate_only=False))
        else:
            assert not validates_only(key, cls())


def _create(names: list[str], validate_only: bool) -> CreateTopicsRequest:
    return CreateTopicsRequest(timeout_ms=60_000, validate_only=validate_only, topics=[
        CreatableTopic(name=n, num_partitions=1, replication_factor=1, assignments=[], configs=[]) for n in names])


async def _sent_and_closed(tmp_path, validate_only: bool) -> tuple[int, int]:
    """A large CreateTopics written whole by a client that closes its socket at once: (the most
    requests the broker carried out at a time meanwhile, the topics created)."""
    from odradek.broker.server import BrokerServer

    server = BrokerServer(BrokerConfig.from_properties({
        "listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(tmp_path), "offsets.topic.num.partitions": "1"}))
    await server.start()
    try:
        carried = server.broker.carried_out
        names = [f"gone-{i}" for i in range(TOPICS)]
        _, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(encode_request(_create(names, validate_only), 7, 1, client_id="gone"))
        await writer.drain()
        while not server.connections:
            await asyncio.sleep(0)
        conn = next(iter(server.connections))
        writer.close()
        most = 0
        while not conn.task.done() or len(carried):  # (the broker serves it on this loop: looked at every turn)
            most = max(most, len(carried))
            await asyncio.sleep(0)
        image = server.broker.controller.image
        return most, sum(1 for n in names if n in image.topics)
    finally:
        server.stop()
        await server.close()


def test_a_write_is_carried_out_after_its_client_left_a_validation_is_not(tmp_path):
    most, created = asyncio.run(_sent_and_closed(tmp_path / "write", False))
    assert (most, created) == (1, TOPICS)
    most, created = asyncio.run(_sent_and_closed(tmp_path / "validate", True))
    assert (most, created) == (0, 0)
