"""Produce and fetch byte-rate quotas as Kafka's ClientQuotaManager enforces them, sans-IO.

The quota of a (user, client-id) pair is the first set entry of Kafka's precedence over the
client-quota records (`/config/users/<user>/clients/<client-id>` ... `/config/clients/<default>`);
the clients sharing one quota entry share one rate. A rate is Kafka's Rate over
quota.window.num (11) samples of quota.window.size.seconds (1 s); a request that takes the rate
over the bound is throttled by (rate - bound) / bound * window, at most the whole window span,
as QuotaUtils.throttleTime. The broker puts that in throttle_time_ms and mutes the channel for it
(KIP-219).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

USER, CLIENT_ID = "user", "client-id"
PRODUCE, FETCH = "producer_byte_rate", "consumer_byte_rate"

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


class ClientQuotas:
    def __init__(self, quotas: Callable[[], Mapping[Entity, Mapping[str, float]]], window_ms: int = 1000,
                 samples: int = 11):
        self.quotas = quotas  # the metadata image's client quotas, read at each request
        self.window_ms = window_ms
        self.samples = samples
        self._rates: dict[tuple[str, Entity], _Rate] = {}

    def unrecord(self, kind: str, user: str, client_id: str, nbytes: int, now_ms: int) -> None:
        """Take back bytes that were not sent (a throttled fetch gets an empty response), as
        Kafka's unrecordQuotaSensor."""
        self.record(kind, user, client_id, -nbytes, now_ms)

    def record(self, kind: str, user: str, client_id: str, nbytes: int, now_ms: int) -> int:
        """Count ``nbytes`` of a produce request (or fetch response); the throttle time in ms."""
        found = quota_entity(self.quotas(), kind, user, client_id)
        if found is None:
            return 0
        entity, bound = found
        if bound <= 0:
            bound = 1.0
        # the sensor of the quota entry, named by the actual user/client when the entry is a default
        sensor = (kind, tuple((t, n if n is not None else (user if t == USER else client_id)) for t, n in entity))
        rate = self._rates.setdefault(sensor, _Rate())
        rate.record(nbytes, now_ms, self.window_ms, self.samples)
        value = rate.rate(now_ms, self.window_ms, self.samples)
        if value <= bound:
            return 0
        window = rate.window_ms(now_ms, self.window_ms, self.samples)
        throttle = int((value - bound) / bound * window)
        return min(throttle, self.window_ms * self.samples)
