"""`odradek status`: what /health/ready says, asked over the Kafka protocol of any broker
(odradek's or Apache Kafka's): the cluster, its controller and brokers, and whether every
partition has a leader and its full ISR."""

from __future__ import annotations

import sys

from odradek.cli_format import add_format, emit, print_table
from odradek.cli_tools import _bootstrap, _client, _err


def add_subparsers(sub) -> None:
    p = sub.add_parser("status", help="is the cluster ready: its brokers, controller and partitions",
                       description="Ask a broker for the cluster (DescribeCluster) and every partition's "
                                   "leader and ISR (Metadata); print them and 'ready'. Exit 0 when the broker "
                                   "answers, 1 (one line) when it does not.")
    _bootstrap(p)
    p.add_argument("--bootstrap", dest="bootstrap_server", metavar="HOST:PORT[,...]", help="same as -b")
    add_format(p)
    p.set_defaults(func=status)


def status(args) -> int:
    from odradek.cli_tools import _metadata
    from odradek.wire.messages.describe_cluster_request import DescribeClusterRequest

    with _client(args) as c:
        dc = c.send(DescribeClusterRequest(include_cluster_authorized_operations=False), max_version=1)
        if dc.error_code:
            print(f"Error: {_err(dc.error_code, dc.error_message)}", file=sys.stderr)
            return 1
        md = _metadata(c, None)
    partitions = [p for t in md.topics for p in t.partitions]
    offline = sum(1 for p in partitions if p.leader_id < 0)
    under = sum(1 for p in partitions if len(p.isr_nodes) < len(p.replica_nodes))
    if args.format != "table":
        emit({"cluster_id": dc.cluster_id, "controller": dc.controller_id,
              "brokers": [{"id": b.broker_id, "host": b.host, "port": b.port, "rack": b.rack} for b in dc.brokers],
              "topics": len(md.topics), "partitions": len(partitions), "offline": offline,
              "under_replicated": under, "ready": True}, args.format, lambda: None)
        return 0
    print(f"cluster {dc.cluster_id}, controller {dc.controller_id}")
    print_table([[b.broker_id, f"{b.host}:{b.port}", b.rack or ""] for b in sorted(dc.brokers, key=lambda b: b.broker_id)],
                ["BROKER", "ENDPOINT", "RACK"])
    print(f"topics {len(md.topics)}, partitions {len(partitions)}, offline {offline}, under-replicated {under}")
    print("ready")
    return 0
