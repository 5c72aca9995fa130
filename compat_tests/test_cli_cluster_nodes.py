"""`odradek cluster` keeps the other nodes running when one exits, says so with the command that starts
it again, and restarts a node by id (issue 20, item 6): the real command, 1 controller + 1 broker."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

from confluent_kafka.admin import AdminClient

from cluster import free_base, wait_for
from harness import REPO


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie (exited, not yet reaped) is not alive
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_node_killed_is_reported_the_others_keep_running_and_restart_brings_it_back(tmp_path):
    base = free_base(1, 1)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # the killed broker's new process registers once its old session has lapsed (as with Kafka): 3 s here,
    # not Kafka's 9 s (every wait below is on a condition, so a broker fenced for a late heartbeat on a
    # loaded machine is waited out too)
    session = ["--override", "broker.session.timeout.ms=3000", "--override", "broker.heartbeat.interval.ms=500"]
    proc = subprocess.Popen([sys.executable, "-m", "odradek", "cluster", "--controllers", "1", "--brokers", "1",
                             "--base-port", str(base), "--data-dir", str(tmp_path), *session], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=str(REPO))
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    pids: dict[int, int] = {}
    try:
        def table():
            for ln in lines:
                m = re.match(r"(\d+)\s+(controller|broker)\s+\S+\s+(\d+)$", ln.strip())
                if m:
                    pids[int(m.group(1))] = int(m.group(3))
            return len(pids) == 2
        wait_for(table, 30, "the node table")

        def ready_lines(node_id: int) -> int:
            with open(tmp_path / f"node-{node_id}.log") as f:
                return f.read().count("odradek ready")
        wait_for(lambda: ready_lines(1) == 1 and ready_lines(2) == 1, 120, "both nodes ready")
        admin = AdminClient({"bootstrap.servers": f"127.0.0.1:{base}"})
        wait_for(lambda: list(admin.list_topics(timeout=5).brokers) == [2], 60, "the broker registered")

        os.kill(pids[2], signal.SIGKILL)
        said = wait_for(lambda: next((ln for ln in lines if ln.startswith("node 2 exited")), None), 30,
                        "the exit reported", last=lambda: lines[-5:])
        assert said.startswith("node 2 exited with -9; the other nodes keep running (up: 1). Restart it with "
                               "`restart 2` here, or by hand: "), said
        assert "--override node.id=2 " in said and f">> {tmp_path / 'node-2.log'} 2>&1" in said
        assert proc.poll() is None and _alive(pids[1])

        proc.stdin.write("restart 2\nstatus\n")
        proc.stdin.flush()
        started = wait_for(lambda: next((ln for ln in lines if ln.startswith("node 2 started, pid ")), None), 30,
                           "the restart", last=lambda: lines[-5:])
        new_pid = int(started.split()[-1])
        assert new_pid != pids[2] and _alive(new_pid)
        wait_for(lambda: ready_lines(2) == 2, 120, "the restarted broker ready")
        wait_for(lambda: list(admin.list_topics(timeout=5).brokers) == [2], 60, "the broker back in the metadata")
        status = wait_for(lambda: [ln.strip() for ln in lines if ln.startswith(("node 1: ", "node 2: "))], 10,
                          "the status")
        assert status == [f"node 1: running, pid {pids[1]}", f"node 2: running, pid {new_pid}"]

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert lines[-1].strip() == "cluster stopped"
        assert not _alive(pids[1]) and not _alive(new_pid)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in pids.values():
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
