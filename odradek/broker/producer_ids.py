"""Producer id allocation that never hands out an id twice, across restarts.

Ids come in blocks (as Kafka's controller hands out ProducerIdsRecord blocks); the
end of the current block is made durable before any id from it is used.
"""

from __future__ import annotations

import os

BLOCK_SIZE = 1000


class ProducerIdAllocator:
    def __init__(self, path: str):
        self.path = path
        self._next = 0
        self._end = 0
        if os.path.exists(path):
            with open(path) as f:
                text = f.read().strip()
            if text:
                self._next = self._end = int(text)

    def allocate(self) -> int:
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
