"""The console's routes, under ``root`` ("/console" on a broker's HTTP listener, "" for
`odradek console`): pages read a broker over the Kafka protocol (source.KafkaSource), so they
are blocking handlers (run in worker threads, never on a broker's event loop).

    GET  /                          the cluster: brokers, controller, the metadata quorum (leader, epoch,
                                    high watermark, voters and observers with their lag), feature levels,
                                    partition health
    GET  /topics                    topics; POST /topics creates one (name, partitions, replication_factor)
    GET  /topics/NAME               partitions (leader, replicas, ISR, offsets), active producers, configs,
                                    and the message browser: ?partition=&offset=|timestamp=&format=text|json|hex&q=&limit=
    POST /topics/NAME/partitions    count: add partitions (CreatePartitions)
    POST /topics/NAME/config        key, value (empty: delete the override): IncrementalAlterConfigs
    POST /topics/NAME/delete        confirm=yes: DeleteTopics
    GET  /throughput                records/s per topic between views (log end offsets), with a chart;
                                    ?refresh=S reloads every S seconds
    GET  /groups                    groups of every type (classic, consumer, share, streams)
    GET  /groups/ID                 a consumer group: state, members, committed offsets and lag (with a chart
                                    over the page's views; ?refresh=S reloads every S seconds)
    POST /groups/ID/reset           topic, to=earliest|latest, confirm=yes: Kafka's reset-offsets --execute
    GET  /share-groups/ID           a share group: members, assignments, start offsets and lag
    GET  /streams-groups/ID         a streams group: members, active/standby tasks, topology
    GET  /transactions              transactional ids: state, producer id/epoch, timeout, partitions
    GET  /acls                      ACLs (the broker's error when it has no authorizer)
    GET  /quotas                    client quotas
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from urllib.parse import parse_qs, quote, unquote

from odradek.broker.http_server import Request, Response, Routes
from odradek.cli_groups import OFFSET_HEADER
from odradek.console.cluster_state import ClusterState
from odradek.console.group_types import GroupTypes
from odradek.console.pages import FORMATS, render, sparkline
from odradek.console.source import ConsoleError, KafkaSource

HTML = "text/html; charset=utf-8"
LAG_POINTS = 120


class ConsoleApp:
    def __init__(self, source: KafkaSource, root: str = "", clock: Callable[[], float] = time.monotonic):
        self.source = source
        self.root = root.rstrip("/")
        self.clock = clock
        self.lag_history: dict[str, deque] = {}
        self.state = ClusterState(source.bootstrap)
        self.group_types = GroupTypes(source.bootstrap)
        # /throughput: the log end offsets at the last view, and the rates seen since the first
        self._last_ends: tuple[float, dict[str, int]] | None = None
        self.rate_history: deque = deque(maxlen=LAG_POINTS)

    def add_routes(self, routes: Routes) -> None:
        r = self.root
        routes.add("GET", r + "/", self.overview, blocking=True)
        if r:
            routes.add("GET", r, lambda req: Response(302, b"", headers=(("location", r + "/"),)))
        routes.add("GET", r + "/topics", self.topics, blocking=True)
        routes.add("POST", r + "/topics", self.create_topic, blocking=True)
        routes.add("GET", r + "/topics/", self.topic, blocking=True)
        routes.add("POST", r + "/topics/", self.change_topic, blocking=True)
        routes.add("GET", r + "/throughput", self.throughput, blocking=True)
        routes.add("GET", r + "/groups", self.groups, blocking=True)
        routes.add("GET", r + "/groups/", self.group, blocking=True)
        routes.add("POST", r + "/groups/", self.reset, blocking=True)
        routes.add("GET", r + "/share-groups/", self.share_group, blocking=True)
        routes.add("GET", r + "/streams-groups/", self.streams_group, blocking=True)
        routes.add("GET", r + "/transactions", self.transactions, blocking=True)
        routes.add("GET", r + "/acls", self.acls, blocking=True)
        routes.add("GET", r + "/quotas", self.quotas, blocking=True)

    # ------------------------------------------------------------ pages

    def _page(self, template: str, status: int = 200, **values) -> Response:
        return Response(status, render(template, root=self.root, bootstrap=self.source.bootstrap, **values), HTML)

    def _failed(self, template: str, e: Exception, **values) -> Response:
        return self._page(template, 200, error=str(e), **values)

    def overview(self, req: Request) -> Response:
        if req.path not in (self.root + "/", "/"):
            return Response.text(404, f"no such path: {req.path}\n")
        return self._page("overview.html", title="Cluster", o=self.source.overview(), quorum=self.state.quorum(),
                          features=self.state.features())

    def topics(self, req: Request, error: str | None = None, notice: str | None = None) -> Response:
        return self._page("topics.html", title="Topics", topics=self.source.topics(), error=error, notice=notice)

    def create_topic(self, req: Request) -> Response:
        form = _form(req)
        name = form.get("name", "").strip()
        try:
            self.source.create_topic(name, int(form.get("partitions") or 1), int(form.get("replication_factor") or -1))
        except (ConsoleError, ValueError) as e:
            return self.topics(req, error=f"Creating topic {name!r} failed: {e}")
        return self.topics(req, notice=f"Created topic {name}.")

    def topic(self, req: Request, error: str | None = None, notice: str | None = None) -> Response:
        name = unquote(req.path[len(self.root + "/topics/"):])
        q = _Browse(req)
        try:
            t = self.source.topic(name)
        except ConsoleError as e:
            return Response(404, render("base.html", root=self.root, bootstrap=self.source.bootstrap,
                                        title=name, error=str(e)), HTML)
        records = None
        try:
            producers = self.state.producers(name)
        except ConsoleError as e:
            producers, error = [], error or str(e)
        if q.partition is not None:
            try:
                start = q.offset
                if start is None and q.timestamp is not None:
                    start = self.source.offset_for_time(name, q.partition, q.timestamp)
                if start is None:
                    p = next((p for p in t.partitions if p.partition == q.partition), None)
                    start = p.start if p is not None and p.start is not None else 0
                records = [r for r in self.source.messages(name, q.partition, start, q.limit) if q.matches(r)]
            except ConsoleError as e:
                error = str(e)
        return self._page("topic.html", title=name, t=t, q=q, records=records, formats=FORMATS, error=error,
                          notice=notice, producers=producers)

    def change_topic(self, req: Request) -> Response:
        """POST /topics/NAME/partitions|config|delete: the change, then the topic's page (or the
        topics' after a delete) with what happened."""
        rest = req.path[len(self.root + "/topics/"):]
        name, _, action = rest.rpartition("/")
        name = unquote(name)
        form = _form(req)
        page = Request("GET", self.root + "/topics/" + quote(name, safe=""), {}, b"")
        try:
            if action == "partitions":
                count = int(form.get("count") or 0)
                self.state.add_partitions(name, count)
                return self.topic(page, notice=f"Topic {name} now has {count} partitions.")
            if action == "config":
                key, value = form.get("key", "").strip(), form.get("value", "")
                self.state.alter_config(name, key, value if value != "" else None)
                return self.topic(page, notice=f"Set {key}={value} on {name}." if value != ""
                                  else f"Removed the override of {key} on {name}.")
            if action == "delete":
                if form.get("confirm") != "yes":
                    return self.topic(page, error="Not deleted: tick the confirmation first.")
                self.state.delete_topic(name)
                return self.topics(req, notice=f"Deleted topic {name}.")
        except (ConsoleError, ValueError) as e:
            return self.topic(page, error=f"{action} of {name} failed: {e}")
        return Response.text(404, f"no such path: {req.path}\n")

    def throughput(self, req: Request) -> Response:
        """Records appended per second per topic since the previous view of this page (from the
        partitions' log end offsets), and the total over the views as a chart."""
        topics = [t for t in self.source.topics() if not t.internal]
        now = self.clock()
        ends = {t.name: sum(p.end or 0 for p in t.partitions) for t in topics}
        rates: dict[str, float] | None = None
        last = self._last_ends
        if last is not None and now > last[0]:
            rates = {n: max(e - last[1].get(n, e), 0) / (now - last[0]) for n, e in ends.items()}
            self.rate_history.append((now, sum(rates.values())))
        self._last_ends = (now, ends)
        refresh = req.query.get("refresh", [None])[0]
        return self._page("throughput.html", title="Throughput", ends=ends, rates=rates,
                          chart=sparkline(list(self.rate_history), label="records/s"),
                          refresh=refresh if refresh and refresh.isdigit() else None)

    def groups(self, req: Request) -> Response:
        return self._page("groups.html", title="Groups", groups=self.group_types.list())

    def share_group(self, req: Request) -> Response:
        return self._typed_group(req, "/share-groups/", self.group_types.share_group)

    def streams_group(self, req: Request) -> Response:
        return self._typed_group(req, "/streams-groups/", self.group_types.streams_group)

    def _typed_group(self, req: Request, prefix: str, describe) -> Response:
        gid = unquote(req.path[len(self.root + prefix):])
        try:
            g = describe(gid)
        except ConsoleError as e:
            return self._page("base.html", 404, title=gid, error=str(e))
        return self._page("typed_group.html", title=gid, g=g)

    def transactions(self, req: Request) -> Response:
        try:
            return self._page("transactions.html", title="Transactions", txns=self.state.transactions())
        except ConsoleError as e:
            return self._page("transactions.html", title="Transactions", txns=[], error=str(e))

    def acls(self, req: Request) -> Response:
        try:
            return self._page("acls.html", title="ACLs", acls=self.state.acls())
        except ConsoleError as e:
            return self._page("acls.html", title="ACLs", acls=None, error=f"DescribeAcls: {e}")

    def quotas(self, req: Request) -> Response:
        try:
            return self._page("quotas.html", title="Quotas", quotas=self.state.quotas())
        except ConsoleError as e:
            return self._page("quotas.html", title="Quotas", quotas=[], error=f"DescribeClientQuotas: {e}")

    def group(self, req: Request, error: str | None = None, notice: str | None = None) -> Response:
        gid = unquote(req.path[len(self.root + "/groups/"):])
        g = self.source.group(gid)
        history = self.lag_history.setdefault(gid, deque(maxlen=LAG_POINTS))
        history.append((self.clock(), g.lag))
        topics = sorted({row[1] for row in g.rows})
        refresh = req.query.get("refresh", [None])[0]
        return self._page("group.html", title=gid, g=g, header=OFFSET_HEADER, chart=sparkline(list(history)),
                          topics=topics, error=error, notice=notice,
                          refresh=refresh if refresh and refresh.isdigit() else None)

    def reset(self, req: Request) -> Response:
        prefix, suffix = self.root + "/groups/", "/reset"
        if not req.path.endswith(suffix):
            return Response.text(404, f"no such path: {req.path}\n")
        gid = unquote(req.path[len(prefix):-len(suffix)])
        form = _form(req)
        page = Request("GET", prefix + quote(gid, safe=""), {}, b"")
        if form.get("confirm") != "yes":
            return self.group(page, error="Not reset: tick the confirmation first.")
        try:
            plan = self.source.reset_offsets(gid, form.get("topic", ""), form.get("to", ""))
        except ConsoleError as e:
            return self.group(page, error=f"Not reset: {e}")
        moved = ", ".join(f"{t}-{p} to {o}" for (t, p), o in sorted(plan.items()))
        return self.group(page, notice=f"Reset {moved}.")


class _Browse:
    """The message browser's query: partition, offset or timestamp, format, search text, limit."""

    def __init__(self, req: Request):
        def arg(name: str) -> str | None:
            v = req.query.get(name, [""])[0].strip()
            return v or None

        self.partition = _int(arg("partition"))
        self.offset = _int(arg("offset"))
        self.timestamp = _int(arg("timestamp"))
        fmt = arg("format") or "text"
        self.format = fmt if fmt in FORMATS else "text"
        self.search = arg("q")
        self.limit = min(max(_int(arg("limit")) or 50, 1), 500)

    def matches(self, r) -> bool:
        if not self.search:
            return True
        needle = self.search.encode()
        return any(needle in (b or b"") for b in (r.key, r.value, *(v for _, v in r.headers)))


def _int(v: str | None) -> int | None:
    try:
        return int(v) if v is not None else None
    except ValueError:
        return None


def _form(req: Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(req.body.decode("utf-8", "replace")).items()}


def mount_console(routes: Routes, bootstrap: str) -> None:
    """The console under /console/ of a broker's HTTP listener, reading that broker."""
    ConsoleApp(KafkaSource(bootstrap), root="/console").add_routes(routes)
