"""A test broker: ``odradek serve`` on a free port with a temp data dir, as a subprocess (the
default) or on a thread of the calling process, started and stopped as a context manager.

    with Broker(virtual_clock=True) as b:
        produce(b.bootstrap, ...)
        with b.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=2): ...
        b.clock.advance(45_000)
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

import odradek

from . import control_api
from .clients import ClientHelpers
from .control import Clock, Faults, Transport, http_transport
from .faults import parse
from .ports import PortLeases

READY_TIMEOUT_S = 60
STOP_TIMEOUT_S = 20
# what testcontainers' Kafka and Kafka's own test harness set for a one-node test broker: no wait
# before a new group's first rebalance, small internal topics (quick to create)
TEST_DEFAULTS = {
    "group.initial.rebalance.delay.ms": "0",
    "offsets.topic.num.partitions": "1",
    "transaction.state.log.num.partitions": "1",
}
_PACKAGE_ROOT = str(Path(odradek.__file__).resolve().parent.parent)


def serve_env() -> dict[str, str]:
    """The environment of a broker subprocess: it imports the odradek this process imported."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _PACKAGE_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # later starts skip compiling
    return env


def _props(s: dict | None) -> dict[str, str]:
    return {str(k): (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (s or {}).items()}


class Broker(ClientHelpers):
    """A single-node broker (broker and controller roles, as `odradek serve`).

    ``properties``: Kafka property names, as ``--override``; ``virtual_clock``: the broker's clock
    moves only by ``clock.advance``; ``control`` (default True): faults and clock over the control
    API; ``trace``: a file for every request and response as JSON lines; ``in_process``: run on a
    thread of this process instead of a subprocess (no ``kill``; one per data dir)."""

    def __init__(self, properties: dict | None = None, *, virtual_clock: bool = False, control: bool = True,
                 trace: str | os.PathLike | None = None, in_process: bool = False,
                 data_dir: str | os.PathLike | None = None, port: int | None = None,
                 http_port: int | None = None, test_defaults: bool = True) -> None:
        self.in_process = in_process
        self._own_dir = data_dir is None
        self.data_dir = str(data_dir) if data_dir is not None else None
        self.port = port
        self.http_port = http_port
        self._ports = PortLeases()  # the ports it picked, leased until close()
        self.host = "127.0.0.1"
        props = dict(TEST_DEFAULTS) if test_defaults else {}
        props.update(_props(properties))
        if virtual_clock:
            props["odradek.testing.virtual.clock"] = "true"
        if control:
            props["odradek.testing.control.enable"] = "true"
        self.trace_path = Path(trace) if trace is not None else None
        if trace is not None:
            props["odradek.testing.trace.file"] = str(self.trace_path.resolve())
        self.properties = props
        self.control = control
        self.output: deque[str] = deque(maxlen=2000)
        self.startup_s: float | None = None
        self._proc: subprocess.Popen | None = None
        self._thread: _ThreadBroker | None = None
        self.faults = Faults(self._transport, self._add_local_rule if in_process else None)
        self.clock = Clock(self._transport)

    # ------------------------------------------------------------ what a test uses

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def control_url(self) -> str | None:
        """http://HOST:PORT of the control API (for `odradek fault inject --bootstrap-http`)."""
        return None if self.http_port is None else f"http://{self.host}:{self.http_port}"

    def __enter__(self) -> "Broker":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def running(self) -> bool:
        if self._thread is not None:
            return self._thread.alive
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> "Broker":
        if self.running:
            return self
        if self.data_dir is None:
            self.data_dir = tempfile.mkdtemp(prefix="odradek-test-")
        # ports picked here may be picked again when another process took one first; a port given,
        # or kept from an earlier start (a restart: clients reconnect to it), stays
        pick_port = self.port is None
        pick_http = self.http_port is None and self.control and not self.in_process
        for attempt in range(3):
            if pick_port:
                self.port = self._ports.take()
            if pick_http:
                self.http_port = self._ports.take()
            try:
                self._start_once()
                return self
            except RuntimeError as e:
                if attempt == 2 or not (pick_port or pick_http) or "address already in use" not in str(e).lower():
                    raise
                self._ports.release()  # a process that leases nothing bound one first: new ports
        return self

    def stop(self) -> int | None:
        """A clean shutdown (SIGTERM); the data stays for a start()."""
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
            return 0
        p, self._proc = self._proc, None
        if p is None:
            return None
        if p.poll() is None:
            p.send_signal(signal.SIGCONT)  # a paused broker must run to stop
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                raise RuntimeError("broker did not stop on SIGTERM:\n" + self.log_tail())
        return p.returncode

    def kill(self) -> None:
        """kill -9 (a subprocess broker)."""
        if self.in_process:
            raise RuntimeError("a broker in this process cannot be killed; use stop()")
        p, self._proc = self._proc, None
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()

    def pause(self) -> None:
        """It accepts nothing and answers nothing until resume(): SIGSTOP of a subprocess broker (the
        whole process stops), the control API's pause of one in this process (its listener reads and
        answers nothing). ``faults.pause()`` is the control API's on either."""
        if self._thread is not None:
            self.faults.pause()
            return
        if self._proc is None:
            raise RuntimeError("the broker is not running")
        self._proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self._thread is not None:
            self.faults.resume()
        elif self._proc is not None:
            self._proc.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop (kill if it does not stop), release the ports it leased and delete the data dir it made."""
        try:
            self.stop()
        finally:
            if not self.in_process:
                self.kill()
            self._ports.release()
            if self._own_dir and self.data_dir is not None:
                shutil.rmtree(self.data_dir, ignore_errors=True)
                self.data_dir = None

    def trace(self, api: str | None = None) -> list[dict]:
        """The request trace so far, one dict per line (a broker started with ``trace``), those of
        ``api`` (Produce, Fetch, ...) if given."""
        if self.trace_path is None:
            raise RuntimeError("no trace: start the broker with trace=PATH (@pytest.mark.odradek(trace=True))")
        lines = [json.loads(x) for x in self.trace_path.read_text().splitlines() if x]
        return [x for x in lines if api is None or x["api"] == api]

    def log_tail(self, n: int = 50) -> str:
        return "".join(list(self.output)[-n:])

    # ------------------------------------------------------------ starting

    def _start_once(self) -> None:
        t0 = time.monotonic()
        if self.in_process:
            from odradek.config import BrokerConfig

            props = dict(self.properties, **{"listeners": f"PLAINTEXT://{self.host}:{self.port}",
                                             "log.dirs": self.data_dir})
            self._thread = _ThreadBroker(BrokerConfig.from_properties(props))
            self._thread.start()
        else:
            self.output.clear()  # (a restart: the earlier run's ready line is not this one's)
            self._proc = _spawn(self._command(), self.output)
            _wait_ready(self._proc, self.output, "odradek ready", READY_TIMEOUT_S)
        self.startup_s = time.monotonic() - t0

    def _command(self) -> list[str]:
        cmd = [sys.executable, "-m", "odradek", "serve", "--port", str(self.port), "--host", self.host,
               "--data-dir", self.data_dir]
        props = dict(self.properties)
        if self.http_port is not None:
            props["odradek.http.port"] = str(self.http_port)
        for k, v in props.items():
            cmd += ["--override", f"{k}={v}"]
        return cmd

    def _transport(self, method: str, path: str, body: object) -> tuple[int, dict]:
        if not self.control:
            raise RuntimeError("this broker has no control API (Broker(control=True) enables it)")
        if self._thread is not None:
            return self._thread.control(method, path, body)
        if self.http_port is None:
            raise RuntimeError("this broker is not running")
        return http_transport(self.control_url)(method, path, body)

    def _add_local_rule(self, fields: dict) -> int:
        if self._thread is None:
            raise RuntimeError("this broker is not running")
        return self._thread.add_rule(fields)


def _spawn(cmd: list[str], output: deque) -> subprocess.Popen:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=serve_env(),
                            start_new_session=True)

    def pump():
        for line in proc.stdout:
            output.append(line)

    threading.Thread(target=pump, daemon=True).start()
    return proc


def _wait_ready(proc: subprocess.Popen, output: deque, marker: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not any(marker in line for line in list(output)):
        if proc.poll() is not None:
            time.sleep(0.05)  # the last lines
            raise RuntimeError("broker failed to start:\n" + "".join(list(output)[-50:]))
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise RuntimeError(f"broker not ready in {timeout_s} s:\n" + "".join(list(output)[-50:]))
        time.sleep(0.02)


class _ThreadBroker:
    """A BrokerServer on its own event loop, on a thread of this process."""

    def __init__(self, config) -> None:
        self.config = config
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="odradek-broker", daemon=True)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(READY_TIMEOUT_S):
            raise RuntimeError(f"broker not ready in {READY_TIMEOUT_S} s")
        if self._error is not None:
            self._thread.join(STOP_TIMEOUT_S)
            raise RuntimeError(f"broker failed to start: {self._error}") from self._error

    def _run(self) -> None:
        from odradek.broker.server import BrokerServer

        self.loop = asyncio.new_event_loop()
        try:
            self.server = BrokerServer(self.config)
            self.loop.run_until_complete(self._main())
        finally:
            self.loop.close()

    async def _main(self) -> None:
        try:
            await self.server.start()
        except BaseException as e:  # noqa: BLE001 - reported to the starting thread
            self._error = e
            self._ready.set()
            await self.server.close() if self.server.broker is not None else None
            return
        self._ready.set()
        await self.server.wait_stopped()
        await self.server.close()
        rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in rest:  # the connections' tasks, cancelled by close()
            t.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    def stop(self) -> None:
        if self.loop is not None and self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.server.stop)
            self._thread.join(STOP_TIMEOUT_S)

    def control(self, method: str, path: str, body: object) -> tuple[int, dict]:
        """The control API, run on the broker's loop (its faults and clock are the loop's)."""
        raw = b"" if body is None else json.dumps(body).encode()

        async def call():
            return control_api.handle(method, path, raw, self.server.faults, self.server.clock, self.server.control)
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(30)

    def add_rule(self, fields: dict) -> int:
        """A fault with a callable rewrite, added on the broker's loop (its id)."""
        rule = parse(fields, in_process=True)

        async def call():
            return self.server.faults.add(rule)
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(30)
