"""Immutable metadata image and the delta that builds the next one (Kafka's MetadataImage/MetadataDelta).

An image is never mutated: ``MetadataDelta(image).replay(record, offset)`` collects
changes and ``.apply()`` returns a new image that shares every untouched part.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

from odradek.log.shared_values import SharedValues
from odradek.wire.messages.access_control_entry_record import AccessControlEntryRecord
from odradek.wire.messages.broker_registration_change_record import BrokerRegistrationChangeRecord
from odradek.wire.messages.clear_elr_record import ClearElrRecord
from odradek.wire.messages.client_quota_record import ClientQuotaRecord
from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.fence_broker_record import FenceBrokerRecord
from odradek.wire.messages.partition_change_record import PartitionChangeRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.producer_ids_record import ProducerIdsRecord
from odradek.wire.messages.register_broker_record import RegisterBrokerRecord
from odradek.wire.messages.remove_access_control_entry_record import RemoveAccessControlEntryRecord
from odradek.wire.messages.remove_topic_record import RemoveTopicRecord
from odradek.wire.messages.remove_user_scram_credential_record import RemoveUserScramCredentialRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.messages.unfence_broker_record import UnfenceBrokerRecord
from odradek.wire.messages.unregister_broker_record import UnregisterBrokerRecord
from odradek.wire.messages.user_scram_credential_record import UserScramCredentialRecord

from . import acls, client_quotas, producer_ids, scram

from .configs import BROKER, TOPIC
from .group_configs import GROUP

NO_LEADER, NO_LEADER_CHANGE = -1, -2
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})
_EMPTY: Mapping = MappingProxyType({})


def _empty() -> Mapping:
    return _EMPTY


def node_ids(ids) -> tuple:
    """``ids`` as a tuple, shared with every partition holding the same node ids (a broker's
    100,000 partitions have a handful of distinct replica sets and ISRs)."""
    t = tuple(ids)
    return _NODE_IDS.get(t, lambda: t)


_NODE_IDS: SharedValues[tuple, tuple] = SharedValues()


@dataclass(frozen=True, slots=True)
class PartitionImage:
    """One partition as Kafka's PartitionRegistration: replicas, ISR, leader and epochs,
    the reassignment sets and the eligible leader replicas (KIP-966). Slotted, its node id
    tuples shared (node_ids): one per partition of the cluster."""
    partition: int
    leader: int
    leader_epoch: int
    partition_epoch: int
    replicas: tuple = ()
    isr: tuple = ()
    removing_replicas: tuple = ()
    adding_replicas: tuple = ()
    elr: tuple = ()
    last_known_elr: tuple = ()
    leader_recovery_state: int = 0  # 0 RECOVERED, 1 RECOVERING (after an unclean election)
    directories: tuple = ()  # each replica's log directory id (KIP-858); () = all MIGRATING

    @property
    def in_sync(self) -> tuple:
        """The in-sync replicas (Metadata's isr_nodes)."""
        return self.isr

    @property
    def preferred_leader(self) -> int:
        return self.replicas[0] if self.replicas else -1

    def merge(self, record: PartitionChangeRecord) -> PartitionImage:
        """This partition after ``record`` (Kafka's PartitionRegistration.merge): the leader
        epoch moves exactly when the record sets a leader (-2 = no change), the partition
        epoch with every record; a null list field keeps the current value."""
        def keep(new, old):
            return old if new is None else node_ids(new)
        changes_leader = record.leader != NO_LEADER_CHANGE
        return replace(
            self,
            leader=record.leader if changes_leader else self.leader,
            leader_epoch=self.leader_epoch + 1 if changes_leader else self.leader_epoch,
            partition_epoch=self.partition_epoch + 1,
            replicas=keep(record.replicas, self.replicas),
            isr=keep(record.isr, self.isr),
            removing_replicas=keep(record.removing_replicas, self.removing_replicas),
            adding_replicas=keep(record.adding_replicas, self.adding_replicas),
            elr=keep(record.eligible_leader_replicas, self.elr),
            last_known_elr=keep(record.last_known_elr, self.last_known_elr),
            leader_recovery_state=(self.leader_recovery_state if record.leader_recovery_state == -1
                                   else record.leader_recovery_state),
            directories=_migrating_as_empty(self.directories if record.directories is None else record.directories),
        )


def _migrating_as_empty(directories) -> tuple:
    """Directories as a partition keeps them: () when each is MIGRATING (the zero uuid), as Kafka's
    PartitionRegistration reads a record without them."""
    dirs = tuple(directories or ())
    return () if all(d == bytes(16) for d in dirs) else dirs


@dataclass(frozen=True)
class TopicImage:
    """A topic in the metadata image: name, id, partitions, dynamic configs."""
    name: str
    topic_id: bytes
    partitions: Mapping[int, PartitionImage] = field(default_factory=_empty)
    configs: Mapping[str, str] = field(default_factory=_empty)  # dynamic topic overrides only

    @property
    def is_internal(self) -> bool:
        return self.name in INTERNAL_TOPICS


@dataclass(frozen=True)
class BrokerImage:
    """A registered broker in the metadata image."""
    node_id: int
    host: str
    port: int
    rack: str | None = None
    fenced: bool = False
    incarnation_id: bytes = bytes(16)
    epoch: int = -1
    in_controlled_shutdown: bool = False
    log_dirs: tuple = ()  # the ids of its log directories (KIP-858), as it registered them
    # as registered: ((listener name, host, port, security protocol), ...), the first one is host:port
    endpoints: tuple = ()
    features: tuple = ()  # ((name, min supported, max supported), ...)

    @property
    def active(self) -> bool:
        """Unfenced and not shutting down: may lead and be in an ISR (Kafka's isActive)."""
        return not self.fenced and not self.in_controlled_shutdown


_serials = itertools.count(1)


@dataclass(frozen=True)
class ImageChanges:
    """What an image changed from the one it was applied on (``base_serial``): the names of the
    topics created, changed or removed (both names of a topic id that changed name), the topics
    whose dynamic configs changed, whether any broker did. A listener told (old, new) where
    ``new.changes.base_serial == old.serial`` looks only at these (Kafka's MetadataDelta)."""
    base_serial: int
    topics: frozenset = frozenset()
    topic_configs: frozenset = frozenset()
    brokers: bool = False


@dataclass(frozen=True)
class MetadataImage:
    """The cluster's metadata as of one offset of the metadata log (immutable)."""
    topics: Mapping[str, TopicImage] = field(default_factory=_empty)
    topics_by_id: Mapping[bytes, TopicImage] = field(default_factory=_empty)
    brokers: Mapping[int, BrokerImage] = field(default_factory=_empty)
    cluster_id: str = ""
    controller_id: int = -1
    offset: int = -1
    features: Mapping[str, int] = field(default_factory=_empty)
    # dynamic broker configs: "" = cluster default, str(node_id) = per broker
    broker_configs: Mapping[str, Mapping[str, str]] = field(default_factory=_empty)
    # dynamic topic configs by topic name (kept apart from topics, as Kafka's ConfigurationsImage)
    topic_configs: Mapping[str, Mapping[str, str]] = field(default_factory=_empty)
    # dynamic group configs (resource type GROUP, 32) by group id
    group_configs: Mapping[str, Mapping[str, str]] = field(default_factory=_empty)
    # client quotas: entity ((type, name|None), ...) -> {key: value} (see client_quotas.py)
    client_quotas: Mapping[tuple, Mapping[str, float]] = field(default_factory=_empty)
    # SCRAM credentials: (user, mechanism) -> scram.ScramCredential
    scram_credentials: Mapping[tuple, object] = field(default_factory=_empty)
    # ACLs: id -> acls.AclBinding (AccessControlEntryRecord)
    acls: Mapping[bytes, object] = field(default_factory=_empty)
    next_producer_id: int = -1  # the first id of the next producer id block (ProducerIdsRecord); -1: none yet
    # what this image changed from the one it came from (MetadataDelta.apply), None: not known
    changes: ImageChanges | None = field(default=None, compare=False, repr=False)
    # this image's identity for ImageChanges.base_serial (a replace() gets a new one)
    serial: int = field(default_factory=lambda: next(_serials), init=False, compare=False, repr=False)

    def topic_by_id(self, topic_id: bytes) -> TopicImage | None:
        return self.topics_by_id.get(topic_id)


def _freeze(d: dict) -> Mapping:
    return MappingProxyType(d)


@dataclass
class MetadataDelta:
    """Changes on top of ``base``; replay records in log order, then apply()."""

    base: MetadataImage
    topics: dict[bytes, TopicImage | None] = field(default_factory=dict)  # None = removed
    brokers: dict[int, BrokerImage | None] = field(default_factory=dict)  # None = unregistered
    features: dict[str, int] = field(default_factory=dict)
    broker_configs: dict[str, dict[str, str]] = field(default_factory=dict)
    topic_configs: dict[str, dict[str, str]] = field(default_factory=dict)
    group_configs: dict[str, dict[str, str]] = field(default_factory=dict)
    client_quotas: dict | None = None  # copy of the base's, made on the first quota record
    scram_credentials: dict | None = None
    acls: dict | None = None
    next_producer_id: int | None = None
    offset: int = -1
    # topic id -> the partitions dict of self.topics[topic id], owned by this delta (filled in
    # place: a topic's N partition records cost N inserts, not N copies of the topic)
    _parts: dict = field(default_factory=dict, repr=False)

    def _topic(self, topic_id: bytes) -> TopicImage | None:
        if topic_id in self.topics:
            return self.topics[topic_id]
        return self.base.topics_by_id.get(topic_id)

    def _topic_by_name(self, name: str) -> TopicImage | None:
        for t in self.topics.values():
            if t is not None and t.name == name:
                return t
        t = self.base.topics.get(name)
        if t is not None and self.topics.get(t.topic_id, t) is None:
            return None
        return t

    def _broker(self, node_id: int) -> BrokerImage | None:
        if node_id in self.brokers:
            return self.brokers[node_id]
        return self.base.brokers.get(node_id)

    def _put_partition(self, t: TopicImage, p: PartitionImage) -> None:
        parts = self._parts.get(t.topic_id)
        if parts is None or self.topics.get(t.topic_id) is not t:
            parts = self._parts[t.topic_id] = dict(t.partitions)
            t = self.topics[t.topic_id] = replace(t, partitions=_freeze(parts))
        parts[p.partition] = p

    def replay(self, record, offset: int) -> None:
        self.offset = offset
        if isinstance(record, TopicRecord):
            self.topics[record.topic_id] = TopicImage(record.name, record.topic_id)
        elif isinstance(record, PartitionRecord):
            t = self._topic(record.topic_id)
            if t is None:
                raise ValueError(f"PartitionRecord for unknown topic id {record.topic_id.hex()}")
            p = PartitionImage(record.partition_id, record.leader, record.leader_epoch, record.partition_epoch,
                               node_ids(record.replicas), node_ids(record.isr), tuple(record.removing_replicas),
                               tuple(record.adding_replicas), tuple(record.eligible_leader_replicas or ()),
                               tuple(record.last_known_elr or ()), record.leader_recovery_state,
                               _migrating_as_empty(record.directories))
            self._put_partition(t, p)
        elif isinstance(record, PartitionChangeRecord):
            t = self._topic(record.topic_id)
            if t is None or record.partition_id not in t.partitions:
                raise ValueError("PartitionChangeRecord for unknown partition")
            self._put_partition(t, t.partitions[record.partition_id].merge(record))
        elif isinstance(record, RemoveTopicRecord):
            t = self._topic(record.topic_id)
            if t is not None:
                self.topic_configs[t.name] = {}
            self.topics[record.topic_id] = None
        elif isinstance(record, ConfigRecord):
            self._replay_config(record)
        elif isinstance(record, RegisterBrokerRecord):
            ep = record.end_points[0] if record.end_points else None
            self.brokers[record.broker_id] = BrokerImage(
                record.broker_id, ep.host if ep else "", ep.port if ep else 0, record.rack or None,
                bool(record.fenced), record.incarnation_id, record.broker_epoch, bool(record.in_controlled_shutdown),
                tuple(record.log_dirs or ()),
                tuple((e.name, e.host, e.port, e.security_protocol) for e in record.end_points),
                tuple((f.name, f.min_supported_version, f.max_supported_version) for f in record.features))
        elif isinstance(record, UnfenceBrokerRecord):
            b = self._broker(record.id)
            if b is not None:
                self.brokers[record.id] = replace(b, fenced=False)
        elif isinstance(record, FenceBrokerRecord):
            b = self._broker(record.id)
            if b is not None:
                self.brokers[record.id] = replace(b, fenced=True)
        elif isinstance(record, UnregisterBrokerRecord):
            if self._broker(record.broker_id) is not None:
                self.brokers[record.broker_id] = None
        elif isinstance(record, BrokerRegistrationChangeRecord):
            b = self._broker(record.broker_id)
            if b is not None:
                # fenced: 1 = fence, -1 = unfence, 0 = no change (BrokerRegistrationFencingChange);
                # in_controlled_shutdown: 1 = entered it, 0 = no change
                fenced = b.fenced if record.fenced not in (1, -1) else record.fenced == 1
                shutting_down = b.in_controlled_shutdown or record.in_controlled_shutdown == 1
                # log_dirs: the broker's directories now (a directory went offline), if any
                log_dirs = tuple(record.log_dirs) if record.log_dirs else b.log_dirs
                self.brokers[record.broker_id] = replace(b, fenced=fenced, in_controlled_shutdown=shutting_down,
                                                         log_dirs=log_dirs)
        elif isinstance(record, FeatureLevelRecord):
            self.features[record.name] = record.feature_level
        elif isinstance(record, ClearElrRecord):
            self._clear_elr(record.topic_name)
        elif isinstance(record, ClientQuotaRecord):
            if self.client_quotas is None:
                self.client_quotas = dict(self.base.client_quotas)
            client_quotas.replay(self.client_quotas, record)
        elif isinstance(record, (UserScramCredentialRecord, RemoveUserScramCredentialRecord)):
            if self.scram_credentials is None:
                self.scram_credentials = dict(self.base.scram_credentials)
            scram.replay(self.scram_credentials, record)
        elif isinstance(record, (AccessControlEntryRecord, RemoveAccessControlEntryRecord)):
            if self.acls is None:
                self.acls = dict(self.base.acls)
            acls.replay(self.acls, record)
        elif isinstance(record, ProducerIdsRecord):
            current = self.base.next_producer_id if self.next_producer_id is None else self.next_producer_id
            self.next_producer_id = producer_ids.replay(current, record)
        # other record types carry nothing this image keeps (Kafka's broker replays them into
        # images odradek has no use for: NoOpRecord, RegisterControllerRecord,
        # delegation token / ZK migration records); a transaction's markers are the
        # Controller's (Begin/End/AbortTransactionRecord)

    def _clear_elr(self, topic_name: str) -> None:
        """ClearElrRecord: the named topic's partitions (every topic's for an empty name) lose their
        ELR and last known ELR, each as a PartitionChangeRecord setting both empty (Kafka's TopicsDelta)."""
        if topic_name:
            t = self._topic_by_name(topic_name)
            if t is None:
                raise ValueError(f"ClearElrRecord for unknown topic {topic_name}")
            topics = [t]
        else:
            names = {t.name for t in self.topics.values() if t is not None} | set(self.base.topics)
            topics = [t for n in sorted(names) if (t := self._topic_by_name(n)) is not None]
        for t in topics:
            for p in list(self._topic(t.topic_id).partitions.values()):
                if p.elr or p.last_known_elr:
                    change = PartitionChangeRecord(partition_id=p.partition, topic_id=t.topic_id,
                                                   eligible_leader_replicas=[], last_known_elr=[])
                    self._put_partition(self._topic(t.topic_id), p.merge(change))

    def _replay_config(self, record: ConfigRecord) -> None:
        if record.resource_type == TOPIC:
            store, base = self.topic_configs, self.base.topic_configs
        elif record.resource_type == BROKER:
            store, base = self.broker_configs, self.base.broker_configs
        elif record.resource_type == GROUP:
            store, base = self.group_configs, self.base.group_configs
        else:
            return
        cur = store.get(record.resource_name)
        if cur is None:
            cur = store[record.resource_name] = dict(base.get(record.resource_name, {}))
        if record.value is None:
            cur.pop(record.name, None)
        else:
            cur[record.name] = record.value

    def apply(self, *, cluster_id: str | None = None, controller_id: int | None = None) -> MetadataImage:
        self._parts = {}  # the new image owns the dicts now: a later replay copies them again
        b = self.base
        changed_names = set()
        for tid, t in self.topics.items():
            old = b.topics_by_id.get(tid)
            if old is not None:
                changed_names.add(old.name)
            if t is not None:
                changed_names.add(t.name)
        changes = ImageChanges(b.serial, frozenset(changed_names), frozenset(self.topic_configs),
                               bool(self.brokers))
        topics, by_id = b.topics, b.topics_by_id
        tcfg = _merge_configs(b.topic_configs, self.topic_configs)
        if self.topics or self.topic_configs:
            # (one copy of the name and id maps per delta, C speed; each changed topic is then put)
            topics, by_id = dict(b.topics), dict(b.topics_by_id)
            for tid, t in self.topics.items():
                old = by_id.pop(tid, None)
                if old is not None:
                    topics.pop(old.name, None)
                if t is not None:
                    topics[t.name] = t
                    by_id[tid] = t
            names = {t.name for t in self.topics.values() if t is not None} | set(self.topic_configs)
            for name in names:
                t = topics.get(name)
                if t is not None:
                    cfg = tcfg.get(name, _EMPTY)
                    if dict(t.configs) != dict(cfg):
                        t = replace(t, configs=cfg)
                        topics[name] = by_id[t.topic_id] = t
            topics, by_id = _freeze(topics), _freeze(by_id)
        brokers = b.brokers
        if self.brokers:
            brokers = _freeze({k: v for k, v in {**b.brokers, **self.brokers}.items() if v is not None})
        features = b.features
        if self.features:
            features = _freeze({k: v for k, v in {**b.features, **self.features}.items() if v > 0})
        bcfg = _merge_configs(b.broker_configs, self.broker_configs)
        return MetadataImage(
            topics=topics,
            topics_by_id=by_id,
            brokers=brokers,
            cluster_id=b.cluster_id if cluster_id is None else cluster_id,
            controller_id=b.controller_id if controller_id is None else controller_id,
            offset=max(b.offset, self.offset),
            features=features,
            broker_configs=bcfg,
            topic_configs=tcfg,
            group_configs=_merge_configs(b.group_configs, self.group_configs),
            client_quotas=b.client_quotas if self.client_quotas is None else _freeze(self.client_quotas),
            scram_credentials=(b.scram_credentials if self.scram_credentials is None
                               else _freeze(self.scram_credentials)),
            acls=b.acls if self.acls is None else _freeze(self.acls),
            next_producer_id=b.next_producer_id if self.next_producer_id is None else self.next_producer_id,
            changes=changes,
        )


def _merge_configs(base: Mapping, changed: dict) -> Mapping:
    if not changed:
        return base
    merged = dict(base)
    for k, v in changed.items():
        if v:
            merged[k] = _freeze(dict(v))
        else:
            merged.pop(k, None)
    return _freeze(merged)
