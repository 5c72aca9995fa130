"""What the hot paths count for the metrics (broker/metrics.py shows them): plain counters and
bounded sample reservoirs, no I/O and no library, so counting costs a few dictionary updates."""

from __future__ import annotations

import math
import time
from collections import deque
from operator import add
from collections.abc import Callable

from odradek.security.quotas import FETCH as FETCH_RATE
from odradek.security.quotas import USER, quota_entity
from odradek.wire import messages

# Yammer's histograms (Kafka's request metrics) keep a reservoir of 1028 samples and
# report these percentiles (the exporter turns "99thPercentile" into quantile "0.99")
RESERVOIR = 1028
QUANTILES = ((0.50, "0.50"), (0.75, "0.75"), (0.95, "0.95"), (0.98, "0.98"), (0.99, "0.99"), (0.999, "0.999"))
# Kafka's RequestMetrics time histograms, in the order a request goes through them
# (RequestChannel.Request.updateRequestMetrics). The total runs from the frame's arrival to the
# end of the response's write; the throttle time follows it (the channel is muted after, KIP-219).
COMPONENTS = ("requestqueuetimems", "localtimems", "remotetimems", "throttletimems", "responsequeuetimems",
              "responsesendtimems", "totaltimems")
FETCH, PRODUCE = 1, 0
# Kafka 4.3's DelayedOperationPurgatory names, by the API whose requests wait there (the other
# APIs' waits, e.g. JoinGroup's, are not in a purgatory on Kafka 4.3: its group coordinator runtime)
PURGATORIES = ("AlterAcls", "DeleteRecords", "Fetch", "Produce", "RemoteFetch", "RemoteListOffsets", "ShareFetch")
PURGATORY_OF = {0: "Produce", 1: "Fetch", 21: "DeleteRecords", 78: "ShareFetch"}


def api_name(api_key: int) -> str:
    """Kafka's ApiKeys name of an API ("Produce", "ListOffsets"...)."""
    name = messages.REQUEST_BY_KEY.get(api_key)
    return name[: -len("Request")] if name else str(api_key)


class TopicStats:
    """Kafka's BrokerTopicStats: per topic and for all topics (the "" key)."""

    def __init__(self):
        self.messages_in: dict[str, int] = {}
        self.bytes_in: dict[str, int] = {}
        self.bytes_out: dict[str, int] = {}
        self.produce_requests: dict[str, int] = {}
        self.isr_shrinks = 0
        self.isr_expands = 0

    def appended(self, topic: str, records: int, nbytes: int) -> None:
        """A leader append from a client or a coordinator (not a follower's)."""
        mi, bi = self.messages_in, self.bytes_in
        mi[topic] = mi.get(topic, 0) + records
        mi[""] = mi.get("", 0) + records
        bi[topic] = bi.get(topic, 0) + nbytes
        bi[""] = bi.get("", 0) + nbytes

    def produce_request(self, topic: str) -> None:
        pr = self.produce_requests
        pr[topic] = pr.get(topic, 0) + 1
        pr[""] = pr.get("", 0) + 1

    def isr_change(self, shrink: bool) -> None:
        """An ISR change this broker proposed as a partition's leader (IsrShrinks/IsrExpandsPerSec)."""
        if shrink:
            self.isr_shrinks += 1
        else:
            self.isr_expands += 1

    def sent(self, topic: str, nbytes: int) -> None:
        """Record bytes of a consumer's fetch response (followers count as replication)."""
        bo = self.bytes_out
        bo[topic] = bo.get(topic, 0) + nbytes
        bo[""] = bo.get("", 0) + nbytes


class _Timer:
    __slots__ = ("samples", "count", "total")

    def __init__(self):
        self.samples: deque[float] = deque(maxlen=RESERVOIR)
        self.count = 0
        self.total = 0.0

    def add(self, ms: float) -> None:
        self.samples.append(ms)
        self.count += 1
        self.total += ms


class _RequestTimes:
    """The time components of one request name, kept together: one reservoir of tuples (in
    COMPONENTS' order), one count and the running totals - a request costs one append, not one
    per component."""
    __slots__ = ("samples", "count", "totals")

    def __init__(self):
        self.samples: deque[tuple[float, ...]] = deque(maxlen=RESERVOIR)
        self.count = 0
        self.totals: list[float] = [0.0] * len(COMPONENTS)

    def add(self, times_ms: tuple[float, ...]) -> None:
        self.samples.append(times_ms)
        self.count += 1
        self.totals = list(map(add, self.totals, times_ms))


