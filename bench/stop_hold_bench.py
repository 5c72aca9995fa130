"""A clean stop's hold on the event loop (issue 27): how long the loop of a stopping broker goes
without a turn while its logs close (not run by CI).

    python bench/stop_hold_bench.py [--logs 200] [--dirty-kib 1024] [--dir /tmp]

A BrokerServer in this process (data in a new directory under `dir`: a real disk makes each log's
closing fsyncs cost what they do in production), `logs` partition logs each holding `dirty-kib` KiB
appended and not yet flushed (a log's close fsyncs it, writes its producer snapshot and checkpoint).
A ticker on the loop notes every turn it gets (a timer every 1 ms) while BrokerServer.close runs:
the longest gap between two is what a combined node's metadata quorum, served by the same loop,
could not answer for. Measures the tree on PYTHONPATH (run it on two trees to compare). Prints
JSON. Kafka has no counterpart: its raft IO thread is its own, whatever LogManager.shutdown does.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import tempfile
import time

from odradek.broker.server import BrokerServer
from odradek.config import BrokerConfig
from odradek.wire.records import build_batch


async def run(d: str, logs: int, dirty_kib: int) -> dict:
    server = BrokerServer(BrokerConfig.from_properties({
        "listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": d, "offsets.topic.num.partitions": "1"}))
    await server.start()
    lm = server.broker.log_manager
    batch = build_batch([(None, b"x" * 1000, (), 1)] * 64)  # ~64 KiB
    for i in range(logs):
        log = lm.get_or_create("stop", i, lm.default_config, now_ms=1)
        for _ in range(max(1, dirty_kib // 64)):
            log.append(batch, now_ms=1)
    gaps: list[float] = []
    last = time.perf_counter()
    closing = True

    def tick() -> None:
        nonlocal last
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
        if closing:
            asyncio.get_running_loop().call_later(0.001, tick)

    server.stop()
    asyncio.get_running_loop().call_soon(tick)
    t = time.perf_counter()
    await server.close()
    wall = time.perf_counter() - t
    closing = False
    gaps.append(time.perf_counter() - last)  # (to the close's end: a close that never yields is one gap)
    return {"logs": logs, "dirty_kib": dirty_kib, "close_s": round(wall, 3), "ticks": len(gaps),
            "loop_max_gap_ms": round(max(gaps) * 1000, 1), "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=int, default=200)
    ap.add_argument("--dirty-kib", type=int, default=1024)
    ap.add_argument("--dir", default="/tmp")
    args = ap.parse_args()
    d = tempfile.mkdtemp(prefix="stop-hold-", dir=args.dir)
    try:
        print(json.dumps(asyncio.run(run(d, args.logs, args.dirty_kib))))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
