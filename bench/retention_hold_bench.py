"""A retention pass that deletes on many partitions at once (issue 27 fairness): how long odradek's
event loop is held in one piece and how long another client's ApiVersions waits meanwhile, and the
pass's wall time:

    python -m bench.retention_hold_bench [--topics 5000] [--partitions 2] [--interval-ms 10000]

One `odradek serve` (bench/loop_meter.py's metered loop) with log.retention.check.interval.ms =
interval; `topics` topics of `partitions` partitions, a record in each, then retention.ms=1000 on
every topic (AlterConfigs): the next pass deletes a segment of every partition (a roll, a checkpoint,
file deletions each). A pinger (a process of its own) sends an ApiVersions every 50 ms from after
the alteration (before the pass: log.retention.check.interval.ms) until every partition's deletion
was logged; the loop meter counts from then too. The pass's wall time is from its first
to its last "by retention" log line. Numbers to stdout as JSON; no assertion.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.limits_bench import Pinger, create
from bench.loop_hold_bench import MeteredOdradek, _call, _m, _sub

from odradek.wire.records import build_batch

MARK = "by retention"


def _deletions(log_file: Path) -> list[str]:
    with open(log_file, errors="replace") as f:
        return [line for line in f if MARK in line]


def _at(line: str) -> float:
    return datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()


def run(d: Path, topics: int, partitions: int, interval_ms: int) -> dict:
    b = MeteredOdradek(str(d / "odradek"), extra={"log.retention.check.interval.ms": str(interval_ms)})
    b.start()
    try:
        names = [f"ret-{i}" for i in range(topics)]
        for i in range(0, topics, 500):
            create(b.bootstrap, names[i:i + 500], partitions)
        batch = build_batch([(None, b"x" * 10, None, int(time.time() * 1000))])
        PT, PP = _sub("ProduceRequest", "TopicProduceData"), _sub("ProduceRequest", "PartitionProduceData")
        _call(b, _m("ProduceRequest")(acks=1, timeout_ms=60000, topic_data=[
            PT(name=n, partition_data=[PP(index=p, records=batch) for p in range(partitions)]) for n in names]), 9)
        AR, AC = _sub("AlterConfigsRequest", "AlterConfigsResource"), _sub("AlterConfigsRequest", "AlterableConfig")
        _call(b, _m("AlterConfigsRequest")(resources=[
            AR(resource_type=2, resource_name=n, configs=[AC(name="retention.ms", value="1000")]) for n in names],
            validate_only=False), 2)
        pinger = Pinger(b.bootstrap, every=0.05)  # (from after the alteration: the pass only)
        pinger.start()
        b.meter()
        load = os.getloadavg()[0]
        log_file = b.dir / "stdout.log"
        want = topics * partitions
        deadline = time.monotonic() + 3 * interval_ms / 1000 + 600
        lines: list[str] = []
        while time.monotonic() < deadline:
            lines = _deletions(log_file)
            if len(lines) >= want:
                break
            time.sleep(0.5)
        time.sleep(0.3)
        meter = b.meter()
        pings = pinger.finish()
        load = max(load, os.getloadavg()[0])
        return {"partitions": want, "deleted_logs": len(lines),
                "pass_wall_s": round(_at(lines[-1]) - _at(lines[0]), 2) if lines else None,
                "loop_max_ms": meter.get("max_ms"), "loop_top_ms": meter.get("top_ms"),
                "turns_over_10ms": meter.get("over_10ms"),
                **{f"ping_{k}": v for k, v in pings.items()}, "load_1m": round(load, 1)}
    finally:
        b.stop()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.retention_hold_bench")
    ap.add_argument("--topics", type=int, default=5000)
    ap.add_argument("--partitions", type=int, default=2)
    ap.add_argument("--interval-ms", type=int, default=10000)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="retention-hold-") as d:
        print(json.dumps(run(Path(d), a.topics, a.partitions, a.interval_ms)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
