"""What the hot paths count for /metrics: Yammer's percentiles, Kafka's request names."""

from __future__ import annotations

from odradek.broker.stats import RESERVOIR, RequestStats, TopicStats, api_name, quantile
from odradek.wire.messages.fetch_request import FetchRequest, ReplicaState


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
    s.record(1, 17, False, 3.0, 1.0, 2.0, 0.0)
    s.record(1, 17, True, 5.0, 1.0, 4.0, 0.0)
    s.record(0, 11, False, 1.0, 1.0, 0.0, 0.0)
    assert s.requests == {("Fetch", 17): 2, ("FetchConsumer", 17): 1, ("FetchFollower", 17): 1, ("Produce", 11): 1}
    total = s.timers[("Fetch", "totaltimems")]
    assert (total.count, total.total) == (2, 8.0)
    assert s.timers[("FetchFollower", "remotetimems")].total == 4.0


def test_reservoir_is_bounded():
    s = RequestStats()
    for i in range(RESERVOIR * 3):
        s.record(0, 11, False, float(i), 0.0, 0.0, 0.0)
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
