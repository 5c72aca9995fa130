"""odradek benchmarks (not run by CI).

    python -m bench all [--quick] [e2e options]   wire codec + odradek vs Apache Kafka end to end
    python -m bench e2e [--quick] [...]           odradek vs Apache Kafka only (bench/e2e_bench.py)
    python -m bench wire [--reps N]               wire codec vs kafka-python (bench/wire_bench.py)
    python -m bench log [--mb N]                  log engine vs raw file I/O (bench/log_bench.py)
    python -m bench cluster [--reps N] [...]      3-broker clusters, RF=3 acks=all, vs Kafka (bench/cluster_bench.py)
    python -m bench limits [--only ...]           hostile clients' cost: memory, fairness, vs Kafka (bench/limits_bench.py)
    python -m bench hold [--only ...]             the largest legal request of each API: loop held, pings, vs Kafka (bench/loop_hold_bench.py)
    python -m bench leaders [--partitions N]      a broker taking thousands of leaderships: loop held, pings, session, vs Kafka (bench/leadership_bench.py)
    python -m bench quorum [--writes N]           3 controllers committing a stream of metadata changes: loops (wall), pings, vs Kafka (bench/quorum_bench.py)
    python -m bench security [--quick] [...]      SASL_SSL (SCRAM-SHA-512) vs PLAINTEXT, vs Kafka (bench/security_bench.py)
    python -m bench requests [--before DIR] [...]  small Fetch/Metadata/Produce: requests/s, broker CPU per request, vs Kafka (bench/request_bench.py)
    python -m bench handlers [--before DIR] [...]  the same requests' handle() alone, CPU us a call (bench/handler_bench.py)

`all` writes bench/results/<date>.json (everything), <date>.md (the tables) and
<date>.png (odradek/Kafka ratios). Needs Java 17+ and Maven for the reference
broker (jars assembled once from apache_kafka/pom.xml into .cache/), and the test
extra (confluent-kafka, kafka-python) plus matplotlib. Full run (5 reps) ~10 min, --quick ~2 min.
"""
from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_all(argv: list[str]) -> int:
    from bench import e2e_bench, wire_bench

    ap = argparse.ArgumentParser(prog="python -m bench all")
    e2e_bench.add_args(ap)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    print("wire codec vs kafka-python ...", file=sys.stderr, flush=True)
    wire = wire_bench.run(3 if args.quick else 5)
    print("odradek vs Apache Kafka ...", file=sys.stderr, flush=True)
    e2e = e2e_bench.Bench(args).run()
    stem = time.strftime("%Y-%m-%d-%H%M%S")
    os.makedirs(args.out, exist_ok=True)
    md_e2e = e2e_bench.table(e2e)
    md_wire = wire_bench.table(wire)
    base = os.path.join(args.out, stem)
    with open(base + ".json", "w") as f:
        json.dump({"e2e": e2e, "wire": wire, "wall_s": round(time.monotonic() - t0, 1)}, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(f"# odradek benchmarks {e2e['meta']['date']} ({'quick, ' if args.quick else ''}"
                f"reps {e2e['meta']['reps']}, {e2e['meta']['cpus']} CPUs, data dirs in {e2e['meta']['data_dir']})\n\n"
                f"## odradek vs Apache Kafka (confluent-kafka client; *_java_* rows: Kafka's "
                f"ProducerPerformance / ConsumerPerformance)\n\n{md_e2e}\n\n"
                f"## wire codec vs kafka-python\n\n{md_wire}\n")
    e2e_bench.plot(e2e, base + ".png")
    print(md_e2e + "\n\n" + md_wire)
    print(f"\nwritten: {base}.{{json,md,png}} in {time.monotonic() - t0:.0f} s")
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "all":
        return run_all(rest)
    if cmd == "e2e":
        from bench import e2e_bench
        return e2e_bench.main(rest)
    if cmd == "cluster":
        from bench import cluster_bench
        return cluster_bench.main(rest)
    if cmd == "hold":
        from bench import loop_hold_bench
        return loop_hold_bench.main(rest)
    if cmd == "leaders":
        from bench import leadership_bench
        return leadership_bench.main(rest)
    if cmd == "quorum":
        from bench import quorum_bench
        return quorum_bench.main(rest)
    if cmd == "limits":
        from bench import limits_bench
        return limits_bench.main(rest)
    if cmd == "security":
        from bench import security_bench
        return security_bench.main(rest)
    if cmd == "handlers":
        from bench import handler_bench
        return handler_bench.main(rest)
    if cmd == "requests":
        from bench import request_bench
        return request_bench.main(rest)
    if cmd == "wire":
        from bench import wire_bench
        return wire_bench.main(rest)
    if cmd == "log":
        sys.argv = [str(HERE / "log_bench.py"), *rest]
        runpy.run_path(str(HERE / "log_bench.py"), run_name="__main__")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
