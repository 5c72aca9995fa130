"""Shared helpers of the compatibility suite: the broker process, a raw protocol client, topic helpers,
the driver of the external client check programs (kafkajs, franz-go).

Test modules import these from here (`from harness import ...`), never from conftest: every
conftest.py in a non-package folder is imported under the same module name.
"""


from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import apache_kafka
from apache_kafka.tool_server import ToolServer
from odradek.testing.ports import free_port  # noqa: F401 (the suite's free ports: leased machine-wide)

REPO = Path(__file__).resolve().parent.parent
READY_TIMEOUT_S = 120  # a start (recovery, imports) can take over 30 s at load 50


class BrokerProcess:
    """An `odradek serve` subprocess that can be stopped, restarted and killed."""

    controllable = True

    def __init__(self, data_dir: str, overrides: dict[str, str] | None = None, port: int | None = None):
        self.data_dir = data_dir
        self.overrides = dict(overrides or {})
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.proc: subprocess.Popen | None = None
        self.output: list[str] = []
        self.startup_s: float | None = None

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    def wait_output(self, text: str, timeout: float = 30) -> str:
        """The first line of the broker's output holding `text`, waited for: a line the broker has
        written reaches `output` through a reader thread, a moment later."""
        deadline = time.monotonic() + timeout
        while True:
            found = next((line for line in self.output if text in line), None)
            if found is not None:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"no line with {text!r} in the broker's output in {timeout} s:\n"
                                     + "".join(self.output[-30:]))
            time.sleep(0.05)

    def start(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            return
        cmd = [sys.executable, "-m", "odradek", "serve", "--data-dir", self.data_dir]
        if "listeners" not in self.overrides:  # (--port would replace the listeners given)
            cmd += ["--port", str(self.port)]
        for k, v in self.overrides.items():
            cmd += ["--override", f"{k}={v}"]
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        # the broker writes its .pyc files as a normal install has them, so that every later
        # start in the run skips compiling (about 0.6 s of each start otherwise)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     cwd=str(REPO))
        deadline = t0 + READY_TIMEOUT_S
        ready = threading.Event()
        proc = self.proc

        def pump():
            for line in proc.stdout:
                self.output.append(line)
                if "ready on" in line:
                    ready.set()
            ready.set()

        threading.Thread(target=pump, daemon=True).start()
        while not ready.wait(0.05):
            if time.monotonic() > deadline:
                self.kill9()
                raise RuntimeError("broker not ready in time:\n" + "".join(self.output[-50:]))
        if proc.poll() is not None or not any("ready on" in ln for ln in self.output):
            raise RuntimeError("broker failed to start:\n" + "".join(self.output[-50:]))
        self.startup_s = time.monotonic() - t0

    def stop(self, timeout: float = 20) -> int | None:
        """SIGTERM and wait: a clean shutdown."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError("broker did not stop on SIGTERM:\n" + "".join(self.output[-50:]))
        rc = self.proc.returncode
        self.proc = None
        return rc

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def rss_kb(self) -> int | None:
        if self.proc is None:
            return None
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None


class ExternalBroker:
    """A broker we do not control (--bootstrap)."""

    controllable = False
    data_dir = None

    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap
        self.host, _, port = bootstrap.rpartition(":")
        self.port = int(port)

    def _skip(self, *a, **k):
        pytest.skip("needs a broker this suite controls (not with --bootstrap)")

    start = stop = restart = kill9 = _skip


def create_topic(bootstrap: str, name: str, partitions: int = 1, configs: dict | None = None) -> None:
    """Create a topic with kafka-python's admin client and wait until it is usable."""
    from kafka.admin import KafkaAdminClient, NewTopic

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    try:
        admin.create_topics([NewTopic(name, partitions, 1, topic_configs=configs or {})])
    finally:
        admin.close()
    wait_for_topic(bootstrap, name, partitions)


def wait_for_topic(bootstrap: str, name: str, partitions: int = 1, timeout: float = 60) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    deadline = time.monotonic() + timeout
    while True:
        md = admin.list_topics(name, timeout=5)
        t = md.topics.get(name)
        if t is not None and t.error is None and len(t.partitions) == partitions and all(
                p.leader >= 0 for p in t.partitions.values()):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"topic {name} not ready: {t and t.error}")
        time.sleep(0.05)



