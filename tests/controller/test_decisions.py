"""Decisions are functions of (image, request): records and a response, nothing written;
the controller's one write path returns where the records went (the Commit)."""

import random

from odradek.controller.controller import Controller
from odradek.controller.decisions import BrokerRegistration, CreateTopicSpec, Decisions, Env
from odradek.controller.image import BrokerImage, MetadataDelta, MetadataImage
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.broker_registration_change_record import BrokerRegistrationChangeRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.register_broker_record import RegisterBrokerRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.messages.unfence_broker_record import UnfenceBrokerRecord


def env(seed=7, node_id=1):
    rng = random.Random(seed)
    return Env(node_id, {}, lambda: rng.randbytes(16))


def image_with(records, cluster_id="c1"):
    delta = MetadataDelta(MetadataImage(controller_id=1, cluster_id=cluster_id))
    for i, r in enumerate(records):
        delta.replay(r, i)
    return delta.apply(cluster_id=cluster_id, controller_id=1)


def registered(broker_id=1, epoch=0, fenced=True):
    d = Decisions(env(), image_with([]))
    reg = BrokerRegistration(broker_id, bytes(range(16)), [("PLAINTEXT", "h", 9092, 0)], {"metadata.version": (7, 30)})
    records = d.register_broker(reg, epoch, unfence=not fenced).records
    return image_with(records)


def test_create_topics_is_a_function_of_image_request_and_id_source():
    img = registered(fenced=False)
    a = Decisions(env(), img).create_topics([CreateTopicSpec("t", 2, 1)])
    b = Decisions(env(), img).create_topics([CreateTopicSpec("t", 2, 1)])
    assert a == b  # same image, request and ids: same records and response
    assert [type(r) for r in a.records] == [TopicRecord, PartitionRecord, PartitionRecord]
    assert a.response[0].error_code == 0 and a.response[0].topic_id == a.records[0].topic_id
    assert "t" not in img.topics  # nothing was written anywhere


def test_create_topics_rejected_writes_nothing():
    img = registered(fenced=False)
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", 1, 2)])  # one broker: RF 2 impossible
    assert r.records == [] and r.response[0].error_code == E.INVALID_REPLICATION_FACTOR


def _decided(steps):
    try:
        while True:
            next(steps)
    except StopIteration as done:
        return done.value


def test_a_decision_that_does_not_write_counts_the_records_it_does_not_make():
    """A decision only (validate_only, the pass before a stepped creation) answers as the writing
    one, its records counted against Kafka's bound of 10,000 but not made."""
    img = registered(fenced=False)
    specs = [CreateTopicSpec("a", 3, 1), CreateTopicSpec("bad name", 1, 1),
             CreateTopicSpec("c", 2, 1, configs={"retention.ms": "9", "cleanup.policy": "compact"}),
             CreateTopicSpec("dup", 1, 1), CreateTopicSpec("dup", 1, 1), CreateTopicSpec("rf", 1, 5)]
    written = _decided(Decisions(env(), img).create_topics_steps(specs))
    decided = _decided(Decisions(env(), img).create_topics_steps(specs, write=False))
    assert decided.response == written.response and decided.records == []
    assert [type(r).__name__ for r in written.records].count("PartitionRecord") == 5 and len(written.records) == 9
    # 1 topic record + 1 config record + 9,998 partition records: within the bound; one more partition passes it
    big = [CreateTopicSpec("big", 9_998, 1, configs={"retention.ms": "9"})]
    decided = _decided(Decisions(env(), img).create_topics_steps(big, write=False))
    assert decided.response[0].error_code == E.NONE and decided.records == []
    big = [CreateTopicSpec("big", 9_999, 1, configs={"retention.ms": "9"})]
    written = _decided(Decisions(env(), img).create_topics_steps(big))
    decided = _decided(Decisions(env(), img).create_topics_steps(big, write=False))
    assert decided == written and written.response[0].error_code == E.POLICY_VIOLATION and written.records == []


def test_register_broker_checks_the_cluster_id():
    d = Decisions(env(), image_with([]))
    reg = BrokerRegistration(2, bytes(16), [("PLAINTEXT", "h", 1, 0)], {}, cluster_id="other")
    assert d.register_broker(reg, 5).records == []
    assert d.register_broker(reg, 5).response == E.INCONSISTENT_CLUSTER_ID
    ok = d.register_broker(BrokerRegistration(2, bytes(16), [("PLAINTEXT", "h", 1, 0)], {}, cluster_id="c1"), 5)
    assert ok.response == 0 and [type(r) for r in ok.records] == [RegisterBrokerRecord]
    assert ok.records[0].broker_epoch == 5 and ok.records[0].fenced and ok.records[0].incarnation_id != bytes(16)


