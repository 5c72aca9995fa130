"""Kafka 4.3's bound on the records of one controller operation (QuorumController.MAX_RECORDS_PER_USER_OP,
10,000, the BoundedList each manager builds its records in), where each request meets it: ElectLeaders and
(Incremental)AlterConfigs fail whole (POLICY_VIOLATION 'Unable to perform excessively large batch
operation.', nothing written), AlterPartitionReassignments fails the partitions past the bound alone
(UNKNOWN_SERVER_ERROR, no message) and writes the rest. Each answer was checked against Apache Kafka 4.3
(compat_tests/test_cluster_controller_batch_bounds.py runs the same requests against either)."""
import random

import pytest

from odradek.controller.configs import BROKER, TOPIC
from odradek.controller.controller import Controller, CreateTopicSpec, OP_SET
from odradek.controller.decisions import Decisions, Env
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.controller.result import MAX_RECORDS_PER_USER_OP as BOUND, TOO_LARGE
from odradek.wire.errors import ErrorCode as E

TID = b"\x01" * 16
MESSAGE = "Unable to perform excessively large batch operation."


def _decisions(parts: dict[int, PartitionImage]) -> Decisions:
    t = TopicImage("t", TID, parts)
    img = MetadataImage(topics={"t": t}, topics_by_id={TID: t}, cluster_id="c",
                        brokers={b: BrokerImage(b, "h", 9000 + b, None, False, bytes([b]) * 16, 10 + b)
                                 for b in (1, 2, 3)})
    return Decisions(Env(1, {}, lambda: b"\x09" * 16, random.Random(1)), img)


def _not_preferred(n: int, led_by_preferred: frozenset = frozenset()) -> dict[int, PartitionImage]:
    """n partitions of replicas (1, 2, 3) led by 2 (a preferred election each), but those named."""
    return {i: PartitionImage(i, 1 if i in led_by_preferred else 2, 3, 4, (1, 2, 3), (1, 2, 3)) for i in range(n)}


def test_the_message_is_kafkas():
    assert (TOO_LARGE.error_code, TOO_LARGE.message) == (E.POLICY_VIOLATION, MESSAGE) and BOUND == 10000


def test_more_preferred_elections_than_the_bound_refuse_the_request_whole():
    d = _decisions(_not_preferred(BOUND + 1))
    for asked in ([("t", list(range(BOUND + 1)))], None):
        got = d.elect_leaders(0, asked)
        assert (got.records, got.response) == ([], TOO_LARGE)
    # the bound itself is elected
    got = d.elect_leaders(0, [("t", list(range(BOUND)))])
    assert len(got.records) == BOUND and got.response[0].partitions[-1] == (BOUND - 1, 0, None)


