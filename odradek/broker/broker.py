"""Broker: the start-up and shutdown order of the controller, logs, replicas and coordinators,
and the ports handlers see (``services``, built in broker/services.py).

No sockets here (those are in server.py); time comes from ``clock_ms``.
"""

from __future__ import annotations

import functools
import logging
import os
import uuid
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from odradek.broker.carried_out import CarriedOut
from odradek.broker.coordinator_events import CoordinatorEvents
from odradek.broker.coordinator_log import CoordinatorBatches, PendingWrites
from odradek.broker.node_link import PLAINTEXT_LINK
from odradek.broker.replication_throttle import ReplicationThrottle
from odradek.controller.configs import dynamic_broker_long
from odradek.coordinator.partition_loading import CoordinatorPartitions

if TYPE_CHECKING:
    from odradek.broker.stats import TopicStats

LOG_CONFIG_CACHE_SIZE = 4096  # distinct topic LogConfigs remembered (the cache starts again past it)

log = logging.getLogger(__name__)

CONSUMER_OFFSETS = "__consumer_offsets"
TRANSACTION_STATE = "__transaction_state"
SHARE_GROUP_STATE = "__share_group_state"
# Kafka's defaults for how long a coordinator write may take to be replicated: the
# transaction coordinator's request.timeout.ms and share.coordinator.write.timeout.ms
TXN_STATE_WRITE_TIMEOUT_MS = 30_000
SHARE_STATE_WRITE_TIMEOUT_MS = 5_000
INTERNAL_TOPICS = frozenset({CONSUMER_OFFSETS, TRANSACTION_STATE, SHARE_GROUP_STATE})
# logs closed at once by a clean stop (LogManager.close): their fsyncs overlap (1,100 logs with data
# on a busy disk: 2 s with 16, ~30 s one after another; 8 and 32 measured about as 16)
LOG_CLOSE_THREADS = 16


