"""Where the request trace goes: a file, through a logging handler of its own (the broker's
other output and this one stay apart)."""

from __future__ import annotations

import logging
from typing import Callable

from .faults import Fault
from .trace import request_line, response_line


class TraceSink:
    def __init__(self, path: str, clock_ms: Callable[[], int]) -> None:
        self._clock = clock_ms
        self._handler = logging.FileHandler(path, mode="a", encoding="utf-8")
        self._handler.setFormatter(logging.Formatter("%(message)s"))
        self._log = logging.getLogger(f"odradek.trace.{id(self)}")
        self._log.propagate = False
        self._log.setLevel(logging.INFO)
        self._log.addHandler(self._handler)

    def request(self, connection: str, header, body, fault: Fault | None) -> None:
        self._log.info(request_line(self._clock(), connection, header, body, fault))

    def response(self, connection: str, api_key: int, version: int, correlation_id: int, body) -> None:
        self._log.info(response_line(self._clock(), connection, api_key, version, correlation_id, body))

    def close(self) -> None:
        self._log.removeHandler(self._handler)
        self._handler.close()
