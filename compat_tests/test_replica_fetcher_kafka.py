"""odradek's replica fetcher follows an Apache Kafka 4.3 leader (issue 20: "an odradek broker
follows a Kafka leader"): node 2 registers with Kafka's controller as a broker (BrokerRegistration,
heartbeats), is assigned as the second replica of a topic with min.insync.replicas=2, and
replicates it with broker/replica_fetcher.py's ReplicaFetcherManager, in an incremental fetch
session (KIP-227) as Kafka's followers. Kafka's acks=all completes
only through our fetches (its HW is the minimum over the ISR), Kafka keeps us in the ISR, and the
follower's log is Kafka's segment byte for byte, leader-epoch-checkpoint included."""
from __future__ import annotations

import asyncio
import glob
import os
import re
import time
import uuid

import pytest

from bench.kafka_ref import KafkaBroker
from builds import kafka_test_jvm
from odradek.broker.replica_fetcher import LeaderConnection, ReplicaFetcherManager
from odradek.config import BrokerConfig
from odradek.log.config import LogConfig
from odradek.log.fs import RealFileSystem
from odradek.log.partition_log import PartitionLog
from odradek.wire.messages import broker_registration_request as brq
from odradek.wire.messages import create_topics_request as ctq
from odradek.wire.messages import metadata_request as mrq
from odradek.wire.messages.broker_heartbeat_request import BrokerHeartbeatRequest

ME = 2
RECORDS = 1000
# a range around every level a Kafka 4.3 cluster finalizes, so the controller takes the registration
FEATURES = [("metadata.version", 7, 40), ("kraft.version", 0, 1), ("group.version", 0, 1),
            ("transaction.version", 0, 2), ("eligible.leader.replicas.version", 0, 1), ("share.version", 0, 1),
            ("streams.version", 0, 1)]


def clock() -> int:
    return int(time.time() * 1000)


async def until(cond, timeout_s: float = 60.0):
    deadline = time.monotonic() + timeout_s
    while True:
        got = await cond()
        if got:
            return got
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.1)


async def connect(port: int) -> LeaderConnection:
    async def attempt():
        try:
            return await LeaderConnection.open("127.0.0.1", port, "odradek-2", 10)
        except OSError:
            return None
    return await until(attempt)


