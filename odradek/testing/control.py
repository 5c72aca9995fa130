"""The test-side handles of a broker's faults and clock: ``broker.faults.inject(...)``,
``broker.clock.advance(ms)``. They speak the control API (odradek/testing/control_api.py): over
HTTP to a broker process (its ``odradek.http.port``), or straight to a broker running in this
process (on its event loop's thread)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Callable

from .faults import FaultError

# (method, path, JSON body or None) -> (status, JSON answer)
Transport = Callable[[str, str, object], tuple[int, dict]]
# a fault's fields (with a callable rewrite) -> its id, on a broker in this process
LocalRules = Callable[[dict], int]


def http_transport(base_url: str, timeout_s: float = 30) -> Transport:
    """The control API of a broker at ``base_url`` (http://HOST:PORT)."""
    base = base_url.rstrip("/")

    def call(method: str, path: str, body: object) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout_s) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw or b"{}")
            except ValueError:
                return e.code, {"error": raw.decode(errors="replace") or e.reason}
    return call


def _checked(answer: tuple[int, dict], what: str) -> dict:
    status, body = answer
    if status >= 400:
        msg = body.get("error") if isinstance(body, dict) else None
        raise FaultError(f"{what}: {msg or f'HTTP {status}'}")
    return body


class FaultHandle:
    """An injected fault; a context manager that removes it on exit (if it is not spent already)."""

    def __init__(self, faults: "Faults", fault_id: int) -> None:
        self._faults = faults
        self.id = fault_id

    def remove(self) -> bool:
        """True if it was still there (not spent, not removed)."""
        return self._faults.remove(self.id)

    @property
    def active(self) -> bool:
        return any(f["id"] == self.id for f in self._faults.list())

    @property
    def hits(self) -> int:
        """How many requests it took so far (0 once it is gone: see Faults.list while it lives)."""
        return next((f["hits"] for f in self._faults.list() if f["id"] == self.id), 0)

    def __enter__(self) -> "FaultHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"FaultHandle(id={self.id})"


class Faults:
    """``inject`` a fault, ``remove``/``clear`` them, ``list`` them (with their hits); and what is
    done to the node itself: ``drop_connections`` of a client id, ``pause``/``resume`` its
    listeners, its test ``network`` (cut peers or clients, slow peers; ``heal``)."""

    def __init__(self, transport: Transport, local: LocalRules | None = None) -> None:
        self._call = transport
        self._local = local

    def inject(self, api: str | int, error: str | int | None = None, times: int | None = None, *,
               topic: str | None = None, partition: int | None = None, group: str | None = None,
               client_id: str | None = None, version: int | None = None, delay_ms: int | None = None,
               action: str | None = None, rewrite: Callable | dict | None = None) -> FaultHandle:
        """Answer the next ``times`` requests of ``api`` (all of them while the handle lives, when
        None) that match the filters with ``error`` (a Kafka error name or code), and/or delay them by
        ``delay_ms``, or ``action`` them: "drop_response" (handled, never answered) or
        "close_connection" (the connection is closed before the request is handled).
        ``rewrite``: the response (the handler's, or the error's) goes through it before it is sent:
        a callable taking the decoded response object and returning it changed (a broker in this
        process: Broker(in_process=True); it runs on the broker's thread), or a patch of fields
        (odradek/testing/rewrite.py), which any broker takes."""
        fields = {"api": api, "error": error, "times": times, "topic": topic, "partition": partition,
                  "group": group, "client_id": client_id, "version": version, "delay_ms": delay_ms,
                  "action": action, "rewrite": rewrite}
        body = {k: v for k, v in fields.items() if v is not None}
        if callable(rewrite):
            if self._local is None:
                raise FaultError("a callable rewrite needs the broker in this process (Broker(in_process=True)); "
                                 'to a broker process give a patch of fields, e.g. rewrite={"throttle_time_ms": 5}')
            return FaultHandle(self, self._local(body))
        answer = _checked(self._call("POST", "/control/faults", body), "cannot inject the fault")
        return FaultHandle(self, answer["id"])

    def drop_connections(self, client_id: str) -> int:
        """Reset every connection whose requests carry ``client_id``; how many there were."""
        return _checked(self._call("POST", "/control/connections/drop", {"client_id": client_id}),
                        "cannot drop the connections")["dropped"]

    def pause(self) -> "Paused":
        """The node's listeners read and answer nothing (new connections are accepted by the
        kernel, never read) until ``resume`` (or the end of ``with faults.pause():``); its own
        heartbeats and fetches go on."""
        _checked(self._call("POST", "/control/pause", None), "cannot pause")
        return Paused(self)

    def resume(self) -> None:
        _checked(self._call("POST", "/control/resume", None), "cannot resume")

    @property
    def paused(self) -> bool:
        return _checked(self._call("GET", "/control/pause", None), "cannot read the pause")["paused"]

    def network(self, cut: list[int] | None = None, *, clients: bool | None = None,
                slow: dict[int, int] | None = None) -> dict:
        """Add to the node's test network (odradek/testing/network.py): refuse the requests of the
        ``cut`` node ids (their connections dropped), of every client (``clients=True``), delay those
        of ``slow`` node ids by their ms (0 removes a delay). What is in place now."""
        body: dict = {"cut": list(cut or [])}
        if clients is not None:
            body["clients"] = clients
        if slow:
            body["slow"] = {str(k): v for k, v in slow.items()}
        return _checked(self._call("POST", "/control/network", body), "cannot change the network")

    def heal(self) -> dict:
        """Nothing cut, nothing slow."""
        return _checked(self._call("DELETE", "/control/network", None), "cannot heal the network")

    def remove(self, fault_id: int) -> bool:
        status, _ = self._call("DELETE", f"/control/faults/{int(fault_id)}", None)
        if status not in (200, 404):
            raise FaultError(f"cannot remove fault {fault_id}: HTTP {status}")
        return status == 200

    def clear(self) -> int:
        return _checked(self._call("DELETE", "/control/faults", None), "cannot clear the faults")["removed"]

    def list(self) -> list[dict]:
        return _checked(self._call("GET", "/control/faults", None), "cannot list the faults")["faults"]


class Paused:
    """A pause in place: a context manager that resumes the node on exit."""

    def __init__(self, faults: Faults) -> None:
        self._faults = faults

    def __enter__(self) -> "Paused":
        return self

    def __exit__(self, *exc) -> None:
        self._faults.resume()


class Clock:
    """The broker's clock: ``advance(ms)`` on a broker with the virtual clock; ``now_ms()``."""

    def __init__(self, transport: Transport) -> None:
        self._call = transport

    def advance(self, ms: int) -> int:
        """Move the broker's clock by ``ms``; what became due (session timeouts, retention, ...) runs
        at once. The broker's new now_ms."""
        return _checked(self._call("POST", "/control/clock/advance", {"ms": ms}), "cannot advance the clock")["now_ms"]

    def now_ms(self) -> int:
        return _checked(self._call("GET", "/control/clock", None), "cannot read the clock")["now_ms"]

    @property
    def virtual(self) -> bool:
        return _checked(self._call("GET", "/control/clock", None), "cannot read the clock")["virtual"]
