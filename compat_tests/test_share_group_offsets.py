"""Resetting and deleting share-group offsets (AlterShareGroupOffsets 91, DeleteShareGroupOffsets 92)
the way users do it, with Kafka 4.3's kafka-share-groups tool (Maven Central jars, as
test_share_groups.py runs it) and confluent-kafka's ShareConsumer, plus the raw protocol for what the
tool does not show, and FindCoordinator v6's share-coordinator keys. Each test passes against Kafka
4.3 too (python compat_tests/run_against_kafka.py -q -k share_group_offsets)."""

from __future__ import annotations

import base64
import time

import pytest

from harness import RawClient, create_topic, kafka_tool
from odradek.wire.messages.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from odradek.wire.messages.delete_share_group_offsets_request import (
    DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsRequestTopic,
)
from odradek.wire.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
)
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from test_share_groups import _drain, _name, _produce, _set_group_config, _share_consumer, ck

UNKNOWN_TP = (3, "This server does not host this topic-partition.")


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


def _find(raw, key, key_type, version=6, timeout=30.0):
    """FindCoordinator for one key, retried while COORDINATOR_NOT_AVAILABLE (Kafka, while it creates
    the internal topic the first lookup asked for)."""
    deadline = time.time() + timeout
    while True:
        c = raw.call(FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]), version).coordinators[0]
        if c.error_code != 15 or time.time() > deadline:
            return c
        time.sleep(0.3)


def _alter(raw, group, topics):
    return raw.call(AlterShareGroupOffsetsRequest(group_id=group, topics=[
        AlterShareGroupOffsetsRequestTopic(topic_name=n, partitions=[
            AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in ps])
        for n, ps in topics]), 0)


def _delete(raw, group, names):
    return raw.call(DeleteShareGroupOffsetsRequest(group_id=group, topics=[
        DeleteShareGroupOffsetsRequestTopic(topic_name=n) for n in names]), 0)


def _table(stdout: str, first: str) -> list[list[str]]:
    """The tool's rows starting with `first`, sorted (it prints partitions in HashMap order)."""
    return sorted(line.split() for line in stdout.splitlines() if line.split()[:1] == [first])


def _consume_all(bootstrap, topic, group, n):
    c = _share_consumer(bootstrap, group, **{"share.acknowledgement.mode": "explicit"})
    try:
        c.subscribe([topic])
        (got,) = _drain([c], n, ack=ck.AcknowledgeType.ACCEPT)
        c.commit_sync()
        return got
    finally:
        c.close()


def test_reset_offsets_to_earliest_redelivers_and_delete_offsets_forgets(bootstrap):
    topic, group = _name("sgo"), _name("sgo")
    create_topic(bootstrap, topic, 2)
    _produce(bootstrap, topic, 10, 2)
    _set_group_config(bootstrap, group, "share.auto.offset.reset", "earliest")
    assert len(_consume_all(bootstrap, topic, group, 10)) == 10

    args = ["share-groups", "--bootstrap-server", bootstrap, "--group", group]
    r = kafka_tool(*args, "--reset-offsets", "--topic", topic, "--to-earliest", "--execute")
    assert r.returncode == 0, r.stderr
    assert _table(r.stdout, group) == [[group, topic, "0", "0"], [group, topic, "1", "0"]]
    r = kafka_tool(*args, "--describe")
    assert _table(r.stdout, group) == [[group, topic, "0", "0", "5"], [group, topic, "1", "0", "5"]]
    got = _consume_all(bootstrap, topic, group, 10)  # every record again
    assert sorted((m.partition(), m.offset()) for m in got) == [(p, o) for p in (0, 1) for o in range(5)]

    r = kafka_tool(*args, "--reset-offsets", "--topic", f"{topic}:1", "--to-latest", "--execute")
    assert _table(r.stdout, group) == [[group, topic, "1", "5"]]

    r = kafka_tool(*args, "--delete-offsets", "--topic", topic)
    assert r.returncode == 0, r.stderr
    assert _table(r.stdout, topic) == [[topic, "Successful"]]
    r = kafka_tool(*args, "--describe")
    assert f"Share group '{group}' has no offset information." in r.stdout + r.stderr
    r = kafka_tool(*args, "--delete-offsets", "--topic", topic)
    assert _table(r.stdout, topic) == [[topic, "Error:", "There", "is", "no", "offset", "information", "to", "delete."]]
    # the group starts from share.auto.offset.reset again: everything is delivered once more
    got = _consume_all(bootstrap, topic, group, 10)
    assert sorted((m.partition(), m.offset()) for m in got) == [(p, o) for p in (0, 1) for o in range(5)]


