"""DescribeGroups, ConsumerGroupDescribe, StreamsGroupDescribe and ListGroups read the groups as
committed, as Kafka's group coordinator (read operations at the __consumer_offsets partition's
high watermark): a group created, changed or deleted by records the HW has not passed is shown as
it was; a committed classic group is described as it is now (its fields are not Kafka's timeline
structures). The group coordinator over a CoordinatorLog whose partitions port is
test_coordinator_acks' fake, the high watermark moved by the test."""
from __future__ import annotations

from odradek.broker.coordinator_log import CoordinatorBatches, CoordinatorLog, PendingWrites
from odradek.config import BrokerConfig
from odradek.coordinator.consumer_heartbeat import HeartbeatRequest
from odradek.coordinator.group_coordinator import GroupCoordinator
from odradek.wire.errors import ErrorCode as E
from tests.broker.test_coordinator_acks import OFFSETS, FakePartitions, _commit, _setup

TOPIC_ID = b"A" * 16
TOPICS = {"a": (TOPIC_ID, 4)}


def _join(groups, member: str, gid: str = "cg"):
    req = HeartbeatRequest(group_id=gid, member_id=member, member_epoch=0, instance_id=None,
                           rebalance_timeout_ms=30_000, subscribed_topic_names=["a"], subscribed_topic_regex=None,
                           server_assignor=None, owned=[])
    res = groups.consumer_group_heartbeat(req, 0, dict(TOPICS))
    assert res.error in (None, E.NONE), res
    return res


def _commit_hw(parts, groups, gid: str) -> None:
    """The HW of the group's partition reaches its log end (everything written committed)."""
    tp = (OFFSETS, groups.partition_for(gid))
    parts.hw[tp] = parts.leo.get(tp, 0)


def _described(groups, gid: str = "cg"):
    """(state, group epoch, member ids) ConsumerGroupDescribe answers, or its error."""
    d = groups.consumer_group_describe(gid)
    if d["error"] != E.NONE:
        return d["error"]
    g = d["group"]
    return g.state, g.group_epoch, sorted(md["member"].member_id for md in d["members"])


def _listed(groups) -> list:
    return sorted((gid, state, gtype) for gid, _ptype, state, gtype in groups.list_groups())


def test_a_consumer_group_is_described_as_committed():
    parts, _pending, groups = _setup()
    _join(groups, "m1")
    assert _described(groups) == E.GROUP_ID_NOT_FOUND  # its records not committed: no group yet
    assert _listed(groups) == []
    _commit_hw(parts, groups, "cg")
    first = _described(groups)
    assert first[2] == ["m1"] and first[1] == 2
    assert _listed(groups) == [("cg", first[0], "consumer")]
    _join(groups, "m2")  # a new member: a new group epoch, not committed
    assert _described(groups) == first
    assert _listed(groups) == [("cg", first[0], "consumer")]
    assert groups.groups["cg"].group_epoch == 3  # (the newest state is there, for the writes)
    _commit_hw(parts, groups, "cg")
    assert _described(groups)[1:] == (3, ["m1", "m2"])


def test_a_deleted_group_is_shown_until_the_deletion_commits():
    parts, pending, groups = _setup()
    _commit(groups, pending, 42)  # a "simple" classic group g, made by its first commit
    assert _listed(groups) == [] and groups.describe_group("g")["state"] == "Dead"
    _commit_hw(parts, groups, "g")
    assert _listed(groups) == [("g", "Empty", "classic")]
    assert groups.delete_groups(["g"], 0) == {"g": E.NONE}
    assert "g" not in groups.groups
    assert _listed(groups) == [("g", "Empty", "classic")]
    assert groups.describe_group("g")["state"] == "Empty"
    assert groups.consumer_group_describe("g")["message"] == "Group g is not a consumer group."
    _commit_hw(parts, groups, "g")
    assert _listed(groups) == [] and groups.describe_group("g")["state"] == "Dead"
    assert groups.consumer_group_describe("g")["message"] == "Group g not found."


def _batched():
    """A group coordinator whose appends are collected into record batches (written by the test)."""
    parts, batches = FakePartitions(), CoordinatorBatches()
    groups = GroupCoordinator(log=CoordinatorLog(parts, OFFSETS, PendingWrites(), batches), config=BrokerConfig(),
                              now_ms=0)
    batches.collecting = True
    return parts, batches, groups


def test_one_note_per_group_and_record_batch():
    """Writes collected in one record batch are committed together: the group as it was before the
    batch is noted once; a batch written later is noted apart (the HW can stop between them)."""
    parts, batches, groups = _batched()
    p = groups.partition_for("cg")
    _join(groups, "m1")
    _join(groups, "m2")
    assert groups.group_timeline.pending(p) == 1
    assert _described(groups) == E.GROUP_ID_NOT_FOUND
    batches.flush()
    assert parts.appends == 1
    _join(groups, "m3")  # the next batch
    assert groups.group_timeline.pending(p) == 2
    batches.flush()
    _commit_hw(parts, groups, "cg")
    assert _described(groups)[2] == ["m1", "m2", "m3"]
    groups.tick(1)  # the tick forgets what is committed
    assert groups.group_timeline.pending(p) == 0


def test_the_hw_between_two_batches():
    parts, batches, groups = _batched()
    p = groups.partition_for("cg")
    _join(groups, "m1")
    _join(groups, "m2")
    batches.flush()
    end_of_first = parts.leo[(OFFSETS, p)]
    _join(groups, "m3")
    batches.flush()
    assert _described(groups) == E.GROUP_ID_NOT_FOUND
    parts.hw[(OFFSETS, p)] = end_of_first
    assert _described(groups)[2] == ["m1", "m2"]
    _commit_hw(parts, groups, "cg")
    assert _described(groups)[2] == ["m1", "m2", "m3"]


