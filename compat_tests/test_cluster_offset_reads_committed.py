"""An offset commit is read only once committed, as Kafka's group coordinator answers OffsetFetch: a
plain fetch reads at the __consumer_offsets partition's high watermark (a read operation at the last
committed offset), a fetch with require_stable reads the newest offsets and is answered once they
are committed (a write operation without records). On real processes: 1 controller + 3 brokers,
offsets.topic.replication.factor=3 (one partition: the group's coordinator is its leader).

Both followers of __consumer_offsets are stopped (SIGSTOP); replica.lag.time.max.ms and the broker
session are long, so the ISR stays whole and the high watermark stays where it was. A commit then
reaches the leader's log but is not committed (its answer is held): a plain fetch still answers the
offset before it (were the leader to fail now, its successor would not have the commit, and a reader
that had seen it would see the committed offset go back), and a stable fetch gets no answer until
the followers are back, then the new offset. Against Apache Kafka 4.3: --cluster-kafka.
"""
from __future__ import annotations

import pytest

from cluster import offsets_cluster, wait_for
from harness import RawClient
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_commit_request import (
    OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
)
from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic
from test_cluster_coordinator_acks import _committed_in

TOPIC, GROUP, OFFSETS = "coord-acks", "coord-acks-group", "__consumer_offsets"  # (_committed_in's)
FETCH_V, COMMIT_V = 7, 8
# long enough that the stopped followers stay in the ISR and their brokers unfenced for the test, and
# that the held answers wait for them rather than time out
PATIENT = {"replica.lag.time.max.ms": "120000", "broker.session.timeout.ms": "120000",
           "offsets.commit.timeout.ms": "120000"}

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with offsets_cluster(tmp_path_factory.mktemp("offset-reads"), request.config, TOPIC, 1, PATIENT) as c:
        yield c


def _commit_request(offset: int) -> OffsetCommitRequest:
    return OffsetCommitRequest(group_id=GROUP, topics=[OffsetCommitRequestTopic(
        name=TOPIC, partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=offset)])])


def _fetch_request(stable: bool) -> OffsetFetchRequest:
    return OffsetFetchRequest(group_id=GROUP, require_stable=stable,
                              topics=[OffsetFetchRequestTopic(name=TOPIC, partition_indexes=[0])])


def _offset(resp) -> int:
    assert resp.error_code == ErrorCode.NONE
    p = resp.topics[0].partitions[0]
    assert p.error_code == ErrorCode.NONE
    return p.committed_offset


def test_an_uncommitted_offset_commit_is_not_read(cluster):
    RawClient(f"127.0.0.1:{cluster.brokers[0].port}").await_group_coordinator(GROUP)  # (creates __consumer_offsets)
    state = cluster.wait_full_isr(OFFSETS)
    leader = cluster.node(state[0].leader)
    client = RawClient(f"127.0.0.1:{leader.port}", timeout=60)
    committer = RawClient(f"127.0.0.1:{leader.port}", timeout=60)
    stable = RawClient(f"127.0.0.1:{leader.port}", timeout=60)
    try:
        answers: list[int] = []
        wait_for(lambda: answers.append(client.call(_commit_request(40), COMMIT_V).topics[0].partitions[0]
                                        .error_code) or answers[-1] == ErrorCode.NONE, 60,
                 "a first commit", last=lambda: answers[-3:])
        assert _offset(client.call(_fetch_request(False), FETCH_V)) == 40
        followers = [b for b in cluster.brokers if b.id != leader.id]
        for b in followers:
            b.pause()
        try:
            committer.send(_commit_request(41), COMMIT_V)  # its answer waits for the followers
            wait_for(lambda: _committed_in(leader.log_dir, 0)[-1:] == [41], 30, "the commit in the leader's log")
            assert _offset(client.call(_fetch_request(False), FETCH_V)) == 40
            stable.send(_fetch_request(True), FETCH_V)
            assert cluster.partitions(OFFSETS)[0].isr == state[0].isr  # (the window was not closed)
        finally:
            for b in followers:
                b.resume()
        assert _offset(stable.recv(OffsetFetchRequest.API_KEY, FETCH_V).body) == 41
        assert committer.recv(OffsetCommitRequest.API_KEY, COMMIT_V).body.topics[0].partitions[0].error_code == 0
        assert _offset(client.call(_fetch_request(False), FETCH_V)) == 41
    finally:
        for c in (client, committer, stable):
            c.close()
