"""What the metrics cost on the hot path (issue 23): odradek without an HTTP listener, odradek
with `odradek.http.port` (every request timed and counted, /metrics scraped every
--scrape-every seconds as Prometheus would) and Apache Kafka 4.3, same machine, same run, same
client (confluent-kafka / librdkafka), fresh data dirs on tmpfs (see e2e_bench.default_data_dir).

    python -m bench.metrics_bench [--reps N] [--quick] [--out DIR]

Every repetition runs each measurement on the three brokers back to back (the order rotates),
so a slow phase of a shared machine hits all three. Measurements:
  produce_1KiB_acks1      MB/s, 1 KiB values, acks=1, 1 partition, linger.ms 5 (batches: few requests)
  produce_100B_acksall    msgs/s, 100 B values, acks=all, linger.ms 0 (small batches: many requests,
                          the per-request counting at its most expensive)
  consume_1KiB            MB/s reading the 1 KiB topic from the beginning
  cpu_produce_s_per_GB    the broker's CPU seconds (user+sys) per GB of the 1 KiB produce
  roundtrip_us            one 100 B record at a time, acks=all, waiting for each answer: the mean
                          time per request (where per-request counting shows most)
  cpu_us_per_request      the broker's CPU per request of that sequential run
Reported: median [min-max] per broker, and the ratio with metrics / without (paired per
repetition) - 1.0 means the metrics cost nothing measurable.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.e2e_bench import consume, create_topic, default_data_dir, delete_topic, produce  # noqa: E402
from bench.kafka_ref import KafkaBroker, OdradekBroker, free_port, jars  # noqa: E402

PLAIN, METERED, KAFKA = "odradek", "odradek+metrics", "kafka"
HIGHER_IS_BETTER = ("MB_s", "msgs_s")


class Scraper:
    """GET /metrics every ``every`` seconds until stopped; counts the scrapes and their bytes."""

    def __init__(self, port: int, every: float):
        self.port, self.every = port, every
        self.scrapes = 0
        self.bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                conn.request("GET", "/metrics")
                body = conn.getresponse().read()
                self.scrapes += 1
                self.bytes += len(body)
            except OSError:
                pass
            finally:
                conn.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def one_at_a_time(bootstrap: str, topic: str, count: int) -> float:
    """Seconds for ``count`` produce requests of one 100 B record each, acks=all, each awaited."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0, "log_level": 3})
    p.list_topics(topic, timeout=10)
    value = b"s" * 100
    t0 = time.perf_counter()
    for _ in range(count):
        p.produce(topic, value)
        if p.flush(30):
            raise RuntimeError("produce: not delivered")
    return time.perf_counter() - t0


