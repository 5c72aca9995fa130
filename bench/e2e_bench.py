"""End-to-end benchmark: odradek against Apache Kafka, same machine, same run, same
client (confluent-kafka / librdkafka).

Both brokers are started once (fresh data dirs, on tmpfs by default: see
default_data_dir; matched settings: see bench.kafka_ref.COMMON) and stay up; every measurement is repeated and the
repetitions alternate between the brokers, so slow phases of a noisy machine hit
both. Reported: median and [min, max] of the repetitions.

    python -m bench.e2e_bench [--quick] [--reps N] [--only odradek|kafka] [--out DIR]

Measurements
  produce     MB/s and msgs/s for 100 B / 1 KiB / 16 KiB values, acks=1 and all,
              1 and 8 partitions (librdkafka defaults otherwise: linger.ms 5, no compression);
              one untimed repetition per broker before each row's timed ones
  consume     MB/s and msgs/s reading a large 1-partition topic from the beginning
              (assign, no group), 1 KiB values
  latency     acks=all produce latency p50/p99/p999 at a fixed rate (1 KiB, linger.ms 0),
              librdkafka's own per-message latency (produce() -> ack)
  e2e         produce -> consume latency p50/p99/p999 at the same rate
  startup     process start -> first Metadata response listing a broker
  rss         idle (after start-up) and the maximum seen under load
  cpu         broker CPU seconds (user+sys, all threads) per GB produced / consumed
  java        Kafka's own perf tools from the reference jars (org.apache.kafka.tools.
              ProducerPerformance / ConsumerPerformance, stock client settings): produce
              1 KiB acks=1 on 1 partition and acks=all on 8, consume 1 KiB; MB/s and the
              broker's CPU s/GB per repetition. The Java client is not the bottleneck the
              Python loop is, so these rows show the broker more than the confluent rows.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import struct
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.kafka_ref import BROKERS, jars  # noqa: E402

SIZES = {"100B": 100, "1KiB": 1024, "16KiB": 16384}
# bytes of values per produce run (full / quick); each run takes about 1.5-2 s on this
# machine (1 KiB: 192 MB took ~0.6 s, too short for a stable median)
PRODUCE_BYTES = {"100B": 96_000_000, "1KiB": 512_000_000, "16KiB": 512_000_000}
CONSUME_BYTES = 384_000_000
# Kafka's ProducerPerformance: (value size, acks, partitions); bytes of values per run
JAVA_PRODUCE = [("1KiB", "1", 1), ("1KiB", "all", 8)]
JAVA_PRODUCE_BYTES = 400_000_000


def _client_quiet():
    return {"log_level": 3}


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, **_client_quiet()})
    fut = admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=10)[name]
    fut.result(15)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        t = admin.list_topics(name, timeout=5).topics.get(name)
        if t is not None and t.error is None and len(t.partitions) == partitions and \
                all(p.leader >= 0 for p in t.partitions.values()):
            return
        time.sleep(0.02)
    raise TimeoutError(f"topic {name} not ready")


def delete_topic(bootstrap: str, name: str) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap, **_client_quiet()})
    try:
        admin.delete_topics([name], operation_timeout=10)[name].result(15)
    except Exception:
        pass


def produce(bootstrap: str, topic: str, size: int, count: int, acks: str, extra: dict | None = None) -> float:
    """Produce count values of size bytes; seconds from the first produce() to the last ack."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": acks, "queue.buffering.max.messages": 1_000_000,
                  "queue.buffering.max.kbytes": 1_048_576, **_client_quiet(), **(extra or {})})
    errors = []

    def cb(err, msg):
        if err is not None:
            errors.append(err)

    p.list_topics(topic, timeout=10)  # connect and learn the leaders before the clock starts
    value = os.urandom(size)
    t0 = time.perf_counter()
    i = 0
    while i < count:
        try:
            p.produce(topic, value, on_delivery=cb)
            i += 1
            if not i % 4096:
                p.poll(0)  # serve delivery reports as they come: acked messages free their memory
        except BufferError:
            p.poll(0.005)
    left = p.flush(120)
    dt = time.perf_counter() - t0
    if left or errors:
        raise RuntimeError(f"produce: {left} not delivered, errors {errors[:3]}")
    return dt


