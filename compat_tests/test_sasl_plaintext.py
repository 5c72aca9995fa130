"""A SASL_PLAINTEXT listener with PLAIN and SCRAM-SHA-256/512, used by stock clients: confluent-kafka
(librdkafka), kafka-python, and Kafka's own Java tools with --command-config. SCRAM users are made
the Kafka way (AlterUserScramCredentials by an authenticated admin) and take effect at once; wrong
passwords and unauthenticated requests fail cleanly and leave the broker serving everyone else."""

from __future__ import annotations

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import AdminClient, ScramCredentialInfo, ScramMechanism, UserScramCredentialUpsertion

from harness import BrokerProcess, RawClient, free_port, kafka_tool, poll_values, producer_errors
from metrics_scrape import scrape
from odradek.wire.messages.metadata_request import MetadataRequest
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest

JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";')
TOPIC = "secured"


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("sasl")), {
        "listeners": f"SASL_PLAINTEXT://127.0.0.1:{port}",
        "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
        "group.initial.rebalance.delay.ms": "0", "odradek.http.port": str(free_port())}, port=port)
    b.start()
    try:
        yield b
    finally:
        b.stop()


def conf(broker, mechanism: str, user: str, password: str, **more) -> dict:
    return {"bootstrap.servers": broker.bootstrap, "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": mechanism,
            "sasl.username": user, "sasl.password": password, **more}


def errors_of(settings: dict) -> list:
    """What a producer with these settings reports while trying to send one record, up to its first
    authentication error (what the tests look for) or the record's 5 s timeout."""
    return producer_errors({**settings, "message.timeout.ms": 5000}, TOPIC,
                           lambda seen: any(e.code() == KafkaError._AUTHENTICATION for e in seen), 8)


def consume_all(settings: dict, n: int) -> list[bytes]:
    return poll_values(settings, TOPIC, lambda got: len(got) >= n)


def test_plain_users_produce_and_consume(broker):
    p = Producer(conf(broker, "PLAIN", "admin", "admin-secret"))
    p.produce(TOPIC, b"from-admin")
    assert p.flush(30) == 0
    assert consume_all(conf(broker, "PLAIN", "bob", "bob-secret"), 1) == [b"from-admin"]


def test_wrong_password_fails_with_the_brokers_message(broker):
    seen = errors_of(conf(broker, "PLAIN", "admin", "wrong"))
    auth = [e for e in seen if e.code() == KafkaError._AUTHENTICATION]
    assert auth, seen
    assert "Authentication failed during authentication due to invalid credentials with SASL mechanism PLAIN" \
        in auth[0].str()


def test_scram_users_made_by_an_admin(broker):
    admin = AdminClient(conf(broker, "PLAIN", "admin", "admin-secret"))
    done = admin.alter_user_scram_credentials([
        UserScramCredentialUpsertion("alice", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), b"alice-pw"),
        UserScramCredentialUpsertion("carol", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), b"carol-pw")])
    for f in done.values():
        f.result(30)
    p = Producer(conf(broker, "SCRAM-SHA-512", "alice", "alice-pw"))
    p.produce(TOPIC, b"from-alice")
    assert p.flush(30) == 0
    assert b"from-alice" in consume_all(conf(broker, "SCRAM-SHA-256", "carol", "carol-pw"), 2)
    # the wrong password, and a credential of the other hash, are refused
    for settings in (conf(broker, "SCRAM-SHA-512", "alice", "nope"), conf(broker, "SCRAM-SHA-256", "alice", "alice-pw")):
        assert any(e.code() == KafkaError._AUTHENTICATION for e in errors_of(settings))


def test_kafka_python_scram(broker):
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    admin = AdminClient(conf(broker, "PLAIN", "admin", "admin-secret"))
    for f in admin.alter_user_scram_credentials([UserScramCredentialUpsertion(
            "dave", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), b"dave-pw")]).values():
        f.result(30)
    sasl = dict(bootstrap_servers=broker.bootstrap, security_protocol="SASL_PLAINTEXT",
                sasl_mechanism="SCRAM-SHA-256", sasl_plain_username="dave", sasl_plain_password="dave-pw")
    p = KafkaProducer(**sasl)
    meta = p.send(TOPIC, b"from-dave", partition=0).get(30)
    p.close()
    c = KafkaConsumer(**sasl, consumer_timeout_ms=10000)
    tp = TopicPartition(TOPIC, 0)
    c.assign([tp])
    c.seek(tp, meta.offset)
    assert next(iter(c)).value == b"from-dave"
    c.close()


def test_java_tools_with_command_config(broker, tmp_path):
    props = tmp_path / "client.properties"
    props.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                     'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required '
                     'username="admin" password="admin-secret";\n')
    r = kafka_tool("configs", "--bootstrap-server", broker.bootstrap, "--command-config", str(props), "--alter",
                   "--add-config", "SCRAM-SHA-512=[iterations=8192,password=erin-pw]", "--entity-type", "users",
                   "--entity-name", "erin")
    assert r.returncode == 0, r.stdout + r.stderr
    scram = tmp_path / "erin.properties"
    scram.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"
                     'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required '
                     'username="erin" password="erin-pw";\n')
    listed = kafka_tool("topics", "--bootstrap-server", broker.bootstrap, "--command-config", str(scram), "--list")
    assert listed.returncode == 0 and TOPIC in listed.stdout.split(), listed.stdout + listed.stderr


def test_requests_before_authentication_close_the_connection(broker):
    raw = RawClient(broker.bootstrap)
    raw.send(MetadataRequest(topics=None), 12)
    assert raw.is_closed_by_peer()
    raw = RawClient(broker.bootstrap)
    resp = raw.call(SaslHandshakeRequest(mechanism="GSSAPI"), 1)
    assert resp.error_code == 33 and resp.mechanisms == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
    assert raw.is_closed_by_peer()
    # and the broker goes on serving the others
    assert consume_all(conf(broker, "PLAIN", "bob", "bob-secret"), 1)


def plain_authenticate(broker, user: str, password: str) -> int:
    """One PLAIN authentication over the protocol: SaslAuthenticate's error code."""
    raw = RawClient(broker.bootstrap)
    try:
        assert raw.call(SaslHandshakeRequest(mechanism="PLAIN"), 1).error_code == 0
        return raw.call(SaslAuthenticateRequest(auth_bytes=b"\0%s\0%s" % (user.encode(), password.encode())),
                        2).error_code
    finally:
        raw.close()


def test_authentications_are_counted_per_listener(broker):
    """Kafka's socket-server-metrics failed-/successful-authentication-total, as the JMX exporter
    names them (kafka_server_socket_server_metrics_failed_authentication), on /metrics: one more of each after one wrong and one right password."""
    port = int(broker.overrides["odradek.http.port"])
    failed = ("kafka_server_socket_server_metrics_failed_authentication", (("listener", "SASL_PLAINTEXT"),))
    ok = ("kafka_server_socket_server_metrics_successful_authentication", (("listener", "SASL_PLAINTEXT"),))
    before = scrape(port)
    assert plain_authenticate(broker, "bob", "wrong") == 58  # SASL_AUTHENTICATION_FAILED
    assert plain_authenticate(broker, "bob", "bob-secret") == 0
    after = scrape(port)
    assert after[failed] - before[failed] == 1
    assert after[ok] - before[ok] == 1
