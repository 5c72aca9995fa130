"""The one group model: one map of groups of every type, writes as CoordinatorResults run by one
runtime (append, then apply, then wake; a failed append changes nothing), one replay of
__consumer_offsets at start-up, ids from the injected generator."""

from __future__ import annotations

from odradek.coordinator import share_state
from odradek.coordinator.consumer_group_state import ConsumerGroup
from odradek.coordinator.consumer_heartbeat import HeartbeatRequest
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.coordinator.group_state import Group
from odradek.coordinator.result import CoordinatorResult, CoordinatorRuntime
from odradek.wire.errors import ErrorCode as E
from tests.coordinator.committed_log import CommittedAtOnce

A = b"A" * 16


class MemoryLog(CommittedAtOnce):
    def __init__(self):
        self.parts: dict[int, list] = {}
        self.reads: dict[int, int] = {}
        self.fail = False

    def append(self, partition, records, now_ms):
        if self.fail:
            raise OSError("disk gone")
        log = self.parts.setdefault(partition, [])
        for k, v in records:
            log.append((len(log), k, v))
        return len(log) - 1

    def read(self, partition):
        self.reads[partition] = self.reads.get(partition, 0) + 1
        return list(self.parts.get(partition, []))

    def has_partition(self, partition):
        return True


def coordinator(log, **kw):
    return GroupCoordinator(log=log, config=GroupConfig(offsets_topic_num_partitions=3,
                                                        group_initial_rebalance_delay_ms=0), now_ms=1000, **kw)


def consumer_join(c, gid, member="m1", now=1000):
    return c.consumer_group_heartbeat(HeartbeatRequest(
        group_id=gid, member_id=member, member_epoch=0, rebalance_timeout_ms=30_000,
        subscribed_topic_names=["a"], owned=[]), now, {"a": (A, 2)})


def test_runtime_appends_then_applies_then_wakes_and_a_failed_append_changes_nothing():
    log, woken, applied = MemoryLog(), [], []
    rt = CoordinatorRuntime(log, lambda key: 1, woken.append)
    result = CoordinatorResult([(b"k", b"v")], lambda: applied.append(1) or "done", lambda e: f"failed: {e}",
                               wake=(("group", "g"),))
    assert rt.write("g", result, 5) == "done"
    assert log.parts[1] == [(0, b"k", b"v")] and applied == [1] and woken == [("group", "g")]
    log.fail = True
    assert rt.write("g", result, 6) == "failed: disk gone"
    assert log.parts[1] == [(0, b"k", b"v")] and applied == [1] and woken == [("group", "g")]


def test_one_map_holds_every_type_and_the_views_filter_it():
    c = coordinator(MemoryLog())
    assert c.commit_offsets("simple", -1, "", None, {("a", 0): (5, -1, "")}, 1000, api_version=9)[("a", 0)] is E.NONE
    assert consumer_join(c, "cg").error is E.NONE
    assert isinstance(c.groups["simple"], Group) and isinstance(c.groups["cg"], ConsumerGroup)
    assert sorted(c.groups) == ["cg", "simple"]
    assert list(c.classic_groups) == ["simple"] and list(c.consumer_groups) == ["cg"] and not c.streams_groups
    assert "cg" not in c.classic_groups and c.classic_groups.get("cg") is None
    assert [row[3] for row in c.list_groups()] == ["classic", "consumer"]


def test_a_commit_whose_records_cannot_be_written_is_answered_unknown_server_error_and_not_applied():
    log = MemoryLog()
    c = coordinator(log)
    assert consumer_join(c, "cg").error is E.NONE
    log.fail = True
    res = c.commit_offsets("cg", 2, "m1", None, {("a", 0): (5, -1, "")}, 1000, api_version=9)
    assert res == {("a", 0): E.UNKNOWN_SERVER_ERROR} and c.committed("cg") == {}
    r = consumer_join(c, "cg", member="m2")
    assert r.error is E.UNKNOWN_SERVER_ERROR and list(c.groups["cg"].members) == ["m1"]


