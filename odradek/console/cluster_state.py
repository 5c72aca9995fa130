"""What the console reads besides topics and consumer groups, over the Kafka protocol from any
broker: the metadata quorum (DescribeQuorum) and finalized feature levels (ApiVersions), the
transactions (ListTransactions on every broker, DescribeTransactions at each one's coordinator)
and a partition's active producers (DescribeProducers at its leader), ACLs (DescribeAcls),
client quotas (DescribeClientQuotas), and topic changes (CreatePartitions, IncrementalAlterConfigs,
DeleteTopics). Plain dataclasses out; pages.py renders them."""

from __future__ import annotations

from dataclasses import dataclass, field

from odradek.cli_groups import GroupAdmin
from odradek.console.source import ConsoleError, _error_name

METADATA_TOPIC = "__cluster_metadata"
TXN_COORDINATOR = 1  # FindCoordinator key type of a transactional id


@dataclass
class QuorumMember:
    node_id: int
    log_end_offset: int
    lag: int  # behind the leader's high watermark
    last_fetch_ms: int
    last_caught_up_ms: int
    voter: bool


@dataclass
class Quorum:
    leader_id: int
    epoch: int
    high_watermark: int
    members: list[QuorumMember]


@dataclass
class Transaction:
    transactional_id: str
    producer_id: int
    state: str
    producer_epoch: int = -1
    timeout_ms: int = -1
    start_ms: int = -1
    partitions: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class Producer:
    partition: int
    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    txn_start_offset: int  # -1: not in a transaction


@dataclass
class Acl:
    resource_type: str
    resource_name: str
    pattern_type: str
    principal: str
    host: str
    operation: str
    permission: str


@dataclass
class QuotaEntry:
    entity: str  # "user=alice, client-id=c1" ("<default>" for a default entity)
    values: dict[str, float]


# Kafka's AclResourceType / PatternType / AclOperation / AclPermissionType codes
RESOURCE_TYPES = {2: "TOPIC", 3: "GROUP", 4: "CLUSTER", 5: "TRANSACTIONAL_ID", 6: "DELEGATION_TOKEN", 7: "USER"}
PATTERN_TYPES = {3: "LITERAL", 4: "PREFIXED"}
OPERATIONS = {2: "ALL", 3: "READ", 4: "WRITE", 5: "CREATE", 6: "DELETE", 7: "ALTER", 8: "DESCRIBE",
              9: "CLUSTER_ACTION", 10: "DESCRIBE_CONFIGS", 11: "ALTER_CONFIGS", 12: "IDEMPOTENT_WRITE",
              13: "CREATE_TOKENS", 14: "DESCRIBE_TOKENS", 15: "TWO_PHASE_COMMIT"}
PERMISSIONS = {2: "DENY", 3: "ALLOW"}


