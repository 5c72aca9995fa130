"""Admin APIs added for parity with a single Kafka 4.3 node: ACLs, SASL, delegation tokens,
log dirs, producers, client quotas, SCRAM, elections and reassignments — each handler at
every advertised version, request and response through the codec as on the wire."""

import os

import pytest

from fake_services import services
from odradek.api_handlers import (REGISTRY, alter_client_quotas, alter_partition_reassignments,
                                  alter_replica_log_dirs, alter_user_scram_credentials, create_acls,
                                  create_delegation_token, delete_acls, describe_acls, describe_client_quotas,
                                  describe_delegation_token, describe_log_dirs, describe_producers,
                                  describe_user_scram_credentials, elect_leaders, expire_delegation_token,
                                  list_partition_reassignments, renew_delegation_token, sasl_authenticate,
                                  sasl_handshake)
from odradek.api_handlers.common import CLOSE_CONNECTION
from odradek.api_handlers.context import RequestContext
from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.controller.scram import derive_keys
from odradek.log import LogManager
from odradek.wire import records as wrecords
from odradek.wire.messages import alter_client_quotas_request as acq
from odradek.wire.messages import alter_partition_reassignments_request as apr
from odradek.wire.messages import alter_replica_log_dirs_request as arl
from odradek.wire.messages import alter_user_scram_credentials_request as asc
from odradek.wire.messages import create_acls_request as cacl
from odradek.wire.messages import delete_acls_request as dacl
from odradek.wire.messages import describe_client_quotas_request as dcq
from odradek.wire.messages import describe_log_dirs_request as dld
from odradek.wire.messages import describe_producers_request as dpr
from odradek.wire.messages import describe_user_scram_credentials_request as dsc
from odradek.wire.messages import elect_leaders_request as el
from odradek.wire.messages.create_delegation_token_request import CreateDelegationTokenRequest
from odradek.wire.messages.describe_acls_request import DescribeAclsRequest
from odradek.wire.messages.describe_delegation_token_request import DescribeDelegationTokenRequest
from odradek.wire.messages.expire_delegation_token_request import ExpireDelegationTokenRequest
from odradek.wire.messages.list_partition_reassignments_request import ListPartitionReassignmentsRequest
from odradek.wire.messages.renew_delegation_token_request import RenewDelegationTokenRequest
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest


class FakeBroker:
    def __init__(self, controller, log_manager, replicas):
        self.controller = controller
        self.log_manager = log_manager
        self.replicas = replicas
        self.node_id = 1
        self.services = services(controller=controller, replicas=replicas, log_manager=log_manager)


@pytest.fixture
def broker(tmp_path):
    logs = str(tmp_path / "logs")
    c = Controller(str(tmp_path / "meta"), 1, {}, 0)
    lm = LogManager([logs])
    rm = ReplicaManager(lm, 1, lambda t: None, lambda key: 0, lambda: 0)
    c.add_listener(rm.on_metadata)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    rm.start(c.image)  # the metadata is local, so caught up (as Broker.start on a single node)
    c.create_topics([CreateTopicSpec("t", 2)], False, 0)
    yield FakeBroker(c, lm, rm)
    lm.close()
    c.close()


def call(mod, broker, request, version):
    req = type(request).decode(request.encode(version), version)
    ctx = RequestContext(api_key=mod.API_KEY, api_version=version, correlation_id=1, client_id="t", now_ms=5,
                         services=broker.services)
    resp = mod.handle(ctx, req)
    if resp is CLOSE_CONNECTION:
        return resp
    return type(resp).decode(resp.encode(version), version)


def versions(mod):
    return range(mod.MIN_VERSION, mod.MAX_VERSION + 1)


def test_registered_with_kafka_ranges():
    want = {17: (0, 1), 29: (1, 3), 30: (1, 3), 31: (1, 3), 34: (1, 2), 35: (1, 5), 36: (0, 2), 38: (1, 3),
            39: (1, 2), 40: (1, 2), 41: (1, 3), 43: (0, 2), 45: (0, 1), 46: (0, 0), 48: (0, 1), 49: (0, 1),
            50: (0, 0), 51: (0, 0), 61: (0, 0)}
    for key, (lo, hi) in want.items():
        assert (REGISTRY[key].MIN_VERSION, REGISTRY[key].MAX_VERSION) == (lo, hi), key


# ---------------------------------------------------------------- disabled security features

