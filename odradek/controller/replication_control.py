"""Leadership and ISR decisions over the image (Kafka's ReplicationControlManager): what
fencing, unfencing, controlled shutdown or an unclean restart of a broker does to every
partition it is in, AlterPartition from a partition leader, and ElectLeaders. Pure:
image -> PartitionChangeRecords (controller/partition_change.py builds each one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generator, Iterable, Iterator

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.partition_change_record import PartitionChangeRecord

from . import directories
from .elr_configs import elr_enabled
from .image import NO_LEADER, MetadataDelta, MetadataImage, PartitionImage, TopicImage
from .partition_change import Election, PartitionChange, RECOVERING
from .steps import CHANGE_UNITS, StepBudget, whole

PREFERRED, UNCLEAN = 0, 1  # ElectLeaders election types
MAX_ELECTIONS = 1000  # per periodic pass (Kafka's maxElectionsPerImbalance)
# an ElectLeaders partition answered without building its change (a step's cheap unit)
_NO_CHANGE_BUILT = (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.ELECTION_NOT_NEEDED)


def then(image: MetadataImage, records: list) -> MetadataImage:
    """``image`` with ``records`` applied (to decide the next step on what this one wrote)."""
    if not records:
        return image
    delta = MetadataDelta(image)
    for r in records:
        delta.replay(r, image.offset)
    return delta.apply()


class Refused(Exception):
    """A request item refused with Kafka's error code and message."""

    def __init__(self, code: int, message: str | None):
        super().__init__(message)
        self.code, self.message = int(code), message


@dataclass
class IsrUpdate:
    """One partition of an AlterPartition request (new ISR with broker epochs, -1 = unchecked)."""
    partition: int
    leader_epoch: int
    partition_epoch: int
    new_isr: list[tuple[int, int]]
    leader_recovery_state: int = 0


@dataclass
class IsrResult:
    """AlterPartition's answer for one partition."""
    partition: int
    error_code: int
    partition_image: PartitionImage | None = None  # the partition after the change (no error)


@dataclass
class ElectionResult:
    """ElectLeaders' answer for one topic."""
    topic: str
    partitions: list[tuple[int, int, str | None]] = field(default_factory=list)  # (partition, error, message)


