"""Log engine benchmark (not run by CI).

Append throughput of PartitionLog for 1 KiB and 16 KiB batches against raw
os.write of the same bytes, and fetch throughput (PartitionLog.read slices sent
with os.sendfile) against raw os.sendfile of the same file; same directory, same
run. Prints a table and writes bench/results/log_bench.json.

    python bench/log_bench.py [--rounds 40] [--round-mb 8] [--mb 128] [--read-reps 9] [--dir /tmp]
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
from statistics import median

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from odradek.log import LogConfig, PartitionLog, RealFileSystem, batchio  # noqa: E402
from odradek.wire.records import build_batch  # noqa: E402


def make_batch(size: int) -> bytes:
    n = max(1, size // 512)
    value = b"x" * (size // n - 20)
    return build_batch([(b"key", value, (), 1)] * n)


def bench_append(d: str, batch: bytes, n: int, validate: bool) -> float:
    """Bytes/s of n PartitionLog.append calls into a fresh log (closed and removed untimed)."""
    path = os.path.join(d, f"append-{len(batch)}-{validate}-0")
    log = PartitionLog(RealFileSystem(), path, LogConfig(segment_bytes=1024 * 1024 * 1024))
    t = time.perf_counter()
    for _ in range(n):
        log.append(batch, now_ms=1, validate=validate)
    dt = time.perf_counter() - t
    log.close()
    shutil.rmtree(path)
    return n * len(batch) / dt


def bench_raw_write(d: str, batch: bytes, n: int) -> float:
    """Bytes/s of n os.write calls of the same bytes into a fresh file."""
    path = os.path.join(d, f"raw-{len(batch)}.bin")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    t = time.perf_counter()
    for _ in range(n):
        os.write(fd, batch)
    dt = time.perf_counter() - t
    os.close(fd)
    os.unlink(path)
    return n * len(batch) / dt


def bench_read(d: str, batch: bytes, fetch_bytes: int, reps: int) -> tuple[float, float, float]:
    """Median bytes/s of reading the whole log (PartitionLog.read slices sent with
    os.sendfile to /dev/null) and of raw os.sendfile of its segment file, over reps
    back-to-back pairs, and the median of the per-pair ratios."""
    log = PartitionLog(RealFileSystem(), os.path.join(d, f"append-{len(batch)}-True-0"),
                       LogConfig(segment_bytes=256 * 1024 * 1024))
    log.high_watermark = log.log_end_offset
    null = os.open(os.devnull, os.O_WRONLY)
    fd = os.open(log.segments[0].path, os.O_RDONLY)
    size = os.fstat(fd).st_size

    def via_log() -> float:
        off, sent = 0, 0
        t = time.perf_counter()
        while off < log.log_end_offset:
            fs = log.read(off, fetch_bytes)
            for s in fs.slices:
                sent += os.sendfile(null, s.file.fileno(), s.position, s.length)
            off = fs.next_offset if fs.slices else log.log_end_offset
        return sent / (time.perf_counter() - t)

    def raw() -> float:
        pos = 0
        t = time.perf_counter()
        while pos < size:
            pos += os.sendfile(null, fd, pos, min(fetch_bytes, size - pos))
        return size / (time.perf_counter() - t)

    try:
        via_log(), raw()  # warm the page cache equally for both
        logs, raws = [], []
        for _ in range(reps):
            logs.append(via_log())
            raws.append(raw())
    finally:
        os.close(fd)
        os.close(null)
        log.close()
    return median(logs), median(raws), median(a / b for a, b in zip(logs, raws))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=128, help="MiB in the log the read test reads")
    ap.add_argument("--round-mb", type=int, default=8, help="MiB appended per append round")
    ap.add_argument("--rounds", type=int, default=40, help="append rounds; medians are reported")
    ap.add_argument("--dir", default=None, help="directory on the disk to test")
    ap.add_argument("--fetch-bytes", type=int, default=1024 * 1024)
    ap.add_argument("--read-reps", type=int, default=9, help="read passes over the log; medians are reported")
    args = ap.parse_args(argv)
    d = tempfile.mkdtemp(prefix="odradek-bench-", dir=args.dir)
    total = args.mb * 1024 * 1024
    rows = []
    try:
        for size in (1024, 16 * 1024):
            b = make_batch(size)
            n = max(1, args.round_mb * 1024 * 1024 // len(b))
            raws, apps, apps_nv = [], [], []
            os.sync()
            # Many short rounds, raw and log back to back in each, so that the noise of
            # a shared machine hits both alike; the page cache absorbs the writes (each
            # round's file is removed, its dirty pages with it).
            for _ in range(args.rounds):
                raws.append(bench_raw_write(d, b, n))
                apps.append(bench_append(d, b, n, validate=True))
                apps_nv.append(bench_append(d, b, n, validate=False))
            ratio = [a / r for a, r in zip(apps, raws)]
            ratio_nv = [a / r for a, r in zip(apps_nv, raws)]
            # a fresh log of --mb for the read test
            rlog = PartitionLog(RealFileSystem(), os.path.join(d, f"append-{len(b)}-True-0"),
                                LogConfig(segment_bytes=1024 * 1024 * 1024))
            for _ in range(max(1, total // len(b))):
                rlog.append(b, now_ms=1)
            rlog.close()
            os.sync()
            rd, raw_rd, rd_ratio = bench_read(d, b, args.fetch_bytes, args.read_reps)
            shutil.rmtree(os.path.join(d, f"append-{len(b)}-True-0"))
            rows.append(dict(batch_bytes=len(b), raw_write_mib_s=median(raws) / 2**20,
                             append_mib_s=median(apps) / 2**20, append_ratio=median(ratio),
                             append_ratio_min_max=[min(ratio), max(ratio)],
                             append_prevalidated_mib_s=median(apps_nv) / 2**20,
                             append_prevalidated_ratio=median(ratio_nv),
                             append_batches_s=median(apps) / len(b),
                             raw_sendfile_mib_s=raw_rd / 2**20, read_sendfile_mib_s=rd / 2**20,
                             read_ratio=rd_ratio))
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
    print(f"MiB/s, medians of {args.rounds} rounds of {args.round_mb} MiB; ratio = median of the "
          "per-round append/raw ratios; append* = append(validate=False), CRC not re-checked; "
          f"reads: medians of {args.read_reps} passes over {args.mb} MiB; "
          f"C accelerator {'used' if batchio.ACCELERATED else 'NOT built (pure Python)'}")
    out = dict(host=platform.node(), python=sys.version.split()[0], mib_per_run=args.mb,
               rounds=args.rounds, round_mb=args.round_mb, read_reps=args.read_reps, accelerated=batchio.ACCELERATED,
               fetch_bytes=args.fetch_bytes, time=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               rows=rows)
    res_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    os.makedirs(res_dir, exist_ok=True)
    with open(os.path.join(res_dir, "log_bench.json"), "w") as f:
        json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
