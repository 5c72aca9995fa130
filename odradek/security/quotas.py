"""Client quotas as Kafka's ClientQuotaManager and its subclasses enforce them, sans-IO:
producer_byte_rate, consumer_byte_rate, request_percentage and controller_mutation_rate.

The quota of a (user, client-id) pair is the first set entry of Kafka's precedence over the
client-quota records (`/config/users/<user>/clients/<client-id>` ... `/config/clients/<default>`);
the clients sharing one quota entry share one rate. A rate is Kafka's Rate over
quota.window.num (11) samples of quota.window.size.seconds (1 s); a request that takes the rate
over the bound is throttled by (rate - bound) / bound * window, at most the whole window span,
as QuotaUtils.throttleTime. The broker puts that in throttle_time_ms and mutes the channel for it
(KIP-219).

request_percentage (ClientRequestQuotaManager) is the same Rate over the time a client's requests
keep the broker busy, in percent of one thread (a second of handling = 100); its throttle is at
most one window. controller_mutation_rate (ControllerMutationQuotaManager) counts the partitions
that CreateTopics, CreatePartitions and DeleteTopics create or delete in a token bucket of
quota.window.num x quota.window.size.seconds x the rate: a strict quota (new request versions)
refuses a topic once the bucket is below zero, a permissive one (old versions) takes it and
throttles; the throttle is the time the bucket needs to come back to zero.
connection_creation_rate (an ip entity, or the default ip; Kafka's ConnectionQuotas) is the same
Rate over the connections accepted from one address: past it, a connection is not served and is
closed after the throttle time (at most one window), and it is not counted.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

USER, CLIENT_ID = "user", "client-id"
PRODUCE, FETCH = "producer_byte_rate", "consumer_byte_rate"
REQUEST, MUTATION = "request_percentage", "controller_mutation_rate"
IP, CONNECTION = "ip", "connection_creation_rate"

Entity = tuple  # ((type, name | None), ...) as controller/client_quotas keys the image


def _key(user: str | None, client: str | None, with_user: bool, with_client: bool) -> Entity:
    parts = []
    if with_client:
        parts.append((CLIENT_ID, client))
    if with_user:
        parts.append((USER, user))
    return tuple(parts)


def quota_entity(quotas: Mapping[Entity, Mapping[str, float]], kind: str, user: str,
                 client_id: str) -> tuple[Entity, float] | None:
    """The entry that bounds this user and client id for ``kind``, and its bound (Kafka's
    DefaultQuotaCallback order); None: unbounded."""
    order = ((user, client_id, True, True), (user, None, True, True), (user, None, True, False),
             (None, client_id, True, True), (None, None, True, True), (None, None, True, False),
             (None, client_id, False, True), (None, None, False, True))
    for u, c, wu, wc in order:
        entity = _key(u, c, wu, wc)
        bound = quotas.get(entity, {}).get(kind)
        if bound is not None:
            return entity, float(bound)
    return None


@dataclass
class _Rate:
    """Kafka's SampledStat Rate: samples of window_ms, the oldest dropped after ``samples``."""
    starts: list[int] = field(default_factory=list)
    values: list[float] = field(default_factory=list)

    def record(self, value: float, now_ms: int, window_ms: int, samples: int) -> None:
        if not self.starts or now_ms >= self.starts[-1] + window_ms:
            self.starts.append(now_ms)
            self.values.append(0.0)
        self.values[-1] += value
        self._purge(now_ms, window_ms, samples)

    def _purge(self, now_ms: int, window_ms: int, samples: int) -> None:
        expire = samples * window_ms
        while self.starts and now_ms - self.starts[0] >= expire:
            self.starts.pop(0)
            self.values.pop(0)

    def window_ms(self, now_ms: int, window_ms: int, samples: int) -> int:
        """Rate.windowSize: the time since the oldest sample, at least (samples - 1) windows."""
        self._purge(now_ms, window_ms, samples)
        elapsed = now_ms - (self.starts[0] if self.starts else now_ms)
        full = elapsed // window_ms
        if full < samples - 1:
            elapsed += (samples - 1 - full) * window_ms
        return max(elapsed, 1)

    def rate(self, now_ms: int, window_ms: int, samples: int) -> float:
        """Per second."""
        size = self.window_ms(now_ms, window_ms, samples)
        return sum(self.values) * 1000.0 / size


