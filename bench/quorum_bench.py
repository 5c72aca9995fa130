"""A 3-controller quorum committing a stream of metadata changes (issue 27): how long each node's event
loop is held in one piece while its metadata log is written (in wall-clock time: a write on the loop
waits for the disk there), how long another client's ApiVersions waits on the active controller's
CONTROLLER listener and on the broker, and how many changes a second are committed. Apache Kafka 4.3
in the same run (its pings and rate only).

    python -m bench quorum [--brokers odradek,kafka] [--layout separate|combined] [--writes 300] [--writers 4]
                           [--dir /tmp] [--json FILE]

3 controllers + 1 broker (`odradek cluster`'s layout, compat_tests/cluster.py; --layout combined: 3
nodes each broker and controller, "broker" is then a follower's broker side) with their data in
``--dir`` (a real disk: /tmp here is ext4; the tests' tmpfs has no fsync cost). ``writers`` threads
each send ``writes`` IncrementalAlterConfigs to the broker, one at a time, each setting retention.ms
of a topic of its own to a new value: one ConfigRecord committed through the quorum (and fetched by
the broker, an observer) a change.

odradek's nodes run on bench/loop_meter.py's metered loop with ODRADEK_LOOP_METER_CLOCK=wall: its
turns in wall time less the select's wait (loop_*: a loaded machine's waits for a CPU count too), and
what of them the loop's thread slept, neither running nor waiting for a CPU (blocked_*: a wait for
the disk, whatever the load). Pingers (bench/limits_bench.Pinger) send an ApiVersions every 20 ms to the active
controller and to the broker. Numbers to stdout as a markdown table (--json FILE: also as JSON); no
assertion.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "compat_tests"))

from bench import loop_meter  # noqa: E402
from bench.limits_bench import Pinger  # noqa: E402
from bench.rows import emit, loadavg  # noqa: E402
from odradek.broker.wire_client import WireClient  # noqa: E402
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest  # noqa: E402
from odradek.wire.messages.describe_quorum_request import DescribeQuorumRequest, PartitionData, TopicData  # noqa: E402
from odradek.wire.messages.incremental_alter_configs_request import (  # noqa: E402
    AlterableConfig, AlterConfigsResource, IncrementalAlterConfigsRequest)

TOPIC_RESOURCE = 2
SET = 0
SETTINGS = {"offsets.topic.num.partitions": "1", "transaction.state.log.num.partitions": "1",
            "offsets.topic.replication.factor": "1", "transaction.state.log.replication.factor": "1",
            "group.initial.rebalance.delay.ms": "0"}


def start(kind: str, root: Path, combined: bool):
    from cluster import Cluster, free_base, kafka_nodes, launch, odradek_node, odradek_nodes
    from odradek.cli_cluster import node_properties

    controllers, brokers = (0, 3) if combined else (3, 1)
    if kind == "kafka":
        return launch(Cluster("kafka", kafka_nodes(root, controllers, brokers, dict(SETTINGS), {})))
    if combined:
        base = free_base(3, 3)
        voters = ",".join(f"{i}@127.0.0.1:{base + 100 + i}" for i in (1, 2, 3))
        nodes = [odradek_node({**node_properties(i, "broker,controller", voters, str(root), base + i - 1,
                                                 base + 100 + i), **SETTINGS}) for i in (1, 2, 3)]
    else:
        nodes = odradek_nodes(root, controllers, brokers, dict(SETTINGS), {})
    for n in nodes:  # the same serve on the metered loop, in wall-clock time
        n.command[n.command.index("odradek")] = "bench.loop_meter"
        n.env = dict(n.env, ODRADEK_LOOP_METER=str(root / f"meter-{n.id}.json"), ODRADEK_LOOP_METER_CLOCK="wall")
    return launch(Cluster("odradek", nodes))


def active_controller(broker_port: int) -> int:
    """The quorum leader, as DescribeQuorum on the broker names it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with WireClient("127.0.0.1", broker_port) as c:
            r = c.send(DescribeQuorumRequest(topics=[TopicData(topic_name="__cluster_metadata",
                                                               partitions=[PartitionData(partition_index=0)])]))
        if r.error_code == 0 and r.topics and r.topics[0].partitions[0].leader_id >= 0:
            return r.topics[0].partitions[0].leader_id
        time.sleep(0.2)
    raise RuntimeError("no quorum leader")


