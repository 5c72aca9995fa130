"""The error response Kafka sends when handling a request raised.

Kafka answers an unexpected exception with ``request.getErrorResponse(throttleMs, e)``
(RequestHandlerHelper.handleError) and keeps the connection open: each request class
builds a response that mirrors the request's topics / partitions / groups / resources
with the error code (UNKNOWN_SERVER_ERROR for a generic exception, the mapped code for
an exception that names one). Only a request with no error response (Produce with
acks=0) makes Kafka close the connection instead.

``error_response(api_key, version, request, exc)`` returns the response object, or None
where Kafka has none. Each handler module builds its own, next to its handler:
``error_response(version, request, code, message)``, the shape of the matching
``*Request.getErrorResponse`` in Apache Kafka (field by field, including which fields
carry a message and which stay at their defaults). This module holds what they share:
the exception -> (code, message) mapping, and the dispatch.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Callable

from odradek.wire.errors import ErrorCode
from odradek.wire.exceptions import (
    CompressionError,
    CorruptRecordError,
    InvalidRecordError,
    UnsupportedVersionError,
)

_WIRE_ERRORS = (
    (UnsupportedVersionError, ErrorCode.UNSUPPORTED_VERSION),
    (CompressionError, ErrorCode.CORRUPT_MESSAGE),
    (CorruptRecordError, ErrorCode.CORRUPT_MESSAGE),
    (InvalidRecordError, ErrorCode.INVALID_RECORD),
)


def error_code_for(exc: BaseException) -> ErrorCode:
    """Kafka's Errors.forException: the code an exception names, else UNKNOWN_SERVER_ERROR.

    odradek exceptions name their code as ``code`` (an ErrorCode, e.g. CoordinatorError),
    ``error_code`` (int) or ``error_name`` (e.g. odradek.log errors).
    """
    code = getattr(exc, "code", None)
    if isinstance(code, ErrorCode):
        return code
    if isinstance(code, int) and type(exc).__module__.startswith("odradek."):
        return ErrorCode.from_code(code)  # e.g. the controller's _Fail(code, message)
    code = getattr(exc, "error_code", None)
    if isinstance(code, int) and not isinstance(code, bool):
        return ErrorCode.from_code(code)
    name = getattr(exc, "error_name", None)
    if isinstance(name, str):
        if name == "RECORD_TOO_LARGE":
            name = "MESSAGE_TOO_LARGE"
        try:
            return ErrorCode[name]
        except KeyError:
            return ErrorCode.UNKNOWN_SERVER_ERROR
    for cls, err in _WIRE_ERRORS:
        if isinstance(exc, cls):
            return err
    return ErrorCode.UNKNOWN_SERVER_ERROR


def api_error(exc: BaseException) -> tuple[int, str | None]:
    """Kafka's ApiError.fromThrowable: (code, message). No message for UNKNOWN_SERVER_ERROR
    (so nothing internal leaks) nor when it would only repeat the code's default text."""
    err = error_code_for(exc)
    if err == ErrorCode.UNKNOWN_SERVER_ERROR:
        return int(err), None
    msg = getattr(exc, "message", None)
    if not isinstance(msg, str):
        msg = str(exc)
    if not msg or msg == err.message or msg == err.name:
        msg = None
    return int(err), msg


def top_level_error(response_cls: type, *, message: bool = False, **fields) -> Callable:
    """The error_response of an API whose error response is its top-level error code (with
    ``message``: and the exception's message), the other ``fields`` as given."""
    def error_response(v: int, req, code: int, msg: str | None):
        if message:
            return response_cls(error_code=code, error_message=msg, **fields)
        return response_cls(error_code=code, **fields)
    return error_response


# the CONTROLLER listener's node-to-node APIs, which have no handler module here: AlterPartition,
# Envelope, BrokerRegistration, BrokerHeartbeat, AllocateProducerIds, AssignReplicasToDirs (Kafka's
# getErrorResponse: the top-level error code)
_NODE_APIS = frozenset({56, 58, 62, 63, 67, 73})


class _Builders(Mapping):
    """api key -> its handler module's error_response(version, request, code, message)."""

    def __getitem__(self, api_key: int) -> Callable:
        from . import REGISTRY

        if api_key in _NODE_APIS:
            from odradek.wire.api import response_class

            return top_level_error(response_class(api_key))
        return REGISTRY[api_key].error_response

    def __iter__(self) -> Iterator[int]:
        from . import REGISTRY

        return iter(set(REGISTRY) | _NODE_APIS)

    def __len__(self) -> int:
        from . import REGISTRY

        return len(set(REGISTRY) | _NODE_APIS)


BUILDERS: Mapping[int, Callable] = _Builders()


def error_response(api_key: int, version: int, request, exc: BaseException):
    """Kafka's getErrorResponse(0, exc) for this request; None where Kafka has no response
    (acks=0 Produce: the caller closes the connection). KeyError for an API without a handler."""
    code, msg = api_error(exc)
    return BUILDERS[api_key](version, request, code, msg)
