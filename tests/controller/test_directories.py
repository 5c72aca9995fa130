"""Replica directories (KIP-858) as Kafka 4.3's controller keeps them: a broker's registered log
directories, each partition's directory per replica, AssignReplicasToDirs, and what a snapshot keeps.
A Kafka broker whose registration has no directories re-registers in a loop, and one whose replicas
stay MIGRATING asks AssignReplicasToDirs; these are what it reads and writes."""

import random

from odradek.controller import directories
from odradek.controller.decisions import BrokerRegistration, CreateTopicSpec, Decisions, Env
from odradek.controller.features import SUPPORTED, bootstrap_records
from odradek.controller.image import MetadataDelta, MetadataImage
from odradek.controller.snapshot import decode_snapshot, encode_snapshot
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.partition_change_record import PartitionChangeRecord
from odradek.wire.messages.unfence_broker_record import UnfenceBrokerRecord

DIR_A, DIR_B, DIR_C = b"\xaa" * 16, b"\xbb" * 16, b"\xcc" * 16


def env():
    rng = random.Random(3)
    return Env(1, {}, lambda: rng.randbytes(16))


def apply(img, records):
    delta = MetadataDelta(img)
    for r in records:
        delta.replay(r, img.offset + 1)
    return delta.apply(cluster_id=img.cluster_id, controller_id=1)


def cluster(log_dirs: dict[int, tuple], extra=()):
    """Brokers registered (and unfenced) with the given directories, on the release's features."""
    img = apply(MetadataImage(cluster_id="c1", controller_id=1), bootstrap_records() + list(extra))
    for b, dirs in log_dirs.items():
        reg = BrokerRegistration(b, bytes([b]) * 16, [("PLAINTEXT", "h", 9000 + b, 0)], dict(SUPPORTED), log_dirs=dirs)
        r = Decisions(env(), img).register_broker(reg, 10 + b)
        assert r.response == 0
        img = apply(img, r.records + [UnfenceBrokerRecord(id=b, epoch=10 + b)])
    return img


def test_registration_keeps_the_log_dirs():
    img = cluster({1: (DIR_A,), 2: ()})
    assert img.brokers[1].log_dirs == (DIR_A,) and img.brokers[2].log_dirs == ()
    # the same incarnation amending its registration keeps epoch and state, with its directories
    reg = BrokerRegistration(1, bytes([1]) * 16, [("PLAINTEXT", "h", 9001, 0)], dict(SUPPORTED),
                             log_dirs=(DIR_A, DIR_B))
    r = Decisions(env(), img).register_broker(reg, 99)
    assert r.records[0].log_dirs == [DIR_A, DIR_B] and r.records[0].broker_epoch == 11
    assert apply(img, r.records).brokers[1].log_dirs == (DIR_A, DIR_B)


def test_registration_refuses_reserved_duplicate_or_taken_directories():
    img = cluster({1: (DIR_A,)})
    d = Decisions(env(), img)
    for dirs in [(directories.UNASSIGNED,), (bytes(15) + b"\x63",), (DIR_B, DIR_B), (DIR_A,)]:
        reg = BrokerRegistration(2, b"\x02" * 16, [("PLAINTEXT", "h", 9002, 0)], dict(SUPPORTED), log_dirs=dirs)
        r = d.register_broker(reg, 50)
        assert (r.response, r.records) == (E.INVALID_REGISTRATION, []), dirs
    assert directories.reserved(bytes(15) + b"\x63") and not directories.reserved(bytes(15) + b"\x64")


def test_below_3_7_iv2_no_directories_are_written():
    img = cluster({}, [FeatureLevelRecord(name="metadata.version", feature_level=16)])  # 3.7-IV1
    reg = BrokerRegistration(1, b"\x01" * 16, [("PLAINTEXT", "h", 9001, 0)], dict(SUPPORTED), log_dirs=(DIR_A,))
    assert Decisions(env(), img).register_broker(reg, 5).records[0].log_dirs == []
    r = Decisions(env(), img).assign_replicas_to_dirs(1, 5, [])
    assert r.response == (E.UNSUPPORTED_VERSION, []) and r.records == []


def test_new_partitions_take_each_replicas_default_directory():
    # one directory: that one; none registered: MIGRATING; several: UNASSIGNED (the broker picks)
    img = cluster({1: (DIR_A,), 2: (), 3: (DIR_B, DIR_C)})
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", -1, -1, assignments={0: [1, 2, 3]})])
    part = r.records[1]
    assert part.replicas == [1, 2, 3]
    assert part.directories == [DIR_A, directories.MIGRATING, directories.UNASSIGNED]
    img = apply(img, r.records)
    assert img.topics["t"].partitions[0].directories == (DIR_A, directories.MIGRATING, directories.UNASSIGNED)