class ClusterState:
    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap

    def _admin(self) -> GroupAdmin:
        return GroupAdmin(self.bootstrap)

    def quorum(self) -> Quorum | None:
        """The metadata quorum as DescribeQuorum answers it (a broker forwards it to the controller);
        None where the broker does not answer it."""
        from odradek.wire.messages.describe_quorum_request import DescribeQuorumRequest, PartitionData, TopicData

        with self._admin() as a:
            try:
                r = a.boot.send(DescribeQuorumRequest(topics=[TopicData(
                    topic_name=METADATA_TOPIC, partitions=[PartitionData(partition_index=0)])]))
            except Exception:  # noqa: BLE001 - an old broker without the API: the page says so
                return None
        if r.error_code or not r.topics or not r.topics[0].partitions:
            return None
        p = r.topics[0].partitions[0]
        if p.error_code:
            return None

        def member(s, voter: bool) -> QuorumMember:
            return QuorumMember(s.replica_id, s.log_end_offset, max(p.high_watermark - s.log_end_offset, 0),
                                s.last_fetch_timestamp, s.last_caught_up_timestamp, voter)

        members = [member(s, True) for s in p.current_voters] + [member(s, False) for s in p.observers]
        return Quorum(p.leader_id, p.leader_epoch, p.high_watermark, members)

    def features(self) -> dict[str, int]:
        """Finalized feature levels (ApiVersions v3+), e.g. metadata.version, transaction.version."""
        from odradek.wire.messages.api_versions_request import ApiVersionsRequest

        with self._admin() as a:
            r = a.boot.send(ApiVersionsRequest(client_software_name="odradek-console",
                                               client_software_version="1"), max_version=4)
        return {f.name: f.max_version_level for f in r.finalized_features}

    # -- transactions and producers

    def transactions(self) -> list[Transaction]:
        """Every transactional id any broker coordinates (ListTransactions on each, as Kafka's
        Admin.listTransactions), described by its coordinator."""
        from odradek.wire.messages.describe_transactions_request import DescribeTransactionsRequest
        from odradek.wire.messages.list_transactions_request import ListTransactionsRequest

        with self._admin() as a:
            listed: dict[str, Transaction] = {}
            for node_id, (host, port) in sorted(a.brokers().items()):
                r = a.broker(node_id).send(ListTransactionsRequest(
                    state_filters=[], producer_id_filters=[], duration_filter=-1, transactional_id_pattern=None))
                if r.error_code:
                    raise ConsoleError(f"ListTransactions at {host}:{port}: {_error_name(r.error_code)}")
                for t in r.transaction_states:
                    listed[t.transactional_id] = Transaction(t.transactional_id, t.producer_id, t.transaction_state)
            for tid, t in sorted(listed.items()):
                err, _, host, port, _ = a.boot.find_coordinator(tid, TXN_COORDINATOR)
                if err:
                    t.error = _error_name(err)
                    continue
                d = a.client_at(host, port).send(DescribeTransactionsRequest(transactional_ids=[tid]))
                s = d.transaction_states[0]
                if s.error_code:
                    t.error = _error_name(s.error_code)
                    continue
                t.state, t.producer_epoch = s.transaction_state, s.producer_epoch
                t.timeout_ms, t.start_ms = s.transaction_timeout_ms, s.transaction_start_time_ms
                t.partitions = sorted(f"{x.topic}-{p}" for x in s.topics for p in x.partitions)
        return [listed[k] for k in sorted(listed)]

    def producers(self, topic: str) -> list[Producer]:
        """The active producers of each partition of ``topic`` (DescribeProducers at its leader)."""
        from odradek.wire.messages.describe_producers_request import DescribeProducersRequest, TopicRequest

        out: list[Producer] = []
        with self._admin() as a:
            parts = a.partitions_of(topic)
            if parts is None:
                raise ConsoleError(f"topic {topic} does not exist")
            by_leader: dict[int, list[int]] = {}
            for p in parts:
                by_leader.setdefault(a.leader_of(topic, p), []).append(p)
            known = a.brokers()
            for leader, ps in by_leader.items():
                if leader not in known:
                    continue
                r = a.broker(leader).send(DescribeProducersRequest(topics=[TopicRequest(
                    name=topic, partition_indexes=ps)]))
                for tr in r.topics:
                    for pr in tr.partitions:
                        out += [Producer(pr.partition_index, s.producer_id, s.producer_epoch, s.last_sequence,
                                         s.last_timestamp, s.current_txn_start_offset)
                                for s in pr.active_producers]
        return sorted(out, key=lambda p: (p.partition, p.producer_id))

    # -- ACLs and quotas

    def acls(self) -> list[Acl]:
        """Every ACL (DescribeAcls matching any); ConsoleError with Kafka's error where the broker
        has no authorizer (SECURITY_DISABLED)."""
        from odradek.wire.messages.describe_acls_request import DescribeAclsRequest

        with self._admin() as a:
            r = a.boot.send(DescribeAclsRequest(resource_type_filter=1, resource_name_filter=None,
                                                pattern_type_filter=1, principal_filter=None, host_filter=None,
                                                operation=1, permission_type=1))
        if r.error_code:
            raise ConsoleError(f"{_error_name(r.error_code)}{': ' + r.error_message if r.error_message else ''}")
        out = [Acl(RESOURCE_TYPES.get(res.resource_type, str(res.resource_type)), res.resource_name,
                   PATTERN_TYPES.get(res.pattern_type, str(res.pattern_type)), acl.principal, acl.host,
                   OPERATIONS.get(acl.operation, str(acl.operation)),
                   PERMISSIONS.get(acl.permission_type, str(acl.permission_type)))
               for res in r.resources for acl in res.acls]
        return sorted(out, key=lambda x: (x.resource_type, x.resource_name, x.principal, x.operation))

    def quotas(self) -> list[QuotaEntry]:
        """Every client quota entry (DescribeClientQuotas, no filter)."""
        from odradek.wire.messages.describe_client_quotas_request import DescribeClientQuotasRequest

        with self._admin() as a:
            r = a.boot.send(DescribeClientQuotasRequest(components=[], strict=False))
        if r.error_code:
            raise ConsoleError(f"{_error_name(r.error_code)}{': ' + r.error_message if r.error_message else ''}")
        out = [QuotaEntry(", ".join(f"{e.entity_type}={e.entity_name if e.entity_name is not None else '<default>'}"
                                    for e in entry.entity), {v.key: v.value for v in entry.values})
               for entry in r.entries]
        return sorted(out, key=lambda q: q.entity)

    # -- changing a topic

    def add_partitions(self, topic: str, count: int) -> None:
        from odradek.wire.messages.create_partitions_request import CreatePartitionsRequest, CreatePartitionsTopic

        with self._admin() as a:
            r = a.boot.send(CreatePartitionsRequest(topics=[CreatePartitionsTopic(
                name=topic, count=count, assignments=None)], timeout_ms=30000, validate_only=False))
        _check(r.results[0].error_code, r.results[0].error_message)

    def alter_config(self, topic: str, key: str, value: str | None) -> None:
        """Set ``key`` (or delete its override when ``value`` is None), as kafka-configs --alter."""
        from odradek.wire.messages import incremental_alter_configs_request as iac

        op = iac.AlterableConfig(name=key, config_operation=0 if value is not None else 1, value=value)
        with self._admin() as a:
            r = a.boot.send(iac.IncrementalAlterConfigsRequest(resources=[iac.AlterConfigsResource(
                resource_type=2, resource_name=topic, configs=[op])], validate_only=False))
        _check(r.responses[0].error_code, r.responses[0].error_message)

    def delete_topic(self, topic: str) -> None:
        from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest

        with self._admin() as a:
            r = a.boot.send(DeleteTopicsRequest(topic_names=[topic], timeout_ms=30000), max_version=5)
        _check(r.responses[0].error_code, r.responses[0].error_message)


def _check(code: int, message: str | None) -> None:
    if code:
        raise ConsoleError(f"{_error_name(code)}{': ' + message if message else ''}")
