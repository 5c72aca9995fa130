"""What a replica fetcher's or a produce's log calls cost the calling thread (the event loop) on this
machine's disk, per partition (issue 27, lock18 items 2 and 5):

    python -m bench.follower_state_bench [--logs 200] [--rounds 2] [--before DIR]

In process, odradek's own LogManager and PartitionLog, data in a temporary directory (this machine's
temp dir: a disk, not the tests' tmpfs). `logs` follower logs of 20 records (leader epochs 1 and 2),
flushed; then, each timed on the calling thread, log by log:
- follower log start move: maybe_increment_log_start_offset (the leader's retention or DeleteRecords);
- follower truncation past the recovery point: truncate_to of 3 unflushed records of an epoch the
  next leader does not have (the fetcher's divergence handling);
- follower first batch of a new epoch: append_as_follower;
- new leader's first append: assign_epoch at the log end (makeLeader), then append.
`--before DIR` runs the same from another tree (its odradek on PYTHONPATH) in a subprocess, alternated
with this one, `rounds` times each. JSON lines to stdout, then a table. Apache Kafka does none of
these fsyncs on its fetcher or request threads (UnifiedLog.maybeIncrementLogStartOffset and truncateTo
write in memory; the epochs' file is flushed by its scheduler), so there is no Kafka run to set
beside it in process.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = ("follower log start move", "follower truncation past the recovery point",
         "follower first batch of a new epoch", "new leader's first append")


def measure(root: str, n: int) -> dict[str, dict[str, float]]:
    """The four cases over ``n`` logs each in ``root``: per-call median, p90, max and total ms."""
    from odradek.log import LogConfig, LogManager
    from odradek.wire.records import build_batch

    cfg = LogConfig(segment_bytes=1 << 20)

    def one(i: int, base: int = 0, epoch: int = -1) -> bytes:
        return build_batch([(None, b"v%05d" % i + b"x" * 200, (), 1)], base_offset=base, partition_leader_epoch=epoch)

    def logs_of(name: str):
        d = os.path.join(root, name)
        lm = LogManager(d, default_config=cfg)
        logs = []
        for p in range(n):
            log = lm.get_or_create("t", p, topic_id=b"\x07" * 16)
            for i in range(20):
                log.append_as_follower(one(i, i, 1 if i < 10 else 2), now_ms=1)
            log.high_watermark = 20
            log.flush()
            logs.append(log)
        lm.write_pending_state()
        return lm, logs

    def timed(fn, logs) -> dict[str, float]:
        out = []
        for log in logs:
            t = time.perf_counter()
            fn(log)
            out.append((time.perf_counter() - t) * 1000)
        out.sort()
        return {"median_ms": round(out[len(out) // 2], 3), "p90_ms": round(out[int(len(out) * 0.9)], 3),
                "max_ms": round(out[-1], 3), "total_ms": round(sum(out), 1)}

    res = {}
    lm, logs = logs_of("start")
    res[CASES[0]] = timed(lambda log: log.maybe_increment_log_start_offset(12), logs)
    lm.close()
    lm, logs = logs_of("truncate")
    for log in logs:
        for i in range(20, 25):
            log.append_as_follower(one(i, i, 3), now_ms=1)
    res[CASES[1]] = timed(lambda log: log.truncate_to(22), logs)
    res[CASES[2]] = timed(lambda log: log.append_as_follower(one(99, 22, 4), now_ms=1), logs)
    lm.close()
    lm, logs = logs_of("leader")
    for log in logs:
        log.assign_epoch(5, log.log_end_offset)
    res[CASES[3]] = timed(lambda log: log.append(one(7), now_ms=1, leader_epoch=5), logs)
    lm.close()
    return res


def run(kind: str, n: int, tree: str | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="follower-state-") as d:
        if tree is None:
            res = measure(d, n)
        else:
            env = dict(os.environ, PYTHONPATH=tree)
            out = subprocess.run([sys.executable, "-c", "import json, sys; sys.path.insert(0, sys.argv[1]); "
                                  "from follower_state_bench import measure; print(json.dumps(measure(sys.argv[2], "
                                  "int(sys.argv[3]))))", str(Path(__file__).parent), d, str(n)],
                                 env=env, cwd=d, check=True, capture_output=True, text=True).stdout
            res = json.loads(out)
        shutil.rmtree(d, ignore_errors=True)
    return {"kind": kind, "logs": n, "load": round(os.getloadavg()[0], 1), "cases": res}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--before", default=None, metavar="DIR", help="also odradek from this tree, as 'before'")
    a = ap.parse_args()
    runs = []
    for _ in range(a.rounds):
        for kind in (["before"] if a.before else []) + ["after"]:
            r = run(kind, a.logs, a.before if kind == "before" else None)
            print(json.dumps(r), flush=True)
            runs.append(r)
    print(f"\n| case | run | load | median ms | p90 ms | max ms | total ms ({a.logs} logs) |\n|---|---|---|---|---|---|---|")
    for case in CASES:
        for r in runs:
            c = r["cases"][case]
            print(f"| {case} | {r['kind']} | {r['load']} | {c['median_ms']} | {c['p90_ms']} | {c['max_ms']} | {c['total_ms']} |")


if __name__ == "__main__":
    main()