class Broker:
    def __init__(self, config, clock_ms: Callable[[], int], schedule: Callable[[float, Callable], Any],
                 topic_stats: TopicStats | None = None, halt: Callable[[int], None] = os._exit,
                 background: Callable[[Callable[[], None]], None] | None = None):
        """``halt``: ends the process at once (Kafka's Exit.halt) when a log dir fails;
        ``background(fn)``: runs fn after the work waiting (the event loop's call_soon), for
        work done a slice at a time (a large creation's logs); None: all at once."""
        self._background = background
        from odradek.broker.purgatory import Purgatory

        self.config = config
        self._halt = halt
        self.topic_stats = topic_stats  # counted on leader appends when metrics are served
        self.clock_ms = clock_ms
        self.node_id = config.node_id
        adv = config.advertised
        self.advertised_host = adv.host
        self.advertised_port = adv.port
        # every advertised listener: name -> [host, port] (a port-0 listener's port once bound)
        self.advertised_endpoints = {lst.name: [lst.host, lst.port] for lst in config.advertised_broker_listeners}
        self.inter_broker_link = PLAINTEXT_LINK  # TLS/SASL of the inter-broker listener (set by start)
        self.purgatory = Purgatory(clock_ms, schedule)
        # the controller decisions made in steps, carried out even when their client went away
        self.carried_out = CarriedOut()
        self._schedule = schedule
        # a cluster broker loads its coordinators' partitions in the background as it comes to lead
        # them; a single node at once (broker/coordinator_loading.py)
        self._background_loads = False
        # the coordinators' appends to their internal topics, held until committed (connection.py)
        self.coordinator_writes = PendingWrites()
        # the group coordinator's requests, run a slice at a time, its appends written in batches
        # (group.coordinator.append.linger.ms; broker/coordinator_events.py)
        self.coordinator_batches = CoordinatorBatches(failed=self._reload_coordinator_partition)
        self.coordinator_events = CoordinatorEvents(self.coordinator_batches, self.coordinator_writes,
                                                    config.group_coordinator_append_linger_ms, clock_ms)
        self._group_loader = None
        self._loaders: list = []  # every coordinator's CoordinatorLoader (stopped by stop_work)
        self.controller = None
        self.log_manager = None
        self._broker_epoch: Callable[[], int] = lambda: -1  # BrokerLifecycle's once registered
        self.replicas = None
        self.alter_partition = None  # a cluster broker's AlterPartitionManager
        self.replica_fetchers = None  # a cluster broker's ReplicaFetcherManager (its follower partitions)
        # the server's log flusher's wait for logs' asked flushes (LogFlusher.wait_flushed), or None
        self.flush_waiter: Callable[[list], Awaitable[None]] | None = None
        self.groups = None
        self.txn_coordinator = None
        self.txn_offsets = None
        self.txn_markers = None  # a cluster broker's TxnMarkerChannel (WriteTxnMarkers to the leaders)
        self.txn_verifier = None  # a cluster broker's TxnVerifier (AddPartitionsToTxn to other coordinators)
        self.producer_ids = None
        self.fetch_sessions = None
        self.group_map: dict = {}  # every group of every type (the group coordinators' one map)
        self.share_groups = None
        self.share_states = None  # the share coordinator (coordinator/share_coordinator.py)
        self.share_persister = None
        self.topic_creator = None
        self.services = None  # api_handlers.ports.Services, once started
        self._lock_fd = None

    # ------------------------------------------------------------ start-up / shutdown

    def open_logs(self, controller=None) -> None:
        """Lock the data dir, open the metadata (a single node's own controller unless ``controller``
        is given) and load every log, recovering those not shut down cleanly: the slow part of a
        start, which touches no event loop (the server runs it in a worker thread, so its HTTP
        listener answers /health meanwhile)."""
        from odradek.log import LogConfig, LogManager

        cfg = self.config
        now = self.clock_ms()
        data_dir = cfg.data_dir
        os.makedirs(data_dir, exist_ok=True)
        self._lock_data_dir(data_dir)
        from odradek import controller as cmod

        self.controller_module = cmod
        self.controller = controller or cmod.Controller(cfg.metadata_dir, cfg.node_id,
                                                        cfg.controller_defaults(), now,
                                                        bootstrap=cfg.bootstrap_scram)
        default_log_config = cfg.log_config()
        self.default_log_config = default_log_config

        # A topic's LogConfig made once per (effective properties, config it had): 1,000 topics
        # given the same config by one AlterConfigs parse it once, not 1,000 times, and share it
        # (issue 27: the apply of that change held the event loop ~100 ms, most of it parsing).
        log_configs: dict[tuple, LogConfig] = {}

        def topic_log_config(topic: str):
            try:
                props = self.controller.topic_config(topic)
            except Exception:
                props = {}
            # The controller validates with the same parser before writing a record; a
            # bad value that still arrives (a log written before that) keeps the value
            # the topic's log has now, else the broker default, and is logged.
            logs = self.log_manager
            current = next((lg.config for lg in list(logs.topic_logs(topic).values())), None) \
                if logs is not None else None

            base = current or default_log_config
            key = (tuple(props.items()), base) if props else ((), base)
            made = log_configs.get(key)
            if made is not None:
                return made
            faults = []

            def bad(err):
                faults.append(err)
                log.error("topic %s: %s; keeping the previous value", topic, err.kafka_message())
            made = LogConfig.from_properties(props or {}, base=base, on_error=bad)
            if not faults:  # (a bad value is logged for each topic that has it: not remembered)
                if len(log_configs) >= LOG_CONFIG_CACHE_SIZE:
                    log_configs.clear()
                log_configs[key] = made
            return made

        self.topic_log_config = topic_log_config
        self.log_manager = LogManager(list(cfg.log_dirs), default_config=default_log_config,
                                      topic_config=topic_log_config, now_ms=now,
                                      cleaner_config=cfg.cleaner_config(),
                                      hw_checkpoint_interval_ms=cfg.replica_high_watermark_checkpoint_interval_ms)
        from odradek.broker.log_dir_failure import on_log_dir_failure

        self.log_manager.on_dir_failure = on_log_dir_failure(self.log_manager.log_dirs, self.log_manager.failed_dirs,
                                                             self._halt)

    def inter_broker_client(self, purpose: str, timeout_s: float):
        """A client of the other brokers' inter-broker listeners (over TLS when it is SSL)."""
        from odradek.broker.inter_broker import InterBrokerClient

        return InterBrokerClient(self.node_id, purpose, lambda: self.controller.image, timeout_s, self.inter_broker_link)

    def set_bound_port(self, listener: str, port: int) -> None:
        """A listener bound to port 0 is advertised on the port it got (unless advertised otherwise)."""
        ep = self.advertised_endpoints.get(listener)
        if ep is not None and ep[1] == 0:
            ep[1] = port
            if listener == self.config.advertised.name:
                self.advertised_port = port

    def registered_endpoints(self) -> tuple:
        """(name, host, port, security protocol id) of each advertised listener, as it registers
        (the inter-broker listener first)."""
        from odradek.config import SECURITY_PROTOCOL_IDS, listener_protocol

        return tuple((name, host, port, SECURITY_PROTOCOL_IDS[listener_protocol(self.config, name)])
                     for name, (host, port) in self.advertised_endpoints.items())

    def start(self, controller=None, topic_creator=None, controller_call=None,
              broker_epoch: Callable[[], int] | None = None) -> None:
        """Open everything. ``controller``: a Raft quorum's controller (already following
        the metadata log, see broker/quorum.py); the caller then registers this broker and
        calls start_coordinators(). ``topic_creator``: where the topics this broker creates
        itself go on a cluster (controller_channel.Forwarding: to the active controller).
        ``controller_call``: ControllerChannel.call, for the leaders' AlterPartition;
        ``broker_epoch``: this broker's epoch once registered (BrokerLifecycle)."""
        from odradek.api_handlers.fetch_session import FetchSessionCache
        from odradek.broker.producer_ids import LocalController, ProducerIdManager, controller_requests
        from odradek.broker.replica_manager import ReplicaManager

        if self.log_manager is None:
            self.open_logs(controller)
        cfg = self.config
        now = self.clock_ms()
        self._background_loads = controller is not None
        self._broker_epoch = broker_epoch or (lambda: -1)
        data_dir = cfg.data_dir
        cmod = self.controller_module
        self.topic_creator = topic_creator
        topic_log_config = self.topic_log_config

        def min_insync_replicas(topic: str) -> int:
            return int(self.controller.topic_config(topic).get("min.insync.replicas", cfg.min_insync_replicas))

        alter_partition = None
        # leader/follower.replication.throttled.rate (KIP-73) over this broker's partitions
        throttle = ReplicationThrottle(cfg.node_id, lambda: self.controller.image,
                                       cfg.replication_quota_window_size_seconds * 1000,
                                       cfg.replication_quota_window_num)
        if controller_call is not None:  # a cluster broker: leaders and followers of replicated partitions
            from odradek.broker.alter_partition import AlterPartitionManager
            from odradek.broker.replica_fetcher import ReplicaFetcherManager, broker_endpoints

            epoch_of_broker = self._broker_epoch
            alter_partition = self.alter_partition = AlterPartitionManager(
                controller_call, cfg.node_id, epoch_of_broker,
                lambda tp, pid, answer: self.replicas.on_alter_partition_answer(tp, pid, answer))
            from odradek.broker.node_link import node_link

            self.inter_broker_link = node_link(cfg, cfg.inter_broker_listener, cfg.sasl_mechanism_inter_broker_protocol)
            self.replica_fetchers = ReplicaFetcherManager(
                cfg.node_id, epoch_of_broker, broker_endpoints(lambda: self.controller.image), cfg,
                self.clock_ms, self.purgatory_poke, throttle, self.inter_broker_link, self.wait_flushed)
        self.replicas = ReplicaManager(self.log_manager, cfg.node_id, topic_log_config,
                                       self.purgatory_poke, self.clock_ms,
                                       min_insync_replicas=min_insync_replicas,
                                       replica_lag_time_max_ms=cfg.replica_lag_time_max_ms,
                                       fetchers=self.replica_fetchers,
                                       send_alter_partition=alter_partition.submit if alter_partition else None,
                                       topic_stats=self.topic_stats,
                                       replica_selector=cfg.replica_selector_class,
                                       background=self._background, throttle=throttle)
        self.controller.add_listener(self.replicas.on_metadata)
        if controller is None:
            self.controller.start(cmod.BrokerImage(cfg.node_id, self.advertised_host, self.advertised_port,
                                                   cfg.broker_rack, endpoints=self.registered_endpoints()),
                                  now, cfg.advertised.name)
            # a single node's metadata log is local: replayed, it is complete; a cluster
            # broker's logs wait for the metadata quorum (BrokerLifecycle.join)
            self.replicas.start(self.controller.image)
        if controller_call is None:  # a single node: blocks from its own controller (broker/producer_ids.py)
            local = LocalController(self.controller, cfg.node_id, self.clock_ms)
            local.start_above_legacy_file(data_dir)
            self.producer_ids = local.manager
        else:
            self.producer_ids = ProducerIdManager(cfg.node_id, self._broker_epoch,
                                                  controller_requests(controller_call, lambda: self.producer_ids),
                                                  self.clock_ms)
        self.fetch_sessions = FetchSessionCache(cfg.max_incremental_fetch_session_cache_slots,
                                                cfg.min_incremental_fetch_session_eviction_ms)
        self._start_share_coordinator()
        if controller_call is not None:  # transaction coordinators may be on other brokers
            from odradek.broker.txn_verifier import REQUEST_TIMEOUT_S, TxnVerifier

            self.txn_verifier = TxnVerifier(cfg.node_id, lambda: self.controller.image, self.purgatory_poke,
                                            client=self.inter_broker_client("txn-verifier", REQUEST_TIMEOUT_S))
        from odradek.broker.services import broker_services

        self.services = broker_services(self)
        if controller is None:
            self.start_coordinators()

    def internal_topic_specs(self) -> dict[str, tuple[int, dict]]:
        """{name: (partitions, configs)} of the topics the coordinators keep their state in."""
        cfg = self.config
        return {
            CONSUMER_OFFSETS: (cfg.offsets_topic_num_partitions, {
                "cleanup.policy": "compact",
                "compression.type": "producer",
                "segment.bytes": str(cfg.offsets_topic_segment_bytes),
            }),
            TRANSACTION_STATE: (cfg.transaction_state_log_num_partitions, {
                "cleanup.policy": "compact",
                "compression.type": "uncompressed",
                "segment.bytes": "104857600",
                # as Kafka's TransactionLog creates it
                "min.insync.replicas": str(cfg.transaction_state_log_min_isr),
                "unclean.leader.election.enable": "false",
            }),
            # as Kafka's share coordinator creates it (ShareCoordinatorConfig defaults)
            SHARE_GROUP_STATE: (cfg.share_coordinator_state_topic_num_partitions, {
                "cleanup.policy": "delete",
                "compression.type": "producer",
                "segment.bytes": str(cfg.share_coordinator_state_topic_segment_bytes),
                "retention.ms": "-1",
                "min.insync.replicas": str(cfg.share_coordinator_state_topic_min_isr),
            }),
        }

    def start_coordinators(self) -> None:
        """The group and transaction coordinators, loaded from whatever internal topics exist.
        The topics themselves are created on first use (ensure_internal_topic), as Kafka does."""
        from odradek.broker.services import attach_coordinators

        self._start_group_coordinator()
        self._start_txn_coordinator()
        self._follow_group_partitions()
        self._follow_txn_partitions()
        if self.share_groups is not None:
            self._follow_share_state_partitions()
        attach_coordinators(self.services, self.groups, self.txn_coordinator, self.txn_offsets)

    def ensure_internal_topic(self, name: str) -> bool:
        """Create internal topic `name` if it does not exist (Kafka: the first FindCoordinator of
        its kind, or Metadata naming it); True once it is in the metadata image."""
        if name not in self.controller.image.topics:
            partitions, configs = self.internal_topic_specs()[name]
            self.create_internal_topic(name, partitions, configs)
        return name in self.controller.image.topics

    def create_internal_topic(self, name: str, partitions: int, configs: dict) -> None:
        """With its configured replication factor: too few brokers fail the creation
        (INVALID_REPLICATION_FACTOR, logged; the coordinator stays unavailable), as Kafka."""
        cmod = self.controller_module
        cfg = self.config
        rf = {CONSUMER_OFFSETS: cfg.offsets_topic_replication_factor,
              TRANSACTION_STATE: cfg.transaction_state_log_replication_factor,
              SHARE_GROUP_STATE: cfg.share_coordinator_state_topic_replication_factor}[name]
        res = self._create_topics(
            [cmod.CreateTopicSpec(name, num_partitions=partitions, replication_factor=rf, configs=configs,
                                  internal=True)], self.clock_ms())
        if res and res[0].error_code not in (0, 36):
            log.error("cannot create %s: error %d %s", name, res[0].error_code, res[0].error_message)

    def _lock_data_dir(self, data_dir: str) -> None:
        import fcntl

        fd = os.open(os.path.join(data_dir, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RuntimeError(f"data directory {data_dir} is in use by another odradek process") from None
        self._lock_fd = fd

    def _start_group_coordinator(self) -> None:
        from odradek.broker.coordinator_log import CoordinatorLog
        from odradek.coordinator.group_coordinator import GroupCoordinator

        clog = CoordinatorLog(self.replicas, CONSUMER_OFFSETS, self.coordinator_writes,
                              self.coordinator_batches)
        # share group epochs are in __consumer_offsets too: they load from the same replay
        replay = self.share_persistence.replay_group_record if self.share_groups is not None else None
        # a group's consumer.* and streams.* GROUP configs (IncrementalAlterConfigs), within the broker's
        # bounds, over the broker's group.consumer.* / group.streams.*
        from odradek.controller.group_configs import clamped

        def overrides(gid: str) -> dict:
            return clamped(self.controller.image.group_configs.get(gid, {}), self.group_broker_props)

        self.groups = GroupCoordinator(log=clog, config=self.config, now_ms=self.clock_ms(),
                                       poke=self.purgatory_poke, replay=replay, new_uuid=lambda: str(uuid.uuid4()),
                                       group_overrides=overrides, partitions=CoordinatorPartitions(),
                                       groups=self.group_map)

    def _follow_group_partitions(self) -> None:
        """The group coordinator (and the transactional offset commits of TxnOffsetStore) load each
        __consumer_offsets partition this node leads, now and as leadership moves."""
        from odradek.broker.coordinator_loading import CoordinatorLoader
        from odradek.broker.coordinator_log import plain_records

        def apply(partition: int, batches: list, log_start: int, now_ms: int) -> None:
            # (what is beyond the partition's HW: not read until committed)
            self.groups.load_records(plain_records(batches, log_start), now_ms, partition)
            self.txn_offsets.load_partition(partition, batches, now_ms)

        def unload(partition: int) -> None:
            self.groups.unload_partition(partition)
            self.txn_offsets.unload_partition(partition)

        self._group_loader = CoordinatorLoader(CONSUMER_OFFSETS, self.replicas, self.groups.runtime.partitions,
                                               apply, unload, self.clock_ms,
                                               self._schedule if self._background_loads else None)
        self._start_loader(self._group_loader)

    def _reload_coordinator_partition(self, topic: str, partition: int) -> None:
        """A batch of the group coordinator's records could not be written: its state is ahead of
        the log, so the partition's state is read again from the log (Kafka reverts to the snapshot
        of the last written offset; when the log and the state disagree it reloads the partition)."""
        if self._group_loader is not None and topic == CONSUMER_OFFSETS:
            self._group_loader.reload(partition)

    def _follow_txn_partitions(self) -> None:
        """The transaction coordinator loads each __transaction_state partition this node leads, now
        and as leadership moves (after the group partitions: a transaction it completes on load may
        write its markers to __consumer_offsets)."""
        from odradek.broker.coordinator_loading import CoordinatorLoader
        from odradek.broker.coordinator_log import plain_records

        txn = self.txn_coordinator

        def apply(partition: int, batches: list, log_start: int, now_ms: int) -> None:
            txn.load_records(partition, plain_records(batches, log_start), now_ms)

        self._start_loader(CoordinatorLoader(TRANSACTION_STATE, self.replicas, txn.runtime.partitions, apply,
                                             txn.unload_partition, self.clock_ms,
                                             self._schedule if self._background_loads else None))

    def _start_loader(self, loader) -> None:
        self._loaders.append(loader)
        self.replicas.leadership_listeners.append(loader.leadership_changed)
        loader.start(self.replicas.leader_epochs)

    @functools.cached_property
    def group_broker_props(self) -> dict[str, str]:
        """The broker's group.* settings (what a group's configs default to, and their bounds)."""
        return self.config.properties("group.")

    def share_group_settings(self, group_id: str) -> dict[str, str]:
        from odradek.controller import group_configs

        overrides = dict(self.controller.image.group_configs.get(group_id, {}))
        return group_configs.effective(overrides, self.group_broker_props)

    def _start_share_coordinator(self) -> None:
        """The share group coordinator (membership, and the share-partitions of the data partitions
        led here), the share coordinator (the state of the __share_group_state partitions led here)
        and the persister between them (broker/share_persister.py)."""
        from odradek.broker.coordinator_log import CoordinatorLog
        from odradek.broker.share_persister import REQUEST_TIMEOUT_S as SHARE_REQUEST_TIMEOUT_S, SharePersister
        from odradek.coordinator.share_coordinator import ShareCoordinator
        from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator
        from odradek.coordinator.share_persistence import SharePersistence

        def offsets(topic: str, partition: int):
            plog = self.replicas.get(topic, partition)
            return None if plog is None else (plog.log_start_offset, plog.high_watermark)

        def offset_for_timestamp(topic: str, partition: int, timestamp: int) -> int | None:
            plog = self.replicas.get(topic, partition)
            found = None if plog is None else plog.offset_for_timestamp(timestamp)
            return None if found is None else found.offset

        def state_partitions():
            t = self.image.topics.get(SHARE_GROUP_STATE)
            return None if t is None else len(t.partitions)

        def leader_epoch(topic: str, partition: int) -> int | None:
            return None if self.replicas.get(topic, partition) is None else self.replicas.leader_epoch(topic, partition)

        self.share_groups = ShareGroupCoordinator(settings=self.share_group_settings, offsets=offsets,
                                                  offset_for_timestamp=offset_for_timestamp, clock_ms=self.clock_ms,
                                                  max_share_sessions=self.config.group_share_max_share_sessions,
                                                  max_group_size=self.config.group_share_max_size,
                                                  stored_state=lambda *a: self.share_persister.stored_state(*a),
                                                  initialize_state=lambda *a: self.share_persister.initialize(*a),
                                                  groups=self.group_map)
        self.share_states = ShareCoordinator(CoordinatorLog(self.replicas, SHARE_GROUP_STATE, self.coordinator_writes),
                                             state_partitions)
        self.share_persister = SharePersister(self.node_id, lambda: self.controller.image, self.share_states,
                                              self.share_groups, leader_epoch, self.purgatory_poke, self.clock_ms,
                                              remote=self.alter_partition is not None,
                                              client=(self.inter_broker_client("share-persister", SHARE_REQUEST_TIMEOUT_S)
                                                      if self.alter_partition is not None else None),
                                              latest_offset=lambda t, p: (offsets(t, p) or (None, None))[1],
                                              ensure_state_topic=lambda: self.ensure_internal_topic(SHARE_GROUP_STATE))
        self.replicas.leadership_listeners.append(self.share_persister.leadership_changed)
        self.share_persistence = SharePersistence(
            self.share_groups, CoordinatorLog(self.replicas, CONSUMER_OFFSETS, self.coordinator_writes,
                              self.coordinator_batches),
            self.share_persister,
            offsets_partition_for=lambda gid: None if self.groups is None else self.groups.partition_for(gid),
            state_partitions=state_partitions,
            ensure_state_topic=lambda: self.ensure_internal_topic(SHARE_GROUP_STATE),
            released=self.poke_share_partitions)
        self._next_share_prune_ms = self.clock_ms() + self.config.share_coordinator_state_topic_prune_interval_ms

    def _follow_share_state_partitions(self) -> None:
        """The share coordinator loads each __share_group_state partition this node leads, now and as
        leadership moves. The share-partitions of its keys whose data partition is led here too are
        restored at once (on a single node: all of them); those of topics deleted meanwhile are
        deleted."""
        from odradek.broker.coordinator_loading import CoordinatorLoader
        from odradek.broker.coordinator_log import plain_records

        store, sg = self.share_states, self.share_groups

        def apply(partition: int, batches: list, log_start: int, now_ms: int) -> None:
            keys = store.load(partition, plain_records(batches, log_start))
            by_id = self.image.topics_by_id
            for key in keys:
                t = by_id.get(key[1])
                if t is None:
                    store.delete(key, now_ms)
                elif key not in sg.partitions and self.replicas.get(t.name, key[2]) is not None:
                    s = store.states[partition][key]
                    sg.restore_partition(key, s.start_offset, s.batches, s.state_epoch)

        def unload(partition: int) -> None:
            store.unload(partition)
            self.share_persister.state_partition_unloaded(partition)

        self._start_loader(CoordinatorLoader(SHARE_GROUP_STATE, self.replicas, store.partitions, apply,
                                             unload, self.clock_ms,
                                             self._schedule if self._background_loads else None))

    def persist_share_state(self, now_ms: int) -> list:
        """Write what changed in share groups since the last call (coordinator/share_persistence.py):
        the writes to share coordinators on other brokers it started, and those that failed at once
        (answered already: their acknowledgements are rolled back)."""
        if self.share_groups is None:
            return []
        from odradek.api_handlers.ports import ShareStateWrite

        self.share_persister.created.clear()
        failed = self.share_persistence.persist(now_ms)
        return list(self.share_persister.created) + [
            ShareStateWrite(("share-state-write-failed", key), key, err) for key, err in failed.items()]

    def prune_share_state(self) -> None:
        for partition, low in self.share_states.prune_points():
            self.replicas.delete_records(SHARE_GROUP_STATE, partition, low)

    def coordinator_write_timeout_ms(self, writes) -> int:
        """How long a response waits for its coordinator writes to be committed: Kafka's
        offsets.commit.timeout.ms for __consumer_offsets, the transaction coordinator's
        request.timeout.ms (30 s) for __transaction_state, share.coordinator.write.timeout.ms
        (5 s) for __share_group_state."""
        timeouts = {CONSUMER_OFFSETS: self.config.offsets_commit_timeout_ms,
                    TRANSACTION_STATE: TXN_STATE_WRITE_TIMEOUT_MS, SHARE_GROUP_STATE: SHARE_STATE_WRITE_TIMEOUT_MS}
        return max(timeouts.get(w.topic, TXN_STATE_WRITE_TIMEOUT_MS) for w in writes)

    def _start_txn_coordinator(self) -> None:
        from odradek.broker.coordinator_log import CoordinatorLog
        from odradek.coordinator.txn_coordinator import TxnCoordinator
        from odradek.coordinator.txn_offsets import TxnOffsetStore
        from odradek.wire.records import build_control_batch

        now = self.clock_ms()
        offsets_log = CoordinatorLog(self.replicas, CONSUMER_OFFSETS, self.coordinator_writes,
                              self.coordinator_batches)

        def append_offsets(partition: int, batch: bytes, now_ms: int) -> None:
            offsets_log.append_batch(partition, batch, now_ms)

        self.txn_offsets = TxnOffsetStore(self.groups, append_offsets)  # loaded with the group partitions

        def write_marker(topic, partition, pid, epoch, commit, coordinator_epoch, now_ms) -> int:
            if self.replicas.get(topic, partition) is None:
                return 3  # UNKNOWN_TOPIC_OR_PARTITION: deleted since it joined the transaction
            self.replicas.append(topic, partition,
                                 build_control_batch(commit, pid, epoch, coordinator_epoch, now_ms), now_ms)
            return 0

        send_markers = None
        if self.alter_partition is not None:  # a cluster broker: markers go to each partition's leader
            from odradek.broker.txn_marker_channel import REQUEST_TIMEOUT_S, TxnMarkerChannel

            self.txn_markers = TxnMarkerChannel(self.node_id, lambda: self.controller.image,
                                                lambda tid: self.txn_coordinator.coordinator_epoch_of(tid),
                                                lambda txn, now_ms: self.txn_coordinator.markers_written(txn, now_ms),
                                                self.clock_ms,
                                                client=self.inter_broker_client("txn-marker-sender", REQUEST_TIMEOUT_S))
            send_markers = self.txn_markers.send
        self.txn_coordinator = TxnCoordinator(
            log=CoordinatorLog(self.replicas, TRANSACTION_STATE, self.coordinator_writes), config=self.config,
            allocate_producer_id=self.allocate_producer_id, write_marker=write_marker,
            offsets=self.txn_offsets, now_ms=now,
            transaction_version=lambda: self.finalized_features().get("transaction.version", 0),
            send_markers=send_markers, partitions=CoordinatorPartitions())

    def close(self) -> None:
        """Clean shutdown: complete waiting requests, flush logs (clean markers), stop metadata, all
        on the calling thread (a start that failed). BrokerServer.close takes the same steps with
        close_logs in a worker thread."""
        self.close_logs(self.stop_work())
        self.close_metadata()

    def stop_work(self) -> int:
        """close's first step, on the event loop: waiting requests completed, the coordinators
        stopped (their loads, their events: their open batches written, what is queued or comes
        later failed NOT_COORDINATOR), and no metadata image followed any more (ReplicaManager.stop: as
        Kafka's BrokerServer removes its metadata publishers before its LogManager shuts down), so
        nothing on the loop creates, deletes or reconfigures a log while close_logs runs. -> the
        broker epoch this broker shut down in (its next registration's previous_broker_epoch)."""
        self.carried_out.cancel_all()
        # the coordinators stop first, as Kafka's BrokerServer shuts its coordinator runtimes down
        # before its LogManager: nothing they still have scheduled on the loop (a slice of events,
        # a flush or its timer, a load's next step) writes to a log a worker is closing
        for loader in self._loaders:
            loader.stop()
        try:
            self.coordinator_events.close()  # (the group coordinator's open batches are written)
        except Exception:
            log.exception("coordinator batches at shutdown")
        if self.alter_partition is not None:
            self.alter_partition.close()
        try:
            self.purgatory.cancel_all()
        except Exception:
            log.exception("purgatory shutdown")
        if self.share_groups is not None and self.log_manager is not None:
            try:
                self.persist_share_state(self.clock_ms())
            except Exception:
                log.exception("share group state at shutdown")
        if self.replicas is not None:
            self.replicas.stop()  # (no log made or changed once the logs close)
        return self._broker_epoch()

    def close_logs(self, broker_epoch: int) -> None:
        """close's second step: every log closed, then the clean-shutdown markers written
        (LogManager.close). A handful of fsyncs a log (~30 s for 1,100 logs on a busy disk):
        BrokerServer.close runs it in a worker thread, so that the event loop goes on serving what
        still runs on it meanwhile - a combined node's metadata quorum (its raft node answers votes
        and fetches, as Kafka's raft IO thread does through a slow log shutdown)."""
        if self.log_manager is not None:
            self.log_manager.close(broker_epoch=broker_epoch, threads=LOG_CLOSE_THREADS)

    def close_metadata(self) -> None:
        """close's last step, after the logs: the metadata log (a single voter's) and the data
        directory's lock."""
        if self.controller is not None:
            self.controller.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # ------------------------------------------------------------ periodic work

    def tick(self, now_ms: int) -> None:
        if self.replicas is not None:
            self.replicas.tick(now_ms)
        if self.groups is not None:
            self.groups.tick(now_ms)
        if self.txn_coordinator is not None:
            self.txn_coordinator.tick(now_ms)
        if self.share_groups is not None:
            self.poke_share_partitions(self.share_groups.tick(now_ms))
            self.persist_share_state(now_ms)
            if now_ms >= self._next_share_prune_ms:
                self._next_share_prune_ms = now_ms + self.config.share_coordinator_state_topic_prune_interval_ms
                self.prune_share_state()

    def poke_share_partitions(self, keys) -> None:
        """Records became available again in these share-partitions: wake waiting ShareFetches."""
        for _, topic_id, partition in keys:
            t = self.image.topics_by_id.get(topic_id)
            if t is not None:
                self.purgatory_poke(("partition", t.name, partition))

    def apply_retention(self, now_ms: int) -> int:
        return self.log_manager.apply_retention(now_ms)

    def remove_expired_producers(self, now_ms: int) -> int:
        # producer.id.expiration.ms, dynamic as on Kafka (DynamicProducerStateManagerConfig)
        expiration_ms = dynamic_broker_long(self.image.broker_configs, self.config.node_id, "producer.id.expiration.ms",
                                            self.config.producer_id_expiration_ms)
        return self.log_manager.remove_expired_producers(now_ms, expiration_ms)

    def flush_dirty_steps(self, now_ms: int):
        """The logs' flush.ms policy, in steps (LogManager.flush_dirty_steps); the high-watermark checkpoint
        is the server's, in a worker thread (LogManager.high_watermarks_due)."""
        return self.log_manager.flush_dirty_steps(now_ms, checkpoint=False)

    def has_compacted_logs(self) -> bool:
        return any(lg.config.compact for lg in self.log_manager)

    # ------------------------------------------------------------ behind the handlers' ports (broker/services.py)

    @property
    def image(self):
        return self.controller.image

    async def wait_flushed(self, logs: list) -> None:
        """The replica fetchers' wait for the flush.messages flushes their appends asked of the log
        flusher (none without one: the appends flushed at once)."""
        waiter = self.flush_waiter
        if waiter is not None:
            await waiter(logs)

    def purgatory_poke(self, key) -> int:
        return self.purgatory.poke(key)

    def finalized_features(self) -> dict[str, int]:
        return self.controller.finalized_features()

    def create_topics(self, specs, validate_only: bool, now_ms: int):
        return self.controller.create_topics(specs, validate_only, now_ms)

    def _create_topics(self, specs, now_ms: int):
        """Topics this broker creates itself: on a single node the local controller commits
        them now (their results); a cluster broker asks the active controller in the
        background (no results; they arrive with the metadata log)."""
        if self.topic_creator is not None:
            return self.topic_creator.create_topics(specs, now_ms)
        return self.controller.create_topics(specs, False, now_ms)

    def auto_create_topics(self, names: list[str], now_ms: int):
        """Metadata's auto-creation; an internal topic is made as its coordinator needs it."""
        cmod = self.controller_module
        for n in names:
            if n in INTERNAL_TOPICS:
                self.ensure_internal_topic(n)
        return self._create_topics([cmod.CreateTopicSpec(n) for n in names if n not in INTERNAL_TOPICS], now_ms)

    def create_streams_internal_topics(self, topics: list, now_ms: int) -> None:
        """The internal topics a streams group's topology needs: [(name, partitions, replication
        factor or -1, configs)], created as a client's CreateTopics would."""
        cmod = self.controller_module
        specs = [cmod.CreateTopicSpec(n, num_partitions=p, replication_factor=rf, configs=dict(c))
                 for n, p, rf, c in topics]
        res = self._create_topics(specs, now_ms)
        for r in res or []:
            if r.error_code not in (0, 36):
                log.warning("cannot create streams internal topic %s: error %d %s", r.name, r.error_code,
                            r.error_message)

    def is_internal(self, topic: str) -> bool:
        return topic in INTERNAL_TOPICS

    def allocate_producer_id(self) -> int:
        return self.producer_ids.allocate()
