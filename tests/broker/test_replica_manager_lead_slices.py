"""A large leadership change is set a slice at a time (issue 27: 5,000 leaderships moved held the
broker's event loop ~0.7 s of CPU in one piece): with a background runner, LEAD_SLICE partitions at
once and the rest in later callbacks, each partition as the newest image says; a request for a
partition still to be set sets it at once. The end state is exactly the one-piece apply's: the same
leaders (epoch, ISR, log), the same followed partitions and fetchers, the same logs, also when newer
images come while slices are pending. Counted in partitions and callbacks, not timed."""
from __future__ import annotations

from odradek.api_handlers.ports import NotLed
from odradek.broker.replica_manager import LEAD_SLICE, ReplicaManager
from odradek.controller.image import BrokerImage, ImageChanges, MetadataImage, PartitionImage, TopicImage
from odradek.log import FaultyFileSystem, LogConfig, LogManager
from odradek.wire.errors import ErrorCode

ME, B, C = 1, 2, 3
N = 2 * LEAD_SLICE + 234
IDS = {"t": bytes([7]) * 16, "u": bytes([8]) * 16}
BROKERS = {i: BrokerImage(i, f"h{i}", 9000 + i, epoch=100 + i) for i in (ME, B, C)}


def image(prev: MetadataImage | None, parts: dict[str, dict[int, tuple[int, int, tuple]]],
          changed: set[str]) -> MetadataImage:
    """topic -> partition -> (leader, leader epoch, replicas); ``changed``: the topics that differ from
    ``prev`` (ImageChanges over it)."""
    topics = {name: TopicImage(name, IDS[name], {p: PartitionImage(p, leader, epoch, epoch, replicas, replicas)
                                                for p, (leader, epoch, replicas) in ps.items()})
              for name, ps in parts.items()}
    changes = None if prev is None else ImageChanges(prev.serial, frozenset(changed))
    return MetadataImage(topics=topics, topics_by_id={t.topic_id: t for t in topics.values()}, brokers=BROKERS,
                         offset=(prev.offset + 1) if prev is not None else 10, changes=changes)


class Fetchers:
    """The fetchers as the replica manager leaves them: partition -> (leader, leader epoch)."""

    def __init__(self):
        self.followed: dict = {}

    def become_follower(self, tp, leader_id, leader_epoch, plog, topic_id=None):
        self.followed[tp] = (leader_id, leader_epoch, topic_id)

    def stop_following(self, tps):
        for tp in tps:
            self.followed.pop(tp, None)


class Broker:
    def __init__(self, sliced: bool):
        self.queued: list = []
        self.fetchers = Fetchers()
        fs = FaultyFileSystem()
        self.rm = ReplicaManager(LogManager(["/data"], fs=fs), ME, lambda name: LogConfig(), lambda key: None,
                                 lambda: 1000, fetchers=self.fetchers, send_alter_partition=lambda *a: None,
                                 background=self.queued.append if sliced else None)
        self.image = None

    def follow(self, img: MetadataImage) -> None:
        if self.image is None:
            self.rm.start(img)
        else:
            self.rm.on_metadata(self.image, img)
        self.image = img

    def run(self, callbacks: int | None = None) -> int:
        """Run the background callbacks as the loop would (``callbacks`` of them, or until none is left)."""
        ran = 0
        while self.queued and (callbacks is None or ran < callbacks):
            self.queued.pop(0)()
            ran += 1
        return ran

    def state(self) -> tuple:
        rm = self.rm
        leaders = {tp: (ld.leader_epoch, tuple(sorted(ld.isr)), ld.log is rm.logs.get(*tp))
                   for tp, ld in rm.leaders.items()}
        return leaders, dict(rm.following), dict(self.fetchers.followed), sorted(rm.logs.list())


def every(leader: int, epoch: int, replicas=(B, ME), n: int = N) -> dict[int, tuple[int, int, tuple]]:
    return {p: (leader, epoch, replicas) for p in range(n)}


def scenario() -> list[MetadataImage]:
    img0 = image(None, {"t": every(B, 1)}, set())                       # followed here
    img1 = image(img0, {"t": every(ME, 2)}, {"t"})                      # all led here
    half = {p: (B, 3, (B, ME)) if p % 2 else (ME, 2, (B, ME)) for p in range(N)}
    img2 = image(img1, {"t": half, "u": every(ME, 1, (ME, C), 700)}, {"t", "u"})  # half back; a new topic
    moved = {p: (C, 4, (C, B)) if p < 300 else half[p] for p in range(N)}  # 300 moved away from here
    img3 = image(img2, {"t": moved, "u": every(C, 2, (ME, C), 700)}, {"t", "u"})
    return [img0, img1, img2, img3]


def test_a_large_leadership_change_is_set_a_slice_at_a_time():
    one, sliced = Broker(False), Broker(True)
    img0, img1 = scenario()[:2]
    for b in (one, sliced):
        b.follow(img0)
        b.run()
    assert one.state() == sliced.state() and len(sliced.rm.following) == N
    sliced.follow(img1)
    assert len(sliced.rm.leaders) == LEAD_SLICE and len(sliced.queued) == 1  # one callback at a time
    counts = []
    while sliced.queued:
        sliced.queued.pop(0)()
        counts.append(len(sliced.rm.leaders))
    assert counts == [min(N, LEAD_SLICE * (i + 2)) for i in range(len(counts))]
    one.follow(img1)
    assert one.state() == sliced.state()
    assert all(ld.leader_epoch == 2 for ld in sliced.rm.leaders.values()) and not sliced.rm.following
    assert not sliced.fetchers.followed  # each partition's fetcher stopped before it led


def test_newer_images_while_slices_are_pending_end_as_the_one_piece_apply():
    one, sliced = Broker(False), Broker(True)
    images = scenario()
    for img in images:
        one.follow(img)
        one.run()
    sliced.follow(images[0])
    sliced.run()
    for img in images[1:]:
        sliced.follow(img)
        sliced.run(1)  # one slice, then the next image comes
    sliced.run()
    assert one.state() == sliced.state()
    leaders, following, fetchers, logs = sliced.state()
    assert ("t", 0) not in leaders and ("t", 0) not in following and ("t", 0) not in logs  # moved away
    assert leaders[("t", 300)][0] == 2 and following[("t", 301)] == (B, 3) and following[("u", 5)] == (C, 2)


def test_a_request_for_a_partition_still_to_be_set_sets_it_at_once():
    b = Broker(True)
    img0, img1 = scenario()[:2]
    b.follow(img0)
    b.run()
    b.follow(img1)
    last = ("t", N - 1)
    assert last not in b.rm.leaders and b.fetchers.followed[last] == (B, 1, IDS["t"])
    plog = b.rm.leader_log(*last, current_leader_epoch=2)
    assert not isinstance(plog, NotLed) and b.rm.leaders[last].leader_epoch == 2
    assert last not in b.fetchers.followed
    b.follow(image(img1, {"t": every(B, 3)}, {"t"}))  # (a leadership it then loses at once is let go)
    assert b.rm.leader_log(*last).error == ErrorCode.NOT_LEADER_OR_FOLLOWER
    b.run()
    assert not b.rm.leaders and b.rm.following == {(("t", p)): (B, 3) for p in range(N)}
