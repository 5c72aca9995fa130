"""A crash in the middle of a group's online upgrade (classic -> consumer) or downgrade (consumer ->
classic) leaves a group that loads as the one before or the one after, never a mix: each conversion
is one coordinator write, one record batch of __consumer_offsets (the classic group's tombstone, the
consumer group's records, the heartbeat's own; or the consumer group's tombstones and the classic
group's GroupMetadata), and a batch is in the log whole or not at all.

Kafka 4.3 does the same: CoordinatorRuntime appends an atomic write's records to one batch (a new
batch if they do not fit the open one), log recovery drops a torn batch at the tail (its CRC), and
CoordinatorLoaderImpl replays only the whole batches the log holds, record after record.

Fault injection: the coordinator writes to a real PartitionLog on the fault-injecting filesystem;
the filesystem crashes after N bytes (every N in the conversions' batches, every batch boundary,
seeded others), the machine restarts with the bytes written kept (kill -9) or torn (power loss: a
random prefix of the unflushed bytes), the log is reopened (recovered) and a coordinator loads the
partition. Its group is compared with the group a coordinator loads from the whole batches before
the crash point, and at the conversions with the live group before and after the write.
A kill -9 of `odradek serve` right after an upgrade: compat_tests/test_group_migration.py."""

from __future__ import annotations

import random

from odradek.broker.coordinator_log import plain_records, read_into
from odradek.coordinator.consumer_group_state import ConsumerGroup
from odradek.coordinator.group_coordinator import GroupCoordinator
from odradek.coordinator.group_state import Group
from odradek.log import FaultyFileSystem, LogConfig, PartitionLog, SimulatedCrash
from odradek.wire.errors import ErrorCode as E
from odradek.wire.records import build_batch
from tests.coordinator.test_group_migration_state import A, H, assigned, assignment, classic_group, reconcile_classic
from tests.sim_seeds import sim_seeds
from tests.coordinator.committed_log import CommittedAtOnce

CFG = LogConfig(segment_bytes=4096, index_interval_bytes=256)  # a few segments: rolls inside the scenario


class FileLog(CommittedAtOnce):
    """The coordinator's log as CoordinatorLog writes it: each append one record batch of a real
    PartitionLog (one per __consumer_offsets partition) on ``fs``; read: the plain records of the
    whole batches from the log start (broker/coordinator_log.py's reader)."""

    def __init__(self, fs: FaultyFileSystem):
        self.fs = fs
        self.logs: dict[int, PartitionLog] = {}
        self.batch_ends: list[int] = []  # the log end after each append (the batch boundaries)

    def plog(self, partition: int) -> PartitionLog:
        if partition not in self.logs:
            self.logs[partition] = PartitionLog(self.fs, f"/data/__consumer_offsets-{partition}", CFG, now_ms=0)
        return self.logs[partition]

    def append(self, partition: int, records: list, now_ms: int) -> int:
        batch = build_batch([(k, v, (), now_ms) for k, v in records], base_timestamp=now_ms)
        info = self.plog(partition).append(batch, now_ms)
        self.batch_ends.append(info.last_offset + 1)
        return info.last_offset

    def read(self, partition: int, end: int | None = None):
        plog = self.plog(partition)
        end = plog.log_end_offset if end is None else end
        batches: list = []
        offset = plog.log_start_offset
        while offset < end:
            offset, n = read_into(plog, offset, batches, end)
            if n == 0:
                break
        return list(plain_records(batches, plog.log_start_offset))


class Prefix:
    """The records of ``log``'s partitions below ``end`` (a coordinator loading what a log cut there holds)."""

    def __init__(self, log: FileLog, end: int):
        self.log, self.end = log, end

    def append(self, partition, records, now_ms):
        raise AssertionError("a loaded view is not written")

    def read(self, partition):
        return self.log.read(partition, self.end)


def view(c: GroupCoordinator, gid: str = "g"):
    """What of group ``gid`` its records hold: its type, epochs, members with what each is assigned
    (and for a consumer group, the target and which members use the classic protocol), its offsets."""
    g = c.groups.get(gid)
    if g is None:
        return None
    offsets = sorted((tp, o.offset) for tp, o in g.offsets.items())
    if isinstance(g, Group):
        members = sorted((mid, assigned(m.assignment) if m.assignment else []) for mid, m in g.members.items())
        return ("classic", g.generation_id, g.protocol_type, g.protocol_name, g.leader_id, members, offsets)
    assert isinstance(g, ConsumerGroup)
    members = sorted((mid, m.member_epoch, m.classic is not None, sorted(m.assigned.get(A, {})),
                      sorted(m.pending_revocation.get(A, {}))) for mid, m in g.members.items())
    target = sorted((mid, sorted(t.get(A, ()))) for mid, t in g.target.items())
    return ("consumer", g.group_epoch, g.assignment_epoch, members, target, offsets)


def commit(h: H, member: str, epoch: int, parts, offset: int) -> None:
    errs = h.c.commit_offsets("g", epoch, member, None, {("a", p): (offset, -1, "") for p in parts}, h.now,
                              api_version=8, topic_ids={"a": A})
    assert set(errs.values()) == {E.NONE}