@dataclass
class _TokenBucket:
    """Kafka's TokenBucket stat: refilled at ``rate`` a second up to ``burst``; a record may take
    it below zero."""
    tokens: float
    last_ms: int

    def level(self, rate: float, burst: float, now_ms: int) -> float:
        self.tokens = min(burst, self.tokens + rate * (now_ms - self.last_ms) / 1000.0)
        self.last_ms = now_ms
        return self.tokens

    def take(self, value: float, rate: float, burst: float, now_ms: int) -> float:
        self.tokens = min(burst, self.level(rate, burst, now_ms) - value)
        return self.tokens


class MutationQuota:
    """One request's controller mutation quota (Kafka's Strict/PermissiveControllerMutationQuota):
    ``admit(partitions)`` before each topic is created or deleted, ``throttle_time_ms`` for the
    response."""

    def __init__(self, bucket: _TokenBucket | None, rate: float, burst: float, strict: bool):
        self.bounded = bucket is not None
        self._bucket = bucket
        self._rate = rate
        self._burst = burst
        self._strict = strict
        self._throttle_ms = 0
        self._recorded_ms = 0

    def admit(self, partitions: int, now_ms: int) -> bool:
        """False: refused with THROTTLING_QUOTA_EXCEEDED (a strict quota whose bucket is empty)."""
        b = self._bucket
        if b is None:
            return True
        if self._strict:
            level = b.level(self._rate, self._burst, now_ms)
            if level < 0:
                self._throttled(level, now_ms)
                return False
            b.take(partitions, self._rate, self._burst, now_ms)
            return True
        level = b.take(partitions, self._rate, self._burst, now_ms)
        if level < 0:
            self._throttled(level, now_ms)
        return True

    def _throttled(self, level: float, now_ms: int) -> None:
        self._throttle_ms = round(-level / self._rate * 1000)
        self._recorded_ms = now_ms

    def throttle_time_ms(self, now_ms: int) -> int:
        """The throttle recorded, less the time since (a request may finish long after)."""
        return max(0, self._throttle_ms - (now_ms - self._recorded_ms))


UNBOUNDED = MutationQuota(None, 1.0, 0.0, False)


# Kafka's ClientQuotaManager: a client's quota sensors go after an hour without a record
# (InactiveSensorExpirationTimeSeconds), checked by the metrics' ExpireSensorTask every 30 s
SENSOR_EXPIRY_MS = 3_600_000
SENSOR_EXPIRY_CHECK_MS = 30_000


