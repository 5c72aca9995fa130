"""A single node's controller, replica manager and log manager in process, creating partitions
in topics of 100, over a directory in memory (tmpfs) when there is one: the tests that create
thousands of partitions (test_creation_cost, test_partition_memory)."""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Iterator

from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.controller import Controller
from odradek.controller.decisions import CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log import LogConfig, LogManager

ME = 1
PARTITIONS = 100  # per topic


@contextlib.contextmanager
def memory_dir(fallback: str, prefix: str) -> Iterator[str]:
    """A directory in memory (/dev/shm) when there is one, else ``fallback``: thousands of partition
    directories, each with small files written and fsynced."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        with tempfile.TemporaryDirectory(dir="/dev/shm", prefix=prefix) as d:
            yield d
    else:
        yield fallback


class SingleNode:
    def __init__(self, root: str):
        self.controller = Controller(os.path.join(root, "meta"), ME, {}, 0)
        self.logs = LogManager([os.path.join(root, "data")])
        self.rm = ReplicaManager(self.logs, ME, lambda topic: LogConfig(), lambda key: 0, lambda: 0)
        self.controller.add_listener(self.rm.on_metadata)
        self.controller.start(BrokerImage(ME, "h", 9092), 0)
        self.rm.start(self.controller.image)
        self.made = 0

    def create(self, n: int) -> None:
        """``n`` more partitions, in topics t00000, t00001, ... of PARTITIONS each."""
        for _ in range(n // PARTITIONS):
            res = self.controller.create_topics(
                [CreateTopicSpec(f"t{self.made // PARTITIONS:05d}", PARTITIONS, 1)], False, 0)
            assert [r.error_code for r in res] == [0]
            self.made += PARTITIONS