def scenario(h: H, marks: dict) -> None:
    """Two classic members commit; a consumer-protocol member joins (the upgrade), the classic
    members reconcile and everyone commits; the consumer member leaves (the downgrade); the classic
    members join the classic group again and commit. ``marks``: the live group's view before and
    after each conversion, by the log end there."""
    log: FileLog = h.log

    def mark(name: str) -> None:
        marks[name] = (log.batch_ends[-1], view(h.c))

    m1, m2, gen = classic_group(h)
    commit(h, m1, gen, [0, 1], 10)
    commit(h, m2, gen, [2, 3], 20)
    mark("before upgrade")
    r = h.hb("m3", 0)
    assert r.error is E.NONE
    mark("after upgrade")
    reconcile_classic(h, (m1, m2))
    g = h.c.consumer_groups["g"]
    r = h.hb("m3", r.member_epoch, owned=[])
    r = h.hb("m3", r.member_epoch, owned=[(A, r.assignment[A])] if r.assignment else [])
    for m in (m1, m2):
        mine = sorted(g.members[m].assigned.get(A, {}))
        if mine:
            commit(h, m, g.members[m].member_epoch, mine, 30)
    mark("before downgrade")
    assert h.hb("m3", -1).error is E.NONE
    mark("after downgrade")
    cg = h.c.groups["g"]
    assert isinstance(cg, Group) and set(cg.members) == {m1, m2}
    j1 = h.join(m1, owned=[0, 1])
    j2 = h.join(m2, owned=[2, 3])
    assert j1.done and j2.done
    gen = j1.result.generation_id
    leader = j1.result.leader
    assign = {m1: [0, 1], m2: [2, 3]}
    assert h.sync(leader, gen, {m: assignment(p) for m, p in assign.items()}).result.error is E.NONE
    other = m2 if leader == m1 else m1
    assert h.sync(other, gen).result.error is E.NONE
    commit(h, m1, gen, [0, 1], 40)


def run(fs: FaultyFileSystem) -> tuple[FileLog, dict]:
    log = FileLog(fs)
    marks: dict = {}
    h = H(log=log)
    ids = iter(range(1 << 20))
    h.c.new_uuid = lambda: f"{next(ids):04d}"  # the same member ids in every run
    try:
        scenario(h, marks)
    except (SimulatedCrash, AssertionError):
        if not fs.crashed:
            raise
    return log, marks


def reference():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log, marks = run(fs)
    ends = [0] + log.batch_ends
    by_end = {end: view(H(log=Prefix(log, end)).c) for end in ends}
    # the group a coordinator loads from the log at each conversion is the live one, before and after
    for name, (end, live) in marks.items():
        assert by_end[end] == live, name
    before, after = marks["before upgrade"][1], marks["after upgrade"][1]
    assert before[0] == "classic" and after[0] == "consumer" and before[-1] == after[-1]  # the offsets kept
    assert [m[0] for m in before[5]] == [m[0] for m in after[3] if m[2]]  # the classic members kept
    before, after = marks["before downgrade"][1], marks["after downgrade"][1]
    assert before[0] == "consumer" and after[0] == "classic" and before[-1] == after[-1]
    return fs.bytes_written, ends, by_end, marks


REF = reference()


def crash_and_load(crash_after: int, mode: str, seed: int) -> tuple[int, object]:
    fs = FaultyFileSystem(seed=seed)
    fs.makedirs("/data")
    fs.crash_after_bytes = crash_after
    run(fs)
    fs = fs.restart(mode, seed=seed)
    log = FileLog(fs)
    c = H(log=log).c
    return log.plog(c.partition_for("g")).log_end_offset, view(c)


def conversion_bytes() -> list[int]:
    """Crash points in the bytes written while each conversion's batch was appended (its segment,
    index and time index writes): each of the batch header's, every 5th after it, and the last
    bytes of the batch and a byte either side."""
    points: set[int] = set()
    for before, after in (("before upgrade", "after upgrade"), ("before downgrade", "after downgrade")):
        lo = bytes_at(REF[3][before][0])
        hi = bytes_at(REF[3][after][0])
        points.update(range(lo - 1, lo + 62), range(lo + 62, hi, 5), range(hi - 3, hi + 2))
    return sorted(points)


def bytes_at(end: int) -> int:
    """The filesystem's bytes written once the log end reached ``end`` (a run that crashes after
    those bytes ends there)."""
    lo, hi = 0, REF[0]
    while lo < hi:  # the fewest bytes with which the batch ending at ``end`` is whole after a kill -9
        mid = (lo + hi) // 2
        if crash_and_load(mid, "kept", 0)[0] >= end:
            hi = mid
        else:
            lo = mid + 1
    return lo


def check(end: int, got) -> None:
    ends, by_end = REF[1], REF[2]
    assert end in by_end, f"the log ends at {end}, inside a batch (boundaries {ends})"
    assert got == by_end[end]


def test_a_crash_in_a_conversion_loads_the_group_before_or_after_it():
    """kill -9 (the bytes written kept) after every byte of each conversion's append: the group
    loaded is the one before the conversion until its batch is whole, then the one after."""
    marks = REF[3]
    seen = set()
    for n in conversion_bytes():
        end, got = crash_and_load(n, "kept", 0)
        check(end, got)
        for before, after in (("before upgrade", "after upgrade"), ("before downgrade", "after downgrade")):
            if marks[before][0] <= end <= marks[after][0]:
                assert got in (marks[before][1], marks[after][1])
                seen.add((before, got == marks[after][1]))
    assert seen == {("before upgrade", False), ("before upgrade", True),
                    ("before downgrade", False), ("before downgrade", True)}


def pytest_generate_tests(metafunc):
    if "seed" in metafunc.fixturenames:
        metafunc.parametrize("seed", sim_seeds(metafunc.config, 4))


def test_crashes_anywhere_load_a_batch_boundary(seed):
    """Seeded: crashes at random bytes of the whole scenario, the machine restarted with the
    unflushed bytes kept or torn; the log recovers to a batch boundary and the group loaded is the
    one the whole batches before it hold."""
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randrange(REF[0] + 1)
        end, got = crash_and_load(n, rng.choice(["kept", "torn", "lost"]), rng.randrange(1 << 30))
        check(end, got)
