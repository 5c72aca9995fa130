"""Reading a node's HTTP endpoints in tests: a GET, and /metrics parsed by prometheus_client's parser."""

from __future__ import annotations

import http.client

from prometheus_client.parser import text_string_to_metric_families


def get(port: int, path: str, method: str = "GET") -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        return resp.status, resp.getheader("content-type", ""), resp.read()
    finally:
        conn.close()


def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """sample name and sorted labels -> value"""
    status, ctype, body = get(port, "/metrics")
    assert status == 200 and ctype.startswith("text/plain; version=0.0.4")
    out = {}
    for family in text_string_to_metric_families(body.decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out