class RawClient:
    """A bare Kafka protocol client on odradek.wire, for requests stock clients never send."""

    def __init__(self, bootstrap: str, timeout: float = 10, source_host: str | None = None):
        host, _, port = bootstrap.rpartition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout,
                                             source_address=(source_host, 0) if source_host else None)
        self.corr = 0

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, request, version: int, client_id: str | None = "compat-raw") -> int:
        from odradek.wire.api import encode_request

        self.corr += 1
        self.sock.sendall(encode_request(request, version, self.corr, client_id=client_id))
        return self.corr

    def recv_frame(self) -> bytes:
        size = int.from_bytes(self._read(4), "big", signed=True)
        return self._read(size)

    def recv(self, api_key: int, version: int):
        from odradek.wire.api import decode_response

        return decode_response(self.recv_frame(), api_key, version)

    def call(self, request, version: int):
        corr = self.send(request, version)
        resp = self.recv(type(request).API_KEY, version)
        assert resp.correlation_id == corr
        return resp.body

    def await_group_coordinator(self, group: str, timeout: float = 60) -> None:
        """FindCoordinator (v4) for ``group`` until it answers without an error (the first group
        request of a broker creates __consumer_offsets)."""
        from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest

        deadline = time.monotonic() + timeout
        while self.call(FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), 4).coordinators[0].error_code:
            assert time.monotonic() < deadline, f"no group coordinator for {group} in {timeout} s"
            time.sleep(0.05)

    def _read(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("connection closed by the broker")
            buf += chunk
        return bytes(buf)

    def is_closed_by_peer(self, timeout: float = 5) -> bool:
        """True if the broker closes the connection (EOF or reset) within timeout."""
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False

    def close(self) -> None:
        self.sock.close()


KAFKA_TOOLS = ToolServer()  # this process's (each test worker's) tool JVM, started on first use


def kafka_tool(name: str, *args: str, timeout: float = 300, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run Kafka 4.3's own CLI tool bin/kafka-NAME.sh ARGS (from Maven Central, see apache_kafka), its
    output as a JVM of its own gives it, in this process's long-lived tool JVM
    (apache_kafka.tool_server; ODRADEK_KAFKA_TOOL_SERVER=0: a JVM per call); skips the test when Java
    or Maven is missing."""
    reason = apache_kafka.missing()
    if reason:
        pytest.skip(reason)
    return KAFKA_TOOLS.run(name, *args, timeout=timeout, stdin=stdin)


CHECK_LINE = re.compile(r"(PASS|FAIL) (\S+?)(?::| \()(.*)")


def run_check_program(cmd: list[str], cwd: Path | str | None = None) -> dict[str, str]:
    """Run an external client check program that prints "PASS name" / "FAIL name: reason" per check
    -> {check name: "PASS" or its FAIL line, "_output": exit code and output tails, "_exit": exit code}."""
    return CheckProgram(cmd, cwd).results()


class CheckProgram:
    """A check program started now and read when its results are asked for (several can run at once:
    their output goes to files, so none stalls on a full pipe while another is waited for)."""

    def __init__(self, cmd: list[str], cwd: Path | str | None = None, timeout: float = 600):
        import tempfile

        self._out, self._err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
        self._deadline = time.monotonic() + timeout
        self._proc = subprocess.Popen(cmd, cwd=cwd, stdout=self._out, stderr=self._err, text=True)
        self._results: dict[str, str] | None = None

    def results(self) -> dict[str, str]:
        """{check name: "PASS" or its FAIL line, "_output": exit code and output tails, "_exit": exit code},
        once the program has ended (killed past its timeout, as subprocess.run does)."""
        if self._results is None:
            try:
                code = self._proc.wait(max(0.0, self._deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.kill()
                raise
            self._out.seek(0)
            self._err.seek(0)
            stdout, stderr = self._out.read(), self._err.read()
            self._out.close()
            self._err.close()
            results: dict[str, str] = {}
            for line in stdout.splitlines():
                m = CHECK_LINE.match(line)
                if m:
                    results[m.group(2)] = "PASS" if m.group(1) == "PASS" else line
            results["_output"] = f"exit {code}\n--- stdout\n{stdout[-8000:]}\n--- stderr\n{stderr[-4000:]}"
            results["_exit"] = str(code)
            self._results = results
        return self._results

    def kill(self) -> None:
        """Kill the program if it still runs (and wait for it)."""
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()


def assert_check_passed(results: dict[str, str], check: str) -> None:
    """One check of run_check_program's results reported PASS."""
    got = results.get(check)
    assert got is not None, f"check {check} did not report:\n" + results["_output"]
    assert got == "PASS", got + "\n" + results["_output"]


def assert_exit_code_matches(results: dict[str, str]) -> None:
    """The check program exited 1 if a check failed, else 0."""
    failing = [k for k, v in results.items() if not k.startswith("_") and v != "PASS"]
    assert results["_exit"] == ("1" if failing else "0"), results["_output"]


def read_to_end(bootstrap: str, topic: str, partitions: int = 1, isolation: str = "read_committed",
                expect: int = 0, timeout: float = 60) -> dict[int, list[str]]:
    """{partition: values} read from the start of every partition to its end as a confluent-kafka
    consumer sees it (the LSO under read_committed, the high watermark else), and at least
    ``expect`` values in all: the end may lag a commit a moment (markers are written after EndTxn
    is answered). Waits on those conditions, not on a quiet spell; fails after ``timeout`` s with
    what it read. A partition's end shows only in the answer to a fetch at the end, which the broker
    holds for fetch.wait.max.ms when nothing new comes (librdkafka's 500 ms, a wait in every call):
    100 ms here."""
    import uuid

    from confluent_kafka import Consumer, KafkaError, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reader-{uuid.uuid4().hex[:8]}",
                  "isolation.level": isolation, "enable.auto.commit": False,
                  "auto.offset.reset": "earliest", "enable.partition.eof": True, "fetch.wait.max.ms": 100})
    c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
    out: dict[int, list[str]] = {p: [] for p in range(partitions)}
    at_end: set[int] = set()
    deadline = time.monotonic() + timeout
    try:
        while len(at_end) < partitions or sum(map(len, out.values())) < expect:
            assert time.monotonic() < deadline, (f"{isolation}: read {sum(map(len, out.values()))} of {expect} "
                                                 f"values, partitions at their end {sorted(at_end)} of {partitions} "
                                                 f"in {timeout} s: {out}")
            m = c.poll(0.2)
            if m is None:
                continue
            if m.error():
                if m.error().code() == KafkaError._PARTITION_EOF:
                    at_end.add(m.partition())
                continue
            at_end.discard(m.partition())
            out[m.partition()].append(m.value().decode())
    finally:
        c.close()
    return out


