"""The ACL authorizer (Kafka's StandardAuthorizer) with stock clients over SASL_PLAINTEXT PLAIN: Kafka's
kafka-acls adds, lists and removes ACLs; a principal without an ACL is refused with Kafka's error and
nothing changes, with the ACL it succeeds; Metadata hides topics the principal may not describe; the
ACLs survive a restart. The same checks run against Apache Kafka 4.3 configured alike when
ODRADEK_ACL_REF_BOOTSTRAP names its SASL_PLAINTEXT listener (super.users=User:admin;User:ANONYMOUS,
the same PLAIN users); the restart is then skipped."""

from __future__ import annotations

import os
import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AdminClient,
                                   NewTopic, ResourcePatternType, ResourceType)

from harness import BrokerProcess, free_port, kafka_tool

JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";')
REF = os.environ.get("ODRADEK_ACL_REF_BOOTSTRAP")


class _External:
    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    if REF:
        yield _External(REF)
        return
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("acls")), {
        "listeners": f"SASL_PLAINTEXT://127.0.0.1:{port}",
        "sasl.enabled.mechanisms": "PLAIN",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:admin",
        "group.initial.rebalance.delay.ms": "0"}, port=port)
    b.start()
    try:
        yield b
    finally:
        b.stop()


def conf(broker, user: str, **more) -> dict:
    return {"bootstrap.servers": broker.bootstrap, "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
            "sasl.username": user, "sasl.password": f"{user}-secret", **more}


def admin(broker) -> AdminClient:
    return AdminClient(conf(broker, "admin"))


def new_topic(broker) -> str:
    name = f"acl-{uuid.uuid4().hex[:10]}"
    a = admin(broker)  # (kept: a client destroyed early fails its futures)
    for f in a.create_topics([NewTopic(name, 1, 1)]).values():
        f.result(30)
    return name


def grant(broker, rtype, name, op, pattern=ResourcePatternType.LITERAL, perm=AclPermissionType.ALLOW,
          principal="User:bob"):
    a = admin(broker)
    for f in a.create_acls([AclBinding(rtype, name, pattern, principal, "*", op, perm)]).values():
        f.result(30)


def produce_errors(broker, topic: str, user: str = "bob") -> list:
    """The delivery error codes of one record (None: delivered)."""
    got = []
    p = Producer(conf(broker, user, **{"message.timeout.ms": 10000, "retries": 0}))
    p.produce(topic, b"v", on_delivery=lambda err, msg: got.append(err.code() if err else None))
    p.flush(20)
    return got


