"""One share-partition (KIP-932): the records of one topic-partition as one share group sees them.

Pure: offsets and batch boundaries come in from the caller (the ShareFetch handler reads the log),
time comes in as now_ms. Kafka's SharePartition, simplified to one entry per in-flight offset:

- SPSO (start_offset): every offset below it is done (acknowledged or archived) for this group.
- SPEO (end_offset): the next offset never acquired; [SPSO, SPEO) are the in-flight records.
- An in-flight record is AVAILABLE, ACQUIRED (by one member, under an acquisition lock, with a
  delivery count), ACKNOWLEDGED or ARCHIVED. The SPSO moves past leading ACKNOWLEDGED/ARCHIVED ones.
- A record released (RELEASE, lock expiry, member gone) after delivery.count.limit deliveries is
  ARCHIVED instead of AVAILABLE.
- Persisted (share_state.py): the SPSO and state_batches(), written when records are acknowledged,
  released or archived, or the SPSO is set; restore() reads them back at start-up.
- An acknowledgement is written before it changes the state, as Kafka's SharePartition
  (acknowledge, rollbackOrProcessStateUpdates): it is staged on its records (``pending``: they stay
  ACQUIRED, neither acknowledged again, released nor expired meanwhile), the next write carries it
  (``hand_out``), and only that write's success commits it (``settle``); a failure rolls it back:
  the records are ACQUIRED by the member again, released at once if their lock ran out meanwhile.
  Every write carries the acknowledgements still on their way (a later write never takes back what
  an earlier one may have stored); when one of them is rolled back after a later write carried it,
  the share-partition is written again (``dirty``).
"""

from __future__ import annotations

from dataclasses import dataclass

from odradek.wire.errors import ErrorCode

# Kafka's RecordState ids
AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED = 0, 1, 2, 4
STATE_NAMES = {AVAILABLE: "AVAILABLE", ACQUIRED: "ACQUIRED", ACKNOWLEDGED: "ACKNOWLEDGED", ARCHIVED: "ARCHIVED"}

# AcknowledgeTypes of ShareFetch / ShareAcknowledge
GAP, ACCEPT, RELEASE, REJECT, RENEW = 0, 1, 2, 3, 4


@dataclass
class InFlight:
    """A record (or offset range) of a share-partition that is delivered and not yet acknowledged."""
    state: int
    delivery_count: int = 0
    member_id: str | None = None
    lock_deadline_ms: int = 0
    pending: "Acknowledgement | None" = None  # an acknowledgement of it on its way to the share coordinator


@dataclass(eq=False)
class Acknowledgement:
    """Acknowledged records waiting for their write: {offset: the state it commits to}; ``write``:
    the sequence number of the write that carries it (None: not handed out yet)."""

    targets: dict
    write: int | None = None


@dataclass(eq=False)
class HandedOut:
    """The acknowledgements one write carries (``SharePartition.hand_out``), settled by its answer."""

    acks: list
    write: int


@dataclass
class ShareSettings:
    """The group configs a share-partition obeys (GROUP config resource over broker defaults)."""

    record_lock_duration_ms: int = 30000
    delivery_count_limit: int = 5
    max_record_locks: int = 2000


