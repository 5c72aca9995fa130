"""The controller's decisions: pure functions of (image, request) -> ControllerResult.

A ``Decisions`` is one metadata image plus what a decision may read besides the
request (this node's id, its static broker defaults, an id source); each public
method maps one request to the records it would write and the response to give
(Kafka's ControllerResult). Nothing here writes, waits or commits: the driver
(controller.Controller, locally or through the Raft quorum) does that.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from collections import ChainMap
from typing import Callable, Generator, Mapping, Sequence

from odradek.java_numbers import parse_int
from odradek.log.config import ConfigError, validate_properties
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.broker_registration_change_record import BrokerRegistrationChangeRecord
from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.register_broker_record import BrokerEndpoint, BrokerFeature, RegisterBrokerRecord
from odradek.wire.messages.remove_topic_record import RemoveTopicRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.messages.unfence_broker_record import UnfenceBrokerRecord
from odradek.wire.messages.unregister_broker_record import UnregisterBrokerRecord
from odradek.wire.uuid import ZERO_UUID

from . import configs as C
from . import directories
from . import elr_configs as ELR
from . import features
from . import group_configs as GC
from .broker_reconfiguration import check_reconfiguration
from .configs import BROKER, TOPIC, ConfigView, InvalidConfig
from .image import MetadataImage, TopicImage
from .placement import InvalidReplicationFactor, UsableBroker, place
from .replication_control import ElectionResult, IsrResult, Refused, ReplicationControl, then
from .result import MAX_RECORDS_PER_USER_OP, TOO_LARGE, ControllerResult, Refusal
from .steps import CHANGE_UNITS, CONFIG_CHECK_UNITS, StepBudget, whole
from .topic_validation import invalid_topic_name, unify_collision_chars

# a config resource named twice in one (Incremental)AlterConfigs: Kafka's broker listener
# (ConfigAdminManager.preprocess), its controller listener (ControllerApis)
DUPLICATE_RESOURCE = "Each resource must appear at most once."
CONTROLLER_DUPLICATE_RESOURCE = "Duplicate resource."
MAX_PARTITIONS_PER_REQUEST = 10000  # Kafka's ReplicationControlManager.MAX_PARTITIONS_PER_BATCH
_TOO_MANY_PARTITIONS = "Excessively large number of partitions per request."
_TOO_MANY_RECORDS = TOO_LARGE.message
# a reassignment refused before its change is built (a step's cheap unit)
_REFUSED_BEFORE_CHANGE = (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NO_REASSIGNMENT_IN_PROGRESS)
DECISION_STEP_RECORDS = 200  # create_topics_steps: the records decided between two yields (~2 ms)

# colliding_names of the last image asked: [its serial, {unified name: {names}}]
_COLLIDING: list = [None, {}]


def colliding_names(image: MetadataImage) -> Mapping[str, frozenset]:
    """{unify_collision_chars(name): the names of that form} over the image's topics whose name has
    '.' or '_' (only those can collide; Kafka's topicsWithCollisionChars), read-only. Kept from the
    last image asked, moved forward by the topics an image says it changed (ImageChanges), so that
    a CreateTopics (each of its steps) makes no pass over every topic; rebuilt for any other image."""
    serial, names = _COLLIDING
    if serial != image.serial:
        ch = image.changes
        if ch is not None and ch.base_serial == serial:
            for name in ch.topics:
                if "." not in name and "_" not in name:
                    continue
                u = unify_collision_chars(name)
                have = names.get(u, frozenset())
                now = have | {name} if name in image.topics else have - {name}
                if now:
                    names[u] = now
                else:
                    names.pop(u, None)
        else:
            names = {}
            for n in image.topics:
                if "." in n or "_" in n:
                    u = unify_collision_chars(n)
                    names[u] = names.get(u, frozenset()) | {n}
        _COLLIDING[:] = [image.serial, names]
    return names

# IncrementalAlterConfigs operations
OP_SET, OP_DELETE, OP_APPEND, OP_SUBTRACT = 0, 1, 2, 3
_OP_NAME = {OP_APPEND: "APPEND", OP_SUBTRACT: "SUBTRACT"}

@dataclass
class CreateTopicSpec:
    """One topic of a CreateTopics request (or of an auto-creation)."""
    name: str
    num_partitions: int = -1
    replication_factor: int = -1
    assignments: dict[int, list[int]] | None = None
    configs: dict[str, str | None] = field(default_factory=dict)
    internal: bool = False  # created by the broker itself (__consumer_offsets, ...)


@dataclass
class CreateTopicResult:
    """CreateTopics' answer for one topic."""
    name: str
    error_code: int
    error_message: str | None = None
    topic_id: bytes = ZERO_UUID
    num_partitions: int = -1
    replication_factor: int = -1
    configs: Sequence[ConfigView] = ()  # (a refused request's 10,000 results: no list each)


@dataclass
class DescribedResource:
    """DescribeConfigs' answer for one resource."""
    resource_type: int
    resource_name: str
    error_code: int
    error_message: str | None
    configs: list[ConfigView] = field(default_factory=list)


@dataclass
class AlterResult:
    """(Incremental)AlterConfigs' answer for one resource."""
    resource_type: int
    resource_name: str
    error_code: int
    error_message: str | None = None


@dataclass
class BrokerRegistration:
    """A BrokerRegistration request as the controller decides it."""
    broker_id: int
    incarnation_id: bytes
    listeners: list[tuple[str, str, int, int]]  # (name, host, port, security protocol)
    features: dict[str, tuple[int, int]]  # name -> (min, max) supported
    rack: str | None = None
    cluster_id: str | None = None  # checked against the image's when given
    previous_broker_epoch: int = -1  # the epoch it shut down cleanly in (-1: unknown, so unclean)
    log_dirs: tuple = ()  # the ids of its log directories (KIP-858)


@dataclass
class HeartbeatReply:
    """The controller's answer to a BrokerHeartbeat."""
    error_code: int
    is_caught_up: bool = False
    is_fenced: bool = True
    in_controlled_shutdown: bool = False
    should_shut_down: bool = False


class _Fail(Exception):
    """A refused entry of a request. ``broker_side``, for a config change: whether Kafka's broker
    answers it before forwarding the resource to the controller (ConfigAdminManager.preprocess: a
    resource's duplicate keys or null values, and anything wrong with a broker's); None: as the
    resource's type says (_answered_by_broker)."""

    def __init__(self, code: int, message: str | None, broker_side: bool | None = None):
        super().__init__(message)
        self.code = int(code)
        self.message = message
        self.broker_side = broker_side


def _answered_by_broker(rtype: int, f: _Fail) -> bool:
    """Whether Kafka's broker, not its controller, refuses this config change (ConfigAdminManager.
    preprocess): it keeps its error when the controller fails the rest of the request."""
    if f.broker_side is not None:
        return f.broker_side
    return rtype not in (TOPIC, GC.GROUP)


@dataclass(frozen=True)
class Env:
    """What a decision reads besides the image and the request."""
    node_id: int
    defaults: Mapping[str, str]  # static broker properties (BrokerConfig.controller_defaults())
    new_uuid: Callable[[], bytes]  # topic ids; never the zero uuid
    rng: random.Random = field(default_factory=random.Random)  # replica placement (seeded in a simulation)
    quorum: bool = False  # a KRaft quorum's controller: any broker's per-broker configs are altered here


class Decisions:
    def __init__(self, env: Env, image: MetadataImage):
        self.env = env
        self.node_id = env.node_id
        self.defaults = env.defaults
        self.image = image
        self._layers_of_image = None  # (_layers: made once per Decisions, whose image does not change)

    def _static_broker(self) -> dict[str, str]:
        """Static broker properties that feed topic configs, by broker name.

        ``defaults`` may carry broker names (log.retention.hours) or topic names
        (retention.ms, what BrokerConfig.topic_defaults() gives); a topic-named value
        equal to Kafka's default is not reported as set, so sources match Kafka's.
        """
        static = {}
        for k, v in self.defaults.items():
            if k in C.BROKER_SYNONYMS:
                static[k] = v
        for k, v in self.defaults.items():
            d = C.TOPIC_CONFIGS.get(k)
            if d is None or not d.synonyms or any(s.name in static for s in d.synonyms):
                continue
            try:
                if d.validate(v) == d.validate(d.default):
                    continue
            except InvalidConfig:
                continue
            static[d.synonyms[0].name] = v
        # a broker property at its own default is not "set" either
        return {k: v for k, v in static.items() if k not in self.defaults or C.broker_default(k) != v}

    def update_features(self, updates) -> ControllerResult:
        """UpdateFeatures: updates [(name, level, upgrade_type)] -> None or (error_code, message). An update
        of eligible.leader.replicas.version to 1 or more is preceded by the records that make ELR safe
        (elr_configs.safety_records)."""
        records, error = features.decide_updates(self.image.features, updates, self.node_id)
        if error is None and any(name == ELR.ELR_FEATURE and level > 0 for name, level, _ in updates):
            records = ELR.safety_records(self.image.broker_configs, self.defaults.get(ELR.MIN_ISR, "1")) + records
        return ControllerResult(records, error)

    def _layers(self):
        if self._layers_of_image is None:
            static = self._static_broker()
            bc = self.image.broker_configs
            self._layers_of_image = C.broker_layers(static, dict(bc.get("", {})), dict(bc.get(str(self.node_id), {})))
        return self._layers_of_image

    def _check_effective(self, overrides: dict[str, str], layers=None) -> None:
        """Validate a topic's resulting effective config with the log's own parser
        (odradek.log.config) before any record is written: INVALID_CONFIG otherwise."""
        try:
            eff = C.effective_topic_config(overrides, layers if layers is not None else self._layers())
            validate_properties(eff)
        except ConfigError as e:
            raise _Fail(ErrorCode.INVALID_CONFIG, e.kafka_message()) from None
        except (TypeError, ValueError) as e:  # a broker synonym that does not scale
            raise _Fail(ErrorCode.INVALID_CONFIG, str(e)) from None

    def topic_config(self, name: str) -> dict[str, str]:
        """Effective config of a topic (overrides over broker defaults), Kafka names."""
        t = self.image.topics.get(name)
        overrides = dict(t.configs) if t is not None else {}
        return C.effective_topic_config(overrides, self._layers())

    def topic_config_value(self, name: str, key: str) -> str | None:
        """One effective config of a topic, resolved alone (topic_config resolves them all)."""
        t = self.image.topics.get(name)
        return C.resolve_topic_config(C.TOPIC_CONFIGS[key], dict(t.configs) if t is not None else {},
                                      self._layers()).value

    def topic_config_views(self, overrides: dict[str, str], synonyms: bool = False, layers=None) -> list[ConfigView]:
        if layers is None:
            layers = self._layers()
        out = []
        for name in sorted(C.TOPIC_CONFIGS):
            v = C.resolve_topic_config(C.TOPIC_CONFIGS[name], overrides, layers)
            if not synonyms:
                v = ConfigView(v.name, v.value, v.read_only, v.config_source, v.is_sensitive, (), v.config_type)
            out.append(v)
        return out

    def _default_int(self, name: str, fallback: int) -> int:
        try:
            return int(self.defaults.get(name, fallback))
        except ValueError:
            return fallback

    def _check_assignment(self, replicas: list[int], rf: int | None) -> None:
        """Kafka's validateManualPartitionAssignment: brokers checked in sorted order."""
        if not replicas:
            raise _Fail(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes an empty replica list.")
        prev = None
        for b in sorted(replicas):
            if b not in self.image.brokers:
                raise _Fail(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                            f"The manual partition assignment includes broker {b}, but no such broker is "
                            "registered.")
            if b == prev:
                raise _Fail(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                            f"The manual partition assignment includes the broker {b} more than once.")
            prev = b
        if rf is not None and len(replicas) != rf:
            raise _Fail(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        f"The manual partition assignment includes a partition with {len(replicas)} replica(s), "
                        f"but this is not consistent with previous partitions, which have {rf} replica(s).")

    def _active_isr(self, replicas: list[int], code: int, refusal: str) -> list[int]:
        """A new partition's ISR: its replicas that are unfenced and not shutting down; none
        of them is refused with ``code`` and ``refusal``."""
        brokers = self.image.brokers
        isr = [b for b in replicas if b in brokers and brokers[b].active]
        if not isr:
            raise _Fail(code, refusal)
        return isr

    def _manual_isr(self, replicas: list[int], partition: int) -> list[int]:
        return self._active_isr(replicas, ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                f"All brokers specified in the manual partition assignment for partition {partition} "
                                "are fenced or in controlled shutdown.")

    def _place(self, count: int, rf: int) -> list[list[int]]:
        """Kafka's StripedReplicaPlacer over the usable brokers (not in controlled shutdown)."""
        usable = [UsableBroker(b.node_id, b.rack, b.fenced) for b in self.image.brokers.values()
                  if not b.in_controlled_shutdown]
        return place(usable, count, rf, self.env.rng)

    def _placed_isr(self, replicas: list[int], rf: int) -> list[int]:
        return self._active_isr(replicas, ErrorCode.INVALID_REPLICATION_FACTOR,
                                f"Unable to replicate the partition {rf} time(s): All brokers are currently fenced or "
                                "in controlled shutdown.")

    def _partition_record(self, topic_id: bytes, partition: int, replicas: list[int],
                          isr: list[int]) -> PartitionRecord:
        rec = PartitionRecord(partition_id=partition, topic_id=topic_id, replicas=list(replicas),
                              isr=list(isr), removing_replicas=[], adding_replicas=[],
                              leader=isr[0], leader_epoch=0, partition_epoch=0,
                              eligible_leader_replicas=[], last_known_elr=[])
        if directories.supported(self.image):
            rec.directories = [directories.default_dir(self.image.brokers.get(r)) for r in replicas]
        return rec

    # ------------------------------------------------------------------ topics

    def create_topics(self, specs: list[CreateTopicSpec]) -> ControllerResult[list[CreateTopicResult]]:
        """As Kafka's ReplicationControlManager.createTopics. A request whose topics ask for more
        than 10,000 partitions in all, or whose records would pass 10,000 (Kafka's BoundedList
        of one operation), is refused whole with POLICY_VIOLATION: the first before any
        validation or placement, the second as soon as the records pass the bound."""
        return whole(self.create_topics_steps(specs))

    def create_topics_steps(self, specs: list[CreateTopicSpec], step_records: int = DECISION_STEP_RECORDS,
                            write: bool = True) -> Generator[None, None, ControllerResult[list[CreateTopicResult]]]:
        """create_topics a part at a time: yields after every ``step_records`` records decided (a
        caller that must not hold its thread for a whole large request serves others meanwhile)
        and returns the ControllerResult. Decided over this Decisions' image throughout. Without
        ``write`` (a decision only: validate_only, or the pass before a stepped creation) the
        records are counted, not made: the same answer, with no records (a refused 10,000-topic
        request made ~45,000 objects of records for nothing, each full garbage collection
        meanwhile walking them all)."""
        results: dict[str, CreateTopicResult] = {}
        counts: dict[str, int] = {}
        for s in specs:
            counts[s.name] = counts.get(s.name, 0) + 1
        unique = [s for s in specs if counts[s.name] == 1]  # Kafka's ControllerApis drops the duplicates
        if self._requested_partitions(unique) > MAX_PARTITIONS_PER_REQUEST:
            yield
            return (yield from self._refuse_create(specs, _TOO_MANY_PARTITIONS, step_records))
        if len(specs) > step_records:
            yield  # (the passes above over a large request are a step of their own)
        records: list = []
        counted = 0  # the records of the topics decided so far
        next_yield = step_records
        # the existing names by their unified form, and those this request adds (looked up first)
        existing_unified = ChainMap({}, colliding_names(self.image))
        configs = _TopicConfigs(self)
        elr = ELR.elr_enabled(self.image.features)
        for s in specs:
            if s.name in results:
                continue
            if counts[s.name] > 1:
                results[s.name] = CreateTopicResult(s.name, ErrorCode.INVALID_REQUEST, "Duplicate topic name.")
                continue
            try:
                res, overrides, placement = self._create_topic(s, existing_unified, configs)
            except _Fail as f:
                results[s.name] = CreateTopicResult(s.name, f.code, f.message)
                continue
            counted += 1 + len(overrides) + len(placement) + (elr and ELR.MIN_ISR in overrides)
            if counted > MAX_RECORDS_PER_USER_OP:
                results.clear()  # (not kept through the refusal's steps)
                return (yield from self._refuse_create(specs, _TOO_MANY_RECORDS, step_records))
            if write:
                records += self._topic_records(res.topic_id, s.name, overrides, placement, elr)
            if "." in s.name or "_" in s.name:
                existing_unified[unify_collision_chars(s.name)] = frozenset((s.name,))
            results[s.name] = res
            if counted >= next_yield:
                next_yield = counted + step_records
                yield
        return ControllerResult(records, list(results.values()))

    def _requested_partitions(self, specs: list[CreateTopicSpec]) -> int:
        """Kafka's validateTotalNumberOfPartitions: the partitions a request asks for, valid or not
        (an assignment's size, else the count, num.partitions for -1, nothing for one below -1)."""
        total = 0
        default = None
        for s in specs:
            if s.assignments:
                total += len(s.assignments)
            elif s.num_partitions == -1:
                if default is None:
                    default = self._default_int("num.partitions", 1)
                total += default
            elif s.num_partitions > 0:
                total += s.num_partitions
        return total

    @staticmethod
    def _refuse_create(specs: list[CreateTopicSpec], message: str, step: int
                       ) -> Generator[None, None, ControllerResult]:
        """Every topic of the request refused with POLICY_VIOLATION (Kafka's CreateTopicsRequest
        getErrorResponse for the failed controller operation); nothing written. Yields after every
        ``step`` x 4 results (10,000 of them take ~40 ms)."""
        names = list(dict.fromkeys(s.name for s in specs))
        refused = []
        for i in range(0, len(names), step * 4):
            refused += [CreateTopicResult(n, ErrorCode.POLICY_VIOLATION, message) for n in names[i:i + step * 4]]
            yield
        return ControllerResult([], refused)

    def _create_topic(self, s: CreateTopicSpec, existing_unified: Mapping[str, frozenset],
                      configs: "_TopicConfigs"):
        msg = invalid_topic_name(s.name)
        if msg:
            raise _Fail(ErrorCode.INVALID_TOPIC_EXCEPTION, msg)
        if s.name in self.image.topics:
            raise _Fail(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{s.name}' already exists.")
        overrides: dict[str, str] = {}
        for k, v in (s.configs or {}).items():
            if v is None:
                raise _Fail(ErrorCode.INVALID_CONFIG, f"Null value not supported for topic configs: {k}")
            d = C.TOPIC_CONFIGS.get(k)
            if d is None:
                raise _Fail(ErrorCode.INVALID_CONFIG, f"Unknown topic config name: {k}")
            try:
                d.validate(v)
            except InvalidConfig as e:
                raise _Fail(ErrorCode.INVALID_CONFIG, str(e)) from None
            overrides[k] = v
        views = configs.views(overrides)
        other = next(iter(sorted(existing_unified.get(unify_collision_chars(s.name), frozenset()) - {s.name})), None) \
            if "." in s.name or "_" in s.name else None
        if other is not None:
            raise _Fail(ErrorCode.INVALID_TOPIC_EXCEPTION, f"Topic '{s.name}' collides with existing topic: {other}")
        if s.assignments:
            if s.replication_factor != -1:
                raise _Fail(ErrorCode.INVALID_REQUEST,
                            "A manual partition assignment was specified, but replication factor was not set to -1.")
            if s.num_partitions != -1:
                raise _Fail(ErrorCode.INVALID_REQUEST,
                            "A manual partition assignment was specified, but numPartitions was not set to -1.")
            parts: dict[int, tuple[list[int], list[int]]] = {}
            rf = None
            for p, replicas in s.assignments.items():
                replicas = list(replicas)
                self._check_assignment(replicas, rf)
                rf = len(replicas)
                parts[p] = (replicas, self._manual_isr(replicas, p))
            if sorted(parts) != list(range(len(parts))):
                raise _Fail(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                            "partitions should be a consecutive 0-based integer sequence")
            placement = [parts[p] for p in range(len(parts))]
            num_partitions = len(placement)
        else:
            if s.replication_factor < -1 or s.replication_factor == 0:
                raise _Fail(ErrorCode.INVALID_REPLICATION_FACTOR,
                            "Replication factor must be larger than 0, or -1 to use the default value.")
            if s.num_partitions < -1 or s.num_partitions == 0:
                raise _Fail(ErrorCode.INVALID_PARTITIONS,
                            "Number of partitions was set to an invalid non-positive value.")
            num_partitions = (self._default_int("num.partitions", 1) if s.num_partitions == -1
                              else s.num_partitions)
            rf = (self._default_int("default.replication.factor", 1) if s.replication_factor == -1
                  else s.replication_factor)
            try:
                replica_sets = self._place(num_partitions, rf)
            except InvalidReplicationFactor as e:
                raise _Fail(ErrorCode.INVALID_REPLICATION_FACTOR,
                            f"Unable to replicate the partition {rf} time(s): {e}") from None
            placement = [(r, self._placed_isr(r, rf)) for r in replica_sets]
        topic_id = self.env.new_uuid()
        res = CreateTopicResult(s.name, ErrorCode.NONE, None, topic_id, num_partitions, rf, views)
        return res, overrides, placement

    def _topic_records(self, topic_id: bytes, name: str, overrides: dict[str, str],
                       placement: list[tuple[list[int], list[int]]], elr: bool) -> list:
        """A decided topic's records: TopicRecord, its ConfigRecords (with ``elr``, a min.insync.replicas
        one followed by the topic's ClearElrRecord, as Kafka's createTopics), a PartitionRecord per
        partition."""
        records: list = [TopicRecord(name=name, topic_id=topic_id)]
        configs = [ConfigRecord(resource_type=TOPIC, resource_name=name, name=k, value=v)
                   for k, v in overrides.items()]
        records += configs
        if elr:
            records += ELR.clear_elr_records(configs)
        records += [self._partition_record(topic_id, p, r, isr) for p, (r, isr) in enumerate(placement)]
        return records

    def delete_topics(self, names: list[str] | None = None, ids: list[bytes] | None = None) -> ControllerResult:
        """-> [(name, topic_id, error_code, error_message)]: errors first, then deletions (as Kafka)."""
        errors: list = []
        ok: list = []
        targets: dict[bytes, TopicImage] = {}
        names = list(names or [])
        ids = list(ids or [])
        by_name = (names, self.image.topics.get, lambda n: (n, ZERO_UUID), "Duplicate topic name.",
                   ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition.")
        by_id = (ids, self.image.topics_by_id.get, lambda i: (None, i), "Duplicate topic id.",
                 ErrorCode.UNKNOWN_TOPIC_ID, "This server does not host this topic ID.")
        for keys, find, named, duplicate, missing, missing_message in (by_name, by_id):
            counts: dict = {}
            for k in keys:
                counts[k] = counts.get(k, 0) + 1
            for k, n in counts.items():
                if n > 1:
                    errors.append((*named(k), int(ErrorCode.INVALID_REQUEST), duplicate))
                    continue
                t = find(k)
                if t is None:
                    errors.append((*named(k), int(missing), missing_message))
                    continue
                targets[t.topic_id] = t
        removed = list(targets.values())
        # Kafka's BoundedList of one operation: the topics past 10,000 records fail (UNKNOWN_SERVER_ERROR,
        # no message), the others are deleted (a DeleteTopics of 10,001 topics on Kafka 4.3: 10,000 deleted)
        for t in removed[MAX_RECORDS_PER_USER_OP:]:
            errors.append((t.name, t.topic_id, int(ErrorCode.UNKNOWN_SERVER_ERROR), None))
        removed = removed[:MAX_RECORDS_PER_USER_OP]
        for t in removed:
            ok.append((t.name, t.topic_id, 0, None))
        return ControllerResult([RemoveTopicRecord(topic_id=t.topic_id) for t in removed], errors + ok)

    def create_partitions(self, items) -> ControllerResult[list[tuple] | Refusal]:
        """items: [(name, new_total_count, assignments | None)] -> [(name, error_code, error_message)].
        Bounded as Kafka 4.3's createPartitions, whose records and results are BoundedLists of
        MAX_RECORDS_PER_USER_OP: a topic whose new partitions pass the records' bound fails with
        UNKNOWN_SERVER_ERROR (no message), the partitions that fit still written (its catch of the
        overflow keeps what was added); more topics than the bound refuse the request whole (TOO_LARGE).
        The topics are taken in request order (Kafka's ControllerApis hands them over in the order of
        a HashSet of their names: which of several topics meets the bound follows Java's hashing)."""
        counts: dict[str, int] = {}
        for name, _, _ in items:
            counts[name] = counts.get(name, 0) + 1
        if sum(1 for n in counts.values() if n == 1) > MAX_RECORDS_PER_USER_OP:
            return ControllerResult([], TOO_LARGE)  # (Kafka's ControllerApis answers duplicates before)
        results: dict[str, tuple] = {}
        records: list = []
        for name, count, assignments in items:
            if name in results:
                continue
            if counts[name] > 1:
                results[name] = (name, int(ErrorCode.INVALID_REQUEST), "Duplicate topic name.")
                continue
            try:
                new = self._create_partitions(name, count, assignments)
            except _Fail as f:
                results[name] = (name, f.code, f.message)
                continue
            room = MAX_RECORDS_PER_USER_OP - len(records)
            records += new[:room]
            results[name] = (name, 0, None) if len(new) <= room else (name, int(ErrorCode.UNKNOWN_SERVER_ERROR), None)
        return ControllerResult(records, list(results.values()))

    def _create_partitions(self, name: str, count: int, assignments) -> list:
        t = self.image.topics.get(name)
        if t is None:
            raise _Fail(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None)
        current = len(t.partitions)
        if count < current:
            raise _Fail(ErrorCode.INVALID_PARTITIONS,
                        f"The topic {name} currently has {current} partition(s); {count} would not be an increase.")
        if count == current:
            raise _Fail(ErrorCode.INVALID_PARTITIONS, f"Topic already has {current} partition(s).")
        add = count - current
        if assignments is not None and len(assignments) != add:
            raise _Fail(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        f"Attempted to add {add} additional partition(s), but only {len(assignments)} "
                        "assignment(s) were specified.")
        rf = len(next(iter(t.partitions.values())).replicas)  # as Kafka: the topic's first partition
        if assignments is not None:
            placement = []
            for i, replicas in enumerate(assignments):
                self._check_assignment(list(replicas), rf)
                placement.append((list(replicas), self._manual_isr(list(replicas), current + i)))
        else:
            try:
                placement = [(r, self._placed_isr(r, rf)) for r in self._place(add, rf)]
            except InvalidReplicationFactor as e:
                raise _Fail(ErrorCode.INVALID_REPLICATION_FACTOR, str(e)) from None
        return [self._partition_record(t.topic_id, current + i, r, isr) for i, (r, isr) in enumerate(placement)]

    # ------------------------------------------------------------------ configs

    def describe_configs(self, resources, include_synonyms: bool = False,
                         include_documentation: bool = False) -> list[DescribedResource]:
        """resources: [(resource_type, resource_name, keys | None)]."""
        out = []
        for rtype, name, keys in resources:
            try:
                views = self._describe_one(rtype, name, include_synonyms, include_documentation)
            except _Fail as f:
                out.append(DescribedResource(rtype, name, f.code, f.message))
                continue
            if keys is not None:
                wanted = set(keys)
                views = [v for v in views if v.name in wanted]
            out.append(DescribedResource(rtype, name, 0, None, views))
        return out

    def _describe_one(self, rtype: int, name: str, synonyms: bool, docs: bool = False) -> list[ConfigView]:
        if rtype == TOPIC:
            msg = invalid_topic_name(name)
            if msg:
                raise _Fail(ErrorCode.INVALID_TOPIC_EXCEPTION, msg)
            t = self.image.topics.get(name)
            if t is None:
                raise _Fail(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "")
            return self.topic_config_views(dict(t.configs), synonyms)
        if rtype == BROKER:
            self._check_broker_name(name, describe=True)
            return self._broker_views(name and str(self.node_id), synonyms, docs)
        if rtype == GC.GROUP:
            return GC.views(dict(self.image.group_configs.get(name, {})), self.defaults, synonyms)
        raise _Fail(ErrorCode.INVALID_REQUEST, f"Unknown resource type {rtype}")

    def _check_broker_name(self, name: str, describe: bool) -> None:
        """A BROKER resource's name (ids read as Java's Integer.parseInt)."""
        if name == "" or name == str(self.node_id):
            return
        broker_id = parse_int(name)
        if self.env.quorum and not describe:
            # the broker the request was sent to checked it names itself (Kafka's ConfigAdminManager);
            # the controller takes any broker id (ControllerConfigurationValidator)
            if broker_id is None:
                raise _Fail(ErrorCode.INVALID_REQUEST, "Unable to parse broker name as a base 10 number.")
            if broker_id < 0:
                raise _Fail(ErrorCode.INVALID_REQUEST, "Invalid negative broker ID.")
            return
        if broker_id is None:  # (Kafka's ConfigHelper.resourceNameToBrokerId, validateResourceNameIsCurrentNodeId)
            raise _Fail(ErrorCode.INVALID_REQUEST, f"{'Broker' if describe else 'Node'} id must be an integer, "
                                                   f"but it is: {name}")
        if broker_id == self.node_id:  # ("+1", "01": this broker, as Kafka reads them; an alter's configs are
            return                     # kept under that name, as Kafka's controller keeps them)
        hint = " or empty string" if describe else ""
        raise _Fail(ErrorCode.INVALID_REQUEST,
                    f"Unexpected broker id, expected {self.node_id}{hint}, but received {name}")

    def _broker_views(self, name: str, synonyms: bool, docs: bool = False) -> list[ConfigView]:
        bc = self.image.broker_configs
        dyn_default = dict(bc.get("", {}))
        if name == "":
            # the cluster-wide default resource lists only what was set dynamically (a name unknown to
            # Kafka read-only and sensitive: no value, as Kafka's ConfigHelper lists a config it has no type of)
            out = []
            for k, v in sorted(dyn_default.items()):
                unknown = C.unknown_broker_config(k)
                shown = None if unknown else v
                out.append(ConfigView(k, shown, unknown, C.DYNAMIC_DEFAULT_BROKER_CONFIG, unknown,
                                      ((k, shown, C.DYNAMIC_DEFAULT_BROKER_CONFIG),) if synonyms else (),
                                      C.broker_config_type(k)))
            return out
        dyn_broker = dict(bc.get(name, {}))
        # a value at Kafka's default is taken as unset (Kafka shows only DEFAULT_CONFIG then)
        static = {k: v for k, v in self.defaults.items()
                  if (k not in C.TOPIC_CONFIGS or k in C.BROKER_SYNONYMS) and C.broker_default(k) != v}
        static.update(self._static_broker())
        layers = ((C.DYNAMIC_BROKER_CONFIG, dyn_broker), (C.DYNAMIC_DEFAULT_BROKER_CONFIG, dyn_default),
                  (C.STATIC_BROKER_CONFIG, static))
        names = set(C.BROKER_SYNONYMS) | set(C.BROKER_STATIC) | set(static) | set(dyn_default) | set(dyn_broker)
        out = []
        for k in sorted(names):
            syn = C.broker_synonyms(k, layers)
            unknown = C.unknown_broker_config(k)
            if unknown:
                syn = [(n, None, src) for n, _v, src in syn]
            value, source = (syn[0][1], syn[0][2]) if syn else (None, C.DEFAULT_CONFIG)
            out.append(ConfigView(k, value, C.broker_read_only(k), source, unknown,
                                  tuple(syn) if synonyms else (), C.broker_config_type(k),
                                  C.BROKER_DOCS.get(k) if docs else None))
        return out

    def incremental_alter_configs(self, resources) -> ControllerResult[list[AlterResult]]:
        """resources: [(resource_type, resource_name, [(name, op, value)])]."""
        return whole(self.incremental_alter_configs_steps(resources))

    def incremental_alter_configs_steps(self, resources, budget: StepBudget | None = None
                                        ) -> Generator[None, None, ControllerResult[list[AlterResult]]]:
        """incremental_alter_configs a part at a time: yields whenever ``budget`` is spent (a resource
        is a unit, each effective config of a topic checked CONFIG_CHECK_UNITS more) and returns the
        ControllerResult."""
        def ops(rtype: int, name: str, items) -> list:
            for k, op, v in items:
                if v is None and op != OP_DELETE:
                    raise _Fail(ErrorCode.INVALID_REQUEST, f"Null value not supported for : {k}", True)
            return list(items)
        return (yield from self._alter_resources_steps(resources, ops, budget))

    def alter_configs(self, resources) -> ControllerResult[list[AlterResult]]:
        """Legacy AlterConfigs: resources [(type, name, [(key, value)])] replace all dynamic configs."""
        return whole(self.alter_configs_steps(resources))

    def alter_configs_steps(self, resources, budget: StepBudget | None = None
                            ) -> Generator[None, None, ControllerResult[list[AlterResult]]]:
        """alter_configs a part at a time, as incremental_alter_configs_steps."""
        def ops(rtype: int, name: str, kvs) -> list:
            for k, v in kvs:
                if v is None:
                    raise _Fail(ErrorCode.INVALID_REQUEST, f"Null value not supported for : {k}", True)
            keys = {k for k, _ in kvs}
            return ([(k, OP_SET, v) for k, v in kvs]
                    + [(k, OP_DELETE, None) for k in self._current_dynamic(rtype, name) if k not in keys])
        return (yield from self._alter_resources_steps(resources, ops, budget))

    def _alter_resources_steps(self, resources, ops_of, budget: StepBudget | None
                               ) -> Generator[None, None, ControllerResult[list[AlterResult]]]:
        """(Incremental)AlterConfigs' decision: each resource's records (``ops_of(type, name, its
        entries)``: its [(key, op, value)], or _Fail), then with ELR the ClearElrRecords their
        min.insync.replicas records call for (elr_configs). A resource named more than once is
        refused, as the node the request reached refuses it."""
        budget = budget if budget is not None else StepBudget()
        counts = _resource_counts(resources)
        # a resource named more than once: a broker's listener answers each of them INVALID_REQUEST
        # in its place (Kafka's ConfigAdminManager.preprocess); a quorum's controller (asked by a
        # client directly: brokers forward no duplicates) answers as Kafka's ControllerApis, its
        # second one "Duplicate resource." ahead of the others and none of the others
        out = [AlterResult(rtype, name, ErrorCode.INVALID_REQUEST, CONTROLLER_DUPLICATE_RESOURCE)
               for rtype, name, _ in _second_occurrences(resources)] if self.env.quorum else []
        by_broker = [True] * len(out)
        records: list = []
        for rtype, name, items in resources:
            if counts[(rtype, name)] > 1:
                if not self.env.quorum:
                    out.append(AlterResult(rtype, name, ErrorCode.INVALID_REQUEST, DUPLICATE_RESOURCE))
                    by_broker.append(True)
                continue
            try:
                keys = [e[0] for e in items]
                if len(set(keys)) != len(keys):
                    raise _Fail(ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys", True)
                records += yield from self._alter_steps(rtype, name, ops_of(rtype, name, items), budget)
                out.append(AlterResult(rtype, name, 0, None))
                by_broker.append(False)
            except _Fail as f:
                out.append(AlterResult(rtype, name, f.code, f.message))
                by_broker.append(_answered_by_broker(rtype, f))
            if budget.spend(1):
                yield
        if ELR.elr_enabled(self.image.features):
            records += ELR.clear_elr_records(records)
        return _bounded_alter(records, out, by_broker)

    def _current_dynamic(self, rtype: int, name: str) -> dict[str, str]:
        if rtype == TOPIC:
            return dict(self.image.topic_configs.get(name, {}))
        if rtype == BROKER:
            return dict(self.image.broker_configs.get(name, {}))
        if rtype == GC.GROUP:
            return dict(self.image.group_configs.get(name, {}))
        return {}

    def _alter_steps(self, rtype: int, name: str, ops, budget: StepBudget) -> Generator[None, None, list]:
        """One resource's records; raises _Fail with its error. Yields whenever ``budget`` is spent
        (a broker-level change checks every topic's effective config)."""
        if rtype == GC.GROUP:
            return self._alter_group(name, ops)
        if rtype not in (TOPIC, BROKER):
            raise _Fail(ErrorCode.INVALID_REQUEST, f"Unknown resource type {rtype}")
        if rtype == BROKER:
            self._check_broker_name(name, describe=False)
        self._check_list_ops(rtype, ops)
        if rtype == TOPIC:
            # (Kafka's ControllerConfigurationValidator: the name, then LogConfig.validate)
            if name == "":
                raise _Fail(ErrorCode.INVALID_REQUEST, "Default topic resources are not allowed.")
            msg = invalid_topic_name(name)
            if msg:
                raise _Fail(ErrorCode.INVALID_TOPIC_EXCEPTION, msg)
            unknown = next((k for k, _, _ in ops if k not in C.TOPIC_CONFIGS), None)
            if unknown is not None:
                raise _Fail(ErrorCode.INVALID_CONFIG, f"Unknown topic config name: {unknown}")
        else:
            bad = [k for k, op, _ in ops if op != OP_DELETE and not C.dynamic_broker_alterable(k)]
            if bad:
                raise _Fail(ErrorCode.INVALID_REQUEST, f"Cannot update these configs dynamically: [{', '.join(bad)}]")
        current = self._current_dynamic(rtype, name)
        changes: dict[str, str | None] = {}
        for k, op, v in ops:
            if op == OP_DELETE:
                changes[k] = None
                continue
            if op in (OP_APPEND, OP_SUBTRACT):
                base = current.get(k)
                if base is None:
                    base = (self.topic_config_value(name, k) if rtype == TOPIC else C.broker_default(k)) or ""
                items = [p.strip() for p in base.split(",") if p.strip()]
                given = [p.strip() for p in v.split(",") if p.strip()]
                if op == OP_APPEND:
                    items += [g for g in given if g not in items]
                else:
                    items = [i for i in items if i not in given]
                v = ",".join(items)
            elif op != OP_SET:
                raise _Fail(ErrorCode.INVALID_REQUEST, f"Unknown operation type {op}")
            try:
                if rtype == TOPIC:
                    C.TOPIC_CONFIGS[k].validate(v)
                else:
                    C.validate_broker_value(k, v)
            except InvalidConfig as e:
                # (Kafka's broker answers any invalid value of a broker resource INVALID_REQUEST: its
                # DynamicBrokerConfig.validate's ConfigException wrapped, KAFKA-13609)
                raise _Fail(ErrorCode.INVALID_CONFIG if rtype == TOPIC else ErrorCode.INVALID_REQUEST,
                            str(e)) from None
            changes[k] = v
        if rtype == TOPIC and name not in self.image.topics:
            raise _Fail(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"The topic '{name}' does not exist.")
        after = {k: v for k, v in current.items() if k not in changes}
        after.update({k: v for k, v in changes.items() if v is not None})
        if rtype == BROKER:
            self._check_broker_reconfiguration(name, after)
            # (the controller's checks: Kafka's broker checked the above before forwarding it)
            if ELR.elr_enabled(self.image.features):
                for k, v in changes.items():
                    why = ELR.broker_change_refused(name, k, v)
                    if why is not None:
                        raise _Fail(ErrorCode.INVALID_CONFIG, why, False)
        if rtype == TOPIC:
            self._check_effective(after)
            if budget.spend(CONFIG_CHECK_UNITS):
                yield
        elif name in ("", str(self.node_id)):
            # a broker-level value is the effective value of every topic that does not
            # override it: check the defaults and each existing topic
            bc = self.image.broker_configs
            dyn_default = after if name == "" else dict(bc.get("", {}))
            dyn_broker = after if name != "" else dict(bc.get(str(self.node_id), {}))
            layers = C.broker_layers(self._static_broker(), dyn_default, dyn_broker)
            self._check_effective({}, layers)
            for t in self.image.topics.values():
                self._check_effective(dict(t.configs), layers)
                if budget.spend(CONFIG_CHECK_UNITS):
                    yield
        # a topic's records are its changes; a broker's are every value asked for, changed or not, a
        # deletion of one not set included (Kafka's KAFKA-14136: a broker reloads what it is told again)
        return [ConfigRecord(resource_type=rtype, resource_name=name, name=k, value=v) for k, v in changes.items()
                if rtype == BROKER or current.get(k) != v]

    @staticmethod
    def _check_list_ops(rtype: int, ops) -> None:
        """APPEND and SUBTRACT only to a LIST config, checked first: for a topic as Kafka's controller
        (incrementalAlterConfigResource), for a broker as its broker (prepareIncrementalConfigs)."""
        for k, op, _v in ops:
            if op not in (OP_APPEND, OP_SUBTRACT):
                continue
            if rtype == TOPIC:
                d = C.TOPIC_CONFIGS.get(k)
                if d is None or d.type != C.T_LIST:
                    raise _Fail(ErrorCode.INVALID_CONFIG, f"Can't {_OP_NAME[op]} to key {k} because its type is not LIST.")
            elif not C.broker_config_known(k):
                raise _Fail(ErrorCode.INVALID_CONFIG, f"Unknown config name: {k}")
            elif C.broker_config_type(k) != C.T_LIST:
                raise _Fail(ErrorCode.INVALID_CONFIG,
                            f"Config value {_OP_NAME[op].lower()} is not allowed for config key: {k}")

    def _check_broker_reconfiguration(self, name: str, after: dict[str, str]) -> None:
        """The broker's applied dynamic configs, merged as the broker receiving the request merges
        them (static < cluster default < its own; a default change is checked on this node's
        broker), checked before and after the change as Kafka's DynamicBrokerConfig.validate."""
        bc = self.image.broker_configs
        node = name or str(self.node_id)

        def merged(default: Mapping[str, str], own: Mapping[str, str]) -> dict[str, str]:
            out = {k: self.defaults.get(k, d.default) for k, d in C.DYNAMIC_BROKER.items()}
            for layer in (default, own):
                out.update((k, v) for k, v in layer.items()
                           if k in C.DYNAMIC_BROKER or C.listener_quota_config(k) is not None)
            return out

        current = merged(bc.get("", {}), bc.get(node, {}))
        new = merged(after, bc.get(node, {})) if name == "" else merged(bc.get("", {}), after)
        # the log settings KafkaConfig.validateValues requires, in effect on that broker after the change
        layers = C.broker_layers(self._static_broker(), after if name == "" else dict(bc.get("", {})),
                                 dict(bc.get(node, {})) if name == "" else after)
        for key, topic_key in (("log.roll.ms", "segment.ms"), ("log.roll.jitter.ms", "segment.jitter.ms"),
                               ("log.retention.ms", "retention.ms")):
            new[key] = C.resolve_topic_config(C.TOPIC_CONFIGS[topic_key], {}, layers).value or ""
        # the broker's listeners (its ListenerConnectionQuotas), as registered; the default's: every broker's
        brokers = [b for i, b in self.image.brokers.items() if b is not None and (name == "" or str(i) == name)]
        listeners = sorted({e[0] for b in brokers for e in b.endpoints})
        try:
            check_reconfiguration(current, new, listeners)
        except InvalidConfig as e:
            raise _Fail(ErrorCode.INVALID_REQUEST, str(e)) from None

    def _alter_group(self, name: str, ops) -> list:
        """Kafka 4.3: names first, then the values in GroupConfig's order, then the group's configs as
        they would be after the change (stored ones included) against the broker's bounds."""
        if not name:
            raise _Fail(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.")
        current = self._current_dynamic(GC.GROUP, name)
        for k, _op, _v in ops:
            if k not in GC.GROUP_CONFIGS:
                raise _Fail(ErrorCode.INVALID_CONFIG, f"Unknown group config name: {k}")
        changes: dict[str, str | None] = {}
        for k, op, v in ops:
            if op == OP_DELETE:
                changes[k] = None
                continue
            if op in (OP_APPEND, OP_SUBTRACT):
                raise _Fail(ErrorCode.INVALID_CONFIG, f"Can't {_OP_NAME[op]} to key {k} because its type is not LIST.")
            if op != OP_SET:
                raise _Fail(ErrorCode.INVALID_REQUEST, f"Unknown operation type {op}")
            changes[k] = v
        after = {k: v for k, v in current.items() if k not in changes}
        try:
            for k in GC.GROUP_CONFIGS:  # parsed in Kafka's order
                if changes.get(k) is not None:
                    after[k] = changes[k] = GC.parse(k, changes[k])
            GC.validate_together(after, self.defaults)
        except GC.InvalidGroupConfig as e:
            raise _Fail(ErrorCode.INVALID_CONFIG, str(e)) from None
        return [ConfigRecord(resource_type=GC.GROUP, resource_name=name, name=k, value=v)
                for k, v in changes.items()
                if not (v is None and k not in current) and not (v is not None and current.get(k) == v)]


    # ------------------------------------------------------------------ brokers

    def bootstrap(self, extra: tuple = ()) -> ControllerResult[None]:
        """What `kafka-storage format` writes on a fresh cluster: the release's feature
        levels (features.BOOTSTRAP), the cluster-level min.insync.replicas, then ``extra``
        (its --add-scram credentials)."""
        return ControllerResult(features.bootstrap_records() + [
            ConfigRecord(resource_type=BROKER, resource_name="", name="min.insync.replicas",
                         value=self.defaults.get("min.insync.replicas", "1")),
        ] + list(extra), None)

    def replication(self) -> ReplicationControl:
        return ReplicationControl(self.image, self.topic_config_value)

    def register_broker(self, reg: BrokerRegistration, epoch: int, unfence: bool = False,
                        has_valid_session: bool = False) -> ControllerResult[int]:
        """BrokerRegistration: the broker joins fenced, its epoch the offset of its
        RegisterBrokerRecord (as Kafka). A new incarnation while the old one's session is
        alive is DUPLICATE_BROKER_REGISTRATION; otherwise the old incarnation first leaves
        every ISR and the leaderships move (and, with ELR after an unclean shutdown, it
        leaves every ELR); the same incarnation amends its registration, keeping epoch and state.
        ``unfence``: a single voter's own broker, which is caught up by construction and the
        only broker there is (its partitions keep their leader: nobody else could take them).
        Response: an error code."""
        if reg.cluster_id is not None and reg.cluster_id != self.image.cluster_id:
            return ControllerResult([], int(ErrorCode.INCONSISTENT_CLUSTER_ID))
        existing = self.image.brokers.get(reg.broker_id)
        same = existing is not None and existing.incarnation_id == reg.incarnation_id
        if existing is not None and has_valid_session and not same:
            return ControllerResult([], int(ErrorCode.DUPLICATE_BROKER_REGISTRATION))
        with_dirs = directories.supported(self.image)
        if with_dirs and self._invalid_log_dirs(reg):
            return ControllerResult([], int(ErrorCode.INVALID_REGISTRATION))
        broker_features = dict(reg.features)
        # a broker that names no metadata.version range supports only the first KRaft one (Kafka's
        # MINIMUM_KRAFT_VERSION, level 1)
        broker_features.setdefault(features.METADATA_VERSION, (1, 1))
        if self._unsupported_finalized(broker_features):
            return ControllerResult([], int(ErrorCode.UNSUPPORTED_VERSION))
        records: list = []
        if existing is not None and not same and not unfence:
            # the old incarnation is gone: out of every ISR with new leaders elected, as a fence;
            # with ELR, after an unclean shutdown (its previous epoch is not the registered one)
            # out of every ELR too (Kafka's handleBrokerShutdown)
            rc = self.replication()
            clean = reg.previous_broker_epoch == existing.epoch
            records += (rc.broker_unclean_shutdown(reg.broker_id) if rc.elr_enabled and not clean
                        else rc.broker_fenced(reg.broker_id))
        records.append(RegisterBrokerRecord(
            broker_id=reg.broker_id,
            incarnation_id=reg.incarnation_id if reg.incarnation_id != ZERO_UUID else self.env.new_uuid(),
            broker_epoch=existing.epoch if same else epoch,
            end_points=[BrokerEndpoint(name=n, host=h, port=p, security_protocol=sp)
                        for n, h, p, sp in reg.listeners],
            features=[BrokerFeature(name=n, min_supported_version=lo, max_supported_version=hi)
                      for n, (lo, hi) in broker_features.items()],
            rack=reg.rack,
            fenced=existing.fenced if same else True,
            in_controlled_shutdown=existing.in_controlled_shutdown if same else False,
            log_dirs=list(reg.log_dirs) if with_dirs else [],
        ))
        if unfence:
            records.append(UnfenceBrokerRecord(id=reg.broker_id, epoch=epoch))
        return ControllerResult(records, 0)

    def _unsupported_finalized(self, broker_features: dict[str, tuple[int, int]]) -> bool:
        """Kafka's processRegistrationFeature: the broker's range of each feature it names must hold
        the finalized level (0 when not finalized; metadata.version 1), and a finalized feature it does
        not name counts as the range [0, 0]. (Before the bootstrap records, with no feature finalized
        yet, nothing is checked: Kafka's controller starts from its formatted bootstrap snapshot.)"""
        finalized = self.image.features
        if not finalized:
            return False
        for name, (lo, hi) in broker_features.items():
            level = finalized.get(name, 1 if name == features.METADATA_VERSION else 0)
            if not lo <= level <= hi:
                return True
        return any(level != 0 and name not in broker_features for name, level in finalized.items())

    def _invalid_log_dirs(self, reg: BrokerRegistration) -> bool:
        """Kafka's checks of a registration's directories: no reserved id, no duplicate, none
        registered by another broker. (Kafka also refuses an empty list, 'No directories specified in
        request'; here it is taken, its replicas MIGRATING: a single node registers its own broker
        without one, and so do the replication simulations.)"""
        dirs = list(reg.log_dirs)
        if any(directories.reserved(d) for d in dirs):
            return True
        if len(set(dirs)) != len(dirs):
            return True
        return any(b.node_id != reg.broker_id and set(b.log_dirs) & set(dirs) for b in self.image.brokers.values())

    def broker_heartbeat(self, broker_id: int, broker_epoch: int, metadata_offset: int, want_fence: bool,
                         want_shut_down: bool = False, shutdown_offset_reached: bool = True,
                         offline_log_dirs=()) -> ControllerResult[HeartbeatReply]:
        """BrokerHeartbeat as Kafka's BrokerHeartbeatManager moves a broker between FENCED,
        UNFENCED, CONTROLLED_SHUTDOWN and SHUTDOWN_NOW: a fenced broker caught up with its
        own registration is unfenced (its leaderless partitions elect it); a broker that
        wants to shut down while leading enters controlled shutdown (its leaderships move,
        it leaves every ISR) and is told to shut down once it leads nothing and every
        active broker has seen that (``shutdown_offset_reached``, from the heartbeats)."""
        b = self.image.brokers.get(broker_id)
        if b is None:
            return ControllerResult([], HeartbeatReply(int(ErrorCode.BROKER_ID_NOT_REGISTERED)))
        if b.epoch != broker_epoch:
            return ControllerResult([], HeartbeatReply(int(ErrorCode.STALE_BROKER_EPOCH)))
        caught_up = metadata_offset >= b.epoch
        rc = self.replication()
        fenced, unfenced, shutting_down, shutdown_now = "FENCED", "UNFENCED", "CONTROLLED_SHUTDOWN", "SHUTDOWN_NOW"
        current = fenced if b.fenced else shutting_down if b.in_controlled_shutdown else unfenced
        if current == fenced:
            nxt = (shutdown_now if want_shut_down else unfenced if not want_fence and caught_up else fenced)
        elif current == unfenced:
            if want_fence:
                nxt = shutdown_now if want_shut_down else fenced
            elif want_shut_down:
                nxt = shutting_down if rc.leads_any(broker_id) else shutdown_now
            else:
                nxt = unfenced
        else:
            nxt = shutting_down if rc.leads_any(broker_id) or not shutdown_offset_reached else shutdown_now
        records: list = []
        if nxt != current:
            if nxt in (fenced, shutdown_now):
                records = self._fence_records(b)
            elif nxt == unfenced:
                records = [UnfenceBrokerRecord(id=broker_id, epoch=b.epoch)] + rc.broker_unfenced(broker_id)
            else:
                records = [BrokerRegistrationChangeRecord(broker_id=broker_id, broker_epoch=b.epoch,
                                                          in_controlled_shutdown=1)]
                records += rc.broker_in_controlled_shutdown(broker_id)
        if offline_log_dirs and directories.supported(self.image):
            records += self._directories_offline(b, offline_log_dirs, records)
        return ControllerResult(records, HeartbeatReply(0, caught_up, nxt in (fenced, shutdown_now),
                                                        nxt == shutting_down, nxt == shutdown_now))

    def _directories_offline(self, b, offline_log_dirs, before: list) -> list:
        """A heartbeat's OfflineLogDirs (Kafka's handleDirectoriesOffline): the broker's replicas in a
        registered directory that went offline leave their ISR (and leadership), and its registration
        keeps the directories still online; a directory it no longer has registered changes nothing."""
        gone = [d for d in b.log_dirs if d in set(offline_log_dirs)]
        if not gone:
            return []
        rc = ReplicationControl(then(self.image, before), self.topic_config_value)
        parts = [(t, p) for t in rc.image.topics.values() for p in t.partitions.values()
                 if b.node_id in p.replicas and directories.current(p)[p.replicas.index(b.node_id)] in gone]
        return rc.leader_and_isr_updates(parts, remove=b.node_id) + [BrokerRegistrationChangeRecord(
            broker_id=b.node_id, broker_epoch=b.epoch, log_dirs=[d for d in b.log_dirs if d not in gone])]

    def _fence_records(self, b) -> list:
        """The broker leaves every ISR (new leaders elected), then is fenced."""
        return self.replication().broker_fenced(b.node_id) + [
            BrokerRegistrationChangeRecord(broker_id=b.node_id, broker_epoch=b.epoch, fenced=1)]

    def fence(self, broker_ids) -> ControllerResult[list[int]]:
        """Fence brokers whose session expired (broker.session.timeout.ms without a
        heartbeat), one after the other as Kafka: each one's elections see the previous
        one fenced."""
        records: list = []
        fenced: list[int] = []
        d = self
        for i in broker_ids:
            b = d.image.brokers.get(i)
            if b is None or b.fenced:
                continue
            mine = d._fence_records(b)
            records += mine
            fenced.append(i)
            d = Decisions(self.env, then(d.image, mine))
        return ControllerResult(records, fenced)

    def assign_replicas_to_dirs(self, broker_id: int, broker_epoch: int, dirs) -> ControllerResult:
        """AssignReplicasToDirs (KIP-858) from a broker: dirs [(directory id, [(topic id, [partition])])]
        -> (top-level error code, [(directory id, [(topic id, [(partition, error code)])])]).
        UNSUPPORTED_VERSION below metadata.version 3.7-IV2, STALE_BROKER_EPOCH for a broker not
        registered in that epoch (Kafka's checkBrokerEpoch)."""
        if not directories.supported(self.image):
            return ControllerResult([], (int(ErrorCode.UNSUPPORTED_VERSION), []))
        b = self.image.brokers.get(broker_id)
        if b is None or b.epoch != broker_epoch:
            return ControllerResult([], (int(ErrorCode.STALE_BROKER_EPOCH), []))
        records, results = self.replication().assign_replicas_to_dirs(broker_id, dirs)
        return ControllerResult(records, (0, results))

    def alter_partition(self, broker_id: int, broker_epoch: int, topics) -> ControllerResult:
        """AlterPartition from a partition leader: topics [(topic_id, [IsrUpdate])] ->
        (top-level error code, [(topic_id, [IsrResult])]). A stale broker epoch fails it
        all (STALE_BROKER_EPOCH), an unknown topic id each of its partitions."""
        b = self.image.brokers.get(broker_id)
        if b is None or b.epoch != broker_epoch:
            return ControllerResult([], (int(ErrorCode.STALE_BROKER_EPOCH), []))
        records: list = []
        out = []
        d = self
        for topic_id, updates in topics:
            t = d.image.topics_by_id.get(topic_id) if topic_id != ZERO_UUID else None
            if t is None:
                out.append((topic_id, [IsrResult(u.partition, int(ErrorCode.UNKNOWN_TOPIC_ID)) for u in updates]))
                continue
            recs, results = d.replication().alter_partition(broker_id, t, updates)
            records += recs
            out.append((topic_id, results))
            if recs:
                d = Decisions(self.env, then(d.image, recs))
        return ControllerResult(records, (0, out))

    def alter_partition_reassignments(self, topics, allow_rf_change: bool = True) -> ControllerResult:
        """topics [(name, [(partition, replicas | None)])] -> [(name, [(partition, error, message)])].
        Each partition is decided on the image as it is (as Kafka, one batch for all). A partition
        whose change would be the MAX_RECORDS_PER_USER_OP + 1st record, or later, fails alone with
        UNKNOWN_SERVER_ERROR and no message (Kafka 4.3, 10,002 partitions reassigned in one request:
        10,000 written, the last two so answered)."""
        return whole(self.alter_partition_reassignments_steps(topics, allow_rf_change))

    def alter_partition_reassignments_steps(self, topics, allow_rf_change: bool = True,
                                            budget: StepBudget | None = None) -> Generator[None, None, ControllerResult]:
        """alter_partition_reassignments a part at a time: yields whenever ``budget`` is spent (a
        partition is a unit, one whose change is built CHANGE_UNITS) and returns the ControllerResult."""
        budget = budget if budget is not None else StepBudget()
        rc = self.replication()

        def check(replicas: list[int]) -> None:
            try:
                self._check_assignment(replicas, None)
            except _Fail as f:
                raise Refused(f.code, f.message) from None
        records, out = [], []
        for name, parts in topics:
            results = []
            for index, replicas in parts:
                try:
                    rec = rc.reassign(name, index, replicas, check, allow_rf_change)
                except Refused as e:
                    results.append((index, e.code, e.message))
                    if budget.spend(1 if e.code in _REFUSED_BEFORE_CHANGE else CHANGE_UNITS):
                        yield
                    continue
                if rec is not None:
                    if len(records) >= MAX_RECORDS_PER_USER_OP:
                        # Kafka's alterPartitionReassignments catches its BoundedList's overflow for
                        # the partition (ApiError.fromThrowable: no message); the others are written
                        results.append((index, int(ErrorCode.UNKNOWN_SERVER_ERROR), None))
                        if budget.spend(CHANGE_UNITS):
                            yield
                        continue
                    records.append(rec)
                results.append((index, 0, None))
                if budget.spend(CHANGE_UNITS):
                    yield
            out.append((name, results))
        return ControllerResult(records, out)

    def balance_leaders(self) -> ControllerResult[int]:
        """-> the number of elections."""
        records = self.replication().balance_leaders()
        return ControllerResult(records, len(records))

    def elect_unclean_leaders(self) -> ControllerResult[int]:
        records = self.replication().elect_unclean_leaders()
        return ControllerResult(records, len(records))

    def unregister_broker(self, broker_id: int) -> ControllerResult[tuple[int, str] | None]:
        """UnregisterBroker (kafka-cluster unregister): the broker leaves every ISR and ELR (new leaders
        elected), then its registration is removed (UnregisterBrokerRecord), as Kafka's
        ReplicationControlManager.unregisterBroker -> None; a broker not registered: (error, message)."""
        b = self.image.brokers.get(broker_id)
        if b is None:
            return ControllerResult([], (int(ErrorCode.BROKER_ID_NOT_REGISTERED),
                                         f"Broker ID {broker_id} is not currently registered"))
        rc = self.replication()
        records = rc.leader_and_isr_updates(list(rc.in_isr(broker_id)), remove=broker_id)
        rest = ReplicationControl(then(self.image, records), self.topic_config_value)
        records += rest.leader_and_isr_updates(list(rest.in_elr(broker_id)), remove=broker_id)
        return ControllerResult(records + [UnregisterBrokerRecord(broker_id=broker_id, broker_epoch=b.epoch)], None)

    def elect_leaders(self, election_type: int, topic_partitions
                      ) -> ControllerResult[list[ElectionResult] | Refusal]:
        """ElectLeaders PREFERRED (0) / UNCLEAN (1): topic_partitions [(topic, [partition])] or
        None for all -> [ElectionResult]."""
        return whole(self.elect_leaders_steps(election_type, topic_partitions))

    def elect_leaders_steps(self, election_type: int, topic_partitions, budget: StepBudget | None = None
                            ) -> Generator[None, None, ControllerResult[list[ElectionResult] | Refusal]]:
        """elect_leaders a part at a time (ReplicationControl.elect_leaders_steps). More than
        MAX_RECORDS_PER_USER_OP elections refuse the request whole (TOO_LARGE), as Kafka's
        electLeaders, whose BoundedList's overflow fails the operation (Kafka 4.3, 10,002 preferred
        elections: POLICY_VIOLATION for each partition, none elected)."""
        records, results = yield from self.replication().elect_leaders_steps(
            election_type, topic_partitions, budget if budget is not None else StepBudget())
        if len(records) > MAX_RECORDS_PER_USER_OP:
            return ControllerResult([], TOO_LARGE)
        return ControllerResult(records, results)


def _resource_counts(resources) -> dict[tuple[int, str], int]:
    counts: dict[tuple[int, str], int] = {}
    for rtype, name, _items in resources:
        counts[(rtype, name)] = counts.get((rtype, name), 0) + 1
    return counts


def _second_occurrences(resources) -> list:
    seen: set[tuple[int, str]] = set()
    twice: set[tuple[int, str]] = set()
    out = []
    for r in resources:
        key = (r[0], r[1])
        if key in seen and key not in twice:
            twice.add(key)
            out.append(r)
        seen.add(key)
    return out


def _bounded_alter(records: list, out: list[AlterResult], by_broker: list[bool]) -> ControllerResult[list[AlterResult]]:
    """(Incremental)AlterConfigs' result, bounded as Kafka's: past MAX_RECORDS_PER_USER_OP records
    the controller's operation fails (its BoundedList's overflow is not caught), nothing is written
    and every resource the broker forwarded is answered TOO_LARGE (the request's getErrorResponse);
    those the broker refused itself keep their errors (ConfigAdminManager.reassembleIncrementalResponse).
    Kafka 4.3, 10,001 ConfigRecords over 500 topics: POLICY_VIOLATION for each, validate_only too."""
    if len(records) <= MAX_RECORDS_PER_USER_OP:
        return ControllerResult(records, out)
    return ControllerResult([], [r if broker else AlterResult(r.resource_type, r.resource_name,
                                                              TOO_LARGE.error_code, TOO_LARGE.message)
                                 for r, broker in zip(out, by_broker)])


class _TopicConfigs:
    """The checked effective config views of the new topics of one request, by their
    overrides: topics created alike (most of a large request) are resolved once."""
    __slots__ = ("_decisions", "_layers", "_done")

    def __init__(self, decisions: Decisions):
        self._decisions = decisions
        self._layers = decisions._layers()
        self._done: dict[tuple, list[ConfigView] | _Fail] = {}

    def views(self, overrides: dict[str, str]) -> list[ConfigView]:
        """The views of a topic's config (its overrides over the broker's); _Fail (INVALID_CONFIG)
        when the effective config is invalid."""
        key = tuple(sorted(overrides.items()))
        got = self._done.get(key)
        if got is None:
            d = self._decisions
            try:
                d._check_effective(overrides, self._layers)
                got = d.topic_config_views(overrides, layers=self._layers)
            except _Fail as f:
                got = f
            self._done[key] = got
        if isinstance(got, _Fail):
            raise got
        return got
