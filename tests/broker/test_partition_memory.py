"""Memory per partition (issue 28: a broker with 100,000 partitions within 0.2x Kafka's RSS). In
process, a single node's controller, replica manager and log manager create partitions; the
bytes they keep (tracemalloc, each allocation charged to the odradek module nearest to it) stay
within a budget per layer. What the budgets catch: a PartitionLog with a dict of its own (more
than CPython's 30 shared instance attributes: about 1.3 KB more a log), a leader object per
partition beyond its few slots (about 750 B more), an epoch cache or ISR set per partition
instead of shared ones, an image partition with tuples of its own, a metadata log that keeps
each applied record's value or bytes (once applied, its batches hold offsets and epochs only).
Counted, not timed."""
from __future__ import annotations

import gc
import os
import tracemalloc

import pytest

from single_node import PARTITIONS, SingleNode, memory_dir

MEASURED = 1_000
# bytes per partition (measured at 1,000: log 664, leaders 242, image 179, metadata log 2; they
# include the growth of the tables keyed by partition, which is lumpy at this size). The metadata
# log was 199 while its batches kept their values and bytes after being applied; the log 758 with
# a ParkWatch object per log and a dict per topic.
BUDGET = {"log": 720, "leaders": 320, "image": 230, "metadata log": 40}


def area(filename: str) -> str | None:
    path = filename.replace(os.sep, "/")
    if "/odradek/log/" in path:
        return "log"
    if "/odradek/replication/" in path or path.endswith("/odradek/broker/replica_manager.py"):
        return "leaders"
    if path.endswith("/odradek/controller/image.py"):
        return "image"
    if "/odradek/raft/" in path or path.endswith("/odradek/controller/metadata_log.py"):
        return "metadata log"
    return None


@pytest.fixture
def data_dir(tmp_path):
    """1,200 partitions each write and fsync small files: tmpfs when there is one."""
    with memory_dir(str(tmp_path), "odradek-partition-memory-") as d:
        yield d


def test_the_bytes_kept_per_partition_stay_within_each_layers_budget(data_dir):
    node = SingleNode(data_dir)
    logs, rm, create = node.logs, node.rm, node.create
    create(2 * PARTITIONS)  # (first uses, the allocator's first pools)
    logs.write_pending_state()
    gc.collect()
    tracemalloc.start(6)
    try:
        before = tracemalloc.take_snapshot()
        create(MEASURED)
        logs.write_pending_state()  # (each new log's first leader epoch, as the broker's background pass)
        logs.flush_dirty(10_000)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    kept: dict[str, int] = {}
    for stat in after.compare_to(before, "traceback"):
        where = next((a for a in (area(f.filename) for f in reversed(stat.traceback)) if a is not None), None)
        if where is not None:
            kept[where] = kept.get(where, 0) + stat.size_diff
    per = {k: v / MEASURED for k, v in kept.items()}
    assert len(rm.leaders) == node.made and all(lg.hollow for lg in logs)
    assert rm.get("t00003", 17) is not None and rm.leader_epoch("t00003", 17) == 0
    for name, budget in BUDGET.items():
        assert per.get(name, 0) <= budget, (name, per)
