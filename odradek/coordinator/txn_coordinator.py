"""Transaction coordinator: Kafka's transaction state machine, persisted to
__transaction_state, with the broker writing the markers itself.

Two client protocols, as Kafka 4.3 (each transaction records the client's version):
- transaction.version 0/1: AddPartitionsToTxn/AddOffsetsToTxn from the client, EndTxn <= v4,
  one producer epoch for the producer's life (bumped by InitProducerId and fencing).
- transaction.version 2 (KIP-890 part 2): partitions are added by the broker on the client's
  behalf (Produce v12+, TxnOffsetCommit v5+: ``add_partitions(..., client_tv=2)``), and
  EndTxn v5 (``end_txn_tv2``) bumps the epoch at every transaction end: the markers carry
  the new epoch, the answer returns it, and an exhausted epoch moves the transactional id
  to a new producer id (next_producer_id in the log value) when the transaction completes.
Aborts the coordinator starts itself (timeout, fencing by InitProducerId) follow the
finalized transaction.version, as Kafka's do.

How the broker wires it (odradek/broker/broker.py)::

    txn = TxnCoordinator(
        log=CoordinatorLog(replicas, "__transaction_state"),
        config=cfg,                          # transaction.max.timeout.ms, ...num.partitions
        allocate_producer_id=broker.allocate_producer_id,
        write_marker=fn(topic, partition, producer_id, epoch, commit, coordinator_epoch, now_ms) -> error code,
        send_markers=fn(TxnMarkers),         # a cluster broker: its marker channel, then markers_written
        offsets=TxnOffsetStore(...),         # transactional offset commits (txn_offsets.py)
        transaction_version=fn() -> int,     # the finalized transaction.version
    )
    txn.load_all(now_ms)                     # without leadership tracking: rebuild, finish PrepareCommit/
                                             # PrepareAbort; with it (partitions=), the broker's loader
                                             # calls load_records / unload_partition per partition
    txn.tick(now_ms)                         # every ~100 ms: abort transactions past their timeout

On a single node markers go out synchronously (an append to a local log), so a
transaction passes through PrepareCommit/PrepareAbort within one call; the Prepare
record is still written first, so a crash in between is finished at the next start.
A cluster broker hands them to its marker channel (``send_markers``: WriteTxnMarkers to each
partition's leader, coordinator/txn_markers.py decides) and records Complete* when the channel
reports them all written (``markers_written``), as Kafka's coordinator.

Every transition is decided, written, then applied (Kafka's prepareTransitionTo /
completeTransitionTo): ``_transition`` writes the target state as a CoordinatorResult and the
id's TxnMetadata takes it only once the append went through; a failed append leaves it as it was.
"""
from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable, Iterable

from odradek.config import BrokerConfig
from odradek.wire.errors import ErrorCode

from . import txn_records as rec
from .errors import CoordinatorError
from .partition_loading import CoordinatorPartitions
from .result import CoordinatorResult, CoordinatorRuntime
from .settings import broker_default, int_settings
from .txn_markers import TxnMarkers
from .txn_records import TxnMetadata, TxnState

log = logging.getLogger(__name__)

E = ErrorCode
S = TxnState
MAX_EPOCH = 32767
CONSUMER_OFFSETS = "__consumer_offsets"


@dataclass
class TxnConfig:
    """The broker properties of the same names (defaults from odradek/config.py)."""
    transaction_max_timeout_ms: int = broker_default("transaction_max_timeout_ms")
    transaction_state_log_num_partitions: int = broker_default("transaction_state_log_num_partitions")
    transactional_id_expiration_ms: int = broker_default("transactional_id_expiration_ms")
    # Kafka's transaction.abort.timed.out.transaction.cleanup.interval.ms (not a broker setting here)
    transaction_abort_timed_out_transaction_cleanup_interval_ms: int = 10_000

    @classmethod
    def from_any(cls, obj: "TxnConfig | BrokerConfig | Mapping | None") -> "TxnConfig":
        return int_settings(cls, obj)


