"""Start-up of a test broker (odradek.testing, issue 24) against a testcontainers-style Kafka: the time
from "start" to a broker a client can use, and its RSS once ready.

    python -m bench.testing_bench [--reps 5]

odradek: odradek.testing.Broker (an `odradek serve` subprocess, as the pytest fixture starts it;
ready = its ready line) and Broker(in_process=True) (a thread of this process, after the first start
imported the broker). Kafka 4.3: one KRaft combined node from bench/kafka_ref.py, `kafka-storage
format` plus the JVM's start to its first Metadata answer (what a testcontainers Kafka does inside
its container, without the container's own start).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def odradek_subprocess(reps: int) -> tuple[list[float], list[int]]:
    from odradek.testing import Broker

    times, rss = [], []
    for _ in range(reps):
        t0 = time.monotonic()
        with Broker() as b:
            times.append(time.monotonic() - t0)
            rss.append(_rss_kb(b._proc.pid))
    return times, rss


def odradek_in_process(reps: int) -> list[float]:
    from odradek.testing import Broker

    with Broker(in_process=True):  # the first start imports the broker
        pass
    times = []
    for _ in range(reps):
        t0 = time.monotonic()
        with Broker(in_process=True):
            times.append(time.monotonic() - t0)
    return times


def kafka(reps: int) -> tuple[list[float], list[int]]:
    from bench.kafka_ref import KafkaBroker

    times, rss = [], []
    for _ in range(reps):
        with tempfile.TemporaryDirectory(prefix="kafka-bench-") as d:
            b = KafkaBroker(d)
            try:
                start = b.start()
                times.append(b.format_s + start)
                rss.append(b.rss_kb())
            finally:
                b.stop()
    return times, rss


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--kafka-reps", type=int, default=3)
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    sub_t, sub_rss = odradek_subprocess(args.reps)
    thr_t = odradek_in_process(args.reps)
    k_t, k_rss = kafka(args.kafka_reps)
    med = statistics.median
    print(f"load average at start {load:.1f}")
    print("| broker | median start to ready (s) | min-max | RSS when ready (MB) |")
    print("|---|---|---|---|")
    print(f"| odradek.testing.Broker (subprocess) | {med(sub_t):.2f} | {min(sub_t):.2f}-{max(sub_t):.2f} "
          f"| {med(sub_rss) / 1024:.0f} |")
    print(f"| odradek.testing.Broker(in_process=True) | {med(thr_t):.3f} | {min(thr_t):.3f}-{max(thr_t):.3f} | "
          f"(in the test process) |")
    print(f"| Apache Kafka 4.3 (format + start) | {med(k_t):.2f} | {min(k_t):.2f}-{max(k_t):.2f} "
          f"| {med(k_rss) / 1024:.0f} |")
    print(f"ratio odradek subprocess / Kafka: time {med(sub_t) / med(k_t):.2f}x, RSS {med(sub_rss) / med(k_rss):.2f}x; "
          f"in-process / Kafka: time {med(thr_t) / med(k_t):.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