def eventually(check, timeout: float = 30):
    """check() until it holds (an ACL reaches a broker's authorizer through the metadata log, after the
    controller's answer: Kafka's brokers apply it a moment later)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.2)


def test_kafka_acls_tool_adds_lists_and_removes(broker, tmp_path):
    props = tmp_path / "admin.properties"
    props.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                     'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required '
                     'username="admin" password="admin-secret";\n')
    base = ["--bootstrap-server", broker.bootstrap, "--command-config", str(props)]
    prefix = f"tool-{uuid.uuid4().hex[:6]}-"
    r = kafka_tool("acls", *base, "--add", "--allow-principal", "User:carol", "--operation", "Read",
                   "--operation", "Describe", "--topic", prefix, "--resource-pattern-type", "prefixed")
    assert r.returncode == 0, r.stdout + r.stderr
    r = kafka_tool("acls", *base, "--add", "--deny-principal", "User:carol", "--deny-host", "10.0.0.9",
                   "--operation", "Write", "--topic", prefix + "x")
    assert r.returncode == 0, r.stdout + r.stderr
    listed = kafka_tool("acls", *base, "--list", "--topic", prefix + "x", "--resource-pattern-type", "match")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    out = listed.stdout
    assert f"name={prefix}, patternType=PREFIXED" in out and f"name={prefix}x, patternType=LITERAL" in out
    assert "(principal=User:carol, host=*, operation=READ, permissionType=ALLOW)" in out
    assert "(principal=User:carol, host=10.0.0.9, operation=WRITE, permissionType=DENY)" in out
    r = kafka_tool("acls", *base, "--remove", "--force", "--topic", prefix, "--resource-pattern-type", "prefixed")
    assert r.returncode == 0, r.stdout + r.stderr
    a = admin(broker)
    left = a.describe_acls(AclBindingFilter(ResourceType.TOPIC, prefix + "x", ResourcePatternType.MATCH, None,
                                            None, AclOperation.ANY, AclPermissionType.ANY)).result(30)
    assert [(b.name, b.resource_pattern_type) for b in left] == [(prefix + "x", ResourcePatternType.LITERAL)]
    # a principal without ALTER on the cluster may not add ACLs
    bob = AdminClient(conf(broker, "bob"))
    fut = bob.create_acls([AclBinding(ResourceType.TOPIC, "t", ResourcePatternType.LITERAL, "User:bob", "*",
                                      AclOperation.ALL, AclPermissionType.ALLOW)])
    with pytest.raises(KafkaException) as e:
        list(fut.values())[0].result(30)
    assert e.value.args[0].code() == KafkaError.CLUSTER_AUTHORIZATION_FAILED


def test_produce_needs_write_on_the_topic(broker):
    topic = new_topic(broker)
    assert produce_errors(broker, topic) == [KafkaError.TOPIC_AUTHORIZATION_FAILED]
    grant(broker, ResourceType.TOPIC, topic, AclOperation.WRITE)
    eventually(lambda: produce_errors(broker, topic) == [None])
    # only the authorized write is in the log
    c = Consumer(conf(broker, "admin", **{"group.id": f"g-{uuid.uuid4().hex}"}))
    lo, hi = c.get_watermark_offsets(TopicPartition(topic, 0), timeout=20)
    c.close()
    assert (lo, hi) == (0, 1)


def test_a_deny_wins_over_an_allow_and_prefixed_acls_apply(broker):
    topic = new_topic(broker)
    stem = topic[:8]
    grant(broker, ResourceType.TOPIC, stem, AclOperation.ALL, pattern=ResourcePatternType.PREFIXED)
    eventually(lambda: produce_errors(broker, topic) == [None])
    grant(broker, ResourceType.TOPIC, topic, AclOperation.WRITE, perm=AclPermissionType.DENY, principal="User:*")
    eventually(lambda: produce_errors(broker, topic) == [KafkaError.TOPIC_AUTHORIZATION_FAILED])


def test_metadata_hides_topics_bob_may_not_describe(broker):
    hidden, shown = new_topic(broker), new_topic(broker)
    grant(broker, ResourceType.TOPIC, shown, AclOperation.READ)  # READ implies DESCRIBE
    bob = AdminClient(conf(broker, "bob"))
    eventually(lambda: shown in bob.list_topics(timeout=20).topics)
    assert hidden not in bob.list_topics(timeout=20).topics
    assert admin(broker).list_topics(timeout=20).topics.keys() >= {shown, hidden}
    named = bob.list_topics(topic=hidden, timeout=20).topics[hidden]
    assert named.error is not None and named.error.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED


@pytest.mark.skipif(bool(REF), reason="restarts the broker under test")
def test_acls_survive_a_restart(broker):
    topic = new_topic(broker)
    grant(broker, ResourceType.TOPIC, topic, AclOperation.WRITE)
    broker.restart()
    assert produce_errors(broker, topic) == [None]
    a = admin(broker)
    found = a.describe_acls(AclBindingFilter(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, "User:bob", None,
                                             AclOperation.ANY, AclPermissionType.ANY)).result(30)
    assert [(b.operation, b.permission_type) for b in found] == [(AclOperation.WRITE, AclPermissionType.ALLOW)]


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_a_consumer_needs_read_on_its_group_and_the_topic(broker, protocol):
    topic = new_topic(broker)
    grant(broker, ResourceType.TOPIC, topic, AclOperation.WRITE)
    eventually(lambda: produce_errors(broker, topic) == [None])
    group = f"g-{uuid.uuid4().hex[:8]}"

    def first_poll():
        """The first error code or value bob's consumer in ``group`` gets."""
        c = Consumer(conf(broker, "bob", **{"group.id": group, "auto.offset.reset": "earliest",
                                             "enable.auto.commit": False, "group.protocol": protocol}))
        c.subscribe([topic])
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                m = c.poll(1)
                if m is not None:
                    return m.error().code() if m.error() else m.value()
            return None
        finally:
            c.close()

    assert first_poll() == KafkaError.GROUP_AUTHORIZATION_FAILED
    grant(broker, ResourceType.GROUP, group, AclOperation.READ)
    eventually(lambda: first_poll() == KafkaError.TOPIC_AUTHORIZATION_FAILED)
    grant(broker, ResourceType.TOPIC, topic, AclOperation.READ)
    eventually(lambda: first_poll() == b"v")


