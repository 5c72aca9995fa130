"""A large request of the per-partition APIs is answered in steps (issue 27 fairness:
context.in_steps, STEP_ENTRIES partitions or ids a step, the broker serving other clients between
them; ElectLeaders and AlterPartitionReassignments: the controller's decision too, DECISION_STEP
partitions a part, then its answer); the answer is the one the same partitions get asked a few at a
time, and a small request is answered at once."""
from inproc_broker import call, start_broker
from inproc_broker import drive as _drive

from odradek.api_handlers.context import STEP_ENTRIES, Stepped
from odradek.controller.steps import CONFIG_CHECK_UNITS, DECISION_STEP, StepBudget
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_configs_request import AlterConfigsRequest, AlterConfigsResource, AlterableConfig
from odradek.wire.messages.alter_partition_reassignments_request import (AlterPartitionReassignmentsRequest,
                                                                         ReassignablePartition, ReassignableTopic)
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.describe_producers_request import DescribeProducersRequest
from odradek.wire.messages.describe_producers_request import TopicRequest as ProducersTopic
from odradek.wire.messages.describe_transactions_request import DescribeTransactionsRequest
from odradek.wire.messages.elect_leaders_request import ElectLeadersRequest
from odradek.wire.messages.elect_leaders_request import TopicPartitions as ElectTopic
from odradek.wire.messages.incremental_alter_configs_request import AlterableConfig as IncrementalConfig
from odradek.wire.messages.incremental_alter_configs_request import AlterConfigsResource as IncrementalResource
from odradek.wire.messages.incremental_alter_configs_request import IncrementalAlterConfigsRequest
from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from odradek.wire.messages.offset_for_leader_epoch_request import (OffsetForLeaderEpochRequest,
                                                                   OffsetForLeaderPartition, OffsetForLeaderTopic)

TOPICS = [f"t{i}" for i in range(10)]
PER_TOPIC = 400  # partitions asked of each topic (under STEP_ENTRIES): 3 exist, the rest do not


def _requests(topics):
    return {
        "list_offsets": (ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(name=t, partitions=[
            ListOffsetsPartition(partition_index=p, current_leader_epoch=-1, timestamp=-1) for p in range(PER_TOPIC)])
            for t in topics]), 7, "topics"),
        "offset_for_leader_epoch": (OffsetForLeaderEpochRequest(replica_id=-1, topics=[OffsetForLeaderTopic(
            topic=t, partitions=[OffsetForLeaderPartition(partition=p, current_leader_epoch=-1, leader_epoch=0)
                                 for p in range(PER_TOPIC)]) for t in topics]), 4, "topics"),
        "describe_producers": (DescribeProducersRequest(topics=[ProducersTopic(
            name=t, partition_indexes=list(range(PER_TOPIC))) for t in topics]), 0, "topics"),
        "elect_leaders": (ElectLeadersRequest(election_type=0, timeout_ms=1000, topic_partitions=[
            ElectTopic(topic=t, partitions=list(range(PER_TOPIC))) for t in topics]), 2, "replica_election_results"),
        "alter_partition_reassignments": (AlterPartitionReassignmentsRequest(timeout_ms=1000, topics=[
            ReassignableTopic(name=t, partitions=[ReassignablePartition(partition_index=p, replicas=None)
                                                  for p in range(PER_TOPIC)]) for t in topics]), 0, "responses"),
        "describe_transactions": (DescribeTransactionsRequest(
            transactional_ids=[f"{t}-txn-{i}" for t in topics for i in range(PER_TOPIC)]), 0, "transaction_states"),
    }


def test_large_read_requests_are_answered_in_steps_as_small_ones_are(tmp_path):
    b = start_broker(tmp_path)
    try:
        created, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
            CreatableTopic(name=t, num_partitions=3, replication_factor=1) for t in TOPICS], timeout_ms=1000), 7))
        assert [t.error_code for t in created.plain(7).topics] == [0] * len(TOPICS)
        entries = len(TOPICS) * PER_TOPIC
        for module, (req, version, field) in _requests(TOPICS).items():
            resp = call(b, module, req, version)
            assert isinstance(resp, Stepped), module
            resp, steps = _drive(b, resp)
            # (the first part came with the call; none of these partitions needs a change built)
            decided = entries // DECISION_STEP if module in ("elect_leaders", "alter_partition_reassignments") else 0
            assert steps == decided + entries // STEP_ENTRIES, module
            # the same partitions (ids) asked a topic at a time, each small enough for one piece
            alone = []
            for t in TOPICS:
                small, small_version, _ = _requests([t])[module]
                got = call(b, module, small, small_version)
                assert not isinstance(got, Stepped), module
                alone += getattr(got, field)
            assert getattr(resp, field) == alone, module
            assert len(alone) == (entries if module == "describe_transactions" else len(TOPICS))
    finally:
        b.close()


def test_large_config_changes_are_decided_in_steps_and_written_as_one_batch(tmp_path):
    """AlterConfigs and IncrementalAlterConfigs of many topics: the controller's decision a part at
    a time (a part every DECISION_STEP units: a resource 1, its topic's effective config checked
    CONFIG_CHECK_UNITS), the changes written as one batch (Kafka's atomic config changes); the
    answer is the one each topic gets alone (validate_only: the same, nothing written)."""
    b = start_broker(tmp_path)
    try:
        names = [f"c{i}" for i in range(25)] + ["nope"]
        created, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=[
            CreatableTopic(name=t, num_partitions=1, replication_factor=1) for t in names[:-1]], timeout_ms=1000), 7))
        assert [t.error_code for t in created.plain(7).topics] == [0] * 25
        told = []
        b.controller.add_listener(lambda old, new: told.append(new))
        budget, parts = StepBudget(), 0
        for _ in names[:-1]:
            parts += budget.spend(CONFIG_CHECK_UNITS) + budget.spend(1)
        parts += budget.spend(1)  # (the unknown topic: its resource alone)
        assert parts == 2
        for module, version, value, validate_only in (("alter_configs", 2, "1000", True),
                                                      ("alter_configs", 2, "1000", False),
                                                      ("incremental_alter_configs", 1, "2000", False)):
            told.clear()
            resp = call(b, module, _config_request(module, names, value, validate_only), version)
            assert isinstance(resp, Stepped), module
            resp, steps = _drive(b, resp)
            assert steps == parts, module
            assert len(told) == (0 if validate_only else 1), module  # one batch, one image
            assert [dict(b.controller.image.topics[t].configs) for t in names[:-1]] == \
                [{} if validate_only and module == "alter_configs" else {"retention.ms": value}] * 25, module
            told.clear()
            alone = []
            for t in names:
                got = call(b, module, _config_request(module, [t], value, True), version)
                assert not isinstance(got, Stepped), module
                alone += got.responses
            assert resp.responses == alone and len(alone) == 26, module
            assert alone[-1].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION and told == [], module
    finally:
        b.close()


def _config_request(module: str, names: list, value: str, validate_only: bool):
    if module == "alter_configs":
        return AlterConfigsRequest(validate_only=validate_only, resources=[AlterConfigsResource(
            resource_type=2, resource_name=t, configs=[AlterableConfig(name="retention.ms", value=value)])
            for t in names])
    return IncrementalAlterConfigsRequest(validate_only=validate_only, resources=[IncrementalResource(
        resource_type=2, resource_name=t, configs=[IncrementalConfig(name="retention.ms", config_operation=0,
                                                                     value=value)]) for t in names])
