"""Fetch from followers (KIP-392) through the Fetch handler and a real ReplicaManager: a leader
with replica.selector.class names a follower in the consumer's rack (PreferredReadReplica, no
records); a follower serves a consumer's Fetch v11+ up to its own high watermark, and
NOT_LEADER_OR_FOLLOWER before v11."""
from __future__ import annotations

import pytest

from odradek.api_handlers import fetch
from odradek.api_handlers.context import RequestContext
from odradek.broker.replica_manager import ReplicaManager
from odradek.config import RACK_AWARE_SELECTOR, BrokerConfig, ConfigError
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.log import LogManager
from odradek.replication.messages import ReplicaFetch
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import fetch_request as fq
from odradek.wire.records import build_batch, iter_batch_headers

from fake_services import services

ME, B, C = 1, 2, 3
T = bytes([7]) * 16
RACKS = {ME: "r1", B: "r2", C: "r3"}


def image(leader=ME, epoch=5, isr=(ME, B, C)) -> MetadataImage:
    t = TopicImage("t", T, {0: PartitionImage(0, leader, epoch, 1, (ME, B, C), isr)})
    brokers = {i: BrokerImage(i, f"h{i}", 9000 + i, rack=RACKS[i], epoch=100 + i) for i in (ME, B, C)}
    return MetadataImage(topics={"t": t}, topics_by_id={T: t}, brokers=brokers, offset=10)


class Fetchers:
    def become_follower(self, tp, leader_id, leader_epoch, plog, topic_id=None):
        pass

    def stop_following(self, tps):
        pass


class World:
    def __init__(self, tmp_path, selector=RACK_AWARE_SELECTOR):
        self.now = 1000
        self.rm = ReplicaManager(LogManager([str(tmp_path / "logs")]), ME, lambda t: None, lambda key: None,
                                 lambda: self.now, min_insync_replicas=lambda t: 1, fetchers=Fetchers(),
                                 send_alter_partition=lambda tp, tid, p: None, replica_selector=selector)
        self.services = services(image_of=lambda: self.rm.image, replicas=self.rm)

    def fetch(self, v, offset=0, rack="", epoch=-1, isolation=0):
        req = fq.FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, session_id=0,
                              session_epoch=-1, isolation_level=isolation, rack_id=rack, topics=[fq.FetchTopic(
                                  topic="t", topic_id=T, partitions=[fq.FetchPartition(
                                      partition=0, fetch_offset=offset, current_leader_epoch=epoch,
                                      partition_max_bytes=1 << 20)])])
        ctx = RequestContext(api_key=1, api_version=v, correlation_id=1, client_id="c", now_ms=self.now,
                             services=self.services)
        return fetch.handle(ctx, req).responses[0].partitions[0]


def batch(base, n):
    return build_batch([(b"k", b"v%d" % (base + i), (), 1000) for i in range(n)], base_offset=base)


def offsets(pd) -> list[int]:
    return [h.base_offset for _, h in iter_batch_headers(bytes(pd.records))] if len(pd.records) else []


def test_leader_sends_a_racked_consumer_to_a_follower_in_its_rack(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    plog = w.rm.get("t", 0)
    w.rm.append("t", 0, batch(0, 3), w.now)
    for r in (B, C):  # both followers caught up: the HW is 3
        w.rm.follower_fetch("t", 0, ReplicaFetch(0, r, 100 + r, 5, 3, -1, 0), w.now)
    assert plog.high_watermark == 3
    pd = w.fetch(11, rack="r2")
    assert pd.error_code == 0 and pd.preferred_read_replica == B and len(pd.records) == 0
    assert pd.high_watermark == 3 and pd.last_stable_offset == 3 and pd.log_start_offset == 0
    assert w.fetch(16, rack="r3").preferred_read_replica == C
    # the leader's own rack, no rack, an unknown rack, a fetch before v11: the leader serves
    for v, rack in ((11, "r1"), (11, ""), (11, "r9"), (10, "r2")):
        pd = w.fetch(v, rack=rack)
        assert pd.preferred_read_replica == -1 and offsets(pd) == [0], (v, rack)


def test_no_preferred_replica_without_the_selector_or_for_an_out_of_sync_follower(tmp_path):
    w = World(tmp_path / "none", selector=None)  # Kafka's default: the leader serves every consumer
    w.rm.start(image())
    w.rm.append("t", 0, batch(0, 2), w.now)
    for r in (B, C):
        w.rm.follower_fetch("t", 0, ReplicaFetch(0, r, 100 + r, 5, 2, -1, 0), w.now)
    pd = w.fetch(11, rack="r2")
    assert pd.preferred_read_replica == -1 and offsets(pd) == [0]
    w2 = World(tmp_path / "isr")
    w2.rm.start(image(isr=(ME, C)))
    w2.rm.append("t", 0, batch(0, 2), w2.now)
    w2.rm.follower_fetch("t", 0, ReplicaFetch(0, B, 100 + B, 5, 2, -1, 0), w2.now)
    assert w2.fetch(11, rack="r2").preferred_read_replica == -1  # B is not in the ISR


def test_follower_serves_consumers_from_v11_up_to_its_high_watermark(tmp_path):
    w = World(tmp_path)
    w.rm.start(image(leader=B))
    plog = w.rm.logs.get("t", 0)
    plog.append_as_follower(batch(0, 2), w.now)
    plog.append_as_follower(batch(2, 2), w.now)
    plog.high_watermark = 2
    pd = w.fetch(11, rack="r1")
    assert pd.error_code == 0 and pd.high_watermark == 2 and pd.preferred_read_replica == -1
    assert offsets(pd) == [0]  # not beyond the follower's HW
    assert offsets(w.fetch(12, offset=2)) == []
    assert w.fetch(11, isolation=1).last_stable_offset == 2
    plog.high_watermark = 4
    assert offsets(w.fetch(16, offset=2, epoch=5)) == [2]
    # the leader epoch is checked as on a leader
    assert w.fetch(16, epoch=4).error_code == ErrorCode.FENCED_LEADER_EPOCH
    assert w.fetch(16, epoch=6).error_code == ErrorCode.UNKNOWN_LEADER_EPOCH
    # before v11 a consumer reads from the leader only
    pd = w.fetch(10)
    assert pd.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and len(pd.records) == 0


def test_replica_selector_class_config():
    assert BrokerConfig().replica_selector_class is None
    cfg = BrokerConfig.from_properties({"replica.selector.class": f" {RACK_AWARE_SELECTOR} "})
    assert cfg.replica_selector_class == RACK_AWARE_SELECTOR
    # odradek loads no Java class: any other is refused at start, as Kafka 4.3's broker exits when it
    # cannot load the class (a controller-only node does not load it)
    with pytest.raises(ConfigError, match="^Fatal error during broker startup: "
                                          "java.lang.ClassNotFoundException: com.example.MySelector "):
        BrokerConfig.from_properties({"replica.selector.class": "com.example.MySelector"})
