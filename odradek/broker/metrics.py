"""The broker's metrics, served as Prometheus text on `/metrics` (broker/http_server.py).

Names are those the Prometheus JMX exporter's standard Kafka rules (example_configs/
kafka-2_0_0.yml, lowercaseOutputName) give Kafka's MBeans, so dashboards built on a Kafka
broker work unchanged: ``kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t``
-> ``kafka_server_brokertopicmetrics_messagesin_total{topic="t"}``; a Yammer histogram such as
``kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce`` -> quantile samples
``kafka_network_requestmetrics_totaltimems{request="Produce",quantile="0.99"}`` (a gauge) and
the counter ``..._count_total`` - checked side by side against Kafka 4.3 with the exporter 1.0.1.

The hot paths only add to plain counters (TopicStats, RequestStats); everything else is
read from the broker's state when Prometheus scrapes (BrokerCollector), through the
prometheus_client library's exposition.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client.core import CollectorRegistry, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.process_collector import ProcessCollector

from odradek.broker.stats import COMPONENTS, PURGATORIES, QUANTILES, LogStats, RequestStats, TopicStats, quantile
from odradek.coordinator.group_model import CLASSIC, CONSUMER

if TYPE_CHECKING:
    from odradek.broker.broker import Broker
    from odradek.controller.image import MetadataImage
    from odradek.broker.raft_driver import RaftDriver

def _family(name: str, doc: str, typ: str) -> Metric:
    return Metric(name, doc, typ)


def _counter(name: str, doc: str, by: dict, label: str | None = None) -> Metric:
    """A counter of Kafka's per-topic (or per-something) kind: the "" key is the unlabelled
    all-topics sample, as the exporter writes both."""
    m = _family(name, doc, "counter")
    for key, value in sorted(by.items()):
        labels = {} if key == "" or label is None else {label: key}
        m.add_sample(name + "_total", labels, value)
    return m


def _gauge(name: str, doc: str, samples: Iterator[tuple[dict, float]]) -> Metric:
    m = _family(name, doc, "gauge")
    for labels, value in samples:
        m.add_sample(name, labels, value)
    return m


class BrokerCollector:
    """What /metrics shows, read from the broker's state at scrape time."""

    def __init__(self, broker: Broker, topics: TopicStats, requests: RequestStats, logs: LogStats,
                 connections: Callable[[], dict[str, int]], connections_created: Callable[[], dict[str, int]]):
        self.broker = broker
        self.topics = topics
        self.requests = requests
        self.log_stats = logs
        self.connections = connections
        self.connections_created = connections_created

    def collect(self) -> Iterator[Metric]:
        t = self.topics
        yield _counter("kafka_server_brokertopicmetrics_messagesin", "Records appended (MessagesInPerSec)",
                       t.messages_in, "topic")
        yield _counter("kafka_server_brokertopicmetrics_bytesin", "Bytes appended by clients (BytesInPerSec)",
                       t.bytes_in, "topic")
        yield _counter("kafka_server_brokertopicmetrics_bytesout", "Record bytes sent to consumers (BytesOutPerSec)",
                       t.bytes_out, "topic")
        yield _counter("kafka_server_brokertopicmetrics_totalproducerequests",
                       "Produce requests per partition (TotalProduceRequestsPerSec)", t.produce_requests, "topic")
        yield from self._requests()
        yield from self._replicas()
        yield from self._logs()
        yield from self._flushes_and_cleaner()
        yield from self._throttles()
        yield from self._groups()
        yield _gauge("kafka_server_socket_server_metrics_connection_count", "Open client connections",
                     (({"listener": k}, v) for k, v in sorted(self.connections().items())))
        # Kafka's socket-server-metrics *-total attributes, as the exporter's default naming writes
        # them (untyped, without "_total"; Kafka labels them by network processor too, odradek has none)
        r = self.requests
        created = self.connections_created()
        for name, by, doc in (("connection_creation", created, "Connections accepted"),
                              ("failed_authentication", r.auth_failed, "Failed SASL authentications"),
                              ("successful_authentication", r.auth_ok, "Successful SASL authentications")):
            m = _family("kafka_server_socket_server_metrics_" + name, doc, "unknown")
            for k in sorted(created):
                m.add_sample("kafka_server_socket_server_metrics_" + name, {"listener": k}, by.get(k, 0))
            yield m

    def _requests(self) -> Iterator[Metric]:
        r = self.requests
        m = _family("kafka_network_requestmetrics_requests", "Requests (RequestsPerSec)", "counter")
        for (name, version), n in sorted(r.requests.items()):
            m.add_sample("kafka_network_requestmetrics_requests_total", {"request": name, "version": str(version)}, n)
        yield m
        for comp in COMPONENTS:
            # as the exporter (1.x) writes a Yammer histogram: quantile gauges and a _count counter
            name = f"kafka_network_requestmetrics_{comp}"
            q = _family(name, f"Request time, {comp[:-2]} (ms)", "gauge")
            n = _family(name + "_count", f"Requests timed, {comp[:-2]}", "counter")
            for (req, c), timer in sorted(r.timers.items()):
                if c != comp:
                    continue
                values = sorted(timer.samples)
                for quant, label in QUANTILES:
                    q.add_sample(name, {"request": req, "quantile": label}, quantile(values, quant))
                n.add_sample(name + "_count_total", {"request": req}, timer.count)
            yield q
            yield n
        yield _gauge("kafka_server_delayedoperationpurgatory_purgatorysize", "Requests waiting in purgatory",
                     (({"delayedOperation": op}, r.parked.get(op, 0)) for op in PURGATORIES))

    def _replicas(self) -> Iterator[Metric]:
        b = self.broker
        image = b.controller.image
        node = b.node_id
        hosted = led = under = under_min = at_min = 0
        leaders = b.replicas.leaders if b.replicas is not None else {}
        for topic in image.topics.values():
            for p in topic.partitions.values():
                if node not in p.replicas:
                    continue
                hosted += 1
                if p.leader == node:
                    led += 1
                    if len(p.isr) < len(p.replicas):
                        under += 1
                    leader = leaders.get((topic.name, p.partition))
                    if leader is not None:
                        min_isr = leader.effective_min_isr
                        under_min += len(p.isr) < min_isr
                        at_min += len(p.isr) == min_isr
        prefix = "kafka_server_replicamanager_"
        for name, value, doc in (("isrshrinks", self.topics.isr_shrinks, "ISR shrinks proposed here (IsrShrinksPerSec)"),
                                 ("isrexpands", self.topics.isr_expands, "ISR expands proposed here (IsrExpandsPerSec)")):
            m = _family(prefix + name, doc, "counter")
            m.add_sample(prefix + name + "_total", {}, value)
            yield m
        for name, value, doc in (("partitioncount", hosted, "Partitions with a replica here"),
                                 ("leadercount", led, "Partitions led here"),
                                 ("underreplicatedpartitions", under, "Led here with ISR smaller than replicas"),
                                 ("underminisrpartitioncount", under_min, "Led here with ISR below min.insync.replicas"),
                                 ("atminisrpartitioncount", at_min, "Led here with ISR at min.insync.replicas"),
                                 ("offlinereplicacount", 0, "Replicas in an offline log dir")):
            yield _gauge(prefix + name, doc, iter([({}, value)]))

    def _logs(self) -> Iterator[Metric]:
        logs = sorted(self.broker.log_manager.logs.items()) if self.broker.log_manager is not None else []
        kinds = (("size", "Bytes on disk", lambda lg: lg.size_in_bytes),
                 ("numlogsegments", "Segments", lambda lg: len(lg.segments)),
                 ("logstartoffset", "First offset", lambda lg: lg.log_start_offset),
                 ("logendoffset", "Offset of the next record", lambda lg: lg.log_end_offset))
        for name, doc, value in kinds:
            yield _gauge("kafka_log_log_" + name, doc,
                         (({"topic": t, "partition": str(p)}, value(lg)) for (t, p), lg in logs))

    def _flushes_and_cleaner(self) -> Iterator[Metric]:
        """LogFlushStats' timer as the exporter writes a Yammer timer (quantile gauges and a count),
        and the LogCleaner / LogCleanerManager gauges (Kafka's names, dashes as underscores)."""
        flush = self.log_stats.flush
        name = "kafka_log_logflushstats_logflushrateandtimems"
        q = _family(name, "Log flush time (ms)", "gauge")
        values = sorted(flush.samples)
        for quant, label in QUANTILES:
            q.add_sample(name, {"quantile": label}, quantile(values, quant))
        yield q
        n = _family(name + "_count", "Log flushes", "counter")
        n.add_sample(name + "_count_total", {}, flush.count)
        yield n
        lm = self.broker.log_manager
        if lm is None:
            return
        cleaner = lm.cleaner
        last = cleaner.last_result
        util = last.buffer_utilization if last is not None else 0.0
        # Kafka: 100 * bytes written / bytes read of the last pass, as an int
        recopy = int(100 * last.bytes_after / max(last.bytes_before, 1)) if last is not None else 0
        prefix = "kafka_log_logcleaner_"
        for gname, value, doc in (("max_buffer_utilization_percent", 100 * util, "The last pass's offset map use"),
                                  ("cleaner_recopy_percent", recopy, "Bytes written / read by the last pass, %"),
                                  ("max_clean_time_secs", int(self.log_stats.last_clean_secs),
                                   "How long the last pass took (s)"),
                                  ("deadthreadcount", 0, "Cleaner threads that died (passes run in workers)")):
            yield _gauge(prefix + gname, doc, iter([({}, value)]))
        prefix = "kafka_log_logcleanermanager_"
        now = self.broker.clock_ms()
        since = now - cleaner.last_run_ms if cleaner.last_run_ms is not None else now
        yield _gauge(prefix + "max_dirty_percent", "Highest dirty ratio of a compacted log at the last run, %",
                     iter([({}, int(100 * cleaner.dirtiest_ratio))]))
        yield _gauge(prefix + "time_since_last_run_ms", "Since the cleaner last looked for a log",
                     iter([({}, since)]))
        by_dir: dict[str, list] = {d: [] for d in lm.log_dirs}
        for lg, _ in list(cleaner.uncleanable.values()):
            parent = posixpath.dirname(lg.dir)
            by_dir.setdefault(parent, []).append(lg)
        yield _gauge(prefix + "uncleanable_partitions_count", "Partitions the cleaner gave up on",
                     (({"logDirectory": f'"{d}"'}, len(lgs)) for d, lgs in sorted(by_dir.items())))
        yield _gauge(prefix + "uncleanable_bytes", "Bytes of the partitions the cleaner gave up on",
                     (({"logDirectory": f'"{d}"'}, sum(lg.size_in_bytes for lg in lgs))
                      for d, lgs in sorted(by_dir.items())))

    def _throttles(self) -> Iterator[Metric]:
        """The client quota sensors' throttle-time (the exporter's quota rules)."""
        m = _family("kafka_server_quota_throttle_time", "Average throttle time of a client under a quota (ms)",
                    "gauge")
        for resource, labels, value in self.requests.throttles.averages(self.broker.clock_ms()):
            m.add_sample("kafka_server_quota_throttle_time", {"resource": resource, **labels}, value)
        yield m

    def _groups(self) -> Iterator[Metric]:
        """Kafka's GroupMetadataManager gauges: NumGroups counts every group, the by-state
        ones classic groups (as Kafka 4.3's GroupCoordinatorMetrics)."""
        groups = list(self.broker.groups.groups.values()) if self.broker.groups is not None else []
        states = dict.fromkeys(("stable", "preparingrebalance", "completingrebalance", "empty", "dead"), 0)
        offsets = 0
        for g in groups:
            if g.group_type == CLASSIC:
                key = g.state_key()
                if key in states:
                    states[key] += 1
            offsets += len(g.offsets)
        prefix = "kafka_coordinator_group_groupmetadatamanager_"
        yield _gauge(prefix + "numgroups", "Groups", iter([({}, len(groups))]))
        for state, n in states.items():
            yield _gauge(prefix + "numgroups" + state, f"Classic groups in state {state}", iter([({}, n)]))
        yield _gauge(prefix + "numoffsets", "Committed offsets", iter([({}, offsets)]))
        # group-coordinator-metrics' cumulative counts, as the exporter's default naming writes them
        counts = self.broker.groups.rebalances if self.broker.groups is not None else {}
        for name, kind, doc in (("group_completed_rebalance_count", CLASSIC, "Classic group rebalances completed"),
                                ("consumer_group_rebalance_count", CONSUMER, "Consumer group epoch bumps")):
            m = _family("kafka_server_group_coordinator_metrics_" + name, doc, "unknown")
            m.add_sample("kafka_server_group_coordinator_metrics_" + name, {}, counts.get(kind, 0))
            yield m
        yield _gauge("kafka_consumergroup_lag", "Log end (high watermark) minus the committed offset, for "
                     "partitions led here (kafka_exporter's name)", self._lags(groups))

    def _lags(self, groups: list) -> Iterator[tuple[dict, float]]:
        leaders = self.broker.replicas.leaders if self.broker.replicas is not None else {}
        for g in groups:
            for (topic, partition), om in sorted(g.offsets.items()):
                leader = leaders.get((topic, partition))
                if leader is not None:
                    yield ({"consumergroup": g.group_id, "topic": topic, "partition": str(partition)},
                           max(leader.high_watermark - om.offset, 0))


