"""What the hot paths count for /metrics: Yammer's percentiles, Kafka's request names."""

from __future__ import annotations

from odradek.broker.stats import RESERVOIR, RequestStats, TopicStats, api_name, quantile
from odradek.wire.messages.fetch_request import FetchRequest, ReplicaState


def times(total: float = 0.0, local: float = 0.0, remote: float = 0.0, queue: float = 0.0,
          throttle: float = 0.0, send: float = 0.0) -> tuple[float, ...]:
    """The components in COMPONENTS' order."""
    return (queue, local, remote, throttle, 0.0, send, total)


def test_quantile_is_yammers_snapshot_value():
    values = [float(v) for v in range(1, 11)]
    assert quantile(values, 0.5) == 5.5  # position 5.5: between the 5th and 6th
    assert quantile(values, 0.99) == 10.0  # position beyond n: the largest
    assert quantile(values, 0.05) == 1.0  # position below 1: the smallest
    assert quantile([], 0.5) == 0.0


def test_kafka_request_names():
    assert api_name(0) == "Produce" and api_name(18) == "ApiVersions" and api_name(2) == "ListOffsets"


def test_fetch_counts_as_fetch_and_its_kind():
    s = RequestStats()
    s.record(1, 17, False, times(total=3.0, local=1.0, remote=2.0))
    s.record(1, 17, True, times(total=5.0, local=1.0, remote=4.0))
    s.record(0, 11, False, times(total=1.0, local=1.0))
    assert s.requests == {("Fetch", 17): 2, ("FetchConsumer", 17): 1, ("FetchFollower", 17): 1, ("Produce", 11): 1}
    total = s.timers[("Fetch", "totaltimems")]
    assert (total.count, total.total) == (2, 8.0)
    assert s.timers[("FetchFollower", "remotetimems")].total == 4.0


def test_reservoir_is_bounded():
    s = RequestStats()
    for i in range(RESERVOIR * 3):
        s.record(0, 11, False, times(total=float(i)))
    t = s.timers[("Produce", "totaltimems")]
    assert len(t.samples) == RESERVOIR and t.count == RESERVOIR * 3


def test_topic_stats_keep_an_all_topics_total():
    t = TopicStats()
    t.appended("a", 3, 100)
    t.appended("b", 2, 50)
    t.sent("a", 70)
    assert t.messages_in == {"a": 3, "b": 2, "": 5}
    assert t.bytes_in == {"a": 100, "b": 50, "": 150}
    assert t.bytes_out == {"a": 70, "": 70}


def test_follower_fetch_by_replica_id_or_state():
    from odradek.broker.stats import is_follower_fetch

    assert not is_follower_fetch(FetchRequest())
    assert is_follower_fetch(FetchRequest(replica_id=2))
    assert is_follower_fetch(FetchRequest(replica_state=ReplicaState(replica_id=3, replica_epoch=7)))


def test_every_component_is_timed_per_request_name():
    from odradek.broker.stats import COMPONENTS

    s = RequestStats()
    s.record(0, 11, False, times(total=9.0, queue=2.0, local=3.0, remote=1.0, throttle=40.0, send=3.0))
    assert {c: s.timers[("Produce", c)].total for c in COMPONENTS} == {
        "requestqueuetimems": 2.0, "localtimems": 3.0, "remotetimems": 1.0, "throttletimems": 40.0,
        "responsequeuetimems": 0.0, "responsesendtimems": 3.0, "totaltimems": 9.0}


def test_throttle_time_is_an_average_over_the_quota_window_labelled_as_the_quota_entry():
    import math

    from odradek.broker.stats import ThrottleStats
    from odradek.security.quotas import CLIENT_ID, FETCH, PRODUCE, USER

    quotas = {((CLIENT_ID, "slow"),): {PRODUCE: 100.0}, ((USER, None),): {FETCH: 10.0}}
    t = ThrottleStats(window_ms=1000, samples=2)
    t.record(quotas, PRODUCE, "ANONYMOUS", "slow", 0, 1000)
    t.record(quotas, PRODUCE, "ANONYMOUS", "slow", 300, 1500)
    t.record(quotas, FETCH, "alice", "c1", 50, 1500)
    t.record(quotas, PRODUCE, "ANONYMOUS", "free", 0, 1500)  # under no produce quota: not a sensor
    assert list(t.averages(1600)) == [("Fetch", {"user": "alice"}, 50.0),
                                      ("Produce", {"clientId": "slow"}, 150.0)]
    later = dict(((r, tuple(lb.items())), v) for r, lb, v in t.averages(3100))
    assert later[("Produce", (("clientId", "slow"),))] == 300.0  # the sample at 1000 left the window
    assert math.isnan(dict(((r, tuple(lb.items())), v) for r, lb, v in t.averages(9000))[("Fetch", (("user", "alice"),))])
    # an hour without a request: alice's sensor expires (Kafka removes it and its metric); slow stays
    t.record(quotas, PRODUCE, "ANONYMOUS", "slow", 0, 3_600_000)
    t.expire(3_601_600, 3_600_000)
    assert [(r, lb) for r, lb, _ in t.averages(3_601_600)] == [("Produce", {"clientId": "slow"})]


def test_log_stats_time_flushes_and_cleaner_passes():
    from odradek.broker.stats import LogStats

    ls = LogStats()
    ls.timed(lambda: None)
    try:
        ls.timed(lambda: 1 / 0)
    except ZeroDivisionError:
        pass
    assert ls.flush.count == 2  # a failed flush is timed too (Kafka's timer)
    assert ls.timed_clean(lambda now: None, 5) is None and ls.last_clean_secs == 0.0
    assert ls.timed_clean(lambda now: ("log", now), 5) == ("log", 5)


def test_commit_latency_from_append_to_high_watermark_over_the_window():
    import math

    from odradek.broker.stats import CommitLatency

    c = CommitLatency()
    assert all(math.isnan(v) for v in c.avg_max(0.0))
    c.appended(4, 10.0)
    c.appended(9, 10.5)
    c.committed(5, 10.03125)  # offsets up to 4 committed: the first batch, 31.25 ms
    c.committed(10, 10.625)  # the second, 125 ms
    assert c.avg_max(11.0) == (78.125, 125.0)
    c.appended(12, 20.0)
    c.not_leader()  # lost leadership: never counted
    c.committed(13, 20.5)
    assert c.avg_max(69.0) == (78.125, 125.0)
    assert all(math.isnan(v) for v in c.avg_max(71.0))  # out of Kafka's 2 x 30 s window
