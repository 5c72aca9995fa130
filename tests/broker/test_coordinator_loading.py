"""The group coordinator follows the leadership of its __consumer_offsets partitions
(broker/coordinator_loading.py over coordinator/partition_loading.py): a real ReplicaManager and
log, metadata images moving the leadership, and a fake scheduler standing for the event loop."""
from __future__ import annotations

import pytest

from odradek.broker.coordinator_loading import CoordinatorLoader
from odradek.broker.coordinator_log import CoordinatorLog, plain_records
from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.coordinator.group_coordinator import GroupCoordinator
from odradek.coordinator.partition_loading import CoordinatorPartitions
from odradek.log import LogManager
from odradek.wire.errors import ErrorCode as E

ME, B = 1, 2
TOPIC = "__consumer_offsets"
TID = bytes([9]) * 16


def image(leader: int, epoch: int) -> MetadataImage:
    isr = (leader,)
    t = TopicImage(TOPIC, TID, {0: PartitionImage(0, leader, epoch, epoch, (ME, B), isr)})
    brokers = {i: BrokerImage(i, f"h{i}", 9000 + i, epoch=100 + i) for i in (ME, B)}
    return MetadataImage(topics={TOPIC: t}, topics_by_id={TID: t}, brokers=brokers, offset=epoch)


class Fetchers:
    def become_follower(self, tp, leader_id, leader_epoch, plog, topic_id=None):
        pass

    def stop_following(self, tps):
        pass


class World:
    def __init__(self, tmp_path, step_bytes: int = 4 << 20):
        self.now = 1000
        self.pokes: list = []
        self.steps: list = []  # what the event loop would run next
        self.applied: list[int] = []
        self.rm = ReplicaManager(LogManager([str(tmp_path / "logs")]), ME, lambda t: None, lambda key: None,
                                 lambda: self.now, fetchers=Fetchers())
        self.image = None
        self.groups = GroupCoordinator(log=CoordinatorLog(self.rm, TOPIC), config={"offsets_topic_num_partitions": 1},
                                       now_ms=self.now, poke=self.pokes.append, partitions=CoordinatorPartitions())

        def apply(partition, batches, log_start, now_ms):
            self.applied.append(partition)
            self.groups.load_records(plain_records(batches, log_start), now_ms)

        self.loader = CoordinatorLoader(TOPIC, self.rm, self.groups.runtime.partitions, apply,
                                        self.groups.unload_partition, lambda: self.now,
                                        lambda delay, fn: self.steps.append(fn), step_bytes=step_bytes)
        self.rm.leadership_listeners.append(self.loader.leadership_changed)

    def lead(self, leader: int, epoch: int) -> None:
        new = image(leader, epoch)
        if self.image is None:
            self.rm.start(new)
        else:
            self.rm.on_metadata(self.image, new)
        self.image = new

    def run(self) -> int:
        n = 0
        while self.steps:
            self.steps.pop(0)()
            n += 1
        return n

    def commit(self, offset: int) -> dict:
        return self.groups.commit_offsets("g", -1, "", None, {("t", 0): (offset, -1, "")}, self.now)

    def committed(self) -> int | None:
        om = self.groups.committed("g").get(("t", 0))
        return None if om is None else om.offset


def test_load_in_progress_until_the_background_read_is_done(tmp_path):
    w = World(tmp_path)
    w.lead(ME, 1)
    assert w.groups.coordinator_error("g") is E.COORDINATOR_LOAD_IN_PROGRESS  # elected, not read yet
    assert w.run() == 1
    assert w.groups.coordinator_error("g") is E.NONE
    assert w.commit(42) == {("t", 0): E.NONE} and w.committed() == 42


def test_follower_unloads_and_a_new_leadership_reloads_from_the_log(tmp_path):
    w = World(tmp_path)
    w.lead(ME, 1)
    w.run()
    w.commit(42)
    w.lead(B, 2)  # another broker leads: this one is a follower now
    assert w.groups.coordinator_error("g") is E.NOT_COORDINATOR and w.groups.groups == {}
    w.lead(ME, 3)
    assert w.groups.coordinator_error("g") is E.COORDINATOR_LOAD_IN_PROGRESS and w.committed() is None
    w.run()
    assert w.groups.coordinator_error("g") is E.NONE and w.committed() == 42


def test_a_load_overtaken_by_a_newer_transition_is_never_applied(tmp_path):
    w = World(tmp_path)
    w.lead(ME, 1)
    w.run()
    w.commit(42)
    w.lead(B, 2)
    w.lead(ME, 3)  # a load starts (not run yet) ...
    w.lead(B, 4)   # ... and leadership moves away before it runs
    w.lead(ME, 5)  # back: a second load
    assert len(w.steps) == 2
    w.applied.clear()
    w.run()
    assert w.applied == [0]  # only the current load's records were replayed
    assert w.groups.coordinator_error("g") is E.NONE and w.committed() == 42


