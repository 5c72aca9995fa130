"""Share groups survive a broker restart: the group's epoch (ShareGroupMetadata in __consumer_offsets)
and each share-partition's SPSO and in-flight record states (in __share_group_state) are written as
they change and read back at start-up; deletions write tombstones; old snapshots are pruned."""
from __future__ import annotations

import importlib

import pytest

from odradek.api_handlers.context import RequestContext
from odradek.config import BrokerConfig
from odradek.coordinator import share_state
from odradek.coordinator.share_partition import ACCEPT, ACKNOWLEDGED, ARCHIVED, AVAILABLE, REJECT
from odradek.wire import records
from odradek.wire.messages import (alter_share_group_offsets_request as alt, create_topics_request as ct,
                                   delete_groups_request as dg, delete_share_group_offsets_request as dl,
                                   find_coordinator_request as fc, share_group_heartbeat_request as hb)

STATE = "__share_group_state"


class Clock:
    def __init__(self):
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def start(path, **props):
    from odradek.broker.broker import Broker

    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(path),
                                        "offsets.topic.num.partitions": "3",
                                        "share.coordinator.state.topic.num.partitions": "3", **props})
    b = Broker(cfg, Clock(), lambda delay, fn: None)
    b.start()
    return b


def call(b, module: str, req, version: int | None = None):
    mod = importlib.import_module(f"odradek.api_handlers.{module}")
    ctx = RequestContext(api_key=mod.API_KEY, api_version=mod.MAX_VERSION if version is None else version,
                         correlation_id=1, client_id="test", now_ms=b.clock_ms(), services=b.services,
                         client_host="127.0.0.1")
    return mod.handle(ctx, req)


def setup_topic(b, name="t", n=10):
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name=name, num_partitions=1, replication_factor=1)], timeout_ms=1000))
    assert r.topics[0].error_code == 0
    batch = records.build_batch([(None, b"v%d" % i) for i in range(n)], base_timestamp=b.clock_ms())
    b.replicas.append(name, 0, batch, b.clock_ms())
    assert call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"])) \
        .coordinators[0].error_code == 0
    return bytes(b.image.topics[name].topic_id)


def join(b, group="g", member="m1", topic="t"):
    r = call(b, "share_group_heartbeat", hb.ShareGroupHeartbeatRequest(
        group_id=group, member_id=member, member_epoch=0, subscribed_topic_names=[topic]))
    assert r.error_code == 0, r.error_message
    return r


def leave(b, group="g", member="m1"):
    r = call(b, "share_group_heartbeat", hb.ShareGroupHeartbeatRequest(group_id=group, member_id=member,
                                                                       member_epoch=-1))
    assert r.error_code == 0


def test_spso_in_flight_states_and_group_epoch_survive_a_restart(tmp_path):
    b = start(tmp_path, **{"group.share.delivery.count.limit": "3"})
    tid = setup_topic(b)
    b.share_groups.settings = lambda g: {"share.auto.offset.reset": "earliest"}
    join(b)
    sg = b.share_groups
    sp = sg.share_partition("g", tid, "t", 0)  # (the first ShareFetch)
    settings = sg.share_settings("g")
    assert sp.acquire("m1", [(0, 9)], 100, b.clock_ms(), settings) == [(0, 9, 1)]
    assert sp.acknowledge("m1", 0, 2, [ACCEPT], b.clock_ms(), settings) == 0   # SPSO -> 3
    assert sp.acknowledge("m1", 5, 5, [REJECT], b.clock_ms(), settings) == 0   # archived
    assert sp.acknowledge("m1", 6, 6, [ACCEPT], b.clock_ms(), settings) == 0
    b.persist_share_state(b.clock_ms())
    leave(b)  # 3, 4, 7, 8, 9 stay acquired (the session's end releases them); read back AVAILABLE
    epoch = sg.groups["g"].group_epoch
    b.tick(b.clock_ms())
    b.close()

    b = start(tmp_path)
    try:
        sg = b.share_groups
        g = sg.groups["g"]
        assert (g.state, g.group_epoch, g.members) == ("Empty", epoch, {})
        sp = sg.partitions[("g", tid, 0)]
        assert (sp.start_offset, sp.end_offset) == (3, 10)
        assert [(o, sp.records[o].state, sp.records[o].delivery_count) for o in range(3, 10)] == [
            (3, AVAILABLE, 1), (4, AVAILABLE, 1), (5, ARCHIVED, 1), (6, ACKNOWLEDGED, 1),
            (7, AVAILABLE, 1), (8, AVAILABLE, 1), (9, AVAILABLE, 1)]
        r = join(b, member="m2")
        assert r.member_epoch == epoch + 1  # the epoch carries on
        got = sp.acquire("m2", [(3, 9)], 100, b.clock_ms(), sg.share_settings("g"))
        assert got == [(3, 4, 2), (7, 9, 2)]  # redelivered: the second delivery
    finally:
        b.close()


