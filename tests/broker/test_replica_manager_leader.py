"""ReplicaManager as leader and follower of replicated partitions (Kafka's makeLeader /
makeFollower, DelayedProduce, follower fetches, the ISR check), driven through the
handlers' ports with a real log, a fake fetcher manager and a fake controller channel."""
from __future__ import annotations

import dataclasses

from odradek.api_handlers import fetch, offset_for_leader_epoch, produce
from odradek.api_handlers.context import Delayed, RequestContext
from odradek.api_handlers.ports import NotLed
from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.image import BrokerImage, ImageChanges, MetadataImage, PartitionImage, TopicImage
from odradek.log import LogManager
from odradek.replication.messages import LeaderAndIsr, ReplicaFetch
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import fetch_request as fq, offset_for_leader_epoch_request as oq, produce_request as pq
from odradek.wire.records import build_batch

from fake_services import services

ME, B, C = 1, 2, 3
T = bytes([7]) * 16
TP = ("t", 0)


def image(leader=ME, epoch=5, isr=(ME, B, C), replicas=(ME, B, C), partition_epoch=1, offset=10,
          fenced=()) -> MetadataImage:
    t = TopicImage("t", T, {0: PartitionImage(0, leader, epoch, partition_epoch, replicas, isr)})
    brokers = {i: BrokerImage(i, f"h{i}", 9000 + i, fenced=i in fenced, epoch=100 + i) for i in (ME, B, C)}
    return MetadataImage(topics={"t": t}, topics_by_id={T: t}, brokers=brokers, offset=offset)


class Fetchers:
    def __init__(self):
        self.calls = []

    def become_follower(self, tp, leader_id, leader_epoch, plog, topic_id=None):
        assert topic_id == T
        self.calls.append(("follow", tp, leader_id, leader_epoch))

    def stop_following(self, tps):
        self.calls.append(("stop", sorted(tps)))


class World:
    def __init__(self, tmp_path, min_isr=2, lag_ms=10_000, log_config=None):
        self.now = 1000
        self.pokes = []
        self.sent = []
        self.fetchers = Fetchers()
        self.min_isr = min_isr  # the topic's min.insync.replicas
        self.rm = ReplicaManager(LogManager([str(tmp_path / "logs")]), ME, lambda t: log_config, self.pokes.append,
                                 lambda: self.now, min_insync_replicas=lambda t: self.min_isr,
                                 replica_lag_time_max_ms=lag_ms, fetchers=self.fetchers,
                                 send_alter_partition=lambda tp, tid, p: self.sent.append((tp, tid, p)))
        self.services = services(image_of=lambda: self.rm.image, replicas=self.rm)

    def ctx(self, api_key, v):
        return RequestContext(api_key=api_key, api_version=v, correlation_id=1, client_id="c", now_ms=self.now,
                              services=self.services)

    def produce(self, acks=-1, n=1, v=9, timeout_ms=5000):
        records = build_batch([(b"k", b"v%d" % i, (), self.now) for i in range(n)])
        req = pq.ProduceRequest(acks=acks, timeout_ms=timeout_ms, topic_data=[pq.TopicProduceData(
            name="t", partition_data=[pq.PartitionProduceData(index=0, records=records)])])
        return produce.handle(self.ctx(0, v), req)

    def replica_fetch(self, replica, offset, epoch=5, last_fetched_epoch=-1, v=15):
        return self.rm.follower_fetch("t", 0, ReplicaFetch(0, replica, 100 + replica, epoch, offset,
                                                           last_fetched_epoch, 0), self.now)


def part(resp):
    return resp.responses[0].partition_responses[0]