def consume(bootstrap: str, topic: str, partitions: int, count: int, extra: dict | None = None) -> float:
    """Read count messages from the beginning; seconds from assign() to the last one."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{uuid.uuid4().hex[:8]}",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest", **_client_quiet(), **(extra or {})})
    c.list_topics(topic, timeout=10)
    t0 = time.perf_counter()
    c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
    n = 0
    deadline = time.monotonic() + 300
    while n < count:
        msgs = c.consume(10000, 1.0)
        for m in msgs:
            if m.error() is None:
                n += 1
        if time.monotonic() > deadline:
            raise TimeoutError(f"consume: {n} of {count}")
    dt = time.perf_counter() - t0
    c.close()
    return dt


def java_tool(cls: str, args: list[str], timeout: float = 300) -> str:
    """Run a tool class from the reference Kafka jars; its stdout."""
    import subprocess

    r = subprocess.run(["java", "-Xmx512M", "-cp", f"{jars()}/*", f"org.apache.kafka.tools.{cls}", *args],
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{cls} failed ({r.returncode}): {(r.stdout + r.stderr)[-800:]}")
    return r.stdout


def java_produce(bootstrap: str, topic: str, size: int, count: int, acks: str) -> float:
    """Kafka's ProducerPerformance at full speed; MB/s (10^6 bytes of values per second)."""
    import re

    out = java_tool("ProducerPerformance", [
        "--topic", topic, "--num-records", str(count), "--record-size", str(size), "--throughput", "-1",
        "--command-property", f"bootstrap.servers={bootstrap}", f"acks={acks}"])
    m = re.search(r"(\d+) records sent, ([\d.]+) records/sec", out.strip().splitlines()[-1])
    if m is None or int(m.group(1)) != count:
        raise RuntimeError(f"ProducerPerformance: unexpected output {out[-400:]!r}")
    return float(m.group(2)) * size / 1e6


def java_consume(bootstrap: str, topic: str, size: int, count: int) -> float:
    """Kafka's ConsumerPerformance from the beginning; MB/s over its fetch time (the
    group join before the first fetch is left out)."""
    out = java_tool("ConsumerPerformance", [
        "--bootstrap-server", bootstrap, "--topic", topic, "--num-records", str(count), "--timeout", "60000",
        "--group", f"bench-java-{uuid.uuid4().hex[:8]}", "--hide-header"])
    fields = [f.strip() for f in out.strip().splitlines()[-1].split(",")]
    # start.time, end.time, MB, MB.sec, nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, ...
    n, fetch_ms = int(fields[4]), float(fields[7])
    if n < count:
        raise RuntimeError(f"ConsumerPerformance read {n} of {count}")
    return n * size / 1e6 / (fetch_ms / 1000.0)


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))]


def paced(p, topic: str, rate: int, seconds: float, size: int, stamp: bool, cb=None) -> int:
    """Produce at a fixed rate (1 ms ticks); returns the number produced."""
    n_total = int(rate * seconds)
    t0 = time.perf_counter()
    filler = os.urandom(max(0, size - 8))
    n = 0
    while n < n_total:
        due = min(n_total, int((time.perf_counter() - t0) * rate) + 1)
        while n < due:
            v = struct.pack(">q", time.perf_counter_ns()) + filler if stamp else filler + b"\0" * 8
            p.produce(topic, v, on_delivery=cb)
            n += 1
        p.poll(0)
        nxt = t0 + n / rate
        d = nxt - time.perf_counter()
        if d > 0:
            time.sleep(d)
    p.flush(30)
    return n


def ack_latency(bootstrap: str, topic: str, rate: int, seconds: float) -> dict:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0, **_client_quiet()})
    p.list_topics(topic, timeout=10)
    lat = []

    def cb(err, msg):
        if err is None:
            lat.append(msg.latency() * 1000.0)

    paced(p, topic, rate, seconds, 1024, False, cb)
    return {"n": len(lat), "p50_ms": pct(lat, 0.5), "p99_ms": pct(lat, 0.99), "p999_ms": pct(lat, 0.999)}