def test_idempotent_and_transactional_producers(broker):
    topic = new_topic(broker)
    # idempotence: IDEMPOTENT_WRITE on the cluster or WRITE on some topic (Kafka 4)
    grant(broker, ResourceType.TOPIC, topic, AclOperation.WRITE)
    got = []
    p = Producer(conf(broker, "bob", **{"enable.idempotence": True, "message.timeout.ms": 10000}))
    p.produce(topic, b"idem", on_delivery=lambda err, msg: got.append(err))
    p.flush(20)
    assert got == [None]
    tid = f"tx-{uuid.uuid4().hex[:8]}"
    t = Producer(conf(broker, "bob", **{"transactional.id": tid, "message.timeout.ms": 10000}))
    with pytest.raises(KafkaException) as e:
        t.init_transactions(20)
    assert e.value.args[0].code() == KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    grant(broker, ResourceType.TRANSACTIONAL_ID, tid, AclOperation.WRITE)

    def transact() -> bool:
        t2 = Producer(conf(broker, "bob", **{"transactional.id": tid, "message.timeout.ms": 10000}))
        try:
            t2.init_transactions(20)
        except KafkaException:
            return False
        t2.begin_transaction()
        t2.produce(topic, b"in-txn")
        t2.commit_transaction(20)
        return True

    eventually(transact)


def test_admin_requests_are_authorized_per_resource(broker):
    bob = AdminClient(conf(broker, "bob"))
    name = f"acl-bob-{uuid.uuid4().hex[:8]}"
    with pytest.raises(KafkaException) as e:
        bob.create_topics([NewTopic(name, 1, 1)])[name].result(30)
    assert e.value.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    assert name not in admin(broker).list_topics(timeout=20).topics
    grant(broker, ResourceType.TOPIC, "acl-bob-", AclOperation.CREATE, pattern=ResourcePatternType.PREFIXED)

    def created() -> bool:
        try:
            bob.create_topics([NewTopic(name, 1, 1)])[name].result(30)
            return True
        except KafkaException as err:
            assert err.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
            return False

    eventually(created)
    from confluent_kafka.admin import ConfigResource
    res = ConfigResource(ConfigResource.Type.TOPIC, name)
    with pytest.raises(KafkaException) as e:
        bob.describe_configs([res])[res].result(30)
    assert e.value.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED


@pytest.mark.skipif(bool(REF), reason="starts its own SSL broker")
def test_an_ssl_client_certificate_is_the_principal(tmp_path_factory):
    """mTLS: the principal is User: + the certificate's subject as Kafka writes it (DEFAULT mapping rule)."""
    from tls_certs import TestCA

    ca = TestCA(tmp_path_factory.mktemp("acl-certs"))
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("acl-ssl")), {
        "listeners": f"SSL://127.0.0.1:{port}", "ssl.keystore.type": "PEM",
        "ssl.keystore.location": str(ca.keystore_pem("broker", "localhost", "kpw")), "ssl.key.password": "kpw",
        "ssl.client.auth": "required", "ssl.truststore.type": "PEM", "ssl.truststore.location": str(ca.ca_file),
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:CN=admin,O=odradek tests"}, port=port)
    b.start()
    try:
        def client(cn: str, **more) -> dict:
            chain, key = ca.issue(f"client-{cn}", cn, server=False)
            return {"bootstrap.servers": b.bootstrap, "security.protocol": "SSL", "ssl.ca.location": str(ca.ca_file),
                    "ssl.certificate.location": str(chain), "ssl.key.location": str(key), **more}

        a = AdminClient(client("admin"))
        for f in a.create_topics([NewTopic("mtls", 1, 1)]).values():
            f.result(30)
        for f in a.create_acls([AclBinding(ResourceType.TOPIC, "mtls", ResourcePatternType.LITERAL,
                                           "User:CN=alice,O=odradek tests", "*", AclOperation.WRITE,
                                           AclPermissionType.ALLOW)]).values():
            f.result(30)

        def sent(cn: str) -> list:
            got = []
            p = Producer(client(cn, **{"message.timeout.ms": 10000, "retries": 0}))
            p.produce("mtls", b"v", on_delivery=lambda err, msg: got.append(err.code() if err else None))
            p.flush(20)
            return got

        assert sent("alice") == [None]
        assert sent("carol") == [KafkaError.TOPIC_AUTHORIZATION_FAILED]
    finally:
        b.stop()
