"""Every `odradek` command answers an everyday mistake with one line on stderr and a
non-zero exit code, never a traceback (unless --debug): no broker on the port, a
bootstrap without a port or with an unknown host, bad arguments, broker error codes
(by Kafka's error names) and a broker going away while `consume` runs. `produce`
auto-creates a missing topic where the broker allows it, as Kafka's producers do.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from harness import REPO, create_topic, free_port


def odradek(*argv: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "odradek", *argv], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=str(REPO))


def assert_one_line(r: subprocess.CompletedProcess, needle: str, code: int | None = None) -> None:
    lines = r.stderr.splitlines()
    assert "Traceback" not in r.stderr and len(lines) == 1, r.stderr
    assert needle in lines[0], lines[0]
    assert r.returncode != 0 if code is None else r.returncode == code, (r.returncode, r.stderr)


def _commands(bootstrap: str) -> list[list[str]]:
    b = ["-b", bootstrap]
    return [["topics", "list", *b], ["topics", "create", "t", *b], ["topics", "describe", *b],
            ["topics", "delete", "t", *b], ["topics", "alter-config", "t", "--set", "retention.ms=1", *b],
            ["produce", "t", *b], ["consume", "t", *b], ["groups", "list", *b], ["groups", "describe", "g", *b],
            ["groups", "delete", "g", *b], ["groups", "reset-offsets", "g", "--all-topics", "--to-earliest", *b]]


COMMAND_IDS = [" ".join(c[:2]) for c in _commands("x:1")]


@pytest.mark.parametrize("argv", _commands("127.0.0.1:{port}"), ids=COMMAND_IDS)
def test_no_broker_on_the_port(argv):
    port = free_port()  # nothing listens there
    r = odradek(*[a.format(port=port) for a in argv], stdin="x\n")
    assert_one_line(r, f"Connection to 127.0.0.1:{port} could not be established (connection refused). "
                       "Broker may not be available.", 1)


@pytest.mark.parametrize("argv", _commands("127.0.0.1"), ids=COMMAND_IDS)
def test_bootstrap_without_a_port_in_kafkas_words(argv):
    assert_one_line(odradek(*argv, stdin="x\n"), "Invalid url in bootstrap.servers: 127.0.0.1", 2)


@pytest.mark.parametrize("argv", [c for c in _commands("no-such-host.invalid:9092")
                                  if c[:2] in (["topics", "list"], ["produce", "t"], ["consume", "t"],
                                               ["groups", "list"])], ids=lambda c: " ".join(c[:2]))
def test_unknown_host(argv):
    r = odradek(*argv, stdin="x\n")
    assert_one_line(r, "No resolvable bootstrap urls given in bootstrap.servers", 1)
    assert "DNS resolution failed for no-such-host.invalid" in r.stderr


@pytest.mark.parametrize("argv,needle", [
    (["topics", "create", "t", "--partitions", "three"], "argument --partitions: invalid int value: 'three'"),
    (["produce"], "the following arguments are required: topic"),
    (["consume", "t", "--max-messages"], "argument --max-messages: expected one argument"),
    (["produce", "t", "--acks", "2"], "argument --acks: invalid choice: 2"),
    (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
    (["serve", "--log-level", "loud"], "argument --log-level: invalid choice: 'LOUD'"),
    (["topics", "create", "t", "--config", "retention.ms"], "expected KEY=VALUE, got 'retention.ms'"),
])
def test_argument_errors(argv, needle):
    assert_one_line(odradek(*argv), needle, 2)


def test_configuration_errors_in_kafkas_words(tmp_path):
    r = odradek("serve", "--data-dir", str(tmp_path), "--override", "num.partitions=abc")
    assert_one_line(r, "Invalid value abc for configuration num.partitions: Not a number of type INT", 2)
    r = odradek("serve", "--data-dir", str(tmp_path), "--override", "num.partitions=0")
    assert_one_line(r, "Invalid value 0 for configuration num.partitions: Value must be at least 1", 2)


def test_files_and_cluster_arguments(tmp_path):
    assert_one_line(odradek("dump-log", str(tmp_path / "none.log")), f"No such file or directory: {tmp_path}", 1)
    assert_one_line(odradek("serve", str(tmp_path / "none.properties")), "No such file or directory", 2)
    assert_one_line(odradek("cluster", "--controllers", "0"), "need at least one controller", 2)


def test_debug_shows_the_traceback():
    r = odradek("topics", "list", "-b", f"127.0.0.1:{free_port()}", "--debug")
    assert r.returncode != 0 and "Traceback" in r.stderr and "could not be established" in r.stderr


def test_serve_on_a_port_in_use(bootstrap, tmp_path):
    port = bootstrap.rsplit(":", 1)[1]
    r = odradek("serve", "--port", port, "--data-dir", str(tmp_path))
    assert_one_line(r, "address already in use")


# ------------------------------------------------------------------ with a broker


def test_broker_errors_by_kafkas_names(bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    assert_one_line(odradek("topics", "create", topic_name, "-b", bootstrap),
                    f"TOPIC_ALREADY_EXISTS: Topic '{topic_name}' already exists.", 1)
    assert_one_line(odradek("topics", "create", "bad topic!", "-b", bootstrap),
                    "INVALID_TOPIC_EXCEPTION: Topic name is invalid", 1)
    assert_one_line(odradek("consume", "no-such-topic", "-b", bootstrap),
                    "UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.", 1)
    assert_one_line(odradek("topics", "alter-config", topic_name, "--set", "retention.ms=abc", "-b", bootstrap),
                    "INVALID_CONFIG: Invalid value abc for configuration retention.ms: Not a number of type LONG",
                    1)


def test_produce_invalid_topic_as_kafkas_producer(bootstrap):
    # Kafka's console producer: InvalidTopicException: Invalid topics: [bad topic!]
    assert_one_line(odradek("produce", "bad topic!", "-b", bootstrap, stdin="x\n"),
                    "Error when sending message to topic bad topic!: INVALID_TOPIC_EXCEPTION: "
                    "Invalid topics: [bad topic!]", 1)
    # an internal topic: the produce response's INVALID_TOPIC_EXCEPTION and Kafka's message
    assert_one_line(odradek("produce", "__consumer_offsets", "-b", bootstrap, stdin="x\n"),
                    "INVALID_TOPIC_EXCEPTION: The request attempted to perform an operation on an invalid topic.",
                    1)


def test_produce_partition_out_of_range(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, partitions=3)
    assert_one_line(odradek("produce", topic_name, "--partition", "5", "-b", bootstrap, stdin="x\n"),
                    "Invalid partition given with record: 5 is not in the range [0...3).", 1)


def test_produce_auto_creates_a_missing_topic(bootstrap, topic_name):
    r = odradek("produce", topic_name, "-b", bootstrap, stdin="a\nb\n")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = odradek("consume", topic_name, "--from-beginning", "--max-messages", "2", "--timeout-ms", "60000",
                "-b", bootstrap)
    assert (r.returncode, r.stdout.split()) == (0, ["a", "b"]), r.stderr


def test_broker_stopping_during_consume(controllable_broker, topic_name):
    b = controllable_broker
    assert odradek("produce", topic_name, "-b", b.bootstrap, stdin="first\n").returncode == 0
    p = subprocess.Popen([sys.executable, "-m", "odradek", "consume", topic_name, "--from-beginning",
                          "-b", b.bootstrap], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=str(REPO))
    try:
        assert p.stdout.readline() == "first\n"  # consuming: the next fetch is in flight
        b.stop()
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        b.start()  # the module's other tests keep their broker
    r = subprocess.CompletedProcess(p.args, p.returncode, out, err)
    assert_one_line(r, f"Connection to {b.host}:{b.port} lost after 1 messages", 1)