class _Component:
    """One component of a request name's times, read as a timer (samples, count, total)."""
    __slots__ = ("times", "index")

    def __init__(self, times: _RequestTimes, index: int):
        self.times, self.index = times, index

    @property
    def samples(self) -> list[float]:
        i = self.index
        return [t[i] for t in self.times.samples]

    @property
    def count(self) -> int:
        return self.times.count

    @property
    def total(self) -> float:
        return self.times.totals[self.index]


def quantile(sorted_values: list[float], q: float) -> float:
    """Yammer's Snapshot.getValue: position q*(n+1), linear between neighbours."""
    n = len(sorted_values)
    if n == 0:
        return 0.0
    pos = q * (n + 1)
    if pos < 1:
        return sorted_values[0]
    if pos >= n:
        return sorted_values[-1]
    lower = sorted_values[int(pos) - 1]
    upper = sorted_values[int(pos)]
    return lower + (pos - math.floor(pos)) * (upper - lower)


class RequestStats:
    """Kafka's RequestMetrics: requests by name and version, and the time components of each
    request by name (a Fetch counts under "Fetch" and "FetchConsumer" or "FetchFollower")."""

    def __init__(self):
        self.requests: dict[tuple[str, int], int] = {}
        self.timers: dict[tuple[str, str], _Component] = {}  # (name, component) -> its view of _times
        self._times: dict[str, _RequestTimes] = {}
        self._names: dict[tuple[int, bool], tuple[str, ...]] = {}
        self.parked: dict[str, int] = {}
        self.auth_ok: dict[str, int] = {}
        self.auth_failed: dict[str, int] = {}
        self.throttles = ThrottleStats()

    def names(self, api_key: int, follower: bool) -> tuple[str, ...]:
        names = self._names.get((api_key, follower))
        if names is None:
            name = api_name(api_key)
            names = (name, "FetchFollower" if follower else "FetchConsumer") if api_key == FETCH else (name,)
            self._names[(api_key, follower)] = names
        return names

    def record(self, api_key: int, version: int, follower: bool, times_ms: tuple[float, ...]) -> None:
        """One answered request: ``times_ms`` in COMPONENTS' order."""
        requests = self.requests
        for name in self.names(api_key, follower):
            key = (name, version)
            requests[key] = requests.get(key, 0) + 1
            times = self._times.get(name)
            if times is None:
                times = self._times[name] = _RequestTimes()
                for i, comp in enumerate(COMPONENTS):
                    self.timers[(name, comp)] = _Component(times, i)
            times.add(times_ms)

    def authenticated(self, listener: str, ok: bool) -> None:
        """A SASL authentication that succeeded or failed on ``listener`` (Kafka's
        socket-server-metrics successful-/failed-authentication-total)."""
        by = self.auth_ok if ok else self.auth_failed
        by[listener] = by.get(listener, 0) + 1

    def park(self, api_key: int, delta: int) -> None:
        op = PURGATORY_OF.get(api_key)
        if op is not None:
            self.parked[op] = self.parked.get(op, 0) + delta


class LogStats:
    """Kafka's LogFlushStats timer (LogFlushRateAndTimeMs: every flush of a log, fsync included,
    timed; the LogManager's flush observer) and how long the log cleaner's last pass took
    (LogCleaner max-clean-time-secs, a single cleaner here)."""

    def __init__(self):
        self.flush = _Timer()
        self.last_clean_secs = 0.0

    def timed(self, flush: Callable[[], None]) -> None:
        t0 = time.perf_counter()
        try:
            flush()
        finally:
            self.flush.add((time.perf_counter() - t0) * 1000)

    def timed_clean(self, clean: Callable[[int], object], now_ms: int):
        """``clean(now_ms)``'s result (a cleaner pass, run in a worker thread), its time noted
        when it cleaned a log."""
        t0 = time.perf_counter()
        result = clean(now_ms)
        if result is not None:
            self.last_clean_secs = time.perf_counter() - t0
        return result


class CommitLatency:
    """Kafka's raft-metrics commit-latency-avg/-max: on the quorum leader, the time from appending a
    batch of metadata records to the high watermark passing it, over Kafka's default metrics window
    (2 samples of 30 s); NaN with none in the window (a follower, an idle leader)."""

    SPAN_S = 60.0

    def __init__(self):
        self._pending: deque[tuple[int, float]] = deque()  # (last offset, appended at), in order
        self._samples: deque[tuple[float, float]] = deque()  # (committed at, latency ms)

    def appended(self, last_offset: int, now: float) -> None:
        self._pending.append((last_offset, now))

    def committed(self, high_watermark: int, now: float) -> None:
        p = self._pending
        while p and p[0][0] < high_watermark:
            _, t = p.popleft()
            self._samples.append((now, (now - t) * 1000))

    def not_leader(self) -> None:
        """Leadership lost: what was appended is no longer this node's to commit."""
        self._pending.clear()

    def avg_max(self, now: float) -> tuple[float, float]:
        s = self._samples
        while s and now - s[0][0] >= self.SPAN_S:
            s.popleft()
        if not s:
            return math.nan, math.nan
        values = [ms for _, ms in s]
        return sum(values) / len(values), max(values)


