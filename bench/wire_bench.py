"""Wire codec benchmark: odradek.wire against kafka-python's protocol module,
same messages, same process, same run.

Messages
  ProduceRequest v9   1 MiB of record batches (8 partitions x 128 KiB; 1 KiB records)
  FetchResponse v12   1 MiB of record batches (8 partitions x 128 KiB)
  MetadataResponse v12  1,000 partitions (10 topics x 100, 3 replicas each), 3 brokers

For each, decode (from bytes, and from a memoryview, which keeps records fields
as zero-copy views) and encode throughput (messages/s and MB/s of encoded size),
the median of --reps timed runs of ~0.2 s each.

    python -m bench.wire_bench [--reps 5] [--out bench/results]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odradek.wire import messages  # noqa: E402
from odradek.wire.records import build_batch  # noqa: E402


def _batch(nbytes: int) -> bytes:
    n = nbytes // 1100
    return build_batch([(b"key-%d" % i, os.urandom(1024), (), 1_700_000_000_000 + i) for i in range(n)])


def produce_request():
    M = messages.load("ProduceRequest")
    mod = sys.modules[M.__module__]
    batch = _batch(128 * 1024)
    return M(transactional_id=None, acks=-1, timeout_ms=30000, topic_data=[
        mod.TopicProduceData(name="bench-topic", partition_data=[
            mod.PartitionProduceData(index=p, records=batch) for p in range(8)])]), 9


def fetch_response():
    M = messages.load("FetchResponse")
    mod = sys.modules[M.__module__]
    batch = _batch(128 * 1024)
    return M(throttle_time_ms=0, error_code=0, session_id=0, responses=[
        mod.FetchableTopicResponse(topic="bench-topic", partitions=[
            mod.PartitionData(partition_index=p, error_code=0, high_watermark=1000, last_stable_offset=1000,
                              log_start_offset=0, aborted_transactions=None, preferred_read_replica=-1,
                              records=batch) for p in range(8)])]), 12


def metadata_response():
    M = messages.load("MetadataResponse")
    mod = sys.modules[M.__module__]
    brokers = [mod.MetadataResponseBroker(node_id=i, host=f"broker-{i}.example.internal", port=9092, rack=None)
               for i in range(3)]
    topics = []
    for t in range(10):
        parts = [mod.MetadataResponsePartition(error_code=0, partition_index=p, leader_id=p % 3, leader_epoch=5,
                                               replica_nodes=[p % 3, (p + 1) % 3, (p + 2) % 3],
                                               isr_nodes=[p % 3, (p + 1) % 3, (p + 2) % 3], offline_replicas=[])
                 for p in range(100)]
        topics.append(mod.MetadataResponseTopic(error_code=0, name=f"topic-{t:03d}", topic_id=uuid.uuid4().bytes,
                                                is_internal=False, partitions=parts,
                                                topic_authorized_operations=-2147483648))
    return M(throttle_time_ms=0, brokers=brokers, cluster_id="bench-cluster", controller_id=0, topics=topics,
             cluster_authorized_operations=-2147483648), 12


CASES = {"ProduceRequest v9 (1 MiB)": produce_request, "FetchResponse v12 (1 MiB)": fetch_response,
         "MetadataResponse v12 (1000 partitions)": metadata_response}


def kafka_python_class(name: str):
    import importlib
    import pkgutil

    import kafka.protocol as kp
    from kafka.protocol.api_message import ApiMessage

    for info in pkgutil.walk_packages(kp.__path__, "kafka.protocol."):
        try:
            importlib.import_module(info.name)
        except Exception:
            continue
    stack = list(ApiMessage.__subclasses__())
    while stack:
        c = stack.pop()
        stack.extend(c.__subclasses__())
        if getattr(c, "_class_version", None) is None and c.__dict__.get("_json") is not None and c.name == name:
            return c
    return None


def rate(fn, reps: int, budget_s: float = 0.2) -> float:
    """Calls per second: median of reps runs, each sized to take about budget_s."""
    fn()
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t
        if dt > budget_s / 4:
            break
        n *= 2
    n = max(1, int(n * budget_s / dt))
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        out.append(n / (time.perf_counter() - t))
    return statistics.median(out)


def run(reps: int) -> dict:
    rows = []
    for label, make in CASES.items():
        obj, v = make()
        cls = type(obj)
        data = obj.encode(v)
        size = len(data)
        row = {"message": label, "bytes": size}
        row["odradek_decode"] = rate(lambda: cls.decode(data, v), reps)
        mv = memoryview(data)  # how the broker decodes Produce frames: records stay views
        row["odradek_decode_memoryview"] = rate(lambda: cls.decode(mv, v), reps)
        row["odradek_encode"] = rate(lambda: obj.encode(v), reps)
        kcls = kafka_python_class(cls.__name__)
        if kcls is not None:
            kobj = kcls.decode(data, version=v)
            kobj._header = None
            assert bytes(kobj.encode(version=v)) == data, f"kafka-python re-encodes {label} differently"
            row["kafka_python_decode"] = rate(lambda: kcls.decode(data, version=v), reps)
            row["kafka_python_encode"] = rate(lambda: kobj.encode(version=v), reps)
            row["decode_ratio"] = row["odradek_decode"] / row["kafka_python_decode"]
            row["encode_ratio"] = row["odradek_encode"] / row["kafka_python_encode"]
        rows.append(row)
        print(f"  {label}: done", file=sys.stderr, flush=True)
    return {"date": time.strftime("%Y-%m-%dT%H:%M:%S"), "reps": reps, "rows": rows}


def table(result: dict) -> str:
    out = ["| message | op | odradek msg/s | odradek MB/s | kafka-python msg/s | kafka-python MB/s | ratio |",
           "|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        mb = r["bytes"] / 1e6
        for op in ("decode", "decode_memoryview", "encode"):
            o = r[f"odradek_{op}"]
            k = r.get(f"kafka_python_{op.split('_')[0]}")
            out.append(f"| {r['message']} | {op} | {o:,.0f} | {o * mb:,.0f} | "
                       + (f"{k:,.0f} | {k * mb:,.0f} | {o / k:.1f}x |" if k else "- | - | - |"))
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args(argv)
    result = run(args.reps)
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, "wire-" + time.strftime("%Y-%m-%d-%H%M%S"))
    with open(stem + ".json", "w") as f:
        json.dump(result, f, indent=1)
    md = table(result)
    with open(stem + ".md", "w") as f:
        f.write(md + "\n")
    print(md)
    print(f"\nwritten: {stem}.{{json,md}}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
