"""Scale benchmark (issue 28): many partitions on one broker, odradek against Apache Kafka 4.3,
same machine, same run, same client (confluent-kafka / librdkafka for creation and produce; the
Metadata requests through odradek's own wire classes, the same bytes for both brokers).

    python -m bench.scale_bench [--sizes 10000 100000] [--only odradek|kafka] [--records N] [--out DIR]

Each broker in turn (fresh data dir, matched settings: bench.kafka_ref.COMMON) goes through
the stages of --sizes; at each stage topics of TOPIC_PARTITIONS partitions are created up to
that many partitions (in CreateTopics requests of at most 10,000 metadata records, Kafka's
limit: 99 topics of 100), then measured:

  create_s       first CreateTopics sent -> every partition of the stage has a leader in Metadata
                 (Kafka answers CreateTopics before its logs exist: the leaders are the fair end)
  create_cpu_s   broker CPU seconds (user+sys, all threads) over the same time
  metadata_ms    a full Metadata request (v12, all topics): sent -> the whole response read,
                 median of METADATA_REPS
  metadata_bytes that response's size
  idle_cpu_pct   broker CPU over IDLE_S seconds with no client connected, % of one core
  rss_mb         the broker's resident memory after the idle period
  open_fds       the broker's open file descriptors then

after the last stage (with --records N, after N records were produced to every partition,
acks=all: a stop that flushes and checkpoints partitions holding data, not empty ones):

  stop_s         SIGTERM -> the process exited (clean shutdown)
  stop_cpu_s     the broker's CPU seconds (user+sys, all threads) over the same time
  restart_s      process start -> the first acks=all produce to a partition acknowledged

Results: <out>/scale-<date>.json and .md (the table). 100,000 partitions on Kafka takes
long on a small machine (its controller and log creation): say so when it fails.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.e2e_bench import default_data_dir, summarize, write_results  # noqa: E402
from bench.kafka_ref import BROKERS  # noqa: E402
from odradek.wire.api import decode_response, encode_request  # noqa: E402
from odradek.wire.messages.metadata_request import MetadataRequest  # noqa: E402

TOPIC_PARTITIONS = 100
# Kafka refuses a CreateTopics that writes more than 10,000 metadata records (a TopicRecord and
# one PartitionRecord per partition: "Unable to perform excessively large batch operation.")
REQUEST_RECORDS = 10_000
METADATA_VERSION = 12
METADATA_REPS = 5
IDLE_S = 10.0
SETTLE_S = 10.0  # after a stage, before the idle period: the creation's after-work (log flush and
                 # file parking passes, checkpoints) is not idle cost
CREATE_TIMEOUT_S = 3600.0


def _quiet() -> dict:
    return {"log_level": 0, "logger": lambda *a: None}


def _read_frame(s: socket.socket) -> bytes:
    head = b""
    while len(head) < 4:
        chunk = s.recv(4 - len(head))
        if not chunk:
            raise ConnectionError("closed")
        head += chunk
    (size,) = struct.unpack(">i", head)
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        n = s.recv_into(view[got:], size - got)
        if not n:
            raise ConnectionError("closed")
        got += n
    return bytes(buf)


class MetadataClient:
    """One connection sending full Metadata requests (all topics)."""

    def __init__(self, host: str, port: int):
        self.sock = socket.create_connection((host, port), 30)
        self.sock.settimeout(120)
        self.corr = 0

    def fetch(self) -> tuple[float, bytes]:
        """(seconds from send to the whole response read, the response frame)."""
        self.corr += 1
        req = encode_request(MetadataRequest(topics=None, allow_auto_topic_creation=False), METADATA_VERSION,
                             self.corr, client_id="scale-bench")
        t0 = time.perf_counter()
        self.sock.sendall(req)
        frame = _read_frame(self.sock)
        return time.perf_counter() - t0, frame

    def leaders(self, prefix: str) -> tuple[int, int]:
        """(partitions of topics named prefix*, how many of them have a leader)."""
        _, frame = self.fetch()
        body = decode_response(frame, 3, METADATA_VERSION).body
        total = led = 0
        for t in body.topics:
            if t.name and t.name.startswith(prefix) and t.error_code == 0:
                for p in t.partitions:
                    total += 1
                    led += p.leader_id >= 0 and p.error_code == 0
        return total, led

    def close(self) -> None:
        self.sock.close()


def create_partitions(bootstrap: str, first_topic: int, topics: int) -> None:
    """Create topics s-<first_topic>.. (TOPIC_PARTITIONS each), at most REQUEST_RECORDS records per request."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "socket.timeout.ms": 300000, **_quiet()})
    per_request = max(1, REQUEST_RECORDS // (TOPIC_PARTITIONS + 1))
    for start in range(first_topic, first_topic + topics, per_request):
        names = [f"s-{i:05d}" for i in range(start, min(first_topic + topics, start + per_request))]
        futs = admin.create_topics([NewTopic(n, TOPIC_PARTITIONS, 1) for n in names],
                                   operation_timeout=600, request_timeout=600)
        for name, fut in futs.items():
            fut.result(900)


def produce_one(bootstrap: str, topic: str, timeout: float) -> None:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0,
                  "message.timeout.ms": int(timeout * 1000), **_quiet()})
    errors = []
    p.produce(topic, b"x", partition=0, on_delivery=lambda err, msg: errors.append(err))
    p.flush(timeout)
    if not errors or errors[0] is not None:
        raise RuntimeError(f"produce failed: {errors}")


