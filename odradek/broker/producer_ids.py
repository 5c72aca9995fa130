"""Producer id allocation that never hands out an id twice, across restarts.

Ids come in blocks (as Kafka's controller hands out ProducerIdsRecord blocks); the
end of the current block is made durable before any id from it is used.

In a cluster every broker allocates on its own, so each takes ids from its own range,
``node.id * 2**32`` up (Kafka asks the controller, AllocateProducerIds; without that,
two brokers handed out the same ids, and a partition took one producer's batch for the
other's: OUT_OF_ORDER_SEQUENCE_NUMBER, or a new batch acknowledged as a duplicate and
never written). A single node keeps the range from 0.
"""

from __future__ import annotations

import os

BLOCK_SIZE = 1000
RANGE_BITS = 32


def cluster_range(node_id: int) -> tuple[int, int]:
    """[first, end) of the ids a cluster broker hands out."""
    return node_id << RANGE_BITS, (node_id + 1) << RANGE_BITS


class ProducerIdAllocator:
    def __init__(self, path: str, id_range: tuple[int, int] = (0, 1 << 63)):
        self.path = path
        self._first, self._limit = id_range
        self._next = self._end = self._first
        if os.path.exists(path):
            with open(path) as f:
                text = f.read().strip()
            if text:
                # an id below the range was handed out before ranges (a cluster broker of an
                # older odradek, counting from 0): the range starts above any of those
                self._next = self._end = max(int(text), self._first)

    def allocate(self) -> int:
        if self._next >= self._limit:
            raise RuntimeError("producer id range exhausted")
        if self._next >= self._end:
            end = self._next + BLOCK_SIZE
            tmp = self.path + ".tmp"
            with open(tmp, "w") as f:
                f.write(f"{end}\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
            self._end = end
        pid = self._next
        self._next += 1
        return pid