def test_a_committed_classic_group_is_described_as_it_is_now():
    """Kafka's classic groups keep their fields outside the timeline: a JoinGroup's change of state
    shows at once once the group itself is committed."""
    parts, _pending, groups = _setup()
    slot = groups.join_group("cl", "", None, "client", "host", 10_000, 30_000, "consumer",
                             [("range", b"x")], 0)
    assert slot is not None
    assert groups.describe_group("cl")["state"] == "Dead"  # its first record not committed
    _commit_hw(parts, groups, "cl")
    assert groups.describe_group("cl")["state"] == groups.groups["cl"].state.value
    assert groups.group_timeline.pending(groups.partition_for("cl")) == 0


def test_a_consumer_heartbeat_taking_over_a_simple_group_shows_only_once_committed():
    """A consumer group's first heartbeat over an empty classic group (here a "simple" one, offsets
    only) replaces it with its records (Kafka: maybeDeleteEmptyClassicGroup's tombstone and the
    heartbeat's records in one write, the consumer group materialized at their replay): until the HW
    passes them readers see the classic group, never an Empty consumer group that never existed."""
    parts, pending, groups = _setup()
    _commit(groups, pending, 42)
    _commit_hw(parts, groups, "g")
    assert _listed(groups) == [("g", "Empty", "classic")]
    _join(groups, "m1", gid="g")
    assert groups.groups["g"].group_type == "consumer"  # (the newest state, for the writes)
    assert _listed(groups) == [("g", "Empty", "classic")]
    assert groups.describe_group("g")["state"] == "Empty"
    assert groups.consumer_group_describe("g")["message"] == "Group g is not a consumer group."
    _commit_hw(parts, groups, "g")
    assert _described(groups, "g")[2] == ["m1"]
    assert _listed(groups) == [("g", _described(groups, "g")[0], "consumer")]
    assert groups.committed("g")[("t", 0)].offset == 42  # its offsets kept


class _RecordingLog:
    """A __consumer_offsets of one partition that keeps what is written, all of it committed: the
    log a new leader loads."""

    def __init__(self):
        self.records: list = []

    def append(self, partition: int, records: list, now_ms: int) -> int:
        for key, value in records:
            self.records.append((len(self.records), key, value))
        return len(self.records) - 1

    def read(self, partition: int):
        return iter(self.records)

    def has_partition(self, partition: int) -> bool:
        return True

    def end_offset(self, partition: int) -> int:
        return len(self.records)

    def committed_offset(self, partition: int) -> int:
        return len(self.records)

    def hold_until_committed(self, partition: int) -> None:
        pass


def test_a_load_shows_the_groups_as_at_the_hw_until_it_passes_their_records():
    """A new leader's log can end with group records its HW has not passed (Kafka's loader replays
    the log to its end and reads at the HW): a group deleted, changed or made by them is shown as it
    was at the HW until the HW passes its records."""
    one = {"offsets_topic_num_partitions": 1}
    written = _RecordingLog()
    source = GroupCoordinator(log=written, config=one, now_ms=0)
    assert source.commit_offsets("s", -1, "", None, {("t", 0): (42, -1, "")}, 0) == {("t", 0): E.NONE}
    _join(source, "m1")
    hw = len(written.records)
    assert source.delete_groups(["s"], 0) == {"s": E.NONE}
    _join(source, "m2")  # a new group epoch of cg
    _join(source, "m1", gid="new")  # a new group
    parts = FakePartitions()
    groups = GroupCoordinator(log=CoordinatorLog(parts, OFFSETS, PendingWrites()), config=one, now_ms=0)
    parts.hw[(OFFSETS, 0)] = hw
    parts.leo[(OFFSETS, 0)] = len(written.records)
    groups.load_records(written.records, 0, 0)
    cg = _described(groups)
    assert cg[1:] == (2, ["m1"])
    assert _listed(groups) == [("cg", cg[0], "consumer"), ("s", "Empty", "classic")]
    assert groups.describe_group("s")["state"] == "Empty"
    assert _described(groups, "new") == E.GROUP_ID_NOT_FOUND
    assert sorted(groups.groups) == ["cg", "new"]  # (the newest state, for the writes)
    parts.hw[(OFFSETS, 0)] = len(written.records)
    assert _described(groups)[1:] == (3, ["m1", "m2"]) and _described(groups, "new")[2] == ["m1"]
    assert [gid for gid, _state, _type in _listed(groups)] == ["cg", "new"]
    assert groups.describe_group("s")["state"] == "Dead"
    assert groups.group_timeline.pending(0) == 0


def test_a_simple_group_taken_over_by_a_consumer_group_is_written_with_its_tombstone():
    """As Kafka's maybeDeleteEmptyClassicGroup: the GroupMetadata tombstone first, in the heartbeat's
    write (also for a group of offsets only), and a reload finds the consumer group with the offsets."""
    from odradek.coordinator import group_records as rec

    one = {"offsets_topic_num_partitions": 1}
    written = _RecordingLog()
    source = GroupCoordinator(log=written, config=one, now_ms=0)
    source.commit_offsets("g", -1, "", None, {("t", 0): (42, -1, "")}, 0)
    end = len(written.records)
    _join(source, "m1", gid="g")
    assert written.records[end][1:] == (rec.group_metadata_key("g"), None)
    again = GroupCoordinator(log=written, config=one, now_ms=0)
    again.load_all(0)
    assert again.groups["g"].group_type == "consumer" and again.committed("g")[("t", 0)].offset == 42