def run(args) -> dict:
    root = tempfile.mkdtemp(prefix="metrics-bench-", dir=args.dir or default_data_dir())
    http_port = free_port()
    brokers = {PLAIN: OdradekBroker(os.path.join(root, "plain")),
               METERED: OdradekBroker(os.path.join(root, "metered"), extra={"odradek.http.port": str(http_port)})}
    if not args.no_kafka:
        jars()
        brokers[KAFKA] = KafkaBroker(os.path.join(root, "kafka"))
    scale = 8 if args.quick else 1
    n_1k = 400_000 // scale
    n_100 = 200_000 // scale
    n_seq = 3000 // scale
    samples: dict[str, dict[str, list[float]]] = {}
    scraper = None
    t_start = time.monotonic()
    try:
        for b in brokers.values():
            b.start()
        scraper = Scraper(http_port, args.scrape_every)
        scraper.start()
        names = list(brokers)
        for rep in range(args.reps):
            order = names[rep % len(names):] + names[:rep % len(names)]
            for name in order:
                b = brokers[name]
                topic = f"m1k-{rep}"
                create_topic(b.bootstrap, topic, 1)
                cpu0 = b.cpu_s()
                dt = produce(b.bootstrap, topic, 1024, n_1k, "1", {"linger.ms": 5})
                cpu = b.cpu_s() - cpu0
                gb = n_1k * 1024 / 1e9
                add = samples.setdefault
                add("produce_1KiB_acks1_MB_s", {}).setdefault(name, []).append(n_1k * 1024 / 1e6 / dt)
                add("cpu_produce_s_per_GB", {}).setdefault(name, []).append(cpu / gb)
                dt = consume(b.bootstrap, topic, 1, n_1k)
                add("consume_1KiB_MB_s", {}).setdefault(name, []).append(n_1k * 1024 / 1e6 / dt)
                one = f"m1-{rep}"
                create_topic(b.bootstrap, one, 1)
                cpu0 = b.cpu_s()
                dt = one_at_a_time(b.bootstrap, one, n_seq)
                add("roundtrip_us", {}).setdefault(name, []).append(dt / n_seq * 1e6)
                add("cpu_us_per_request", {}).setdefault(name, []).append((b.cpu_s() - cpu0) / n_seq * 1e6)
                delete_topic(b.bootstrap, one)
                small = f"m100-{rep}"
                create_topic(b.bootstrap, small, 1)
                dt = produce(b.bootstrap, small, 100, n_100, "all", {"linger.ms": 0})
                add("produce_100B_acksall_msgs_s", {}).setdefault(name, []).append(n_100 / dt)
                delete_topic(b.bootstrap, topic)
                delete_topic(b.bootstrap, small)
                print(f"rep {rep + 1}/{args.reps} {name}: done", file=sys.stderr, flush=True)
    finally:
        if scraper is not None:
            scraper.stop()
        for b in brokers.values():
            b.stop()
    return summarize(samples, {"reps": args.reps, "quick": args.quick, "scrape_every_s": args.scrape_every,
                               "scrapes": scraper.scrapes if scraper else 0,
                               "scrape_bytes_last": (scraper.bytes // max(scraper.scrapes, 1)) if scraper else 0,
                               "records_1KiB": n_1k, "records_100B": n_100, "sequential_requests": n_seq,
                               "data_root": root,
                               "wall_s": round(time.monotonic() - t_start, 1)})


def summarize(samples: dict, meta: dict) -> dict:
    out = {"meta": {**meta, "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "cpus": os.cpu_count()}, "metrics": {}}
    for metric, per in samples.items():
        m = {name: {"median": statistics.median(v), "min": min(v), "max": max(v), "samples": v}
             for name, v in per.items()}
        a, b = per.get(METERED), per.get(PLAIN)
        if a and b and len(a) == len(b):
            pr = [x / y for x, y in zip(a, b) if y]
            m["metered_over_plain"] = {"median": statistics.median(pr), "min": min(pr), "max": max(pr)}
        m["higher_is_better"] = metric.endswith(HIGHER_IS_BETTER)
        out["metrics"][metric] = m
    return out


def _cell(r: dict | None) -> str:
    return f"{r['median']:,.1f} [{r['min']:,.1f}-{r['max']:,.1f}]" if r else "-"


def table(result: dict) -> str:
    lines = ["| metric | odradek | odradek + metrics | metrics / none (paired) | Kafka 4.3 |",
             "|---|---|---|---|---|"]
    for metric, m in result["metrics"].items():
        pr = m.get("metered_over_plain")
        paired = f"{pr['median']:.3f} [{pr['min']:.3f}-{pr['max']:.3f}]" if pr else "-"
        lines.append(f"| {metric} | {_cell(m.get(PLAIN))} | {_cell(m.get(METERED))} | {paired} | "
                     f"{_cell(m.get(KAFKA))} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="1/8 of the records")
    ap.add_argument("--no-kafka", action="store_true", help="only the two odradek brokers")
    ap.add_argument("--scrape-every", type=float, default=5.0, help="seconds between scrapes of /metrics")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args(argv)
    result = run(args)
    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, "metrics-" + time.strftime("%Y-%m-%d-%H%M%S"))
    with open(base + ".json", "w") as f:
        json.dump(result, f, indent=1)
    md = table(result)
    with open(base + ".md", "w") as f:
        f.write(f"# Metrics cost ({result['meta']['date']}, reps {result['meta']['reps']})\n\n{md}\n")
    print(md)
    print(f"\nwritten: {base}.{{json,md}} ({result['meta']['wall_s']} s, {result['meta']['scrapes']} scrapes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
