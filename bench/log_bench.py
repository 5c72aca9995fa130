"""Log engine benchmark (not run by CI).

Append throughput of PartitionLog for 1 KiB and 16 KiB batches against raw
os.write of the same bytes, and fetch throughput (PartitionLog.read slices sent
with os.sendfile) against raw os.sendfile of the same file; same directory, same
run. Prints a table and writes bench/results/log_bench.json.

    python bench/log_bench.py [--mb 256] [--dir /tmp]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from odradek.log import LogConfig, PartitionLog, RealFileSystem  # noqa: E402
from odradek.wire.records import build_batch  # noqa: E402


def make_batch(size: int) -> bytes:
    n = max(1, size // 512)
    value = b"x" * (size // n - 20)
    return build_batch([(b"key", value, (), 1)] * n)


def bench_append(d: str, batch: bytes, total: int, validate: bool) -> float:
    cfg = LogConfig(segment_bytes=256 * 1024 * 1024)
    log = PartitionLog(RealFileSystem(), os.path.join(d, f"append-{len(batch)}-{validate}-0"), cfg)
    n = total // len(batch)
    t = time.perf_counter()
    for _ in range(n):
        log.append(batch, now_ms=1, validate=validate)
    dt = time.perf_counter() - t
    log.close()
    return n * len(batch) / dt


def bench_raw_write(d: str, batch: bytes, total: int) -> float:
    fd = os.open(os.path.join(d, f"raw-{len(batch)}.bin"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    n = total // len(batch)
    t = time.perf_counter()
    for _ in range(n):
        os.write(fd, batch)
    dt = time.perf_counter() - t
    os.close(fd)
    return n * len(batch) / dt


def bench_read(d: str, batch: bytes, fetch_bytes: int) -> tuple[float, float]:
    log = PartitionLog(RealFileSystem(), os.path.join(d, f"append-{len(batch)}-True-0"),
                       LogConfig(segment_bytes=256 * 1024 * 1024))
    log.high_watermark = log.log_end_offset
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        # warm the page cache equally for both
        off, sent = 0, 0
        t = time.perf_counter()
        while off < log.log_end_offset:
            fs = log.read(off, fetch_bytes)
            for s in fs.slices:
                sent += os.sendfile(null, s.file.fileno(), s.position, s.length)
            off = fs.next_offset if fs.slices else log.log_end_offset
        log_rate = sent / (time.perf_counter() - t)
        path = log.segments[0].path
        fd = os.open(path, os.O_RDONLY)
        size = os.fstat(fd).st_size
        pos = 0
        t = time.perf_counter()
        while pos < size:
            pos += os.sendfile(null, fd, pos, min(fetch_bytes, size - pos))
        raw_rate = size / (time.perf_counter() - t)
        os.close(fd)
    finally:
        os.close(null)
        log.close()
    return log_rate, raw_rate


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=128, help="MiB appended per run")
    ap.add_argument("--dir", default=None, help="directory on the disk to test")
    ap.add_argument("--fetch-bytes", type=int, default=1024 * 1024)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case; the median is kept")
    args = ap.parse_args(argv)
    d = tempfile.mkdtemp(prefix="odradek-bench-", dir=args.dir)
    total = args.mb * 1024 * 1024
    rows = []
    try:
        for size in (1024, 16 * 1024):
            b = make_batch(size)
            raws, apps, apps_nv = [], [], []
            for rep in range(args.repeat):  # interleaved, each from a synced page cache
                os.sync()
                raws.append(bench_raw_write(d, b, total))
                os.sync()
                shutil.rmtree(os.path.join(d, f"append-{len(b)}-True-0"), ignore_errors=True)
                apps.append(bench_append(d, b, total, validate=True))
                os.sync()
                shutil.rmtree(os.path.join(d, f"append-{len(b)}-False-0"), ignore_errors=True)
                apps_nv.append(bench_append(d, b, total, validate=False))
            raw, app, app_nv = (sorted(x)[len(x) // 2] for x in (raws, apps, apps_nv))
            os.sync()
            rd, raw_rd = bench_read(d, b, args.fetch_bytes)
            rows.append(dict(batch_bytes=len(b), raw_write_mib_s=raw / 2**20,
                             append_mib_s=app / 2**20, append_ratio=app / raw,
                             append_prevalidated_mib_s=app_nv / 2**20,
                             append_prevalidated_ratio=app_nv / raw,
                             append_batches_s=app / len(b),
                             raw_sendfile_mib_s=raw_rd / 2**20, read_sendfile_mib_s=rd / 2**20,
                             read_ratio=rd / raw_rd))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    hdr = (f"{'batch':>7} {'raw write':>10} {'append':>10} {'ratio':>6} {'append*':>10} {'ratio*':>6} "
           f"{'raw sendfile':>12} {'log read':>10} {'ratio':>6}")
    print(hdr)
    for r in rows:
        print(f"{r['batch_bytes']:>7} {r['raw_write_mib_s']:>10.0f} {r['append_mib_s']:>10.0f} "
              f"{r['append_ratio']:>6.2f} {r['append_prevalidated_mib_s']:>10.0f} "
              f"{r['append_prevalidated_ratio']:>6.2f} {r['raw_sendfile_mib_s']:>12.0f} "
              f"{r['read_sendfile_mib_s']:>10.0f} {r['read_ratio']:>6.2f}")
    print("MiB/s, median of --repeat runs; append* = append(validate=False), the produce handler "
          "having validated the CRC already")
    out = dict(host=platform.node(), python=sys.version.split()[0], mib_per_run=args.mb,
               repeat=args.repeat,
               fetch_bytes=args.fetch_bytes, time=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               rows=rows)
    res_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    os.makedirs(res_dir, exist_ok=True)
    with open(os.path.join(res_dir, "log_bench.json"), "w") as f:
        json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
