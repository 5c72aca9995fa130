"""The long-lived Kafka tool JVM behind harness.kafka_tool (apache_kafka/tool_server.py): a call answers
what a JVM of the tool's own answers, a hung call is killed at its timeout, and the JVM dies with the
process that started it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

import apache_kafka
from apache_kafka.tool_server import ToolServer
from harness import KAFKA_TOOLS, REPO, create_topic


@pytest.fixture
def tools(kafka_jars):
    """This worker's tool server, its starts and replacements counted from here."""
    starts, replaced = KAFKA_TOOLS.starts, len(KAFKA_TOOLS.replaced)
    yield KAFKA_TOOLS
    assert KAFKA_TOOLS.replaced[replaced:] == [] and KAFKA_TOOLS.starts - starts <= 1


def _same(r: subprocess.CompletedProcess) -> tuple[int, str, str]:
    """A result without its log lines' times."""
    def clock(s: str) -> str:
        return re.sub(r"^\d\d:\d\d:\d\d\.\d\d\d ", "", s, flags=re.M)

    return r.returncode, clock(r.stdout), clock(r.stderr)


def test_a_call_answers_what_a_jvm_of_its_own_answers(tools, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    calls = [
        # an ERROR log line of thread [main] with the exception's stack trace, ending at TopicCommand.main
        ("topics", "--bootstrap-server", bootstrap, "--describe", "--topic", topic_name + "-none"),
        # a stack trace with a cause from the admin client's thread
        ("consumer-groups", "--bootstrap-server", bootstrap, "--describe", "--group", topic_name),
        # Exit.exit(0) inside a try that catches Throwable: what the catch prints is not output
        ("configs", "--bootstrap-server", bootstrap, "--version"),
    ]
    for call in calls:
        own = apache_kafka.run_tool(*call)
        served = tools.run(*call)
        assert _same(served) == _same(own), call
    assert "\tat org.apache.kafka.tools.TopicCommand.main(TopicCommand.java:" in tools.run(*calls[0]).stdout


def test_tools_that_leave_clients_open_keep_the_server(tools, bootstrap, topic_name):
    # kafka-transactions exits without closing its admin client; the console producer closes its
    # producer in a shutdown hook: both are closed at the end of the call
    for _ in range(2):
        assert tools.run("transactions", "--bootstrap-server", bootstrap, "list").returncode == 0
    r = tools.run("console-producer", "--bootstrap-server", bootstrap, "--topic", topic_name, stdin="a\nb\nc\n")
    assert r.returncode == 0, r.stderr
    r = tools.run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic_name, "--from-beginning",
                  "--max-messages", "3")
    assert (r.returncode, r.stdout) == (0, "a\nb\nc\n"), r.stderr
    assert "Processed a total of 3 messages" in r.stderr


def test_a_call_past_its_timeout_is_killed_and_the_next_call_gets_a_new_server(kafka_jars, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    tools = ToolServer()
    with pytest.raises(subprocess.TimeoutExpired):  # (a console consumer without a limit waits for ever)
        tools.run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic_name, timeout=5)
    r = tools.run("topics", "--bootstrap-server", bootstrap, "--list")
    assert r.returncode == 0 and topic_name in r.stdout.split()
    assert tools.starts == 2 and tools.replaced == ["console-consumer: timed out after 5 s"]
    tools.close()


def test_the_server_dies_with_its_process(kafka_jars):
    """A process that starts a server and is killed -9 leaves no JVM behind."""
    script = textwrap.dedent("""
        import sys, time
        from apache_kafka.tool_server import ToolServer
        tools = ToolServer()
        tools.run("topics", "--version")
        print(tools._server.proc.pid, flush=True)
        time.sleep(600)
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    try:
        jvm = int(parent.stdout.readline())
        os.kill(jvm, 0)  # (alive)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 30
    while _alive(jvm):
        assert time.monotonic() < deadline, f"the tool server JVM {jvm} outlived its process"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    """Whether pid runs (a zombie whose parent has gone is not running)."""
    if not os.path.isdir("/proc"):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
