"""Several listeners on one broker, each served with its own protocol and listener.name.<l>.*
settings (PLAINTEXT, SSL with client certificates required, SASL_SSL with PLAIN), Metadata answering
each client with the endpoints of the listener it connected to (advertised.listeners), and the
principal of an SSL client: its certificate's subject DN mapped by ssl.principal.mapping.rules
(Kafka's DefaultKafkaPrincipalBuilder), seen through the StandardAuthorizer. One broker for the
module. ODRADEK_LISTENERS_REF=host (any value) runs the same checks against a Kafka 4.3 started by
hand with the settings of ``settings()`` (ports from ODRADEK_LISTENERS_REF_PORTS=p1,p2,p3 and the
certificate directory ODRADEK_LISTENERS_REF_CERTS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import AclBinding, AclOperation, AclPermissionType, AdminClient, ResourcePatternType, \
    ResourceType
from confluent_kafka.admin import NewTopic

from harness import BrokerProcess, free_port, poll_values
from tls_certs import TestCA

TOPIC = "by-listener"
JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="admin-secret";'
CAROL = "User:CN=Carol,O=odradek tests"  # no rule but DEFAULT applies: the DN itself


def settings(ports: tuple[int, int, int], ca: TestCA) -> dict[str, str]:
    p1, p2, p3 = ports
    return {
        "listeners": f"PLAINTEXT://127.0.0.1:{p1},SSL://127.0.0.1:{p2},SASL_SSL://127.0.0.1:{p3}",
        "advertised.listeners": f"PLAINTEXT://localhost:{p1},SSL://127.0.0.1:{p2},SASL_SSL://localhost:{p3}",
        "inter.broker.listener.name": "PLAINTEXT",
        "ssl.keystore.type": "PEM", "ssl.keystore.location": str(ca.keystore_pem("broker", "localhost", "kpw")),
        "ssl.key.password": "kpw", "ssl.truststore.type": "PEM", "ssl.truststore.location": str(ca.ca_file),
        "listener.name.ssl.ssl.client.auth": "required",
        "listener.name.ssl.ssl.principal.mapping.rules": "RULE:^CN=(Alice|Bob),O=.*$/$1/L,DEFAULT",
        "listener.name.sasl_ssl.sasl.enabled.mechanisms": "PLAIN",
        "listener.name.sasl_ssl.plain.sasl.jaas.config": JAAS,
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:alice;User:admin;User:ANONYMOUS",
        "group.initial.rebalance.delay.ms": "0", "offsets.topic.replication.factor": "1",
    }


class Listeners:
    def __init__(self, ports, ca: TestCA, cert_dir: Path):
        self.ports, self.ca = ports, ca
        self.certs = {who: ca.issue(f"client-{who}", who.capitalize(), server=False)
                      for who in ("alice", "bob", "carol")}

    def plaintext(self, **more) -> dict:
        return {"bootstrap.servers": f"127.0.0.1:{self.ports[0]}", **more}

    def ssl(self, who: str | None, **more) -> dict:
        conf = {"bootstrap.servers": f"127.0.0.1:{self.ports[1]}", "security.protocol": "SSL",
                "ssl.ca.location": str(self.ca.ca_file), **more}
        if who is not None:
            chain, key = self.certs[who]
            conf.update({"ssl.certificate.location": str(chain), "ssl.key.location": str(key)})
        return conf

    def sasl_ssl(self, **more) -> dict:
        return {"bootstrap.servers": f"127.0.0.1:{self.ports[2]}", "security.protocol": "SASL_SSL",
                "ssl.ca.location": str(self.ca.ca_file), "sasl.mechanism": "PLAIN", "sasl.username": "admin",
                "sasl.password": "admin-secret", **more}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if os.environ.get("ODRADEK_LISTENERS_REF"):
        certs = Path(os.environ["ODRADEK_LISTENERS_REF_CERTS"])
        ports = tuple(int(p) for p in os.environ["ODRADEK_LISTENERS_REF_PORTS"].split(","))
        yield Listeners(ports, ReusedCA(certs), certs)
        return
    certs = tmp_path_factory.mktemp("certs")
    ca = TestCA(certs)
    ports = (free_port(), free_port(), free_port())
    b = BrokerProcess(str(tmp_path_factory.mktemp("listeners")), settings(ports, ca), port=ports[0])
    b.start()
    try:
        yield Listeners(ports, ca, certs)
    finally:
        b.stop()


class ReusedCA(TestCA):
    """The CA a reference Kafka was started with (its files kept by hand), to issue client certificates."""

    def __init__(self, directory: Path):
        from cryptography import x509
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        self.dir = directory
        self.ca_file = directory / "ca.pem"
        self.cert = x509.load_pem_x509_certificate(self.ca_file.read_bytes())
        self.key = load_pem_private_key((directory / "ca.key").read_bytes(), None)


def _brokers(conf: dict) -> dict[int, str]:
    md = AdminClient(conf).list_topics(timeout=20)
    return {b.id: f"{b.host}:{b.port}" for b in md.brokers.values()}


def test_each_listener_answers_with_its_own_advertised_endpoints(cluster):
    p1, p2, p3 = cluster.ports
    assert list(_brokers(cluster.plaintext()).values()) == [f"localhost:{p1}"]
    assert list(_brokers(cluster.ssl("alice")).values()) == [f"127.0.0.1:{p2}"]
    assert list(_brokers(cluster.sasl_ssl()).values()) == [f"localhost:{p3}"]


def _produce(conf: dict, value: bytes):
    errors = []
    p = Producer({**conf, "message.timeout.ms": 15000})
    p.produce(TOPIC, value, on_delivery=lambda err, msg: errors.append(err))
    p.flush(30)
    return errors[0] if errors else "no delivery report"


def test_client_certificate_subject_is_the_principal(cluster):
    """alice's certificate maps to User:alice (a super user), bob's to User:bob (no ACL: refused),
    carol's to her DN (no rule but DEFAULT applies), which an ACL then lets write. A client without a
    certificate is refused by the SSL listener only (ssl.client.auth=required set for it alone)."""
    alice = cluster.ssl("alice")
    admin = AdminClient(alice)
    for f in admin.create_topics([NewTopic(TOPIC, 1, 1)]).values():
        try:
            f.result(30)
        except Exception as e:  # noqa: BLE001 - created by an earlier run against a reference broker
            assert "TOPIC_ALREADY_EXISTS" in str(e), e
    assert _produce(alice, b"from-alice") is None
    err = _produce(cluster.ssl("bob"), b"from-bob")
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    err = _produce(cluster.ssl("carol"), b"from-carol-denied")
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    acls = [AclBinding(ResourceType.TOPIC, TOPIC, ResourcePatternType.LITERAL, CAROL, "*", op, AclPermissionType.ALLOW)
            for op in (AclOperation.WRITE, AclOperation.DESCRIBE)]
    for f in admin.create_acls(acls).values():
        f.result(30)
    assert _produce(cluster.ssl("carol"), b"from-carol") is None
    got = poll_values(alice, TOPIC, lambda got: b"from-carol" in got)
    assert b"from-alice" in got and b"from-bob" not in got and b"from-carol-denied" not in got
    seen = []
    p = Producer({**cluster.ssl(None), "error_cb": seen.append, "message.timeout.ms": 4000})
    p.produce(TOPIC, b"no-certificate")
    p.flush(6)
    assert seen  # the handshake fails on this listener
    assert _produce(cluster.sasl_ssl(), b"over-sasl-ssl-without-certificate") is None
    assert _produce(cluster.plaintext(), b"over-plaintext") is None
