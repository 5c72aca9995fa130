"""A KRaft cluster of real processes: 3 controllers + 1 broker (odradek cluster's layout).

Stock clients create topics through the broker (forwarded to the active controller);
kill -9 of the leading controller elects a new one and topics can be created again
within seconds; the old leader restarts and catches up, by snapshot when the new
leader has already snapshotted past its log. DescribeQuorum answers on both listeners.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from cluster import ClusterNode, running_odradek, wait_for
from odradek.broker.wire_client import WireClient
from odradek.wire.messages.describe_quorum_request import DescribeQuorumRequest, PartitionData, TopicData

# snapshots every few KB so a restarted node catches up by FetchSnapshot
SNAPSHOTS = {"metadata.log.max.record.bytes.between.snapshots": "4096"}


def metadata_dir(node: ClusterNode) -> Path:
    return node.log_dir / "metadata" / "__cluster_metadata-0"


def describe_quorum(port: int):
    with WireClient("127.0.0.1", port, timeout=5) as c:
        r = c.send(DescribeQuorumRequest(topics=[TopicData(topic_name="__cluster_metadata",
                                                           partitions=[PartitionData(partition_index=0)])]))
    return r.topics[0].partitions[0]


def create_topic(bootstrap: str, name: str, partitions: int = 1, timeout: float = 60.0) -> float:
    """Create via a stock client, retrying while the quorum fails over; seconds taken."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    t0 = time.monotonic()
    while True:
        try:
            admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=10)[name].result(timeout=15)
            return time.monotonic() - t0
        except Exception as e:  # noqa: BLE001
            if "already exists" in str(e):
                return time.monotonic() - t0
            if time.monotonic() - t0 > timeout:
                raise
            time.sleep(0.1)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """3 controllers + 1 broker (odradek cluster's layout), shared by the checks that leave them up."""
    with running_odradek(tmp_path_factory.mktemp("raft-cluster"), 3, 1, SNAPSHOTS) as c:
        yield c


@pytest.fixture
def own_cluster(tmp_path):
    """A cluster of the test's own: it kills and stops controllers, and counts on snapshots of its own."""
    with running_odradek(tmp_path, 3, 1, SNAPSHOTS) as c:
        yield c


def test_failover_and_catch_up_by_snapshot(own_cluster):
    controllers, broker = [own_cluster.node(i) for i in (1, 2, 3)], own_cluster.brokers[0]
    bootstrap = f"127.0.0.1:{broker.port}"
    # DescribeQuorum through the broker (forwarded to the leader) and on a controller listener.
    q = wait_for(lambda: describe_quorum(broker.port), 60, "DescribeQuorum via the broker")
    assert q.error_code == 0 and q.leader_id in (1, 2, 3)
    assert sorted(v.replica_id for v in q.current_voters) == [1, 2, 3]
    assert [o.replica_id for o in q.observers] == [4]
    leader = next(c for c in controllers if c.id == q.leader_id)
    others = [c for c in controllers if c is not leader]
    f = describe_quorum(others[0].controller_port)  # a follower: NOT_LEADER_OR_FOLLOWER, naming the leader
    assert (f.error_code, f.leader_id, f.leader_epoch) == (6, leader.id, q.leader_epoch)

    create_topic(bootstrap, "before", 2)
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(5):
        p.produce("before", value=b"m%d" % i)
    assert p.flush(10) == 0

    t_kill = time.monotonic()
    leader.kill9()
    took = create_topic(bootstrap, "after-failover")

    def new_leader_answer():
        for o in others:
            r = describe_quorum(o.controller_port)
            if r.error_code == 0:
                return r
    new_q = wait_for(new_leader_answer, 60, "a new leader")
    failover_s = time.monotonic() - t_kill
    print(f"\nfailover: topic created {took:.2f}s after kill -9 of leader {leader.id}; "
          f"new leader {new_q.leader_id} epoch {new_q.leader_epoch}")
    assert new_q.leader_epoch > q.leader_epoch
    assert took < 10, f"no topic creation for {took:.1f}s after the leader died"
    assert failover_s < 15

    # Enough metadata that the new leader snapshots past the dead node's log end.
    for i in range(12):
        create_topic(bootstrap, f"bulk-{i}", 3)
    new_leader = next(c for c in controllers if c.id == new_q.leader_id)
    wait_for(lambda: list(metadata_dir(new_leader).glob("*.checkpoint")), 60, "a leader snapshot")
    old_end = (metadata_dir(leader) / "00000000000000000000.log").stat().st_size

    t_restart = time.monotonic()
    leader.start()
    leader.wait_ready()

    def caught_up():
        r = describe_quorum(new_leader.controller_port)
        ends = {v.replica_id: v.log_end_offset for v in r.current_voters}
        return r.error_code == 0 and ends.get(leader.id) == ends.get(new_leader.id) and r.high_watermark == \
            ends[new_leader.id]
    wait_for(caught_up, 60, "the old leader to catch up")
    print(f"old leader {leader.id} caught up {time.monotonic() - t_restart:.2f}s after restart "
          f"(old log {old_end} bytes)")
    # It caught up by snapshot (FetchSnapshot): it had none of its own before the kill.
    assert list(metadata_dir(leader).glob("*.checkpoint"))
    assert any("restoring snapshot" in ln for ln in leader.lines), "".join(leader.lines[-30:])

    # The broker sees every topic; data written before the failover is still there.
    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10)
    assert {"before", "after-failover", *(f"bulk-{i}" for i in range(12))} <= set(md.topics)
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "raft-cluster", "auto.offset.reset": "earliest"})
    c.subscribe(["before"])
    got = []
    deadline = time.monotonic() + 60
    while len(got) < 5 and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and not m.error():
            got.append(m.value())
    c.close()
    assert sorted(got) == [b"m%d" % i for i in range(5)]

    # Now the restarted node can lead: stop the current leader gracefully (EndQuorumEpoch).
    new_leader.stop()
    took = create_topic(bootstrap, "after-resign")
    print(f"graceful leader stop: topic created {took:.2f}s later")
    assert took < 10