def test_start_up_reads_each_partition_once_and_hands_every_record_to_the_replay_hook():
    log = MemoryLog()
    c = coordinator(log)
    assert consumer_join(c, "cg").error is E.NONE
    c.commit_offsets("simple", -1, "", None, {("a", 0): (5, -1, "")}, 1000, api_version=9)
    share_key = share_state.group_metadata_key("sg")
    log.append(c.partition_for("sg"), [(share_key, share_state.group_metadata_value(3, 7))], 1000)
    log.reads.clear()
    seen = []
    c2 = coordinator(log, replay=lambda k, v: seen.append(share_state.decode_group_metadata(k, v)))
    c2.load_all(2000)
    assert log.reads == {0: 1, 1: 1, 2: 1}  # one replay for classic, consumer and streams groups alike
    assert ("sg", 3, 7) in seen
    assert isinstance(c2.groups["cg"], ConsumerGroup) and c2.committed("simple") == {("a", 0): c.committed(
        "simple")[("a", 0)]}


def test_member_ids_come_from_the_injected_generator():
    ids = iter(["id-1", "id-2"])
    c = coordinator(MemoryLog(), new_uuid=lambda: next(ids))
    r = c.consumer_group_heartbeat(HeartbeatRequest(
        group_id="cg", member_id="", member_epoch=0, rebalance_timeout_ms=30_000, subscribed_topic_names=["a"],
        owned=[], api_version=0), 1000, {"a": (A, 2)})
    assert r.error is E.NONE and r.member_id == "id-1"
    slot = c.join_group("g", "", None, "client", "host", 10_000, 10_000, "consumer", [("range", b"")], 1000,
                        api_version=9)
    assert slot.result.error is E.MEMBER_ID_REQUIRED and slot.result.member_id == "client-id-2"


def share_join(sg, gid, member="s1", now=1000):
    return sg.heartbeat(gid, member, 0, ["a"], None, "client", "/127.0.0.1", now, {"a": (A, 2)})


def test_share_groups_live_in_the_one_map_and_answer_the_group_apis_as_kafka():
    from odradek.coordinator.share_group_coordinator import ShareGroup, ShareGroupCoordinator

    c = coordinator(MemoryLog())
    sg = ShareGroupCoordinator(groups=c.groups)
    assert consumer_join(c, "cg").error is E.NONE
    share_join(sg, "sh")
    assert isinstance(c.groups["sh"], ShareGroup) and sorted(c.groups) == ["cg", "sh"]
    assert list(sg.groups) == ["sh"] and "cg" not in sg.groups and sg.groups.get("cg") is None
    assert c.list_groups() == [("cg", "consumer", "Stable", "consumer"), ("sh", "share", "Stable", "share")]
    assert c.list_groups(types=["share"]) == [("sh", "share", "Stable", "share")]
    assert c.list_groups(states=["empty"]) == []
    # Kafka's ShareGroup: no offsets commit or delete (GROUP_ID_NOT_FOUND), none fetched, not a classic,
    # consumer or streams group for the other protocols
    assert c.commit_offsets("sh", -1, "", None, {("a", 0): (5, -1, "")}, 1000, api_version=9) == \
        {("a", 0): E.GROUP_ID_NOT_FOUND}
    assert isinstance(c.groups["sh"], ShareGroup)  # no "simple" classic group took the id
    assert c.validate_txn_commit("sh", -1, "", None, 1000, [("a", 0)]) is E.GROUP_ID_NOT_FOUND
    assert c.delete_offsets("sh", [("a", 0)], 1000) == (E.GROUP_ID_NOT_FOUND, {})
    assert c.validate_offset_fetch("sh", None, -1) is E.NONE and c.fetch_offsets("sh", None) == (E.NONE, {})
    assert c.describe_group("sh")["state"] == "Dead"
    assert consumer_join(c, "sh").error is E.GROUP_ID_NOT_FOUND
    assert c.join_group("sh", "", None, "c", "h", 10_000, 10_000, "consumer", [("range", b"")],
                        1000).result.error is E.INCONSISTENT_GROUP_PROTOCOL
    c.tick(10**9)  # the group coordinator's timers leave share groups to the share group coordinator
    assert isinstance(c.groups["sh"], ShareGroup)
    c.unload_partition(c.partition_for("sh"))  # its __consumer_offsets partition moved: it goes with it
    assert "sh" not in c.groups and "sh" not in sg.groups