def producer_errors(settings: dict, topic: str, done: Callable[[list], bool], timeout: float) -> list:
    """The errors (error_cb) a confluent-kafka producer with these settings reports while it tries to send
    one record to ``topic``: until ``done(errors)``, the record's delivery report (its message.timeout.ms)
    or ``timeout`` s, whichever comes first; then the record is purged."""
    from confluent_kafka import Producer

    seen: list = []
    p = Producer({**settings, "error_cb": seen.append})
    p.produce(topic, b"never")
    deadline = time.monotonic() + timeout
    while len(p) and not done(seen) and time.monotonic() < deadline:
        p.poll(0.1)
    p.purge()
    p.flush(1)
    return seen


def poll_values(settings: dict, topic: str, done: Callable[[list[bytes]], bool], timeout: float = 60) -> list[bytes]:
    """The values a new confluent-kafka consumer group (``settings`` plus a fresh group id, from the
    earliest offset) reads from ``topic`` until ``done(values)`` or the timeout."""
    from confluent_kafka import Consumer

    c = Consumer({**settings, "group.id": f"g-{time.monotonic_ns()}", "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    got: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while not done(got) and time.monotonic() < deadline:
            m = c.poll(1)
            if m is not None and m.error() is None:
                got.append(m.value())
    finally:
        c.close()
    return got
