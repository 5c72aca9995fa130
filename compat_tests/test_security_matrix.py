"""Issue 22's client matrix: every client on every protocol and mechanism. One broker with an SSL
listener (ssl.client.auth=requested: with and without a client certificate), a SASL_PLAINTEXT and a
SASL_SSL listener (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and PLAINTEXT between nodes. In each cell a
client, with only that cell's security settings, creates a topic and describes the cluster (admin),
commits a transaction of two records and aborts one of one, produces one more, reads the three
committed ones in a consumer group (read_committed) and commits, and the committed offset (6) is
read back with its admin client.

Clients: confluent-kafka (librdkafka), kafka-python, aiokafka, Java kafka-clients 3.9.2 and 4.3.0
(compat_tests/java SecurityCheck, one JVM per version for its cells). ODRADEK_SECURITY_MATRIX=all runs
all 40 cells; by default (22 cells) confluent-kafka runs all 8 settings, kafka-python, aiokafka and
Java 3.9.2 three each (SSL with or without a certificate, one SASL_PLAINTEXT and one SASL_SSL
mechanism, rotated), Java 4.3.0 the five 3.9.2 does not: every setting by two or three clients,
Java on every setting."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from builds import CHECK_JVM, JAVA_CLIENT_VERSIONS, java_clients_classpath
from harness import BrokerProcess, free_port
from tls_certs import TestCA

JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-pw";'
USER, PASSWORD = "alice", "alice-pw"  # a PLAIN user and a SCRAM-SHA-256 and -512 user


@dataclass(frozen=True)
class Sec:
    name: str
    protocol: str  # SSL, SASL_PLAINTEXT, SASL_SSL
    mechanism: str | None = None
    cert: bool = False  # SSL with a client certificate

    @property
    def tls(self) -> bool:
        return self.protocol in ("SSL", "SASL_SSL")


SETTINGS = [Sec("ssl", "SSL"), Sec("ssl_cert", "SSL", cert=True)] + [
    Sec(f"{p.lower()}_{m.lower().replace('-', '')}", p, m)
    for p in ("SASL_PLAINTEXT", "SASL_SSL") for m in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")]
CLIENTS = ["confluent", "kafka-python", "aiokafka", *(f"java-{v}" for v in JAVA_CLIENT_VERSIONS)]
DEFAULT = {
    "confluent": [s.name for s in SETTINGS],
    "kafka-python": ["ssl_cert", "sasl_plaintext_scramsha256", "sasl_ssl_plain"],
    "aiokafka": ["ssl", "sasl_plaintext_plain", "sasl_ssl_scramsha512"],
    "java-3.9.2": ["ssl_cert", "sasl_plaintext_scramsha512", "sasl_ssl_scramsha256"],
    "java-4.3.0": ["ssl", "sasl_plaintext_plain", "sasl_plaintext_scramsha256", "sasl_ssl_plain", "sasl_ssl_scramsha512"],
}
ALL = os.environ.get("ODRADEK_SECURITY_MATRIX") == "all"
CELLS = [(c, s) for c in CLIENTS for s in SETTINGS if ALL or s.name in DEFAULT.get(c, ())]


class Broker:
    def __init__(self, root: Path):
        certs = root / "certs"
        certs.mkdir()
        self.ca = TestCA(certs)
        self.chain, self.key = self.ca.issue("client", "alice", server=False)
        self.key_store = certs / "client-keystore.pem"  # Java's PEM key store: key and chain in one file
        self.key_store.write_bytes(self.key.read_bytes() + self.chain.read_bytes())
        self.ports = {p: free_port() for p in ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")}
        self.process = BrokerProcess(str(root / "data"), {
            "listeners": ",".join(f"{p}://127.0.0.1:{port}" for p, port in self.ports.items()),
            "inter.broker.listener.name": "PLAINTEXT",
            "ssl.keystore.type": "PEM", "ssl.keystore.location": str(self.ca.keystore_pem("broker", "localhost", "kpw")),
            "ssl.key.password": "kpw", "ssl.truststore.type": "PEM", "ssl.truststore.location": str(self.ca.ca_file),
            "listener.name.ssl.ssl.client.auth": "requested",
            "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
            "listener.name.sasl_ssl.plain.sasl.jaas.config": JAAS,
            "group.initial.rebalance.delay.ms": "0"}, port=self.ports["PLAINTEXT"])

    def bootstrap(self, s: Sec) -> str:
        return f"127.0.0.1:{self.ports[s.protocol]}"


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    b = Broker(tmp_path_factory.mktemp("security-matrix"))
    b.process.start()
    try:
        from confluent_kafka.admin import AdminClient, ScramCredentialInfo, ScramMechanism, \
            UserScramCredentialUpsertion

        admin = AdminClient({"bootstrap.servers": b.process.bootstrap})
        for m in (ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512):  # one a request, as Kafka requires
            for f in admin.alter_user_scram_credentials([UserScramCredentialUpsertion(
                    USER, ScramCredentialInfo(m, 4096), PASSWORD.encode())]).values():
                f.result(30)
        yield b
    finally:
        b.process.stop()


def new_names(client: str, s: Sec) -> tuple[str, str]:
    topic = f"sec-{client}-{s.name}-{uuid.uuid4().hex[:6]}".replace(".", "")
    return topic, topic + "-g"


# ---------------------------------------------------------------- confluent-kafka

def confluent_settings(b: Broker, s: Sec) -> dict:
    conf = {"bootstrap.servers": b.bootstrap(s), "security.protocol": s.protocol}
    if s.tls:
        conf["ssl.ca.location"] = str(b.ca.ca_file)
    if s.cert:
        conf.update({"ssl.certificate.location": str(b.chain), "ssl.key.location": str(b.key)})
    if s.mechanism:
        conf.update({"sasl.mechanism": s.mechanism, "sasl.username": USER, "sasl.password": PASSWORD})
    return conf


def confluent_cell(b: Broker, s: Sec) -> None:
    from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    conf = confluent_settings(b, s)
    topic, group = new_names("confluent", s)
    admin = AdminClient(conf)
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    assert admin.describe_cluster().result(30).nodes
    txn = Producer({**conf, "transactional.id": topic})
    txn.init_transactions(30)
    txn.begin_transaction()
    txn.produce(topic, b"a")
    txn.produce(topic, b"b")
    txn.commit_transaction(30)
    txn.begin_transaction()
    txn.produce(topic, b"aborted")
    txn.flush(30)
    txn.abort_transaction(30)
    p = Producer(conf)
    p.produce(topic, b"c")
    assert p.flush(30) == 0
    c = Consumer({**conf, "group.id": group, "auto.offset.reset": "earliest", "enable.auto.commit": False,
                  "isolation.level": "read_committed"})
    c.subscribe([topic])
    got = set()
    for _ in range(60):
        if len(got) >= 3:
            break
        m = c.poll(1)
        if m is not None and m.error() is None:
            got.add(m.value())
    c.commit(asynchronous=False)
    c.close()
    assert got == {b"a", b"b", b"c"}
    offsets = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group].result(30)
    assert [(tp.topic, tp.offset) for tp in offsets.topic_partitions] == [(topic, 6)]


# ---------------------------------------------------------------- kafka-python

def kafka_python_cell(b: Broker, s: Sec) -> None:
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import NewTopic

    kw = {"bootstrap_servers": b.bootstrap(s), "security_protocol": s.protocol}
    if s.tls:
        kw["ssl_cafile"] = str(b.ca.ca_file)
    if s.cert:
        kw.update(ssl_certfile=str(b.chain), ssl_keyfile=str(b.key))
    if s.mechanism:
        kw.update(sasl_mechanism=s.mechanism, sasl_plain_username=USER, sasl_plain_password=PASSWORD)
    topic, group = new_names("kafka-python", s)
    admin = KafkaAdminClient(**kw)
    admin.create_topics([NewTopic(topic, 1, 1)])
    assert admin.describe_cluster()["brokers"]
    txn = KafkaProducer(**kw, transactional_id=topic)
    txn.init_transactions()
    txn.begin_transaction()
    txn.send(topic, b"a")
    txn.send(topic, b"b")
    txn.commit_transaction()
    txn.begin_transaction()
    txn.send(topic, b"aborted")
    txn.flush()
    txn.abort_transaction()
    txn.close()
    p = KafkaProducer(**kw)
    p.send(topic, b"c").get(30)
    p.close()
    c = KafkaConsumer(topic, **kw, group_id=group, auto_offset_reset="earliest", enable_auto_commit=False,
                      isolation_level="read_committed")
    got = set()
    for _ in range(60):
        if len(got) >= 3:
            break
        for records in c.poll(1000).values():
            got |= {r.value for r in records}
    c.commit()
    c.close()
    assert got == {b"a", b"b", b"c"}
    offsets = admin.list_group_offsets({group: None})[group]
    assert {tp: o.offset for tp, o in offsets.items()} == {TopicPartition(topic, 0): 6}
    admin.close()


# ---------------------------------------------------------------- aiokafka

async def _aiokafka_cell(b: Broker, s: Sec) -> None:
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic
    from aiokafka.helpers import create_ssl_context

    kw = {"bootstrap_servers": b.bootstrap(s), "security_protocol": s.protocol}
    if s.tls:
        kw["ssl_context"] = create_ssl_context(cafile=str(b.ca.ca_file), certfile=str(b.chain) if s.cert else None,
                                               keyfile=str(b.key) if s.cert else None)
    if s.mechanism:
        kw.update(sasl_mechanism=s.mechanism, sasl_plain_username=USER, sasl_plain_password=PASSWORD)
    topic, group = new_names("aiokafka", s)
    admin = AIOKafkaAdminClient(**kw)
    await admin.start()
    try:
        await admin.create_topics([NewTopic(topic, 1, 1)])
        assert (await admin.describe_cluster())["brokers"]
        txn = AIOKafkaProducer(**kw, transactional_id=topic)
        await txn.start()
        try:
            async with txn.transaction():
                await txn.send(topic, b"a")
                await txn.send(topic, b"b")
            await txn.begin_transaction()
            await txn.send_and_wait(topic, b"aborted")
            await txn.abort_transaction()
        finally:
            await txn.stop()
        p = AIOKafkaProducer(**kw)
        await p.start()
        try:
            await p.send_and_wait(topic, b"c")
        finally:
            await p.stop()
        c = AIOKafkaConsumer(topic, **kw, group_id=group, auto_offset_reset="earliest", enable_auto_commit=False,
                             isolation_level="read_committed")
        await c.start()
        got = set()
        try:
            for _ in range(60):
                if len(got) >= 3:
                    break
                for records in (await c.getmany(timeout_ms=1000)).values():
                    got |= {r.value for r in records}
            await c.commit()
        finally:
            await c.stop()
        assert got == {b"a", b"b", b"c"}
        offsets = await admin.list_consumer_group_offsets(group)
        assert {tp: o.offset for tp, o in offsets.items()} == {TopicPartition(topic, 0): 6}
    finally:
        await admin.close()


def aiokafka_cell(b: Broker, s: Sec) -> None:
    asyncio.run(_aiokafka_cell(b, s))


# ---------------------------------------------------------------- Java kafka-clients

def java_properties(b: Broker, s: Sec, path: Path) -> Path:
    lines = [f"bootstrap.servers={b.bootstrap(s)}", f"security.protocol={s.protocol}"]
    if s.tls:
        lines += ["ssl.truststore.type=PEM", f"ssl.truststore.location={b.ca.ca_file}"]
    if s.cert:
        lines += ["ssl.keystore.type=PEM", f"ssl.keystore.location={b.key_store}"]
    if s.mechanism:
        module = "plain.PlainLoginModule" if s.mechanism == "PLAIN" else "scram.ScramLoginModule"
        lines += [f"sasl.mechanism={s.mechanism}", f"sasl.jaas.config=org.apache.kafka.common.security.{module} "
                  f'required username="{USER}" password="{PASSWORD}";']
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def java_results(broker, tmp_path_factory) -> dict[tuple[str, str], str]:
    """Each Java version's cells in one JVM: {(client, setting): "PASS" or the failure line}."""
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Java 17 and Maven")
    d = tmp_path_factory.mktemp("java-security")
    results = {}
    for version in JAVA_CLIENT_VERSIONS:
        client = f"java-{version}"
        cells = [s for c, s in CELLS if c == client]
        if not cells:
            continue
        args = [f"{s.name}={java_properties(broker, s, d / f'{s.name}.properties')}" for s in cells]
        r = subprocess.run(["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                            java_clients_classpath(version), "odradek.compat.SecurityCheck", *args],
                           capture_output=True, text=True, timeout=600)
        for line in r.stdout.splitlines():
            m = re.match(r"(PASS|FAIL) (\w+)", line)
            if m:
                results[(client, m.group(2))] = "PASS" if m.group(1) == "PASS" else line
        results[(client, "_output")] = f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return results


PYTHON_CELLS = {"confluent": confluent_cell, "kafka-python": kafka_python_cell, "aiokafka": aiokafka_cell}


@pytest.mark.parametrize("client,setting", CELLS, ids=[f"{c}-{s.name}" for c, s in CELLS])
def test_client_matrix(broker, request, client, setting):
    if client in PYTHON_CELLS:
        PYTHON_CELLS[client](broker, setting)
        return
    results = request.getfixturevalue("java_results")
    assert results.get((client, setting.name)) == "PASS", results.get((client, "_output"))
