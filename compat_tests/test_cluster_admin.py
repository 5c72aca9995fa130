"""Cluster-admin APIs with stock clients, answering as a single Kafka 4.3 node without an
authorizer or SASL: ACLs refused (SECURITY_DISABLED), SCRAM credentials and client quotas
stored, log dirs, producers, elections and reassignments with single-node semantics.
Kafka 4.3's own tools (kafka-configs, kafka-transactions) run from Maven Central jars."""

from __future__ import annotations

import os
import uuid

import pytest

from harness import create_topic, kafka_tool


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def ck_admin(bootstrap):
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap})


@pytest.fixture
def kp_admin(bootstrap):
    from kafka.admin import KafkaAdminClient

    a = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    yield a
    a.close()


def _acl_binding():
    from confluent_kafka.admin import AclBinding, AclOperation, AclPermissionType, ResourcePatternType, ResourceType

    return AclBinding(ResourceType.TOPIC, "t", ResourcePatternType.LITERAL, "User:alice", "*",
                      AclOperation.READ, AclPermissionType.ALLOW)


def test_confluent_acls_security_disabled(ck_admin):
    from confluent_kafka import KafkaError, KafkaException
    from confluent_kafka.admin import (AclBindingFilter, AclOperation, AclPermissionType, ResourcePatternType,
                                       ResourceType)

    flt = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                           AclPermissionType.ANY)
    # librdkafka drops DescribeAcls' top-level error: no ACLs (the same against Kafka)
    assert ck_admin.describe_acls(flt, request_timeout=10).result() == []
    for fut in (*ck_admin.create_acls([_acl_binding()], request_timeout=10).values(),
                *ck_admin.delete_acls([flt], request_timeout=10).values()):
        with pytest.raises(KafkaException) as e:
            fut.result()
        assert e.value.args[0].code() == KafkaError.SECURITY_DISABLED


def test_confluent_scram_credentials_round_trip(ck_admin):
    from confluent_kafka.admin import (ScramCredentialInfo, ScramMechanism, UserScramCredentialDeletion,
                                       UserScramCredentialUpsertion)

    user = _name("scram")
    up = UserScramCredentialUpsertion(user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), b"secret")
    for f in ck_admin.alter_user_scram_credentials([up], request_timeout=10).values():
        f.result()
    desc = ck_admin.describe_user_scram_credentials([user], request_timeout=10)[user].result()
    assert [(i.mechanism, i.iterations) for i in desc.scram_credential_infos] == [(ScramMechanism.SCRAM_SHA_256, 8192)]
    dels = [UserScramCredentialDeletion(user, ScramMechanism.SCRAM_SHA_256)]
    for f in ck_admin.alter_user_scram_credentials(dels, request_timeout=10).values():
        f.result()
    from confluent_kafka import KafkaError, KafkaException

    with pytest.raises(KafkaException) as e:
        ck_admin.describe_user_scram_credentials([user], request_timeout=10)[user].result()
    assert e.value.args[0].code() == KafkaError.RESOURCE_NOT_FOUND


def test_confluent_elect_leaders_not_needed(ck_admin, bootstrap):
    from confluent_kafka import ElectionType, KafkaError, TopicPartition

    name = _name("elect")
    create_topic(bootstrap, name, 2)
    # (confluent-kafka 2.16's elect_leaders rejects a request_timeout keyword: SystemError)
    res = ck_admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(name, 0), TopicPartition(name, 1)]).result()
    assert {tp.partition: err.code() for tp, err in res.items()} == {0: KafkaError.ELECTION_NOT_NEEDED,
                                                                      1: KafkaError.ELECTION_NOT_NEEDED}
    nope = _name("nope")
    res = ck_admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(nope, 0)]).result()
    assert [(err.code(), err.str()) for err in res.values()] == [(KafkaError.UNKNOWN_TOPIC_OR_PART,
                                                                  f"No such topic as {nope}")]


def test_kafka_python_describe_log_dirs(kp_admin, bootstrap):
    from kafka import KafkaProducer

    name = _name("logdirs")
    create_topic(bootstrap, name, 2)
    p = KafkaProducer(bootstrap_servers=bootstrap)
    p.send(name, b"x" * 100, partition=0).get(timeout=10)
    p.close()
    (broker,) = kp_admin.describe_log_dirs()
    (d,) = broker["log_dirs"]
    assert d["error_code"] == 0 and os.path.isabs(d["log_dir"])
    sizes = {p["partition_index"]: p["partition_size"] for t in d["topics"] if t["name"] == name
             for p in t["partitions"]}
    assert sizes[0] > 100 and sizes[1] == 0
    assert d["total_bytes"] > 0 and 0 < d["usable_bytes"] <= d["total_bytes"]


def test_kafka_python_reassignments_single_node(kp_admin, bootstrap):
    name = _name("reassign")
    create_topic(bootstrap, name, 1)
    assert kp_admin.list_partition_reassignments() == {}


def test_kafka_configs_quotas_and_scram(bootstrap):
    user = _name("u")
    entity = ("--bootstrap-server", bootstrap, "--entity-type", "users", "--entity-name", user)
    r = kafka_tool("configs", *entity, "--alter", "--add-config", "producer_byte_rate=4096,consumer_byte_rate=8192")
    assert r.returncode == 0, r.stderr
    r = kafka_tool("configs", *entity, "--alter", "--add-config", "SCRAM-SHA-512=[iterations=8192,password=pw]")
    assert r.returncode == 0, r.stderr
    r = kafka_tool("configs", *entity, "--describe")
    assert r.returncode == 0, r.stderr
    assert f"Quota configs for user-principal '{user}' are consumer_byte_rate=8192.0, producer_byte_rate=4096.0" \
        in r.stdout
    assert f"SCRAM credential configs for user-principal '{user}' are SCRAM-SHA-512=iterations=8192" in r.stdout
    r = kafka_tool("configs", *entity, "--alter", "--delete-config", "producer_byte_rate")
    assert r.returncode == 0, r.stderr
    r = kafka_tool("configs", *entity, "--describe")
    assert f"Quota configs for user-principal '{user}' are consumer_byte_rate=8192.0" in r.stdout


def test_kafka_transactions_describe_producers(bootstrap):
    from confluent_kafka import Producer

    name = _name("producers")
    create_topic(bootstrap, name, 1)
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": _name("tx")})
    p.init_transactions()
    p.begin_transaction()
    p.produce(name, b"v1")
    p.produce(name, b"v2")
    p.flush()
    r = kafka_tool("transactions", "--bootstrap-server", bootstrap, "describe-producers", "--topic", name,
                   "--partition", "0")
    p.abort_transaction()
    assert r.returncode == 0, r.stderr
    header, row = [line.split() for line in r.stdout.strip().splitlines()[-2:]]
    assert header == ["ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp",
                      "CurrentTransactionStartOffset"]
    got = dict(zip(header, row))
    assert got["ProducerEpoch"] == "0" and got["LastSequence"] == "1" and got["CurrentTransactionStartOffset"] == "0"
