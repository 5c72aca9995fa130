"""A broker taking thousands of leaderships at once (issue 27 fairness + cluster correctness): how long
its event loop is held in one piece, how long another client's ApiVersions waits on it, and whether it
keeps its broker session (a broker whose heartbeats stop for broker.session.timeout.ms is fenced by the
controller, and its leaderships move away). Apache Kafka 4.3 in the same run (its pings only).

    python -m bench leaders [--brokers odradek,kafka] [--partitions 5000] [--rounds 2] [--json FILE]

1 controller + 2 brokers a, b (`odradek cluster`'s layout, compat_tests/cluster.py; Kafka's defaults for
the session, 9 s, and heartbeats, 2 s; leader rebalancing off). One topic of `partitions` partitions with
replicas [a, b]: a leads them all ("create": one CreateTopics of them, measured on a, the batch of 5,001
records applied a part at a time on each node). Each round moves every leadership to the other broker:

  elect     AlterPartitionReassignments to [b, a] (one record a partition, the ISR holds both: done at
            once), then ElectLeaders PREFERRED for all: b takes every leadership, a follows every one
  shutdown  SIGTERM of the leader (its controlled shutdown moves every leadership to the other), then
            its restart (it follows every partition again)

odradek's brokers run on bench/loop_meter.py's metered loop: the largest turn in CPU time of the
loop's thread of the broker taking the leaderships (max_ms, gc_max_ms: the longest collection). A
pinger (bench/limits_bench.Pinger, a process of its own) sends an ApiVersions every 50 ms to that
broker (--py-spy: its busy periods of 200 ms or more, wall clock, and their stacks). "fenced": the brokers
the controller fenced during the move (its "Fencing broker" lines), of those that do not shut down.
Numbers to stdout as a markdown table (--json FILE: also as JSON); no assertion.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "compat_tests"))

from bench import loop_meter  # noqa: E402
from bench.limits_bench import Pinger  # noqa: E402
from bench.loop_blocks import LoopBlocks  # noqa: E402
from bench.rows import emit, loadavg  # noqa: E402
from odradek.broker.wire_client import WireClient  # noqa: E402
from odradek.wire.messages.alter_partition_reassignments_request import (  # noqa: E402
    AlterPartitionReassignmentsRequest, ReassignablePartition, ReassignableTopic)
from odradek.wire.messages.create_topics_request import (  # noqa: E402
    CreatableReplicaAssignment, CreatableTopic, CreateTopicsRequest)
from odradek.wire.messages.elect_leaders_request import ElectLeadersRequest  # noqa: E402
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic  # noqa: E402

TOPIC = "leaders"
SETTINGS = {"auto.leader.rebalance.enable": "false", "offsets.topic.num.partitions": "3",
            "transaction.state.log.num.partitions": "3", "group.initial.rebalance.delay.ms": "0"}


def _client(node, timeout: float = 300) -> WireClient:
    return WireClient("127.0.0.1", node.port, timeout=timeout)


def leaders(node, partitions: int) -> dict[int, tuple[int, tuple]] | None:
    """partition -> (leader, ISR) as the broker's Metadata says; None when the topic is not (fully) there."""
    try:
        with _client(node, 30) as c:
            r = c.send(MetadataRequest(topics=[MetadataRequestTopic(name=TOPIC)]), max_version=12)
    except Exception:  # noqa: BLE001 - a broker restarting
        return None
    t = r.topics[0] if r.topics else None
    if t is None or t.error_code != 0 or len(t.partitions) != partitions:
        return None
    return {p.partition_index: (p.leader_id, tuple(sorted(p.isr_nodes))) for p in t.partitions}


