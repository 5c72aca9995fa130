"""An in-process broker for handler-level tests: a Broker on a temporary data dir with a
settable clock, and `call` to run one request through its handler module."""
from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

from odradek.api_handlers.context import RequestContext
from odradek.config import BrokerConfig


class Clock:
    def __init__(self):
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def start_broker(data_dir, **overrides: str):
    """``overrides``: more broker properties, by their names with dots as underscores."""
    from odradek.broker.broker import Broker

    props = {"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(data_dir), "offsets.topic.num.partitions": "2",
             "transaction.state.log.num.partitions": "2"}
    props.update({name.replace("_", "."): value for name, value in overrides.items()})
    cfg = BrokerConfig.from_properties(props)
    b = Broker(cfg, Clock(), lambda delay, fn: None)
    b.start()
    return b


def call(b, module: str, req, version: int):
    mod = importlib.import_module(f"odradek.api_handlers.{module}")
    ctx = RequestContext(api_key=mod.API_KEY, api_version=version, correlation_id=1, client_id="test",
                         now_ms=b.clock_ms(), services=b.services, client_host="127.0.0.1")
    return mod.handle(ctx, req)


def drive(b, resp):
    """A handler's response driven through its steps as the connection does (a Stepped: a large
    request answered in steps): (the response, the steps it took)."""
    from odradek.api_handlers.context import Stepped

    steps = 0
    while isinstance(resp, Stepped):
        steps += 1
        done = resp.step(b.clock_ms())
        if done is not None:
            resp = done
    return resp, steps


def handler_generators(run) -> tuple[object, set[str]]:
    """(run's result, the names of the api_handlers generator functions that ran in run()): a small
    request's handler runs none (the hot path pays nothing for the steps)."""
    from odradek import api_handlers

    handlers = str(Path(api_handlers.__file__).parent)
    ran: set[str] = set()

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_flags & inspect.CO_GENERATOR and code.co_filename.startswith(handlers):
            ran.add(code.co_name)

    sys.setprofile(profile)
    try:
        out = run()
    finally:
        sys.setprofile(None)
    return out, ran