def test_describe_after_acknowledging_shows_the_start_offset_as_written(bootstrap, raw):
    """Kafka 4.3's share-partition leader writes the start offset from before the acknowledgement it
    writes (it moves it once written): after records 0-3 of each partition are acknowledged in one
    go, the share coordinator holds start offset 0 with 4 records delivered-complete, and the lag
    of 3 records produced after them is 7 - 0 - 4."""
    topic, group = _name("sgd"), _name("sgd")
    create_topic(bootstrap, topic, 3)
    _produce(bootstrap, topic, 12, 3)  # one batch of 4 per partition: acknowledged in one go
    _set_group_config(bootstrap, group, "share.auto.offset.reset", "earliest")
    assert len(_consume_all(bootstrap, topic, group, 12)) == 12
    _produce(bootstrap, topic, 9, 3)
    r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--group", group, "--describe")
    assert r.returncode == 0, r.stderr
    assert _table(r.stdout, group) == [[group, topic, str(p), "0", "3"] for p in range(3)]
    err, topics = _describe_offsets(raw, group)
    assert err == 0 and [(n, sorted(ps)) for n, ps in topics] == [(topic, [(p, 0, 3) for p in range(3)])]


def _initialized_rows(bootstrap, group, consumer=None, timeout=60.0):
    """kafka-share-groups --describe's rows of the group once it lists any (polling ``consumer``
    meanwhile, so that it heartbeats)."""
    deadline = time.time() + timeout
    while True:
        if consumer is not None:
            consumer.poll(timeout=0.3)
        r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--group", group, "--describe")
        rows = _table(r.stdout, group)
        if rows or time.time() > deadline:
            return rows


def test_a_joined_group_has_its_partitions_initialized_before_any_acknowledgement(bootstrap):
    """The group coordinator initializes the share state of the partitions it assigns
    (InitializeShareGroupState, start offset -1): described with no start offset and no lag until a
    share-partition leader writes (as Kafka 4.3)."""
    topic, group = _name("sgi"), _name("sgi")
    create_topic(bootstrap, topic, 2)
    c = _share_consumer(bootstrap, group)
    try:
        c.subscribe([topic])
        assert _initialized_rows(bootstrap, group, c) == [[group, topic, "0", "-", "-"], [group, topic, "1", "-", "-"]]
    finally:
        c.close()


def test_reset_offsets_of_a_new_group_creates_it_empty(bootstrap):
    topic, group = _name("sgo"), _name("sgo")
    create_topic(bootstrap, topic, 2)
    _produce(bootstrap, topic, 6, 2)
    args = ["share-groups", "--bootstrap-server", bootstrap, "--group", group]
    r = kafka_tool(*args, "--reset-offsets", "--topic", topic, "--to-earliest", "--execute")
    assert r.returncode == 0, r.stderr
    assert _table(r.stdout, group) == [[group, topic, "0", "0"], [group, topic, "1", "0"]]
    r = kafka_tool(*args, "--describe", "--state")
    assert f"Share group '{group}' has no active members." in r.stderr
    assert [row[-2:] for row in _table(r.stdout, group)] == [["Empty", "0"]]
    # its share-partitions start where they were set, not at share.auto.offset.reset (latest)
    got = _consume_all(bootstrap, topic, group, 6)
    assert len(got) == 6
    r = kafka_tool("share-groups", "--bootstrap-server", bootstrap, "--delete", "--group", group)
    assert r.returncode == 0, r.stderr


def test_tool_errors_for_unknown_and_active_groups(bootstrap):
    topic, group = _name("sgo"), _name("sgo")
    create_topic(bootstrap, topic, 1)
    args = ["share-groups", "--bootstrap-server", bootstrap]
    r = kafka_tool(*args, "--delete-offsets", "--group", _name("nogroup"), "--topic", topic)
    assert "Group nogroup-" in r.stdout and "not found." in r.stdout
    r = kafka_tool(*args, "--delete-offsets", "--group", group, "--topic", "nosuch-topic")
    assert "Group " in r.stdout  # the group does not exist yet either
    c = _share_consumer(bootstrap, group)
    try:
        c.subscribe([topic])
        deadline = time.time() + 60
        while time.time() < deadline:
            c.poll(timeout=0.3)
            r = kafka_tool(*args, "--describe", "--group", group, "--state")
            if "Stable" in r.stdout:
                break
        r = kafka_tool(*args, "--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute")
        assert r.returncode == 1 and f"Share group '{group}' is not empty." in r.stdout + r.stderr
        r = kafka_tool(*args, "--delete-offsets", "--group", group, "--topic", topic)
        assert "Error: The group is not empty." in r.stdout
    finally:
        c.close()