def test_leader_hw_is_min_over_isr_and_acks_all_waits_for_it(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    assert w.rm.leader_epoch("t", 0) == 5 and w.fetchers.calls == []
    plog = w.rm.get("t", 0)
    assert plog.epochs.latest_epoch == 5  # the leader epoch starts at the log end (makeLeader)
    d = w.produce(acks=-1, n=3)
    assert isinstance(d, Delayed) and d.watch == [("partition", "t", 0)]
    assert plog.log_end_offset == 3 and plog.high_watermark == 0
    assert d.try_complete(w.now) is None
    log_, decision = w.replica_fetch(B, 3)
    assert decision.error == ErrorCode.NONE and plog.high_watermark == 0  # C still holds it
    assert d.try_complete(w.now) is None
    w.replica_fetch(C, 2)
    assert plog.high_watermark == 2 and ("partition", "t", 0) in w.pokes
    w.replica_fetch(C, 3)
    assert plog.high_watermark == 3
    resp = d.try_complete(w.now)
    assert part(resp).error_code == 0 and part(resp).base_offset == 0


def test_acks_all_times_out_with_the_appended_offset(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    d = w.produce(acks=-1, n=2)
    resp = d.on_expire(w.now + 5000)
    assert part(resp).error_code == ErrorCode.REQUEST_TIMED_OUT and part(resp).base_offset == 0
    assert d.deadline_ms == w.now + 5000


def test_acks_1_answers_at_once_and_the_hw_waits_for_the_isr(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    resp = w.produce(acks=1, n=2)
    assert part(resp).error_code == 0 and part(resp).base_offset == 0
    assert w.rm.get("t", 0).high_watermark == 0


def test_not_enough_replicas_before_the_append(tmp_path):
    w = World(tmp_path)
    w.rm.start(image(isr=(ME,)))
    resp = w.produce(acks=-1)
    assert part(resp).error_code == ErrorCode.NOT_ENOUGH_REPLICAS and w.rm.get("t", 0).log_end_offset == 0
    resp = w.produce(acks=1)  # acks=1 is appended; the HW stays (under min ISR, KIP-966)
    assert part(resp).error_code == 0 and w.rm.get("t", 0).log_end_offset == 1
    assert w.rm.get("t", 0).high_watermark == 0


def test_not_enough_replicas_after_append_when_the_isr_shrank_meanwhile(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    d = w.produce(acks=-1)
    # the controller shrank the ISR to the leader alone at the same leader epoch
    w.rm.on_metadata(w.rm.image, image(isr=(ME,), partition_epoch=2, offset=11))
    w.rm.on_metadata(w.rm.image, image(isr=(ME, B), partition_epoch=3, offset=12))
    w.replica_fetch(B, 1)
    assert w.rm.get("t", 0).high_watermark == 1
    w.rm.on_metadata(w.rm.image, image(isr=(ME,), partition_epoch=4, offset=13))
    assert part(d.try_complete(w.now)).error_code == ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND


def test_waiting_produce_fails_when_leadership_moves(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    d = w.produce(acks=-1, v=10)
    w.rm.on_metadata(w.rm.image, image(leader=B, epoch=6, offset=11))
    assert ("partition", "t", 0) in w.pokes
    resp = d.try_complete(w.now)
    pr = part(resp)
    assert pr.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
    assert (pr.current_leader.leader_id, pr.current_leader.leader_epoch) == (B, 6)
    assert [(e.node_id, e.port) for e in resp.node_endpoints] == [(B, 9002)]


def test_follower_transitions_call_the_fetcher_manager(tmp_path):
    w = World(tmp_path)
    w.rm.start(image(leader=B))
    assert w.fetchers.calls == [("follow", TP, B, 5)]
    w.rm.on_metadata(w.rm.image, image(leader=B, partition_epoch=2, offset=11))  # same leader and epoch
    assert w.fetchers.calls == [("follow", TP, B, 5)]
    w.rm.on_metadata(w.rm.image, image(leader=C, epoch=6, offset=12))
    assert w.fetchers.calls[-1] == ("follow", TP, C, 6)
    w.rm.on_metadata(w.rm.image, image(leader=ME, epoch=7, offset=13))
    assert w.fetchers.calls[-1] == ("stop", [TP]) and w.rm.leader_epoch("t", 0) == 7
    assert w.rm.get("t", 0).epochs.latest_epoch == 7
    w.rm.on_metadata(w.rm.image, image(leader=-1, epoch=8, offset=14))
    assert w.rm.leader_epoch("t", 0) == -1 and w.fetchers.calls[-1] == ("stop", [TP])


def test_a_follower_answers_by_the_current_leader_epoch(tmp_path):
    w = World(tmp_path)
    w.rm.start(image(leader=B))
    assert w.rm.leader_log("t", 0) == NotLed(ErrorCode.NOT_LEADER_OR_FOLLOWER, B, 5)
    assert w.rm.leader_log("t", 0, 5) == NotLed(ErrorCode.NOT_LEADER_OR_FOLLOWER, B, 5)
    assert w.rm.leader_log("t", 0, 4).error == ErrorCode.FENCED_LEADER_EPOCH
    assert w.rm.leader_log("t", 0, 6).error == ErrorCode.UNKNOWN_LEADER_EPOCH
    # a consumer's Fetch v16 on the follower names the leader for FENCED_LEADER_EPOCH too
    req = fq.FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, session_id=0,
                          session_epoch=-1, topics=[fq.FetchTopic(topic_id=T, partitions=[
                              fq.FetchPartition(partition=0, fetch_offset=0, current_leader_epoch=4,
                                                partition_max_bytes=1 << 20)])])
    resp = fetch.handle(w.ctx(1, 16), req)
    pd = resp.responses[0].partitions[0]
    assert pd.error_code == ErrorCode.FENCED_LEADER_EPOCH and pd.current_leader.leader_id == B
    # a produce: NOT_LEADER_OR_FOLLOWER (no current leader epoch in Produce)
    assert part(w.produce(acks=-1, v=10)).error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER


def test_leader_checks_the_request_epoch(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    assert w.rm.leader_log("t", 0, 4).error == ErrorCode.FENCED_LEADER_EPOCH
    assert w.rm.leader_log("t", 0, 6).error == ErrorCode.UNKNOWN_LEADER_EPOCH
    assert not isinstance(w.rm.leader_log("t", 0, 5), NotLed)
    assert w.replica_fetch(B, 0, epoch=4)[1].error == ErrorCode.FENCED_LEADER_EPOCH
    assert w.replica_fetch(B, 0, epoch=6)[1].error == ErrorCode.UNKNOWN_LEADER_EPOCH
    assert w.replica_fetch(B, 5)[1].error == ErrorCode.OFFSET_OUT_OF_RANGE
    # a fetch without a current leader epoch (Fetch < v9) is not checked
    assert w.replica_fetch(B, 0, epoch=-1)[1].error == ErrorCode.NONE


def test_replica_fetch_reads_past_the_hw_and_finds_divergence(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    w.produce(acks=1, n=4)
    req = fq.FetchRequest(replica_state=fq.ReplicaState(replica_id=B, replica_epoch=100 + B), max_wait_ms=0,
                          min_bytes=1, max_bytes=1 << 20, session_id=0, session_epoch=-1,
                          topics=[fq.FetchTopic(topic_id=T, partitions=[fq.FetchPartition(
                              partition=0, fetch_offset=0, current_leader_epoch=5, last_fetched_epoch=-1,
                              partition_max_bytes=1 << 20)])])
    pd = fetch.handle(w.ctx(1, 15), req).responses[0].partitions[0]
    assert pd.error_code == 0 and pd.high_watermark == 0 and len(pd.records) > 0  # beyond the HW
    # a follower whose last fetched epoch 3 ended at offset 2 on its side: the leader has no epoch 3
    req.topics[0].partitions[0].fetch_offset = 2
    req.topics[0].partitions[0].last_fetched_epoch = 3
    pd = fetch.handle(w.ctx(1, 15), req).responses[0].partitions[0]
    assert pd.error_code == 0 and not pd.records
    assert (pd.diverging_epoch.epoch, pd.diverging_epoch.end_offset) == (3, 0)


def test_offset_for_leader_epoch_from_the_epoch_cache(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    w.produce(acks=1, n=4)

    def ask(leader_epoch, current=5, replica=B):
        req = oq.OffsetForLeaderEpochRequest(replica_id=replica, topics=[oq.OffsetForLeaderTopic(
            topic="t", partitions=[oq.OffsetForLeaderPartition(partition=0, current_leader_epoch=current,
                                                               leader_epoch=leader_epoch)])])
        r = offset_for_leader_epoch.handle(w.ctx(23, 4), req).topics[0].partitions[0]
        return r.error_code, r.leader_epoch, r.end_offset

    assert ask(5) == (0, 5, 4)
    # older than the cache knows: the first known epoch's start (LeaderEpochFileCache.endOffsetFor)
    assert ask(4) == (0, 4, 0)
    assert ask(5, current=4)[0] == ErrorCode.FENCED_LEADER_EPOCH
    assert ask(5, current=6)[0] == ErrorCode.UNKNOWN_LEADER_EPOCH
    assert ask(5, current=-1) == (0, 5, 4)


def test_isr_shrink_goes_to_the_controller_and_its_answer_comes_back(tmp_path):
    w = World(tmp_path, lag_ms=1000)
    w.rm.start(image())
    w.produce(acks=1, n=2)
    w.replica_fetch(B, 2)
    w.now += 1500  # C never fetched
    w.rm.tick(w.now)
    (tp, tid, proposal), = w.sent
    assert tp == TP and tid == T and proposal.isr_ids == {ME, B} and proposal.partition_epoch == 1
    assert {(m.broker_id, m.broker_epoch) for m in proposal.new_isr} == {(ME, 101), (B, 102)}
    assert w.rm.get("t", 0).high_watermark == 0  # a pending shrink still waits for C
    w.rm.on_alter_partition_answer(TP, proposal.proposal_id, LeaderAndIsr(ME, 5, 2, frozenset({ME, B})))
    assert w.rm.get("t", 0).high_watermark == 2
    w.rm.tick(w.now + 10)  # not due yet: one check every replica.lag.time.max.ms / 2
    assert len(w.sent) == 1


def test_isr_expands_when_the_follower_catches_up(tmp_path):
    w = World(tmp_path)
    w.rm.start(image(isr=(ME, B)))
    w.produce(acks=1, n=2)
    w.replica_fetch(B, 2)
    assert w.sent == []
    w.replica_fetch(C, 2)
    (tp, _, proposal), = w.sent
    assert proposal.isr_ids == {ME, B, C}


def test_single_node_hw_is_the_log_end_after_each_append(tmp_path):
    w = World(tmp_path, min_isr=2)  # min.insync.replicas 2 on one replica: effective min ISR 1
    w.rm.start(image(replicas=(ME,), isr=(ME,)))
    resp = w.produce(acks=-1, n=3)
    assert not isinstance(resp, Delayed) and part(resp).error_code == 0
    assert w.rm.get("t", 0).high_watermark == 3
    w.rm.tick(w.now + 100_000)
    assert w.sent == [] and w.fetchers.calls == []


def delete_records(w, offset, timeout_ms=5000, topic="t"):
    from odradek.api_handlers import delete_records as dr
    from odradek.wire.messages import delete_records_request as drq
    req = drq.DeleteRecordsRequest(timeout_ms=timeout_ms, topics=[drq.DeleteRecordsTopic(
        name=topic, partitions=[drq.DeleteRecordsPartition(partition_index=0, offset=offset)])])
    return dr.handle(w.ctx(21, 2), req)


def follower_at(w, replica, offset, log_start):
    return w.rm.follower_fetch("t", 0, ReplicaFetch(0, replica, 100 + replica, 5, offset, -1, log_start), w.now)


def low_part(resp):
    return resp.topics[0].partitions[0]


def test_delete_records_waits_until_every_replica_moved_its_log_start(tmp_path):
    """DelayedDeleteRecords: the leader moves its own log start at once and answers once the
    low watermark (the smallest log start over the live replicas, learnt from their fetches)
    reaches the offset asked for."""
    w = World(tmp_path)
    w.rm.start(image())
    w.produce(acks=1, n=6)
    follower_at(w, B, 6, 0)
    follower_at(w, C, 6, 0)
    assert w.rm.get("t", 0).high_watermark == 6
    d = delete_records(w, 4)
    assert isinstance(d, Delayed)
    assert ("low_watermark", "t", 0) in d.watch and ("partition", "t", 0) in d.watch
    assert w.rm.get("t", 0).log_start_offset == 4 and w.rm.low_watermark("t", 0) == 0
    w.pokes.clear()
    follower_at(w, B, 6, 4)
    assert ("low_watermark", "t", 0) in w.pokes and w.rm.low_watermark("t", 0) == 0
    assert d.try_complete(w.now) is None
    follower_at(w, C, 6, 4)
    resp = d.try_complete(w.now)
    assert low_part(resp).error_code == 0 and low_part(resp).low_watermark == 4


def test_delete_records_to_the_high_watermark_and_timeout(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    w.produce(acks=1, n=6)
    follower_at(w, B, 5, 0)
    follower_at(w, C, 5, 0)
    d = delete_records(w, -1, timeout_ms=3000)  # -1: up to the high watermark (5)
    assert d.deadline_ms == w.now + 3000 and w.rm.get("t", 0).log_start_offset == 5
    follower_at(w, B, 6, 5)  # C never follows
    resp = d.on_expire(w.now + 3000)
    assert low_part(resp).error_code == ErrorCode.REQUEST_TIMED_OUT and low_part(resp).low_watermark == 0


def test_delete_records_does_not_wait_for_a_fenced_replica_and_fails_on_lost_leadership(tmp_path):
    w = World(tmp_path)
    w.rm.start(image())
    w.produce(acks=1, n=6)
    follower_at(w, B, 6, 0)
    follower_at(w, C, 6, 0)
    d = delete_records(w, 3)
    follower_at(w, B, 6, 3)
    assert d.try_complete(w.now) is None
    w.rm.on_metadata(w.rm.image, image(isr=(ME, B), partition_epoch=2, fenced=(C,), offset=11))
    assert ("low_watermark", "t", 0) in w.pokes
    assert low_part(d.try_complete(w.now)).low_watermark == 3
    d = delete_records(w, 4)
    w.rm.on_metadata(w.rm.image, image(leader=B, epoch=6, offset=12))
    resp = d.try_complete(w.now)
    assert low_part(resp).error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and low_part(resp).low_watermark == -1


def test_delete_records_answers_at_once_when_nothing_lags_or_the_offset_is_bad(tmp_path):
    w = World(tmp_path)
    w.rm.start(image(isr=(ME,), replicas=(ME,)))
    w.produce(acks=1, n=6)
    resp = delete_records(w, 2)
    assert low_part(resp).error_code == 0 and low_part(resp).low_watermark == 2
    resp = delete_records(w, 7)  # above the high watermark
    assert low_part(resp).error_code == ErrorCode.OFFSET_OUT_OF_RANGE and low_part(resp).low_watermark == -1
    resp = delete_records(w, 1)  # below the log start: nothing moves, the low watermark answers
    assert low_part(resp).error_code == 0 and low_part(resp).low_watermark == 2


def test_delete_records_on_a_compacted_topic_is_a_policy_violation(tmp_path):
    from odradek.log.config import LogConfig
    w = World(tmp_path, log_config=LogConfig.from_properties({"cleanup.policy": "compact"}))
    w.rm.start(image(isr=(ME,), replicas=(ME,)))
    w.produce(acks=1, n=3)
    resp = delete_records(w, 2)
    assert low_part(resp).error_code == ErrorCode.POLICY_VIOLATION and w.rm.get("t", 0).log_start_offset == 0


def test_a_config_change_alone_reconfigures_the_leader_and_leaves_its_partition_alone(tmp_path):
    """A delta with only a topic's configs (Kafka's ConfigurationsDelta, no TopicsDelta): the
    leader keeps its object and followers, the fetchers hear nothing, and a lowered
    min.insync.replicas lets the HW move at once (as KIP-966: it stayed while under min ISR)."""
    w = World(tmp_path, min_isr=3)
    first = image(isr=(ME, B))
    w.rm.start(first)
    leader = w.rm.leaders[TP]
    resp = w.produce(acks=1, n=2)  # under min ISR 3: appended, the HW stays
    assert part(resp).error_code == 0
    w.replica_fetch(B, 2)
    plog = w.rm.get("t", 0)
    assert plog.log_end_offset == 2 and plog.high_watermark == 0
    calls, pokes = list(w.fetchers.calls), len(w.pokes)
    w.min_isr = 2
    changed = dataclasses.replace(first, topic_configs={"t": {"min.insync.replicas": "2"}}, offset=11,
                                  changes=ImageChanges(first.serial, topic_configs=frozenset({"t"})))
    w.rm.on_metadata(first, changed)
    assert w.rm.leaders[TP] is leader and leader.config.min_insync_replicas == 2
    assert plog.high_watermark == 2 and ("partition", "t", 0) in w.pokes[pokes:]
    assert w.fetchers.calls == calls