def test_leadership_lost_mid_read_stops_the_read(tmp_path):
    w = World(tmp_path, step_bytes=1)  # one read per step
    w.lead(ME, 1)
    w.run()
    for i in range(200):  # enough batches for several reads
        w.commit(i)
    w.lead(B, 2)
    w.lead(ME, 3)
    w.steps.pop(0)()  # the first read
    w.lead(B, 4)  # lost in the middle
    w.run()
    assert w.groups.coordinator_error("g") is E.NOT_COORDINATOR and w.groups.groups == {}


def test_parked_joins_answer_not_coordinator_when_leadership_moves(tmp_path):
    w = World(tmp_path)
    w.lead(ME, 1)
    w.run()
    first = w.groups.join_group("g", "", None, "c", "/h", 10_000, 10_000, "consumer", [("range", b"")], w.now)
    assert first.result.error is E.MEMBER_ID_REQUIRED
    slot = w.groups.join_group("g", first.result.member_id, None, "c", "/h", 10_000, 10_000, "consumer",
                               [("range", b"")], w.now)
    assert not slot.done  # waits for the initial rebalance delay
    w.pokes.clear()
    w.lead(B, 2)
    assert slot.done and slot.result.error is E.NOT_COORDINATOR
    assert ("group", "g") in w.pokes


def test_a_stale_epoch_changes_nothing(tmp_path):
    w = World(tmp_path)
    w.lead(ME, 5)
    w.run()
    w.commit(7)
    w.loader.leadership_changed({}, {(TOPIC, 0): 4})  # an older resignation: ignored
    w.loader.leadership_changed({(TOPIC, 0): 5}, {})  # the same election again: no new load
    assert w.steps == [] and w.groups.coordinator_error("g") is E.NONE and w.committed() == 7


def _find(w: World, leader_image) -> tuple:
    from odradek.api_handlers import find_coordinator
    from odradek.api_handlers.context import RequestContext
    from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest

    from fake_services import services

    svc = services(image_of=lambda: leader_image, replicas=w.rm, groups=w.groups)
    ctx = RequestContext(api_key=10, api_version=4, correlation_id=1, client_id="c", now_ms=w.now, services=svc)
    c = find_coordinator.handle(ctx, FindCoordinatorRequest(key_type=0, coordinator_keys=["g"])).coordinators[0]
    return c.error_code, c.node_id, c.host, c.port


def test_find_coordinator_answers_the_partition_leader_from_the_metadata(tmp_path):
    from fake_services import NODE

    w = World(tmp_path)
    w.lead(ME, 1)
    # led here but still loading: this node (its group requests answer COORDINATOR_LOAD_IN_PROGRESS)
    assert _find(w, w.image) == (E.NONE, NODE.node_id, NODE.host, NODE.port)
    w.run()
    w.lead(B, 2)
    assert _find(w, w.image) == (E.NONE, B, "h2", 9002)  # another broker leads: its endpoint
    leaderless = image(-1, 3)
    assert _find(w, leaderless)[0] == E.COORDINATOR_NOT_AVAILABLE
    fenced = image(B, 3)
    fenced.brokers[B] = BrokerImage(B, "h2", 9002, fenced=True, epoch=102)
    assert _find(w, fenced)[0] == E.COORDINATOR_NOT_AVAILABLE


def test_group_requests_answer_load_in_progress_then_serve(tmp_path):
    from odradek.api_handlers import heartbeat, offset_fetch
    from odradek.api_handlers.context import RequestContext
    from odradek.wire.messages.heartbeat_request import HeartbeatRequest
    from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic

    from fake_services import services

    w = World(tmp_path)
    w.lead(ME, 1)
    svc = services(image_of=lambda: w.image, replicas=w.rm, groups=w.groups)

    def ctx(key, v):
        return RequestContext(api_key=key, api_version=v, correlation_id=1, client_id="c", now_ms=w.now, services=svc)

    fetch = OffsetFetchRequest(group_id="g", topics=[OffsetFetchRequestTopic(name="t", partition_indexes=[0])])
    assert offset_fetch.handle(ctx(9, 7), fetch).error_code == E.COORDINATOR_LOAD_IN_PROGRESS
    hb = HeartbeatRequest(group_id="g", generation_id=1, member_id="m")
    assert heartbeat.handle(ctx(12, 4), hb).error_code == E.COORDINATOR_LOAD_IN_PROGRESS
    w.run()
    assert offset_fetch.handle(ctx(9, 7), fetch).error_code == E.NONE
    w.lead(B, 2)
    assert offset_fetch.handle(ctx(9, 7), fetch).error_code == E.NOT_COORDINATOR
    assert heartbeat.handle(ctx(12, 4), hb).error_code == E.NOT_COORDINATOR


