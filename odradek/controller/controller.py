"""The metadata state machine and its one write path.

The image is the committed metadata; listeners hear each new image. A write runs a
pure decision (decisions.Decisions: image + request -> records + response) and hands
the records, as one batch, to the driver, which returns the Commit:

- a single voter (LocalDriver, opened by start()): appended, fsynced, committed and
  applied before the call returns; inside a deferring() scope (a large admin write's step)
  only written, its fsync left to the caller's thread pool and its apply to settle();
- the Raft quorum's active controller (attach_quorum, broker/controller_server.py):
  proposed; committed batches come back through apply_batch, and the caller waits
  for the Commit's offset to be applied before it answers.

validate_only runs the decision and drops the records.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Callable, Generator

from odradek.log.config import ConfigError, is_log_config, validate_properties
from odradek.log.fs import FileSystem, RealFileSystem
from odradek.log.meta_properties import load_or_create_cluster_id
from odradek.raft.codec import Prepared
from odradek.wire.messages.abort_transaction_record import AbortTransactionRecord
from odradek.wire.messages.begin_transaction_record import BeginTransactionRecord
from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.end_transaction_record import EndTransactionRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.remove_topic_record import RemoveTopicRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.uuid import random_uuid, uuid_str

from . import configs as C
from . import features
from .configs import BROKER, TOPIC, ConfigView
from .decisions import (  # noqa: F401 (re-exported: the request/response shapes of the decisions)
    MAX_PARTITIONS_PER_REQUEST, OP_APPEND, OP_DELETE, OP_SET, OP_SUBTRACT, AlterResult, BrokerRegistration,
    CreateTopicResult, CreateTopicSpec, DescribedResource, Decisions, Env, HeartbeatReply,
)
from .admin_writes import AdminWrites
from .driver import Deferring, LocalDriver, MetadataDriver
from .image import BrokerImage, MetadataDelta, MetadataImage
from .metadata_log import MetadataLog
from .records import ENCODE_STEP, decode_record, encoded_steps
from .result import NOTHING_WRITTEN, Commit, ControllerResult, Written
from .steps import whole

METADATA_VERSION = features.METADATA_VERSION_MAX  # finalized on a fresh node
# a decision made in steps that other writes keep overtaking is then made in one piece (write_steps)
STEPPED_DECISIONS = 3
REPLAY_STEP = 1000  # the records of a large write replayed into its delta in one part (_replay_steps)
CONFIG_CACHE_SIZE = 1024  # distinct topic overrides whose effective config is kept (then all dropped)

Listener = Callable[[MetadataImage, MetadataImage], None]

log = logging.getLogger(__name__)


class Controller(AdminWrites):
    def __init__(self, data_dir: str, node_id: int, defaults: dict[str, str], now_ms: int,
                 rng: random.Random | None = None, fs: FileSystem | None = None, quorum: bool = False,
                 bootstrap: tuple = ()):
        """``rng``: where topic and incarnation ids come from (seeded in a simulation). ``quorum``:
        a node of a KRaft quorum, whose active controller takes the per-broker configs of any
        broker (a single node takes its own only). ``bootstrap``: records a fresh metadata log starts
        with after the feature levels (the SCRAM credentials of ``odradek serve --add-scram``, as
        ``kafka-storage format --add-scram``)."""
        self.data_dir = data_dir
        self.node_id = node_id
        self.bootstrap_records = tuple(bootstrap)
        self.defaults = dict(defaults)
        rng = rng if rng is not None else random.Random()
        self.env = Env(node_id, self.defaults, lambda: random_uuid(rng), rng, quorum=quorum)
        self.image = MetadataImage(controller_id=node_id)
        self._told = self.image  # the last image the listeners were given
        self._listeners: list[Listener] = []
        self._fs = fs if fs is not None else RealFileSystem()
        self._log: MetadataLog | None = None
        self._driver: MetadataDriver | None = None
        self._local: LocalDriver | None = None  # the single voter's driver
        self._quorum_node = None
        self._txn: MetadataDelta | None = None  # a metadata transaction's records, until its end
        # (records, their delta) of the single-voter write about to be proposed, replayed in steps
        self._replayed: tuple[list, MetadataDelta] | None = None
        self._configs_for = None  # the image's broker_configs the effective topic configs below resolve
        self._configs: dict[tuple, dict[str, str]] = {}  # a topic's overrides -> its effective config

    # ------------------------------------------------------------------ lifecycle

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def start(self, broker: BrokerImage, now_ms: int, listener_name: str = "PLAINTEXT") -> None:
        """Single voter: replay the metadata log, bootstrap on first start, register ``broker``
        (on its advertised listener ``listener_name``, with the features this release supports).

        Listeners added before start() see one call with an empty old image and the
        replayed image, so the broker can open every partition's log.
        """
        cluster_id = load_or_create_cluster_id(self._fs, self.data_dir, self.node_id, self.env.new_uuid)
        self._log = MetadataLog(self.data_dir, self.node_id, self._fs)
        delta = MetadataDelta(MetadataImage(controller_id=self.node_id))
        for offset, record in self._log.replay():
            _replay_one(delta, record, offset)
        self._told = MetadataImage(controller_id=self.node_id, cluster_id=cluster_id)
        self.image = delta.apply(cluster_id=cluster_id, controller_id=self.node_id)
        self._driver = self._local = LocalDriver(self._log, self.apply_records)
        decide = Decisions(self.env, self.image)
        records = decide.bootstrap(self.bootstrap_records).records if self._log.next_offset == 0 else []
        reg = BrokerRegistration(broker.node_id, broker.incarnation_id,
                                 list(broker.endpoints) or [(listener_name, broker.host, broker.port, 0)],
                                 dict(features.SUPPORTED), broker.rack)
        records += decide.register_broker(reg, self._log.next_offset + len(records), unfence=True).records
        self.commit(records, now_ms)

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def attach_quorum(self, driver: MetadataDriver, cluster_id: str, raft_node) -> None:
        """Replicated mode: decisions are proposed through ``driver`` (the active
        controller's) and reach the image once committed (apply_batch)."""
        self._driver = driver
        self._local = None
        self._quorum_node = raft_node
        self.image = self._told = replace(self.image, cluster_id=cluster_id, controller_id=-1)

    @property
    def raft_node(self):
        """The Raft core under the metadata log (DescribeQuorum)."""
        return self._log.raft_node if self._log is not None else self._quorum_node

    # ------------------------------------------------------------------ the state machine

    def apply_batch(self, base_offset: int, values) -> None:
        """Replay one committed batch of the metadata log (encoded records) into the image."""
        self._apply(_decoded(base_offset, values))

    def apply_batch_steps(self, base_offset: int, values) -> Generator[None, None, None]:
        """apply_batch a part at a time (a generator that yields every REPLAY_STEP records): the
        records decoded and replayed into the delta over the image, which is published whole once the
        batch is replayed, as apply_batch publishes it (a Raft quorum node's apply of a committed
        10,000-record batch - a 5,000-topic CreateTopics - was one piece of its event loop). Nothing of
        the batch is in the image, nor told to the listeners, before. The caller applies no other
        batch, snapshot or record meanwhile (the Raft driver queues them)."""
        yield from self._apply_steps(_decoded(base_offset, values), REPLAY_STEP)

    def apply_records(self, first_offset: int, records: list) -> None:
        """Replay one committed batch of decoded records, the first at ``first_offset`` (or take
        their delta replayed already, _replay_steps, if it is over the image of the moment)."""
        replayed, self._replayed = self._replayed, None
        if replayed is not None and replayed[0] is records and replayed[1].base is self.image and self._txn is None:
            delta = replayed[1]
            delta.offset = first_offset + len(records) - 1
            self._publish(delta.apply())
            return
        self._apply([(first_offset + i, r) for i, r in enumerate(records)])

    def _replay_steps(self, image: MetadataImage, records: list) -> Generator[None, None, tuple]:
        """(records, their MetadataDelta over ``image``) replayed REPLAY_STEP records a part (yields
        between parts): a large single-voter write's apply, once committed, is then the delta's
        apply and its publication alone (9,998 records replayed held the event loop ~0.1-0.5 s)."""
        delta = MetadataDelta(image)
        first = self._log.next_offset if self._log is not None else 0  # (their offsets, for the log)
        for i in range(0, len(records), REPLAY_STEP):
            yield
            for j, r in enumerate(records[i:i + REPLAY_STEP], first + i):
                _replay_one(delta, r, j)
        return records, delta

    def _apply(self, records) -> None:
        """Replay records into the image and publish it, as Kafka's MetadataBatchLoader: the
        records of a metadata transaction (BeginTransactionRecord .. EndTransactionRecord, which
        Kafka's controllers write around bootstrap and large changes, possibly over several
        batches) are published together at its end, or dropped at an AbortTransactionRecord."""
        whole(self._apply_steps(records))

    def _apply_steps(self, records, step: int = 0) -> Generator[None, None, None]:
        """_apply, yielding after every ``step`` records (0: never)."""
        delta = self._txn if self._txn is not None else MetadataDelta(self.image)
        in_txn, pending = self._txn is not None, False
        for n, (offset, record) in enumerate(records, 1):
            if isinstance(record, BeginTransactionRecord):
                if in_txn:
                    log.error("metadata record at offset %d: a transaction begins inside another", offset)
                elif pending:
                    self._publish_delta(delta)
                    delta = MetadataDelta(self.image)
                in_txn = True
            elif isinstance(record, EndTransactionRecord):
                in_txn = False
            elif isinstance(record, AbortTransactionRecord):
                delta, in_txn = MetadataDelta(self.image), False
            else:
                _replay_one(delta, record, offset)
            delta.offset = offset
            pending = True
            if step and n % step == 0:
                yield
        self._txn = delta if in_txn else None
        if not in_txn and pending:
            self._publish_delta(delta)

    def _publish_delta(self, delta: MetadataDelta) -> None:
        """Publish the delta's image, with the controller id of the image of the moment (set_controller_id
        may have changed it while the delta was replayed in steps)."""
        image = delta.apply()
        if image.controller_id != self.image.controller_id:
            image = replace(image, controller_id=self.image.controller_id)
        self._publish(image)

    @property
    def in_transaction(self) -> bool:
        """The last applied record is inside a metadata transaction (not yet in the image)."""
        return self._txn is not None

    def restore_snapshot(self, data: bytes, end_offset: int) -> None:
        from .snapshot import decode_snapshot

        self._txn = None
        self._publish(decode_snapshot(data, end_offset, self.image.cluster_id, self.image.controller_id))

    def snapshot_bytes(self, end_offset: int) -> bytes:
        from .snapshot import encode_snapshot

        node = self.raft_node  # the snapshot's batches carry its epoch: the log's at its last offset
        epoch = (node.log.epoch_at(end_offset - 1) if node is not None and end_offset > 0 else None) or 0
        return encode_snapshot(self.image, end_offset, epoch)

    def set_controller_id(self, leader_id: int) -> None:
        if self.image.controller_id != leader_id:
            self.image = replace(self.image, controller_id=leader_id)

    def _publish(self, image: MetadataImage) -> None:
        """Tell every listener; one failing listener neither stops the others nor
        undoes a record that is already committed (it is logged)."""
        self.image = image
        prev, self._told = self._told, image
        for fn in list(self._listeners):
            try:
                fn(prev, image)
            except Exception:
                log.exception("metadata listener %r failed applying the image at offset %d", fn, image.offset)

    # ------------------------------------------------------------------ the write path

    def decisions(self) -> Decisions:
        """The decisions (and read-side views) over the current image."""
        return Decisions(self.env, self.image)

    def write(self, decide: Callable[[Decisions], ControllerResult], validate_only: bool, now_ms: int) -> Written:
        """Run a decision on the current image and hand its records to the driver as one
        batch; validate_only drops them. The Commit says where they went."""
        return self._written(decide(self._settled_decisions()), validate_only, now_ms)

    def write_steps(self, decide_steps: Callable[[Decisions], Generator[None, None, ControllerResult]],
                    validate_only: bool, now_ms: int) -> Generator[None, None, Written]:
        """write() of a decision made a part at a time (a generator over the Decisions that yields
        between parts, controller/steps.py): yields between its parts, then hands its records to the
        driver as one batch, as write() - if the image is still the one it was decided on. Another
        write meanwhile (this node's broker, another client's request) makes it decide again, up to
        STEPPED_DECISIONS times, then in one piece on the image of the moment: what is written is
        always decided on the image it is written over (a validate_only decision on the image it
        started with). A decision of more than ENCODE_STEP records also has its batch encoded and
        framed a part at a time (records.encoded_steps) and, on a single voter, its records replayed
        into the delta a part at a time (_replay_steps): its proposal, fsync off the loop, and its
        apply (the delta's apply and the listeners) are then all that is left in one piece (a
        4,999-topic CreateTopics, one batch of 9,998 records: encoding ~250 ms and replay ~100-500 ms
        were single event-loop turns)."""
        for _ in range(STEPPED_DECISIONS):
            prepared = None  # a large decision's batch, made a part at a time too (encoded_steps)
            decisions = self._settled_decisions()
            result = yield from decide_steps(decisions)
            if validate_only:
                break
            if len(result.records) > ENCODE_STEP:
                yield
                prepared = yield from encoded_steps(result.records, now_ms)
                if self._local is not None:
                    self._replayed = yield from self._replay_steps(decisions.image, result.records)
            if self._local is not None:
                self._local.settle_any()
            if self.image is decisions.image:
                break
        else:
            result, prepared = whole(decide_steps(self._settled_decisions())), None
        return self._written(result, validate_only, now_ms, prepared)

    def _settled_decisions(self) -> Decisions:
        if self._local is not None:
            self._local.settle_any()  # decided on the image of every write before it
        return self.decisions()

    def _written(self, result: ControllerResult, validate_only: bool, now_ms: int,
                 prepared: Prepared | None = None) -> Written:
        if validate_only or not result.records:
            return Written(result.response, NOTHING_WRITTEN)
        return Written(result.response, self.commit(result.records, now_ms, prepared))

    def commit(self, records: list, now_ms: int, prepared: Prepared | None = None) -> Commit:
        """``prepared``: the records' batch made already (records.encoded_steps)."""
        if not records:
            return NOTHING_WRITTEN
        if self._driver is None:
            raise RuntimeError("controller not started")
        before = self.image  # names of removed topics; logged once the write went through
        if self._replayed is not None and self._replayed[0] is not records:
            self._replayed = None  # (replayed for a batch that was never proposed)
        commit = self._driver.propose(records, now_ms, prepared)
        _log_topic_changes(before, records)
        return commit

    def deferring(self) -> Deferring:
        """A scope whose single-voter writes are written only: their fsync is the scope's
        pending_sync (to run off the event loop), their commit and apply settle() (a Raft quorum
        node's writes are unchanged: they are applied when committed, as always)."""
        return self._local.deferring() if self._local is not None else Deferring()

    def settle(self, scope: Deferring) -> None:
        """Commit and apply the scope's pending write once its fsync ran (or run it here);
        raises the OSError of a write of the scope that failed (nothing of it applied)."""
        if self._local is not None:
            self._local.settle(scope.syncs)

    def _write(self, decide, validate_only: bool, now_ms: int):
        """The requests of AdminWrites (create_topics, ...) answer with the response alone."""
        return self.write(decide, validate_only, now_ms).response

    def _write_steps(self, decide_steps, validate_only: bool, now_ms: int):
        return (yield from self.write_steps(decide_steps, validate_only, now_ms)).response

    # ------------------------------------------------------------------ reads

    def describe_configs(self, resources, include_synonyms: bool = False,
                         include_documentation: bool = False) -> list[DescribedResource]:
        """resources: [(resource_type, resource_name, keys | None)]."""
        return self.decisions().describe_configs(resources, include_synonyms, include_documentation)

    def topic_config(self, name: str) -> dict[str, str]:
        """Effective config of a topic (overrides over broker defaults), Kafka names. Resolved once
        per set of overrides and dynamic broker configs (the broker asks twice for each partition
        it makes: 4,999 new topics resolved 35 configs 10,000 times, a third of a creation's CPU)."""
        t = self.image.topics.get(name)
        key = tuple(sorted(t.configs.items())) if t is not None and t.configs else ()
        layers = self.image.broker_configs
        if self._configs_for is not layers or len(self._configs) >= CONFIG_CACHE_SIZE:
            self._configs_for, self._configs = layers, {}
        got = self._configs.get(key)
        if got is None:
            got = self._configs[key] = self.decisions().topic_config(name)
        return dict(got)

    def topic_config_views(self, overrides: dict[str, str], synonyms: bool = False) -> list[ConfigView]:
        return self.decisions().topic_config_views(overrides, synonyms)

    def finalized_features(self) -> dict[str, int]:
        return features.finalized(self.image.features)

    def finalized_features_epoch(self) -> int:
        return max(self.image.offset, 0)


def _record_problem(record) -> str | None:
    """Why a committed record must not reach the image (written before validation
    existed), or None.  Only ConfigRecords are checked, key by key, with the log's parser."""
    if not isinstance(record, ConfigRecord) or record.value is None:
        return None
    name, value = record.name, record.value
    try:
        if record.resource_type == TOPIC:
            if not is_log_config(name):
                return None
            validate_properties({name: value})
        elif record.resource_type == BROKER and name in C.BROKER_SYNONYMS:
            d, syn = C.BROKER_SYNONYMS[name]
            if not is_log_config(d.name):
                return None
            scaled = str(int(value) * syn.scale) if syn.scale != 1 else value
            if d.name == "retention.ms" and int(scaled) < 0:
                scaled = "-1"  # (Kafka's logRetentionTimeMillis: any negative broker value is unlimited)
            validate_properties({d.name: scaled})
    except ConfigError as e:
        return e.kafka_message()
    except (TypeError, ValueError) as e:
        return str(e)
    return None


LOGGED_TOPICS = 50  # a write creating more topics than this logs them in one line


def _log_topic_changes(before: MetadataImage, records: list) -> None:
    """Topics created and deleted at INFO, as Kafka's controller logs them (decisions only,
    never the replay at start-up). The topics of a write that creates many (a large CreateTopics,
    one batch) are one line, as Kafka's 'CreateTopics result(s): ...': 4,999 lines took the event
    loop ~0.5 s in one piece."""
    partitions: dict[bytes, int] = {}
    for p in records:
        if isinstance(p, PartitionRecord):
            partitions[p.topic_id] = partitions.get(p.topic_id, 0) + 1
    created = [r for r in records if isinstance(r, TopicRecord)]
    if len(created) > LOGGED_TOPICS:
        log.info("Created %d topics: %s.", len(created), ", ".join(
            f"{r.name} (topic ID {uuid_str(r.topic_id)}, {partitions.get(r.topic_id, 0)} partition(s))"
            for r in created))
        created = []
    for r in created:
        log.info("Created topic %s with topic ID %s and %d partition(s).", r.name, uuid_str(r.topic_id),
                 partitions.get(r.topic_id, 0))
    for r in records:
        if isinstance(r, RemoveTopicRecord):
            t = before.topics_by_id.get(r.topic_id)
            log.info("Removed topic %s with ID %s.", t.name if t else "?", uuid_str(r.topic_id))


def _decoded(base_offset: int, values):
    """(offset, record) of each encoded record of a batch, decoded as it is asked for; a record that
    cannot be decoded is logged and skipped."""
    for i, v in enumerate(values):
        try:
            yield base_offset + i, decode_record(v)[0]
        except Exception:
            log.exception("metadata record at offset %d cannot be decoded; skipped", base_offset + i)


def _replay_one(delta: MetadataDelta, record, offset: int) -> None:
    """Replay one committed record; a record that is invalid or fails to apply is
    logged and skipped, so the image keeps the last good value and later records
    still apply (a restart never stops on it)."""
    problem = _record_problem(record)
    if problem is not None:
        log.error("metadata record at offset %d skipped, keeping the previous value: %s (%r)",
                  offset, problem, record)
        return
    try:
        delta.replay(record, offset)
    except Exception:
        log.exception("metadata record at offset %d could not be applied; skipped (%r)", offset, record)
