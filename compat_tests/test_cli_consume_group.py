"""`odradek consume --group` on a broker no group has used yet: it finds the group's coordinator
first, as Kafka's consumers do (which creates __consumer_offsets), so its commit lands and the
next run resumes after it. Runs against Apache Kafka too (the CLI is the client here)."""
from __future__ import annotations

import subprocess
import sys

from harness import REPO, create_topic


def odradek(bootstrap: str, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "odradek", *argv, "--bootstrap-server", bootstrap],
                          input=stdin, capture_output=True, text=True, timeout=120, cwd=str(REPO))


def test_consume_with_a_group_commits_and_resumes(bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    assert odradek(bootstrap, "produce", topic_name, stdin="a\nb\nc\nd\n").returncode == 0
    first = odradek(bootstrap, "consume", topic_name, "--from-beginning", "--group", "cli-g", "--max-messages", "2",
                    "--timeout-ms", "60000")
    assert (first.returncode, first.stdout.split()) == (0, ["a", "b"]), first.stderr
    # the two left, waited for (not "whatever comes in 1.5 s"): a resume anywhere else shows other values
    rest = odradek(bootstrap, "consume", topic_name, "--group", "cli-g", "--max-messages", "2", "--timeout-ms", "60000")
    assert (rest.returncode, rest.stdout.split()) == (0, ["c", "d"]), rest.stderr