@pytest.mark.parametrize("stopped", [False, True])
def test_a_request_that_sets_a_pending_leadership_unloads_the_coordinator_only_at_the_next_turn(tmp_path, stopped):
    """A large leadership change is set a slice at a time (ReplicaManager LEAD_SLICE); a coordinator
    write to a partition still to be set sets it at once (_settle). Losing the leadership then must not
    unload the coordinator's partition inside the write (its groups dropped under the handler, its
    parked requests failed twice): the listeners are told at the loop's next turn, as Kafka's
    coordinator runtime runs onResignation as an event of its own. The write answers NOT_COORDINATOR.
    ``stopped``: the broker stops before that turn (ReplicaManager.stop, before its logs close in a
    worker): the change is never told - no listener loads or unloads while the logs close."""
    from odradek.broker.replica_manager import LEAD_SLICE

    queued: list = []  # the event loop's next callbacks
    parts = {"A": LEAD_SLICE + 10, TOPIC: 1}  # "A" sorts first: __consumer_offsets-0 is in a later slice
    ids = {"A": bytes([8]) * 16, TOPIC: TID}

    def big_image(leader: int, epoch: int) -> MetadataImage:
        topics = {name: TopicImage(name, ids[name], {p: PartitionImage(p, leader, epoch, epoch, (ME, B), (leader,))
                                                     for p in range(n)}) for name, n in parts.items()}
        brokers = {i: BrokerImage(i, f"h{i}", 9000 + i, epoch=100 + i) for i in (ME, B)}
        return MetadataImage(topics=topics, topics_by_id={t.topic_id: t for t in topics.values()}, brokers=brokers,
                             offset=epoch)

    rm = ReplicaManager(LogManager([str(tmp_path / "logs")]), ME, lambda t: None, lambda key: None, lambda: 1000,
                        fetchers=Fetchers(), background=queued.append)
    groups = GroupCoordinator(log=CoordinatorLog(rm, TOPIC), config={"offsets_topic_num_partitions": 1},
                              now_ms=1000, poke=lambda key: None, partitions=CoordinatorPartitions())
    handling = [False]
    unloaded_inside: list[bool] = []

    def unload(partition: int) -> None:
        unloaded_inside.append(handling[0])
        groups.unload_partition(partition)

    loader = CoordinatorLoader(TOPIC, rm, groups.runtime.partitions,
                               lambda p, batches, start, now: groups.load_records(plain_records(batches, start), now),
                               unload, lambda: 1000, lambda delay, fn: queued.append(fn))
    rm.leadership_listeners.append(loader.leadership_changed)
    led = big_image(ME, 1)
    rm.start(led)
    while queued:
        queued.pop(0)()
    assert groups.commit_offsets("g", -1, "", None, {("t", 0): (42, -1, "")}, 1000) == {("t", 0): E.NONE}

    rm.on_metadata(led, big_image(B, 2))  # all moves to B: the first slice now, the rest pending
    assert groups.coordinator_error("g") is E.NONE and queued  # __consumer_offsets-0 not set yet
    handling[0] = True
    answer = groups.commit_offsets("g", -1, "", None, {("t", 0): (43, -1, "")}, 1000)
    handling[0] = False
    assert answer == {("t", 0): E.NOT_COORDINATOR}
    assert unloaded_inside == []  # not inside the request ...
    assert groups.groups["g"].offsets[("t", 0)].offset == 42  # the group as the request left it
    if stopped:
        rm.stop()
    while queued:
        queued.pop(0)()
    if stopped:
        assert unloaded_inside == [] and groups.groups["g"].offsets[("t", 0)].offset == 42
        return
    assert unloaded_inside == [False]  # ... but at the loop's next turn
    assert groups.coordinator_error("g") is E.NOT_COORDINATOR and groups.groups == {}


def test_a_stop_ends_a_load_under_way_and_loads_nothing_after(tmp_path):
    """The broker stops (stop_work, before its logs close in a worker while the loop goes on): the
    next step of a load under way, scheduled on the loop, reads and replays nothing, and a
    leadership change told later loads nothing (a load reads the logs being closed, and one that
    completes a transaction writes to them)."""
    w = World(tmp_path)
    w.lead(ME, 1)
    w.run()
    w.commit(42)
    w.lead(B, 2)
    w.lead(ME, 3)  # a load scheduled on the loop
    w.loader.stop()
    w.applied.clear()
    assert w.run() == 1 and w.applied == []  # (the step ran: it stopped at once)
    w.lead(B, 4)
    w.lead(ME, 5)
    assert w.steps == [] and w.applied == []
    assert w.groups.coordinator_error("g") is E.COORDINATOR_LOAD_IN_PROGRESS  # (as it was left; no more requests come)
