"""The controller's decisions over a large ElectLeaders, AlterPartitionReassignments and
(Incremental)AlterConfigs are made a part at a time (issue 27: no request holds the event loop for
long; controller/steps.py): the same records and answer as the decision in one piece, a part every
DECISION_STEP units (a partition looked at: 1; a partition whose change is built: CHANGE_UNITS; a
resource: 1, each topic's effective config checked: CONFIG_CHECK_UNITS). Controller.write_steps
writes such a decision as one batch (Kafka writes AlterPartitionReassignments and the config
changes atomically), decided again when another write changed the image between its parts."""
import random

from odradek.controller.configs import BROKER, TOPIC
from odradek.controller.controller import STEPPED_DECISIONS, Controller, CreateTopicSpec, OP_SET
from odradek.controller.decisions import Decisions, Env
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.controller.steps import CHANGE_UNITS, CONFIG_CHECK_UNITS, DECISION_STEP, StepBudget, whole
from odradek.wire.errors import ErrorCode as E

TID = b"\x01" * 16


def _image(parts: dict[int, PartitionImage]) -> MetadataImage:
    t = TopicImage("t", TID, parts)
    return MetadataImage(topics={"t": t}, topics_by_id={TID: t}, cluster_id="c",
                         brokers={b: BrokerImage(b, "h", 9000 + b, None, False, bytes([b]) * 16, 10 + b)
                                  for b in (1, 2, 3)})


def _decisions(img: MetadataImage) -> Decisions:
    return Decisions(Env(1, {}, lambda: b"\x09" * 16, random.Random(1)), img)


def _parts(steps) -> tuple[object, int]:
    """(what a generator returns, the times it yielded)."""
    n = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, n
        n += 1


def _yields(units: list[int]) -> int:
    """The parts a StepBudget makes of work spent as ``units``, one piece after another."""
    budget = StepBudget()
    return sum(budget.spend(u) for u in units)


