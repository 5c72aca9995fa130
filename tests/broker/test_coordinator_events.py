"""The group coordinator's requests run as events (broker/coordinator_events.py) on an in-process
broker: queued and taken a slice at a time, other work served between slices, and the appends of
a slice written as one record batch per partition (group.coordinator.append.linger.ms: -1
adaptive, 0 each at once, N: once the batch is N ms old or another append comes). Counted and
ordered, not timed."""
from __future__ import annotations

import asyncio
import functools

import pytest

from inproc_broker import call, start_broker
from odradek.broker.coordinator_events import NextStep
from odradek.config import BrokerConfig, ConfigError
from odradek.controller import configs as C
from odradek.wire.messages import consumer_group_heartbeat_request as hb
from odradek.wire.messages import create_topics_request as ct
from odradek.wire.messages import find_coordinator_request as fc
from odradek.wire.messages import offset_commit_request as oc

OFFSETS = "__consumer_offsets"


@pytest.fixture
def broker_with(tmp_path):
    started = []

    def start(**props):
        b = start_broker(tmp_path / str(len(started)), offsets_topic_num_partitions="1", **props)
        started.append(b)
        r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
            name="t", num_partitions=4, replication_factor=1)], timeout_ms=1000), 7)
        assert r.topics[0].error_code == 0
        call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 6)
        return b

    yield start
    for b in started:
        b.close()


def join(b, member: str):
    return call(b, "consumer_group_heartbeat", hb.ConsumerGroupHeartbeatRequest(
        group_id="g", member_id=member, member_epoch=0, rebalance_timeout_ms=30000, subscribed_topic_names=["t"],
        topic_partitions=[]), 1)


def data_batches(b) -> list[list[bytes]]:
    """The keys of each data batch of __consumer_offsets-0 after the group's first record."""
    log = b.groups.log
    return [[r.key for r in recs] for h, recs in log.read_batches(0) if not h.is_control]


async def _joins(b, members: list[str]):
    events = b.coordinator_events
    answers = await asyncio.gather(*(events.run(lambda m=m: join(b, m)) for m in members))
    return answers


def test_the_appends_of_a_slice_are_one_batch_and_the_same_records_as_written_one_by_one(broker_with):
    members = [f"m{i:02d}" for i in range(40)]
    at_once = broker_with(group_coordinator_append_linger_ms="0")
    before = len(data_batches(at_once))
    answers = asyncio.run(_joins(at_once, members))
    assert [r.error_code for r in answers] == [0] * 40
    one_by_one = data_batches(at_once)[before:]
    assert len(one_by_one) == 40  # each join's append its own batch

    adaptive = broker_with()  # Kafka's default, -1
    assert adaptive.config.group_coordinator_append_linger_ms == -1
    adaptive.coordinator_events.slice_s = 60.0  # (every join in one slice)
    before = len(data_batches(adaptive))
    answers = asyncio.run(_joins(adaptive, members))
    assert [r.error_code for r in answers] == [0] * 40
    batched = data_batches(adaptive)[before:]
    assert len(batched) == 1 and adaptive.coordinator_events.slices == 1
    assert batched[0] == [k for keys in one_by_one for k in keys]  # the same records, in the same order
    # the state the joins made is the state the log holds: a reload of the partition gives it again
    g = adaptive.groups.consumer_groups["g"]
    epoch, joined = g.group_epoch, sorted(g.members)
    adaptive.groups.unload_partition(0)
    adaptive.groups.load_partition(0)
    g = adaptive.groups.consumer_groups["g"]
    assert g.group_epoch == epoch and sorted(g.members) == joined == members


def test_other_work_is_served_between_slices(broker_with):
    b = broker_with()
    events = b.coordinator_events
    events.slice_s = 0.0  # one event a slice
    order: list[str] = []

    def event(name: str):
        def run():
            order.append(name)
            return join(b, name)
        return run

    async def main():
        loop = asyncio.get_running_loop()
        futures = [events.run(event(f"m{i}")) for i in range(3)]
        loop.call_soon(order.append, "another client's request")
        return await asyncio.gather(*futures)

    answers = asyncio.run(main())
    assert order == ["m0", "another client's request", "m1", "m2"]
    assert [r.error_code for r in answers] == [0, 0, 0]
    assert events.slices == 3
    # each slice wrote its own batch
    assert b.coordinator_batches.flushes >= 3


