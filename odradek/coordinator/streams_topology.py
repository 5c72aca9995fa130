"""A streams group's topology (KIP-1071) and its configuration against the metadata image.

The topology comes with a member's first heartbeat and is persisted as StreamsGroupTopologyValue.
configure() is what Kafka's InternalTopicManager.configureTopics decides: the partition count of
every internal topic (a repartition topic takes the largest partition count of the subtopologies
writing to it unless the topology fixes it; co-partitioned topics get the same count; a changelog
topic has one partition per task), the number of tasks of each subtopology (the largest partition
count of its source and repartition source topics), which internal topics are missing (the broker
creates them and the heartbeat reports MISSING_INTERNAL_TOPICS meanwhile), and the errors
(MISSING_SOURCE_TOPICS, INCORRECTLY_PARTITIONED_TOPICS) that leave the topology not ready.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from odradek.wire.messages import streams_group_topology_value as topo_v

# StreamsGroupHeartbeatResponse status codes
STALE_TOPOLOGY = 0
MISSING_SOURCE_TOPICS = 1
INCORRECTLY_PARTITIONED_TOPICS = 2
MISSING_INTERNAL_TOPICS = 3
SHUTDOWN_APPLICATION = 4
ASSIGNMENT_DELAYED = 5


def summarize(topics) -> str:
    """Kafka's summarizeTopics: up to 3 names, then how many more."""
    topics = list(topics)
    if not topics:
        return "<none>"
    out = ", ".join(topics[:3])
    if len(topics) > 3:
        out += f" and {len(topics) - 3} additional topics"
    return out


def from_request(t) -> topo_v.StreamsGroupTopologyValue:
    """The heartbeat's Topology -> the record value (same fields, configs as TopicConfig)."""
    def info(ti):
        return topo_v.TopicInfo(name=ti.name, partitions=ti.partitions, replication_factor=ti.replication_factor,
                                topic_configs=[topo_v.TopicConfig(key=kv.key, value=kv.value)
                                               for kv in ti.topic_configs or []])

    subs = []
    for s in t.subtopologies or []:
        subs.append(topo_v.Subtopology(
            subtopology_id=s.subtopology_id, source_topics=list(s.source_topics or []),
            source_topic_regex=list(s.source_topic_regex or []),
            state_changelog_topics=[info(x) for x in s.state_changelog_topics or []],
            repartition_sink_topics=list(s.repartition_sink_topics or []),
            repartition_source_topics=[info(x) for x in s.repartition_source_topics or []],
            copartition_groups=[topo_v.CopartitionGroup(
                source_topics=list(c.source_topics or []), source_topic_regex=list(c.source_topic_regex or []),
                repartition_source_topics=list(c.repartition_source_topics or []))
                for c in s.copartition_groups or []]))
    return topo_v.StreamsGroupTopologyValue(epoch=t.epoch, subtopologies=subs)


def _canon(v: topo_v.StreamsGroupTopologyValue):
    """A comparable form (Kafka's StreamsTopology.equals: epoch and subtopologies by id)."""
    def info(ti):
        return (ti.name, ti.partitions, ti.replication_factor,
                tuple(sorted((c.key, c.value) for c in ti.topic_configs or [])))

    subs = {}
    for s in v.subtopologies or []:
        subs[s.subtopology_id] = (
            tuple(s.source_topics or []), tuple(s.source_topic_regex or []),
            tuple(info(x) for x in s.state_changelog_topics or []), tuple(s.repartition_sink_topics or []),
            tuple(info(x) for x in s.repartition_source_topics or []),
            tuple((tuple(c.source_topics or []), tuple(c.source_topic_regex or []),
                   tuple(c.repartition_source_topics or [])) for c in s.copartition_groups or []))
    return v.epoch, subs


def same(a, b) -> bool:
    return _canon(a) == _canon(b)


def required_topics(v) -> set:
    """Every topic the topology reads or keeps state in: sources, repartition sources, changelogs."""
    out: set = set()
    for s in v.subtopologies or []:
        out.update(s.source_topics or [])
        out.update(x.name for x in s.repartition_source_topics or [])
        out.update(x.name for x in s.state_changelog_topics or [])
    return out


@dataclass
class InternalTopic:
    """An internal topic a streams topology needs."""
    name: str
    partitions: int
    replication_factor: int  # -1: the broker default
    configs: dict


@dataclass
class ConfiguredTopology:
    """A streams group's topology configured against the cluster's topics."""
    topology_epoch: int
    metadata_hash: int
    tasks: dict | None = None  # subtopology id -> number of tasks; None when the configuration failed
    to_create: dict = field(default_factory=dict)  # name -> InternalTopic
    status: tuple | None = None  # (status code, detail) when not ready
    internal_partitions: dict = field(default_factory=dict)  # repartition/changelog topic -> partitions

    @property
    def ready(self) -> bool:
        return self.tasks is not None and self.status is None