def e2e_latency(bootstrap: str, topic: str, rate: int, seconds: float) -> dict:
    from confluent_kafka import Consumer, Producer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{uuid.uuid4().hex[:8]}",
                  "enable.auto.commit": False, **_client_quiet()})
    c.assign([TopicPartition(topic, 0, 0)])
    c.consume(1, 0.5)  # connect; the topic is empty
    lat: list[float] = []
    expected = int(rate * seconds)
    stop = threading.Event()

    def reader():
        while not stop.is_set() and len(lat) < expected:
            m = c.poll(0.1)  # returns as soon as one message is there (consume(n) waits for n)
            if m is not None and m.error() is None:
                lat.append((time.perf_counter_ns() - struct.unpack_from(">q", m.value())[0]) / 1e6)

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    p = Producer({"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 0, **_client_quiet()})
    p.list_topics(topic, timeout=10)
    paced(p, topic, rate, seconds, 1024, True)
    th.join(15)
    stop.set()
    th.join(2)
    c.close()
    return {"n": len(lat), "p50_ms": pct(lat, 0.5), "p99_ms": pct(lat, 0.99), "p999_ms": pct(lat, 0.999)}


class Bench:
    def __init__(self, args):
        self.args = args
        self.quick = args.quick
        self.reps = args.reps or (1 if args.quick else 5)
        self.samples: dict[str, dict[str, list[float]]] = {}  # metric -> broker -> values
        self.brokers = {}
        self.max_rss: dict[str, int] = {}
        self.cpu: dict[str, dict[str, float]] = {}  # broker -> {"produce_s":, "produce_b":, ...}

    def add(self, metric: str, broker: str, value: float) -> None:
        self.samples.setdefault(metric, {}).setdefault(broker, []).append(value)

    def log(self, msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    def note_rss(self, name: str) -> None:
        b = self.brokers[name]
        self.max_rss[name] = max(self.max_rss.get(name, 0), b.rss_kb())

    def quiesce(self, limit_s: float = 20.0) -> None:
        """Wait until no broker is busy (below 5% of a core over 0.25 s): the brokers
        share 2 cores, and work one does after its repetition (Kafka's deferred topic
        deletion, its GC, odradek removing files) must not run during the other's. Both
        brokers alike, before every measured repetition; the wait is not measured."""
        deadline = time.monotonic() + limit_s
        while True:
            c0 = {n: b.cpu_s() for n, b in self.brokers.items()}
            time.sleep(0.25)
            busy = {n: (b.cpu_s() - c0[n]) / 0.25 for n, b in self.brokers.items()}
            if all(v < 0.05 for v in busy.values()):
                return
            if time.monotonic() > deadline:
                self.log("still busy after %.0f s: %s" % (limit_s, ", ".join(
                    f"{n} {v:.0%} of a core" for n, v in busy.items())))
                return

    def measured(self, name: str, kind: str, nbytes: int, fn, per_rep: str | None = None):
        """fn() with the broker's CPU seconds counted against nbytes (per kind, and as
        one sample of the metric per_rep when given), once every broker is idle."""
        self.quiesce()
        b = self.brokers[name]
        c0 = b.cpu_s()
        r = fn()
        dc = b.cpu_s() - c0
        c = self.cpu.setdefault(name, {})
        c[kind + "_cpu_s"] = c.get(kind + "_cpu_s", 0.0) + dc
        c[kind + "_bytes"] = c.get(kind + "_bytes", 0) + nbytes
        if per_rep:
            self.add(per_rep, name, dc / (nbytes / 1e9))
        self.note_rss(name)
        return r

    # ------------------------------------------------------------ phases

    def start_all(self, root: str) -> None:
        for name in self.names:
            b = BROKERS[name](os.path.join(root, name))
            s = b.start()
            self.brokers[name] = b
            self.add("startup_s", name, s)
            self.log(f"{name}: Metadata answered {s:.2f} s after start")
        time.sleep(2.0)
        for name, b in self.brokers.items():
            self.add("idle_rss_mb", name, b.rss_kb() / 1024)

    def restarts(self, root: str) -> None:
        """Extra start-up samples: stop, wipe, start again."""
        for _ in range(self.reps - 1):
            for name in self.names:
                b = self.brokers[name]
                b.stop()
                s = b.start()
                self.add("startup_s", name, s)
                time.sleep(1.0)
                self.add("idle_rss_mb", name, b.rss_kb() / 1024)
                self.log(f"{name}: restart, Metadata after {s:.2f} s")

    def warm_up(self) -> None:
        """Untimed traffic first, so the JVM has compiled its hot paths (and odradek's
        imports and caches are loaded) before anything is measured."""
        count = (40_000 if self.quick else 150_000)
        for name in self.names:
            bs = self.brokers[name].bootstrap
            for parts in (1, 8):
                topic = f"warmup-{parts}-{uuid.uuid4().hex[:6]}"
                create_topic(bs, topic, parts)
                for acks in ("1", "all"):
                    produce(bs, topic, 1024, count // 2, acks)
                consume(bs, topic, parts, count)
                delete_topic(bs, topic)
            self.log(f"{name}: warmed up")

    def produce_matrix(self) -> None:
        div = 8 if self.quick else 1
        sizes = ["100B", "1KiB", "16KiB"]
        for size_name in sizes:
            size = SIZES[size_name]
            count = PRODUCE_BYTES[size_name] // size // div
            for acks in ("1", "all"):
                for parts in (1, 8):
                    if self.quick and parts == 8 and size_name != "1KiB":
                        continue
                    key = f"produce_{size_name}_acks{acks}_p{parts}"
                    # one untimed rep per broker first: the row's data volume may be new to
                    # both (first touch of memory costs this VM several times a reuse)
                    for name in self.names:
                        bs = self.brokers[name].bootstrap
                        topic = f"{key}-warm-{uuid.uuid4().hex[:6]}"
                        create_topic(bs, topic, parts)
                        self.quiesce()
                        produce(bs, topic, size, count, acks)
                        delete_topic(bs, topic)
                    for rep in range(self.reps):
                        order = self.names if rep % 2 == 0 else self.names[::-1]
                        for name in order:
                            bs = self.brokers[name].bootstrap
                            topic = f"{key}-{rep}-{uuid.uuid4().hex[:6]}"
                            create_topic(bs, topic, parts)
                            dt = self.measured(name, "produce", count * size,
                                               lambda: produce(bs, topic, size, count, acks))
                            self.add(key + "_MBps", name, count * size / dt / 1e6)
                            self.add(key + "_msgps", name, count / dt)
                            delete_topic(bs, topic)
                    self.log(f"{key}: " + ", ".join(
                        f"{n} {statistics.median(self.samples[key + '_MBps'][n]):.1f} MB/s" for n in self.names))

    def consume_phase(self) -> None:
        size = 1024
        count = CONSUME_BYTES // size // (8 if self.quick else 1)
        topics = {}
        for name in self.names:
            bs = self.brokers[name].bootstrap
            topic = f"consume-{uuid.uuid4().hex[:6]}"
            create_topic(bs, topic, 1)
            produce(bs, topic, size, count, "1")
            topics[name] = topic
        for rep in range(self.reps):
            order = self.names if rep % 2 == 0 else self.names[::-1]
            for name in order:
                bs = self.brokers[name].bootstrap
                dt = self.measured(name, "consume", count * size, lambda: consume(bs, topics[name], 1, count))
                self.add("consume_1KiB_MBps", name, count * size / dt / 1e6)
                self.add("consume_1KiB_msgps", name, count / dt)
        self.log("consume: " + ", ".join(
            f"{n} {statistics.median(self.samples['consume_1KiB_MBps'][n]):.1f} MB/s" for n in self.names))
        for name in self.names:
            delete_topic(self.brokers[name].bootstrap, topics[name])

    def java_phase(self) -> None:
        """Kafka's own Java perf tools against both brokers, repetitions interleaved."""
        div = 8 if self.quick else 1
        for size_name, acks, parts in JAVA_PRODUCE:
            size = SIZES[size_name]
            count = JAVA_PRODUCE_BYTES // size // div
            key = f"produce_java_{size_name}_acks{acks}_p{parts}"
            self.samples.setdefault(key + "_MBps", {})  # (listed before its CPU row)
            for rep in range(self.reps):
                order = self.names if rep % 2 == 0 else self.names[::-1]
                for name in order:
                    bs = self.brokers[name].bootstrap
                    topic = f"{key}-{rep}-{uuid.uuid4().hex[:6]}"
                    create_topic(bs, topic, parts)
                    mbps = self.measured(name, "produce_java", count * size,
                                         lambda: java_produce(bs, topic, size, count, acks),
                                         per_rep=f"cpu_s_per_GB_{key}")
                    self.add(key + "_MBps", name, mbps)
                    delete_topic(bs, topic)
            self.log(f"{key}: " + ", ".join(
                f"{n} {statistics.median(self.samples[key + '_MBps'][n]):.1f} MB/s" for n in self.names))
        size = 1024
        count = CONSUME_BYTES // size // div
        topics = {}
        for name in self.names:
            bs = self.brokers[name].bootstrap
            topics[name] = f"consume-java-{uuid.uuid4().hex[:6]}"
            create_topic(bs, topics[name], 1)
            produce(bs, topics[name], size, count, "1")
        key = "consume_java_1KiB"
        self.samples.setdefault(key + "_MBps", {})
        for rep in range(self.reps):
            order = self.names if rep % 2 == 0 else self.names[::-1]
            for name in order:
                bs = self.brokers[name].bootstrap
                mbps = self.measured(name, "consume_java", count * size,
                                     lambda: java_consume(bs, topics[name], size, count),
                                     per_rep=f"cpu_s_per_GB_{key}")
                self.add(key + "_MBps", name, mbps)
        self.log(f"{key}: " + ", ".join(
            f"{n} {statistics.median(self.samples[key + '_MBps'][n]):.1f} MB/s" for n in self.names))
        for name in self.names:
            delete_topic(self.brokers[name].bootstrap, topics[name])

    def latency_phase(self) -> None:
        rate = 1000
        secs = 2.0 if self.quick else 5.0
        for rep in range(self.reps):
            order = self.names if rep % 2 == 0 else self.names[::-1]
            for name in order:
                bs = self.brokers[name].bootstrap
                topic = f"lat-{uuid.uuid4().hex[:6]}"
                create_topic(bs, topic, 1)
                self.quiesce()
                r = ack_latency(bs, topic, rate, secs)
                for k in ("p50_ms", "p99_ms", "p999_ms"):
                    self.add(f"acks_all_latency_{k}", name, r[k])
                topic2 = f"e2e-{uuid.uuid4().hex[:6]}"
                create_topic(bs, topic2, 1)
                self.quiesce()
                r = e2e_latency(bs, topic2, rate, secs)
                for k in ("p50_ms", "p99_ms", "p999_ms"):
                    self.add(f"e2e_latency_{k}", name, r[k])
                delete_topic(bs, topic)
                delete_topic(bs, topic2)
        self.log("latency: " + ", ".join(
            f"{n} p99 acks=all {statistics.median(self.samples['acks_all_latency_p99_ms'][n]):.2f} ms"
            for n in self.names))

    def run(self) -> dict:
        self.names = [self.args.only] if self.args.only else ["odradek", "kafka"]
        t_start = time.monotonic()
        self.data_dir = self.args.dir or default_data_dir()
        with tempfile.TemporaryDirectory(prefix="odradek-bench-", dir=self.data_dir) as root:
            try:
                self.start_all(root)
                if not self.args.no_warmup:
                    self.warm_up()
                phases = self.args.phases or ["produce", "java", "consume", "latency"]
                if "produce" in phases:
                    self.produce_matrix()
                if "java" in phases:
                    self.java_phase()
                if "consume" in phases:
                    self.consume_phase()
                if "latency" in phases:
                    self.latency_phase()
                for name in self.names:
                    c = self.cpu.get(name, {})
                    for kind in ("produce", "consume"):
                        if c.get(kind + "_bytes"):
                            self.add(f"cpu_s_per_GB_{kind}", name, c[kind + "_cpu_s"] / (c[kind + "_bytes"] / 1e9))
                    if name in self.max_rss:
                        self.add("load_rss_mb", name, self.max_rss[name] / 1024)
                if not self.args.no_restarts:
                    self.restarts(root)
            finally:
                for b in self.brokers.values():
                    b.stop()
        return summarize(self.samples, self.names, {
            "quick": self.quick, "reps": self.reps, "wall_s": round(time.monotonic() - t_start, 1),
            "data_dir": self.data_dir or tempfile.gettempdir()})


HIGHER_IS_BETTER = ("MBps", "msgps")


def default_data_dir() -> str | None:
    """/dev/shm (tmpfs) when it has room, else None (the system temp dir).

    Neither broker fsyncs, so on a disk too the data only goes to the page cache;
    but on this machine's shared VM disk the same produce run measured about 300 or
    about 1000 MB/s for either broker at random (most likely the kernel's writeback
    of dirty pages throttling the writer), which swamped the brokers' own difference.
    On tmpfs the spread is a few percent. --dir DIR puts the data dirs on a disk."""
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return None
    return "/dev/shm" if st.f_bavail * st.f_frsize >= 8 << 30 else None


def better_high(metric: str) -> bool:
    return metric.endswith(HIGHER_IS_BETTER)


def summarize(samples: dict, names: list[str], meta: dict) -> dict:
    out = {"meta": {**meta, "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "host": platform.node(),
                    "cpus": os.cpu_count(), "python": platform.python_version()},
           "metrics": {}}
    for metric, per in samples.items():
        m = {}
        for name, vals in per.items():
            m[name] = {"median": statistics.median(vals), "min": min(vals), "max": max(vals), "samples": vals}
        if "odradek" in m and "kafka" in m and m["kafka"]["median"]:
            m["ratio"] = m["odradek"]["median"] / m["kafka"]["median"]
            # repetition i of both brokers ran back to back (interleaved): their ratio
            # cancels the slow swings of a shared machine's speed
            o, k = per["odradek"], per["kafka"]
            if len(o) == len(k) > 1 and all(k):
                pr = [a / b for a, b in zip(o, k)]
                m["paired_ratio"] = {"median": statistics.median(pr), "min": min(pr), "max": max(pr)}
        m["higher_is_better"] = better_high(metric)
        out["metrics"][metric] = m
    return out


def fmt(v: float) -> str:
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def table(result: dict) -> str:
    lines = ["| metric | odradek median [min-max] | Kafka median [min-max] | odradek/Kafka | "
             "paired ratio median [min-max] | target |",
             "|---|---|---|---|---|---|"]
    for metric, m in result["metrics"].items():
        cells = []
        for name in ("odradek", "kafka"):
            r = m.get(name)
            cells.append(f"{fmt(r['median'])} [{fmt(r['min'])}-{fmt(r['max'])}]" if r else "-")
        ratio = m.get("ratio")
        target = ">= 1" if m["higher_is_better"] else "<= 1"
        if metric.startswith("startup") or metric.startswith("idle_rss"):
            target = "<= 0.1"
        pr = m.get("paired_ratio")
        paired = f"{pr['median']:.2f} [{pr['min']:.2f}-{pr['max']:.2f}]" if pr else "-"
        lines.append(f"| {metric} | {cells[0]} | {cells[1]} | {ratio:.2f} | {paired} | {target} |"
                     if ratio is not None else f"| {metric} | {cells[0]} | {cells[1]} | - | {paired} | {target} |")
    return "\n".join(lines)


def plot(result: dict, path: str) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    items = [(k, m) for k, m in result["metrics"].items() if "ratio" in m]
    if not items:
        return False
    labels = [k for k, _ in items]
    ratios = []
    lo = []
    hi = []
    for _, m in items:
        o, k = m["odradek"], m["kafka"]
        r = m["ratio"]
        # present every bar as "odradek is this many times as good as Kafka"
        if not m["higher_is_better"]:
            r, rmin, rmax = 1 / r, k["median"] / max(o["max"], 1e-12), k["median"] / max(o["min"], 1e-12)
        else:
            rmin, rmax = o["min"] / k["median"], o["max"] / k["median"]
        ratios.append(r)
        lo.append(max(0.0, r - rmin))
        hi.append(max(0.0, rmax - r))
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(labels) + 1.5))
    colors = ["tab:green" if r >= 1 else "tab:red" for r in ratios]
    ax.barh(range(len(labels)), ratios, xerr=[lo, hi], color=colors, alpha=0.8)
    ax.axvline(1.0, color="black", lw=1)
    ax.set_xscale("log")
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("odradek vs Kafka (>1: odradek better; whiskers: odradek min..max)")
    ax.set_title(f"odradek vs Apache Kafka - {result['meta']['date']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write_results(result: dict, out_dir: str, stem: str) -> str:
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, stem)
    with open(base + ".json", "w") as f:
        json.dump(result, f, indent=1)
    md = table(result)
    with open(base + ".md", "w") as f:
        f.write(f"# odradek vs Apache Kafka ({result['meta']['date']}, reps {result['meta']['reps']})\n\n{md}\n")
    plot(result, base + ".png")
    return md


def add_args(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--quick", action="store_true", help="1 repetition, 1/8 of the data, fewer configs")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--only", choices=["odradek", "kafka"])
    ap.add_argument("--phases", nargs="*", choices=["produce", "java", "consume", "latency"])
    ap.add_argument("--no-warmup", action="store_true", help="measure cold brokers (JIT not warmed up)")
    ap.add_argument("--no-restarts", action="store_true", help="skip the extra start-up samples")
    ap.add_argument("--dir", default=None, help="where the brokers' data dirs go (default: /dev/shm if it has "
                    "8 GiB free, else the system temp dir; see default_data_dir)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_args(ap)
    args = ap.parse_args(argv)
    return report(Bench(args).run(), args.out, "e2e")


def report(result: dict, out_dir: str, prefix: str) -> int:
    """Writes a run's results (PREFIX-<date>.json/.md/.png) and prints its table."""
    stem = f"{prefix}-" + time.strftime("%Y-%m-%d-%H%M%S")
    md = write_results(result, out_dir, stem)
    print(md)
    print(f"\nwritten: {os.path.join(out_dir, stem)}.{{json,md,png}} ({result['meta']['wall_s']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
