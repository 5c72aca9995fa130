"""The broker's HTTP listener (h11 on asyncio): routes, keep-alive, and bad input answered
with an HTTP error and a closed connection, never a crash."""

from __future__ import annotations

import asyncio

from odradek.broker.http_server import HttpServer, Response, Routes


def run(coro):
    return asyncio.run(coro)


def routes() -> Routes:
    r = Routes()
    r.add("GET", "/health/live", lambda req: Response.text(200, "live\n"))
    r.add("POST", "/echo", lambda req: Response.json(200, {"got": req.json(), "q": req.query}))
    r.add("DELETE", "/things/", lambda req: Response.text(200, req.path))
    r.add("GET", "/boom", lambda req: 1 / 0)
    return r


async def exchange(raw: bytes) -> bytes:
    server = HttpServer("127.0.0.1", 0, routes())
    await server.start(asyncio.get_running_loop())
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(raw)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), 10)  # until the server closes
        writer.close()
        return data
    finally:
        server.close()


def test_keep_alive_pipelined_requests():
    out = run(exchange(b"GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n"
                       b"POST /echo?a=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n[1,2,3]"
                       b"DELETE /things/17 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
    assert out.count(b"HTTP/1.1 200 OK") == 3
    assert b"live\n" in out
    assert b'{"got": [1, 2, 3], "q": {"a": ["1"]}}' in out
    assert out.endswith(b"/things/17")


def test_not_found_and_method_not_allowed():
    out = run(exchange(b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                       b"DELETE /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
    assert b"HTTP/1.1 404 Not Found" in out and b"HTTP/1.1 405 Method Not Allowed" in out


def test_handler_failure_is_a_500_and_the_connection_goes_on():
    out = run(exchange(b"GET /boom HTTP/1.1\r\nHost: x\r\n\r\n"
                       b"GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
    assert b"HTTP/1.1 500 Internal Server Error" in out and out.endswith(b"live\n")


def test_garbage_is_a_400_and_closes():
    out = run(exchange(b"\x16\x03\x01\x02\x00 not http at all\r\n\r\n"))
    assert out.startswith(b"HTTP/1.1 400 ")


def test_bad_json_body_is_answered():
    out = run(exchange(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{x]"))
    assert out.startswith(b"HTTP/1.1 500 ")


def test_body_too_large_is_a_413():
    out = run(exchange(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (2 << 20)))
    assert out.startswith(b"HTTP/1.1 413 ")


def test_oversized_headers_are_refused():
    out = run(exchange(b"GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n"))
    assert out.startswith(b"HTTP/1.1 431 ")