def test_partitions_needing_no_election_do_not_count():
    d = _decisions(_not_preferred(BOUND + 2, frozenset({0, 7})))
    got = d.elect_leaders(0, [("t", list(range(BOUND + 2))), ("nope", [0])])
    assert len(got.records) == BOUND
    assert got.response[0].partitions[7][:2] == (7, E.ELECTION_NOT_NEEDED)
    assert got.response[1].partitions == [(0, E.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as nope")]


def test_reassignments_past_the_bound_fail_alone_and_the_rest_are_written():
    n = BOUND + 2
    parts = {i: PartitionImage(i, 1, 3, 4, (1, 2, 3), (1, 2), adding_replicas=(3,)) for i in range(n)}
    parts[n] = PartitionImage(n, 1, 3, 4, (1, 2), (1, 2))  # nothing to cancel
    d = _decisions(parts)
    got = d.alter_partition_reassignments([("t", [(i, None) for i in range(n + 1)]), ("nope", [(0, None)])])
    assert len(got.records) == BOUND and [r.partition_id for r in got.records] == list(range(BOUND))
    (t, answers), (nope, missing) = got.response
    assert answers[:BOUND] == [(i, 0, None) for i in range(BOUND)]
    assert answers[BOUND:] == [(BOUND, E.UNKNOWN_SERVER_ERROR, None), (BOUND + 1, E.UNKNOWN_SERVER_ERROR, None),
                               (n, E.NO_REASSIGNMENT_IN_PROGRESS, None)]  # its own error: it builds no record
    assert missing == [(0, E.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find a topic named nope.")]


# 20 topic configs set to a value that is not their default: 20 ConfigRecords per topic
NUMERIC = ("delete.retention.ms", "file.delete.delay.ms", "flush.messages", "flush.ms", "index.interval.bytes",
           "max.compaction.lag.ms", "max.message.bytes", "message.timestamp.after.max.ms",
           "message.timestamp.before.max.ms", "min.compaction.lag.ms", "retention.bytes", "retention.ms",
           "segment.bytes", "segment.index.bytes", "segment.jitter.ms", "segment.ms")
CONFIGS = {**dict.fromkeys(NUMERIC, "12345678"), "compression.type": "gzip", "preallocate": "true",
           "unclean.leader.election.enable": "true", "min.cleanable.dirty.ratio": "0.51"}
TOPICS = BOUND // len(CONFIGS)


@pytest.fixture(scope="module")
def ctl(tmp_path_factory):
    c = Controller(str(tmp_path_factory.mktemp("bounds")), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    assert all(r.error_code == 0 for r in c.create_topics([CreateTopicSpec(f"c{i}", 1, 1) for i in range(TOPICS)],
                                                           False, 0))
    yield c
    c.close()


def _answers(results) -> list[tuple]:
    return [(r.resource_type, r.resource_name, r.error_code, r.error_message) for r in results]


def test_config_changes_past_the_bound_refuse_every_resource_the_broker_forwards(ctl):
    every = [(TOPIC, f"c{i}", [(k, OP_SET, v) for k, v in CONFIGS.items()]) for i in range(TOPICS)]
    over = every[:-1] + [(TOPIC, every[-1][1], every[-1][2] + [("compression.gzip.level", OP_SET, "5")])]
    # the broker answers these itself (ConfigAdminManager.preprocess): they keep their errors; the
    # controller refuses an unknown topic, but the batch's failure answers for it
    dup = (TOPIC, "dup-keys", [("retention.ms", OP_SET, "1"), ("retention.ms", OP_SET, "2")])
    other_broker = (BROKER, "7", [("log.cleaner.threads", OP_SET, "2")])
    unknown = (TOPIC, "nope", [("retention.ms", OP_SET, "1")])
    twice = (TOPIC, "twice", [("retention.ms", OP_SET, "1")])
    for validate_only in (True, False):
        got = ctl.incremental_alter_configs(over + [dup, twice, other_broker, twice, unknown], validate_only, 1)
        assert _answers(got[:TOPICS]) == [(TOPIC, f"c{i}", E.POLICY_VIOLATION, MESSAGE) for i in range(TOPICS)]
        assert _answers(got[TOPICS:]) == [
            (TOPIC, "dup-keys", E.INVALID_REQUEST, "Error due to duplicate config keys"),
            (TOPIC, "twice", E.INVALID_REQUEST, "Each resource must appear at most once."),
            (BROKER, "7", E.INVALID_REQUEST, "Unexpected broker id, expected 1, but received 7"),
            (TOPIC, "twice", E.INVALID_REQUEST, "Each resource must appear at most once."),
            (TOPIC, "nope", E.POLICY_VIOLATION, MESSAGE)]
    assert all(not ctl.image.topics[f"c{i}"].configs for i in range(TOPICS))
    # the legacy AlterConfigs alike
    legacy = [(rtype, name, [(k, v) for k, _, v in ops]) for rtype, name, ops in over]
    assert _answers(ctl.alter_configs(legacy, False, 1)) == [(TOPIC, f"c{i}", E.POLICY_VIOLATION, MESSAGE)
                                                             for i in range(TOPICS)]
    assert all(not ctl.image.topics[f"c{i}"].configs for i in range(TOPICS))
    # the bound itself is written
    assert _answers(ctl.incremental_alter_configs(every, False, 1)) == [(TOPIC, f"c{i}", 0, None)
                                                                        for i in range(TOPICS)]
    assert all(dict(ctl.image.topics[f"c{i}"].configs) == CONFIGS for i in range(TOPICS))
    # values already set write no record, so do not count
    again = every[:-1] + [(TOPIC, every[-1][1], every[-1][2] + [("compression.gzip.level", OP_SET, "5")])]
    assert [r.error_code for r in ctl.incremental_alter_configs(again, False, 1)] == [0] * TOPICS


def test_new_partitions_past_the_bound_fail_their_topic_but_those_that_fit_are_written(tmp_path):
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    try:
        c.create_topics([CreateTopicSpec(n, 1, 1) for n in ("a", "b", "x", "y")], False, 0)
        items = [("a", BOUND - 2, None), ("y", 1, None), ("b", 6, None), ("x", 2, None)]
        for validate_only in (True, False):
            assert c.create_partitions(items, validate_only, 1) == [
                ("a", 0, None), ("y", E.INVALID_PARTITIONS, "Topic already has 1 partition(s)."),
                ("b", E.UNKNOWN_SERVER_ERROR, None), ("x", E.UNKNOWN_SERVER_ERROR, None)]
        # a: 9,997 new partitions, b: the 3 of its 5 that fit, x: none (in request order: Kafka takes the
        # topics in its HashSet's order of their names, which the compat test leaves out)
        assert [len(c.image.topics[n].partitions) for n in ("a", "b", "x")] == [BOUND - 2, 4, 1]
        # one topic of more than 10,000 new partitions: the first 10,000 (Kafka has no other bound here)
        assert c.create_partitions([("x", BOUND + 5, None)], False, 1) == [("x", E.UNKNOWN_SERVER_ERROR, None)]
        assert len(c.image.topics["x"].partitions) == BOUND + 1
    finally:
        c.close()


def test_more_topics_than_the_bound_refuse_the_request_whole(tmp_path):
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    try:
        c.create_topics([CreateTopicSpec("a", 1, 1)], False, 0)
        many = [("a", 2, None)] + [(f"nope{i}", 2, None) for i in range(BOUND)]
        assert c.create_partitions(many, False, 1) == TOO_LARGE
        assert len(c.image.topics["a"].partitions) == 1
        # duplicates are answered before the controller: not counted
        got = c.create_partitions(many[:BOUND] + [("d", 2, None), ("d", 3, None)], False, 1)
        assert got[0] == ("a", 0, None) and got[-1] == ("d", E.INVALID_REQUEST, "Duplicate topic name.")
    finally:
        c.close()


def test_more_client_quota_records_than_the_bound_refuse_the_request_whole():
    from odradek.controller import client_quotas

    def ask(n: int):
        return client_quotas.alter({}, [([("user", f"u{i}")], [("producer_byte_rate", 1000.0)]) for i in range(n)])
    assert ask(BOUND + 1) == ([], TOO_LARGE)
    records, results = ask(BOUND)
    assert len(records) == BOUND and {r[1] for r in results} == {0}