class ClientQuotas:
    def __init__(self, quotas: Callable[[], Mapping[Entity, Mapping[str, float]]], window_ms: int = 1000,
                 samples: int = 11):
        self.quotas = quotas  # the metadata image's client quotas, read at each request
        self.window_ms = window_ms
        self.samples = samples
        self._rates: dict[tuple[str, Entity], _Rate] = {}
        self._buckets: dict[tuple[str, Entity], _TokenBucket] = {}

    def expire(self, now_ms: int) -> None:
        """Drop the sensors of clients (and connecting hosts) not seen for SENSOR_EXPIRY_MS, as
        Kafka expires its quota sensors: a broker that met many client ids keeps only the live ones."""
        cut = now_ms - SENSOR_EXPIRY_MS
        self._rates = {k: r for k, r in self._rates.items() if r.starts and r.starts[-1] > cut}
        self._buckets = {k: b for k, b in self._buckets.items() if b.last_ms > cut}

    def sensors(self) -> int:
        """How many clients' (and hosts') sensors are kept."""
        return len(self._rates) + len(self._buckets)

    def any(self) -> bool:
        """Whether the image has any client quota (none: no request is counted at all)."""
        return bool(self.quotas())

    def _bound(self, kind: str, user: str, client_id: str) -> tuple[tuple, float] | None:
        """The sensor (named by the actual user/client when the entry is a default) and bound."""
        quotas = self.quotas()
        if not quotas:
            return None
        found = quota_entity(quotas, kind, user, client_id)
        if found is None:
            return None
        entity, bound = found
        sensor = (kind, tuple((t, n if n is not None else (user if t == USER else client_id)) for t, n in entity))
        return sensor, (bound if bound > 0 else 1.0)

    def unrecord(self, kind: str, user: str, client_id: str, nbytes: int, now_ms: int) -> None:
        """Take back bytes that were not sent (a throttled fetch gets an empty response), as
        Kafka's unrecordQuotaSensor."""
        self.record(kind, user, client_id, -nbytes, now_ms)

    def record(self, kind: str, user: str, client_id: str, value: float, now_ms: int) -> int:
        """Count ``value`` (bytes of a produce request or fetch response; percent-seconds of
        request time) against the client's ``kind`` quota; the throttle time in ms."""
        found = self._bound(kind, user, client_id)
        if found is None:
            return 0
        sensor, bound = found
        rate = self._rates.setdefault(sensor, _Rate())
        rate.record(value, now_ms, self.window_ms, self.samples)
        measured = rate.rate(now_ms, self.window_ms, self.samples)
        if measured <= bound:
            return 0
        window = rate.window_ms(now_ms, self.window_ms, self.samples)
        throttle = int((measured - bound) / bound * window)
        # the request quota's throttle is at most one window (ClientRequestQuotaManager)
        return min(throttle, self.window_ms if kind == REQUEST else self.window_ms * self.samples)

    def record_request_time(self, user: str, client_id: str, seconds: float, now_ms: int) -> int:
        """A request's handling time against request_percentage (100 = one thread all the time)."""
        return self.record(REQUEST, user, client_id, seconds * 100.0, now_ms)

    def record_connection(self, host: str, now_ms: int) -> int:
        """A new connection from ``host`` against its connection_creation_rate: the ms to hold it
        before closing it unserved (0: serve it)."""
        quotas = self.quotas()
        if not quotas:
            return 0
        bound = quotas.get(((IP, host),), {}).get(CONNECTION) or quotas.get(((IP, None),), {}).get(CONNECTION)
        if bound is None:
            return 0
        rate = self._rates.setdefault((CONNECTION, ((IP, host),)), _Rate())
        rate.record(1.0, now_ms, self.window_ms, self.samples)
        measured = rate.rate(now_ms, self.window_ms, self.samples)
        if measured <= bound:
            return 0
        rate.record(-1.0, now_ms, self.window_ms, self.samples)  # not accepted, so not counted
        window = rate.window_ms(now_ms, self.window_ms, self.samples)
        return min(int((measured - bound) / bound * window), self.window_ms)

    def mutation_quota(self, user: str, client_id: str, strict: bool, now_ms: int) -> MutationQuota:
        """The controller mutation quota of one request (strict from CreateTopics v6,
        CreatePartitions v3, DeleteTopics v5 on, as Kafka)."""
        found = self._bound(MUTATION, user, client_id)
        if found is None:
            return UNBOUNDED
        sensor, rate = found
        burst = self.samples * self.window_ms / 1000.0 * rate
        bucket = self._buckets.get(sensor)
        if bucket is None:
            bucket = self._buckets[sensor] = _TokenBucket(burst, now_ms)  # starts full, as Kafka's
        return MutationQuota(bucket, rate, burst, strict)


# ---------------------------------------------------------------- replication quotas (KIP-73)

LEADER_RATE, FOLLOWER_RATE = "leader.replication.throttled.rate", "follower.replication.throttled.rate"
LEADER_REPLICAS, FOLLOWER_REPLICAS = "leader.replication.throttled.replicas", "follower.replication.throttled.replicas"
ALL_REPLICAS = None


@functools.lru_cache(maxsize=4096)
def throttled_partitions(value: str, broker_id: int) -> frozenset[int] | None:
    """A topic's ``*.replication.throttled.replicas`` as Kafka's parseThrottledPartitions reads it
    on ``broker_id``: the partitions listed with this broker ("partition:broker,..."), or
    ALL_REPLICAS for "*"."""
    value = value.strip()
    if value == "*":
        return ALL_REPLICAS
    out = set()
    for entry in value.split(","):
        partition, _, broker = entry.strip().partition(":")
        if broker.strip() == str(broker_id):
            out.add(int(partition))
    return frozenset(out)


class ReplicationQuota:
    """One side (leader or follower) of a broker's replication quota, as Kafka's
    ReplicationQuotaManager: a byte Rate over replication.quota.window.num samples of
    replication.quota.window.size.seconds, exceeded when over the broker's throttled rate."""

    def __init__(self, window_ms: int = 1000, samples: int = 11):
        self.window_ms = window_ms
        self.samples = samples
        self._rate = _Rate()

    def exceeded(self, bound: float, now_ms: int) -> bool:
        return self._rate.rate(now_ms, self.window_ms, self.samples) > bound

    def record(self, nbytes: int, now_ms: int) -> None:
        self._rate.record(nbytes, now_ms, self.window_ms, self.samples)