def test_alter_delete_offsets_and_delete_group_are_persisted(tmp_path):
    b = start(tmp_path)
    tid = setup_topic(b)
    setup_topic_2 = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name="u", num_partitions=2, replication_factor=1)], timeout_ms=1000))
    assert setup_topic_2.topics[0].error_code == 0
    uid = bytes(b.image.topics["u"].topic_id)
    r = call(b, "alter_share_group_offsets", alt.AlterShareGroupOffsetsRequest(group_id="a", topics=[
        alt.AlterShareGroupOffsetsRequestTopic(topic_name=n, partitions=[
            alt.AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in ps])
        for n, ps in (("t", [(0, 4)]), ("u", [(0, 1), (1, 2)]))]))
    assert r.error_code == 0
    for g in ("b", "c"):
        call(b, "alter_share_group_offsets", alt.AlterShareGroupOffsetsRequest(group_id=g, topics=[
            alt.AlterShareGroupOffsetsRequestTopic(topic_name="t", partitions=[
                alt.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=7)])]))
    r = call(b, "delete_share_group_offsets", dl.DeleteShareGroupOffsetsRequest(group_id="a", topics=[
        dl.DeleteShareGroupOffsetsRequestTopic(topic_name="u")]))
    assert r.responses[0].error_code == 0
    assert call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=["c"])).results[0].error_code == 0
    b.close()

    b = start(tmp_path)
    try:
        sg = b.share_groups
        assert sorted(sg.groups) == ["a", "b"] and sg.groups["a"].group_epoch == 1
        assert {k: sp.start_offset for k, sp in sg.partitions.items()} == {("a", tid, 0): 4, ("b", tid, 0): 7}
        assert uid not in {k[1] for k in sg.partitions}
        # the share-partitions each group initialized (ShareGroupStatePartitionMetadata records)
        assert (sg.initialized_partitions("a"), sg.initialized_partitions("b")) == ({(tid, 0)}, {(tid, 0)})
        assert sg.groups["a"].initialized == {tid: {0}} and sg.groups["a"].topic_names[tid] == "t"
        assert not sg.has_changes()
    finally:
        b.close()


def test_initialized_partitions_of_a_group_survive_a_restart(tmp_path):
    b = start(tmp_path)
    tid = setup_topic(b)
    join(b)
    leave(b)
    b.tick(b.clock_ms())
    b.close()

    b = start(tmp_path)
    try:
        b.share_groups.partitions.clear()  # (as on a coordinator that does not lead the partition)
        assert b.share_groups.initialized_partitions("g") == {(tid, 0)}
    finally:
        b.close()


def test_state_records_are_pruned_to_the_latest_snapshot_of_each_key(tmp_path):
    b = start(tmp_path, **{"share.coordinator.state.topic.prune.interval.ms": "1000"})
    tid = setup_topic(b)
    sg = b.share_groups
    part = share_state.partition_for("g", tid, 0, 3)
    for offset in range(5):  # five snapshots of one share-partition
        call(b, "alter_share_group_offsets", alt.AlterShareGroupOffsetsRequest(group_id="g", topics=[
            alt.AlterShareGroupOffsetsRequestTopic(topic_name="t", partitions=[
                alt.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=offset)])]))
    plog = b.replicas.get(STATE, part)
    assert (plog.log_start_offset, plog.log_end_offset) == (0, 5)
    b.clock_ms.now += 1000
    b.tick(b.clock_ms())
    assert (plog.log_start_offset, plog.log_end_offset) == (4, 5)
    assert sg.partitions[("g", tid, 0)].start_offset == 4
    b.close()
    b = start(tmp_path)
    try:
        assert b.share_groups.partitions[("g", tid, 0)].start_offset == 4
    finally:
        b.close()


@pytest.mark.parametrize("deleted", ["topic", "none"])
def test_state_of_a_topic_deleted_while_down_is_dropped(tmp_path, deleted):
    b = start(tmp_path)
    tid = setup_topic(b)
    call(b, "alter_share_group_offsets", alt.AlterShareGroupOffsetsRequest(group_id="g", topics=[
        alt.AlterShareGroupOffsetsRequestTopic(topic_name="t", partitions=[
            alt.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=2)])]))
    if deleted == "topic":
        from odradek.wire.messages import delete_topics_request as dt
        r = call(b, "delete_topics", dt.DeleteTopicsRequest(topic_names=["t"], timeout_ms=1000), 5)
        assert r.responses[0].error_code == 0
    b.close()
    b = start(tmp_path)
    try:
        assert (("g", tid, 0) in b.share_groups.partitions) == (deleted == "none")
        assert "g" in b.share_groups.groups
    finally:
        b.close()
