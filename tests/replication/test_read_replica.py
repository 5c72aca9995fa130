"""Fetch from followers (KIP-392): the preferred read replica as Kafka's
findPreferredReadReplica with RackAwareReplicaSelector decides it."""
from __future__ import annotations

from odradek.replication.leader import FollowerProgress
from odradek.replication.read_replica import preferred_read_replica

RACKS = {1: "r1", 2: "r2", 3: "r2", 4: "r4"}


def fp(rid, leo, start=0, caught_up=0):
    return FollowerProgress(rid, log_end_offset=leo, log_start_offset=start, last_caught_up_ms=caught_up)


def pick(followers, client_rack="r2", offset=5, isr=frozenset({1, 2, 3, 4}), racks=RACKS):
    return preferred_read_replica(1, isr, {f.replica_id: f for f in followers}, racks, client_rack,
                                  offset, 1000)


def test_a_follower_in_the_client_rack_is_preferred():
    assert pick([fp(2, 10), fp(4, 10)]) == 2
    assert pick([fp(2, 10), fp(4, 10)], client_rack="r4") == 4


def test_the_leader_serves_its_own_rack_or_no_rack():
    followers = [fp(2, 10), fp(3, 10)]
    assert pick(followers, client_rack="r1") == -1  # the leader is in the client's rack
    assert pick(followers, client_rack="") == -1 and pick(followers, client_rack=None) == -1
    assert pick(followers, client_rack="r9") == -1  # nobody in that rack


def test_only_isr_members_whose_log_holds_the_offset():
    assert pick([fp(2, 10), fp(3, 10)], isr=frozenset({1, 3})) == 3
    assert pick([fp(2, 10)], isr=frozenset({1})) == -1
    assert pick([fp(2, 4)], offset=5) == -1  # its log ends before the offset
    assert pick([fp(2, 5)], offset=5) == 2  # log end == fetch offset: it can serve (a long poll there)
    assert pick([fp(2, 10, start=6)], offset=5) == -1  # its log starts after the offset
    assert pick([fp(2, -1, start=-1)], offset=0) == -1  # not fetched yet in this leader epoch
    assert pick([fp(2, 10)], racks={1: "r1"}) == -1  # a fenced broker (not in the racks) is not chosen


def test_the_most_caught_up_follower_wins_in_the_rack():
    assert pick([fp(2, 8), fp(3, 10)]) == 3
    assert pick([fp(2, 10), fp(3, 8)]) == 2
    # same log end: the one caught up most recently
    assert pick([fp(2, 10, caught_up=900), fp(3, 10, caught_up=950)]) == 3
    assert pick([fp(2, 10, caught_up=990), fp(3, 10, caught_up=950)]) == 2
