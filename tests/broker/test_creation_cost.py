"""Creating partitions costs what is created, not what exists (issue 28). In process: a single
node's controller, its replica manager and log manager (in-memory files) create 20,000
partitions in topics of 100; the Python lines run to create 1,000 partitions (ten topics, one
CreateTopics each) are counted once 1,000 exist and again once 19,000 exist. A pass over every
partition or topic per created partition (the log dir count, a walk of the image, of every log)
would make the second count about 19 times the first: it must stay within a few percent.
Counted, not timed. (What runs in C, such as the one copy of the image's topic maps per
metadata change, is not counted: it is one memcpy per CreateTopics, not Python work per
partition.)"""
from __future__ import annotations

import sys

import pytest

from single_node import PARTITIONS, SingleNode, memory_dir

TOTAL = 20_000
WINDOW = 1_000


class LineCount:
    """Python lines executed while active (sys.settrace)."""

    def __init__(self):
        self.lines = 0

    def _trace(self, frame, event, arg):
        if event == "line":
            self.lines += 1
        return self._trace

    def __enter__(self):
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc):
        sys.settrace(None)


@pytest.fixture
def data_dir(tmp_path):
    """20,000 partition directories are made (the in-memory test filesystem lists a directory
    by walking every file it holds): tmpfs when there is one."""
    with memory_dir(str(tmp_path), "odradek-creation-cost-") as d:
        yield d


def test_creating_the_last_partitions_does_no_work_per_existing_partition(data_dir):
    node = SingleNode(data_dir)
    logs, rm, create = node.logs, node.rm, node.create
    create(WINDOW)  # the first ones (imports, first uses)
    with LineCount() as early:
        create(WINDOW)
    create(TOTAL - WINDOW - node.made)
    assert node.made == TOTAL - WINDOW
    with LineCount() as late:
        create(WINDOW)
    assert node.made == TOTAL
    assert len(logs.list()) == TOTAL and len(rm.leaders) == TOTAL
    assert all(rm.get(f"t{i // PARTITIONS:05d}", i % PARTITIONS) is not None for i in range(0, TOTAL, 997))
    assert late.lines <= early.lines * 1.05, (early.lines, late.lines)
