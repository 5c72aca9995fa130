"""Where the request trace goes: a file of JSON lines, each written whole (line-buffered)."""

from __future__ import annotations

from typing import Callable

from .faults import Fault
from .trace import request_line, response_line


class TraceSink:
    def __init__(self, path: str, clock_ms: Callable[[], int]) -> None:
        self._clock = clock_ms
        self._file = open(path, "a", encoding="utf-8", buffering=1)

    def request(self, connection: str, header, body, fault: Fault | None) -> None:
        self._file.write(request_line(self._clock(), connection, header, body, fault) + "\n")

    def response(self, connection: str, api_key: int, version: int, correlation_id: int, body) -> None:
        self._file.write(response_line(self._clock(), connection, api_key, version, correlation_id, body) + "\n")

    def close(self) -> None:
        self._file.close()
