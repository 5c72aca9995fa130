"""UpdateFeatures (key 57) v0-2: finalize feature levels (kafka-features upgrade|downgrade|disable).

Validation is Kafka's (odradek/controller/features.py): all or nothing, the first bad
update fails the request with INVALID_UPDATE_VERSION at the top level. v0 has no
upgrade type (always UPGRADE: a downgrade is refused); v2 answers without per-feature
results on success.
"""

from __future__ import annotations

from odradek.api_handlers.error_responses import top_level_error
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.update_features_response import UpdatableFeatureResult, UpdateFeaturesResponse

API_KEY = 57
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, req) -> UpdateFeaturesResponse:
    updates = [(u.feature, u.max_version_level, u.upgrade_type if ctx.api_version >= 1 else 1)
               for u in req.feature_updates]
    failed = ctx.services.metadata.update_features(updates, bool(req.validate_only), ctx.now_ms)
    if failed is not None:
        code, message = failed
        return UpdateFeaturesResponse(throttle_time_ms=0, error_code=code, error_message=message, results=[])
    results = [] if ctx.api_version >= 2 else [
        UpdatableFeatureResult(feature=u.feature, error_code=ErrorCode.NONE, error_message="NONE")
        for u in req.feature_updates]
    return UpdateFeaturesResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None, results=results)


# Kafka's UpdateFeaturesRequest.getErrorResponse (its results stay empty)
error_response = top_level_error(UpdateFeaturesResponse, message=True)