class SharePartition:
    def __init__(self, start_offset: int, state_epoch: int = 0, dirty: bool = True):
        self.start_offset = start_offset
        self.end_offset = start_offset
        self.records: dict[int, InFlight] = {}
        self._next_deadline: int | None = None
        self.state_epoch = state_epoch
        # changed since last persisted (share_state.py); acquisitions alone do not count, as Kafka
        # writes a share-partition's state when records are acknowledged or released, not acquired
        self.dirty = dirty
        self.staged: list[Acknowledgement] = []  # acknowledgements the next write carries
        self._writes = 0  # writes handed out so far

    # ------------------------------------------------------------------ reading state

    def fetch_offset(self) -> int:
        """Where the next acquisition starts: the first AVAILABLE in-flight record, else SPEO."""
        for off in range(self.start_offset, self.end_offset):
            r = self.records.get(off)
            if r is not None and r.state == AVAILABLE:
                return off
        return self.end_offset

    def has_available(self, log_end: int) -> bool:
        return log_end > self.end_offset or any(r.state == AVAILABLE for r in self.records.values())

    def in_flight_done(self) -> int:
        """In-flight records already done (acknowledged or archived): not part of the lag."""
        return sum(1 for r in self.records.values() if r.state in (ACKNOWLEDGED, ARCHIVED))

    def state_of(self, offset: int) -> int:
        if offset < self.start_offset:
            return ARCHIVED
        r = self.records.get(offset)
        return AVAILABLE if r is None else r.state

    # ------------------------------------------------------------------ log bounds

    def move_start(self, log_start: int) -> None:
        """Records removed from the log (retention, DeleteRecords) are gone for the group too."""
        if log_start <= self.start_offset:
            return
        for off in range(self.start_offset, min(log_start, self.end_offset)):
            self.records.pop(off, None)
        self.start_offset = log_start
        self.end_offset = max(self.end_offset, log_start)
        self.dirty = True

    def reset(self, offset: int) -> None:
        """AlterShareGroupOffsets: forget everything, start at offset."""
        self.records.clear()
        self.staged = []
        self.start_offset = self.end_offset = offset
        self._next_deadline = None
        self.dirty = True

    # ------------------------------------------------------------------ acquire

    def acquire(self, member_id: str, batches, max_records: int, now_ms: int, settings: ShareSettings,
                record_limit: bool = False, skip=()) -> list[tuple[int, int, int]]:
        """Acquire records of ``batches`` ([(base_offset, last_offset)] read from the log at
        fetch_offset(), in order) for member_id: AVAILABLE in-flight ones and new ones past SPEO.

        Batch-optimized (Kafka's default mode) completes a batch once it started it, so
        max_records can be exceeded; record_limit stops at max_records exactly. Batches in ``skip``
        (aborted transactions under read_committed) are archived, never delivered.
        Returns the acquired ranges [(first_offset, last_offset, delivery_count)].
        """
        deadline = now_ms + settings.record_lock_duration_ms
        got: list[tuple[int, int]] = []
        for base, last in batches:
            if len(got) >= max_records:
                break
            if last < self.start_offset:
                continue
            if base > self.end_offset and self.end_offset >= self.start_offset:
                # offsets missing from the log (compaction): nothing to deliver there
                self.dirty = True
                for off in range(self.end_offset, base):
                    self.records[off] = InFlight(ARCHIVED)
                self.end_offset = base
            if (base, last) in skip:
                self.dirty = True
                for off in range(max(base, self.start_offset), last + 1):
                    r = self.records.get(off)
                    if off >= self.end_offset:
                        self.records[off] = InFlight(ARCHIVED)
                        self.end_offset = off + 1
                    elif r is not None and r.state == AVAILABLE:
                        r.state = ARCHIVED
                continue
            for off in range(max(base, self.start_offset), last + 1):
                if record_limit and len(got) >= max_records:
                    break
                if off >= self.end_offset:
                    if off - self.start_offset >= settings.max_record_locks:
                        break
                    self.records[off] = InFlight(ACQUIRED, 1, member_id, deadline)
                    self.end_offset = off + 1
                    got.append((off, 1))
                    continue
                r = self.records.get(off)
                if r is None or r.state != AVAILABLE:
                    continue
                r.state, r.member_id, r.lock_deadline_ms = ACQUIRED, member_id, deadline
                r.delivery_count += 1
                got.append((off, r.delivery_count))
        if got:
            self._next_deadline = deadline if self._next_deadline is None else min(self._next_deadline, deadline)
        return _ranges(got)  # (records archived here move the SPSO once written, as acknowledged ones)

    # ------------------------------------------------------------------ acknowledge

    def has_acquired(self) -> bool:
        return any(r.state == ACQUIRED for r in self.records.values())

    def acknowledge(self, member_id: str, first: int, last: int, types: list[int], now_ms: int,
                    settings: ShareSettings) -> ErrorCode:
        """One AcknowledgementBatch. All or nothing: every offset must be ACQUIRED by member_id."""
        if last < first or not types or (len(types) != 1 and len(types) != last - first + 1):
            return ErrorCode.INVALID_REQUEST
        if any(t not in (GAP, ACCEPT, RELEASE, REJECT, RENEW) for t in types):
            return ErrorCode.INVALID_REQUEST
        if first < self.start_offset or last >= self.end_offset:
            return ErrorCode.INVALID_RECORD_STATE
        for off in range(first, last + 1):
            r = self.records.get(off)
            if r is None or r.state != ACQUIRED or r.member_id != member_id or r.pending is not None:
                return ErrorCode.INVALID_RECORD_STATE
        ack = Acknowledgement({})
        for i, off in enumerate(range(first, last + 1)):
            t = types[0] if len(types) == 1 else types[i]
            r = self.records[off]
            if t == RENEW:  # a fresh lock, still acquired (nothing to write)
                r.lock_deadline_ms = now_ms + settings.record_lock_duration_ms
                continue
            if t == ACCEPT:
                target = ACKNOWLEDGED
            elif t == RELEASE:
                target = ARCHIVED if r.delivery_count >= settings.delivery_count_limit else AVAILABLE
            else:  # REJECT, GAP
                target = ARCHIVED
            ack.targets[off] = target
            r.pending = ack
        if ack.targets:
            self.staged.append(ack)
            self.dirty = True  # changed once written
        return ErrorCode.NONE

    # ------------------------------------------------------------------ writing acknowledgements

    def hand_out(self) -> HandedOut:
        """A write of state_batches() goes out now: it carries the staged acknowledgements."""
        self._writes += 1
        acks, self.staged = self.staged, []
        for ack in acks:
            ack.write = self._writes
        return HandedOut(acks, self._writes)

    def settle(self, handed: HandedOut, ok: bool, now_ms: int, settings: ShareSettings) -> bool:
        """The write that carried ``handed`` is answered: ok commits its acknowledgements (the SPSO
        moves past what they made done), else they are rolled back. True when records became
        AVAILABLE (released, or their lock ran out while the write was on its way)."""
        freed = False
        for ack in handed.acks:
            for off, target in ack.targets.items():
                r = self.records.get(off)
                if r is None or r.pending is not ack:
                    continue  # gone since (the log start moved, the offsets were reset)
                r.pending = None
                if ok:
                    r.state = target
                    r.member_id = None
                    freed |= target == AVAILABLE
                elif r.lock_deadline_ms <= now_ms:
                    self._release(r, settings)
                    self.dirty = True
                    freed |= r.state == AVAILABLE
                else:
                    self._next_deadline = r.lock_deadline_ms if self._next_deadline is None else \
                        min(self._next_deadline, r.lock_deadline_ms)
        if ok:
            self._advance()
        elif handed.acks and handed.write < self._writes:
            self.dirty = True  # a later write carried them: the state as rolled back is written again
        return freed

    @staticmethod
    def _release(r: InFlight, settings: ShareSettings) -> None:
        r.state = ARCHIVED if r.delivery_count >= settings.delivery_count_limit else AVAILABLE
        r.member_id = None

    def release_member(self, member_id: str, settings: ShareSettings) -> int:
        """The member left (or its share session closed): its acquired records go back."""
        n = 0
        for r in self.records.values():
            if r.state == ACQUIRED and r.member_id == member_id and r.pending is None:
                self._release(r, settings)
                n += 1
        if n:
            self.dirty = True
        return n

    def expire_locks(self, now_ms: int, settings: ShareSettings) -> int:
        """Acquisition locks past their deadline release their records; how many."""
        if self._next_deadline is None or now_ms < self._next_deadline:
            return 0
        n = 0
        nxt = None
        for r in self.records.values():
            if r.state != ACQUIRED or r.pending is not None:  # (a rolled-back one is released then)
                continue
            if r.lock_deadline_ms <= now_ms:
                self._release(r, settings)
                n += 1
            elif nxt is None or r.lock_deadline_ms < nxt:
                nxt = r.lock_deadline_ms
        self._next_deadline = nxt
        if n:
            self.dirty = True
        return n

    # ------------------------------------------------------------------ persisted state

    def state_batches(self) -> list[tuple[int, int, int, int]]:
        """The in-flight records as Kafka persists them: [(first, last, state, delivery count)],
        runs of one state and count; an ACQUIRED record is written AVAILABLE (its acquisition lock
        does not outlive the broker) with the deliveries so far. The acknowledgements not settled yet
        are in it."""
        out: list[list[int]] = []
        for off in range(self.start_offset, self.end_offset):
            r = self.records.get(off)
            if r is None:
                state, count = AVAILABLE, 0
            else:
                state = r.pending.targets[off] if r.pending is not None else r.state
                state, count = AVAILABLE if state == ACQUIRED else state, r.delivery_count
            if out and out[-1][1] == off - 1 and out[-1][2] == state and out[-1][3] == count:
                out[-1][1] = off
            else:
                out.append([off, off, state, count])
        return [tuple(b) for b in out]

    def written(self, now_ms: int = 0, settings: ShareSettings | None = None) -> None:
        """The state as it was handed out is written: the SPSO moves past the leading done records
        (the staged acknowledgements, if none handed them out, are written with it)."""
        if self.staged:
            self.settle(self.hand_out(), True, now_ms, settings or ShareSettings())
        self.dirty = False
        self._advance()

    @classmethod
    def restore(cls, start_offset: int, batches, state_epoch: int = 0) -> "SharePartition":
        """A share-partition from its persisted state (state_batches())."""
        sp = cls(start_offset, state_epoch)
        for first, last, state, count in batches:
            for off in range(max(first, start_offset), last + 1):
                sp.records[off] = InFlight(state if state in (ACKNOWLEDGED, ARCHIVED) else AVAILABLE, count)
            sp.end_offset = max(sp.end_offset, last + 1)
        sp._advance()
        sp.dirty = False
        return sp

    def _advance(self) -> None:
        while self.start_offset < self.end_offset:
            r = self.records.get(self.start_offset)
            if r is None or r.state not in (ACKNOWLEDGED, ARCHIVED):
                break
            del self.records[self.start_offset]
            self.start_offset += 1


def _ranges(got: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Consecutive offsets with the same delivery count -> (first, last, delivery_count)."""
    out: list[list[int]] = []
    for off, count in got:
        if out and out[-1][1] == off - 1 and out[-1][2] == count:
            out[-1][1] = off
        else:
            out.append([off, off, count])
    return [tuple(x) for x in out]
