"""Fetch from followers (KIP-392): which replica a consumer should read from.

Kafka's ReplicaManager.findPreferredReadReplica with its RackAwareReplicaSelector (the
broker's replica.selector.class; without it the leader serves every consumer), as a
pure function of what the leader knows. Candidates are the leader and each follower in the
ISR whose log holds the fetch offset (log start <= offset <= log end). A client with a
rack id is sent to a candidate in its rack: the leader when it is in that rack, else the
one with the greatest log end offset (ties: the most recently caught up). No rack, or no
candidate in it: the leader. The leader itself is never named as the preferred replica
(-1: read here).
"""

from __future__ import annotations

from typing import Mapping

from .leader import FollowerProgress

NO_PREFERRED = -1


def preferred_read_replica(leader_id: int, isr: frozenset[int],
                           followers: Mapping[int, FollowerProgress], racks: Mapping[int, str | None],
                           client_rack: str | None, fetch_offset: int, now_ms: int) -> int:
    """The follower id the consumer should fetch from, or NO_PREFERRED (the leader serves).
    ``racks``: broker id -> broker.rack of the brokers the metadata knows."""
    if not client_rack:
        return NO_PREFERRED
    if racks.get(leader_id) == client_rack:
        return NO_PREFERRED
    best, best_key = NO_PREFERRED, None
    for rid, f in sorted(followers.items()):
        if rid not in isr or rid not in racks or racks[rid] != client_rack:
            continue
        if not (f.log_start_offset <= fetch_offset <= f.log_end_offset):
            continue
        key = (f.log_end_offset, -(now_ms - f.last_caught_up_ms))
        if best_key is None or key > best_key:
            best, best_key = rid, key
    return best