def test_preferred_elections_are_decided_in_parts_with_the_one_piece_answer_and_records():
    n = DECISION_STEP // CHANGE_UNITS * 4  # 200 elections: 4 parts of changes built
    img = _image({i: PartitionImage(i, 2, 3, 4, (1, 2, 3), (1, 2, 3)) for i in range(n)})
    asked = [("t", list(range(n))), ("nope", list(range(DECISION_STEP * 2)))]
    one = _decisions(img).elect_leaders(0, asked)
    stepped, parts = _parts(_decisions(img).elect_leaders_steps(0, asked))
    assert parts == 4 + 2 == _yields([CHANGE_UNITS] * n + [1] * DECISION_STEP * 2)
    assert stepped == one
    assert len(one.records) == n and {r.leader for r in one.records} == {1}
    assert one.response[1].partitions[0] == (0, E.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as nope")
    # every partition (None): the same, those needing no election left out
    one = _decisions(img).elect_leaders(0, None)
    stepped, parts = _parts(_decisions(img).elect_leaders_steps(0, None))
    assert stepped == one and parts == 4 and len(one.records) == n


def test_reassignments_are_decided_in_parts_with_the_one_piece_answer_and_records():
    n = DECISION_STEP // CHANGE_UNITS * 2  # 100 reassignments in progress, cancelled: changes built
    img = _image({i: PartitionImage(i, 1, 3, 4, (1, 2, 3), (1, 2), adding_replicas=(3,)) if i < n
                  else PartitionImage(i, 1, 3, 4, (1, 2), (1, 2)) for i in range(n + DECISION_STEP)})
    asked = [("t", [(i, None) for i in range(n + DECISION_STEP)]), ("nope", [(0, None)])]
    one = _decisions(img).alter_partition_reassignments(asked)
    stepped, parts = _parts(_decisions(img).alter_partition_reassignments_steps(asked))
    assert parts == 2 + 1 == _yields([CHANGE_UNITS] * n + [1] * (DECISION_STEP + 1))
    assert stepped == one
    assert len(one.records) == n and all(r.replicas == [1, 2] for r in one.records)
    assert one.response[0][1][n] == (n, E.NO_REASSIGNMENT_IN_PROGRESS, None)


def _controller(tmp_path, topics: int) -> Controller:
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    c.create_topics([CreateTopicSpec(f"t{i}", 1, 1) for i in range(topics)], False, 0)
    return c


def test_config_changes_are_decided_in_parts_with_the_one_piece_answer_and_records(tmp_path):
    c = _controller(tmp_path, 30)
    try:
        d = c.decisions()
        legacy = [(TOPIC, f"t{i}", [("retention.ms", "1000")]) for i in range(30)] + [(TOPIC, "nope", [])]
        stepped, parts = _parts(d.alter_configs_steps(legacy))
        assert stepped == d.alter_configs(legacy)
        # each topic: its resource (1) and its effective config checked; the unknown topic: its resource
        assert parts == _yields([CONFIG_CHECK_UNITS, 1] * 30 + [1]) == 3
        assert len(stepped.records) == 30
        assert stepped.response[-1].error_code == E.UNKNOWN_TOPIC_OR_PARTITION
        incremental = [(TOPIC, f"t{i}", [("retention.ms", OP_SET, "1000")]) for i in range(30)]
        stepped, parts = _parts(d.incremental_alter_configs_steps(incremental))
        assert stepped == d.incremental_alter_configs(incremental) and parts == 3
        # a cluster-wide broker value checks every topic's effective config: in parts, inside the resource
        cluster_wide = [(BROKER, "", [("log.retention.ms", OP_SET, "5000")])]
        stepped, parts = _parts(d.incremental_alter_configs_steps(cluster_wide))
        assert stepped == d.incremental_alter_configs(cluster_wide) and len(stepped.records) == 1
        assert parts == _yields([CONFIG_CHECK_UNITS] * 30 + [1]) == 3
    finally:
        c.close()


def test_a_stepped_write_is_one_batch_decided_on_the_image_it_is_written_over(tmp_path):
    c = _controller(tmp_path, 30)
    told = []
    c.add_listener(lambda old, new: told.append(new))
    try:
        # another write between the parts (segment.bytes of t5): the legacy AlterConfigs replaces
        # every dynamic config, so t5's is deleted only if decided over the image that has it
        resources = [(TOPIC, f"t{i}", [("retention.ms", "1000")]) for i in range(30)]
        writing = c.alter_configs_steps(resources, False, 0)
        next(writing)
        assert c.incremental_alter_configs([(TOPIC, "t5", [("segment.bytes", OP_SET, "2000000")])], False, 0)[0] \
            .error_code == 0
        assert dict(c.image.topics["t5"].configs) == {"segment.bytes": "2000000"}
        told.clear()
        answer, parts = _parts(writing)
        assert [r.error_code for r in answer] == [0] * 30
        assert parts == 2 + 3  # the rest of the first decision, then all of the second
        assert len(told) == 1  # one batch: the image published once, with every change
        assert all(dict(told[0].topics[f"t{i}"].configs) == {"retention.ms": "1000"} for i in range(30))
        # validate_only: nothing written, decided once over the image it started with
        writing = c.incremental_alter_configs_steps([(TOPIC, f"t{i}", [("retention.ms", OP_SET, "7")])
                                                     for i in range(30)], True, 0)
        next(writing)
        c.incremental_alter_configs([(TOPIC, "t6", [("segment.bytes", OP_SET, "2000000")])], False, 0)
        told.clear()
        answer, parts = _parts(writing)
        assert [r.error_code for r in answer] == [0] * 30 and parts == 2 and told == []
        assert c.image.topics["t1"].configs["retention.ms"] == "1000"
    finally:
        c.close()


def test_a_stepped_write_overtaken_at_every_part_is_decided_in_one_piece_at_last(tmp_path):
    c = _controller(tmp_path, 30)
    try:
        writing = c.alter_configs_steps([(TOPIC, f"t{i}", [("retention.ms", "1000")]) for i in range(30)], False, 0)
        parts = 0
        while True:
            try:
                next(writing)
            except StopIteration as done:
                answer = done.value
                break
            parts += 1
            c.incremental_alter_configs([(TOPIC, "t5", [("segment.bytes", OP_SET, str(2000000 + parts))])], False, 0)
        assert parts == 3 * STEPPED_DECISIONS  # each decision overtaken; the last one made in one piece
        assert [r.error_code for r in answer] == [0] * 30
        assert dict(c.image.topics["t5"].configs) == {"retention.ms": "1000"}
        assert whole(c.alter_configs_steps([(TOPIC, "t5", [])], False, 0))[0].error_code == 0
        assert dict(c.image.topics["t5"].configs) == {}
    finally:
        c.close()
