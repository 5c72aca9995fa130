"""Replication of one partition as pure state machines (issue 20): the leader side
(leader.py), the follower side (follower.py), which use the log's leader-epoch cache
(odradek/log/leader_epoch_cache.py). Nothing here does I/O; drivers in broker/ will carry
the actions."""