class ControllerCollector:
    """Kafka's KafkaController gauges on a node with the controller role (Global* and Offline* on
    the active controller only, 0 elsewhere, as Kafka's ControllerMetadataMetrics)."""

    def __init__(self, image: Callable[[], MetadataImage], active: Callable[[], bool]):
        self.image = image
        self.active = active

    def collect(self) -> Iterator[Metric]:
        image = self.image()
        prefix = "kafka_controller_kafkacontroller_"
        active = self.active()
        partitions = sum(len(t.partitions) for t in image.topics.values())
        offline = sum(1 for t in image.topics.values() for p in t.partitions.values() if p.leader < 0)
        for name, value, doc in (("activecontrollercount", int(active), "1 on the active controller"),
                                 ("globaltopiccount", len(image.topics) if active else 0, "Topics"),
                                 ("globalpartitioncount", partitions if active else 0, "Partitions"),
                                 ("offlinepartitionscount", offline if active else 0, "Partitions without a leader")):
            yield _gauge(prefix + name, doc, iter([({}, value)]))


class RaftCollector:
    """The metadata quorum as Kafka's raft-metrics (kafka.server:type=raft-metrics; the exporter's
    catch-all naming): leader, epoch, high watermark, log end, whether this node votes, and the
    leader's commit latency."""

    def __init__(self, driver: Callable[[], RaftDriver | None]):
        self.driver = driver

    def collect(self) -> Iterator[Metric]:
        d = self.driver()
        if d is None:
            return
        n = d.node
        prefix = "kafka_server_raft_metrics_"
        avg, mx = d.commit_latency.avg_max(time.monotonic())
        yield _gauge(prefix + "commit_latency_avg", "Append to commit on the leader, average (ms)", iter([({}, avg)]))
        yield _gauge(prefix + "commit_latency_max", "Append to commit on the leader, max (ms)", iter([({}, mx)]))
        for name, value, doc in (("current_leader", n.leader_id, "The quorum leader's id, -1 if unknown"),
                                 ("current_epoch", n.epoch, "The quorum epoch"),
                                 ("high_watermark", n.hw, "The committed end of the metadata log"),
                                 ("log_end_offset", n.log.end_offset, "The end of this node's metadata log"),
                                 ("is_voter", int(n.is_voter), "1 on a voter, 0 on an observer")):
            yield _gauge(prefix + name, doc, iter([({}, value)]))


def exposition(collectors: list) -> bytes:
    """The Prometheus text of the node's metrics and the process's (CPU, RSS, open fds)."""
    registry = CollectorRegistry(auto_describe=False)
    for c in collectors:
        registry.register(c)
    registry.register(ProcessCollector(registry=None, pid=lambda: os.getpid()))
    return generate_latest(registry)
