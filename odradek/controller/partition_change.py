"""One partition's next state as a PartitionChangeRecord (Kafka's PartitionChangeBuilder).

Given the partition as it is, who may lead (``acceptable``: unfenced, not shutting down,
or whatever the caller decides) and the targets (ISR, replicas, reassignment sets), a
``PartitionChange`` elects a leader when the current one is no longer valid and returns
the record that takes the partition there, or None when nothing changes. The facts kept
from Kafka 4.x:
- a valid new leader is in the target ISR, or in the ELR when the ISR is empty;
- the current leader stays while it is valid; otherwise the first valid replica in
  replica order; PREFERRED tries the first replica before the current leader;
- an UNCLEAN election (unclean.leader.election.enable) takes any acceptable replica
  and sets the ISR to it alone, the leader recovering (leader_recovery_state 1);
- the leader epoch moves only with a leader field in the record (PartitionImage.merge):
  a leader change, or a replica set that loses a member (the leader field is then set
  to the same leader); an ISR shrink alone does not bump it (metadata.version >= 3.6);
- without ELR the ISR is never emptied: the last member stays in it, leaderless (-1);
- with ELR (KIP-966) the ISR may empty; replicas leaving an ISR smaller than
  min.insync.replicas go to the ELR (unless they shut down uncleanly), and the last
  leader is remembered in last_known_elr when the ISR empties.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable

from odradek.wire.messages.partition_change_record import PartitionChangeRecord

from . import directories
from .image import NO_LEADER, NO_LEADER_CHANGE, PartitionImage

RECOVERED, RECOVERING = 0, 1


class Election(Enum):
    PREFERRED = "preferred"
    ONLINE = "online"
    UNCLEAN = "unclean"


@dataclass
class PartitionChange:
    """Builds one partition's PartitionChangeRecord: leader election, ISR and ELR changes."""
    partition: PartitionImage
    topic_id: bytes
    acceptable: Callable[[int], bool]  # may this broker lead (alive, not shutting down)?
    min_isr: int = 1
    elr_enabled: bool = False
    election: Election = Election.ONLINE
    target_isr: list[int] | None = None
    target_replicas: list[int] | None = None
    target_removing: list[int] | None = None
    target_adding: list[int] | None = None
    unclean_shutdown: tuple[int, ...] = ()
    target_recovery_state: int | None = None
    # metadata.version with directory assignment: where a new replica goes (directories.default_dir)
    default_dir: Callable[[int], bytes] | None = None
    target_directories: dict[int, bytes] | None = None  # AssignReplicasToDirs: broker -> its directory

    def __post_init__(self) -> None:
        p = self.partition
        self.isr = list(p.isr if self.target_isr is None else self.target_isr)
        self.replicas = list(p.replicas if self.target_replicas is None else self.target_replicas)
        self.removing = list(p.removing_replicas if self.target_removing is None else self.target_removing)
        self.adding = list(p.adding_replicas if self.target_adding is None else self.target_adding)
        self.elr = list(p.elr)
        self.recovery = p.leader_recovery_state if self.target_recovery_state is None else self.target_recovery_state

    # ------------------------------------------------------------------ election
    def _valid_leader(self, b: int) -> bool:
        return (b in self.isr or (not self.isr and b in self.elr)) and self.acceptable(b)

    def _last_known_leader(self) -> bool:
        """ELR's balanced recovery: with an empty ISR and ELR, the last known leader (if it
        may lead: a fenced one is not elected)."""
        last = self.partition.last_known_elr
        return (self.elr_enabled and not self.elr and not self.isr and len(last) == 1
                and self.acceptable(last[0]))

    def elect(self) -> tuple[int, bool]:
        """-> (leader, unclean)."""
        p = self.partition
        if self.election == Election.PREFERRED:
            if self.replicas and self._valid_leader(self.replicas[0]):
                return self.replicas[0], False
            if self._valid_leader(p.leader):
                return p.leader, False
            for b in self.replicas[1:]:
                if self._valid_leader(b):
                    return b, False
        else:
            if self._valid_leader(p.leader):
                return p.leader, False
            for b in self.replicas:
                if self._valid_leader(b):
                    return b, False
        if self._last_known_leader():
            return p.last_known_elr[0], True
        if self.election == Election.UNCLEAN:
            for b in self.replicas:
                if self.acceptable(b):
                    return b, True
        return NO_LEADER, False

    # ------------------------------------------------------------------ the record
    def _complete_reassignment(self) -> None:
        if not self.removing and not self.adding:
            return
        isr, replicas = list(self.isr), self.replicas
        if self.removing:
            isr = [b for b in self.isr if b not in self.removing]
            replicas = [b for b in self.replicas if b not in self.removing]
            if not isr or not replicas:
                return
        if not set(replicas) <= set(isr):
            return
        self.isr, self.replicas, self.removing, self.adding = isr, replicas, [], []

    def _populate_elr(self) -> None:
        if not self.elr_enabled:
            return
        if len(self.isr) >= self.min_isr:
            self.elr = []
            return
        candidates = set(self.elr) | set(self.partition.isr)
        self.elr = sorted(b for b in candidates if b not in self.isr and b not in self.unclean_shutdown)

    def build(self) -> PartitionChangeRecord | None:
        p = self.partition
        rec = PartitionChangeRecord(partition_id=p.partition, topic_id=self.topic_id)
        self._complete_reassignment()
        self._populate_elr()
        leader, unclean = self.elect()
        if leader != p.leader:
            if leader in self.elr:  # elected from the ELR: it becomes the ISR
                self.isr = [leader]
                self.elr = [b for b in self.elr if b != leader]
            rec.leader = leader
            if unclean:
                rec.isr = [leader]
                if p.leader_recovery_state != RECOVERING:
                    rec.leader_recovery_state = RECOVERING
        if rec.leader == NO_LEADER_CHANGE and not set(p.replicas) <= set(self.replicas):
            rec.leader = p.leader  # a replica leaves: the leader epoch must move
        if rec.isr is not None or not self.elr_enabled:  # an unclean election clears the ELR
            self.elr = []
        if self.elr != list(p.elr):
            rec.eligible_leader_replicas = list(self.elr)
        if rec.isr is None and (self.isr or self.elr_enabled) and self.isr != list(p.isr):
            rec.isr = list(self.isr)
        self._last_known_leader_field(rec)
        if self.default_dir is not None and self.replicas:
            dirs = directories.for_replicas(p, self.replicas, self.default_dir, self.target_directories)
            if dirs != list(directories.current(p)):
                rec.directories = dirs
        if self.replicas and self.replicas != list(p.replicas):
            rec.replicas = list(self.replicas)
        if self.removing != list(p.removing_replicas):
            rec.removing_replicas = list(self.removing)
        if self.adding != list(p.adding_replicas):
            rec.adding_replicas = list(self.adding)
        if self.recovery != p.leader_recovery_state:
            rec.leader_recovery_state = self.recovery
        return None if _no_op(rec) else rec

    def _last_known_leader_field(self, rec: PartitionChangeRecord) -> None:
        """last_known_elr holds the last leader once the ISR empties (ELR only)."""
        p = self.partition
        if not self.elr_enabled:
            return
        if rec.isr is not None and not rec.isr and (len(p.last_known_elr) != 1 or p.last_known_elr[0] != p.leader):
            rec.last_known_elr = [p.leader]
        elif (rec.leader >= 0 or (p.leader != NO_LEADER and rec.leader != NO_LEADER)) and p.last_known_elr:
            rec.last_known_elr = []


def _no_op(rec: PartitionChangeRecord) -> bool:
    return (rec.isr is None and rec.eligible_leader_replicas is None and rec.last_known_elr is None
            and rec.leader == NO_LEADER_CHANGE and rec.replicas is None and rec.removing_replicas is None
            and rec.adding_replicas is None and rec.leader_recovery_state == -1 and rec.directories is None)
