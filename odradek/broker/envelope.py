"""Envelope (API 58): an admin request a broker forwards to the active controller on behalf of a client
(Kafka's ForwardingManager): sealed by the broker, unwrapped and answered as Kafka's controller does.

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

from odradek.api_handlers.error_responses import BUILDERS
from odradek.wire.api import decode_request, decode_response, encode_request, encode_response
from odradek.wire.errors import ErrorCode
from odradek.wire.exceptions import WireError
from odradek.wire.messages.default_principal_data import DefaultPrincipalData
from odradek.wire.messages.envelope_request import EnvelopeRequest
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


def seal(ctx, req) -> EnvelopeRequest:
    """A client's request (its handler's context and body) as the envelope its broker forwards:
    the request as the client sent it, the client's principal and address."""
    data = encode_request(req, ctx.api_version, ctx.correlation_id, client_id=ctx.client_id)[4:]
    kind, _, name = (ctx.principal or "User:ANONYMOUS").partition(":")
    principal = _VERSION.pack(0) + DefaultPrincipalData(type=kind, name=name, token_authenticated=False).encode(0)
    try:
        host = ipaddress.ip_address(ctx.client_host).packed
    except ValueError:
        host = bytes((127, 0, 0, 1))
    return EnvelopeRequest(request_data=data, request_principal=principal, client_host_address=host)


def opened(resp: EnvelopeResponse, ctx, req):
    """The inner response of an envelope's answer; the request's own error response with the
    envelope's error when it has one (NOT_CONTROLLER: the caller asks the next controller)."""
    if resp.error_code:
        return BUILDERS[ctx.api_key](ctx.api_version, req, resp.error_code, None)
    return decode_response(bytes(resp.response_data), ctx.api_key, ctx.api_version).body
