"""What the console shows, read over the Kafka protocol from any broker (odradek's or Apache
Kafka's): a blocking client (the CLI's GroupAdmin and wire client), one call per page.

Each method returns plain dataclasses; pages.py renders them. Nothing here knows HTML."""

from __future__ import annotations

from dataclasses import dataclass, field

from odradek.cli_groups import INACTIVE_STATES, GroupAdmin, GroupInfo, offset_rows, plan_reset

LATEST, EARLIEST = -1, -2


@dataclass
class Broker:
    node_id: int
    host: str
    port: int
    rack: str | None


@dataclass
class Overview:
    cluster_id: str
    controller_id: int
    brokers: list[Broker]
    topics: int
    partitions: int
    offline: int
    under_replicated: int


@dataclass
class PartitionRow:
    partition: int
    leader: int
    replicas: list[int]
    isr: list[int]
    start: int | None
    end: int | None

    @property
    def records(self) -> int:
        return 0 if self.start is None or self.end is None else self.end - self.start


@dataclass
class TopicRow:
    name: str
    internal: bool
    partitions: list[PartitionRow]
    configs: dict[str, str] = field(default_factory=dict)

    @property
    def replication_factor(self) -> int:
        return len(self.partitions[0].replicas) if self.partitions else 0

    @property
    def records(self) -> int:
        return sum(p.records for p in self.partitions)

    @property
    def under_replicated(self) -> int:
        return sum(1 for p in self.partitions if len(p.isr) < len(p.replicas))


@dataclass
class Record:
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]


@dataclass
class GroupRow:
    group_id: str
    state: str
    protocol_type: str


@dataclass
class GroupView:
    info: GroupInfo
    rows: list[list[str]]  # cli_groups.OFFSET_HEADER columns
    lag: int
    resettable: bool


class ConsoleError(Exception):
    """A broker's answer worded for the page."""


