"""Envelope (API 58): an admin request a broker forwards to the active controller on behalf of a client
(Kafka's ForwardingManager), unwrapped and answered as Kafka's controller does.

The envelope carries the client's request as it was sent (request header and body, no size prefix),
the client's principal (DefaultKafkaPrincipalBuilder's serialization: int16 version, then
DefaultPrincipalData in that version) and its address. The answer is the inner response with its
response header (no size prefix) in EnvelopeResponse.ResponseData; an envelope that cannot be
unwrapped is answered with the envelope's own error: PRINCIPAL_DESERIALIZATION_FAILURE, or
INVALID_REQUEST for an inner request that does not parse or is not one a broker forwards.
"""

from __future__ import annotations

import ipaddress
import struct
from dataclasses import dataclass

from odradek.wire.api import decode_request, encode_response
from odradek.wire.errors import ErrorCode
from odradek.wire.exceptions import WireError
from odradek.wire.messages.default_principal_data import DefaultPrincipalData
from odradek.wire.messages.envelope_response import EnvelopeResponse
from odradek.wire.messages.request_header import RequestHeader

ENVELOPE = 58
_VERSION = struct.Struct(">h")


@dataclass(frozen=True)
class Unwrapped:
    header: RequestHeader
    body: object
    principal: DefaultPrincipalData
    client_host: str


def _principal(data: bytes) -> DefaultPrincipalData | None:
    try:
        (version,) = _VERSION.unpack_from(data, 0)
        lo, hi = DefaultPrincipalData.VALID_VERSIONS
        if not lo <= version <= hi:
            return None
        principal, end = DefaultPrincipalData.decode_from(data, version, 2)
        return principal if end == len(data) else None
    except (WireError, struct.error, IndexError):
        return None


def unwrap(req, forwardable) -> Unwrapped | int:
    """The forwarded request, or the envelope's error code. ``forwardable``: the API keys the controller
    takes from a broker."""
    principal = _principal(bytes(req.request_principal or b""))
    if principal is None:
        return int(ErrorCode.PRINCIPAL_DESERIALIZATION_FAILURE)
    try:
        header, body = decode_request(bytes(req.request_data))
    except WireError:
        return int(ErrorCode.INVALID_REQUEST)
    if header.request_api_key not in forwardable:
        return int(ErrorCode.INVALID_REQUEST)
    try:
        host = str(ipaddress.ip_address(bytes(req.client_host_address)))
    except ValueError:
        return int(ErrorCode.INVALID_REQUEST)
    return Unwrapped(header, body, principal, host)


def wrap(header: RequestHeader, response) -> EnvelopeResponse:
    """The inner response with its header, as the envelope's ResponseData."""
    framed = encode_response(header.request_api_key, header.request_api_version, header.correlation_id, response)
    return EnvelopeResponse(response_data=framed[4:], error_code=0)