@pytest.mark.parametrize("v", versions(describe_acls))
def test_acls_security_disabled(broker, v):
    r = call(describe_acls, broker, DescribeAclsRequest(resource_type_filter=1, pattern_type_filter=1, operation=1,
                                                        permission_type=1, resource_name_filter=None,
                                                        principal_filter=None, host_filter=None), v)
    assert (r.error_code, r.error_message, r.resources) == (54, "No Authorizer is configured on the broker", [])
    r = call(create_acls, broker, cacl.CreateAclsRequest(creations=[cacl.AclCreation(
        resource_type=2, resource_name="t", resource_pattern_type=3, principal="User:a", host="*", operation=3,
        permission_type=3)] * 2), v)
    assert [(x.error_code, x.error_message) for x in r.results] == [(54, "No Authorizer is configured.")] * 2
    r = call(delete_acls, broker, dacl.DeleteAclsRequest(filters=[dacl.DeleteAclsFilter(
        resource_type_filter=1, pattern_type_filter=1, operation=1, permission_type=1)]), v)
    assert [(x.error_code, x.matching_acls) for x in r.filter_results] == [(54, [])]


def test_acls_unknown_elements_close_the_connection(broker):
    req = DescribeAclsRequest(resource_type_filter=0, pattern_type_filter=1, operation=1, permission_type=1)
    assert call(describe_acls, broker, req, 3) is CLOSE_CONNECTION
    req = dacl.DeleteAclsRequest(filters=[dacl.DeleteAclsFilter(resource_type_filter=1, pattern_type_filter=0,
                                                                operation=1, permission_type=1)])
    assert call(delete_acls, broker, req, 3) is CLOSE_CONNECTION


@pytest.mark.parametrize("mod,req", [
    (sasl_handshake, SaslHandshakeRequest(mechanism="PLAIN")),
    (sasl_authenticate, SaslAuthenticateRequest(auth_bytes=b"\0a\0b")),
])
def test_sasl_on_plaintext_is_illegal_state(broker, mod, req):
    for v in versions(mod):
        assert call(mod, broker, req, v).error_code == 34


@pytest.mark.parametrize("mod,req", [
    (create_delegation_token, CreateDelegationTokenRequest(renewers=[], max_lifetime_ms=-1)),
    (renew_delegation_token, RenewDelegationTokenRequest(hmac=b"x", renew_period_ms=1)),
    (expire_delegation_token, ExpireDelegationTokenRequest(hmac=b"x", expiry_time_period_ms=1)),
    (describe_delegation_token, DescribeDelegationTokenRequest(owners=None)),
])
def test_delegation_tokens_not_allowed_on_plaintext(broker, mod, req):
    for v in versions(mod):
        r = call(mod, broker, req, v)
        assert r.error_code == 64
        if mod is create_delegation_token:
            assert (r.principal_type, r.principal_name) == ("User", "ANONYMOUS")


# ---------------------------------------------------------------- log dirs, producers

def _produce(broker, partition, pid=-1, seq=-1):
    plog = broker.replicas.get("t", partition)
    batch = wrecords.build_batch([(b"k", b"v", (), 0)], producer_id=pid, producer_epoch=0 if pid >= 0 else -1,
                                 base_sequence=seq, base_timestamp=1000)
    broker.replicas.append("t", partition, batch, 1000, log=plog)


@pytest.mark.parametrize("v", versions(describe_log_dirs))
def test_describe_log_dirs(broker, v):
    _produce(broker, 0)
    r = call(describe_log_dirs, broker, dld.DescribeLogDirsRequest(topics=None), v)
    (res,) = r.results
    assert res.error_code == 0 and res.log_dir == os.path.abspath(broker.log_manager.log_dirs[0])
    sizes = {(t.name, p.partition_index): (p.partition_size, p.offset_lag, p.is_future_key)
             for t in res.topics for p in t.partitions}
    assert sizes[("t", 0)] == (broker.replicas.get("t", 0).size_in_bytes, 0, False)
    assert sizes[("t", 0)][0] > 0 and sizes[("t", 1)] == (0, 0, False)
    if v >= 4:
        assert res.total_bytes > 0 and 0 <= res.usable_bytes <= res.total_bytes
    else:
        assert res.total_bytes == -1
    r = call(describe_log_dirs, broker, dld.DescribeLogDirsRequest(topics=[
        dld.DescribableLogDirTopic(topic="t", partitions=[1, 7]), dld.DescribableLogDirTopic(topic="x", partitions=[0])]), v)
    assert [(t.name, [p.partition_index for p in t.partitions]) for t in r.results[0].topics] == [("t", [1])]