def writer(port: int, topic: str, writes: int, errors: list) -> None:
    with WireClient("127.0.0.1", port, timeout=120) as c:
        for k in range(writes):
            r = c.send(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
                resource_type=TOPIC_RESOURCE, resource_name=topic,
                configs=[AlterableConfig(name="retention.ms", config_operation=SET, value=str(86_400_000 + k))])]),
                max_version=1)
            if r.responses[0].error_code != 0:
                errors.append(r.responses[0].error_code)


def run(kind: str, writes: int, writers: int, data_dir: str, combined: bool = False) -> list[dict]:
    root = Path(tempfile.mkdtemp(prefix=f"quorum-{kind}-", dir=data_dir))
    cluster = start(kind, root, combined)
    rows = []
    try:
        broker = cluster.brokers[0]
        topics = [f"quorum-bench-{i}" for i in range(writers)]
        with WireClient("127.0.0.1", broker.port, timeout=120) as c:
            r = c.send(CreateTopicsRequest(timeout_ms=60000, topics=[
                CreatableTopic(name=t, num_partitions=1, replication_factor=1) for t in topics]), max_version=7)
            assert all(t.error_code in (0, 36) for t in r.topics), r.topics
        leader = cluster.node(active_controller(broker.port))
        voters = [n for n in cluster.nodes.values() if n.controller_port is not None and n.id != leader.id]
        follower = voters[0]
        if combined:  # (the other follower's broker side; the leader's broker side pinged on its PLAINTEXT port)
            broker = voters[1]
        meters = {}
        if kind == "odradek":
            for role, n in (("leader", leader), ("follower", follower), ("broker", broker)):
                path = str(root / f"meter-{n.id}.json")
                loop_meter.read(n.proc.pid, path)  # (counting from here)
                meters[role] = (n, path)
        pingers = {"leader": Pinger(f"127.0.0.1:{leader.port if combined else leader.controller_port}", every=0.02),
                   "broker": Pinger(f"127.0.0.1:{broker.port}", every=0.02)}
        for p in pingers.values():
            p.start()
        load0 = loadavg()
        errors: list = []
        threads = [threading.Thread(target=writer, args=(broker.port, t, writes, errors)) for t in topics]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - t0
        pings = {role: p.finish() for role, p in pingers.items()}
        loops = {role: loop_meter.read(n.proc.pid, path) for role, (n, path) in meters.items()}
        row = {"broker": kind, "layout": "combined" if combined else "separate", "writes": writes * writers,
               "errors": len(errors), "writes_per_s": round(writes * writers / elapsed, 1), "load_before": load0,
               "load_after": loadavg()}
        for role in ("leader", "follower", "broker"):
            lp = loops.get(role, {})
            row[f"{role}_loop_max_ms"] = lp.get("max_ms")
            row[f"{role}_loop_p999_ms"] = lp.get("p999_ms")
            row[f"{role}_loop_over_10ms"] = lp.get("over_10ms")
            row[f"{role}_blocked_max_ms"] = lp.get("blocked_max_ms")
            row[f"{role}_blocked_over_2ms"] = lp.get("blocked_over_2ms")
            row[f"{role}_blocked_total_ms"] = lp.get("blocked_total_ms")
        for role, p in pings.items():
            row[f"{role}_ping_p99_ms"] = p.get("p99_ms")
            row[f"{role}_ping_max_ms"] = p.get("max_ms")
        print(json.dumps(row), file=sys.stderr, flush=True)
        rows.append(row)
    finally:
        cluster.close()
        shutil.rmtree(root, ignore_errors=True)
    return rows


COLS = ["broker", "layout", "writes", "errors", "writes_per_s",
        "leader_loop_max_ms", "leader_loop_p999_ms", "leader_loop_over_10ms",
        "leader_blocked_max_ms", "leader_blocked_over_2ms", "leader_blocked_total_ms",
        "follower_loop_max_ms", "follower_blocked_max_ms", "follower_blocked_total_ms",
        "broker_loop_max_ms", "broker_blocked_max_ms", "broker_blocked_total_ms",
        "leader_ping_p99_ms", "leader_ping_max_ms", "broker_ping_p99_ms", "broker_ping_max_ms",
        "load_before", "load_after"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench quorum")
    ap.add_argument("--brokers", default="odradek,kafka")
    ap.add_argument("--layout", choices=("separate", "combined"), default="separate")
    ap.add_argument("--writes", type=int, default=300, help="changes per writer")
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--dir", default="/tmp", help="where the nodes' data goes (a real disk)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    rows = []
    for _ in range(args.rounds):
        for kind in args.brokers.split(","):
            rows += run(kind, args.writes, args.writers, args.dir, args.layout == "combined")
    emit(rows, COLS, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
