"""What the hot paths count for the metrics (broker/metrics.py shows them): plain counters and
bounded sample reservoirs, no I/O and no library, so counting costs a few dictionary updates."""

from __future__ import annotations

import math
from collections import deque

from odradek.wire import messages

# Yammer's histograms (Kafka's request metrics) keep a reservoir of 1028 samples and
# report these percentiles (the exporter turns "99thPercentile" into quantile "0.99")
RESERVOIR = 1028
QUANTILES = ((0.50, "0.50"), (0.75, "0.75"), (0.95, "0.95"), (0.98, "0.98"), (0.99, "0.99"), (0.999, "0.999"))
COMPONENTS = ("totaltimems", "localtimems", "remotetimems", "responsesendtimems")
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
        self.timers: dict[tuple[str, str], _Timer] = {}
        self.parked: dict[str, int] = {}

    def names(self, api_key: int, follower: bool) -> tuple[str, ...]:
        name = api_name(api_key)
        if api_key == FETCH:
            return (name, "FetchFollower" if follower else "FetchConsumer")
        return (name,)

    def record(self, api_key: int, version: int, follower: bool, total_ms: float, local_ms: float,
               remote_ms: float, send_ms: float) -> None:
        for name in self.names(api_key, follower):
            key = (name, version)
            self.requests[key] = self.requests.get(key, 0) + 1
            for comp, ms in zip(COMPONENTS, (total_ms, local_ms, remote_ms, send_ms)):
                t = self.timers.get((name, comp))
                if t is None:
                    t = self.timers[(name, comp)] = _Timer()
                t.add(ms)

    def park(self, api_key: int, delta: int) -> None:
        op = PURGATORY_OF.get(api_key)
        if op is not None:
            self.parked[op] = self.parked.get(op, 0) + delta


def is_follower_fetch(body) -> bool:
    """A Fetch from a replica (Kafka's FetchRequest.isFromFollower): replica_id, or from v15 the
    replica state's, names a broker."""
    return body.replica_id >= 0 or body.replica_state.replica_id >= 0


def observe_request(stats: RequestStats, topics: TopicStats | None, image, api_key: int, version: int, body,
                    resp, started: float, handled: float, answered: float, sent: float) -> None:
    """Count one answered request: its time components (seconds from time.perf_counter) and,
    for a consumer's Fetch, the record bytes sent per topic (Kafka's BytesOutPerSec)."""
    follower = api_key == FETCH and is_follower_fetch(body)
    stats.record(api_key, version, follower, (sent - started) * 1000, (handled - started) * 1000,
                 (answered - handled) * 1000, (sent - answered) * 1000)
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