def wait_leader(brokers, partitions: int, leader: int, isr: tuple | None = None, timeout: float = 600) -> float:
    """Seconds until every live broker's Metadata names ``leader`` for every partition (and ``isr``)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if all((ls := leaders(b, partitions)) is not None
               and {x[0] for x in ls.values()} == {leader} and (isr is None or {x[1] for x in ls.values()} == {isr})
               for b in brokers):
            return time.monotonic() - t0
        time.sleep(0.2)
    from collections import Counter
    raise RuntimeError(f"leadership of {TOPIC} not all at {leader} (ISR {isr}) after {timeout} s: "
                       f"{[Counter((leaders(b, partitions) or {}).values()) for b in brokers]}")


class Meter:
    """The metered loop of one odradek node (bench/loop_meter.py)."""

    def __init__(self, node, path: str):
        self.node, self.path = node, path

    def read(self) -> dict:
        return loop_meter.read(self.node.proc.pid, self.path)


def start(kind: str, root: Path):
    from cluster import launch, kafka_nodes, odradek_nodes, Cluster

    if kind == "kafka":
        return launch(Cluster("kafka", kafka_nodes(root, 1, 2, dict(SETTINGS), {})))
    nodes = odradek_nodes(root, 1, 2, dict(SETTINGS), {})
    for n in nodes:
        if n.is_broker:  # the same serve on the metered loop
            n.command[n.command.index("odradek")] = "bench.loop_meter"
            n.env = dict(n.env, ODRADEK_LOOP_METER=str(root / f"meter-{n.id}.json"))
    return launch(Cluster("odradek", nodes))


def run(kind: str, partitions: int, rounds: int, scenarios: list[str], py_spy: bool = False) -> list[dict]:
    root = Path(tempfile.mkdtemp(prefix=f"leaders-{kind}-"))
    cluster = start(kind, root)
    rows = []
    controller = next(n for n in cluster.nodes.values() if not n.is_broker)

    def measured(rnd: int, scenario: str, taker, kept: set[int], action) -> None:
        """One row: ``action()`` (-> seconds until the move is seen) measured on ``taker``; the fences of
        the brokers ``kept`` (the one that shuts down is fenced at its end, as Kafka's controller fences it)."""
        meter = Meter(taker, str(root / f"meter-{taker.id}.json")) if kind == "odradek" else None
        if meter is not None:
            meter.read()  # (counting from here)
        fenced_before = len(controller.lines)
        pinger = Pinger(f"127.0.0.1:{taker.port}", every=0.05)
        pinger.start()
        load0 = loadavg()
        spy = LoopBlocks(taker.proc.pid, min_ms=200) if py_spy and kind == "odradek" else None
        if spy is not None:
            spy.__enter__()
        t0 = time.monotonic()
        moved = action()
        elapsed = time.monotonic() - t0
        loop = meter.read() if meter is not None else {}
        pings = pinger.finish()
        if spy is not None:
            spy.__exit__(None, None, None)
            print(f"broker {taker.id}, {scenario}:\n{spy.report()}", file=sys.stderr, flush=True)
        fenced = [who for line in controller.lines[fenced_before:] if "Fencing broker" in line
                  if int(who := line.split("Fencing broker ")[1].split()[0]) in kept]
        row = {"broker": kind, "round": rnd, "scenario": scenario, "partitions": partitions,
               "moved_s": round(moved, 1), "elapsed_s": round(elapsed, 1),
               "loop_max_ms": loop.get("max_ms"), "loop_top_ms": loop.get("top_ms"),
               "gc_max_ms": loop.get("gc_max_ms"), "over_10ms": loop.get("over_10ms"),
               "ping_p99_ms": pings.get("p99_ms"), "ping_max_ms": pings.get("max_ms"),
               "fenced": ",".join(fenced) or "-", "load_before": load0, "load_after": loadavg()}
        print(json.dumps(row), file=sys.stderr, flush=True)
        rows.append(row)

    try:
        a, b = sorted(n.id for n in cluster.brokers)

        def create() -> float:
            with _client(cluster.node(a)) as c:
                r = c.send(CreateTopicsRequest(timeout_ms=600000, topics=[CreatableTopic(
                    name=TOPIC, num_partitions=-1, replication_factor=-1, assignments=[
                        CreatableReplicaAssignment(partition_index=p, broker_ids=[a, b])
                        for p in range(partitions)])]), max_version=7)
            assert r.topics[0].error_code == 0, r.topics[0]
            return wait_leader(cluster.brokers, partitions, a, (a, b))

        measured(0, "create", cluster.node(a), {a, b}, create)
        leader, other = a, b
        for rnd in range(rounds):
            for scenario in scenarios:
                taker = cluster.node(other)

                def elect() -> float:
                    with _client(cluster.node(leader)) as c:
                        r = c.send(AlterPartitionReassignmentsRequest(timeout_ms=600000, topics=[ReassignableTopic(
                            name=TOPIC, partitions=[ReassignablePartition(partition_index=p, replicas=[other, leader])
                                                    for p in range(partitions)])]), max_version=0)
                        assert r.error_code == 0, r
                        c.send(ElectLeadersRequest(election_type=0, timeout_ms=600000, topic_partitions=None),
                               max_version=2)
                    return wait_leader([taker, cluster.node(leader)], partitions, other)

                def shutdown() -> float:
                    cluster.node(leader).stop(600)
                    return wait_leader([taker], partitions, other)

                measured(rnd, scenario, taker, {taker.id} | ({leader} if scenario == "elect" else set()),
                         elect if scenario == "elect" else shutdown)
                if scenario == "shutdown":
                    cluster.start(leader)
                wait_leader(cluster.brokers, partitions, other, tuple(sorted((a, b))))  # (all in the ISR again)
                leader, other = other, leader
    finally:
        cluster.close()
        shutil.rmtree(root, ignore_errors=True)
    return rows


COLS = ["broker", "round", "scenario", "partitions", "moved_s", "loop_max_ms", "gc_max_ms", "over_10ms",
        "ping_p99_ms", "ping_max_ms", "fenced", "load_before", "load_after"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench leaders")
    ap.add_argument("--brokers", default="odradek,kafka")
    ap.add_argument("--partitions", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--scenarios", default="elect,shutdown")
    ap.add_argument("--json")
    ap.add_argument("--py-spy", action="store_true", help="sample the broker taking the leaderships (bench/loop_blocks.py)")
    args = ap.parse_args(argv)
    rows = []
    for kind in args.brokers.split(","):
        rows += run(kind, args.partitions, args.rounds, args.scenarios.split(","), args.py_spy)
    emit(rows, COLS, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
