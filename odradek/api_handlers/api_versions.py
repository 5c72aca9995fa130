"""ApiVersions (key 18): advertise exactly the versions the handlers implement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.api_versions_response import (
    ApiVersion,
    ApiVersionsResponse,
    FinalizedFeatureKey,
    SupportedFeatureKey,
)

if TYPE_CHECKING:
    from .ports import Services

API_KEY = 18
MIN_VERSION = 0
MAX_VERSION = 4

# The supported feature ranges (odradek/controller/features.py): metadata.version from
# 3.3-IV3 (level 7, the oldest a 4.x broker supports) up to 4.3-IV0, and the others
# whose behaviour odradek implements.
from odradek.controller.features import METADATA_VERSION_MAX, METADATA_VERSION_MIN, SUPPORTED  # noqa: E402,F401

# Kafka 4.x removed Produce v0-2 (v3 is the baseline) but still lists Produce from v0 in
# this response: librdkafka releases from before its fix (librdkafka issue 4956) take a
# Produce range without v0-2 as a broker without compression support and silently send
# uncompressed batches (KAFKA-18659, ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION).
# A Produce v0-2 request still gets what any unsupported version gets: the connection closed.
PRODUCE_API_KEY = 0
PRODUCE_RESPONSE_MIN_VERSION = 0


def advertised(services: Services | None = None) -> list[ApiVersion]:
    from . import supported_versions
    from .share_common import SHARE_API_KEYS, share_enabled
    from .streams_group_heartbeat import STREAMS_API_KEYS, streams_enabled

    # as Kafka: the share APIs only while share.version >= 1 is finalized, the streams group
    # APIs only while streams.version >= 1 is
    hide = set()
    if services is not None and not share_enabled(services):
        hide |= SHARE_API_KEYS
    if services is not None and not streams_enabled(services):
        hide |= STREAMS_API_KEYS
    return [ApiVersion(api_key=k, min_version=PRODUCE_RESPONSE_MIN_VERSION if k == PRODUCE_API_KEY else lo,
                       max_version=hi) for k, lo, hi in supported_versions() if k not in hide]


def unsupported_version_response() -> ApiVersionsResponse:
    """Kafka's answer to an ApiVersions version it does not know: error 35 and the list, in v0 layout."""
    return ApiVersionsResponse(error_code=ErrorCode.UNSUPPORTED_VERSION, api_keys=advertised())


def handle(ctx, request) -> ApiVersionsResponse:
    resp = ApiVersionsResponse(error_code=ErrorCode.NONE, api_keys=advertised(ctx.services), throttle_time_ms=0)
    if ctx.api_version >= 3:
        if not _valid_client_software(request.client_software_name) or not _valid_client_software(
            request.client_software_version
        ):
            resp.error_code = ErrorCode.INVALID_REQUEST
            resp.api_keys = []
            return resp
        resp.supported_features = [
            SupportedFeatureKey(name=name, min_version=lo, max_version=hi) for name, (lo, hi) in SUPPORTED.items()
            # as Kafka (KIP-1022): v3 clients reject a min version 0, so v3 lists only the others
            if lo > 0 or ctx.api_version >= 4
        ]
        resp.finalized_features_epoch = ctx.services.metadata.finalized_features_epoch()
        resp.finalized_features = [
            FinalizedFeatureKey(name=name, max_version_level=level, min_version_level=level)
            for name, level in ctx.services.metadata.finalized_features().items()
        ]
        resp.zk_migration_ready = False
    return resp


def _valid_client_software(value: str) -> bool:
    # Kafka: [a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?
    import re

    return bool(re.fullmatch(r"[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?", value or ""))


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ApiVersionsRequest.getErrorResponse."""
    keys = []
    if code == ErrorCode.UNSUPPORTED_VERSION:  # KIP-511: say which ApiVersions versions we speak
        keys = [ApiVersion(api_key=API_KEY, min_version=MIN_VERSION, max_version=MAX_VERSION)]
    return ApiVersionsResponse(error_code=code, api_keys=keys)
