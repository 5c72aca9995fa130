"""Request/response framing on top of the generated messages.

Broker side: ``decode_request(frame)`` and ``encode_response(...)``.
Client side (tests, tools): ``encode_request(...)`` and ``decode_response(...)``.
Frames here exclude the 4-byte size prefix unless the name says ``frame``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from . import messages
from .exceptions import (
    MalformedError,
    TruncatedError,
    UnsupportedApiError,
    UnsupportedVersionError,
    WireError,
)
from .frames import frame
from .messages.request_header import RequestHeader
from .messages.response_header import ResponseHeader

_hhi = struct.Struct(">hhi")
API_VERSIONS_KEY = 18

_req_cache: dict[int, type] = {}
_resp_cache: dict[int, type] = {}


def request_class(api_key: int):
    cls = _req_cache.get(api_key)
    if cls is None:
        name = messages.REQUEST_BY_KEY.get(api_key)
        if name is None:
            raise UnsupportedApiError(api_key)
        cls = _req_cache[api_key] = messages.load(name)
    return cls


def response_class(api_key: int):
    cls = _resp_cache.get(api_key)
    if cls is None:
        name = messages.RESPONSE_BY_KEY.get(api_key)
        if name is None:
            raise UnsupportedApiError(api_key)
        cls = _resp_cache[api_key] = messages.load(name)
    return cls


def request_header_version(api_key: int, api_version: int) -> int:
    return 2 if request_class(api_key).is_flexible(api_version) else 1


def response_header_version(api_key: int, api_version: int) -> int:
    # ApiVersions responses always use header v0 so any client can read them.
    if api_key == API_VERSIONS_KEY:
        return 0
    return 1 if response_class(api_key).is_flexible(api_version) else 0


class RequestDecodeError(WireError):
    """A request whose header was readable but whose body was not understood.

    Carries what is needed to answer it (api key, version, correlation id).
    """

    def __init__(self, api_key: int, api_version: int, correlation_id: int, cause: WireError, header=None):
        super().__init__(str(cause))
        self.api_key = api_key
        self.api_version = api_version
        self.correlation_id = correlation_id
        self.cause = cause
        self.header = header


def peek_header(frame_bytes) -> tuple[int, int, int]:
    """(api_key, api_version, correlation_id) of a request frame body."""
    try:
        return _hhi.unpack_from(frame_bytes, 0)
    except struct.error:
        raise TruncatedError("request shorter than its header") from None


def decode_request(frame_bytes):
    """Decode a request frame body into (RequestHeader, request object).

    Raises RequestDecodeError (with the correlation id) for an unknown API key,
    an unsupported version, or a malformed body; TruncatedError when even the
    fixed header prefix is missing.
    """
    cls, header, pos = _request_header(frame_bytes)
    try:
        body, _ = cls.decode_from(frame_bytes, header.request_api_version, pos)
    except WireError as e:
        raise _body_error(header, e) from None
    return header, body


def decode_request_steps(frame_bytes):
    """decode_request in steps, for a large frame: a generator that yields None between the steps
    of a request whose top-level arrays can hold thousands of entries (Message.decode_steps), then
    (RequestHeader, request object) as its last item. The same answer and the same errors, raised
    at the step that reaches the bad input, as decode_request."""
    cls, header, pos = _request_header(frame_bytes)
    try:
        body, _ = yield from cls.decode_steps(frame_bytes, header.request_api_version, pos)
    except WireError as e:
        raise _body_error(header, e) from None
    yield header, body


def _request_header(frame_bytes):
    """(request class, RequestHeader, position of the body) of a request frame body."""
    api_key, api_version, correlation_id = peek_header(frame_bytes)
    try:
        cls = request_class(api_key)
        lo, hi = cls.VALID_VERSIONS
        if not lo <= api_version <= hi:
            raise UnsupportedVersionError(api_key, api_version)
        hv = 2 if cls.is_flexible(api_version) else 1
        header, pos = RequestHeader.decode_from(frame_bytes, hv)
    except WireError as e:
        raise RequestDecodeError(api_key, api_version, correlation_id, e) from None
    return cls, header, pos


def _body_error(header, cause: WireError) -> RequestDecodeError:
    return RequestDecodeError(header.request_api_key, header.request_api_version, header.correlation_id, cause,
                              header)


def encode_response_parts(api_key: int, api_version: int, correlation_id: int, response) -> list:
    """Framed response (size prefix included) as a list of parts.

    Parts are bytes, except records fields which are passed through as given
    (so a broker can hand file slices to sendfile).
    """
    hv = response_header_version(api_key, api_version)
    head = ResponseHeader(correlation_id=correlation_id).encode(hv)
    return frame([head, *response.encode_parts(api_version)])


def encode_response_steps(api_key: int, api_version: int, correlation_id: int, response):
    """encode_response_parts in steps (Message.encode_parts_steps): a generator that yields None
    between steps of a large response and returns the same parts."""
    hv = response_header_version(api_key, api_version)
    head = ResponseHeader(correlation_id=correlation_id).encode(hv)
    body = yield from response.encode_parts_steps(api_version)
    return frame([head, *body])


def encode_response(api_key: int, api_version: int, correlation_id: int, response) -> bytes:
    return b"".join(encode_response_parts(api_key, api_version, correlation_id, response))


def encode_request(request, api_version: int, correlation_id: int, client_id: str | None = "odradek") -> bytes:
    """Framed request bytes (size prefix included)."""
    api_key = type(request).API_KEY
    hv = request_header_version(api_key, api_version)
    head = RequestHeader(
        request_api_key=api_key,
        request_api_version=api_version,
        correlation_id=correlation_id,
        client_id=client_id,
    ).encode(hv)
    return b"".join(frame([head, *request.encode_parts(api_version)]))


@dataclass
class DecodedResponse:
    """A response frame decoded: its correlation id and body."""
    correlation_id: int
    body: object


def decode_response(frame_bytes, api_key: int, api_version: int) -> DecodedResponse:
    """Decode a response frame body (without the size prefix)."""
    hv = response_header_version(api_key, api_version)
    header, pos = ResponseHeader.decode_from(frame_bytes, hv)
    body, _ = response_class(api_key).decode_from(frame_bytes, api_version, pos)
    return DecodedResponse(header.correlation_id, body)


__all__ = [
    "DecodedResponse",
    "MalformedError",
    "RequestDecodeError",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
    "encode_response_parts",
    "peek_header",
    "request_class",
    "response_class",
]