class ReplicationControl:
    def __init__(self, image: MetadataImage, topic_config: Callable[[str, str], str | None]):
        """``topic_config(topic, name)``: the topic's effective config ``name``."""
        self.image = image
        self._topic_config = topic_config

    # ------------------------------------------------------------------ what a change reads
    @property
    def elr_enabled(self) -> bool:
        return elr_enabled(self.image.features)

    def active(self, broker_id: int) -> bool:
        b = self.image.brokers.get(broker_id)
        return b is not None and b.active

    def min_isr(self, t: TopicImage) -> int:
        """The topic's min.insync.replicas, at most its replication factor (as Kafka)."""
        try:
            configured = int(self._topic_config(t.name, "min.insync.replicas"))
        except ValueError:
            configured = 1
        first = t.partitions.get(0) or next(iter(t.partitions.values()), None)
        return min(configured, len(first.replicas)) if first is not None else configured

    def unclean_enabled(self, t: TopicImage) -> bool:
        return self._topic_config(t.name, "unclean.leader.election.enable").strip().lower() == "true"

    def change(self, t: TopicImage, p: PartitionImage, acceptable: Callable[[int], bool] | None = None,
               **targets) -> PartitionChange:
        election = targets.pop("election", Election.UNCLEAN if self.unclean_enabled(t) else Election.ONLINE)
        if directories.supported(self.image):
            targets.setdefault("default_dir", lambda b: directories.default_dir(self.image.brokers.get(b)))
        return PartitionChange(p, t.topic_id, acceptable or self.active, self.min_isr(t), self.elr_enabled,
                               election, **targets)

    # ------------------------------------------------------------------ where a broker is
    def _partitions(self, pred: Callable[[PartitionImage], bool]) -> Iterator[tuple[TopicImage, PartitionImage]]:
        for t in sorted(self.image.topics.values(), key=lambda t: t.name):
            for p in sorted(t.partitions.values(), key=lambda p: p.partition):
                if pred(p):
                    yield t, p

    def in_isr(self, broker_id: int):
        return self._partitions(lambda p: broker_id in p.isr)

    def in_elr(self, broker_id: int):
        return self._partitions(lambda p: broker_id in p.elr)

    def leaderless(self):
        return self._partitions(lambda p: p.leader == NO_LEADER)

    def leads_any(self, broker_id: int) -> bool:
        return any(True for _ in self._partitions(lambda p: p.leader == broker_id))

    # ------------------------------------------------------------------ broker events
    def leader_and_isr_updates(self, parts: Iterable[tuple[TopicImage, PartitionImage]], remove: int = NO_LEADER,
                               add: int = NO_LEADER, unclean_shutdown: int = NO_LEADER) -> list:
        """Kafka's generateLeaderAndIsrUpdates: ``remove`` leaves every ISR and may not lead,
        ``add`` may lead although the image still shows it fenced, ``unclean_shutdown``
        leaves ISR and ELR and may not lead."""
        def acceptable(r: int) -> bool:
            return r not in (remove, unclean_shutdown) and (r == add or self.active(r))
        records = []
        for t, p in parts:
            isr = [b for b in p.isr if b not in (remove, unclean_shutdown)]
            ch = self.change(t, p, acceptable, target_isr=isr,
                             unclean_shutdown=(unclean_shutdown,) if unclean_shutdown != NO_LEADER else ())
            rec = ch.build()
            if rec is not None:
                records.append(rec)
        return records

    def assign_replicas_to_dirs(self, broker_id: int, dirs) -> tuple[list, list]:
        """AssignReplicasToDirs from a broker (Kafka's handleAssignReplicasToDirs; the broker's epoch and
        the metadata.version are the caller's checks): dirs [(directory id, [(topic id, [partition])])] ->
        (records, [(directory id, [(topic id, [(partition, error code)])])]). Each replica of the broker
        named is set to its directory; a replica put in a directory the broker does not have online
        leaves the ISR (and its leadership), as a fenced broker does."""
        online = set(self.image.brokers[broker_id].log_dirs)
        records, results, offline = [], [], []
        for dir_id, topics in dirs:
            dir_results = []
            for topic_id, partitions in topics:
                t = self.image.topic_by_id(topic_id)
                errs = []
                for index in partitions:
                    p = t.partitions.get(index) if t is not None else None
                    if t is None:
                        code = ErrorCode.UNKNOWN_TOPIC_ID
                    elif p is None:
                        code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    elif broker_id not in p.replicas:
                        code = ErrorCode.NOT_LEADER_OR_FOLLOWER
                    else:
                        code = ErrorCode.NONE
                        rec = self.change(t, p, target_directories={broker_id: dir_id}).build()
                        if rec is not None:
                            records.append(rec)
                        if dir_id not in online:
                            offline.append((topic_id, index))
                    errs.append((index, int(code)))
                dir_results.append((topic_id, errs))
            results.append((dir_id, dir_results))
        if offline:
            after = ReplicationControl(then(self.image, records), self._topic_config)
            parts = [(t, t.partitions[i]) for t, i in ((after.image.topic_by_id(tid), i) for tid, i in offline)]
            records += after.leader_and_isr_updates(parts, remove=broker_id)
        return records, results

    def broker_fenced(self, broker_id: int) -> list:
        """Out of every ISR; the partitions it led get new leaders (the fence record is the caller's)."""
        return self.leader_and_isr_updates(list(self.in_isr(broker_id)), remove=broker_id)

    def broker_unfenced(self, broker_id: int) -> list:
        """Leaderless partitions it may lead (ISR, or ELR when the ISR is empty) elect it."""
        return self.leader_and_isr_updates(list(self.leaderless()), add=broker_id)

    def broker_in_controlled_shutdown(self, broker_id: int) -> list:
        return self.leader_and_isr_updates(list(self.in_isr(broker_id)), remove=broker_id)

    def broker_unclean_shutdown(self, broker_id: int) -> list:
        """A broker back from an unclean shutdown (ELR only): out of every ISR and ELR."""
        if not self.elr_enabled:
            return []
        records = self.leader_and_isr_updates(list(self.in_isr(broker_id)), unclean_shutdown=broker_id)
        rest = then(self.image, records)
        return records + ReplicationControl(rest, self._topic_config).leader_and_isr_updates(
            list(ReplicationControl(rest, self._topic_config).in_elr(broker_id)), unclean_shutdown=broker_id)

    # ------------------------------------------------------------------ AlterPartition
    def _validate_isr_update(self, broker_id: int, p: PartitionImage | None, u: IsrUpdate) -> int:
        if p is None:
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        # a leader ahead of this controller's image: this controller is probably not the active one
        if u.leader_epoch > p.leader_epoch or u.partition_epoch > p.partition_epoch:
            return ErrorCode.NOT_CONTROLLER
        if u.leader_epoch < p.leader_epoch:
            return ErrorCode.FENCED_LEADER_EPOCH
        if broker_id != p.leader:
            return ErrorCode.INVALID_REQUEST
        if u.partition_epoch < p.partition_epoch:
            return ErrorCode.INVALID_UPDATE_VERSION
        new_isr = [b for b, _ in u.new_isr]
        if len(set(new_isr)) != len(new_isr) or not set(new_isr) <= set(p.replicas):
            return ErrorCode.INVALID_REQUEST
        if p.leader not in new_isr:
            return ErrorCode.INVALID_REQUEST
        if u.leader_recovery_state == RECOVERING and len(new_isr) > 1:
            return ErrorCode.INVALID_REQUEST
        if p.leader_recovery_state != RECOVERING and u.leader_recovery_state == RECOVERING:
            return ErrorCode.INVALID_REQUEST
        for b, epoch in u.new_isr:
            reg = self.image.brokers.get(b)
            if reg is None or reg.in_controlled_shutdown or reg.fenced or (epoch != -1 and reg.epoch != epoch):
                return ErrorCode.INELIGIBLE_REPLICA
        return ErrorCode.NONE

    def alter_partition(self, broker_id: int, topic: TopicImage, updates: list[IsrUpdate]) -> tuple[list, list]:
        """One topic of an AlterPartition request (broker epoch already checked) ->
        (records, [IsrResult])."""
        records, results = [], []
        for u in updates:
            p = topic.partitions.get(u.partition)
            err = self._validate_isr_update(broker_id, p, u)
            if err:
                results.append(IsrResult(u.partition, int(err)))
                continue
            rec = self.change(topic, p, target_isr=[b for b, _ in u.new_isr],
                              target_recovery_state=u.leader_recovery_state).build()
            if rec is not None:
                records.append(rec)
                p = p.merge(rec)
                if rec.leader not in (broker_id, -2):
                    # completing a reassignment moved the leadership: the leader must learn it
                    results.append(IsrResult(u.partition, int(ErrorCode.NEW_LEADER_ELECTED)))
                    continue
            results.append(IsrResult(u.partition, 0, p))
        return records, results

    # ------------------------------------------------------------------ reassignments
    def reassign(self, name: str, index: int, target: list[int] | None, check_assignment: Callable[[list[int]], None],
                 allow_rf_change: bool = True) -> PartitionChangeRecord | None:
        """One partition of AlterPartitionReassignments (``target`` None cancels): the record
        that starts it (the new replicas join, adding/removing set), completes it at once
        when the ISR already allows, or reverts it; raises Refused with Kafka's error."""
        t = self.image.topics.get(name)
        if t is None:
            raise Refused(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {name}.")
        p = t.partitions.get(index)
        if p is None:
            raise Refused(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {name}:{index}.")
        if target is None:
            return self._cancel_reassignment(t, p)
        check_assignment(list(target))
        if not allow_rf_change and len(target) != len(p.replicas):
            raise Refused(ErrorCode.INVALID_REPLICATION_FACTOR,
                          f"The replication factor is changed from {len(p.replicas)} to {len(target)}")
        removing = sorted(set(p.replicas) - set(target))
        adding = sorted(set(target) - set(p.replicas))
        replicas = list(target) + removing
        targets: dict = {}
        if replicas != list(p.replicas):
            targets["target_replicas"] = replicas
        if removing:
            targets["target_removing"] = removing
        if adding:
            targets["target_adding"] = adding
        return self.change(t, p, election=Election.ONLINE, **targets).build()

    def _cancel_reassignment(self, t: TopicImage, p: PartitionImage) -> PartitionChangeRecord | None:
        if not p.removing_replicas and not p.adding_replicas:
            raise Refused(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, None)
        replicas = [b for b in p.replicas if b not in p.adding_replicas]
        isr = [b for b in p.isr if b not in p.adding_replicas]
        if not isr:  # only added replicas are in sync: reverting needs an unclean election
            if not self.unclean_enabled(t):
                raise Refused(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                              f"Unable to revert partition assignment for {t.name}:{p.partition} because it would "
                              "require an unclean leader election.")
            isr = replicas[:1]
        return self.change(t, p, target_isr=isr, target_replicas=replicas, target_removing=[],
                           target_adding=[]).build()

    # ------------------------------------------------------------------ the controller's periodic work
    def balance_leaders(self, max_elections: int = MAX_ELECTIONS) -> list:
        """auto.leader.rebalance.enable: a preferred election for each partition not led by
        its first replica (Kafka's maybeBalancePartitionLeaders)."""
        records = []
        for t, p in self._partitions(lambda p: p.leader != p.preferred_leader):
            if len(records) >= max_elections:
                break
            rec = self.change(t, p, election=Election.PREFERRED).build()
            if rec is not None:
                records.append(rec)
        return records

    def elect_unclean_leaders(self, max_elections: int = MAX_ELECTIONS) -> list:
        """Leaderless partitions of topics with unclean.leader.election.enable elect any live
        replica (Kafka's maybeElectUncleanLeaders, every unclean.leader.election.interval.ms)."""
        records = []
        for t, p in self.leaderless():
            if len(records) >= max_elections:
                break
            if self.unclean_enabled(t):
                rec, _, _ = self.elect_leader(t.name, p.partition, UNCLEAN)
                if rec is not None:
                    records.append(rec)
        return records

    # ------------------------------------------------------------------ ElectLeaders
    def elect_leader(self, name: str, partition: int, election_type: int) -> tuple[PartitionChangeRecord | None,
                                                                                     int, str | None]:
        """-> (record, error code, message) for one partition."""
        t = self.image.topics.get(name)
        if t is None:
            return None, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {name}"
        p = t.partitions.get(partition)
        if p is None:
            return None, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such partition as {name}-{partition}"
        if (election_type == PREFERRED and p.leader == p.preferred_leader) or (
                election_type == UNCLEAN and p.leader != NO_LEADER):
            return None, ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition."
        election = Election.PREFERRED if election_type == PREFERRED else Election.UNCLEAN
        rec = self.change(t, p, election=election).build()
        if rec is None:  # Kafka answers with the errors' default messages
            if election_type == PREFERRED:
                return None, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, "The preferred leader was not available."
            return None, ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, "Eligible topic partition leaders are not available."
        return rec, ErrorCode.NONE, None

    def elect_leaders(self, election_type: int, topic_partitions) -> tuple[list, list[ElectionResult]]:
        """topic_partitions: [(topic, [partition])] or None (every partition; those whose
        election is not needed are left out, as Kafka)."""
        return whole(self.elect_leaders_steps(election_type, topic_partitions, StepBudget()))

    def elect_leaders_steps(self, election_type: int, topic_partitions, budget: StepBudget
                            ) -> Generator[None, None, tuple[list, list[ElectionResult]]]:
        """elect_leaders a part at a time: yields whenever ``budget`` is spent (a partition looked
        at is a unit, one whose change is built CHANGE_UNITS) and returns (records, results)."""
        records, results = [], []
        every = topic_partitions is None
        if every:
            topics = self.image.topics
            topic_partitions = ((n, sorted(topics[n].partitions)) for n in sorted(topics))
        for name, parts in topic_partitions:
            res = ElectionResult(name)
            for i in parts:
                rec, err, msg = self.elect_leader(name, i, election_type)
                if rec is not None:
                    records.append(rec)
                if budget.spend(1 if err in _NO_CHANGE_BUILT else CHANGE_UNITS):
                    yield
                if every and err == ErrorCode.ELECTION_NOT_NEEDED:
                    continue
                res.partitions.append((i, int(err), msg))
            results.append(res)
        return records, results