def test_describe_producers(broker):
    _produce(broker, 0, pid=42, seq=0)
    _produce(broker, 0, pid=42, seq=1)
    r = call(describe_producers, broker, dpr.DescribeProducersRequest(topics=[
        dpr.TopicRequest(name="t", partition_indexes=[0, 1, 9]), dpr.TopicRequest(name="nope", partition_indexes=[0]),
        dpr.TopicRequest(name="bad name", partition_indexes=[0])]), 0)
    t, nope, bad = r.topics
    p0, p1, p9 = t.partitions
    (ps,) = p0.active_producers
    plog_entry = broker.replicas.get("t", 0).producer_state.producers[42]
    assert (ps.producer_id, ps.producer_epoch, ps.last_sequence, ps.last_timestamp, ps.current_txn_start_offset) == \
        (42, 0, 1, plog_entry.last_timestamp, -1)
    assert p1.error_code == 0 and p1.active_producers == []
    assert (p9.error_code, p9.error_message) == (3, None)
    assert (nope.partitions[0].error_code, nope.partitions[0].error_message) == \
        (3, "This server does not host this topic-partition.")
    assert bad.partitions[0].error_code == 17


@pytest.mark.parametrize("v", versions(alter_replica_log_dirs))
def test_alter_replica_log_dirs(broker, v):
    d = os.path.abspath(broker.log_manager.log_dirs[0])
    r = call(alter_replica_log_dirs, broker, arl.AlterReplicaLogDirsRequest(dirs=[
        arl.AlterReplicaLogDir(path=d, topics=[arl.AlterReplicaLogDirTopic(name="t", partitions=[0, 9]),
                                               arl.AlterReplicaLogDirTopic(name="x", partitions=[0])]),
        arl.AlterReplicaLogDir(path="/bogus", topics=[arl.AlterReplicaLogDirTopic(name="t", partitions=[1])])]), v)
    got = {(t.topic_name, p.partition_index): p.error_code for t in r.results for p in t.partitions}
    assert got == {("t", 0): 0, ("t", 9): 3, ("x", 0): 3, ("t", 1): 57}


# ---------------------------------------------------------------- elections, reassignments

@pytest.mark.parametrize("v", versions(elect_leaders))
def test_elect_leaders(broker, v):
    r = call(elect_leaders, broker, el.ElectLeadersRequest(election_type=0, topic_partitions=[
        el.TopicPartitions(topic="t", partitions=[0, 5]), el.TopicPartitions(topic="x", partitions=[0])]), v)
    got = [(t.topic, p.partition_id, p.error_code, p.error_message) for t in r.replica_election_results
           for p in t.partition_result]
    assert got == [("t", 0, 84, "Leader election not needed for topic partition."),
                   ("t", 5, 3, "No such partition as t-5"), ("x", 0, 3, "No such topic as x")]
    r = call(elect_leaders, broker, el.ElectLeadersRequest(election_type=1, topic_partitions=None), v)
    assert [(t.topic, t.partition_result) for t in r.replica_election_results] == [("t", [])]
    if v >= 1:
        r = call(elect_leaders, broker, el.ElectLeadersRequest(
            election_type=5, topic_partitions=[el.TopicPartitions(topic="t", partitions=[0])]), v)
        assert r.error_code == 42
        assert r.replica_election_results[0].partition_result[0].error_message == "Unknown election type 5"


@pytest.mark.parametrize("v", versions(elect_leaders))
def test_elect_leaders_with_no_time_left_times_out(broker, v):
    # Kafka 4.3 (a real node, timeout_ms 0 and -5): REQUEST_TIMED_OUT for the request and each partition,
    # no message; segmentio/kafka-go's TestClientElectLeaders sends 0 and fails there on that
    for timeout_ms in (0, -5):
        r = call(elect_leaders, broker, el.ElectLeadersRequest(election_type=0, timeout_ms=timeout_ms, topic_partitions=[
            el.TopicPartitions(topic="t", partitions=[0, 5])]), v)
        assert r.error_code == (7 if v >= 1 else 0)
        assert [(t.topic, p.partition_id, p.error_code, p.error_message) for t in r.replica_election_results
                for p in t.partition_result] == [("t", 0, 7, None), ("t", 5, 7, None)]


