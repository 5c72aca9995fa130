"""`odradek produce` and `consume` on a cluster whose partitions are led by two brokers:
each partition's requests go to its leader, as Kafka's clients route them (through one
bootstrap broker, half the partitions answered UNKNOWN_TOPIC_OR_PARTITION before).
1 controller + 2 brokers, real `odradek serve` processes on free ports."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from harness import REPO, free_port

from odradek.cli_cluster import node_properties, serve_command
from odradek.cli_partitioner import partition_for_key


def odradek(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "odradek", *argv], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=str(REPO))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    data = str(tmp_path_factory.mktemp("cli-cluster"))
    cport, b1, b2 = free_port(), free_port(), free_port()
    voters = f"1@127.0.0.1:{cport}"
    nodes = [node_properties(1, "controller", voters, data, None, cport),
             node_properties(2, "broker", voters, data, b1, None),
             node_properties(3, "broker", voters, data, b2, None)]
    extra = ["group.initial.rebalance.delay.ms=0", "offsets.topic.num.partitions=2"]
    procs = [subprocess.Popen(serve_command(n, extra), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              cwd=str(REPO)) for n in nodes]
    try:
        # both brokers registered: a 2-partition topic gets one leader on each. A probe created while
        # only one broker was registered keeps both leaders there, so each try uses a new name
        deadline = time.monotonic() + 60
        for attempt in range(10_000):
            probe = f"probe-{attempt}"
            r = odradek("topics", "create", probe, "--partitions", "2", "-b", f"127.0.0.1:{b1}")
            if r.returncode == 0:
                d = odradek("topics", "describe", probe, "-b", f"127.0.0.1:{b1}").stdout
                if "\n0          2" in d and "\n1          3" in d or "\n0          3" in d and "\n1          2" in d:
                    break
            assert time.monotonic() < deadline, r.stderr
            time.sleep(0.2)
        yield f"127.0.0.1:{b1}"
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def test_produce_and_consume_through_the_leaders(cluster):
    assert odradek("topics", "create", "routed", "--partitions", "6", "-b", cluster).returncode == 0
    leaders = {line.split()[0]: line.split()[1] for line in
               odradek("topics", "describe", "routed", "-b", cluster).stdout.splitlines()[2:]}
    assert set(leaders.values()) == {"2", "3"}, leaders
    keys = [f"key-{i}" for i in range(600)]
    r = odradek("produce", "routed", "--key-separator", ":", "-b", cluster,
                stdin="".join(f"{k}:{i}\n" for i, k in enumerate(keys)))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = odradek("consume", "routed", "--from-beginning", "--max-messages", "600", "--timeout-ms", "60000",
                "--print-key", "-b", cluster)
    assert r.returncode == 0, r.stderr
    got = dict(line.split("\t") for line in r.stdout.splitlines())
    assert got == {k: str(i) for i, k in enumerate(keys)}
    # and each record sits in the key's partition: read partition by partition with a stock client
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": cluster, "group.id": "routed-check", "enable.auto.commit": False})
    try:
        c.assign([TopicPartition("routed", p, 0) for p in range(6)])
        where = {}
        while len(where) < len(keys):
            m = c.poll(10)
            assert m is not None and m.error() is None, (len(where), m and m.error())
            where[m.key().decode()] = m.partition()
    finally:
        c.close()
    assert where == {k: partition_for_key(k.encode(), 6) for k in keys}