def test_assign_replicas_to_dirs_sets_the_directory_and_answers_per_partition():
    img = cluster({1: (DIR_A, DIR_B), 2: (DIR_C,), 3: ()})
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", -1, -1, assignments={0: [1, 2]})])
    img = apply(img, r.records)
    tid = img.topics["t"].topic_id
    d = Decisions(env(), img)
    assert d.assign_replicas_to_dirs(1, 7, []).response == (E.STALE_BROKER_EPOCH, [])
    assert d.assign_replicas_to_dirs(9, 7, []).response == (E.STALE_BROKER_EPOCH, [])
    r = d.assign_replicas_to_dirs(1, 11, [(DIR_B, [(tid, [0, 5]), (b"\x77" * 16, [0])])])
    assert r.response == (0, [(DIR_B, [(tid, [(0, 0), (5, E.UNKNOWN_TOPIC_OR_PARTITION)]),
                                       (b"\x77" * 16, [(0, E.UNKNOWN_TOPIC_ID)])])])
    assert r.records == [PartitionChangeRecord(partition_id=0, topic_id=tid, directories=[DIR_B, DIR_C])]
    after = apply(img, r.records)
    p = after.topics["t"].partitions[0]
    assert p.directories == (DIR_B, DIR_C) and p.partition_epoch == 1 and p.leader_epoch == 0
    # the same directory again: nothing to write; a broker that is not a replica: NOT_LEADER_OR_FOLLOWER
    assert Decisions(env(), after).assign_replicas_to_dirs(1, 11, [(DIR_B, [(tid, [0])])]).records == []
    r = Decisions(env(), after).assign_replicas_to_dirs(3, 13, [(DIR_A, [(tid, [0])])])
    assert r.response == (0, [(DIR_A, [(tid, [(0, E.NOT_LEADER_OR_FOLLOWER)])])]) and r.records == []


def test_a_replica_assigned_to_an_offline_directory_leaves_the_isr_and_its_leadership():
    img = cluster({1: (DIR_A,), 2: (DIR_C,)})
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", -1, -1, assignments={0: [1, 2]})])
    img = apply(img, r.records)
    tid = img.topics["t"].topic_id
    lost = directories.LOST
    r = Decisions(env(), img).assign_replicas_to_dirs(1, 11, [(lost, [(tid, [0])])])
    p = apply(img, r.records).topics["t"].partitions[0]
    assert p.directories == (lost, DIR_C) and p.leader == 2 and p.isr == (2,)


def test_a_reassignment_keeps_the_directories_in_step_with_the_replicas():
    img = cluster({1: (DIR_A,), 2: (DIR_B,), 3: (DIR_C,)})
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", -1, -1, assignments={0: [1, 2]})])
    img = apply(img, r.records)
    rec = Decisions(env(), img).replication().reassign("t", 0, [2, 3], lambda a: None)
    assert rec.replicas == [2, 3, 1] and rec.directories == [DIR_B, DIR_C, DIR_A]  # 3 joins in its one directory
    p = apply(img, [rec]).topics["t"].partitions[0]
    assert dict(zip(p.replicas, p.directories)) == {1: DIR_A, 2: DIR_B, 3: DIR_C}


def test_a_snapshot_keeps_directories():
    img = cluster({1: (DIR_A,), 2: (DIR_B,)})
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", -1, -1, assignments={0: [1, 2]})])
    img = apply(img, r.records)
    back = decode_snapshot(encode_snapshot(img, img.offset + 1), img.offset + 1, "c1", 1)
    assert back.brokers[1].log_dirs == (DIR_A,)
    assert back.topics["t"].partitions[0].directories == (DIR_A, DIR_B)