class ThrottleStats:
    """Kafka's quota sensors' ``throttle-time``: per client under a produce or fetch byte-rate
    quota, the average throttle time (ms, 0 when not throttled) of its requests over the quota
    window (an Avg over quota.window.num samples of quota.window.size.seconds; NaN once a client
    has none left). Labelled as the JMX exporter names the sensor's tags: user and/or client id,
    as the quota entry that bounds the client has them."""

    def __init__(self, window_ms: int = 1000, samples: int = 11):
        self.span_ms = window_ms * samples
        self.samples: dict[tuple[str, tuple[tuple[str, str], ...]], deque[tuple[int, int]]] = {}
        # the sensor of each (kind, user, client id), for the quotas mapping it was found in (the
        # image's: a new one when a quota changes); None: not under a quota
        self._quotas = None
        self._sensors: dict[tuple[str, str, str], tuple | None] = {}

    def record(self, quotas, kind: str, user: str, client_id: str, throttle_ms: int, now_ms: int) -> None:
        if not quotas:
            return  # no quota at all (most brokers): nothing to find
        if quotas is not self._quotas:
            self._quotas, self._sensors = quotas, {}
        who = (kind, user, client_id)
        key = self._sensors.get(who, False)
        if key is False:
            found = quota_entity(quotas, kind, user, client_id)
            key = None
            if found is not None:
                labels = tuple(sorted(("user", user) if t == USER else ("clientId", client_id) for t, _ in found[0]))
                key = ("Fetch" if kind == FETCH_RATE else "Produce", labels)
            self._sensors[who] = key
        if key is None:
            return  # not under a quota
        d = self.samples.get(key)
        if d is None:
            d = self.samples[key] = deque()
        d.append((now_ms, throttle_ms))

    def expire(self, now_ms: int, idle_ms: int) -> None:
        """Forget the clients with no request for ``idle_ms`` (their sensor expired, as Kafka's
        quota sensors: the metric goes with it)."""
        self.samples = {k: d for k, d in self.samples.items() if d and now_ms - d[-1][0] < idle_ms}
        self._sensors = {}

    def averages(self, now_ms: int):
        """(resource, labels, average throttle ms) of every client seen."""
        for (resource, labels), d in sorted(self.samples.items()):
            while d and now_ms - d[0][0] >= self.span_ms:
                d.popleft()
            yield resource, dict(labels), (sum(ms for _, ms in d) / len(d)) if d else math.nan


def is_follower_fetch(body) -> bool:
    """A Fetch from a replica (Kafka's FetchRequest.isFromFollower): replica_id, or from v15 the
    replica state's, names a broker."""
    return body.replica_id >= 0 or body.replica_state.replica_id >= 0


def observe_request(stats: RequestStats, topics: TopicStats | None, image, api_key: int, version: int, body,
                    resp, queued: float, started: float, handled: float, answered: float, sent: float,
                    throttle_ms: int) -> None:
    """Count one answered request: its time components (from time.perf_counter, in seconds:
    queued when its frame was complete, started when its handler began, handled when the
    handler returned, answered when its response was ready and written at once, sent when the
    write was done: odradek has no response queue, so Kafka's ResponseQueueTimeMs is 0) and, for a consumer's Fetch, the record bytes sent per
    topic (Kafka's BytesOutPerSec). The connection is muted for ``throttle_ms`` after sending
    (KIP-219): Kafka's ThrottleTimeMs is that time, and its TotalTimeMs does not include it."""
    follower = api_key == FETCH and is_follower_fetch(body)
    stats.record(api_key, version, follower,
                 ((started - queued) * 1000, (handled - started) * 1000, (answered - handled) * 1000, throttle_ms,
                  0.0, (sent - answered) * 1000, (sent - queued) * 1000))
    if api_key != FETCH or follower or topics is None:
        return
    for t in resp.responses:
        name = t.topic
        if not name:
            ti = image.topic_by_id(t.topic_id)
            if ti is None:
                continue
            name = ti.name
        for p in t.partitions:
            n = len(p.records) if p.records is not None else 0
            if n:
                topics.sent(name, n)