class TxnCoordinator:
    def __init__(self, log=None, config: TxnConfig | BrokerConfig | Mapping | None = None, allocate_producer_id: Callable[[], int] | None = None,
                 write_marker: Callable[..., int] | None = None, offsets=None, now_ms: int = 0,
                 coordinator_epoch: int = 0, transaction_version: Callable[[], int] | None = None,
                 send_markers: Callable[[TxnMarkers], None] | None = None,
                 partitions: CoordinatorPartitions | None = None):
        """partitions: the __transaction_state partitions loaded here as leadership moves (None:
        every partition led here, loaded by load_all)."""
        self.log = log
        self.config = TxnConfig.from_any(config)
        self.num_partitions = self.config.transaction_state_log_num_partitions
        self.runtime = CoordinatorRuntime(log, self.partition_for, partitions=partitions)
        self._next_pid = 0
        self.allocate_producer_id = allocate_producer_id or self._local_pid
        self.write_marker = write_marker or (lambda *a, **k: 0)
        self.send_markers = send_markers
        self.offsets = offsets
        self.coordinator_epoch = coordinator_epoch
        self.transaction_version = transaction_version or (lambda: 0)
        self.txns: dict[str, TxnMetadata] = {}
        self._by_pid: dict[int, TxnMetadata] = {}
        self._now = now_ms
        self._next_timeout_check = now_ms
        self._next_expiration_check = now_ms + 60_000

    def _local_pid(self) -> int:
        self._next_pid += 1
        return self._next_pid - 1

    # ------------------------------------------------------------------ persistence

    def partition_for(self, transactional_id: str) -> int:
        return rec.partition_for(transactional_id, self.num_partitions)

    def is_coordinator(self, transactional_id: str) -> bool:
        """This node holds the id's __transaction_state partition (which exists only after the
        first FindCoordinator of a transactional id); without a log: always."""
        return self.runtime.is_coordinator(transactional_id)

    def coordinator_error(self, transactional_id: str) -> ErrorCode:
        """NONE when this node coordinates the id; NOT_COORDINATOR, or COORDINATOR_LOAD_IN_PROGRESS
        while its partition is loading (Kafka's TransactionStateManager)."""
        return self.runtime.coordinator_error(transactional_id)

    def _transition(self, m: TxnMetadata, now_ms: int, **changes) -> None:
        """Decide -> write -> apply: the state ``m`` with ``changes`` is written to the id's
        partition, then ``m`` (indexed by its id and producer id) takes it. If the append fails the
        error propagates and ``m`` is unchanged. prev_producer_id is the producer id before the
        transition (Kafka's prevProducerId)."""
        target = dataclasses.replace(m, **changes, last_update_ms=now_ms, prev_producer_id=m.producer_id)
        records = []
        if self.log is not None:
            version = rec.value_version(self.transaction_version())
            records = [(rec.key_bytes(m.transactional_id), rec.value_bytes(target, version))]
        self.runtime.write(m.transactional_id, CoordinatorResult(records, lambda: self._apply(m, target)), now_ms)

    def _apply(self, m: TxnMetadata, target: TxnMetadata) -> None:
        if self._by_pid.get(m.producer_id) is m and m.producer_id != target.producer_id:
            del self._by_pid[m.producer_id]
        vars(m).update(vars(target))
        self._index(m)

    def _index(self, m: TxnMetadata) -> None:
        self.txns[m.transactional_id] = m
        self._by_pid[m.producer_id] = m

    def _try_transition(self, m: TxnMetadata, now_ms: int, **changes) -> bool:
        """_transition for a client's request: False (logged) when the write failed."""
        try:
            self._transition(m, now_ms, **changes)
        except Exception:
            log.exception("cannot persist transaction %s", m.transactional_id)
            return False
        return True

    def load_all(self, now_ms: int | None = None) -> None:
        """Rebuild every transactional id from __transaction_state; finish half-done completions."""
        if self.log is None:
            return
        for p in range(self.num_partitions):
            self.load_records(p, self.log.read(p), now_ms)

    def load_records(self, partition: int, records: Iterable[tuple[int, bytes | None, bytes | None]],
                     now_ms: int | None = None) -> None:
        """Replay one partition's (offset, key, value) records (last value wins), then finish the
        transactions its log left in PrepareCommit/PrepareAbort (Kafka completes them on load)."""
        if now_ms is not None:
            self._now = now_ms
        latest: dict[str, TxnMetadata | None] = {}
        for _offset, key, value in records:
            if key is None:
                continue
            try:
                tid = rec.decode_key(key)
                if tid is None:
                    continue
                latest[tid] = None if value is None else rec.decode_value(tid, value)
            except Exception:
                log.exception("skipping undecodable __transaction_state record in partition %d", partition)
        for tid, m in latest.items():
            if m is None or m.state is S.DEAD:
                self.txns.pop(tid, None)
                continue
            self._index(m)
        now = self._now
        for m in [m for tid, m in latest.items() if m is not None and self.txns.get(tid) is m]:
            if m.state in (S.PREPARE_COMMIT, S.PREPARE_ABORT):
                log.info("finishing %s of transactional id %s after load", m.state.kafka_name, m.transactional_id)
                try:
                    self._complete(m, m.state is S.PREPARE_COMMIT, now)
                except Exception:  # tick retries it
                    log.exception("completing transaction %s failed", m.transactional_id)

    def unload_partition(self, partition: int) -> None:
        """This node no longer coordinates ``partition``: its transactional ids go (the new
        coordinator loads them from the log)."""
        for tid in [tid for tid in self.txns if self.partition_for(tid) == partition]:
            self._forget(self.txns[tid])

    def coordinator_epoch_of(self, transactional_id: str) -> int | None:
        """The epoch the markers of the id's transactions carry (Kafka's coordinatorEpoch): the
        leader epoch this node coordinates the id's __transaction_state partition at, as the
        partition-load tracker has it (None: not coordinated here), or the configured one without
        leadership tracking. The one source of that epoch: the marker channel asks here too."""
        if self.runtime.partitions is None:
            return self.coordinator_epoch
        epoch = self.runtime.partitions.epoch(self.partition_for(transactional_id))
        return None if epoch < 0 else epoch

    # ------------------------------------------------------------------ InitProducerId

    def init_producer_id(self, transactional_id: str, timeout_ms: int, expected_pid: int = -1,
                         expected_epoch: int = -1, now_ms: int = 0) -> tuple[ErrorCode, int, int]:
        """-> (error, producer id, epoch). PRODUCER_FENCED is mapped by the handler for old versions."""
        self._now = now_ms
        if not transactional_id:
            return E.INVALID_REQUEST, -1, -1
        if timeout_ms <= 0 or timeout_ms > self.config.transaction_max_timeout_ms:
            return E.INVALID_TRANSACTION_TIMEOUT, -1, -1
        if err := self.coordinator_error(transactional_id):
            return err, -1, -1
        m = self.txns.get(transactional_id)
        if m is None:
            try:
                pid = self.allocate_producer_id()
            except CoordinatorError as e:  # no producer id block yet: COORDINATOR_LOAD_IN_PROGRESS
                return e.code, -1, -1
            m = TxnMetadata(transactional_id, pid, 0, timeout_ms, state=S.EMPTY, last_update_ms=now_ms)
            if not self._try_transition(m, now_ms):
                return E.COORDINATOR_NOT_AVAILABLE, -1, -1
            return E.NONE, m.producer_id, m.producer_epoch
        if m.pending or m.state in (S.PREPARE_COMMIT, S.PREPARE_ABORT):
            return E.CONCURRENT_TRANSACTIONS, -1, -1
        if expected_pid >= 0:
            # Kafka checks only the producer id here; the epoch is checked when it is bumped
            valid = m.producer_epoch == -1 or expected_pid == m.producer_id or \
                (expected_pid == m.last_producer_id and expected_epoch >= MAX_EPOCH - 1)
            if not valid:
                return E.PRODUCER_FENCED, -1, -1
        if m.state is S.ONGOING:
            # a new incarnation of the producer: fence the old one and abort its transaction;
            # like Kafka, answer CONCURRENT_TRANSACTIONS: the retry gets the next epoch
            try:
                self._fence_and_abort(m, now_ms)
            except Exception:
                log.exception("cannot fence transaction %s", transactional_id)
                return E.COORDINATOR_NOT_AVAILABLE, -1, -1
            return E.CONCURRENT_TRANSACTIONS, -1, -1
        if expected_pid >= 0:
            retry = (expected_pid == m.producer_id and expected_epoch == m.last_producer_epoch) or \
                    (expected_pid == m.last_producer_id and m.producer_epoch == 0)
            if retry:
                return E.NONE, m.producer_id, m.producer_epoch  # a retried bump: answer it again
            if expected_epoch != m.producer_epoch:
                return E.PRODUCER_FENCED, -1, -1
        try:
            bumped = self._bumped_epoch(m)
        except CoordinatorError as e:
            return e.code, -1, -1
        if not self._try_transition(m, now_ms, **bumped, state=S.EMPTY, partitions=set(),
                                    timeout_ms=timeout_ms, start_ms=-1):
            return E.COORDINATOR_NOT_AVAILABLE, -1, -1
        return E.NONE, m.producer_id, m.producer_epoch

    def _bumped_epoch(self, m: TxnMetadata) -> dict:
        """The next epoch of the id; an exhausted one moves to a new producer id."""
        if m.producer_epoch >= MAX_EPOCH - 1:
            return dict(last_producer_id=m.producer_id, last_producer_epoch=-1,
                        producer_id=self.allocate_producer_id(), producer_epoch=0)
        return dict(last_producer_epoch=m.producer_epoch, producer_epoch=m.producer_epoch + 1)

    def _fence_and_abort(self, m: TxnMetadata, now_ms: int) -> None:
        """PrepareEpochFence: bump the epoch so the old producer is fenced, then abort with it.

        As Kafka 4.3, by the finalized transaction.version: at 2 the abort itself is the one
        bump (and an exhausted epoch moves to a new producer id on completion); below, the
        fence epoch is kept (never past 32767) and the abort does not bump again.
        """
        if self.transaction_version() >= 2:
            self._prepare_end_tv2(m, False, now_ms, no_partitions=False)
            return
        self._transition(m, now_ms, producer_epoch=min(m.producer_epoch + 1, MAX_EPOCH), last_producer_epoch=-1,
                         client_tv=0, next_producer_id=-1, state=S.PREPARE_ABORT)
        self._complete(m, False, now_ms)

    # ------------------------------------------------------------------ AddPartitionsToTxn / AddOffsetsToTxn

    def _check_producer(self, m: TxnMetadata | None, pid: int, epoch: int) -> ErrorCode:
        if m is None or m.producer_id != pid:
            return E.INVALID_PRODUCER_ID_MAPPING
        if m.producer_epoch != epoch:
            return E.PRODUCER_FENCED
        if m.pending or m.state in (S.PREPARE_COMMIT, S.PREPARE_ABORT):
            return E.CONCURRENT_TRANSACTIONS
        return E.NONE

    def add_partitions(self, transactional_id: str, pid: int, epoch: int, partitions: Iterable[tuple[str, int]],
                       now_ms: int, client_tv: int = 0) -> ErrorCode:
        """AddPartitionsToTxn; client_tv 2 when the broker adds them for a Produce v12+ /
        TxnOffsetCommit v5+ (Kafka: AddPartitionsToTxn v4+ is handled as TV_2)."""
        self._now = now_ms
        if err := self.coordinator_error(transactional_id):
            return err
        m = self.txns.get(transactional_id)
        err = self._check_producer(m, pid, epoch)
        if err is not E.NONE:
            return err
        new = set(partitions) - m.partitions
        if m.state is S.ONGOING:
            if not new:
                return E.NONE
            begin = dict(partitions=m.partitions | new)
        elif m.state in (S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT):
            begin = dict(partitions=new, start_ms=now_ms)
        else:
            return E.INVALID_TXN_STATE
        if not self._try_transition(m, now_ms, **begin, state=S.ONGOING, client_tv=client_tv):
            return E.COORDINATOR_NOT_AVAILABLE
        return E.NONE

    def verify_partitions(self, transactional_id: str, pid: int, epoch: int,
                          partitions: Iterable[tuple[str, int]]) -> dict:
        """AddPartitionsToTxn verify_only: {tp: error} without changing anything."""
        m = self.txns.get(transactional_id)
        parts = list(partitions)
        if err := self.coordinator_error(transactional_id):
            return dict.fromkeys(parts, err)
        if m is None or m.producer_id != pid:
            return {tp: E.INVALID_PRODUCER_ID_MAPPING for tp in parts}
        if m.producer_epoch != epoch:
            return {tp: E.PRODUCER_FENCED for tp in parts}
        ok = m.state is S.ONGOING
        return {tp: E.NONE if ok and tp in m.partitions else E.TRANSACTION_ABORTABLE for tp in parts}

    def check_produce(self, pid: int, epoch: int, topic: str, partition: int) -> ErrorCode:
        """A transactional batch may only go to a partition of the producer's ongoing transaction."""
        m = self._by_pid.get(pid)
        if m is None:
            return E.INVALID_TXN_STATE if pid >= 0 else E.NONE
        if epoch < m.producer_epoch:
            return E.INVALID_PRODUCER_EPOCH
        if epoch > m.producer_epoch:
            return E.INVALID_TXN_STATE
        if m.state is not S.ONGOING or (topic, partition) not in m.partitions:
            return E.INVALID_TXN_STATE
        return E.NONE

    def check_offset_commit(self, transactional_id: str, pid: int, epoch: int) -> ErrorCode:
        m = self.txns.get(transactional_id)
        if m is None or m.producer_id != pid:
            return E.INVALID_PRODUCER_ID_MAPPING
        if m.producer_epoch != epoch:
            return E.INVALID_PRODUCER_EPOCH  # as Kafka answers TxnOffsetCommit
        return E.NONE

    # ------------------------------------------------------------------ EndTxn

    def end_txn(self, transactional_id: str, pid: int, epoch: int, commit: bool, now_ms: int) -> ErrorCode:
        self._now = now_ms
        if err := self.coordinator_error(transactional_id):
            return err
        m = self.txns.get(transactional_id)
        if m is None or m.producer_id != pid:
            return E.INVALID_PRODUCER_ID_MAPPING
        if m.producer_epoch != epoch:
            return E.PRODUCER_FENCED
        if m.pending:
            return E.CONCURRENT_TRANSACTIONS
        st = m.state
        if st is S.ONGOING:
            if not self._try_transition(m, now_ms, state=S.PREPARE_COMMIT if commit else S.PREPARE_ABORT,
                                        client_tv=0, next_producer_id=-1):
                return E.COORDINATOR_NOT_AVAILABLE
            self._complete(m, commit, now_ms)
            return E.NONE
        if st is S.COMPLETE_COMMIT:
            return E.NONE if commit else E.INVALID_TXN_STATE
        if st is S.COMPLETE_ABORT:
            return E.INVALID_TXN_STATE if commit else E.NONE
        if st is S.PREPARE_COMMIT:
            return E.CONCURRENT_TRANSACTIONS if commit else E.INVALID_TXN_STATE
        if st is S.PREPARE_ABORT:
            return E.INVALID_TXN_STATE if commit else E.CONCURRENT_TRANSACTIONS
        return E.INVALID_TXN_STATE

    def end_txn_tv2(self, transactional_id: str, pid: int, epoch: int, commit: bool,
                    now_ms: int) -> tuple[ErrorCode, int, int]:
        """EndTxn v5 (transaction.version 2) -> (error, producer id, epoch) for the client's next
        transaction. Every end bumps the epoch; a retry (the epoch one below, or the last
        epoch of an overflowed id) is answered again, as Kafka's endTransaction does:

                          Abort            Commit
                       Retry Current    Retry Current
          Empty          PF    bump       PF    ITS
          CompleteAbort  NONE  bump       ITS   ITS
          CompleteCommit ITS   bump       NONE  ITS
        """
        self._now = now_ms
        if not transactional_id:
            return E.INVALID_REQUEST, -1, -1
        if err := self.coordinator_error(transactional_id):
            return err, -1, -1
        m = self.txns.get(transactional_id)
        if m is None:
            return E.INVALID_PRODUCER_ID_MAPPING, -1, -1
        retry_on_overflow = m.prev_producer_id == pid and epoch == MAX_EPOCH - 1 and m.producer_epoch == 0
        retry_on_bump = m.producer_epoch == epoch + 1
        st = m.state
        if st in (S.PREPARE_COMMIT, S.PREPARE_ABORT):
            valid = retry_on_bump
        elif st in (S.COMPLETE_COMMIT, S.COMPLETE_ABORT):
            valid = retry_on_bump or retry_on_overflow or epoch == m.producer_epoch
        else:
            valid = epoch == m.producer_epoch
        retry = retry_on_bump or retry_on_overflow
        if m.producer_id != pid and not retry_on_overflow:
            return E.INVALID_PRODUCER_ID_MAPPING, -1, -1
        if not valid:
            return E.PRODUCER_FENCED, -1, -1
        if m.pending:
            return E.CONCURRENT_TRANSACTIONS, -1, -1
        err = None
        if st is S.ONGOING:
            return self._prepare_end_tv2(m, commit, now_ms, no_partitions=False)
        if st is S.COMPLETE_COMMIT:
            if commit:
                err = E.NONE if retry else E.INVALID_TXN_STATE
            elif retry:
                err = E.INVALID_TXN_STATE
        elif st is S.COMPLETE_ABORT:
            if commit:
                err = E.INVALID_TXN_STATE
            elif retry:
                err = E.NONE
        elif st is S.PREPARE_COMMIT:
            err = E.CONCURRENT_TRANSACTIONS if commit else E.INVALID_TXN_STATE
        elif st is S.PREPARE_ABORT:
            err = E.INVALID_TXN_STATE if commit else E.CONCURRENT_TRANSACTIONS
        elif st is S.EMPTY:
            if commit:
                err = E.INVALID_TXN_STATE
        else:
            err = E.INVALID_TXN_STATE
        if err is None:  # an abort with nothing in the transaction: it still bumps the epoch
            return self._prepare_end_tv2(m, False, now_ms, no_partitions=True)
        if err == E.NONE:
            return E.NONE, m.producer_id, m.producer_epoch
        return err, -1, -1

    def _prepare_end_tv2(self, m: TxnMetadata, commit: bool, now_ms: int,
                         no_partitions: bool) -> tuple[ErrorCode, int, int]:
        """Kafka's prepareAbortOrCommit at transaction.version 2, then the markers and Complete*."""
        next_pid = -1
        if m.producer_epoch >= MAX_EPOCH - 1:
            try:
                next_pid = self.allocate_producer_id()
            except CoordinatorError as e:
                return e.code, -1, -1
            except Exception:
                log.exception("no producer id for the overflow of %s", m.transactional_id)
                return E.COORDINATOR_NOT_AVAILABLE, -1, -1
        epoch = m.producer_epoch
        if epoch == MAX_EPOCH and not commit:
            log.error("aborting producer %d of %s with epoch 32767; this must not happen",
                      m.producer_id, m.transactional_id)
        else:
            epoch += 1
        if not self._try_transition(m, now_ms, producer_epoch=epoch, last_producer_epoch=m.producer_epoch,
                                    start_ms=now_ms if no_partitions else m.start_ms, next_producer_id=next_pid,
                                    client_tv=2, state=S.PREPARE_COMMIT if commit else S.PREPARE_ABORT):
            return E.COORDINATOR_NOT_AVAILABLE, -1, -1
        self._complete(m, commit, now_ms)
        return E.NONE, m.producer_id, m.producer_epoch

    def _complete(self, m: TxnMetadata, commit: bool, now_ms: int) -> None:
        """Write the markers of a transaction in Prepare*, then record Complete* (with TV2 and an
        exhausted epoch: under the next producer id, epoch 0). With ``send_markers`` (a cluster
        broker's marker channel) the markers go to the partitions' leaders and Complete* waits for
        ``markers_written``; the transaction stays pending (CONCURRENT_TRANSACTIONS) meanwhile."""
        if self.send_markers is not None and m.partitions:
            m.pending = True
            self.send_markers(TxnMarkers(m.transactional_id, m.producer_id, m.producer_epoch, commit,
                                         frozenset(m.partitions), m.client_tv))
            return
        m.pending = True
        coordinator_epoch = self.coordinator_epoch_of(m.transactional_id) or 0
        try:
            for topic, p in sorted(m.partitions):
                err = self.write_marker(topic, p, m.producer_id, m.producer_epoch, commit, coordinator_epoch, now_ms)
                if err:
                    # the partition is gone (topic deleted): nothing left to mark
                    log.warning("marker for %s to %s-%d failed: %s", m.transactional_id, topic, p, err)
                if topic == CONSUMER_OFFSETS and self.offsets is not None:
                    self.offsets.complete(m.producer_id, p, commit, now_ms)
            self._write_complete(m, commit, now_ms)
        finally:
            m.pending = False

    def _write_complete(self, m: TxnMetadata, commit: bool, now_ms: int) -> None:
        overflow = {}
        if m.client_tv >= 2 and m.next_producer_id >= 0:
            overflow = dict(last_producer_id=m.producer_id, producer_id=m.next_producer_id, producer_epoch=0)
        self._transition(m, now_ms, **overflow, state=S.COMPLETE_COMMIT if commit else S.COMPLETE_ABORT,
                         partitions=set(), next_producer_id=-1)

    def markers_written(self, markers: TxnMarkers, now_ms: int) -> bool:
        """Every marker of ``markers`` is written (TransactionMarkerChannelManager's
        maybeWriteTxnCompletion): record Complete*. False when the transaction is no longer the
        one the markers were for, or the write failed (a later tick sends the markers again)."""
        self._now = now_ms
        m = self.txns.get(markers.transactional_id)
        want = S.PREPARE_COMMIT if markers.commit else S.PREPARE_ABORT
        if m is None or m.state is not want or m.producer_id != markers.producer_id \
                or m.producer_epoch != markers.producer_epoch:
            return False
        try:
            self._write_complete(m, markers.commit, now_ms)
            return True
        except Exception:
            log.exception("cannot record the completion of transaction %s", m.transactional_id)
            return False
        finally:
            m.pending = False

    # ------------------------------------------------------------------ timeouts

    def tick(self, now_ms: int) -> None:
        self._now = now_ms
        if now_ms < self._next_timeout_check:
            return
        self._next_timeout_check = now_ms + min(1000,
                                                self.config.transaction_abort_timed_out_transaction_cleanup_interval_ms)
        self.abort_timed_out(now_ms)
        self._retry_completions(now_ms)
        if now_ms >= self._next_expiration_check:
            self._next_expiration_check = now_ms + 60_000
            self.expire_transactional_ids(now_ms)

    def _retry_completions(self, now_ms: int) -> None:
        """Markers that failed to go out (an I/O error): try again rather than stay stuck."""
        for m in list(self.txns.values()):
            if m.state in (S.PREPARE_COMMIT, S.PREPARE_ABORT) and not m.pending:
                try:
                    self._complete(m, m.state is S.PREPARE_COMMIT, now_ms)
                except Exception:
                    log.exception("completing transaction %s failed", m.transactional_id)

    def expire_transactional_ids(self, now_ms: int) -> list[str]:
        """transactional.id.expiration.ms: forget ids idle that long (tombstone in the log)."""
        limit = self.config.transactional_id_expiration_ms
        gone = []
        for m in list(self.txns.values()):
            if m.state in (S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT) and not m.pending and \
                    m.last_update_ms >= 0 and now_ms - m.last_update_ms > limit:
                self.runtime.write(m.transactional_id, CoordinatorResult(
                    [(rec.key_bytes(m.transactional_id), None)], lambda m=m: self._forget(m)), now_ms)
                gone.append(m.transactional_id)
        return gone

    def _forget(self, m: TxnMetadata) -> None:
        self.txns.pop(m.transactional_id, None)
        if self._by_pid.get(m.producer_id) is m:
            del self._by_pid[m.producer_id]

    def abort_timed_out(self, now_ms: int) -> list[str]:
        aborted = []
        for m in list(self.txns.values()):
            if m.state is S.ONGOING and not m.pending and m.start_ms >= 0 and now_ms > m.start_ms + m.timeout_ms:
                log.info("aborting transaction %s (producer %d epoch %d): timed out after %d ms",
                         m.transactional_id, m.producer_id, m.producer_epoch, m.timeout_ms)
                try:
                    self._fence_and_abort(m, now_ms)
                    aborted.append(m.transactional_id)
                except Exception:
                    log.exception("aborting timed-out transaction %s failed", m.transactional_id)
        return aborted

    # ------------------------------------------------------------------ describe / list

    def describe(self, transactional_id: str) -> TxnMetadata | None:
        return self.txns.get(transactional_id)

    def list(self, states: Iterable[str] = (), producer_ids: Iterable[int] = (), min_duration_ms: int = -1,
             pattern: str | None = None, now_ms: int = 0) -> list[TxnMetadata]:
        states = set(states or ())
        pids = set(producer_ids or ())
        rx = re.compile(pattern) if pattern else None
        out = []
        for m in self.txns.values():
            if states and m.state.kafka_name not in states:
                continue
            if pids and m.producer_id not in pids:
                continue
            if min_duration_ms >= 0 and (m.state is not S.ONGOING or now_ms - m.start_ms < min_duration_ms):
                continue
            if rx is not None and not rx.fullmatch(m.transactional_id):
                continue
            out.append(m)
        return sorted(out, key=lambda m: m.transactional_id)
