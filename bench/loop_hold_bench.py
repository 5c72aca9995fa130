"""The largest legal request of each API, as a hostile client sends it (issue 27 fairness): how long
odradek's event loop is held in one piece and how long another client's ApiVersions waits,
Apache Kafka 4.3 in the same run (its pings only):

    python -m bench hold [--brokers odradek,kafka] [--only offset_commit,...] [--reps 3]
                         [--topics 1000] [--partitions 10] [--entries 100000] [--groups 5000]

Each broker gets `topics` topics of `partitions` partitions (10,000 partitions by default), a
record in each partition and `groups` groups with a committed offset; then each API's request
is sent `reps` times, one after another, while a pinger (a process of its own, bench/limits_bench)
sends an ApiVersions every 50 ms. odradek runs on bench/loop_meter.py's metered asyncio loop: the
largest turn of its event loop in CPU time of the loop's thread (what one piece of work held the
loop for, waits for a CPU on a loaded machine not counted) and its longest garbage collection
(gc_max_ms: a turn holding a collection was held that long by the collector, whatever the handler
did; gc_in_max_turn: each collection in the largest turn as ms/generation/unreachable objects it
found, /objects walked too when ODRADEK_LOOP_METER_GC_OBJECTS=1 is set); --py-spy also samples its
main thread (bench/loop_blocks.py) for the stack of the longest busy period (wall clock).
Requests over "entries" name that many partitions (most of them not existing: a hostile client
needs no real ones), the others every existing partition or group. The TxnOffsetCommit is a
transactional producer's, in a transaction opened before it (InitProducerId, AddOffsetsToTxn:
not measured); its row says how many partitions it committed (every existing one, or the run fails).

Numbers go to stdout as a markdown table (--json FILE: also as JSON); no assertion. --nice -10 (root) renices the broker's threads and the
pinger so that other work on the machine delays them less.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from typing import Callable

from bench.kafka_ref import BROKERS, OdradekBroker
from bench.limits_bench import Conn, Pinger, create, table
from bench import loop_meter
from bench.loop_blocks import LoopBlocks

from odradek.wire import messages
from odradek.wire.records import build_batch

GROUP = "hold-bench"
TXN_ID = "hold-bench-txn"
TXN_TIMEOUT_MS = 600_000  # (the requests' reps are one transaction; Kafka's max is 900,000)


class MeteredOdradek(OdradekBroker):
    """odradek serve on bench/loop_meter.py's loop: meter() is the turns since the last call."""

    module = "bench.loop_meter"

    def start(self, fresh: bool = True) -> float:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.meter_file = str(self.dir / "loop-meter.json")  # (goes with the broker's directory)
        os.environ["ODRADEK_LOOP_METER"] = self.meter_file
        return super().start(fresh)

    def meter(self) -> dict:
        return loop_meter.read(self.pid, self.meter_file)


