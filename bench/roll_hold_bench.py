"""Segments of many partitions rolling in one produce (issue 27, lock18 item 3): a topic's partitions
written within segment.ms of each other all roll at the first append past it. How long odradek's
event loop is held in one piece, how long another client's ApiVersions waits meanwhile, and the
produce's own answer time:

    python -m bench.roll_hold_bench [--partitions 50] [--mib 4] [--brokers odradek,kafka] [--before DIR]

One broker (odradek serve on bench/loop_meter.py's metered loop; Apache Kafka 4.3: its pings only),
its data in a temporary directory (on this machine's disk), a topic of `partitions` partitions with
segment.ms 60000; each partition gets `mib` MiB in 512 KiB batches (left to the page cache, not
flushed), then one Produce (acks=1) of a small batch to every partition with a timestamp 70 s ahead:
every active segment is past segment.ms and rolls in that request. A pinger (a process of its own)
sends an ApiVersions every 50 ms from before that Produce until the rolls are logged. `--before DIR`
also runs odradek from another tree (alternated with this one). Numbers to stdout as JSON; no assertion.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.kafka_ref import KafkaBroker
from bench.limits_bench import Conn, Pinger, create
from bench.loop_hold_bench import MeteredOdradek, _call, _m, _sub

from odradek.wire.records import build_batch

TOPIC = "roll-hold"
SEGMENT_MS = 60000
# a roll in each broker's log: odradek's PartitionLog line, Kafka's LocalLog one
MARKS = {"odradek": ("stdout.log", "rolled new log segment"), "kafka": ("server.log", "Rolled new log segment")}


def _rolls(log_file: Path, mark: str) -> int:
    if not log_file.exists():
        return 0
    with open(log_file, errors="replace") as f:
        return sum(mark in line for line in f)


def _produce(c: Conn, partitions: int, value: bytes, ts: int) -> float:
    """One Produce (acks=1) of a batch of one record to every partition: its answer time (s)."""
    PT, PP = _sub("ProduceRequest", "TopicProduceData"), _sub("ProduceRequest", "PartitionProduceData")
    batch = build_batch([(None, value, None, ts)])
    t = time.monotonic()
    r = c.call(_m("ProduceRequest")(acks=1, timeout_ms=120000, topic_data=[
        PT(name=TOPIC, partition_data=[PP(index=p, records=batch) for p in range(partitions)])]), 9)
    took = time.monotonic() - t
    codes = {p.error_code for t_ in r.responses for p in t_.partition_responses}
    if codes != {0}:
        raise RuntimeError(f"produce answered {codes}")
    return took


def run(d: Path, kind: str, partitions: int, mib: int, repo: str | None) -> dict:
    metered = kind != "kafka"
    if metered:
        b = MeteredOdradek(str(d / kind))
        if repo is not None:
            b.repo = Path(repo)
    else:
        b = KafkaBroker(str(d / "kafka"))
    b.start()
    try:
        create(b.bootstrap, [TOPIC], partitions)
        AR, AC = _sub("AlterConfigsRequest", "AlterConfigsResource"), _sub("AlterConfigsRequest", "AlterableConfig")
        _call(b, _m("AlterConfigsRequest")(resources=[AR(resource_type=2, resource_name=TOPIC, configs=[
            AC(name="segment.ms", value=str(SEGMENT_MS))])], validate_only=False), 2)
        c = Conn(b.bootstrap, timeout=600)
        now = int(time.time() * 1000)
        chunk = os.urandom(512 << 10)
        for _ in range(2 * mib):
            for attempt in range(60):  # (a new partition's leader may not be ready yet)
                try:
                    _produce(c, partitions, chunk, now)
                    break
                except RuntimeError:
                    time.sleep(1)
        name, mark = MARKS["odradek" if metered else "kafka"]
        rolls_before = _rolls(b.dir / name, mark)
        pinger = Pinger(b.bootstrap, every=0.05)
        pinger.start()
        if metered:
            b.meter()  # (from here)
        load = os.getloadavg()[0]
        time.sleep(0.3)
        answered = _produce(c, partitions, b"x" * 100, int(time.time() * 1000) + SEGMENT_MS + 10000)
        deadline = time.monotonic() + 120
        while _rolls(b.dir / name, mark) - rolls_before < partitions and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.3)
        meter = b.meter() if metered else {}
        pings = pinger.finish()
        c.close()
        return {"broker": kind, "partitions": partitions, "mib_each": mib,
                "rolls": _rolls(b.dir / name, mark) - rolls_before, "produce_answer_ms": round(answered * 1000, 1),
                "loop_max_ms": meter.get("max_ms"), "loop_top_ms": meter.get("top_ms"),
                "turns_over_10ms": meter.get("over_10ms"),
                **{f"ping_{k}": v for k, v in pings.items()}, "load_1m": round(max(load, os.getloadavg()[0]), 1)}
    finally:
        b.stop()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.roll_hold_bench")
    ap.add_argument("--partitions", type=int, default=50)
    ap.add_argument("--mib", type=int, default=4)
    ap.add_argument("--brokers", default="odradek,kafka")
    ap.add_argument("--before", default=None, metavar="DIR", help="also odradek from this tree, as 'before'")
    a = ap.parse_args(argv)
    kinds = a.brokers.split(",")
    if a.before:
        kinds = ["before"] + kinds
    for kind in kinds:
        with tempfile.TemporaryDirectory(prefix="roll-hold-") as d:
            print(json.dumps(run(Path(d), kind, a.partitions, a.mib, a.before if kind == "before" else None)),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