def test_a_snapshot_is_laid_out_as_kafkas_records_snapshot_writer():
    """Header control batch first (Kafka's RecordsSnapshotReader refuses anything else: 'First batch is
    not a control batch with at least one record'), the image, a footer control batch; offsets from 0
    without gaps, every batch in the snapshot's epoch."""
    from odradek.wire.records import ControlRecordType, iter_batches

    img = cluster({1: (DIR_A,)})
    data = encode_snapshot(img, 40, epoch=3)
    batches = list(iter_batches(data))
    first, last = batches[0], batches[-1]
    assert first[0].is_control and int.from_bytes(first[1][0].key[2:], "big") == ControlRecordType.SNAPSHOT_HEADER
    assert first[1][0].value == bytes(11)  # SnapshotHeaderRecord v0 (flexible): version 0, timestamp 0, no tags
    assert last[0].is_control and int.from_bytes(last[1][0].key[2:], "big") == ControlRecordType.SNAPSHOT_FOOTER
    assert all(not h.is_control for h, _ in batches[1:-1]) and all(h.partition_leader_epoch == 3 for h, _ in batches)
    offsets = [h.base_offset + r.offset_delta for h, rs in batches for r in rs]
    assert offsets == list(range(len(offsets)))
    assert decode_snapshot(data, 40, "c1", 1).brokers == img.brokers


def test_registration_checks_the_finalized_features_as_kafka():
    img = cluster({})

    def register(feats):
        reg = BrokerRegistration(1, b"\x01" * 16, [("PLAINTEXT", "h", 9001, 0)], feats, log_dirs=(DIR_A,))
        return Decisions(env(), img).register_broker(reg, 5)

    from odradek.controller.features import BOOTSTRAP
    assert register(dict(SUPPORTED)).response == 0
    # a range without the finalized level; a finalized feature not named (counts as [0, 0]); no
    # metadata.version named (counts as [1, 1])
    too_new = {**SUPPORTED, "group.version": (2, 3)}
    missing = {k: v for k, v in SUPPORTED.items() if k != "transaction.version"}
    no_mv = {k: v for k, v in SUPPORTED.items() if k != "metadata.version"}
    for feats in (too_new, missing, no_mv):
        r = register(feats)
        assert (r.response, r.records) == (E.UNSUPPORTED_VERSION, []), feats
    assert BOOTSTRAP["transaction.version"] > 0
    # the record keeps the ranges the broker named
    rec = register(dict(SUPPORTED)).records[0]
    assert {f.name: (f.min_supported_version, f.max_supported_version) for f in rec.features} == SUPPORTED


def test_a_snapshot_keeps_each_brokers_listeners_and_features():
    img = cluster({1: (DIR_A,)})
    reg = BrokerRegistration(2, b"\x02" * 16, [("INTERNAL", "h2", 9002, 0), ("EXTERNAL", "e2", 19002, 1)],
                             dict(SUPPORTED), rack="r2", log_dirs=(DIR_B,))
    img = apply(img, Decisions(env(), img).register_broker(reg, 30).records)
    back = decode_snapshot(encode_snapshot(img, img.offset + 1), img.offset + 1, "c1", 1)
    b = back.brokers[2]
    assert b.endpoints == (("INTERNAL", "h2", 9002, 0), ("EXTERNAL", "e2", 19002, 1))
    assert (b.host, b.port) == ("h2", 9002)
    assert dict((n, (lo, hi)) for n, lo, hi in b.features) == SUPPORTED
    assert back.brokers == img.brokers


def test_a_heartbeat_reporting_an_offline_directory_moves_its_replicas_out():
    """OfflineLogDirs (Kafka's handleDirectoriesOffline): the replicas in that directory leave their ISR
    and leadership, the registration keeps the online directories; reported again, nothing changes."""
    from odradek.wire.messages.broker_registration_change_record import BrokerRegistrationChangeRecord

    img = cluster({1: (DIR_A, DIR_B), 2: (DIR_C,)})
    r = Decisions(env(), img).create_topics([CreateTopicSpec("t", -1, -1, assignments={0: [1, 2], 1: [1, 2]})])
    img = apply(img, r.records)
    tid = img.topics["t"].topic_id
    img = apply(img, Decisions(env(), img).assign_replicas_to_dirs(1, 11, [(DIR_A, [(tid, [0])]),
                                                                           (DIR_B, [(tid, [1])])]).records)
    r = Decisions(env(), img).broker_heartbeat(1, 11, 100, False, offline_log_dirs=[DIR_A, b"\x99" * 16])
    assert r.response.error_code == 0 and not r.response.is_fenced
    assert r.records[-1] == BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=11, log_dirs=[DIR_B])
    after = apply(img, r.records)
    p0, p1 = after.topics["t"].partitions[0], after.topics["t"].partitions[1]
    assert (p0.leader, p0.isr) == (2, (2,)) and (p1.leader, p1.isr) == (1, (1, 2))
    assert after.brokers[1].log_dirs == (DIR_B,)
    assert Decisions(env(), after).broker_heartbeat(1, 11, 100, False, offline_log_dirs=[DIR_A]).records == []
