"""Small requests' cost (issue 27, the hot path): odradek and Apache Kafka 4.3 in the same run, and
optionally odradek from another tree (--before DIR: before/after a change), all started once:

    python -m bench requests [--before DIR] [--reps N] [--seconds S] [--depth D] [--json FILE]

Each scenario sends one request again and again on one connection, D at a time (pipelined, as a
client's fetcher and producer do), for S seconds a repetition; the repetitions alternate between the
brokers, their order turned each time, so slow phases of the shared machine hit all alike.

fetch       Fetch v12 of one partition at its log end, max_wait_ms 0 (an answer with no records:
            the handler's own cost, no read)
fetch_data  Fetch v12 of one partition from offset 0, at most 1 KiB (one small batch read)
metadata    Metadata v12 of one topic
produce     Produce v9 acks=1 of one 100-byte record to one partition

Reported per broker (median over the repetitions, [min, max]): requests a second, and the broker's
CPU time per request (user+system of its process, all threads, over the repetition / requests
answered): the second is the one a busy machine disturbs least. The client is odradek.wire
(requests encoded once, answers read as frames, the last of each repetition decoded and checked).
Numbers go to stdout as a markdown table (--json FILE: also as JSON), with the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.e2e_bench import default_data_dir
from bench.kafka_ref import BROKERS, OdradekBroker
from bench.limits_bench import Conn

from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from odradek.wire.records import build_batch

TOPIC = "requests-bench"
SCENARIOS = ("fetch", "fetch_data", "metadata", "produce")


def _fetch(offset: int, max_bytes: int) -> FetchRequest:
    return FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=max_bytes, isolation_level=0,
                        session_id=0, session_epoch=-1, topics=[FetchTopic(topic=TOPIC, partitions=[
                            FetchPartition(partition=0, fetch_offset=offset, log_start_offset=-1,
                                           current_leader_epoch=-1, partition_max_bytes=max_bytes)])],
                        forgotten_topics_data=[], rack_id="")


def _produce(value: bytes) -> ProduceRequest:
    return ProduceRequest(acks=1, timeout_ms=30000, topic_data=[TopicProduceData(name=TOPIC, partition_data=[
        PartitionProduceData(index=0, records=build_batch([(None, value, None, int(time.time() * 1000))]))])])


def _errors(name: str, body) -> list[int]:
    """The error codes of an answer to one of the scenarios' requests."""
    if name.startswith("fetch"):
        return [body.error_code] + [p.error_code for t in body.responses for p in t.partitions]
    if name == "metadata":
        return [t.error_code for t in body.topics]
    return [p.error_code for t in body.responses for p in t.partition_responses]


def _setup(bootstrap: str) -> int:
    """The topic made and given a few records; -> its log end offset."""
    conn = Conn(bootstrap)
    try:
        created = conn.call(CreateTopicsRequest(topics=[CreatableTopic(name=TOPIC, num_partitions=1,
                                                                       replication_factor=1)], timeout_ms=30000), 5)
        assert created.topics[0].error_code in (0, 36), created  # (36: it exists)
        deadline = time.monotonic() + 30
        while True:  # a leader known to the broker's metadata first
            answer = conn.call(_produce(b"x" * 100), 9)
            if _errors("produce", answer) == [0] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        for _ in range(20):
            answer = conn.call(_produce(b"x" * 100), 9)
        assert _errors("produce", answer) == [0], answer
        return answer.responses[0].partition_responses[0].base_offset + 1
    finally:
        conn.close()


def _requests(end: int) -> dict[str, tuple[object, int]]:
    return {"fetch": (_fetch(end, 1 << 20), 12), "fetch_data": (_fetch(0, 1024), 12),
            "metadata": (MetadataRequest(topics=[MetadataRequestTopic(name=TOPIC)], allow_auto_topic_creation=False),
                         12),
            "produce": (_produce(b"v" * 100), 9)}


def _run(b, name: str, request, version: int, depth: int, seconds: float) -> tuple[float, float]:
    """(requests a second, broker CPU microseconds a request) of one repetition."""
    conn = Conn(b.bootstrap)
    try:
        frames = [encode_request(request, version, i + 1, client_id="requests-bench") for i in range(depth)]
        key = type(request).API_KEY
        last = b""
        n = 0
        c0, t0 = b.cpu_s(), time.monotonic()
        while True:
            conn.sock.sendall(b"".join(frames))
            for _ in range(depth):
                last = conn.frame()
            n += depth
            if time.monotonic() - t0 >= seconds:
                break
        dt, dc = time.monotonic() - t0, b.cpu_s() - c0
        errors = _errors(name, decode_response(last, key, version).body)
        assert set(errors) == {0}, (b.name, name, errors)
        return n / dt, dc / n * 1e6
    finally:
        conn.close()


def _summary(values: list[float]) -> str:
    return f"{statistics.median(values):,.1f} [{min(values):,.1f}, {max(values):,.1f}]"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench requests")
    ap.add_argument("--before", default=None, metavar="DIR", help="also odradek from this tree, as 'before'")
    ap.add_argument("--only", default=",".join(SCENARIOS))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0, help="of each repetition")
    ap.add_argument("--depth", type=int, default=8, help="requests in flight on the connection")
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    brokers = {}
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="requests-bench-", dir=default_data_dir()) as root:
        try:
            for label in (["before"] if args.before else []) + ["odradek", "kafka"]:
                b = (OdradekBroker if label == "before" else BROKERS[label])(os.path.join(root, label))
                if label == "before":
                    b.repo = Path(args.before)
                brokers[label] = b
                b.start()
            ends = {label: _setup(b.bootstrap) for label, b in brokers.items()}
            rate: dict = {}
            cpu: dict = {}
            labels = list(brokers)
            for name in args.only.split(","):
                for rep in range(args.reps):
                    for label in labels[rep % len(labels):] + labels[:rep % len(labels)]:
                        request, version = _requests(ends[label])[name]
                        r, c = _run(brokers[label], name, request, version, args.depth, args.seconds)
                        rate.setdefault(name, {}).setdefault(label, []).append(r)
                        cpu.setdefault(name, {}).setdefault(label, []).append(c)
                loads.append(os.getloadavg()[0])
                print(f"{name}: " + ", ".join(f"{label} {statistics.median(rate[name][label]):,.0f}/s "
                                               f"{statistics.median(cpu[name][label]):.1f} us CPU"
                                               for label in labels), file=sys.stderr, flush=True)
        finally:
            for b in brokers.values():
                b.stop()
    print(f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs; depth {args.depth}, "
          f"{args.reps} x {args.seconds:g} s\n")
    print("| request | broker | requests/s | broker CPU us/request |\n|---|---|---|---|")
    for name in rate:
        for label in labels:
            print(f"| {name} | {label} | {_summary(rate[name][label])} | {_summary(cpu[name][label])} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load_average": [round(x, 1) for x in loads], "cpus": os.cpu_count(), "depth": args.depth,
                       "seconds": args.seconds, "before": args.before, "requests_per_s": rate,
                       "cpu_us_per_request": cpu}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
