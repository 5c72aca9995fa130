"""Log cleaner benchmark (not run by CI): peak memory and time of compacting a log.

Builds a compacted log whose dirty section holds --keys distinct keys (each written
--versions times, --batch records per batch, segments of --segment-mb MiB, all
closed), then in a fresh child process opens it and runs LogCleaner.clean, reporting
the child's peak RSS growth over the opened log (ru_maxrss after minus RSS before),
the tracemalloc peak (a second child, tracemalloc slows it) and the wall time. When
the dedupe buffer cannot hold every key, passes are repeated until the whole dirty
section is cleaned (the figures cover all of them). Prints a table and writes
bench/results/cleaner_bench.json.

    python bench/cleaner_bench.py [--keys 1000000] [--versions 1] [--dedupe-buffer-size N]
                                  [--segment-mb 16] [--dir DIR] [--no-trace]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from odradek.log import LogConfig, PartitionLog, RealFileSystem  # noqa: E402
from odradek.log import compaction  # noqa: E402
from odradek.wire.records import build_batch  # noqa: E402


def log_config(segment_mb: int) -> LogConfig:
    return LogConfig(cleanup_policy=("compact",), segment_bytes=segment_mb << 20)


def build(path: str, keys: int, versions: int, batch: int, segment_mb: int) -> dict:
    log = PartitionLog(RealFileSystem(), path, log_config(segment_mb), now_ms=0)
    t = time.perf_counter()
    n = 0
    for v in range(versions):
        value = b"value-%04d-" % v + b"x" * 8
        for start in range(0, keys, batch):
            recs = [(b"key-%010d" % k, value, (), 1000 + n) for k in range(start, min(keys, start + batch))]
            log.append(build_batch(recs), now_ms=1000 + n)
            n += len(recs)
    log.roll(1000 + n)
    log.high_watermark = log.log_end_offset
    info = {"records": n, "bytes": log.size_in_bytes, "segments": len(log.segments),
            "build_s": round(time.perf_counter() - t, 2)}
    log.close()
    return info


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def child(path: str, segment_mb: int, buffer: int | None, trace: bool) -> None:
    """One pass; prints a JSON line."""
    log = PartitionLog(RealFileSystem(), path, log_config(segment_mb), now_ms=0)
    log.high_watermark = log.log_end_offset
    cfg_cls = getattr(compaction, "CleanerConfig", None)
    if cfg_cls is not None and buffer is not None:
        cleaner = compaction.LogCleaner(cfg_cls(dedupe_buffer_size=buffer))
    else:
        cleaner = compaction.LogCleaner()
    before = rss_kib()
    if trace:
        import tracemalloc
        tracemalloc.start()
    t = time.perf_counter()
    res = cleaner.clean(log, now_ms=10**12, force=True)
    passes, removed = 1, res.records_removed if res else 0
    first_end = res.end_offset if res else None
    while res is not None and getattr(res, "map_full", False):  # a full map: the next passes go on
        res = cleaner.clean(log, now_ms=10**12, force=True)
        passes += 1
        removed += res.records_removed
    dt = time.perf_counter() - t
    out = {"clean_s": round(dt, 2), "passes": passes, "rss_before_mib": round(before / 1024, 1),
           "peak_rss_growth_mib": round((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024, 1),
           "first_pass_end": first_end, "end_offset": res.end_offset if res else None,
           "leo": log.log_end_offset, "removed": removed}
    if trace:
        import tracemalloc
        out["tracemalloc_peak_mib"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
    print(json.dumps(out))
    log.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", type=int, default=1_000_000)
    ap.add_argument("--versions", type=int, default=1)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--segment-mb", type=int, default=16)
    ap.add_argument("--dedupe-buffer-size", type=int, default=None,
                    help="bytes (default: the cleaner's default, Kafka's 134217728)")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--no-trace", action="store_true", help="skip the tracemalloc run")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child[0], int(a.child[1]), a.dedupe_buffer_size, a.trace)
        return
    root = tempfile.mkdtemp(prefix="cleaner-bench-", dir=a.dir)
    try:
        path = os.path.join(root, "t-0")
        info = build(path, a.keys, a.versions, a.batch, a.segment_mb)
        runs = {}
        for trace in ([False] if a.no_trace else [False, True]):
            work = os.path.join(root, f"t-{int(trace) + 1}")
            shutil.copytree(path, work)
            cmd = [sys.executable, os.path.abspath(__file__), "--child", work, str(a.segment_mb)]
            if a.dedupe_buffer_size is not None:
                cmd += ["--dedupe-buffer-size", str(a.dedupe_buffer_size)]
            if trace:
                cmd.append("--trace")
            got = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
            runs["traced" if trace else "plain"] = json.loads(got)
            shutil.rmtree(work)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result = {"keys": a.keys, "versions": a.versions, "batch": a.batch, "segment_mb": a.segment_mb,
              "dedupe_buffer_size": a.dedupe_buffer_size, "log": info, "runs": runs,
              "python": platform.python_version(), "machine": platform.machine()}
    print(f"{a.keys} keys x {a.versions}: {info['records']} records, {info['bytes'] / 2**20:.1f} MiB, "
          f"{info['segments']} segments")
    for name, r in runs.items():
        print(f"  {name:7s} " + "  ".join(f"{k}={v}" for k, v in r.items()))
    out_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "cleaner_bench.json"), "w") as f:
        json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
