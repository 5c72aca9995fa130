"""A retention pass that deletes on many partitions at once (issue 27 fairness): how long odradek's
event loop is held in one piece and how long another client's ApiVersions waits meanwhile, and the
pass's wall time:

    python -m bench.retention_hold_bench [--topics 5000] [--partitions 2] [--interval-ms 10000]
                                         [--brokers odradek,kafka] [--fetch]

One `odradek serve` (bench/loop_meter.py's metered loop; Apache Kafka 4.3: its pings only) with log.retention.check.interval.ms =
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

from bench.kafka_ref import KafkaBroker
from bench.limits_bench import Conn, Pinger, create
from bench.loop_hold_bench import MeteredOdradek, _call, _m, _sub

from odradek.wire.records import build_batch

# a partition's deletion in each broker's log: odradek's LogManager line, Kafka's UnifiedLog one
MARKS = {"odradek": ("stdout.log", "by retention", 0), "kafka": ("server.log", "due to log retention time", 1)}


def _deletions(log_file: Path, mark: str) -> list[str]:
    if not log_file.exists():
        return []
    with open(log_file, errors="replace") as f:
        return [line for line in f if mark in line]


def _at(line: str, skip: int) -> float:
    return datetime.datetime.strptime(line[skip:skip + 23], "%Y-%m-%d %H:%M:%S,%f").timestamp()


def produce_everywhere(b, todo: dict[str, list[int]]) -> None:
    """A record in each partition, again where one was refused (a new partition's leader not ready)."""
    PT, PP = _sub("ProduceRequest", "TopicProduceData"), _sub("ProduceRequest", "PartitionProduceData")
    c = Conn(b.bootstrap, timeout=600)
    try:
        for _ in range(60):
            batch = build_batch([(None, b"x" * 10, None, int(time.time() * 1000))])
            r = c.call(_m("ProduceRequest")(acks=1, timeout_ms=60000, topic_data=[
                PT(name=n, partition_data=[PP(index=p, records=batch) for p in ps]) for n, ps in todo.items()]), 9)
            todo = {}
            for t in r.responses:
                for p in t.partition_responses:
                    if p.error_code:
                        todo.setdefault(t.name, []).append(p.index)
            if not todo:
                return
            time.sleep(1)
        raise RuntimeError(f"produce refused on {sum(map(len, todo.values()))} partitions")
    finally:
        c.close()


def fetch_everything(names: list[str], partitions: int):
    """A Fetch of every partition from offset 0 (what a consumer of all of them sends), not waiting:
    the broker reads each log, under its lock in odradek, the lock the retention pass takes."""
    FTo, FP = _sub("FetchRequest", "FetchTopic"), _sub("FetchRequest", "FetchPartition")
    return _m("FetchRequest")(
        replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=50 << 20, isolation_level=0, session_id=0,
        session_epoch=-1, topics=[FTo(topic=n, partitions=[FP(partition=i, fetch_offset=0, log_start_offset=-1,
                                                               partition_max_bytes=1024) for i in range(partitions)])
                                  for n in names], forgotten_topics_data=[])


def run(d: Path, kind: str, topics: int, partitions: int, interval_ms: int, fetch: bool = False) -> dict:
    extra = {"log.retention.check.interval.ms": str(interval_ms)}
    if fetch:  # (the default file.delete.delay.ms: with the launcher's 0, a fetch's slice of a segment
        # the pass removed is closed under it at the next tick, and odradek closes the connection)
        extra["log.segment.delete.delay.ms"] = "60000"
    b = MeteredOdradek(str(d / "odradek"), extra=extra) if kind == "odradek" else KafkaBroker(str(d / "kafka"), extra=extra)
    metered = kind == "odradek"
    b.start()
    try:
        names = [f"ret-{i}" for i in range(topics)]
        for i in range(0, topics, 500):
            create(b.bootstrap, names[i:i + 500], partitions)
        produce_everywhere(b, {n: list(range(partitions)) for n in names})
        AR, AC = _sub("AlterConfigsRequest", "AlterConfigsResource"), _sub("AlterConfigsRequest", "AlterableConfig")
        _call(b, _m("AlterConfigsRequest")(resources=[
            AR(resource_type=2, resource_name=n, configs=[AC(name="retention.ms", value="1000")]) for n in names],
            validate_only=False), 2)
        pinger = Pinger(b.bootstrap, every=0.05)  # (from after the alteration: the pass only)
        pinger.start()
        fetcher = Pinger(b.bootstrap, every=0.05, request=fetch_everything(names, partitions), version=12) \
            if fetch else None
        if fetcher is not None:
            fetcher.start()
        if metered:
            b.meter()
        load = os.getloadavg()[0]
        name, mark, skip = MARKS[kind]
        log_file = b.dir / name
        want = topics * partitions
        deadline = time.monotonic() + 3 * interval_ms / 1000 + 600
        lines: list[str] = []
        while time.monotonic() < deadline:
            lines = _deletions(log_file, mark)
            if len(lines) >= want:
                break
            time.sleep(0.5)
        time.sleep(0.3)
        meter = b.meter() if metered else {}
        pings = pinger.finish()
        fetches = fetcher.finish() if fetcher is not None else {}
        load = max(load, os.getloadavg()[0])
        return {"broker": kind, "partitions": want, "deleted_logs": len(lines),
                "pass_wall_s": round(_at(lines[-1], skip) - _at(lines[0], skip), 2) if lines else None,
                "loop_max_ms": meter.get("max_ms"), "loop_top_ms": meter.get("top_ms"),
                "turns_over_10ms": meter.get("over_10ms"),
                **{f"ping_{k}": v for k, v in pings.items()},
                **{f"fetch_{k}": v for k, v in fetches.items()}, "load_1m": round(load, 1)}
    finally:
        b.stop()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.retention_hold_bench")
    ap.add_argument("--topics", type=int, default=5000)
    ap.add_argument("--partitions", type=int, default=2)
    ap.add_argument("--interval-ms", type=int, default=10000)
    ap.add_argument("--brokers", default="odradek,kafka")
    ap.add_argument("--fetch", action="store_true", help="also a Fetch of every partition every 50 ms during the "
                    "pass, from another process (its round trips: how long the reads wait for the pass)")
    a = ap.parse_args(argv)
    for kind in a.brokers.split(","):
        with tempfile.TemporaryDirectory(prefix="retention-hold-") as d:
            print(json.dumps(run(Path(d), kind, a.topics, a.partitions, a.interval_ms, a.fetch)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
