"""Letting go of removed segments (issue 27): how long the broker's event loop is held when
file.delete.delay.ms has passed for many removed segments at once (not run by CI).

    python bench/retired_close_bench.py [--logs 30] [--segment-mib 64] [--rounds 2] [--dir /tmp]

`logs` partition logs in `dir` (a real disk: the close of a removed file's last descriptor frees
its extents there; a tmpfs costs little), each with one full segment of `segment-mib` MiB,
fsynced (an old segment is clean), then a retention pass removes every full segment
(file.delete.delay.ms=0). Two ways of letting go of them, alternated `rounds` times:

- loop: LogManager.release_deleted on the calling thread, closing every descriptor there (what the
  broker's tick did on its event loop before issue 27's change);
- worker: LogManager.take_released on the calling thread (the loop: the files detached, nothing
  closed), then let_go in another thread (the closes).

Prints JSON (the calling thread's time, the worker's time, per round) and a table. Kafka has no
counterpart to measure: its kafka-scheduler thread deletes a segment's files (`delete-file`), no
request thread waits for it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import threading
import time

from odradek.log import LogConfig, LogManager
from odradek.wire.records import build_batch

MIB = 1 << 20


def one_round(root: str, mode: str, logs: int, segment_mib: int) -> dict:
    cfg = LogConfig(segment_bytes=segment_mib * MIB, retention_bytes=1024, file_delete_delay_ms=0)
    lm = LogManager(root, default_config=cfg, now_ms=0)
    batch = build_batch([(None, b"x" * (MIB - 1024), (), 1)])
    for i in range(logs):
        log = lm.get_or_create("ret", i, cfg, now_ms=0)
        while len(log.segments) < 2:
            log.append(batch, now_ms=1)
        log.flush()
        log.high_watermark = log.log_end_offset
    removed = lm.apply_retention(10)
    t = time.perf_counter()
    if mode == "loop":
        lm.remove_dirs(lm.release_deleted(11))
        caller_ms, worker_ms = (time.perf_counter() - t) * 1000, 0.0
    else:
        released = lm.take_released(11)
        caller_ms = (time.perf_counter() - t) * 1000
        took: list[float] = []

        def let_go() -> None:
            w = time.perf_counter()
            lm.let_go(released)
            took.append((time.perf_counter() - w) * 1000)

        worker = threading.Thread(target=let_go)
        worker.start()
        worker.join()
        worker_ms = took[0]
    lm.close()
    return {"mode": mode, "segments_removed": removed, "caller_ms": round(caller_ms, 1),
            "worker_ms": round(worker_ms, 1), "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=int, default=30)
    ap.add_argument("--segment-mib", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--dir", default="/tmp")
    args = ap.parse_args()
    results = []
    for r in range(args.rounds):
        for mode in ("loop", "worker") if r % 2 == 0 else ("worker", "loop"):
            root = tempfile.mkdtemp(prefix="retired-close-", dir=args.dir)
            try:
                results.append(one_round(root, mode, args.logs, args.segment_mib))
            finally:
                shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({"logs": args.logs, "segment_mib": args.segment_mib, "dir": args.dir, "rounds": results},
                     indent=1))
    print(f"\n{'mode':<7} {'removed':>7} {'caller (loop) ms':>17} {'worker ms':>10} {'load':>5}")
    for x in results:
        print(f"{x['mode']:<7} {x['segments_removed']:>7} {x['caller_ms']:>17.1f} {x['worker_ms']:>10.1f} "
              f"{x['load']:>5}")


if __name__ == "__main__":
    main()