@pytest.mark.parametrize("v", versions(alter_partition_reassignments))
def test_partition_reassignments(broker, v):
    P = apr.ReassignablePartition
    r = call(alter_partition_reassignments, broker, apr.AlterPartitionReassignmentsRequest(topics=[
        apr.ReassignableTopic(name="t", partitions=[P(partition_index=0, replicas=[1]), P(partition_index=1, replicas=None),
                                                    P(partition_index=0, replicas=[2, 1]),
                                                    P(partition_index=0, replicas=[1, 1]),
                                                    P(partition_index=0, replicas=[]), P(partition_index=7, replicas=[1])]),
        apr.ReassignableTopic(name="x", partitions=[P(partition_index=0, replicas=[1])])]), v)
    got = [(p.error_code, p.error_message) for t in r.responses for p in t.partitions]
    assert got == [
        (0, None), (85, None),
        (39, "The manual partition assignment includes broker 2, but no such broker is registered."),
        (39, "The manual partition assignment includes the broker 1 more than once."),
        (39, "The manual partition assignment includes an empty replica list."),
        (3, "Unable to find partition t:7."), (3, "Unable to find a topic named x.")]
    r = call(list_partition_reassignments, broker, ListPartitionReassignmentsRequest(topics=None), 0)
    assert (r.error_code, r.topics) == (0, [])


# ---------------------------------------------------------------- client quotas

def _entry(pairs, ops):
    return acq.EntryData(entity=[acq.EntityData(entity_type=t, entity_name=n) for t, n in pairs],
                         ops=[acq.OpData(key=k, value=0.0 if v is None else v, remove=v is None) for k, v in ops])


