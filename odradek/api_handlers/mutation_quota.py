"""The controller mutation quota (controller_mutation_rate) of one CreateTopics, CreatePartitions
or DeleteTopics request, as Kafka's controller applies it: after a topic passes its checks, its
partitions (created, added or deleted) are admitted against the client's token bucket in request
order; a strict quota (the newer request versions) refuses a topic once the bucket is empty with
THROTTLING_QUOTA_EXCEEDED, and the response carries the throttle time."""

from __future__ import annotations

from odradek.api_handlers.ports import MutationQuota

# Kafka answers the refusal without a message (ApiError drops a message equal to the error's own)
THROTTLED_MESSAGE = None


def request_quota(ctx, strict_since: int) -> MutationQuota | None:
    """The request's quota, or None where the client has no controller_mutation_rate."""
    make = ctx.services.mutation_quota
    if make is None or ctx.principal is None:  # (None: a cluster node's own request, not a client's)
        return None
    user = ctx.principal.split(":", 1)[1]
    quota = make(user, ctx.client_id or "", ctx.api_version >= strict_since, ctx.now_ms)
    return quota if quota.bounded else None


def throttle_ms(quota: MutationQuota | None, now_ms: int) -> int:
    return 0 if quota is None else quota.throttle_time_ms(now_ms)
