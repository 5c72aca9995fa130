"""Clickstream on odradek: click events -> Spark Structured Streaming -> per-minute page counts.

    python examples/clickstream.py run                       # everything: broker, events, Spark job, report
    python examples/clickstream.py run --bootstrap HOST:PORT # the same against a running broker

or step by step against a running broker (`odradek serve`):

    python examples/clickstream.py generate --bootstrap 127.0.0.1:9092 --events 5000
    python examples/clickstream.py job      --bootstrap 127.0.0.1:9092 --checkpoint /tmp/clicks-ckpt
    python examples/clickstream.py print    --bootstrap 127.0.0.1:9092

Needs `pip install -e '.[spark]'` (pyspark, confluent-kafka), Java 17+ for Spark, and Maven
once to fetch Spark's Kafka connector jars into ~/.cache/odradek.

Topics: `clicks` (JSON events {"ts": ms, "user": ..., "page": ...}, keyed by user) and
`page-counts` (key "minute|page", JSON value {"minute", "page", "count"}; the job runs in
update mode, so the latest record per key is the count).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("odradek_fetch_jars", REPO / "tools" / "fetch_jars.py")
fetch_jars = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fetch_jars)
JARS_MARKER = fetch_jars.CACHE / ".complete"


def progress(msg: str) -> None:
    print(f"clickstream: {msg}", flush=True)


def missing_prerequisite(spark: bool) -> str | None:
    """What to install before the example can run, in one line (None: nothing)."""
    for module, what in (("confluent_kafka", "confluent-kafka"), ("pyspark", "pyspark")):
        if (spark or module != "pyspark") and importlib.util.find_spec(module) is None:
            return f"{what} is not installed: pip install -e '.[spark]' (from the repository's root)"
    if spark and shutil.which("java") is None:
        return "Spark needs Java 17 or newer (java not found on PATH): install a JDK, e.g. openjdk-17-jdk"
    if spark and not JARS_MARKER.exists() and shutil.which("mvn") is None:
        return "Maven (mvn not found on PATH) is needed once to fetch Spark's Kafka connector jars: install maven"
    return None
PAGES = ["/", "/products", "/products/42", "/cart", "/checkout", "/about"]
CLICKS, COUNTS = "clicks", "page-counts"


# ---- 1. the click generator --------------------------------------------------------------

def generate(bootstrap: str, topic: str = CLICKS, events: int = 5000, minutes: int = 5,
             start_ms: int | None = None, seed: int = 7) -> Counter:
    """Produce `events` clicks spread over `minutes` minutes of event time; return the
    true counts {(minute start ms, page): n} for checking the job."""
    from confluent_kafka import Producer

    rng = random.Random(seed)
    if start_ms is None:
        start_ms = (int(time.time() * 1000) // 60_000 - minutes) * 60_000
    truth: Counter = Counter()
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "compression.type": "lz4"})
    for i in range(events):
        ts = start_ms + i * minutes * 60_000 // events
        page = rng.choices(PAGES, weights=[30, 25, 15, 12, 8, 10])[0]
        user = f"user-{rng.randrange(200)}"
        producer.produce(topic, key=user, value=json.dumps({"ts": ts, "user": user, "page": page}), timestamp=ts)
        truth[(ts // 60_000 * 60_000, page)] += 1
        if i % 1000 == 0:
            producer.poll(0)
    assert producer.flush(30) == 0, "clicks not delivered"
    return truth


# ---- 2. the Spark job --------------------------------------------------------------------

def spark_session(app: str = "clickstream"):
    from pyspark.sql import SparkSession

    if not JARS_MARKER.exists():
        progress("fetching Spark's Kafka connector jars with Maven (first run only: downloads into ~/.m2) ...")
    jars = fetch_jars.spark_kafka_jars()
    progress("starting Spark (local[2]; the first start takes a while) ...")
    spark = (SparkSession.builder.master("local[2]").appName(app)
             .config("spark.jars", ",".join(jars))
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.sql.session.timeZone", "UTC")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def page_counts_query(spark, bootstrap: str, checkpoint: str, src: str = CLICKS, dst: str = COUNTS,
                      available_now: bool = True):
    """Start the streaming query: per-minute counts per page from `src` into `dst`."""
    from pyspark.sql import functions as F

    clicks = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", bootstrap)
              .option("subscribe", src)
              .option("startingOffsets", "earliest")
              .option("maxOffsetsPerTrigger", "2000")
              .load())
    events = (clicks.select(F.from_json(F.col("value").cast("string"), "ts LONG, user STRING, page STRING").alias("e"))
              .select(F.timestamp_millis("e.ts").alias("ts"), "e.page"))
    counts = (events.withWatermark("ts", "2 minutes")
              .groupBy(F.window("ts", "1 minute"), "page").count())
    out = counts.select(
        F.concat_ws("|", F.unix_millis("window.start").cast("string"), "page").alias("key"),
        F.to_json(F.struct(F.unix_millis("window.start").alias("minute"), "page", "count")).alias("value"))
    writer = (out.writeStream.format("kafka")
              .outputMode("update")
              .option("kafka.bootstrap.servers", bootstrap)
              .option("topic", dst)
              .option("checkpointLocation", checkpoint))
    writer = writer.trigger(availableNow=True) if available_now else writer.trigger(processingTime="1 second")
    return writer.start()


# ---- 3. the consumer that prints the counts ----------------------------------------------

def read_counts(bootstrap: str, topic: str = COUNTS, timeout_s: float = 60.0) -> dict[tuple[int, str], int]:
    """The latest count per (minute, page): `topic` read from the beginning up to the end
    offsets it has when called (its high watermarks)."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"clickstream-print-{os.getpid()}",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
    latest: dict[tuple[int, str], int] = {}
    try:
        md = c.list_topics(topic, timeout=10).topics[topic]
        ends = {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in md.partitions}
        c.assign([TopicPartition(topic, p, -2) for p in md.partitions])
        pending = {p for p, end in ends.items() if end > 0}
        deadline = time.monotonic() + timeout_s
        while pending:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{topic}: partitions {sorted(pending)} not read to their end offsets")
            for m in c.consume(500, 0.2):
                if m.error():
                    raise RuntimeError(m.error())
                v = json.loads(m.value())
                latest[(v["minute"], v["page"])] = v["count"]
            for tp in c.position([TopicPartition(topic, p) for p in pending]):
                if tp.offset >= ends[tp.partition]:
                    pending.discard(tp.partition)
    finally:
        c.close()
    return latest


