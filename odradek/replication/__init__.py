"""Replication of one partition as pure state machines (issue 20): the leader side
(leader.py), the follower side (follower.py), the leader-epoch cache and its checkpoint
format (epoch_cache.py). Nothing here does I/O; drivers in broker/ will carry the actions."""