def produce_to_all(bootstrap: str, partitions: int, records: int) -> None:
    """``records`` records to every partition of topics s-* (acks=all), every one acknowledged."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
                  "message.timeout.ms": 600000, **_quiet()})
    errors = []

    def done(err, msg):
        if err is not None:
            errors.append(err)
    for n in range(records):
        for i in range(partitions):
            p.produce(f"s-{i // TOPIC_PARTITIONS:05d}", b"r%d" % n, partition=i % TOPIC_PARTITIONS, on_delivery=done)
            p.poll(0)
    if p.flush(900) or errors:
        raise RuntimeError(f"produce failed: {errors[:3]}")


def wait_leaders(mc: MetadataClient, expected: int, deadline: float) -> None:
    while True:
        total, led = mc.leaders("s-")
        if total >= expected and led >= expected:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{led}/{expected} partitions with a leader")
        time.sleep(0.2)


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def run_broker(name: str, sizes: list[int], root: str, log, out: dict[str, float], records: int = 0) -> None:
    """Measure one broker into ``out`` (what was measured stays there if a step fails)."""
    b = BROKERS[name](os.path.join(root, name))
    b.startup_timeout_s = CREATE_TIMEOUT_S
    b.start()
    try:
        have = 0
        for size in sizes:
            topics = (size - have) // TOPIC_PARTITIONS
            mc = MetadataClient(b.host, b.port)
            cpu0, t0 = b.cpu_s(), time.monotonic()
            create_partitions(b.bootstrap, have // TOPIC_PARTITIONS, topics)
            wait_leaders(mc, size, t0 + CREATE_TIMEOUT_S)
            out[f"create_s@{size}"] = time.monotonic() - t0
            out[f"create_cpu_s@{size}"] = b.cpu_s() - cpu0
            have = size
            log(f"{name}: {size} partitions in {out[f'create_s@{size}']:.1f} s")
            lat = []
            for _ in range(METADATA_REPS):
                dt, frame = mc.fetch()
                lat.append(dt * 1000)
            out[f"metadata_ms@{size}"] = statistics.median(lat)
            out[f"metadata_bytes@{size}"] = float(len(frame))
            mc.close()
            time.sleep(SETTLE_S)
            cpu0, t0 = b.cpu_s(), time.monotonic()
            time.sleep(IDLE_S)
            out[f"idle_cpu_pct@{size}"] = 100 * (b.cpu_s() - cpu0) / (time.monotonic() - t0)
            out[f"rss_mb@{size}"] = b.rss_kb() / 1024
            out[f"open_fds@{size}"] = float(open_fds(b.pid))
            log(f"{name}: {out}")
        if records:
            produce_to_all(b.bootstrap, have, records)
            log(f"{name}: {records} record(s) in each of {have} partitions")
        cpu0, t0 = b.cpu_s(), time.monotonic()
        b.proc.send_signal(signal.SIGTERM)
        _, _, usage = os.wait4(b.pid, 0)  # (the exited process's CPU: all its threads')
        out[f"stop_s@{have}"] = time.monotonic() - t0
        out[f"stop_cpu_s@{have}"] = usage.ru_utime + usage.ru_stime - cpu0
        b.proc = None
        t0 = time.monotonic()
        b.start(fresh=False)
        produce_one(b.bootstrap, "s-00000", 1800)
        out[f"restart_s@{have}"] = time.monotonic() - t0
        log(f"{name}: {out}")
    except Exception:
        for f in ("stdout.log", "server.log"):
            p = b.dir / f
            if p.exists():
                log(f"{name} {f} (end):\n" + "\n".join(p.read_text(errors="replace").splitlines()[-15:]))
        raise
    finally:
        b.stop(60)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--only", choices=["odradek", "kafka"])
    ap.add_argument("--dir", default=None, help="where the data dirs go (default: as bench.e2e_bench)")
    ap.add_argument("--records", type=int, default=0, help="records produced to every partition before the stop")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args(argv)
    sizes = sorted(args.sizes)
    names = [args.only] if args.only else ["odradek", "kafka"]
    samples: dict[str, dict[str, list[float]]] = {}
    failures = {}
    t0 = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - t0:7.1f}s] {msg}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="scale-bench-", dir=args.dir or default_data_dir()) as root:
        for name in names:
            got: dict[str, float] = {}
            try:
                run_broker(name, sizes, root, log, got, args.records)
            except Exception as e:  # e.g. Kafka at 100,000 partitions on a small machine
                log(f"{name} failed: {e!r}")
                failures[name] = repr(e)
            for metric, v in got.items():
                samples.setdefault(metric, {})[name] = [v]
    result = summarize(samples, names, {"reps": 1, "sizes": sizes, "records": args.records, "failures": failures,
                                         "wall_s": round(time.monotonic() - t0)})
    stem = "scale-" + time.strftime("%Y-%m-%d-%H%M%S")
    md = write_results(result, args.out, stem)
    print(md)
    if failures:
        print(f"\nfailed: {failures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
