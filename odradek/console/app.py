"""The console's routes, under ``root`` ("/console" on a broker's HTTP listener, "" for
`odradek console`): pages read a broker over the Kafka protocol (source.KafkaSource), so they
are blocking handlers (run in worker threads, never on a broker's event loop).

    GET  /                          the cluster: brokers, controller, partition health
    GET  /topics                    topics; POST /topics creates one (name, partitions, replication_factor)
    GET  /topics/NAME               partitions (leader, replicas, ISR, offsets), configs, and the
                                    message browser: ?partition=&offset=|timestamp=&format=text|json|hex&q=&limit=
    GET  /groups                    consumer groups
    GET  /groups/ID                 state, members, committed offsets and lag (with a chart over the
                                    page's views; ?refresh=S reloads every S seconds)
    POST /groups/ID/reset           topic, to=earliest|latest, confirm=yes: Kafka's reset-offsets --execute
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from urllib.parse import parse_qs, quote, unquote

from odradek.broker.http_server import Request, Response, Routes
from odradek.cli_groups import OFFSET_HEADER
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

    def add_routes(self, routes: Routes) -> None:
        r = self.root
        routes.add("GET", r + "/", self.overview, blocking=True)
        if r:
            routes.add("GET", r, lambda req: Response(302, b"", headers=(("location", r + "/"),)))
        routes.add("GET", r + "/topics", self.topics, blocking=True)
        routes.add("POST", r + "/topics", self.create_topic, blocking=True)
        routes.add("GET", r + "/topics/", self.topic, blocking=True)
        routes.add("GET", r + "/groups", self.groups, blocking=True)
        routes.add("GET", r + "/groups/", self.group, blocking=True)
        routes.add("POST", r + "/groups/", self.reset, blocking=True)

    # ------------------------------------------------------------ pages

    def _page(self, template: str, status: int = 200, **values) -> Response:
        return Response(status, render(template, root=self.root, bootstrap=self.source.bootstrap, **values), HTML)

    def _failed(self, template: str, e: Exception, **values) -> Response:
        return self._page(template, 200, error=str(e), **values)

    def overview(self, req: Request) -> Response:
        if req.path not in (self.root + "/", "/"):
            return Response.text(404, f"no such path: {req.path}\n")
        return self._page("overview.html", title="Cluster", o=self.source.overview())

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

    def topic(self, req: Request) -> Response:
        name = unquote(req.path[len(self.root + "/topics/"):])
        q = _Browse(req)
        try:
            t = self.source.topic(name)
        except ConsoleError as e:
            return Response(404, render("base.html", root=self.root, bootstrap=self.source.bootstrap,
                                        title=name, error=str(e)), HTML)
        records = None
        error = None
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
        return self._page("topic.html", title=name, t=t, q=q, records=records, formats=FORMATS, error=error)

    def groups(self, req: Request) -> Response:
        return self._page("groups.html", title="Consumer groups", groups=self.source.groups())

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
