"""The handler path of small requests (issue 27, the hot path): the CPU time of one handle() call of
Fetch, Metadata and Produce on an in-process broker (no connection, no encoding), optionally against
the same handler modules of another tree (--before DIR) in the same process, repeats alternated:

    python -m bench handlers [--before DIR] [--reps N] [--calls N] [--json FILE]

--before loads DIR's odradek/api_handlers/{fetch,metadata,produce}.py beside this tree's (as
odradek.api_handlers.<name>_before) and drives both on this tree's broker: a before/after of a change
to those modules, for trees whose modules import what this tree has. There is no Kafka row: Kafka's
handlers cannot be called alone (`python -m bench requests` has the same requests over the wire,
Kafka in the same run).

fetch end       Fetch v16 of one partition at its log end, max_wait_ms 0 (answered with no records)
fetch poll      the same with max_wait_ms 500 (a long poll: the wait made, not the wait)
fetch 1p        Fetch v16 of one partition from offset 0: 5 batches of 10 x 100-byte records
fetch 8p        the same of 8 partitions
metadata 1      Metadata v12 of one topic (its answer found encoded)
metadata all    Metadata v12 of every topic (4)
produce         Produce v9 acks=1, one batch of 10 records, one partition

Reported: microseconds of process CPU time a call (time.process_time: what a busy machine disturbs
least), min and median over the repeats, as a markdown table (--json FILE: also as JSON), with the
load average.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

from odradek.api_handlers.context import RequestContext, Stepped
from odradek.config import BrokerConfig
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from odradek.wire.records import build_batch

MODULES = ("fetch", "metadata", "produce")


def _broker(data_dir: str):
    from odradek.broker.broker import Broker

    now = [1_000_000]
    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": data_dir,
                                        "offsets.topic.num.partitions": "1",
                                        "transaction.state.log.num.partitions": "1"})
    b = Broker(cfg, lambda: now[0], lambda delay, fn: None)
    b.start()
    return b


def _ctx(b, module, version: int) -> RequestContext:
    return RequestContext(api_key=module.API_KEY, api_version=version, correlation_id=1, client_id="handler-bench",
                          now_ms=b.clock_ms(), services=b.services, client_host="127.0.0.1")


def _done(b, resp):
    """A response driven through its steps (a Stepped), as the connection does."""
    while isinstance(resp, Stepped):
        resp = resp.step(b.clock_ms()) or resp
    return resp


def _before(tree: Path, name: str):
    spec = importlib.util.spec_from_file_location(f"odradek.api_handlers.{name}_before",
                                                  tree / "odradek" / "api_handlers" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _cases(b, batch) -> dict[str, tuple[str, int, object]]:
    produce = importlib.import_module("odradek.api_handlers.produce")
    for p in range(8):
        for _ in range(5):
            _done(b, produce.handle(_ctx(b, produce, 9), ProduceRequest(acks=1, timeout_ms=1000, topic_data=[
                TopicProduceData(name="t0", partition_data=[PartitionProduceData(index=p, records=batch)])])))
    end = b.services.partitions.leader_log("t0", 0, -1).log_end_offset
    topic_id = b.services.metadata.image.topics["t0"].topic_id

    def fetch(parts: int, offset: int, wait: int) -> FetchRequest:
        partitions = [FetchPartition(partition=p, fetch_offset=offset, log_start_offset=-1, current_leader_epoch=-1,
                                     partition_max_bytes=1 << 20) for p in range(parts)]
        return FetchRequest(replica_id=-1, max_wait_ms=wait, min_bytes=1, max_bytes=50 << 20, isolation_level=0,
                            session_id=0, session_epoch=-1, rack_id="", forgotten_topics_data=[],
                            topics=[FetchTopic(topic="t0", topic_id=topic_id, partitions=partitions)])

    return {
        "fetch end": ("fetch", 16, fetch(1, end, 0)),
        "fetch poll": ("fetch", 16, fetch(1, end, 500)),
        "fetch 1p": ("fetch", 16, fetch(1, 0, 0)),
        "fetch 8p": ("fetch", 16, fetch(8, 0, 0)),
        "metadata 1": ("metadata", 12, MetadataRequest(topics=[MetadataRequestTopic(name="t0")],
                                                       allow_auto_topic_creation=False)),
        "metadata all": ("metadata", 12, MetadataRequest(topics=None, allow_auto_topic_creation=False)),
        "produce": ("produce", 9, ProduceRequest(acks=1, timeout_ms=1000, topic_data=[TopicProduceData(
            name="t1", partition_data=[PartitionProduceData(index=0, records=batch)])])),
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench handlers")
    ap.add_argument("--before", default=None, metavar="DIR", help="also this tree's handler modules, as 'before'")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--calls", type=int, default=2000, help="handle() calls a repeat")
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    versions = {"after" if args.before else "this": {m: importlib.import_module(f"odradek.api_handlers.{m}")
                                                    for m in MODULES}}
    if args.before:
        versions = {"before": {m: _before(Path(args.before), m) for m in MODULES}, **versions}
    loads = [os.getloadavg()[0]]
    out: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="handler-bench-") as d:
        b = _broker(d)
        try:
            create = importlib.import_module("odradek.api_handlers.create_topics")
            _done(b, create.handle(_ctx(b, create, 7), CreateTopicsRequest(topics=[
                CreatableTopic(name=f"t{i}", num_partitions=8, replication_factor=1) for i in range(4)],
                timeout_ms=1000)))
            batch = build_batch([(None, b"x" * 100, None, b.clock_ms()) for _ in range(10)])
            for case, (name, version, request) in _cases(b, batch).items():
                for label, modules in versions.items():
                    module = modules[name]
                    assert not isinstance(module.handle(_ctx(b, module, version), request), Stepped), case
                for _ in range(args.reps):
                    for label, modules in versions.items():
                        module = modules[name]
                        ctx = _ctx(b, module, version)
                        spent = timeit.timeit(lambda: module.handle(ctx, request), number=args.calls,
                                              timer=time.process_time)
                        out.setdefault(case, {}).setdefault(label, []).append(spent / args.calls * 1e6)
                loads.append(os.getloadavg()[0])
        finally:
            b.close()
    labels = list(versions)
    print(f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs; {args.reps} x {args.calls} "
          f"calls, CPU us a call, min / median\n")
    print("| request | " + " | ".join(labels) + " |\n|---|" + "---|" * len(labels))
    for case, runs in out.items():
        print(f"| {case} | " + " | ".join(f"{min(runs[label]):.2f} / {statistics.median(runs[label]):.2f}"
                                          for label in labels) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load_average": [round(x, 1) for x in loads], "cpus": os.cpu_count(), "before": args.before,
                       "us_per_call": out}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
