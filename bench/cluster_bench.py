"""Replication benchmark: a 3-broker odradek cluster against a 3-broker Apache Kafka 4.3 cluster,
same machine, same client (confluent-kafka), same run (issue 20, "Benchmark").

Each cluster is 3 controllers + 3 brokers in `odradek cluster`'s layout, started as real processes
by compat_tests/cluster.py (odradek: `odradek serve` per node; Kafka: bench/kafka_ref.py's nodes), with
the same settings (compat_tests/cluster.py FAST: broker.session.timeout.ms 3000, replica.lag.time.max.ms
3000, ...). Both clusters stay up for the whole run (12 processes on one machine) and the
repetitions alternate between them, so that a slow phase of a shared machine hits both.

    python -m bench cluster [--reps N] [--records N] [--failovers N] [--only odradek|kafka] [--out DIR]

Measurements (topic RF=3, min.insync.replicas=2, 1 KiB records, acks=all)
  produce     MB/s for a fixed record count on 3 partitions (leaders spread over the brokers),
              librdkafka defaults otherwise (linger.ms 5); one untimed produce run and one untimed
              latency run per cluster first
  latency     acks=all produce latency p50/p99 at a fixed rate (default 200/s; linger.ms 0,
              1 partition), librdkafka's per-message latency (produce() -> ack); at bench e2e's
              1000/s both 3-broker clusters fell seconds behind on this 2-core machine under load
  failover    1 partition, a producer sending one record every 2 ms (acks=all, idempotent, retries);
              kill -9 of the partition's leader broker, then the seconds from the kill to the first
              acknowledged record produced after it; the killed broker is started again and the ISR
              waited full before the next repetition
The 1-minute load average is noted after every measurement (meta.loadavg_1m): on a shared 2-core
machine it says more about a number than anything else.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "compat_tests"))

from bench.e2e_bench import ack_latency, default_data_dir, pct, produce  # noqa: E402

RECORD = 1024
TOPIC_CONFIG = {"min.insync.replicas": "2"}


def start_cluster(kind: str, root: Path):
    """A started 3+3 cluster of `kind` (compat_tests/cluster.py), every broker in the metadata."""
    from cluster import FAST, start_cluster as start

    return start(kind, root, 3, 3, dict(FAST))


def failover_once(cluster, topic: str, log) -> float:
    """Seconds from kill -9 of the topic's partition-0 leader to the first acknowledged record produced
    after the kill; the killed broker is restarted and the full ISR awaited before returning."""
    from confluent_kafka import Producer

    leader = cluster.partitions(topic)[0].leader
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True,
                  "linger.ms": 0, "message.timeout.ms": 120_000, "log_level": 3})
    p.list_topics(topic, timeout=10)
    acked: list[tuple[float, float]] = []  # (produced at, acked at) of successful records
    errors: list[str] = []
    stop = threading.Event()

    def cb(err, msg, sent):
        if err is None:
            acked.append((sent, time.monotonic()))
        else:
            errors.append(str(err))

    def loop():
        while not stop.is_set():
            sent = time.monotonic()
            p.produce(topic, b"x" * RECORD, partition=0, on_delivery=lambda e, m, s=sent: cb(e, m, s))
            p.poll(0.002)
        p.flush(120)

    th = threading.Thread(target=loop, daemon=True)
    th.start()
    deadline = time.monotonic() + 30
    while len(acked) < 200 and time.monotonic() < deadline:  # steady state before the kill
        time.sleep(0.05)
    t_kill = time.monotonic()
    cluster.kill9(leader)
    deadline = t_kill + 120
    first = None
    while first is None and time.monotonic() < deadline:
        first = next((a for s, a in list(acked) if s >= t_kill), None)
        time.sleep(0.01)
    stop.set()
    th.join(150)
    if first is None:
        raise RuntimeError(f"no record acknowledged within 120 s of the kill (errors {errors[:3]})")
    dt = first - t_kill
    new = cluster.partitions(topic)[0].leader
    log(f"  {cluster.kind}: killed leader {leader}, new leader {new}, first ack after {dt:.3f} s"
        f"{f', {len(errors)} errors' if errors else ''}")
    cluster.start(leader)
    cluster.wait_full_isr(topic, timeout=180)
    return dt


class Bench:
    def __init__(self, args):
        self.args = args
        self.samples: dict[str, dict[str, list[float]]] = {}
        self.loads: list[tuple[str, float]] = []
        self.kinds = [args.only] if args.only else ["odradek", "kafka"]

    def add(self, metric: str, kind: str, value: float) -> None:
        self.samples.setdefault(metric, {}).setdefault(kind, []).append(value)

    def log(self, msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    def note_load(self, what: str) -> None:
        self.loads.append((what, os.getloadavg()[0]))

    def order(self, rep: int) -> list[str]:
        """The clusters in the order of repetition `rep` (alternating, so that a slow phase of a shared
        machine hits both)."""
        return self.kinds if rep % 2 == 0 else self.kinds[::-1]

    def phases(self, clusters: dict) -> None:
        a = self.args
        for kind, cluster in clusters.items():
            cluster.create_topic("tput", 3, 3, TOPIC_CONFIG)
            cluster.create_topic("lat", 1, 3, TOPIC_CONFIG)
            cluster.create_topic("failover", 1, 3, TOPIC_CONFIG)
            # untimed warm-up (the JVMs' JIT; without it Kafka's first latency run was seconds behind)
            produce(cluster.bootstrap, "tput", RECORD, a.records, "all")
            ack_latency(cluster.bootstrap, "lat", a.rate, a.seconds)
        for rep in range(a.reps):
            for kind in self.order(rep):
                dt = produce(clusters[kind].bootstrap, "tput", RECORD, a.records, "all")
                mbps = a.records * RECORD / dt / 1e6
                self.add("produce_1KiB_acksall_rf3_p3_MBps", kind, mbps)
                self.log(f"  {kind}: produce {a.records} x 1 KiB acks=all: {mbps:.1f} MB/s")
                self.note_load(f"{kind} produce")
        for rep in range(a.reps):
            for kind in self.order(rep):
                r = ack_latency(clusters[kind].bootstrap, "lat", a.rate, a.seconds)
                self.add("acks_all_rf3_latency_p50_ms", kind, r["p50_ms"])
                self.add("acks_all_rf3_latency_p99_ms", kind, r["p99_ms"])
                self.log(f"  {kind}: latency at {a.rate}/s: p50 {r['p50_ms']:.2f} ms p99 {r['p99_ms']:.2f} ms")
                self.note_load(f"{kind} latency")
        for rep in range(a.failovers):
            for kind in self.order(rep):
                self.add("failover_s", kind, failover_once(clusters[kind], "failover", self.log))
                self.note_load(f"{kind} failover")

    def run(self) -> dict:
        t0 = time.monotonic()
        base = self.args.dir or default_data_dir() or tempfile.gettempdir()
        clusters = {}
        with tempfile.TemporaryDirectory(prefix="odradek-cluster-bench-", dir=base) as root:
            try:
                for kind in self.kinds:  # both stay up for the whole run, as bench e2e's brokers
                    t1 = time.monotonic()
                    clusters[kind] = start_cluster(kind, Path(root) / kind)
                    self.log(f"{kind}: cluster up in {time.monotonic() - t1:.1f} s")
                    self.note_load(f"{kind} start")
                self.phases(clusters)
            finally:
                for c in clusters.values():
                    c.close()
        meta = {"date": time.strftime("%Y-%m-%d %H:%M"), "reps": self.args.reps, "records": self.args.records,
                "failovers": self.args.failovers, "rate": self.args.rate, "cpus": os.cpu_count(),
                "python": platform.python_version(), "data_dir": base, "loadavg_1m": self.loads,
                "wall_s": round(time.monotonic() - t0, 1)}
        return {"meta": meta, "samples": self.samples}


def better_high(metric: str) -> bool:
    return metric.endswith("MBps")


def table(result: dict) -> str:
    rows = ["| metric | odradek median [min-max] | Kafka median [min-max] | odradek/Kafka | target |",
            "|---|---|---|---|---|"]
    for metric, by in result["samples"].items():
        def cell(kind):
            v = by.get(kind)
            return f"{statistics.median(v):.3g} [{min(v):.3g}-{max(v):.3g}]" if v else "-"
        ratio = "-"
        if by.get("odradek") and by.get("kafka"):
            ratio = f"{statistics.median(by['odradek']) / statistics.median(by['kafka']):.2f}"
        target = ">= 1" if better_high(metric) else ("<= 1" if "latency" in metric else "")
        rows.append(f"| {metric} | {cell('odradek')} | {cell('kafka')} | {ratio} | {target} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3, help="timed produce and latency runs per cluster")
    ap.add_argument("--records", type=int, default=100_000, help="1 KiB records per produce run")
    ap.add_argument("--rate", type=int, default=200, help="records/s of the latency run")
    ap.add_argument("--seconds", type=float, default=5.0, help="length of the latency run")
    ap.add_argument("--failovers", type=int, default=3, help="kill -9 repetitions per cluster")
    ap.add_argument("--only", choices=["odradek", "kafka"])
    ap.add_argument("--dir", default=None, help="where the clusters' data dirs go (default as bench e2e)")
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args(argv)
    result = Bench(args).run()
    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, "cluster-" + time.strftime("%Y-%m-%d-%H%M%S"))
    md = table(result)
    with open(base + ".json", "w") as f:
        json.dump(result, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(f"# 3-broker cluster, RF=3, acks=all: odradek vs Apache Kafka ({result['meta']['date']})\n\n{md}\n")
    print(md)
    print(f"\nload average (1 min): {result['meta']['loadavg_1m']}")
    print(f"written: {base}.{{json,md}} ({result['meta']['wall_s']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