class _ConfigError(Exception):
    def __init__(self, code: int, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


def configure(v, metadata_hash: int, partitions_of) -> ConfiguredTopology:
    """v: the group's StreamsGroupTopologyValue; partitions_of(name) -> partition count or None."""
    subs = list(v.subtopologies or [])
    try:
        missing = sorted({t for s in subs for t in s.source_topics or [] if partitions_of(t) is None})
        if missing:
            raise _ConfigError(MISSING_SOURCE_TOPICS, f"Source topics {summarize(missing)} are missing.")
        decided: dict = {}

        def count(name):
            n = partitions_of(name)
            return n if n is not None else decided.get(name)

        _repartition_counts(subs, count, decided)
        _copartition(subs, count, decided)
        tasks = {}
        for s in subs:
            names = list(s.source_topics or []) + [x.name for x in s.repartition_source_topics or []]
            counts = [count(n) for n in names]
            tasks[s.subtopology_id] = max((c for c in counts if c is not None), default=0)
        for s in subs:
            for x in s.state_changelog_topics or []:
                decided[x.name] = tasks[s.subtopology_id]
        to_create: dict = {}
        for s in subs:
            for x in list(s.repartition_source_topics or []) + list(s.state_changelog_topics or []):
                n = decided.get(x.name) if x.partitions == 0 else x.partitions
                to_create[x.name] = InternalTopic(x.name, n, x.replication_factor or -1,
                                                  {c.key: c.value for c in x.topic_configs or []})
        for name in sorted(required_topics(v)):
            have = partitions_of(name)
            want = to_create.pop(name, None) if have is not None else None
            if want is not None and have != want.partitions:
                raise _ConfigError(INCORRECTLY_PARTITIONED_TOPICS,
                                   f"Existing topic {name} has different number of partitions: expected "
                                   f"{want.partitions}, found {have}")
        status = None
        if to_create:
            status = (MISSING_INTERNAL_TOPICS, "Internal topics are missing: " + summarize(sorted(to_create)))
        return ConfiguredTopology(v.epoch, metadata_hash, tasks, to_create, status, dict(decided))
    except _ConfigError as e:
        return ConfiguredTopology(v.epoch, metadata_hash, None, {}, (e.code, e.detail))


def _repartition_counts(subs, count, decided) -> None:
    """A repartition topic without a fixed count gets the largest partition count of the source
    topics of the subtopologies writing to it (Kafka's RepartitionTopics)."""
    for s in subs:
        for x in s.repartition_source_topics or []:
            if x.partitions:
                decided[x.name] = x.partitions
    flexible = [x.name for s in subs for x in s.repartition_source_topics or [] if not x.partitions]
    for _ in range(len(flexible) + 1):
        progress = False
        for name in flexible:
            if name in decided:
                continue
            best = None
            for w in subs:
                if name not in (w.repartition_sink_topics or []):
                    continue
                for src in list(w.source_topics or []) + [x.name for x in w.repartition_source_topics or []]:
                    c = count(src)
                    if c is not None and (best is None or c > best):
                        best = c
            if best is not None:
                decided[name] = best
                progress = True
        if not progress:
            break
    left = sorted(n for n in flexible if n not in decided)
    if left:
        raise _ConfigError(INCORRECTLY_PARTITIONED_TOPICS,
                           f"Failed to compute number of partitions for all repartition topics: {summarize(left)}")


def _copartition(subs, count, decided) -> None:
    """Co-partitioned topics must have the same count; flexible repartition topics take it."""
    fixed_rep = {x.name for s in subs for x in s.repartition_source_topics or [] if x.partitions}
    flex_rep = {x.name for s in subs for x in s.repartition_source_topics or [] if not x.partitions}
    for s in subs:
        srcs = list(s.source_topics or [])
        reps = [x.name for x in s.repartition_source_topics or []]
        for g in s.copartition_groups or []:
            names = sorted({srcs[i] for i in g.source_topics or [] if i < len(srcs)}
                           | {reps[i] for i in g.repartition_source_topics or [] if i < len(reps)})
            plain = [n for n in names if n not in fixed_rep and n not in flex_rep]
            counts = {n: count(n) for n in plain + [n for n in names if n in fixed_rep]}
            if len(set(counts.values())) > 1:
                raise _ConfigError(INCORRECTLY_PARTITIONED_TOPICS,
                                   "Following topics do not have the same number of partitions: "
                                   f"[{', '.join(f'{n}={c}' for n, c in sorted(counts.items()))}]")
            if counts:
                n = next(iter(counts.values()))
            else:
                n = max((decided.get(x, 0) for x in names if x in flex_rep), default=0)
            for x in names:
                if x in flex_rep:
                    decided[x] = n