def test_heartbeat_unfences_a_caught_up_broker_only():
    img = registered(broker_id=1, epoch=0, fenced=True)
    d = Decisions(env(), img)
    assert d.broker_heartbeat(9, 0, 10, False).response.error_code == E.BROKER_ID_NOT_REGISTERED
    assert d.broker_heartbeat(1, 3, 10, False).response.error_code == E.STALE_BROKER_EPOCH
    behind = d.broker_heartbeat(1, 0, -1, False)
    assert behind.records == [] and behind.response.is_fenced and not behind.response.is_caught_up
    wants_fence = d.broker_heartbeat(1, 0, 10, True)
    assert wants_fence.records == [] and wants_fence.response.is_fenced
    up = d.broker_heartbeat(1, 0, 10, False)
    assert up.records == [UnfenceBrokerRecord(id=1, epoch=0)] and not up.response.is_fenced


def test_fence_only_unfenced_registered_brokers():
    img = registered(broker_id=1, fenced=False)
    r = Decisions(env(), img).fence([1, 7])
    assert r.response == [1]
    assert r.records == [BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=0, fenced=1)]
    assert Decisions(env(), registered(broker_id=1, fenced=True)).fence([1]).records == []


def test_a_local_write_returns_its_commit(tmp_path):
    c = Controller(str(tmp_path), 1, {}, 0, rng=random.Random(1))
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    end = c.image.offset
    w = c.write(lambda d: d.create_topics([CreateTopicSpec("t", 3, 1)]), False, 1)
    assert w.commit.applied and w.commit.last_offset == c.image.offset == end + 4  # topic + 3 partitions
    assert w.response[0].error_code == 0 and "t" in c.image.topics
    dry = c.write(lambda d: d.create_topics([CreateTopicSpec("u", 1, 1)]), True, 2)
    assert not dry.commit.written and dry.response[0].error_code == 0 and "u" not in c.image.topics
    c.close()


def test_a_write_session_keeps_each_commit(tmp_path):
    from odradek.controller.admin_writes import WriteSession

    c = Controller(str(tmp_path), 1, {}, 0, rng=random.Random(2))
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    s = WriteSession(c)
    assert not s.last_commit().written
    assert s.create_topics([CreateTopicSpec("a", 1, 1)], False, 1)[0].error_code == 0
    assert s.create_topics([CreateTopicSpec("a", 1, 1)], False, 2)[0].error_code == E.TOPIC_ALREADY_EXISTS
    assert s.delete_topics(names=["a"], now_ms=3)[0][2] == 0
    assert [x.written for x in s.commits] == [True, False, True]
    assert s.last_commit() == s.commits[2] and s.last_commit().last_offset == c.image.offset
    assert s.image is c.image and "a" not in s.image.topics
    c.close()


def test_unregister_broker_leaves_every_isr_first():
    """Kafka's ReplicationControlManager.unregisterBroker: new leaders and ISRs without the broker, then
    UnregisterBrokerRecord; the registration is gone from the image. Not registered: BROKER_ID_NOT_REGISTERED."""
    from odradek.wire.messages.partition_change_record import PartitionChangeRecord
    from odradek.wire.messages.unregister_broker_record import UnregisterBrokerRecord

    d = Decisions(env(), image_with([]))
    records = []
    for b in (1, 2):
        reg = BrokerRegistration(b, bytes([b]) * 16, [("PLAINTEXT", "h", 9090 + b, 0)], {"metadata.version": (7, 30)})
        records += d.register_broker(reg, b, unfence=True).records
    img = image_with(records)
    created = Decisions(env(), img).create_topics([CreateTopicSpec("t", 1, 2)])
    img = image_with(records + created.records)
    p = img.topics["t"].partitions[0]
    leader = p.leader
    r = Decisions(env(), img).unregister_broker(leader)
    assert r.response is None
    assert [type(x) for x in r.records] == [PartitionChangeRecord, UnregisterBrokerRecord]
    after = image_with(records + created.records + r.records)
    q = after.topics["t"].partitions[0]
    assert leader not in after.brokers and q.leader == 3 - leader and list(q.in_sync) == [3 - leader]
    missing = Decisions(env(), after).unregister_broker(leader)
    assert missing.records == [] and missing.response == (E.BROKER_ID_NOT_REGISTERED,
                                                          f"Broker ID {leader} is not currently registered")
