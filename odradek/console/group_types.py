"""Groups of every type for the console, over the Kafka protocol: the listing (ListGroups on every
broker, each coordinating its own groups, with the group type from v5), and share groups
(ShareGroupDescribe, start offsets and lag from DescribeShareGroupOffsets) and streams groups
(StreamsGroupDescribe) at their coordinators. Consumer groups are source.KafkaSource's."""

from __future__ import annotations

from dataclasses import dataclass, field

from odradek.cli_groups import GroupAdmin
from odradek.console.source import ConsoleError, _error_name


@dataclass
class ListedGroup:
    group_id: str
    group_type: str  # classic, consumer, share, streams (Kafka's GroupType, lower case)
    state: str
    protocol_type: str

    @property
    def page(self) -> str:
        """Which page describes it: groups (classic and consumer), share-groups or streams-groups."""
        return {"share": "share-groups", "streams": "streams-groups"}.get(self.group_type, "groups")


@dataclass
class Member:
    member_id: str
    client_id: str
    client_host: str
    assignment: list[str]  # "topic-partition" (share) or "subtopology:partition" tasks (streams)
    extra: str = ""


@dataclass
class SharePartition:
    topic: str
    partition: int
    start_offset: int
    lag: int | None


@dataclass
class GroupDetail:
    group_id: str
    group_type: str
    state: str
    epoch: int
    members: list[Member]
    partitions: list[SharePartition] = field(default_factory=list)  # share groups
    subtopologies: list[str] = field(default_factory=list)  # streams groups: "id: sources -> ..."


class GroupTypes:
    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap

    def list(self) -> list[ListedGroup]:
        from odradek.wire.messages.list_groups_request import ListGroupsRequest

        out: dict[str, ListedGroup] = {}
        with GroupAdmin(self.bootstrap) as a:
            for node_id in sorted(a.brokers()):
                c = a.broker(node_id)
                v = c.version_for(ListGroupsRequest)
                r = c.send(ListGroupsRequest(states_filter=[], types_filter=[]), v)
                if r.error_code:
                    raise ConsoleError(f"ListGroups at broker {node_id}: {_error_name(r.error_code)}")
                for g in r.groups:
                    kind = (g.group_type or "").lower() if v >= 5 else ""
                    if not kind:
                        kind = "classic" if g.protocol_type in ("consumer", "") else g.protocol_type
                    out[g.group_id] = ListedGroup(g.group_id, kind, g.group_state or "Unknown", g.protocol_type)
        return [out[k] for k in sorted(out)]

    def share_group(self, group_id: str) -> GroupDetail:
        from odradek.wire.messages.describe_share_group_offsets_request import (
            DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsRequestGroup)
        from odradek.wire.messages.share_group_describe_request import ShareGroupDescribeRequest

        with GroupAdmin(self.bootstrap) as a:
            coord = a.coordinator(group_id)
            g = coord.send(ShareGroupDescribeRequest(group_ids=[group_id],
                                                     include_authorized_operations=False)).groups[0]
            if g.error_code:
                raise ConsoleError(f"share group {group_id}: {_error_name(g.error_code)}")
            members = [Member(m.member_id, m.client_id, m.client_host,
                              sorted(f"{tp.topic_name}-{p}" for tp in m.assignment.topic_partitions
                                     for p in tp.partitions)) for m in g.members]
            o = coord.send(DescribeShareGroupOffsetsRequest(groups=[DescribeShareGroupOffsetsRequestGroup(
                group_id=group_id, topics=None)])).groups[0]
            parts = [SharePartition(t.topic_name, p.partition_index, p.start_offset,
                                    p.lag if p.lag >= 0 else None)
                     for t in o.topics for p in t.partitions if p.error_code == 0]
        return GroupDetail(group_id, "share", g.group_state, g.group_epoch, members,
                           partitions=sorted(parts, key=lambda p: (p.topic, p.partition)))

    def streams_group(self, group_id: str) -> GroupDetail:
        from odradek.wire.messages.streams_group_describe_request import StreamsGroupDescribeRequest

        with GroupAdmin(self.bootstrap) as a:
            g = a.coordinator(group_id).send(StreamsGroupDescribeRequest(
                group_ids=[group_id], include_authorized_operations=False)).groups[0]
        if g.error_code:
            raise ConsoleError(f"streams group {group_id}: {_error_name(g.error_code)}")

        def tasks(ids) -> list[str]:
            return sorted(f"{t.subtopology_id}:{p}" for t in ids for p in t.partitions)

        members = [Member(m.member_id, m.client_id, m.client_host,
                          tasks(m.assignment.active_tasks) if m.assignment is not None else [],
                          extra=f"standby {', '.join(tasks(m.assignment.standby_tasks))}"
                          if m.assignment is not None and m.assignment.standby_tasks else "")
                   for m in g.members]
        subs = [f"{s.subtopology_id}: {', '.join(s.source_topics)} -> "
                f"{', '.join(s.repartition_sink_topics) or '-'} (changelogs: "
                f"{', '.join(t.name for t in s.state_changelog_topics) or '-'})"
                for s in (g.topology.subtopologies if g.topology is not None else [])]
        return GroupDetail(group_id, "streams", g.group_state, g.group_epoch, members, subtopologies=subs)
