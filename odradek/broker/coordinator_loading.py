"""Coordinators follow the leadership of their internal partitions, as Kafka's coordinator runtime
(the metadata publisher's onElection / onResignation): when this node becomes leader of a partition
of __consumer_offsets or __transaction_state, the partition's records are read and replayed into
its coordinator; when it stops leading it, the coordinator's state for it is unloaded.

The state machine is coordinator/partition_loading.py (pure); this drives it from the
ReplicaManager's leadership changes and does the reading. On a cluster the read runs in the
background, a chunk per turn of the event loop (``schedule``), so that a large partition does not
hold up the broker; requests for its keys answer COORDINATOR_LOAD_IN_PROGRESS meanwhile. Without
``schedule`` (a single node) the read is done at once, as at start-up before.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from odradek.broker.coordinator_log import read_into
from odradek.coordinator.partition_loading import CoordinatorPartitions, Load

log = logging.getLogger(__name__)

# how much of the log one background step reads before it yields to the event loop
STEP_BYTES = 4 << 20

# apply(partition, batches [(header, records)] from the log start, log start offset, now_ms)
Apply = Callable[[int, list, int, int], None]


class CoordinatorLoader:
    def __init__(self, topic: str, replicas, partitions: CoordinatorPartitions, apply: Apply,
                 unload: Callable[[int], None], clock_ms: Callable[[], int],
                 schedule: Callable[[float, Callable[[], None]], Any] | None = None, step_bytes: int = STEP_BYTES):
        """``replicas``: the ReplicaManager (``get(topic, partition)``: the log while led here);
        ``apply``: replay a loaded partition into the coordinator; ``unload(partition)``: drop it."""
        self.topic = topic
        self.replicas = replicas
        self.partitions = partitions
        self._apply = apply
        self._unload = unload
        self._clock = clock_ms
        self._schedule = schedule
        self._step_bytes = step_bytes
        self.stopped = False  # stop() ran (a clean stop): nothing more is loaded or unloaded

    def stop(self) -> None:
        """The broker stops, before its logs close (Kafka's coordinator runtime cancels its loads at
        shutdown): a read under way, scheduled on the loop, stops at its next step, and leadership
        changes told from now on load nothing - a load that completes a transaction writes to the
        logs, which a worker is closing."""
        self.stopped = True

    def start(self, leader_epochs: dict[tuple[str, int], int]) -> None:
        """Load every partition of the topic this node leads now ({(topic, partition): epoch})."""
        self.leadership_changed(leader_epochs, {})

    def leadership_changed(self, elected: dict[tuple[str, int], int],
                           resigned: dict[tuple[str, int], int | None]) -> None:
        """ReplicaManager listener: partitions now led here at a (new) leader epoch, and partitions
        no longer led here ({tp: the leader epoch they are followed at, None: gone from here})."""
        if self.stopped:
            return
        for (topic, p), epoch in resigned.items():
            if topic == self.topic and self.partitions.resign(p, epoch):
                log.info("%s-%d: no longer the coordinator (leader epoch %s); unloaded", topic, p, epoch)
                self._unload(p)
        for (topic, p), epoch in sorted(elected.items()):
            if topic != self.topic:
                continue
            load = self.partitions.elect(p, epoch, self._clock())
            if load is None:
                continue
            if self._schedule is None:
                self._read(load, [], -1)
            else:  # not inside the metadata update that elected it
                self._schedule(0, lambda load=load: self._read(load, [], -1))

    def reload(self, partition: int) -> None:
        """The coordinator's state of ``partition`` is out of step with its log (a batch of its
        records could not be written): unload it and, while the partition is still led here, read
        it again (Kafka's coordinator goes FAILED, then LOADING)."""
        if self.stopped:
            return
        epoch = self.partitions.epoch(partition)
        if self.partitions.resign(partition):
            log.warning("%s-%d: the coordinator's state is out of step with its log; reloading", self.topic,
                        partition)
            self._unload(partition)
        if epoch >= 0 and self.replicas.get(self.topic, partition) is not None:
            self.leadership_changed({(self.topic, partition): epoch}, {})

    def _read(self, load: Load, batches: list, offset: int) -> None:
        """Read on from ``offset`` (-1: the log start); reschedule until the log end is reached."""
        if self.stopped or not self.partitions.is_current(load):
            return  # leadership moved meanwhile, or the broker stops: what was read is dropped
        try:
            plog = self.replicas.get(self.topic, load.partition)
            if plog is None:  # not led here after all: not coordinated here (NOT_COORDINATOR)
                self.partitions.failed(load)
                return
            if offset < 0:
                offset = plog.log_start_offset
            read = 0
            while offset < plog.log_end_offset:
                if self._schedule is not None and read >= self._step_bytes:  # on at the loop's next turn
                    self._schedule(0, lambda: self._read(load, batches, offset))
                    return
                offset, n = read_into(plog, offset, batches, plog.log_end_offset)
                if n == 0:
                    log.warning("%s-%d: the load's read stopped at offset %d, before the log end %d", self.topic,
                                load.partition, offset, plog.log_end_offset)
                    break
                read += n
            now = self._clock()
            self._apply(load.partition, batches, plog.log_start_offset, now)
            self.partitions.loaded(load)
            log.info("%s-%d: loaded as coordinator at leader epoch %d in %d ms (%d batches, to offset %d, HW %d)",
                     self.topic, load.partition, load.epoch, now - load.started_ms, len(batches), offset,
                     plog.high_watermark)
        except Exception:
            log.exception("%s-%d: cannot load the coordinator's state; not coordinating it", self.topic,
                          load.partition)
            if self.partitions.is_current(load):
                self.partitions.failed(load)
                self._unload(load.partition)