@pytest.mark.parametrize("v", versions(alter_client_quotas))
def test_client_quotas_round_trip(broker, v):
    r = call(alter_client_quotas, broker, acq.AlterClientQuotasRequest(entries=[
        _entry([("user", "alice")], [("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0)]),
        _entry([("user", "alice"), ("client-id", "c1")], [("producer_byte_rate", 10.0)]),
        _entry([("client-id", None)], [("request_percentage", 50.0)]),
        _entry([("ip", "1.2.3.4")], [("connection_creation_rate", 10.0)]),
        _entry([("user", "bob")], [("bogus_key", 1.0)]),
        _entry([("user", "carol")], [("producer_byte_rate", 1.5)]),
        _entry([("user", "eve"), ("ip", "1.2.3.4")], [("producer_byte_rate", 1.0)]),
        _entry([("user", "gil")], [("producer_byte_rate", 1.0), ("producer_byte_rate", 2.0)]),
        _entry([], [("producer_byte_rate", 1.0)]),
    ]), v)
    res = {tuple((e.entity_type, e.entity_name) for e in x.entity): (x.error_code, x.error_message) for x in r.entries}
    assert res[(("user", "alice"),)] == (0, None)
    assert res[(("client-id", "c1"), ("user", "alice"))] == (0, None)  # Kafka's order of entity parts
    assert res[(("user", "bob"),)] == (42, "Invalid configuration key bogus_key")
    assert res[(("user", "carol"),)] == (42, "producer_byte_rate cannot be a fractional value.")
    assert res[(("user", "eve"), ("ip", "1.2.3.4"))][0] == 42
    assert res[(("user", "gil"),)] == (42, "Ignoring duplicate entity ClientQuotaEntity(entries={user=gil})")
    assert res[()] == (42, "Invalid empty client quota entity")

    def describe(components, strict=False):
        d = call(describe_client_quotas, broker, dcq.DescribeClientQuotasRequest(components=[
            dcq.ComponentData(entity_type=t, match_type=m, match=s) for t, m, s in components], strict=strict), v)
        if d.error_code:
            return d.error_code, d.error_message
        return {tuple((e.entity_type, e.entity_name) for e in x.entity): {y.key: y.value for y in x.values}
                for x in d.entries}

    assert describe([("user", 0, "alice")]) == {
        (("user", "alice"),): {"consumer_byte_rate": 2048.0, "producer_byte_rate": 1024.0},
        (("client-id", "c1"), ("user", "alice")): {"producer_byte_rate": 10.0}}
    assert list(describe([("user", 0, "alice")], strict=True)) == [(("user", "alice"),)]
    assert describe([("client-id", 1, None)]) == {(("client-id", None),): {"request_percentage": 50.0}}
    assert describe([("ip", 2, None)]) == {(("ip", "1.2.3.4"),): {"connection_creation_rate": 10.0}}
    assert describe([("ip", 2, None), ("user", 2, None)])[0] == 42
    assert describe([("bogus", 2, None)]) == (35, "Unsupported entity type bogus")
    # remove a key; validate_only changes nothing
    call(alter_client_quotas, broker, acq.AlterClientQuotasRequest(entries=[
        _entry([("user", "alice")], [("consumer_byte_rate", None)])]), v)
    call(alter_client_quotas, broker, acq.AlterClientQuotasRequest(validate_only=True, entries=[
        _entry([("user", "alice")], [("producer_byte_rate", 1.0)])]), v)
    assert describe([("user", 0, "alice")], strict=True) == {(("user", "alice"),): {"producer_byte_rate": 1024.0}}


def test_client_quotas_and_scram_survive_restart(tmp_path):
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    b = FakeBroker(c, None, None)
    call(alter_client_quotas, b, acq.AlterClientQuotasRequest(entries=[
        _entry([("user", "alice")], [("producer_byte_rate", 1024.0)])]), 1)
    call(alter_user_scram_credentials, b, asc.AlterUserScramCredentialsRequest(upsertions=[
        asc.ScramCredentialUpsertion(name="alice", mechanism=2, iterations=8192, salt=b"s", salted_password=b"p" * 64)]), 0)
    c.close()
    c2 = Controller(str(tmp_path), 1, {}, 0)
    c2.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    assert dict(c2.image.client_quotas) == {(("user", "alice"),): {"producer_byte_rate": 1024.0}}
    cred = c2.image.scram_credentials[("alice", 2)]
    assert (cred.salt, cred.iterations) == (b"s", 8192)
    assert (cred.stored_key, cred.server_key) == derive_keys(2, b"p" * 64)
    c2.close()


# ---------------------------------------------------------------- SCRAM

def test_scram_credentials(broker):
    U = asc.ScramCredentialUpsertion
    r = call(alter_user_scram_credentials, broker, asc.AlterUserScramCredentialsRequest(upsertions=[
        U(name="alice", mechanism=1, iterations=4096, salt=b"salt", salted_password=b"x" * 32),
        U(name="alice", mechanism=2, iterations=8192, salt=b"salt", salted_password=b"x" * 64),
        U(name="bob", mechanism=1, iterations=10, salt=b"salt", salted_password=b"x" * 32),
        U(name="carol", mechanism=0, iterations=4096, salt=b"salt", salted_password=b"x" * 32),
        U(name="", mechanism=1, iterations=4096, salt=b"salt", salted_password=b"x" * 32),
        U(name="dan", mechanism=1, iterations=4096, salt=b"", salted_password=b"x" * 32),
        U(name="eve", mechanism=1, iterations=20000, salt=b"s", salted_password=b"x" * 32),
    ], deletions=[asc.ScramCredentialDeletion(name="zed", mechanism=1)]), 0)
    got = {x.user: (x.error_code, x.error_message) for x in r.results}
    assert got == {
        "dan": (0, None), "": (93, "Username must not be empty"), "carol": (33, "Unknown SCRAM mechanism"),
        "bob": (93, "Too few iterations"), "eve": (93, "Too many iterations"),
        "zed": (91, "Attempt to delete a user credential that does not exist"),
        "alice": (92, "A user credential cannot be altered twice in the same request")}
    d = call(describe_user_scram_credentials, broker, dsc.DescribeUserScramCredentialsRequest(users=None), 0)
    assert [(x.user, x.error_code, [(c.mechanism, c.iterations) for c in x.credential_infos]) for x in d.results] == \
        [("dan", 0, [(1, 4096)])]
    d = call(describe_user_scram_credentials, broker, dsc.DescribeUserScramCredentialsRequest(users=[
        dsc.UserName(name="dan"), dsc.UserName(name="nobody"), dsc.UserName(name="dan")]), 0)
    assert [(x.user, x.error_code) for x in d.results] == [("dan", 92), ("nobody", 91)]
    r = call(alter_user_scram_credentials, broker, asc.AlterUserScramCredentialsRequest(
        deletions=[asc.ScramCredentialDeletion(name="dan", mechanism=1)]), 0)
    assert [(x.user, x.error_code) for x in r.results] == [("dan", 0)]
    assert dict(broker.controller.image.scram_credentials) == {}