async def replicate_from_kafka(kafka: KafkaBroker, follower_dir: str) -> dict:
    props = (kafka.dir / "server.properties").read_text()
    cport = int(re.search(r"controller.quorum.voters=1@127.0.0.1:(\d+)", props).group(1))
    cluster = re.search(r"cluster.id=(\S+)", (kafka.dir / "data" / "meta.properties").read_text()).group(1)
    ctl, broker = await connect(cport), await connect(kafka.port)
    reg = await ctl.call(brq.BrokerRegistrationRequest(
        broker_id=ME, cluster_id=cluster, incarnation_id=uuid.uuid4().bytes,
        listeners=[brq.Listener(name="PLAINTEXT", host="127.0.0.1", port=1, security_protocol=0)],
        features=[brq.Feature(name=n, min_supported_version=lo, max_supported_version=hi) for n, lo, hi in FEATURES],
        rack=None, log_dirs=[uuid.uuid4().bytes]), ctl.version_for(brq.BrokerRegistrationRequest, 4), 10)
    assert reg.error_code == 0, reg
    epoch = reg.broker_epoch

    async def heartbeats():
        v = ctl.version_for(BrokerHeartbeatRequest, 2)
        while True:  # caught up with any metadata offset: Kafka unfences us
            await ctl.call(BrokerHeartbeatRequest(broker_id=ME, broker_epoch=epoch, current_metadata_offset=1 << 62),
                           v, 10)
            await asyncio.sleep(0.5)
    beating = asyncio.get_running_loop().create_task(heartbeats())

    async def metadata(topics=None):
        return await broker.call(mrq.MetadataRequest(topics=topics), 12, 10)

    async def unfenced():
        return ME in {b.node_id for b in (await metadata()).brokers}
    plog = None
    m = ReplicaFetcherManager(ME, lambda: epoch, lambda b: ("127.0.0.1", kafka.port) if b == 1 else None,
                              BrokerConfig(), clock, lambda key: None)
    try:
        await until(unfenced)
        created = await broker.call(ctq.CreateTopicsRequest(topics=[ctq.CreatableTopic(
            name="interop", num_partitions=-1, replication_factor=-1,
            assignments=[ctq.CreatableReplicaAssignment(partition_index=0, broker_ids=[1, ME])],
            configs=[ctq.CreatableTopicConfig(name="min.insync.replicas", value="2")])], timeout_ms=30000), 7, 30)
        assert created.topics[0].error_code == 0, created

        async def led():
            t = (await metadata([mrq.MetadataRequestTopic(name="interop")])).topics[0]
            return t if t.error_code == 0 and t.partitions and t.partitions[0].leader_id == 1 else None
        topic = await until(led)
        part = topic.partitions[0]
        assert list(part.replica_nodes) == [1, ME] and list(part.isr_nodes) == [1, ME]
        plog = PartitionLog(RealFileSystem(), os.path.join(follower_dir, "interop-0"), LogConfig(), now_ms=clock())
        m.become_follower(("interop", 0), 1, part.leader_epoch, plog, topic.topic_id)

        from kafka import KafkaProducer
        prod = KafkaProducer(bootstrap_servers=kafka.bootstrap, acks="all", linger_ms=5, retries=5)
        try:
            futures = [prod.send("interop", key=b"%d" % i, value=b"value-%06d" % i) for i in range(RECORDS)]
            await asyncio.get_running_loop().run_in_executor(None, prod.flush)
        finally:
            prod.close()
        acked = sum(1 for f in futures if f.succeeded())
        kafka_dir = kafka.dir / "data" / "interop-0"

        async def same_bytes():
            plog.flush()
            ours = b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(plog.dir, "*.log"))))
            theirs = b"".join(open(p, "rb").read() for p in sorted(glob.glob(str(kafka_dir / "*.log"))))
            return plog.high_watermark == RECORDS and ours == theirs and (ours, theirs)
        ours, theirs = await until(same_bytes)
        isr = (await led()).partitions[0].isr_nodes
        session = m.fetchers[(1, 0)].session
        return {"session": (session.session_id, session.epoch), "acked": acked, "ours": ours, "theirs": theirs,
                "isr": list(isr), "leo": plog.log_end_offset,
                "checkpoints": (open(os.path.join(plog.dir, "leader-epoch-checkpoint")).read(),
                                (kafka_dir / "leader-epoch-checkpoint").read_text())}
    finally:
        await m.close()
        beating.cancel()
        ctl.close()
        broker.close()
        if plog is not None:
            plog.close()


def test_odradek_follows_a_kafka_leader_byte_for_byte(request, kafka_jars, tmp_path):
    if request.config.getoption("--bootstrap"):
        pytest.skip("starts its own Kafka")
    kafka = KafkaBroker(str(tmp_path / "kafka"), jvm=kafka_test_jvm())
    kafka.start()
    try:
        got = asyncio.run(asyncio.wait_for(replicate_from_kafka(kafka, str(tmp_path / "odradek-2")), 240))
    finally:
        kafka.stop()
    assert got["acked"] == RECORDS  # acks=all with min.insync.replicas=2: through our fetches
    assert got["leo"] == RECORDS and got["ours"] == got["theirs"] and len(got["ours"]) > RECORDS * 20
    assert got["checkpoints"][0] == got["checkpoints"][1] == "0\n1\n0 0\n"
    assert got["isr"] == [1, ME]
    session_id, epoch = got["session"]  # Kafka took our incremental fetches (KIP-227): its session moved on
    assert session_id != 0 and epoch > 1