class KafkaSource:
    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap

    def _admin(self) -> GroupAdmin:
        return GroupAdmin(self.bootstrap)

    def overview(self) -> Overview:
        from odradek.wire.messages.describe_cluster_request import DescribeClusterRequest

        with self._admin() as a:
            dc = a.boot.send(DescribeClusterRequest(include_cluster_authorized_operations=False), max_version=1)
            md = _metadata(a, None)
        parts = [p for t in md.topics for p in t.partitions]
        return Overview(dc.cluster_id, dc.controller_id,
                        [Broker(b.broker_id, b.host, b.port, b.rack) for b in sorted(dc.brokers, key=lambda b: b.broker_id)],
                        len(md.topics), len(parts), sum(1 for p in parts if p.leader_id < 0),
                        sum(1 for p in parts if len(p.isr_nodes) < len(p.replica_nodes)))

    def topics(self) -> list[TopicRow]:
        with self._admin() as a:
            md = _metadata(a, None)
            return _topic_rows(a, [t for t in md.topics if t.error_code == 0])

    def topic(self, name: str) -> TopicRow:
        from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource

        with self._admin() as a:
            md = _metadata(a, [name])
            t = md.topics[0]
            if t.error_code:
                raise ConsoleError(f"topic {name}: {_error_name(t.error_code)}")
            row = _topic_rows(a, [t])[0]
            dc = a.boot.send(DescribeConfigsRequest(resources=[
                DescribeConfigsResource(resource_type=2, resource_name=name, configuration_keys=None)]))
            row.configs = {c.name: c.value for c in dc.results[0].configs if not c.is_sensitive}
        return row

    def messages(self, topic: str, partition: int, offset: int, limit: int) -> list[Record]:
        """Up to ``limit`` records of one partition from ``offset`` (control batches skipped)."""
        from odradek.cli_routing import Leaders
        from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
        from odradek.wire.records import iter_batches

        with self._admin() as a:
            md = _metadata(a, [topic])
            if md.topics[0].error_code:
                raise ConsoleError(f"topic {topic}: {_error_name(md.topics[0].error_code)}")
            leaders = Leaders(a.boot, md, topic)
            try:
                out: list[Record] = []
                pos = offset
                for _ in range(20):  # a few fetches at most: a page, not a consumer
                    r = leaders.client(partition).send(FetchRequest(
                        replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, topics=[FetchTopic(
                            topic=topic, partitions=[FetchPartition(partition=partition, fetch_offset=pos,
                                                                    partition_max_bytes=1 << 20)])]),
                        max_version=12)
                    pd = r.responses[0].partitions[0]
                    if pd.error_code:
                        raise ConsoleError(f"{topic}-{partition} at offset {pos}: {_error_name(pd.error_code)}")
                    if not pd.records:
                        break
                    before = pos
                    for h, recs in iter_batches(bytes(pd.records)):
                        if h.is_control:
                            pos = max(pos, h.next_offset)
                            continue
                        for rec in recs:
                            off = rec.offset(h)
                            if off < pos:
                                continue
                            out.append(Record(off, rec.timestamp(h), rec.key, rec.value,
                                              [(k, v) for k, v in rec.headers]))
                            pos = off + 1
                            if len(out) >= limit:
                                return out
                    if pos == before:
                        break
                return out
            finally:
                leaders.close()

    def offset_for_time(self, topic: str, partition: int, timestamp_ms: int) -> int:
        """The first offset at or after a time (ListOffsets); the log end when none is."""
        with self._admin() as a:
            tp = (topic, partition)
            found = a.list_offsets([tp], {tp: timestamp_ms})[tp]
            if found is None or found < 0:
                found = a.list_offsets([tp], LATEST)[tp]
        if found is None:
            raise ConsoleError(f"{topic}-{partition}: no offsets (no leader?)")
        return found

    def groups(self) -> list[GroupRow]:
        with self._admin() as a:
            return [GroupRow(g, state, ptype) for g, ptype, state in a.list_groups()]

    def group(self, group_id: str) -> GroupView:
        with self._admin() as a:
            info = a.describe(group_id)
            committed = a.committed(group_id)
            assigned = {(t, p) for m in info.members for t, ps in m.assignment.items() for p in ps}
            tps = sorted(set(committed) | assigned)
            ends = a.list_offsets(tps, LATEST) if tps else {}
        rows = offset_rows(info, committed, ends)
        lag = sum(max((ends.get(tp) or 0) - off, 0) for tp, off in committed.items() if ends.get(tp) is not None)
        return GroupView(info, rows, lag, info.state in INACTIVE_STATES)

    def reset_offsets(self, group_id: str, topic: str, to: str) -> dict[tuple[str, int], int]:
        """Kafka's kafka-consumer-groups --reset-offsets --to-earliest|--to-latest --execute for one
        topic; refused (ConsoleError) unless the group is inactive, as Kafka refuses it."""
        from odradek.cli_groups import inactive_reason

        if to not in ("earliest", "latest"):
            raise ConsoleError(f"reset to {to!r}: earliest or latest")
        with self._admin() as a:
            info = a.describe(group_id)
            why = inactive_reason(group_id, info.state)
            if why:
                raise ConsoleError(why)
            parts = a.partitions_of(topic)
            if parts is None:
                raise ConsoleError(f"topic {topic} does not exist")
            tps = [(topic, p) for p in parts]
            plan = plan_reset(tps, how=to, value=None, earliest=_known(a.list_offsets(tps, EARLIEST)),
                              latest=_known(a.list_offsets(tps, LATEST)))
            failed = a.commit(group_id, plan)
        if failed:
            raise ConsoleError("; ".join(f"{t}-{p}: {_error_name(code)}" for (t, p), code in sorted(failed.items())))
        return plan

    def create_topic(self, name: str, partitions: int, replication_factor: int) -> None:
        from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest

        with self._admin() as a:
            r = a.boot.send(CreateTopicsRequest(topics=[CreatableTopic(
                name=name, num_partitions=partitions, replication_factor=replication_factor)], timeout_ms=30000))
        t = r.topics[0]
        if t.error_code:
            raise ConsoleError(f"topic {name}: {_error_name(t.error_code)}{': ' + t.error_message if t.error_message else ''}")


def _metadata(a: GroupAdmin, topics: list[str] | None):
    from odradek.cli_tools import _metadata as metadata

    return metadata(a.boot, topics)


def _topic_rows(a: GroupAdmin, topics) -> list[TopicRow]:
    tps = [(t.name, p.partition_index) for t in topics for p in t.partitions]
    starts = a.list_offsets(tps, EARLIEST) if tps else {}
    ends = a.list_offsets(tps, LATEST) if tps else {}
    out = []
    for t in sorted(topics, key=lambda t: t.name):
        rows = [PartitionRow(p.partition_index, p.leader_id, list(p.replica_nodes), list(p.isr_nodes),
                             starts.get((t.name, p.partition_index)), ends.get((t.name, p.partition_index)))
                for p in sorted(t.partitions, key=lambda p: p.partition_index)]
        out.append(TopicRow(t.name, t.is_internal, rows))
    return out


def _known(offsets: dict) -> dict:
    missing = [tp for tp, o in offsets.items() if o is None]
    if missing:
        raise ConsoleError(f"no offsets for {', '.join(f'{t}-{p}' for t, p in missing)} (no leader?)")
    return offsets


def _error_name(code: int) -> str:
    from odradek.wire.errors import ErrorCode

    try:
        return ErrorCode(code).name
    except ValueError:
        return f"error {code}"
