"""SSL and SASL_SSL listeners (a single node) with stock clients: confluent-kafka, kafka-python and
Kafka's Java tools trust the broker through a CA the test makes; mTLS with ssl.client.auth=required;
a plaintext client on the TLS port and an untrusted client fail cleanly and leave the broker
serving everyone else."""

from __future__ import annotations

import pytest
from confluent_kafka import KafkaError, Producer

from harness import BrokerProcess, free_port, kafka_tool, poll_values, producer_errors
from tls_certs import TestCA

TOPIC = "over-tls"


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    return TestCA(tmp_path_factory.mktemp("certs"))


def start(tmp_path_factory, ca: TestCA, protocol: str, **more) -> BrokerProcess:
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp(protocol.lower())), {
        "listeners": f"{protocol}://127.0.0.1:{port}",
        "ssl.keystore.type": "PEM", "ssl.keystore.location": str(ca.keystore_pem(f"broker-{port}", "localhost", "kpw")),
        "ssl.key.password": "kpw", "group.initial.rebalance.delay.ms": "0", **more}, port=port)
    b.start()
    return b


@pytest.fixture(scope="module")
def tls(tmp_path_factory, ca):
    b = start(tmp_path_factory, ca, "SSL")
    try:
        yield b
    finally:
        b.stop()


def ssl_conf(broker, ca, **more) -> dict:
    return {"bootstrap.servers": broker.bootstrap, "security.protocol": "SSL", "ssl.ca.location": str(ca.ca_file),
            **more}


def round_trip(settings: dict, value: bytes) -> list[bytes]:
    p = Producer(settings)
    p.produce(TOPIC, value)
    assert p.flush(30) == 0
    return poll_values(settings, TOPIC, lambda got: value in got)


def test_confluent_over_tls_large_fetch(tls, ca):
    """A fetch larger than the inline limit goes through the TLS transport (no sendfile under TLS)."""
    big = b"x" * 300_000
    assert big in round_trip(ssl_conf(tls, ca, **{"message.max.bytes": 1_000_000}), big)


def test_kafka_python_over_tls(tls, ca):
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    opts = dict(bootstrap_servers=tls.bootstrap, security_protocol="SSL", ssl_cafile=str(ca.ca_file))
    p = KafkaProducer(**opts)
    meta = p.send(TOPIC, b"kafka-python", partition=0).get(30)
    p.close()
    c = KafkaConsumer(**opts, consumer_timeout_ms=10000)
    tp = TopicPartition(TOPIC, 0)
    c.assign([tp])
    c.seek(tp, meta.offset)
    assert next(iter(c)).value == b"kafka-python"
    c.close()


def test_java_tool_over_tls(tls, ca, tmp_path):
    props = tmp_path / "client.properties"
    props.write_text(f"security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location={ca.ca_file}\n")
    r = kafka_tool("topics", "--bootstrap-server", tls.bootstrap, "--command-config", str(props), "--list")
    assert r.returncode == 0 and TOPIC in r.stdout.split(), r.stdout + r.stderr


def test_untrusted_and_plaintext_clients_fail_cleanly(tls, ca, tmp_path):
    other = TestCA(tmp_path)  # a CA the broker's certificate is not from
    # each producer is stopped at the error looked for (or its record's 4 s timeout, as before)
    failed = (KafkaError._SSL, KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN)
    seen = producer_errors(ssl_conf(tls, other, **{"message.timeout.ms": 4000}), TOPIC,
                           lambda seen: any(e.code() in failed for e in seen), 6)
    assert any(e.code() in failed for e in seen), seen
    seen = producer_errors({"bootstrap.servers": tls.bootstrap, "message.timeout.ms": 4000}, TOPIC, bool, 6)
    assert seen
    assert b"still-served" in round_trip(ssl_conf(tls, ca), b"still-served")


def test_mutual_tls(tmp_path_factory, ca):
    b = start(tmp_path_factory, ca, "SSL", **{"ssl.client.auth": "required", "ssl.truststore.type": "PEM",
                                              "ssl.truststore.location": str(ca.ca_file)})
    try:
        chain, key = ca.issue("client", "alice", server=False)
        ok = ssl_conf(b, ca, **{"ssl.certificate.location": str(chain), "ssl.key.location": str(key)})
        assert b"mtls" in round_trip(ok, b"mtls")
        seen, delivered = [], []
        p = Producer(ssl_conf(b, ca, error_cb=seen.append, **{"message.timeout.ms": 4000}))  # no client certificate
        p.produce(TOPIC, b"never", on_delivery=lambda err, msg: delivered.append(err))
        p.flush(8)
        assert seen and len(delivered) == 1 and delivered[0] is not None  # timed out, never written
    finally:
        b.stop()


def test_sasl_ssl_plain(tmp_path_factory, ca):
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="admin-secret";'
    b = start(tmp_path_factory, ca, "SASL_SSL", **{"sasl.enabled.mechanisms": "PLAIN",
                                                  "listener.name.sasl_ssl.plain.sasl.jaas.config": jaas})
    try:
        settings = {**ssl_conf(b, ca), "security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN",
                    "sasl.username": "admin", "sasl.password": "admin-secret"}
        assert b"sasl-ssl" in round_trip(settings, b"sasl-ssl")
    finally:
        b.stop()


def test_jks_key_store_is_refused(tmp_path):
    import subprocess
    import sys

    from harness import REPO

    r = subprocess.run([sys.executable, "-m", "odradek", "serve", "--data-dir", str(tmp_path), "--override",
                        f"listeners=SSL://127.0.0.1:{free_port()}", "--override", "ssl.keystore.location=/nope.jks"],
                       capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert r.returncode == 2
    assert r.stderr.strip().endswith("ssl.keystore.type=JKS: odradek reads PEM and PKCS12 key stores (not JKS)") or \
        "ssl.keystore.location /nope.jks" in r.stderr