def print_counts(counts: dict[tuple[int, str], int]) -> None:
    minutes = sorted({m for m, _ in counts})
    print(f"{'minute (UTC)':<18}" + "".join(f"{p:>14}" for p in PAGES))
    for m in minutes:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime(m / 1000))
        print(f"{stamp:<18}" + "".join(f"{counts.get((m, p), 0):>14}" for p in PAGES))


# ---- glue --------------------------------------------------------------------------------

def create_topics(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics([NewTopic(CLICKS, 3, 1), NewTopic(COUNTS, 1, 1)])
    for name, f in futures.items():
        try:
            f.result(15)
        except Exception as e:   # already there from an earlier run is fine
            if "TOPIC_ALREADY_EXISTS" not in str(e):
                raise


def start_broker(data_dir: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "odradek", "serve", "--port", str(port), "--data-dir", data_dir],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    progress(f"starting odradek on 127.0.0.1:{port} ...")
    for line in proc.stdout:
        if "ready on" in line:
            progress(line.strip())
            return proc, f"127.0.0.1:{port}"
    raise RuntimeError("odradek did not start")


def run(bootstrap: str | None, events: int) -> int:
    with tempfile.TemporaryDirectory(prefix="clickstream-") as tmp:
        proc = None
        if bootstrap is None:
            proc, bootstrap = start_broker(os.path.join(tmp, "data"))
        try:
            create_topics(bootstrap)
            t0 = time.monotonic()
            progress(f"producing {events} clicks to '{CLICKS}' ...")
            truth = generate(bootstrap, events=events)
            progress(f"produced {events} clicks in {time.monotonic() - t0:.1f}s")
            spark = spark_session()
            t0 = time.monotonic()
            progress(f"running the Spark job until it has caught up with '{CLICKS}' ...")
            q = page_counts_query(spark, bootstrap, os.path.join(tmp, "checkpoint"))
            q.awaitTermination()
            if q.exception():
                raise q.exception()
            progress(f"Spark job wrote per-minute page counts to '{COUNTS}' in {time.monotonic() - t0:.1f}s")
            spark.stop()
            counts = read_counts(bootstrap)
            print_counts(counts)
            ok = counts == dict(truth)
            print("counts match the generator's truth" if ok else "MISMATCH with the generator's truth")
            return 0 if ok else 1
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(20)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="start a broker (unless --bootstrap), generate, run the job, print")
    r.add_argument("--bootstrap", help="a running broker, HOST:PORT (default: start odradek on a free port)")
    r.add_argument("--events", type=int, default=5000, help="click events to produce (default 5000)")
    g = sub.add_parser("generate", help="produce click events")
    g.add_argument("--bootstrap", required=True, help="the broker, HOST:PORT")
    g.add_argument("--events", type=int, default=5000, help="click events to produce (default 5000)")
    j = sub.add_parser("job", help="run the Spark job (until stopped with --follow, else until caught up)")
    j.add_argument("--bootstrap", required=True, help="the broker, HOST:PORT")
    j.add_argument("--checkpoint", required=True, help="Spark's checkpoint directory (resumes from it)")
    j.add_argument("--follow", action="store_true", help="keep running, a micro-batch every second")
    p = sub.add_parser("print", help="print the latest per-minute counts")
    p.add_argument("--bootstrap", required=True, help="the broker, HOST:PORT")
    a = ap.parse_args(argv)
    missing = missing_prerequisite(spark=a.cmd in ("run", "job"))
    if missing is not None:
        print(f"clickstream: {missing}", file=sys.stderr)
        return 2
    if a.cmd == "run":
        return run(a.bootstrap, a.events)
    if a.cmd == "generate":
        create_topics(a.bootstrap)
        generate(a.bootstrap, events=a.events)
        return 0
    if a.cmd == "job":
        create_topics(a.bootstrap)
        spark = spark_session()
        q = page_counts_query(spark, a.bootstrap, a.checkpoint, available_now=not a.follow)
        q.awaitTermination()
        return 0
    print_counts(read_counts(a.bootstrap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