class Shape:
    def __init__(self, topics: int, partitions: int, entries: int, groups: int):
        self.topics, self.partitions, self.entries, self.groups = topics, partitions, entries, groups
        self.names = [f"hold-{i}" for i in range(topics)]
        self.group_ids = [f"hold-group-{i}" for i in range(groups)]

    def existing(self) -> dict[str, list[int]]:
        return {n: list(range(self.partitions)) for n in self.names}

    def hostile(self) -> dict[str, list[int]]:
        """`entries` partitions over the topics (those past `partitions` do not exist)."""
        per = max(1, self.entries // self.topics)
        return {n: list(range(per)) for n in self.names}


def _m(name: str):
    return messages.load(name)


def _sub(request: str, struct: str):
    import sys as _sys
    return getattr(_sys.modules[_m(request).__module__], struct)


def requests(s: Shape) -> dict[str, tuple[object, int]]:
    """API label -> (request, version)."""
    out: dict[str, tuple[object, int]] = {}
    hostile, existing = s.hostile(), s.existing()
    n_hostile = sum(map(len, hostile.values()))

    T, P = _sub("OffsetCommitRequest", "OffsetCommitRequestTopic"), _sub("OffsetCommitRequest", "OffsetCommitRequestPartition")
    out[f"OffsetCommit {n_hostile:,} partitions"] = (_m("OffsetCommitRequest")(
        group_id=GROUP, generation_id_or_member_epoch=-1, member_id="",
        topics=[T(name=n, partitions=[P(partition_index=i, committed_offset=1, committed_leader_epoch=-1,
                                       committed_metadata="") for i in ps]) for n, ps in hostile.items()]), 8)
    G, FT = _sub("OffsetFetchRequest", "OffsetFetchRequestGroup"), _sub("OffsetFetchRequest", "OffsetFetchRequestTopics")
    out[f"OffsetFetch {n_hostile:,} partitions"] = (_m("OffsetFetchRequest")(groups=[G(group_id=GROUP, topics=[
        FT(name=n, partition_indexes=ps) for n, ps in hostile.items()])]), 8)
    out["OffsetFetch all of the group"] = (_m("OffsetFetchRequest")(groups=[G(group_id=GROUP, topics=None)]), 8)
    LT, LP = _sub("ListOffsetsRequest", "ListOffsetsTopic"), _sub("ListOffsetsRequest", "ListOffsetsPartition")
    out[f"ListOffsets {n_hostile:,} partitions"] = (_m("ListOffsetsRequest")(replica_id=-1, topics=[
        LT(name=n, partitions=[LP(partition_index=i, current_leader_epoch=-1, timestamp=-1) for i in ps])
        for n, ps in hostile.items()]), 7)
    OT, OP = _sub("OffsetForLeaderEpochRequest", "OffsetForLeaderTopic"), _sub("OffsetForLeaderEpochRequest", "OffsetForLeaderPartition")
    out[f"OffsetForLeaderEpoch {n_hostile:,} partitions"] = (_m("OffsetForLeaderEpochRequest")(replica_id=-1, topics=[
        OT(topic=n, partitions=[OP(partition=i, current_leader_epoch=-1, leader_epoch=0) for i in ps])
        for n, ps in hostile.items()]), 4)
    FTo, FP = _sub("FetchRequest", "FetchTopic"), _sub("FetchRequest", "FetchPartition")
    out[f"Fetch {s.topics * s.partitions:,} partitions"] = (_m("FetchRequest")(
        replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=50 << 20, isolation_level=0, session_id=0,
        session_epoch=-1, topics=[FTo(topic=n, partitions=[FP(partition=i, fetch_offset=0, log_start_offset=-1,
                                                               partition_max_bytes=1 << 20) for i in ps])
                                  for n, ps in existing.items()], forgotten_topics_data=[]), 12)
    batch = build_batch([(None, b"x" * 10, None, int(time.time() * 1000))])
    PT, PP = _sub("ProduceRequest", "TopicProduceData"), _sub("ProduceRequest", "PartitionProduceData")
    out[f"Produce {s.topics * s.partitions:,} partitions"] = (_m("ProduceRequest")(acks=1, timeout_ms=30000, topic_data=[
        PT(name=n, partition_data=[PP(index=i, records=batch) for i in ps]) for n, ps in existing.items()]), 9)
    DT, DP = _sub("DeleteRecordsRequest", "DeleteRecordsTopic"), _sub("DeleteRecordsRequest", "DeleteRecordsPartition")
    out[f"DeleteRecords {n_hostile:,} partitions"] = (_m("DeleteRecordsRequest")(timeout_ms=30000, topics=[
        DT(name=n, partitions=[DP(partition_index=i, offset=0) for i in ps]) for n, ps in hostile.items()]), 2)
    AR, AC = _sub("AlterConfigsRequest", "AlterConfigsResource"), _sub("AlterConfigsRequest", "AlterableConfig")
    out[f"AlterConfigs {s.topics:,} topics"] = (_m("AlterConfigsRequest")(resources=[
        AR(resource_type=2, resource_name=n, configs=[AC(name="retention.ms", value="86400000")])
        for n in s.names], validate_only=False), 2)
    IR, IC = (_sub("IncrementalAlterConfigsRequest", "AlterConfigsResource"),
              _sub("IncrementalAlterConfigsRequest", "AlterableConfig"))
    out[f"IncrementalAlterConfigs {s.topics:,} topics"] = (_m("IncrementalAlterConfigsRequest")(resources=[
        IR(resource_type=2, resource_name=n, configs=[IC(name="retention.ms", config_operation=0, value="172800000")])
        for n in s.names], validate_only=False), 1)
    ET = _sub("ElectLeadersRequest", "TopicPartitions")
    out[f"ElectLeaders {n_hostile:,} partitions"] = (_m("ElectLeadersRequest")(election_type=0, timeout_ms=30000,
        topic_partitions=[ET(topic=n, partitions=ps) for n, ps in hostile.items()]), 2)
    RT, RP = _sub("AlterPartitionReassignmentsRequest", "ReassignableTopic"), _sub("AlterPartitionReassignmentsRequest", "ReassignablePartition")
    out[f"AlterPartitionReassignments {n_hostile:,} partitions"] = (_m("AlterPartitionReassignmentsRequest")(
        timeout_ms=30000, topics=[RT(name=n, partitions=[RP(partition_index=i, replicas=None) for i in ps])
                                  for n, ps in hostile.items()]), 0)
    out["ListPartitionReassignments all"] = (_m("ListPartitionReassignmentsRequest")(timeout_ms=30000, topics=None), 0)
    DL = _sub("DescribeLogDirsRequest", "DescribableLogDirTopic")
    out["DescribeLogDirs all"] = (_m("DescribeLogDirsRequest")(topics=None), 4)
    out[f"DescribeLogDirs {n_hostile:,} partitions"] = (_m("DescribeLogDirsRequest")(topics=[
        DL(topic=n, partitions=ps) for n, ps in hostile.items()]), 4)
    DPT = _sub("DescribeProducersRequest", "TopicRequest")
    out[f"DescribeProducers {n_hostile:,} partitions"] = (_m("DescribeProducersRequest")(topics=[
        DPT(name=n, partition_indexes=ps) for n, ps in hostile.items()]), 0)
    ODT, ODP = _sub("OffsetDeleteRequest", "OffsetDeleteRequestTopic"), _sub("OffsetDeleteRequest", "OffsetDeleteRequestPartition")
    out[f"OffsetDelete {n_hostile:,} partitions"] = (_m("OffsetDeleteRequest")(group_id=GROUP, topics=[
        ODT(name=n, partitions=[ODP(partition_index=i) for i in ps]) for n, ps in hostile.items()]), 0)
    out["Metadata all topics"] = (_m("MetadataRequest")(topics=None, allow_auto_topic_creation=False), 12)
    DTR = _sub("DescribeTopicPartitionsRequest", "TopicRequest")
    out["DescribeTopicPartitions all"] = (_m("DescribeTopicPartitionsRequest")(
        topics=[DTR(name=n) for n in s.names], response_partition_limit=2000), 0)
    out[f"DescribeGroups {s.groups:,} groups"] = (_m("DescribeGroupsRequest")(groups=s.group_ids), 5)
    out[f"ConsumerGroupDescribe {s.groups:,} groups"] = (_m("ConsumerGroupDescribeRequest")(group_ids=s.group_ids), 0)
    out["ListGroups all"] = (_m("ListGroupsRequest")(), 4)
    out[f"DescribeTransactions {s.entries:,} ids"] = (_m("DescribeTransactionsRequest")(
        transactional_ids=[f"txn-{i}" for i in range(s.entries)]), 0)
    out[f"DeleteGroups {s.groups:,} groups"] = (_m("DeleteGroupsRequest")(groups_names=s.group_ids), 2)
    out[f"TxnOffsetCommit {n_hostile:,} partitions"] = (txn_offset_commit(s, -1, -1), 4)
    return out


def txn_offset_commit(s: Shape, producer_id: int, producer_epoch: int):
    """The hostile partitions committed in TXN_ID's transaction (begin_txn: its producer id and epoch;
    v4, after AddOffsetsToTxn, as a transaction.version 1 producer's sendOffsetsToTransaction)."""
    T = _sub("TxnOffsetCommitRequest", "TxnOffsetCommitRequestTopic")
    P = _sub("TxnOffsetCommitRequest", "TxnOffsetCommitRequestPartition")
    return _m("TxnOffsetCommitRequest")(
        transactional_id=TXN_ID, group_id=GROUP, producer_id=producer_id, producer_epoch=producer_epoch,
        generation_id=-1, member_id="", group_instance_id=None,
        topics=[T(name=n, partitions=[P(partition_index=i, committed_offset=1, committed_leader_epoch=-1,
                                       committed_metadata="") for i in ps]) for n, ps in s.hostile().items()])


def begin_txn(bootstrap: str) -> tuple[int, int]:
    """TXN_ID's producer id and epoch, in an ongoing transaction that holds GROUP's offsets: FindCoordinator
    (until the transaction log is there), InitProducerId, AddOffsetsToTxn, as a transactional producer's
    sendOffsetsToTransaction before its TxnOffsetCommit. The transaction stays open (no EndTxn)."""
    c = Conn(bootstrap, timeout=120)
    try:
        for key, key_type in ((TXN_ID, 1), (GROUP, 0)):
            for _ in range(300):
                if c.call(_m("FindCoordinatorRequest")(key=key, key_type=key_type), 2).error_code == 0:
                    break
                time.sleep(0.2)
        for _ in range(300):
            r = c.call(_m("InitProducerIdRequest")(transactional_id=TXN_ID, transaction_timeout_ms=TXN_TIMEOUT_MS,
                                                   producer_id=-1, producer_epoch=-1), 4)
            if r.error_code == 0:
                break
            time.sleep(0.2)
        else:
            raise RuntimeError(f"InitProducerId: error {r.error_code}")
        pid, epoch = r.producer_id, r.producer_epoch
        a = c.call(_m("AddOffsetsToTxnRequest")(transactional_id=TXN_ID, producer_id=pid, producer_epoch=epoch,
                                                group_id=GROUP), 3)
        if a.error_code != 0:
            raise RuntimeError(f"AddOffsetsToTxn: error {a.error_code}")
        return pid, epoch
    finally:
        c.close()


def _call(b, request, version: int, answers: list | None = None) -> float:
    c = Conn(b.bootstrap, timeout=600)
    try:
        t0 = time.perf_counter()
        answer = c.call(request, version)
        took = time.perf_counter() - t0
        if answers is not None:
            answers.append(answer)
        return took
    finally:
        c.close()


def setup(b, s: Shape) -> None:
    """The topics, a record in each partition, the groups (each with one committed offset)."""
    for i in range(0, len(s.names), 500):
        create(b.bootstrap, s.names[i:i + 500], s.partitions)
    req, v = requests(s)[f"Produce {s.topics * s.partitions:,} partitions"]
    _call(b, req, v)
    from bench.limits_bench import find_coordinator
    find_coordinator(b.bootstrap, GROUP)
    T, P = _sub("OffsetCommitRequest", "OffsetCommitRequestTopic"), _sub("OffsetCommitRequest", "OffsetCommitRequestPartition")
    c = Conn(b.bootstrap, timeout=600)
    for gid in s.group_ids:
        c.send(_m("OffsetCommitRequest")(group_id=gid, generation_id_or_member_epoch=-1, member_id="", topics=[
            T(name=s.names[0], partitions=[P(partition_index=0, committed_offset=1, committed_leader_epoch=-1,
                                            committed_metadata="")])]), 8)
    for _ in s.group_ids:
        c.recv(8, 8)
    c.close()


def renice(pid: int, value: int) -> None:
    """Every thread of a process at `value` (nice is per thread on Linux): on a machine loaded by
    others the broker and the pinger get a CPU when they are ready, so that a busy period is
    mostly the broker's own work."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, int(tid), value)


def run(b, s: Shape, only: list[str] | None, reps: int, sample: bool, nice: int) -> list[dict]:
    rows = []
    for label, (req, v) in requests(s).items():
        if only and not any(o.lower() in label.lower().replace(" ", "_") for o in only):
            continue
        print(f"  {b.name} {label} ...", file=sys.stderr, flush=True)
        if label.startswith("TxnOffsetCommit"):  # (an ongoing transaction first, not measured)
            req = txn_offset_commit(s, *begin_txn(b.bootstrap))
        pinger = Pinger(b.bootstrap, every=0.05)
        pinger.start()
        if nice:
            renice(pinger.proc.pid, nice)
            renice(b.pid, nice)
        blocks = LoopBlocks(b.pid, min_ms=1, rate=1000) if sample else contextlib.nullcontext()
        size = len(req.encode(v))
        took = []
        metered = isinstance(b, MeteredOdradek)
        with blocks:
            time.sleep(0.2)
            if metered:
                b.meter()
            answers: list = []
            for _ in range(reps):
                took.append(_call(b, req, v, answers))
            time.sleep(0.2)
            meter = b.meter() if metered else {}
        row = {"api": label, "request_kb": size // 1024, "answered_median_s": round(sorted(took)[len(took) // 2], 3),
               **{f"ping_{k}": val for k, val in pinger.finish().items() if k != "pings"}}
        if metered:
            row.update({"loop_max_ms": meter.get("max_ms"), "turns_over_10ms": meter.get("over_10ms"),
                        "gc_max_ms": meter.get("gc_max_ms"), "gc_in_max_turn_ms": (meter.get("top_gc_ms") or [None])[0],
                        # each collection of at least 1 ms in the largest turn: ms/gN/unreachable found
                        # (/objects walked)
                        "gc_in_max_turn": " ".join("/".join([f"{ms}", f"g{g}", f"{found}"] + ([f"{n}"] if n >= 0 else []))
                                                   for ms, g, found, n in (meter.get("top_gc") or [[]])[0])})
        if sample:
            periods = blocks.periods()
            longest = max(periods, key=lambda p: p[1], default=None)
            row["largest_piece_ms"] = round(longest[1], 1) if longest else 0
            row["largest_stack"] = longest[2][0][0][-160:] if longest else ""
        if label.startswith("TxnOffsetCommit"):  # (a commit the broker refused would measure nothing)
            row["committed"] = min(sum(p.error_code == 0 for t in a.topics for p in t.partitions) for a in answers)
            if row["committed"] != s.topics * min(s.partitions, s.entries // s.topics):
                raise RuntimeError(f"{b.name}: TxnOffsetCommit committed {row['committed']} partitions")
        rows.append(row)
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench hold")
    ap.add_argument("--brokers", default="odradek,kafka")
    ap.add_argument("--only", default="", help="comma-separated parts of API labels (spaces as _)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--topics", type=int, default=1000)
    ap.add_argument("--partitions", type=int, default=10)
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--groups", type=int, default=5000)
    ap.add_argument("--nice", type=int, default=0,
                    help="run the broker and the pinger at this nice value (e.g. -10, as root) on a loaded machine")
    ap.add_argument("--py-spy", action="store_true", help="also sample odradek with py-spy (bench/loop_blocks.py)")
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    s = Shape(args.topics, args.partitions, args.entries, args.groups)
    only = [o for o in args.only.split(",") if o]
    sample = args.py_spy and LoopBlocks.available()
    results: list[dict] = []
    for kind in args.brokers.split(","):
        with tempfile.TemporaryDirectory(prefix=f"hold-{kind}-") as d:
            b = MeteredOdradek(d) if kind == "odradek" else BROKERS[kind](d)
            b.start()
            try:
                print(f"{kind}: setup ...", file=sys.stderr, flush=True)
                t0 = time.monotonic()
                setup(b, s)
                print(f"{kind}: setup {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
                results += [{"broker": kind, **r} for r in run(b, s, only, args.reps, sample and kind == "odradek", args.nice)]
            finally:
                b.stop()
        if args.json:  # (what is done so far, should a later broker fail)
            with open(args.json, "w") as f:
                json.dump({"load_average": round(os.getloadavg()[0], 1), "cpus": os.cpu_count(), "rows": results}, f,
                          indent=1)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    print(table("largest legal requests", results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
