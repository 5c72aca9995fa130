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

import os
import sys
import tempfile

import pytest

from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.controller import Controller
from odradek.controller.decisions import CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import LogConfig, LogManager

ME = 1
PARTITIONS = 100  # per topic
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
    """A directory in memory (tmpfs) when there is one: 20,000 partition directories are made
    (the in-memory test filesystem lists a directory by walking every file it holds)."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="odradek-creation-cost-") as d:
            yield d
    else:
        yield str(tmp_path)


def test_creating_the_last_partitions_does_no_work_per_existing_partition(data_dir):
    controller = Controller(os.path.join(data_dir, "meta"), ME, {}, 0)
    logs = LogManager([os.path.join(data_dir, "data")])
    rm = ReplicaManager(logs, ME, lambda topic: LogConfig(), lambda key: 0, lambda: 0)
    controller.add_listener(rm.on_metadata)
    controller.start(BrokerImage(ME, "h", 9092), 0)
    rm.start(controller.image)
    made = 0

    def create(n: int) -> None:
        nonlocal made
        for _ in range(n // PARTITIONS):
            name = f"t{made // PARTITIONS:05d}"
            res = controller.create_topics([CreateTopicSpec(name, PARTITIONS, 1)], False, 0)
            assert [r.error_code for r in res] == [0]
            made += PARTITIONS

    create(WINDOW)  # the first ones (imports, first uses)
    with LineCount() as early:
        create(WINDOW)
    create(TOTAL - WINDOW - made)
    assert made == TOTAL - WINDOW
    with LineCount() as late:
        create(WINDOW)
    assert made == TOTAL
    assert len(logs.list()) == TOTAL and len(rm.leaders) == TOTAL
    assert all(rm.get(f"t{i // PARTITIONS:05d}", i % PARTITIONS) is not None for i in range(0, TOTAL, 997))
    assert late.lines <= early.lines * 1.05, (early.lines, late.lines)
