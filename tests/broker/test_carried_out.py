"""broker/carried_out.py: a large admin write goes on when its client went away; a failure of it is
logged once (by its connection while the client is there to be answered, by CarriedOut after)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from odradek.broker.carried_out import CarriedOut

FAILED = "carrying out a request failed"


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
