"""`odradek groups list|describe|delete|reset-offsets`: consumer-group admin over the wire.

Modelled on Kafka's kafka-consumer-groups.sh (same column names, same refusals), and,
like every tool in cli_tools, it speaks only the Kafka protocol through
odradek.broker.wire_client, so it works against Apache Kafka too.

The I/O (``GroupAdmin``) is kept apart from the pure parts (option parsing, lag rows,
reset plans, table formatting) so the latter are unit-tested without a broker.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import datetime, timezone

from odradek.cli_format import add_format, emit, header_rows, print_table, progress
from odradek.cli_tools import _bootstrap, _err

MISSING = "-"  # Kafka's MISSING_COLUMN_VALUE
EARLIEST, LATEST = -2, -1  # ListOffsets timestamp specs
INACTIVE_STATES = ("Empty", "Dead")


def add_subparsers(sub) -> None:
    g = sub.add_parser("groups", help="list, describe, delete consumer groups and reset their offsets",
                       description="Consumer-group admin, like Kafka's kafka-consumer-groups.sh.")
    gsub = g.add_subparsers(dest="groups_command", metavar="ACTION")

    ls = gsub.add_parser("list", help="list consumer groups")
    _bootstrap(ls)
    ls.add_argument("--state", nargs="?", const="", default=None, metavar="STATES",
                    help="show each group's state; with a comma-separated list, only groups in those states")
    add_format(ls)
    ls.set_defaults(func=groups_list)

    d = gsub.add_parser("describe", help="offsets and lag per partition, members, or state of groups",
                        description="Default view: GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG "
                                    "CONSUMER-ID HOST CLIENT-ID.")
    _bootstrap(d)
    _group_args(d, many=True)
    view = d.add_mutually_exclusive_group()
    view.add_argument("--offsets", action="store_true", help="offsets and lag per partition (the default)")
    view.add_argument("--members", action="store_true", help="one row per member")
    view.add_argument("--state", action="store_true", help="coordinator, assignment strategy, state, members")
    d.add_argument("--verbose", action="store_true", help="with --members: the partitions of each member")
    add_format(d)
    d.set_defaults(func=groups_describe)

    de = gsub.add_parser("delete", help="delete groups (they must have no members)")
    _bootstrap(de)
    _group_args(de, many=True)
    de.set_defaults(func=groups_delete)

    r = gsub.add_parser("reset-offsets", help="set a group's committed offsets (the group must be inactive)",
                        description="Prints the plan (dry run) unless --execute is given. Refuses unless the "
                                    "group is Empty, as Kafka does.")
    _bootstrap(r)
    _group_args(r, many=False)
    scope = r.add_mutually_exclusive_group(required=True)
    scope.add_argument("--topic", action="append", default=None, metavar="TOPIC[:P,P...]",
                       help="a topic, or some of its partitions (repeatable)")
    scope.add_argument("--all-topics", action="store_true", help="every topic the group has offsets for")
    to = r.add_mutually_exclusive_group(required=True)
    to.add_argument("--to-earliest", action="store_true", help="the log start offset of each partition")
    to.add_argument("--to-latest", action="store_true", help="the log end offset of each partition")
    to.add_argument("--to-offset", type=int, metavar="N",
                    help="offset N (clamped to the partition's start and end offsets, as in Kafka)")
    to.add_argument("--to-datetime", metavar="YYYY-MM-DDTHH:mm:SS.sss",
                    help="first offset at or after this time (ISO 8601; no zone means UTC, as in Kafka)")
    to.add_argument("--shift-by", type=int, metavar="N", help="move the committed offsets by N (may be negative)")
    mode = r.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the plan only (the default)")
    mode.add_argument("--execute", action="store_true", help="commit the new offsets")
    r.set_defaults(func=groups_reset_offsets)

    g.set_defaults(func=lambda args: (g.print_help(), 2)[1])


def _group_args(p, *, many: bool) -> None:
    if many:
        p.add_argument("groups", nargs="*", metavar="GROUP", help="group ids (or --group)")
        p.add_argument("--group", "-g", action="append", default=[], dest="group_opts", metavar="GROUP",
                       help="a group id (repeatable)")
        p.add_argument("--all-groups", action="store_true", help="every group the cluster has")
    else:
        p.add_argument("group", nargs="?", metavar="GROUP", help="group id (or --group)")
        p.add_argument("--group", "-g", dest="group_opt", metavar="GROUP", help="the group id")


def _groups_of(args) -> list[str]:
    out = list(args.groups) + list(args.group_opts)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------- pure parts


def parse_topic_spec(spec: str) -> tuple[str, list[int] | None]:
    """'events' -> ('events', None: every partition); 'events:0,2' -> ('events', [0, 2])."""
    topic, sep, parts = spec.partition(":")
    if not topic:
        raise ValueError(f"no topic name in {spec!r}")
    if not sep:
        return topic, None
    try:
        partitions = sorted({int(p) for p in parts.split(",") if p.strip()})
    except ValueError:
        raise ValueError(f"partitions must be integers: {spec!r}") from None
    if not partitions or any(p < 0 for p in partitions):
        raise ValueError(f"bad partition list in {spec!r}")
    return topic, partitions


def parse_datetime_ms(text: str) -> int:
    """Kafka's --to-datetime format ('YYYY-MM-DDTHH:mm:SS.sss', optional zone) -> epoch ms.

    As Kafka's Utils.getDateTime: a 'T' is required and a time without a zone is UTC.
    """
    if "T" not in text:
        raise ValueError(f"Error parsing timestamp {text!r}. It does not contain a 'T' according to ISO8601 format")
    s = text.strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        raise ValueError(f"cannot parse {text!r}: expected YYYY-MM-DDTHH:mm:SS.sss[+HH:MM|Z]") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return int(round(dt.timestamp() * 1000))


@dataclass
class Member:
    member_id: str
    client_id: str
    host: str
    group_instance_id: str | None
    assignment: dict[str, list[int]]  # topic -> partitions

    @property
    def partition_count(self) -> int:
        return sum(len(p) for p in self.assignment.values())


CONSUMER_GROUP_DESCRIBE = 69  # the API key of ConsumerGroupDescribe


@dataclass
class GroupInfo:
    group_id: str
    state: str
    protocol_type: str
    protocol: str
    members: list[Member]
    error_code: int = 0


def decode_assignment(data: bytes | None) -> dict[str, list[int]]:
    """A consumer-protocol assignment (bytes from DescribeGroups) -> {topic: [partitions]}."""
    if not data:
        return {}
    from odradek.wire.messages.consumer_protocol_assignment import ConsumerProtocolAssignment

    version = min(max(int.from_bytes(data[:2], "big", signed=True), 0), 3)
    try:
        a = ConsumerProtocolAssignment.decode(data, version, 2)
    except Exception:  # noqa: BLE001 - not the consumer protocol (e.g. connect): show no partitions
        return {}
    out: dict[str, list[int]] = {}
    for tp in a.assigned_partitions:
        out.setdefault(tp.topic, []).extend(tp.partitions)
    return {t: sorted(ps) for t, ps in out.items()}


def offset_rows(group: GroupInfo, committed: dict[tuple[str, int], int],
                log_end: dict[tuple[str, int], int | None]) -> list[list[str]]:
    """Rows of the default describe view, in Kafka's order: assigned partitions by member, then the
    partitions with a committed offset that no member holds."""

    def row(t: str, p: int, m: Member | None) -> list[str]:
        cur = committed.get((t, p))
        end = log_end.get((t, p))
        lag = MISSING if cur is None or end is None else str(max(end - cur, 0))
        return [group.group_id, t, str(p), MISSING if cur is None else str(cur),
                MISSING if end is None else str(end), lag,
                m.member_id if m else MISSING, m.host if m else MISSING, m.client_id if m else MISSING]

    rows: list[list[str]] = []
    assigned: set[tuple[str, int]] = set()
    for m in sorted(group.members, key=lambda m: (-m.partition_count, m.member_id)):
        for t in sorted(m.assignment):
            for p in m.assignment[t]:
                assigned.add((t, p))
                rows.append(row(t, p, m))
    for t, p in sorted(committed):
        if (t, p) not in assigned:
            rows.append(row(t, p, None))
    return rows


OFFSET_HEADER = ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                 "CONSUMER-ID", "HOST", "CLIENT-ID"]
RESET_HEADER = ["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"]


def member_rows(group: GroupInfo, verbose: bool) -> tuple[list[str], list[list[str]]]:
    header = ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"]
    if verbose:
        header += ["GROUP-INSTANCE-ID", "ASSIGNMENT"]
    rows = []
    for m in sorted(group.members, key=lambda m: m.member_id):
        r = [group.group_id, m.member_id, m.host, m.client_id, str(m.partition_count)]
        if verbose:
            r.append(m.group_instance_id or MISSING)
            r.append(format_assignment(m.assignment))
        rows.append(r)
    return header, rows


def format_assignment(assignment: dict[str, list[int]]) -> str:
    """{'a': [0, 1], 'b': [2]} -> 'a:0,1;b:2' (Kafka 4's ASSIGNMENT column); '-' when empty."""
    return ";".join(f"{t}:{','.join(map(str, ps))}" for t, ps in sorted(assignment.items()) if ps) or MISSING


def inactive_reason(group_id: str, state: str) -> str | None:
    """Kafka's refusal text when a group's offsets may not be reset, else None."""
    if state in INACTIVE_STATES:
        return None
    return (f"Assignments can only be reset if the group '{group_id}' is inactive, "
            f"but the current state is {state}.")


def plan_reset(partitions: list[tuple[str, int]], *, how: str, value: int | None,
               earliest: dict[tuple[str, int], int], latest: dict[tuple[str, int], int],
               by_time: dict[tuple[str, int], int] | None = None,
               committed: dict[tuple[str, int], int] | None = None,
               warn=None) -> dict[tuple[str, int], int]:
    """New offset per partition. how: earliest | latest | offset | datetime | shift.

    As Kafka: an offset outside [log start, log end] is clamped (with a warning); a time after
    the last record (ListOffsets answers -1) resets to the log end; a shift of a partition with
    no committed offset starts from the log end."""
    warn = warn or (lambda msg: None)
    out: dict[tuple[str, int], int] = {}
    for tp in partitions:
        lo, hi = earliest[tp], latest[tp]
        if how == "earliest":
            new = lo
        elif how == "latest":
            new = hi
        elif how == "datetime":
            found = (by_time or {}).get(tp, -1)
            new = hi if found is None or found < 0 else found
        elif how in ("offset", "shift"):
            if how == "offset":
                new = value
            else:
                base = (committed or {}).get(tp)
                new = (hi if base is None else base) + value
            if new < lo:
                warn(f"New offset ({new}) is lower than earliest offset for topic partition {tp[0]}-{tp[1]}. "
                     f"Value will be set to {lo}")
                new = lo
            elif new > hi:
                warn(f"New offset ({new}) is higher than latest offset for topic partition {tp[0]}-{tp[1]}. "
                     f"Value will be set to {hi}")
                new = hi
        else:
            raise ValueError(how)
        out[tp] = new
    return out


def reset_rows(group_id: str, plan: dict[tuple[str, int], int]) -> list[list[str]]:
    return [[group_id, t, str(p), str(o)] for (t, p), o in sorted(plan.items())]


# ---------------------------------------------------------------------------- wire


class GroupAdminError(Exception):
    pass


class GroupAdmin:
    """The wire side: FindCoordinator, ListGroups, DescribeGroups, OffsetFetch, ListOffsets,
    OffsetCommit (generation -1), DeleteGroups, Metadata; one connection per broker."""

    def __init__(self, bootstrap: str):
        from odradek.cli_errors import connect

        self.boot = connect(bootstrap)
        self._by_addr: dict[tuple[str, int], object] = {(self.boot.host, self.boot.port): self.boot}
        self._brokers: dict[int, tuple[str, int]] | None = None
        self._leaders: dict[tuple[str, int], int] = {}
        self._partitions: dict[str, list[int]] = {}

    def close(self) -> None:
        for c in self._by_addr.values():
            c.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _client_at(self, host: str, port: int):
        c = self._by_addr.get((host, port))
        if c is None:
            from odradek.cli_errors import connect_to

            c = self._by_addr[(host, port)] = connect_to(host, port)
        return c

    # -- metadata and offsets

    def metadata(self, topics: list[str] | None) -> None:
        from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

        md = self.boot.send(MetadataRequest(
            topics=None if topics is None else [MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=False), max_version=12)
        self._brokers = {b.node_id: (b.host, b.port) for b in md.brokers}
        for t in md.topics:
            if t.error_code:
                continue
            self._partitions[t.name] = sorted(p.partition_index for p in t.partitions)
            for p in t.partitions:
                self._leaders[(t.name, p.partition_index)] = p.leader_id

    def brokers(self) -> dict[int, tuple[str, int]]:
        """node id -> (host, port) of every broker in the metadata."""
        if self._brokers is None:
            self.metadata([])
        return dict(self._brokers or {})

    def broker(self, node_id: int):
        """A client of broker ``node_id`` (opened once)."""
        return self.client_at(*self.brokers()[node_id])

    def client_at(self, host: str, port: int):
        """A client of the broker at host:port (opened once)."""
        return self._client_at(host, port)

    def leader_of(self, topic: str, partition: int) -> int:
        """The partition's leader in the last metadata read (-1: none known)."""
        return self._leaders.get((topic, partition), -1)

    def partitions_of(self, topic: str) -> list[int] | None:
        if topic not in self._partitions:
            self.metadata([topic])
        return self._partitions.get(topic)

    def list_offsets(self, tps: list[tuple[str, int]], spec: int | dict[tuple[str, int], int]) \
            -> dict[tuple[str, int], int | None]:
        """ListOffsets sent to each partition's leader; None where the partition errs."""
        from odradek.wire.messages.list_offsets_request import (ListOffsetsPartition, ListOffsetsRequest,
                                                                ListOffsetsTopic)

        missing = sorted({t for t, _ in tps if t not in self._partitions})
        if missing:
            self.metadata(missing)
        by_leader: dict[int, list[tuple[str, int]]] = {}
        for tp in tps:
            by_leader.setdefault(self._leaders.get(tp, -1), []).append(tp)
        out: dict[tuple[str, int], int | None] = {tp: None for tp in tps}
        for leader, group in by_leader.items():
            if leader < 0 or self._brokers is None or leader not in self._brokers:
                continue
            client = self._client_at(*self._brokers[leader])
            topics: dict[str, list] = {}
            for t, p in group:
                ts = spec if isinstance(spec, int) else spec[(t, p)]
                topics.setdefault(t, []).append(ListOffsetsPartition(partition_index=p, timestamp=ts))
            r = client.send(ListOffsetsRequest(replica_id=-1, isolation_level=0, topics=[
                ListOffsetsTopic(name=t, partitions=ps) for t, ps in topics.items()]), max_version=7)
            for rt in r.topics:
                for rp in rt.partitions:
                    if rp.error_code == 0:
                        out[(rt.name, rp.partition_index)] = rp.offset
        return out

    # -- groups

    def coordinator(self, group: str):
        err, node_id, host, port, msg = self.boot.find_coordinator(group)
        if err:
            raise GroupAdminError(f"cannot find the coordinator of group '{group}': {_err(err)}"
                                  f"{': ' + msg if msg else ''}")
        client = self._client_at(host, port)
        client.node_id = node_id
        return client

    def list_groups(self, states: list[str] | None = None) -> list[tuple[str, str, str]]:
        """(group_id, protocol_type, state) of the consumer groups the bootstrap broker coordinates."""
        from odradek.wire.messages.list_groups_request import ListGroupsRequest

        v = self.boot.version_for(ListGroupsRequest)
        r = self.boot.send(ListGroupsRequest(states_filter=list(states or []) if v >= 4 else []), v)
        if r.error_code:
            raise GroupAdminError(f"ListGroups failed: {_err(r.error_code)}")
        out = []
        for g in r.groups:
            if g.protocol_type not in ("consumer", ""):
                continue
            if v >= 5 and g.group_type and g.group_type.lower() not in ("classic", "consumer"):
                continue
            out.append((g.group_id, g.protocol_type, g.group_state))
        if states and v < 4:
            wanted = {s.lower() for s in states}
            out = [g for g in out if g[2].lower() in wanted]
        return sorted(out)

    def describe(self, group: str) -> GroupInfo:
        """The group as Kafka's Admin.describeConsumerGroups finds it: ConsumerGroupDescribe where the
        coordinator has it (a consumer-protocol group, KIP-848), else DescribeGroups (a classic group:
        ConsumerGroupDescribe answers GROUP_ID_NOT_FOUND for it)."""
        from odradek.wire.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
        from odradek.wire.messages.describe_groups_request import DescribeGroupsRequest

        coord = self.coordinator(group)
        if CONSUMER_GROUP_DESCRIBE in coord.api_versions:
            g = coord.send(ConsumerGroupDescribeRequest(group_ids=[group],
                                                        include_authorized_operations=False)).groups[0]
            if g.error_code == 0:
                members = [Member(m.member_id, m.client_id, m.client_host, m.instance_id,
                                  {tp.topic_name: sorted(tp.partitions) for tp in m.assignment.topic_partitions})
                           for m in g.members]
                return GroupInfo(g.group_id, g.group_state, "consumer", g.assignor_name or "", members, 0)
        r = coord.send(DescribeGroupsRequest(groups=[group]))
        g = r.groups[0]
        if g.error_code == 69:  # GROUP_ID_NOT_FOUND (DescribeGroups v6): what older versions call Dead
            return GroupInfo(group, "Dead", "", "", [], 0)
        members = [Member(m.member_id, m.client_id, m.client_host, m.group_instance_id,
                          decode_assignment(m.member_assignment) if g.protocol_type == "consumer" else {})
                   for m in g.members]
        return GroupInfo(g.group_id, g.group_state, g.protocol_type, g.protocol_data, members, g.error_code)

    def committed(self, group: str, topics: dict[str, list[int]] | None = None) -> dict[tuple[str, int], int]:
        """Committed offsets of a group (every topic when topics is None); no entry where none is."""
        from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic

        req = OffsetFetchRequest(group_id=group, topics=None if topics is None else [
            OffsetFetchRequestTopic(name=t, partition_indexes=ps) for t, ps in topics.items()])
        r = self.coordinator(group).send(req, max_version=7)
        if r.error_code and r.error_code != 69:
            raise GroupAdminError(f"OffsetFetch for group '{group}' failed: {_err(r.error_code)}")
        out = {}
        for t in r.topics:
            for p in t.partitions:
                if p.error_code == 0 and p.committed_offset >= 0:
                    out[(t.name, p.partition_index)] = p.committed_offset
        return out

    def commit(self, group: str, offsets: dict[tuple[str, int], int]) -> dict[tuple[str, int], int]:
        """Simple (generation -1) commit; returns the partitions that failed with their error code."""
        from odradek.wire.messages.offset_commit_request import (OffsetCommitRequest, OffsetCommitRequestPartition,
                                                                 OffsetCommitRequestTopic)

        topics: dict[str, list] = {}
        for (t, p), o in sorted(offsets.items()):
            topics.setdefault(t, []).append(OffsetCommitRequestPartition(partition_index=p, committed_offset=o))
        r = self.coordinator(group).send(OffsetCommitRequest(
            group_id=group, generation_id_or_member_epoch=-1, member_id="", group_instance_id=None,
            topics=[OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in topics.items()]), max_version=8)
        return {(t.name, p.partition_index): p.error_code for t in r.topics for p in t.partitions if p.error_code}

    def delete(self, group: str) -> int:
        from odradek.wire.messages.delete_groups_request import DeleteGroupsRequest

        r = self.coordinator(group).send(DeleteGroupsRequest(groups_names=[group]))
        return r.results[0].error_code


# ---------------------------------------------------------------------------- commands


def _fail(msg: str) -> int:
    print(f"Error: {msg}", file=sys.stderr)
    return 1


def groups_list(args) -> int:
    states = None
    if args.state:
        states = [s.strip() for s in args.state.split(",") if s.strip()]
    try:
        with GroupAdmin(args.bootstrap_server) as admin:
            groups = admin.list_groups(states)
    except GroupAdminError as e:
        return _fail(str(e))
    if args.format != "table":
        emit([{"group": gid, "state": state or "Unknown", "protocol_type": ptype} for gid, ptype, state in groups],
             args.format, lambda: None)
    elif args.state is None:
        for gid, _, _ in groups:
            print(gid)
    else:
        print_table([[gid, state or "Unknown"] for gid, _, state in groups], ["GROUP", "STATE"])
    return 0


def _target_groups(admin: GroupAdmin, args) -> list[str]:
    groups = _groups_of(args)
    if args.all_groups:
        groups += [g for g, _, _ in admin.list_groups() if g not in groups]
    return groups


def groups_describe(args) -> int:
    rc = 0
    out: list[dict] = []  # --format json|yaml: every row of every group

    def show(rows: list[list], header: list[str]) -> None:
        if args.format == "table":
            print()
            print_table(rows, header)
        else:
            out.extend(header_rows(header, rows))

    try:
        with GroupAdmin(args.bootstrap_server) as admin:
            groups = _target_groups(admin, args)
            if not groups:
                return _fail("give a group (GROUP, --group G) or --all-groups")
            for gid in groups:
                info = admin.describe(gid)
                if info.error_code:
                    rc = _fail(f"cannot describe group '{gid}': {_err(info.error_code)}")
                    continue
                committed = {} if args.state or args.members else admin.committed(gid)
                if info.state == "Dead" and not committed:
                    rc = _fail(f"Consumer group '{gid}' does not exist.")
                    continue
                if args.state:
                    coord = admin.coordinator(gid)
                    show([[gid, f"{coord.host}:{coord.port} ({coord.node_id})", info.protocol or MISSING,
                           info.state, str(len(info.members))]],
                         ["GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"])
                    continue
                _print_state_notice(info)
                if args.members:
                    if info.members:
                        header, rows = member_rows(info, args.verbose)
                        show(rows, header)
                    continue
                tps = sorted(set(committed) | {(t, p) for m in info.members for t, ps in m.assignment.items()
                                               for p in ps})
                log_end = admin.list_offsets(tps, LATEST) if tps else {}
                rows = offset_rows(info, committed, log_end)
                if rows:
                    show(rows, OFFSET_HEADER)
    except GroupAdminError as e:
        return _fail(str(e))
    if args.format != "table":
        emit(out, args.format, lambda: None)
    return rc


def _print_state_notice(info: GroupInfo) -> None:
    """Kafka's one-line notices about the group's state; on stderr, so stdout stays a table."""
    if info.state == "Empty":
        print(f"\nConsumer group '{info.group_id}' has no active members.", file=sys.stderr)
    elif info.state in ("PreparingRebalance", "CompletingRebalance", "Assigning", "Reconciling"):
        print(f"\nWarning: Consumer group '{info.group_id}' is rebalancing.", file=sys.stderr)


def groups_delete(args) -> int:
    try:
        with GroupAdmin(args.bootstrap_server) as admin:
            groups = _target_groups(admin, args)
            if not groups:
                return _fail("give a group (GROUP, --group G) or --all-groups")
            results = {g: admin.delete(g) for g in groups}
    except GroupAdminError as e:
        return _fail(str(e))
    ok = [g for g, e in results.items() if e == 0]
    failed = {g: e for g, e in results.items() if e != 0}
    if ok:
        print(f"Deletion of requested consumer groups ({', '.join(repr(g) for g in ok)}) was successful.")
    if failed:
        from odradek.wire.errors import ErrorCode

        print("Deletion of some consumer groups failed:", file=sys.stderr)
        for g, e in failed.items():
            print(f"* Group '{g}' could not be deleted due to: {_err(e)}: {ErrorCode.from_code(e).message}",
                  file=sys.stderr)
        return 1
    return 0


RESET_STEPS = 5  # describe, committed offsets, partitions, log offsets, commit


def groups_reset_offsets(args) -> int:
    group = args.group_opt or args.group
    if not group:
        return _fail("give a group (GROUP or --group G)")
    if args.group_opt and args.group and args.group_opt != args.group:
        return _fail("give one group")
    specs = []
    try:
        for s in args.topic or []:
            specs.append(parse_topic_spec(s))
        ts_ms = parse_datetime_ms(args.to_datetime) if args.to_datetime else None
    except ValueError as e:
        return _fail(str(e))
    if args.to_earliest:
        how, value = "earliest", None
    elif args.to_latest:
        how, value = "latest", None
    elif args.to_offset is not None:
        how, value = "offset", args.to_offset
    elif args.to_datetime:
        how, value = "datetime", ts_ms
    else:
        how, value = "shift", args.shift_by
    try:
        with GroupAdmin(args.bootstrap_server) as admin, \
                progress(f"reset-offsets {group}", RESET_STEPS, unit="steps", rate=False) as bar:
            bar.step(f"reset-offsets {group}: describe")
            info = admin.describe(group)
            reason = inactive_reason(group, info.state)
            if reason:
                return _fail(reason)
            bar.advance()
            bar.step(f"reset-offsets {group}: committed offsets")
            committed = admin.committed(group)
            bar.advance()
            if args.all_topics:
                tps = sorted(committed)
            else:
                tps = []
                for topic, parts in specs:
                    known = admin.partitions_of(topic)
                    if known is None:
                        return _fail(f"topic '{topic}' does not exist")
                    bad = [p for p in parts or [] if p not in known]
                    if bad:
                        return _fail(f"topic '{topic}' has no partition {', '.join(map(str, bad))}")
                    tps += [(topic, p) for p in (parts if parts is not None else known)]
                tps = sorted(set(tps))
            bar.advance()
            bar.step(f"reset-offsets {group}: log offsets of {len(tps)} partitions")
            earliest = admin.list_offsets(tps, EARLIEST) if tps else {}
            latest = admin.list_offsets(tps, LATEST) if tps else {}
            unknown = [tp for tp in tps if earliest.get(tp) is None or latest.get(tp) is None]
            if unknown:
                return _fail("cannot read the log offsets of " + ", ".join(f"{t}-{p}" for t, p in unknown))
            by_time = admin.list_offsets(tps, ts_ms) if how == "datetime" and tps else None
            plan = plan_reset(tps, how=how, value=value, earliest=earliest, latest=latest, by_time=by_time,
                              committed=committed, warn=lambda m: print(f"WARN: {m}", file=sys.stderr))
            bar.advance()
            if args.execute and plan:
                bar.step(f"reset-offsets {group}: commit {len(plan)} offsets")
                failed = admin.commit(group, plan)
                if failed:
                    return _fail("could not commit: " + ", ".join(f"{t}-{p}: {_err(e)}"
                                                                  for (t, p), e in sorted(failed.items())))
            bar.advance()
    except GroupAdminError as e:
        return _fail(str(e))
    if not args.execute and not args.dry_run:
        print("WARN: No action will be performed as the --execute option is missing. In a future major release, "
              "the default behavior of this command will be to prompt the user before executing the reset rather "
              "than doing a dry run. You should add the --dry-run option explicitly if you are scripting this "
              "command and want to keep the current default behavior without prompting.", file=sys.stderr)
    if plan:
        print()
        print_table(reset_rows(group, plan), RESET_HEADER)
    else:
        print(f"No partitions to reset for group '{group}'.")
    return 0