def test_a_lingering_batch_waits_and_is_written_before_any_other_append(broker_with):
    b = broker_with(group_coordinator_append_linger_ms="600000")
    events = b.coordinator_events
    events.slice_s = 0.0
    before = len(data_batches(b))
    written: list = []

    async def main():
        futures = [events.run(lambda m=m: join(b, m)) for m in ("m0", "m1")]
        while events.slices < 2:  # both slices ran
            await asyncio.sleep(0)
        written.append([f.done() for f in futures])  # answered only once their batch is in the log
        assert data_batches(b)[before:] == []
        # an append outside the slices (an OffsetCommit of another group on the same partition)
        r = call(b, "offset_commit", oc.OffsetCommitRequest(
            group_id="other", generation_id_or_member_epoch=-1, member_id="", topics=[oc.OffsetCommitRequestTopic(
                name="t", partitions=[oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=5)])]), 8)
        assert r.topics[0].partitions[0].error_code == 0
        return await asyncio.gather(*futures)

    answers = asyncio.run(main())
    assert written == [[False, False]]
    assert [r.error_code for r in answers] == [0, 0]
    batches = data_batches(b)[before:]
    assert len(batches) == 2  # the joins' batch first (the order of the state changes), then the commit
    assert any(b"m0" in k for k in batches[0]) and any(b"m1" in k for k in batches[0])
    assert not any(b"m0" in k or b"m1" in k for k in batches[1])


def test_a_request_in_steps_goes_on_behind_the_events_waiting(broker_with):
    """An event that returns a NextStep is not answered: its next step is queued behind the events
    waiting (a large OffsetCommit in steps); the step that returns the response answers it, once
    the batches of every step's appends are written."""
    b = broker_with(group_coordinator_append_linger_ms="600000")
    events = b.coordinator_events
    events.slice_s = 0.0  # one event a slice
    order: list[str] = []
    before = len(data_batches(b))

    def steps(name: str, last: int, write_at: int | None = None):
        def step(i: int = 0):
            order.append(f"{name}{i}")
            if i == write_at:
                assert join(b, name).error_code == 0  # (an append: its batch lingers)
            return NextStep(functools.partial(step, i + 1)) if i < last else name
        return step

    async def main():
        big = events.run(steps("big", 3, write_at=1))
        small = events.run(steps("small", 0))
        while events.slices < 5:
            await asyncio.sleep(0)
        waiting = big.done()  # its append's batch is not written yet
        events.close()  # (a clean stop writes it)
        return waiting, await asyncio.gather(big, small)

    waiting, answers = asyncio.run(main())
    assert order == ["big0", "small0", "big1", "big2", "big3"]
    assert events.slices == 5
    assert not waiting and answers == ["big", "small"]
    assert len(data_batches(b)[before:]) == 1


def test_the_linger_setting_is_kafkas():
    assert BrokerConfig().group_coordinator_append_linger_ms == -1
    assert BrokerConfig.from_properties({"group.coordinator.append.linger.ms": "5"}).group_coordinator_append_linger_ms == 5
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"group.coordinator.append.linger.ms": "-2"})
    # Kafka 4.3's message for the same value (its storage tool, and the broker, refuse it)
    assert str(e.value) == ("Invalid value -2 for configuration group.coordinator.append.linger.ms: "
                            "Value must be at least -1")
    assert C.BROKER_STATIC["group.coordinator.append.linger.ms"] == (C.T_INT, "-1")  # DescribeConfigs


def test_a_large_offset_commit_over_a_connection_is_an_event_a_step(tmp_path):
    """A client's OffsetCommit of 4,000 partitions (30 of them existing) through a real connection:
    each of its steps is a coordinator event (STEP_ENTRIES partitions checked or answered a step,
    the commit one of them), its answer what the same commit in one piece gives, its offsets one
    record batch."""
    from test_server import Client, Running

    from odradek.api_handlers.context import STEP_ENTRIES

    r = Running(tmp_path, **{"offsets.topic.num.partitions": "1"})
    try:
        c = Client(r.port)
        topics = [f"t{i}" for i in range(10)]
        created = c.call(ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
            name=t, num_partitions=3, replication_factor=1) for t in topics], timeout_ms=10000), 7)
        assert {t.error_code for t in created.topics} == {0}
        while c.call(fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 6).coordinators[0].error_code:
            pass  # (until __consumer_offsets is led and loaded)
        broker = r.server.broker
        events = broker.coordinator_events
        events.slice_s = 0.0  # one event a slice
        end = broker.groups.log.end_offset(0)
        slices = events.slices
        req = oc.OffsetCommitRequest(group_id="g", generation_id_or_member_epoch=-1, member_id="", topics=[
            oc.OffsetCommitRequestTopic(name=t, partitions=[oc.OffsetCommitRequestPartition(
                partition_index=p, committed_offset=p, committed_leader_epoch=-1, committed_metadata="")
                for p in range(400)]) for t in topics])
        resp = c.call(req, 8)
        assert events.slices - slices == 1 + (4000 + 30) // STEP_ENTRIES
        assert [(t.name, [(p.partition_index, p.error_code) for p in t.partitions]) for t in resp.topics] == [
            (t, [(p, 3) for p in range(3, 400)] + [(p, 0) for p in range(3)]) for t in topics]  # (Kafka's Builder)
        assert [len(recs) for h, recs in broker.groups.log.read_batches(0) if h.base_offset >= end] == [30]
    finally:
        r.stop()
