"""The admin write path by request (CreateTopics, DeleteTopics, CreatePartitions,
(Incremental)AlterConfigs, UpdateFeatures, ElectLeaders, AlterPartitionReassignments, and decisions over the image alone such as
client quotas and SCRAM credentials): each request maps to its decision
(decisions.Decisions) and is written through one ``_write``; the decisions over a large request
(ElectLeaders, AlterPartitionReassignments, (Incremental)AlterConfigs) are made a part at a time
(``*_steps``: generators, ``_write_steps``), their records still written as one batch.

The Controller answers with the response alone (a single voter has applied the records
when the call returns). A WriteSession keeps each write's Commit as well: the Raft
quorum's active controller answers a request once the last of them is applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generator

from . import acls
from .result import NOTHING_WRITTEN, Commit, ControllerResult
from .steps import whole

if TYPE_CHECKING:
    from .controller import Controller


class AdminWrites:
    def _write(self, decide, validate_only: bool, now_ms: int):
        """Write decide(Decisions) -> ControllerResult; the response."""
        raise NotImplementedError

    def _write_steps(self, decide_steps, validate_only: bool, now_ms: int) -> Generator[None, None, object]:
        """_write of a decision made a part at a time (decide_steps(Decisions): a generator that
        yields between parts and returns the ControllerResult; Controller.write_steps): a generator
        that yields between them and returns the response."""
        raise NotImplementedError

    def decisions(self):
        """The decisions over the current image."""
        raise NotImplementedError

    def decide_and_commit(self, decide, validate_only: bool, now_ms: int):
        """A decision over the image alone (image -> (records, response))."""
        return self._write(lambda d: ControllerResult(*decide(d.image)), validate_only, now_ms)

    def create_acls(self, bindings, now_ms: int):
        """CreateAcls: [acls.AclBinding] -> [(error_code, error_message)]; each new ACL gets a fresh id."""
        return self._write(lambda d: ControllerResult(*acls.create(d.image.acls, bindings, d.env.new_uuid)),
                           False, now_ms)

    def delete_acls(self, filters, now_ms: int):
        """DeleteAcls: [acls.AclFilter] -> [(error_code, error_message, [AclBinding deleted])]."""
        return self._write(lambda d: ControllerResult(*acls.delete(d.image.acls, filters)), False, now_ms)

    def create_topics(self, specs, validate_only: bool, now_ms: int):
        """-> [CreateTopicResult]."""
        return self._write(lambda d: d.create_topics(specs), validate_only, now_ms)

    def create_topics_steps(self, specs, now_ms: int):
        """create_topics a part at a time (a generator: _write_steps): decided in parts, its records
        written as one batch (Kafka's createTopics is atomicOf: all the request's topics or none)."""
        return self._write_steps(lambda d: d.create_topics_steps(specs), False, now_ms)

    def decide_create_topics(self, specs):
        """create_topics validate_only a part at a time: a generator that yields None between
        parts and returns the [CreateTopicResult] (Decisions.create_topics_steps)."""
        result = yield from self.decisions().create_topics_steps(specs, write=False)
        return result.response

    def delete_topics(self, names: list[str] | None = None, ids: list[bytes] | None = None, now_ms: int = 0):
        """-> [(name, topic_id, error_code, error_message)]: errors first, then deletions (as Kafka)."""
        return self._write(lambda d: d.delete_topics(names, ids), False, now_ms)

    def create_partitions(self, items, validate_only: bool, now_ms: int):
        """items: [(name, new_total_count, assignments | None)] -> [(name, error_code, error_message)]."""
        return self._write(lambda d: d.create_partitions(items), validate_only, now_ms)

    def incremental_alter_configs(self, resources, validate_only: bool, now_ms: int):
        """resources: [(resource_type, resource_name, [(name, op, value)])] -> [AlterResult]."""
        return whole(self.incremental_alter_configs_steps(resources, validate_only, now_ms))

    def incremental_alter_configs_steps(self, resources, validate_only: bool, now_ms: int):
        """incremental_alter_configs a part at a time (a generator: _write_steps)."""
        return self._write_steps(lambda d: d.incremental_alter_configs_steps(resources), validate_only, now_ms)

    def alter_configs(self, resources, validate_only: bool, now_ms: int):
        """Legacy AlterConfigs: resources [(type, name, [(key, value)])] replace all dynamic configs."""
        return whole(self.alter_configs_steps(resources, validate_only, now_ms))

    def alter_configs_steps(self, resources, validate_only: bool, now_ms: int):
        """alter_configs a part at a time (a generator: _write_steps)."""
        return self._write_steps(lambda d: d.alter_configs_steps(resources), validate_only, now_ms)

    def alter_partition_reassignments(self, topics, allow_rf_change: bool, now_ms: int):
        """topics [(name, [(partition, replicas | None)])] -> [(name, [(partition, error, message)])]."""
        return whole(self.alter_partition_reassignments_steps(topics, allow_rf_change, now_ms))

    def alter_partition_reassignments_steps(self, topics, allow_rf_change: bool, now_ms: int):
        """alter_partition_reassignments a part at a time (a generator: _write_steps)."""
        return self._write_steps(lambda d: d.alter_partition_reassignments_steps(topics, allow_rf_change), False,
                                 now_ms)

    def elect_leaders(self, election_type: int, topic_partitions, now_ms: int):
        """ElectLeaders: topic_partitions [(topic, [partition])] or None -> [ElectionResult]."""
        return whole(self.elect_leaders_steps(election_type, topic_partitions, now_ms))

    def elect_leaders_steps(self, election_type: int, topic_partitions, now_ms: int):
        """elect_leaders a part at a time (a generator: _write_steps)."""
        return self._write_steps(lambda d: d.elect_leaders_steps(election_type, topic_partitions), False, now_ms)

    def unregister_broker(self, broker_id: int, now_ms: int):
        """UnregisterBroker -> None or (error_code, message)."""
        return self._write(lambda d: d.unregister_broker(broker_id), False, now_ms)

    def update_features(self, updates, validate_only: bool, now_ms: int):
        """UpdateFeatures: updates [(name, level, upgrade_type)] -> None or (error_code, message)."""
        return self._write(lambda d: d.update_features(updates), validate_only, now_ms)


class WriteSession(AdminWrites):
    """One request's writes on a controller, each Commit kept, with the controller's reads."""

    def __init__(self, controller: Controller):
        self._controller = controller
        self.commits: list[Commit] = []
        self.finalized_features = controller.finalized_features
        self.finalized_features_epoch = controller.finalized_features_epoch
        self.describe_configs = controller.describe_configs

    @property
    def image(self):
        return self._controller.image

    def _write(self, decide, validate_only: bool, now_ms: int):
        written = self._controller.write(decide, validate_only, now_ms)
        self.commits.append(written.commit)
        return written.response

    def _write_steps(self, decide_steps, validate_only: bool, now_ms: int):
        written = yield from self._controller.write_steps(decide_steps, validate_only, now_ms)
        self.commits.append(written.commit)
        return written.response

    def decisions(self):
        return self._controller.decisions()

    def last_commit(self) -> Commit:
        """The last batch this request wrote (NOTHING_WRITTEN: none)."""
        return max((c for c in self.commits if c.written), key=lambda c: c.last_offset, default=NOTHING_WRITTEN)
