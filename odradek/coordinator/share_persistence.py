"""Share groups' persistence (KIP-932), beside the share coordinator: what it changed, as records
or share-state writes, and where they go.

Where (as Kafka): each share group's epoch is a ShareGroupMetadata record in __consumer_offsets
(partition of the group id, as every group record), written here through a CoordinatorLog port;
each share-partition's state (SPSO and in-flight record states) goes to the share coordinator of
its key (coordinator/share_coordinator.py, on the leader of its __share_group_state partition)
through the ``StateWriter`` port: the broker's persister (broker/share_persister.py), which writes
locally when this node is that coordinator and sends WriteShareGroupState otherwise.

Pure: the broker wires the ports and calls persist on its tick, and after every request that
changed share state. Acknowledgements are written before they change the state (as Kafka's
SharePartition): a share-partition's write carries those staged since its last one and settles them
when answered (share_partition.SharePartition.hand_out / settle): committed once written, rolled back
when the write fails; their answer waits for it.

Start-up: the group coordinator's replay of __consumer_offsets hands each record to
``replay_group_record`` (share group epochs); share-partition states are read from the share
coordinator when a share-partition leader first needs them.
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

from odradek.wire.errors import ErrorCode

from . import share_state
from .errors import CoordinatorError
from .share_group_coordinator import ShareGroupCoordinator

# what settles a write's acknowledgements: called once with its answer (NONE: written) and the time
Settle = Callable[[ErrorCode, int], None]


class GroupLog(Protocol):
    def append(self, partition: int, records: list[tuple[bytes, bytes | None]], now_ms: int) -> int: ...

    def read(self, partition: int) -> Iterable[tuple[int, bytes | None, bytes | None]]: ...

    def has_partition(self, partition: int) -> bool: ...


class StateWriter(Protocol):
    def write_state(self, key: tuple, start_offset: int | None, batches: list, now_ms: int,
                    state_epoch: int = 0, settle: Settle | None = None) -> None:
        """The share-partition ``key`` (group, topic id, partition) now has this state (start_offset
        None: deleted), at this state epoch. Raises when it cannot be written now (the change stays
        pending; ``settle`` is not called). Else ``settle`` (the write carries acknowledgements) is
        called once the write is answered: at once when written here, later when it went to another
        broker (in a cluster, where the answer must wait for the append to be committed, even when
        this node is the key's share coordinator)."""

    def defer(self, key: tuple) -> None:
        """The key's state cannot be written yet (__share_group_state is on its way): what waits for
        it being stored (an acknowledgement) waits for its next write."""


class SharePersistence:
    def __init__(self, shares: ShareGroupCoordinator, offsets_log: GroupLog, state: StateWriter,
                 offsets_partition_for: Callable[[str], int | None], state_partitions: Callable[[], int | None],
                 ensure_state_topic: Callable[[], bool], released: Callable[[set], None] = lambda keys: None):
        """offsets_partition_for(group_id): its __consumer_offsets partition (None: no group
        coordinator yet); state_partitions(): the partition count of __share_group_state, None while
        it does not exist; ensure_state_topic(): create it if needed, True once it exists;
        released(keys): records of these share-partitions became available as their write settled."""
        self.shares = shares
        self.offsets_log = offsets_log
        self.state = state
        self.offsets_partition_for = offsets_partition_for
        self.state_partitions = state_partitions
        self.ensure_state_topic = ensure_state_topic
        self.released = released

    def replay_group_record(self, key: bytes | None, value: bytes | None) -> None:
        """One record of the __consumer_offsets replay: a share group's epoch (others are ignored)."""
        d = share_state.decode_group_metadata(key, value)
        if d is not None:
            self.shares.restore_group(*d)
            return
        i = share_state.decode_initialized(key, value)
        if i is not None:
            self.shares.restore_initialized(*i)

    def persist(self, now_ms: int) -> dict[tuple, ErrorCode]:
        """Write what changed in share groups and is not written yet. A group partition's epochs go
        as one append (a failure raises, the rest left pending for the next call); each
        share-partition's state as one write, marked written once it went. Returns the share-partition
        writes that failed at once {key: error}: their acknowledgements are rolled back, the other
        changes left pending."""
        sg = self.shares
        if not sg.has_changes():
            return {}
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
        failed: dict[tuple, ErrorCode] = {}
        if not parts:
            return failed
        if (any(sp is not None for _, sp in parts) and not self.ensure_state_topic()) \
                or self.state_partitions() is None:
            for key, _ in parts:  # a quorum broker: the topic is on its way; written once it is there
                self.state.defer(key)
            return failed
        for key, sp in parts:
            settle = None
            try:
                if sp is None:
                    self.state.write_state(key, None, [], now_ms)
                else:
                    batches = sp.state_batches()
                    handed = sp.hand_out()
                    settle = self._settle(key, sp, handed) if handed.acks else None
                    self.state.write_state(key, sp.start_offset, batches, now_ms, sp.state_epoch, settle)
            except (CoordinatorError, OSError) as e:
                failed[key] = e.code if isinstance(e, CoordinatorError) else ErrorCode.UNKNOWN_SERVER_ERROR
                if settle is not None:
                    settle(failed[key], now_ms)
                continue
            sg.persisted([], [(key, sp)])
        return failed

    def _settle(self, key: tuple, sp, handed) -> Settle:
        def settle(err: ErrorCode, now_ms: int) -> None:
            if sp.settle(handed, not err, now_ms, self.shares.share_settings(key[0])):
                self.released({key})
        return settle
