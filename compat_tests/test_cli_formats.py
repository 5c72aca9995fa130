"""`--format json|yaml` of the listing commands: the same facts as the tables, as data."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time

import pytest
import yaml

from harness import REPO, BrokerProcess


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    b = BrokerProcess(str(tmp_path_factory.mktemp("formats")), {"group.initial.rebalance.delay.ms": "0"})
    b.start()
    try:
        yield b
    finally:
        b.stop()


def odradek(*argv: str, stdin: str | None = None) -> str:
    r = subprocess.run([sys.executable, "-m", "odradek", *argv], input=stdin, capture_output=True, text=True,
                       timeout=120, cwd=str(REPO))
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_topics_groups_and_status_as_data(broker):
    b = ["-b", broker.bootstrap]
    odradek("topics", "create", "formatted", "--partitions", "2", *b)
    odradek("produce", "formatted", "--partition", "1", *b, stdin="x\ny\nz\n")
    odradek("consume", "formatted", "--from-beginning", "--group", "fmt-group", "--max-messages", "2", *b)
    assert "formatted" in json.loads(odradek("topics", "list", "--format", "json", *b))
    [topic] = yaml.safe_load(odradek("topics", "describe", "formatted", "--format", "yaml", *b))
    assert topic["topic"] == "formatted" and [p["partition"] for p in topic["partitions"]] == [0, 1]
    assert topic["partitions"][1]["isr"] == [1]
    groups = json.loads(odradek("groups", "list", "--format", "json", *b))
    assert {"group": "fmt-group", "state": "Empty", "protocol_type": ""} in groups  # commits only, as Kafka
    rows = json.loads(odradek("groups", "describe", "fmt-group", "--format", "json", *b))
    row = next(r for r in rows if r["partition"] == 1)
    assert (row["current_offset"], row["log_end_offset"], row["lag"], row["consumer_id"]) == (2, 3, 1, None)
    status = json.loads(odradek("status", "--format", "json", *b))
    assert status["ready"] is True and status["brokers"][0]["port"] == broker.port


def on_terminal(argv: list[str], *, stdout_tty: bool, stderr_tty: bool, stdin_path=None) -> tuple[str, str, str]:
    """Run ``odradek argv`` with stdout and/or stderr on a pseudo-terminal (160 columns), the others
    piped: (what the terminal showed, stdout if piped, stderr if piped)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        proc = subprocess.Popen([sys.executable, "-m", "odradek", *argv], stdin=stdin,
                                stdout=slave if stdout_tty else subprocess.PIPE,
                                stderr=slave if stderr_tty else subprocess.PIPE, env=env, cwd=str(REPO))
    finally:
        os.close(slave)
        if stdin_path:
            stdin.close()
    shown = bytearray()

    def read_terminal():
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the process closed the terminal
                return
            if not chunk:
                return
            shown.extend(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    out, err = proc.communicate(timeout=120)
    reader.join(30)
    os.close(master)
    assert proc.returncode == 0, (bytes(shown), err)
    return shown.decode("utf-8", "replace"), (out or b"").decode(), (err or b"").decode()


def test_progress_bars_on_a_terminal_only(broker, tmp_path):
    """produce from a file and consume N records draw a progress bar with rates on a terminal's
    stderr; piped, stderr has only the usual lines and stdout only the records."""
    b = ["-b", broker.bootstrap]
    odradek("topics", "create", "progressed", *b)
    lines = tmp_path / "records.txt"
    lines.write_text("".join(f"record-{i}\n" for i in range(3000)))
    shown, out, _ = on_terminal(["produce", "progressed", *b], stdout_tty=False, stderr_tty=True,
                                stdin_path=lines)
    assert "produce progressed" in shown and "3,000 records" in shown and "records/s" in shown, shown
    _, out, err = on_terminal(["produce", "progressed", *b], stdout_tty=False, stderr_tty=False,
                              stdin_path=lines)
    assert (out, err) == ("", "")
    shown, out, _ = on_terminal(["consume", "progressed", "--from-beginning", "--max-messages", "2500", *b],
                                stdout_tty=False, stderr_tty=True)
    assert out.splitlines() == [f"record-{i}" for i in range(2500)]
    assert "consume progressed" in shown and "2500/2500" in shown and "records/s" in shown, shown
    assert "Processed a total of 2500 messages" in shown
    _, out, err = on_terminal(["consume", "progressed", "--from-beginning", "--max-messages", "2500", *b],
                              stdout_tty=False, stderr_tty=False)
    assert len(out.splitlines()) == 2500 and err == "Processed a total of 2500 messages\n"


def test_rich_tables_on_a_terminal(broker):
    b = ["-b", broker.bootstrap]
    odradek("topics", "create", "tabled", "--partitions", "2", *b)
    shown, _, _ = on_terminal(["topics", "describe", "tabled", *b], stdout_tty=True, stderr_tty=True)
    assert "Topic: tabled" in shown and "─" in shown and "\x1b[" in shown  # rich's rule and styles
    rows = [ln.split() for ln in shown.splitlines() if ln.split()[:1] in (["0"], ["1"])]
    assert [r[0] for r in rows] == ["0", "1"] and all(r[1] == "1" and r[-1] == "1" for r in rows), shown
    piped = odradek("topics", "describe", "tabled", *b)
    assert "─" not in piped and "\x1b[" not in piped
    assert piped.splitlines()[1].split() == ["PARTITION", "LEADER", "EPOCH", "REPLICAS", "ISR"]


def test_bash_completion_completes_commands_and_choices(tmp_path):
    script = tmp_path / "odradek.bash"
    script.write_text(odradek("completion", "bash"))
    probe = (f"source {script}\n"
             "COMP_WORDS=(odradek gro); COMP_CWORD=1; _shtab_odradek; echo \"${COMPREPLY[*]}\"\n"
             "COMP_WORDS=(odradek topics describe --format ''); COMP_CWORD=4; _shtab_odradek; "
             "echo \"${COMPREPLY[*]}\"\n")
    r = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert r.stdout.splitlines() == ["groups", "table json yaml"], r.stderr


def test_a_consumer_protocol_group_is_described(broker):
    """A KIP-848 group (group.protocol=consumer): described by ConsumerGroupDescribe, as Kafka's
    Admin does, with its member and assignment (DescribeGroups does not describe it)."""
    from confluent_kafka import Consumer

    b = ["-b", broker.bootstrap]
    odradek("topics", "create", "kip848", "--partitions", "2", *b)
    odradek("produce", "kip848", "--partition", "0", *b, stdin="a\nb\n")
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "g848", "group.protocol": "consumer",
                  "auto.offset.reset": "earliest", "client.id": "c848", "enable.auto.commit": False})
    c.subscribe(["kip848"])
    try:
        got = 0
        deadline = time.monotonic() + 60
        while got < 2:
            assert time.monotonic() < deadline, "no records in 60 s"
            m = c.poll(0.5)
            got += m is not None and m.error() is None
        c.commit(asynchronous=False)
        while True:  # both partitions reconciled to the member
            [state] = json.loads(odradek("groups", "describe", "g848", "--state", "--format", "json", *b))
            if state["state"] == "Stable":
                break
            assert time.monotonic() < deadline, state
            c.poll(0.2)
        assert state["members"] == 1 and state["assignment_strategy"] == "uniform"
        rows = json.loads(odradek("groups", "describe", "g848", "--format", "json", *b))
        assert sorted(r["partition"] for r in rows) == [0, 1]
        assert all(r["client_id"] == "c848" and r["consumer_id"] for r in rows)
        row0 = next(r for r in rows if r["partition"] == 0)
        assert (row0["current_offset"], row0["log_end_offset"], row0["lag"]) == (2, 2, 0)
    finally:
        c.close()
