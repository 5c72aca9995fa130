"""The one error of the coordinators: a Kafka error code, and the message Kafka sends with it."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode


class CoordinatorError(Exception):
    def __init__(self, code: ErrorCode, message: str | None = None):
        super().__init__(message or code.name)
        self.code = code
        self.message = message
