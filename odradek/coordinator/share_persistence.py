"""Share groups' persistence (KIP-932), beside the share coordinator: what it changed, as records
or share-state writes, and where they go.

Where (as Kafka): each share group's epoch is a ShareGroupMetadata record in __consumer_offsets
(partition of the group id, as every group record), written here through a CoordinatorLog port;
each share-partition's state (SPSO and in-flight record states) goes to the share coordinator of
its key (coordinator/share_coordinator.py, on the leader of its __share_group_state partition)
through the ``StateWriter`` port: the broker's persister (broker/share_persister.py), which writes
locally when this node is that coordinator and sends WriteShareGroupState otherwise.

Pure: the broker wires the ports and calls persist on its tick, and after every request that
changed share state (acknowledgements are persisted before their response).

Start-up: the group coordinator's replay of __consumer_offsets hands each record to
``replay_group_record`` (share group epochs); share-partition states are read from the share
coordinator when a share-partition leader first needs them.
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

from . import share_state
from .share_group_coordinator import ShareGroupCoordinator


class GroupLog(Protocol):
    def append(self, partition: int, records: list[tuple[bytes, bytes | None]], now_ms: int) -> int: ...

    def read(self, partition: int) -> Iterable[tuple[int, bytes | None, bytes | None]]: ...

    def has_partition(self, partition: int) -> bool: ...


class StateWriter(Protocol):
    def write_state(self, key: tuple, start_offset: int | None, batches: list, now_ms: int,
                    state_epoch: int = 0) -> None:
        """The share-partition ``key`` (group, topic id, partition) now has this state (start_offset
        None: deleted), at this state epoch. Raises when it cannot be written now (the change stays
        pending)."""

    def defer(self, key: tuple) -> None:
        """The key's state cannot be written yet (__share_group_state is on its way): what waits for
        it being stored (an acknowledgement) waits for its next write."""


class SharePersistence:
    def __init__(self, shares: ShareGroupCoordinator, offsets_log: GroupLog, state: StateWriter,
                 offsets_partition_for: Callable[[str], int | None], state_partitions: Callable[[], int | None],
                 ensure_state_topic: Callable[[], bool]):
        """offsets_partition_for(group_id): its __consumer_offsets partition (None: no group
        coordinator yet); state_partitions(): the partition count of __share_group_state, None while
        it does not exist; ensure_state_topic(): create it if needed, True once it exists."""
        self.shares = shares
        self.offsets_log = offsets_log
        self.state = state
        self.offsets_partition_for = offsets_partition_for
        self.state_partitions = state_partitions
        self.ensure_state_topic = ensure_state_topic

    def replay_group_record(self, key: bytes | None, value: bytes | None) -> None:
        """One record of the __consumer_offsets replay: a share group's epoch (others are ignored)."""
        d = share_state.decode_group_metadata(key, value)
        if d is not None:
            self.shares.restore_group(*d)
            return
        i = share_state.decode_initialized(key, value)
        if i is not None:
            self.shares.restore_initialized(*i)

    def persist(self, now_ms: int) -> None:
        """Write what changed in share groups and is not written yet. A group partition's epochs go
        as one append; each share-partition's state as one write. What was written is marked so
        only once it went; a failure (raised to the caller) leaves the rest pending for the next call."""
        sg = self.shares
        if not sg.has_changes():
            return
        groups, parts = sg.changes()
        by_partition: dict[int, list] = {}
        for entry in groups:
            partition = self.offsets_partition_for(entry[0])
            if partition is not None:  # else no group coordinator yet (a quorum broker starting)
                by_partition.setdefault(partition, []).append(entry)
        for partition, entries in by_partition.items():
            if self.offsets_log.has_partition(partition):
                records = []
                for gid, epoch, h, initialized, initializing in entries:  # the epoch, then the partitions
                    records.append((share_state.group_metadata_key(gid), None if epoch is None else
                                    share_state.group_metadata_value(epoch, h)))
                    records.append((share_state.initialized_key(gid), None if epoch is None else
                                    share_state.initialized_value(initialized, initializing)))
                self.offsets_log.append(partition, records, now_ms)
            sg.persisted(entries, [])  # (led elsewhere: not this broker's to write)
        if not parts:
            return
        if (any(sp is not None for _, sp in parts) and not self.ensure_state_topic()) \
                or self.state_partitions() is None:
            for key, _ in parts:  # a quorum broker: the topic is on its way; written once it is there
                self.state.defer(key)
            return
        for key, sp in parts:
            if sp is None:
                self.state.write_state(key, None, [], now_ms)
            else:
                self.state.write_state(key, sp.start_offset, sp.state_batches(), now_ms, sp.state_epoch)
            sg.persisted([], [(key, sp)])