def test_alter_and_delete_share_group_offsets_protocol(raw, bootstrap):
    topic, group, classic = _name("sgo"), _name("sgo"), _name("cg")
    create_topic(bootstrap, topic, 2)
    assert _find(raw, group, 0).error_code == 0
    r = _alter(raw, "", [(topic, [(0, 0)])])
    assert (r.error_code, r.error_message, r.responses) == (24, "The group id is invalid.", [])
    assert (_delete(raw, "", [topic]).error_code, _delete(raw, group, []).error_code) == (24, 69)

    # nothing known: no group made; then unknown topics first, a topic named twice merged
    r = _alter(raw, group, [("nosuch-sgo", [(0, 5)])])
    assert r.error_code == 0 and [(t.topic_name, t.topic_id) for t in r.responses] == [("nosuch-sgo", b"\0" * 16)]
    r = _delete(raw, group, [topic])
    assert (r.error_code, r.error_message) == (69, f"Group {group} not found.")
    deadline = time.time() + 60
    while True:  # Kafka's share coordinator learns of a new topic a moment after its creation
        r = _alter(raw, group, [(topic, [(0, 3), (7, 1)]), ("nosuch-sgo", [(0, 5)]), (topic, [(1, 2)])])
        if r.error_code or r.responses[-1].partitions[0].error_code == 0 or time.time() > deadline:
            break
        time.sleep(0.5)
    assert r.error_code == 0
    assert [(t.topic_name, [(p.partition_index, p.error_code, p.error_message) for p in t.partitions])
            for t in r.responses] == [
        ("nosuch-sgo", [(0, *UNKNOWN_TP)]), (topic, [(0, 0, None), (7, *UNKNOWN_TP), (1, 0, None)])]
    assert r.responses[1].topic_id != b"\0" * 16

    r = _delete(raw, group, ["nosuch-sgo", topic])
    assert [(t.topic_name, t.error_code, t.error_message) for t in r.responses] == [
        (topic, 0, None), ("nosuch-sgo", *UNKNOWN_TP)]
    r = _delete(raw, group, [topic])
    assert [(t.topic_name, t.topic_id, t.error_code, t.error_message) for t in r.responses] == [
        (topic, b"\0" * 16, 3, "There is no offset information to delete.")]

    # a classic group of that name is not a share group
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": classic, "enable.auto.commit": False})
    consumer.commit(offsets=[ck.TopicPartition(topic, 0, 1)], asynchronous=False)
    consumer.close()
    for r in (_alter(raw, classic, [(topic, [(0, 0)])]), _delete(raw, classic, [topic])):
        assert (r.error_code, r.error_message) == (69, f"Group {classic} is not a share group.")


def _uuid(topic_id: bytes) -> str:
    return base64.urlsafe_b64encode(topic_id).decode().rstrip("=")


def test_find_coordinator_v6_share_coordinator(raw, bootstrap):
    topic = _name("sgo")
    create_topic(bootstrap, topic, 1)
    md = raw.call(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
    key = f"g1:{_uuid(md.topics[0].topic_id)}:0"
    c = _find(raw, key, 2)
    assert (c.key, c.error_code, c.node_id > -1, c.port > 0) == (key, 0, True, True)
    md = raw.call(MetadataRequest(topics=[MetadataRequestTopic(name="__share_group_state")],
                                  allow_auto_topic_creation=False), 12)
    assert (md.topics[0].error_code, md.topics[0].is_internal) == (0, True)
    for good in ("g:AAAAAAAAAAAAAAAAAAAAAA:-1", f"a:b:{_uuid(b'x' * 16)}:3"):
        assert _find(raw, good, 2).error_code == 0, good
    for bad in ("g1", "", ":AAAAAAAAAAAAAAAAAAAAAA:0", "g1:notauuid:0", "g1:AAAAAAAAAAAAAAAAAAAAAA:x",
                "g1:AAAAAAAAAAAAAAAAAAAAAA:0:1"):
        assert _find(raw, bad, 2).error_code == 42, bad
    for v in (4, 5):  # key type 2 needs v6
        c = _find(raw, key, 2, v)
        assert (c.error_code, c.node_id) == (42, -1)
    r = raw.call(FindCoordinatorRequest(key=key, key_type=2), 3)
    assert (r.error_code, r.node_id) == (42, -1)
    for v in (5, 6):
        assert [_find(raw, k, 0, v).error_code for k in ("g", "")] == [0, 0]
        assert _find(raw, "x", 3, v).error_code == 42


def _describe_offsets(raw, group):
    g = raw.call(DescribeShareGroupOffsetsRequest(groups=[
        DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=None)]), 1).groups[0]
    return g.error_code, [(t.topic_name, [(p.partition_index, p.start_offset, p.lag) for p in t.partitions])
                          for t in g.topics]


def test_describe_offsets_after_alter_and_of_a_classic_group(raw, bootstrap):
    topic, group, classic = _name("sgo"), _name("sgo"), _name("cg")
    create_topic(bootstrap, topic, 2)
    _produce(bootstrap, topic, 4, 2)  # high watermarks 2, 2
    assert _find(raw, group, 0).error_code == 0
    deadline = time.time() + 60
    while True:  # Kafka's share coordinator learns of a new topic a moment after its creation
        r = _alter(raw, group, [(topic, [(0, 5), (1, 1)])])
        if all(p.error_code == 0 for p in r.responses[0].partitions) or time.time() > deadline:
            break
        time.sleep(0.5)
    # an SPSO past the high watermark: a negative lag, as Kafka 4.3 answers (its tool prints "-")
    assert _describe_offsets(raw, group) == (0, [(topic, [(0, 5, -3), (1, 1, 1)])])
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": classic, "enable.auto.commit": False})
    consumer.commit(offsets=[ck.TopicPartition(topic, 0, 1)], asynchronous=False)
    consumer.close()
    assert _describe_offsets(raw, classic) == (0, [])  # no share state, no error
