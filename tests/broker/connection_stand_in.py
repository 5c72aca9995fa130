"""What the KafkaConnection tests share: a stand-in for the server a connection belongs to (no
broker: the tests drive the connection's own paths), and a wait on the event loop."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace


def stand_in_server() -> SimpleNamespace:
    config = SimpleNamespace(socket_request_max_bytes=100 << 20, socket_send_buffer_bytes=-1,
                             socket_receive_buffer_bytes=-1)
    return SimpleNamespace(broker=None, registry=None, connections=set(), control=None, request_stats=None,
                           topic_stats=None, sasl_session=lambda listener=None: None, client_quotas=None,
                           config=config)


async def until(cond, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        assert loop.time() < deadline, "condition not reached"
        await asyncio.sleep(0.005)