def test_non_leader_controller_answers_not_controller(cluster):
    controllers = [cluster.node(i) for i in (1, 2, 3)]
    broker = cluster.brokers[0]
    q = wait_for(lambda: describe_quorum(broker.port), 60, "DescribeQuorum")
    follower = next(c for c in controllers if c.id != q.leader_id)
    from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest

    with WireClient("127.0.0.1", follower.controller_port, timeout=5) as w:
        r = w.send(CreateTopicsRequest(topics=[CreatableTopic(name="x", num_partitions=1, replication_factor=1)],
                                       timeout_ms=5000))
    assert r.topics[0].error_code == 41  # NOT_CONTROLLER
    leader = next(c for c in controllers if c.id == q.leader_id)
    with WireClient("127.0.0.1", leader.controller_port, timeout=5) as w:
        r = w.send(CreateTopicsRequest(topics=[CreatableTopic(name="x", num_partitions=1, replication_factor=1)],
                                       timeout_ms=5000))
    assert r.topics[0].error_code == 0
    wait_for(lambda: "x" in AdminClient({"bootstrap.servers": cluster.bootstrap})
             .list_topics(timeout=5).topics, 60, "the broker to see x")


def test_metadata_writes_other_than_topics_go_through_the_quorum(cluster):
    from confluent_kafka.admin import ScramCredentialInfo, ScramMechanism, UserScramCredentialUpsertion

    bootstrap = cluster.bootstrap
    wait_for(lambda: describe_quorum(cluster.brokers[0].port), 60, "DescribeQuorum")
    admin = AdminClient({"bootstrap.servers": bootstrap})
    up = UserScramCredentialUpsertion("alice", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                                      b"secret", b"salt")
    admin.alter_user_scram_credentials([up])["alice"].result(timeout=15)

    def described():
        try:
            d = admin.describe_user_scram_credentials(["alice"])["alice"].result(timeout=5)
        except Exception:
            return None
        return [(i.mechanism, i.iterations) for i in d.scram_credential_infos] or None

    got = wait_for(described, 60, "the broker to see alice's credential")
    assert got == [(ScramMechanism.SCRAM_SHA_256, 4096)]


def test_update_features_through_the_broker(cluster):
    from odradek.wire.messages.api_versions_request import ApiVersionsRequest
    from odradek.wire.messages.update_features_request import FeatureUpdateKey, UpdateFeaturesRequest

    port = cluster.brokers[0].port
    wait_for(lambda: describe_quorum(port), 60, "DescribeQuorum")

    def finalized():
        with WireClient("127.0.0.1", port, timeout=5) as w:
            r = w.send(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3)
        return {f.name: f.max_version_level for f in r.finalized_features}

    assert finalized().get("group.version") == 1
    with WireClient("127.0.0.1", port, timeout=15) as w:
        r = w.send(UpdateFeaturesRequest(timeout_ms=10000, feature_updates=[
            FeatureUpdateKey(feature="group.version", max_version_level=0, upgrade_type=2)]), 1)
    assert (r.error_code, [x.error_code for x in r.results]) == (0, [0])
    wait_for(lambda: "group.version" not in finalized(), 60, "the broker to see group.version disabled")


def test_single_node_describe_quorum(tmp_path):
    from harness import BrokerProcess

    b = BrokerProcess(str(tmp_path))
    b.start()
    try:
        r = describe_quorum(b.port)
        assert r.error_code == 0 and r.leader_id == 1 and [v.replica_id for v in r.current_voters] == [1]
        assert r.high_watermark > 0
    finally:
        b.stop()
