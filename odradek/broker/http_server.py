"""The broker's HTTP listener (`odradek.http.port`, off by default): `/metrics`, `/health/live`,
`/health/ready`, and whatever else registers a route (the testing toolkit's control API).

HTTP/1.1 is parsed by h11 (sans-IO, a maintained library), one asyncio protocol per
connection, on the broker's own event loop. Routes are plain functions of a Request that
return a Response; they run on the loop, so they must be quick (a scrape reads counters).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

import h11

log = logging.getLogger("odradek.broker.http")

MAX_BODY_BYTES = 1 << 20
MAX_HEADER_BYTES = 16 * 1024


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: bytes

    def json(self):
        """The body as JSON (ValueError when it is not)."""
        return json.loads(self.body or b"null")


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = field(default=())

    @staticmethod
    def text(status: int, text: str) -> Response:
        return Response(status, text.encode())

    @staticmethod
    def json(status: int, value) -> Response:
        return Response(status, json.dumps(value).encode(), "application/json")


Handler = Callable[[Request], Response]
# what an entry point mounts on a broker's HTTP listener (the console): (routes, the broker's
# own bootstrap address) -> None
HttpMount = Callable[["Routes", str], None]


def _reason(status: int) -> bytes:
    try:
        return HTTPStatus(status).phrase.encode()
    except ValueError:
        return b""


class Routes:
    """(method, path) -> handler; a path ending in "/" also matches every path below it
    (`DELETE /control/faults/` serves `/control/faults/17`; the longest such prefix wins). A handler added with
    ``blocking=True`` (it waits on I/O, e.g. the console asking a broker) runs in a worker
    thread; the others run on the event loop and must be quick."""

    def __init__(self):
        self._exact: dict[tuple[str, str], tuple[Handler, bool]] = {}
        self._prefix: list[tuple[str, str, Handler, bool]] = []

    def add(self, method: str, path: str, handler: Handler, blocking: bool = False) -> None:
        if path.endswith("/") and path != "/":
            self._prefix.append((method, path, handler, blocking))
        else:
            self._exact[(method, path)] = (handler, blocking)

    def resolve(self, req: Request) -> tuple[Handler, bool]:
        """The handler of a request and whether it blocks; 404/405 answers when there is none."""
        found = self._exact.get((req.method, req.path))
        if found is None:
            matching = [(len(p), h, b) for m, p, h, b in self._prefix if m == req.method and req.path.startswith(p)]
            found = max(matching, key=lambda x: x[0])[1:] if matching else None  # the longest prefix
        if found is not None:
            return found
        known = {p for _, p in self._exact} | {p for _, p, _, _ in self._prefix}
        if req.path in known or any(req.path.startswith(p) for _, p, _, _ in self._prefix):
            return (lambda r: Response.text(405, f"method {r.method} not allowed on {r.path}\n")), False
        return (lambda r: Response.text(404, f"no such path: {r.path}\n")), False

    def dispatch(self, req: Request) -> Response:
        return self.call(self.resolve(req)[0], req)

    @staticmethod
    def call(handler: Handler, req: Request) -> Response:
        try:
            return handler(req)
        except Exception:
            log.exception("HTTP %s %s failed", req.method, req.path)
            return Response.text(500, "internal error\n")


class HttpConnection:
    """One HTTP connection (an asyncio.Protocol): keep-alive, one request at a time."""

    def __init__(self, routes: Routes, connections: set):
        self.routes = routes
        self.connections = connections
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BYTES)
        self.transport = None
        self._request: h11.Request | None = None
        self._body = bytearray()

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.connections.add(self)

    def connection_lost(self, exc) -> None:
        self.connections.discard(self)

    def eof_received(self):
        self.conn.receive_data(b"")
        return False

    def data_received(self, data: bytes) -> None:
        self.conn.receive_data(data)
        self._process()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def _process(self) -> None:
        while self.transport is not None and not self.transport.is_closing():
            try:
                event = self.conn.next_event()
            except h11.RemoteProtocolError as e:
                self._fail(e.error_status_hint, str(e))
                return
            if event is h11.NEED_DATA or event is h11.PAUSED:
                return
            if isinstance(event, h11.Request):
                self._request, self._body = event, bytearray()
                if sum(len(k) + len(v) for k, v in event.headers) > MAX_HEADER_BYTES:
                    self._fail(431, "request headers too large")
                    return
                length = dict(event.headers).get(b"content-length", b"0")
                if length.isdigit() and int(length) > MAX_BODY_BYTES:
                    self._fail(413, "request body too large")
                    return
            elif isinstance(event, h11.Data):
                self._body += event.data
                if len(self._body) > MAX_BODY_BYTES:
                    self._fail(413, "request body too large")
                    return
            elif isinstance(event, h11.EndOfMessage):
                self._answer()
            elif isinstance(event, h11.ConnectionClosed):
                self.close()
                return

    def _answer(self) -> None:
        target = urlsplit(self._request.target.decode("latin-1"))
        req = Request(self._request.method.decode("ascii"), target.path, parse_qs(target.query), bytes(self._body))
        handler, blocking = self.routes.resolve(req)
        if not blocking:
            self._respond(self.routes.call(handler, req), req.method == "HEAD")
            return
        loop = asyncio.get_running_loop()
        done = loop.run_in_executor(None, self.routes.call, handler, req)
        done.add_done_callback(lambda f: self._answered(f, req.method == "HEAD"))

    def _answered(self, f, head: bool) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self._respond(f.result(), head)
        self._process()  # a request pipelined behind this one

    def _respond(self, resp: Response, head: bool) -> None:
        self._send(resp, head=head)
        if self.conn.our_state is h11.MUST_CLOSE or self.conn.their_state is h11.MUST_CLOSE:
            self.close()
            return
        try:
            self.conn.start_next_cycle()
        except h11.LocalProtocolError:
            self.close()

    def _send(self, resp: Response, head: bool = False) -> None:
        headers = [("content-type", resp.content_type), ("content-length", str(len(resp.body))),
                   *resp.headers]
        out = self.conn.send(h11.Response(status_code=resp.status, headers=headers, reason=_reason(resp.status)))
        if resp.body and not head:
            out += self.conn.send(h11.Data(data=resp.body))
        out += self.conn.send(h11.EndOfMessage())
        self.transport.write(out)

    def _fail(self, status: int, why: str) -> None:
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            try:
                self._send(Response.text(status, why + "\n"))
            except h11.LocalProtocolError:
                pass
        self.close()


class HttpServer:
    """Binds `host:port` on the running loop; serves ``routes``."""

    def __init__(self, host: str, port: int, routes: Routes):
        self.host, self.port, self.routes = host, port, routes
        self.server = None
        self.connections: set[HttpConnection] = set()

    async def start(self, loop) -> None:
        self.server = await loop.create_server(lambda: HttpConnection(self.routes, self.connections),
                                               self.host or None, self.port, reuse_address=True)
        self.port = self.server.sockets[0].getsockname()[1]
        log.info("HTTP endpoints (/metrics, /health/live, /health/ready) on %s:%d", self.host, self.port)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for c in list(self.connections):
            c.close()
