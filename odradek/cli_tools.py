"""`odradek topics|produce|consume|dump-log`: talk to a running broker over the Kafka protocol.

``add_subparsers(subparsers)`` is called by odradek/cli.py. Every command speaks the
wire protocol through odradek.broker.wire_client, so it works against Kafka too.
"""

from __future__ import annotations

import sys
import time
from contextlib import ExitStack

from odradek.cli_format import add_format, emit, print_table, progress

DEFAULT_BOOTSTRAP = "127.0.0.1:9092"


def add_subparsers(sub) -> None:
    t = sub.add_parser("topics", help="create, list, describe, delete topics and alter their configs")
    tsub = t.add_subparsers(dest="topics_command", metavar="ACTION")
    c = tsub.add_parser("create", help="create a topic")
    _bootstrap(c)
    c.add_argument("topic", help="the topic's name")
    c.add_argument("--partitions", type=int, default=-1,
                   help="number of partitions (-1: the broker's num.partitions)")
    c.add_argument("--replication-factor", type=int, default=-1,
                   help="replicas per partition (-1: the broker's default.replication.factor)")
    c.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                   help="a topic config, e.g. retention.ms=60000 (repeatable; default: the broker's)")
    c.set_defaults(func=topics_create)
    ls = tsub.add_parser("list", help="list topics")
    _bootstrap(ls)
    ls.add_argument("--include-internal", action="store_true",
                    help="also list internal topics (__consumer_offsets, ...)")
    add_format(ls)
    ls.set_defaults(func=topics_list)
    d = tsub.add_parser("describe", help="partitions and configs of topics")
    _bootstrap(d)
    d.add_argument("topics", nargs="*", help="topics to describe (default: all)")
    add_format(d)
    d.set_defaults(func=topics_describe)
    de = tsub.add_parser("delete", help="delete topics")
    _bootstrap(de)
    de.add_argument("topics", nargs="+", help="topics to delete")
    de.set_defaults(func=topics_delete)
    a = tsub.add_parser("alter-config", help="set or delete topic configs")
    _bootstrap(a)
    a.add_argument("topic", help="the topic whose configs change")
    a.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="set a config (repeatable)")
    a.add_argument("--delete", action="append", default=[], metavar="KEY",
                   help="remove a config override, back to the broker's default (repeatable)")
    a.set_defaults(func=topics_alter_config)
    t.set_defaults(func=lambda args: (t.print_help(), 2)[1])

    p = sub.add_parser("produce", help="send lines from stdin as records",
                       description="Send each line of stdin as a record. Partitions as Kafka's producers: by "
                                   "murmur2 of the key, keyless records sticky to a random partition per "
                                   "batch.size (16384) bytes; a missing topic is auto-created where the broker "
                                   "allows it.")
    _bootstrap(p)
    p.add_argument("topic", help="the topic to write to")
    p.add_argument("--partition", type=int, default=None,
                   help="write every record to this partition (default: Kafka's partitioner)")
    p.add_argument("--key-separator", metavar="SEP",
                   help="split each line into key and value at the first SEP (default: no key)")
    p.add_argument("--acks", type=int, default=-1, choices=(-1, 0, 1),
                   help="the producer's acks: -1 = all in-sync replicas, 1 = the leader, 0 = no answer")
    p.add_argument("--max-block-ms", type=int, default=60000,
                   help="how long to wait for the topic's metadata (the producer's max.block.ms)")
    p.set_defaults(func=produce)

    q = sub.add_parser("consume", help="print records of a topic")
    _bootstrap(q)
    q.add_argument("topic", help="the topic to read")
    q.add_argument("--from-beginning", action="store_true",
                   help="start at the earliest offset (default: the latest, or the group's committed offsets)")
    q.add_argument("--group", help="start at and commit to this group's offsets (default: no group)")
    q.add_argument("--max-messages", type=int, help="stop after this many records (default: no limit)")
    q.add_argument("--timeout-ms", type=int, default=None,
                   help="stop after this long without records (default: forever, 1000 with --max-messages)")
    q.add_argument("--print-key", action="store_true", help="print KEY<TAB>VALUE (default: the value only)")
    q.set_defaults(func=consume)

    dl = sub.add_parser("dump-log", help="print a log segment (.log), index (.index, .timeindex) or "
                                          "producer snapshot (.snapshot) file")
    dl.add_argument("path", help="the file to print")
    dl.add_argument("--print-records", action="store_true", help="also print each record of a .log file")
    dl.set_defaults(func=dump_log)


def _bootstrap(p) -> None:
    p.add_argument("--bootstrap-server", "-b", default=DEFAULT_BOOTSTRAP, metavar="HOST:PORT[,...]",
                   help="the broker(s) to connect to (Kafka's bootstrap.servers; default %(default)s)")


def _client(args):
    from odradek.cli_errors import connect

    return connect(args.bootstrap_server)


def _kv(items: list[str]) -> dict[str, str]:
    out = {}
    for it in items:
        k, sep, v = it.partition("=")
        if not sep:
            from odradek.cli_errors import CliError

            raise CliError(f"expected KEY=VALUE, got {it!r}", 2)
        out[k] = v
    return out


def _err(code: int, message: str | None = None) -> str:
    from odradek.cli_errors import kafka_error

    return kafka_error(code, message)


# ---------------------------------------------------------------------------- topics


def topics_create(args) -> int:
    from odradek.wire.messages.create_topics_request import (CreatableTopic, CreatableTopicConfig,
                                                             CreateTopicsRequest)

    req = CreateTopicsRequest(topics=[CreatableTopic(
        name=args.topic, num_partitions=args.partitions, replication_factor=args.replication_factor,
        configs=[CreatableTopicConfig(name=k, value=v) for k, v in _kv(args.config).items()])],
        timeout_ms=30000)
    with _client(args) as c:
        r = c.send(req).topics[0]
    if r.error_code:
        print(f"Error creating topic {args.topic}: {_err(r.error_code, r.error_message)}", file=sys.stderr)
        return 1
    print(f"Created topic {args.topic}.")
    return 0


def _metadata(c, topics: list[str] | None):
    from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

    req = MetadataRequest(topics=None if topics is None else [MetadataRequestTopic(name=t) for t in topics],
                          allow_auto_topic_creation=False)
    return c.send(req, max_version=12)


def topics_list(args) -> int:
    with _client(args) as c:
        md = _metadata(c, None)
    names = [t.name for t in sorted(md.topics, key=lambda t: t.name) if args.include_internal or not t.is_internal]
    emit(names, args.format, lambda: print("\n".join(names)) if names else None)
    return 0


def topics_describe(args) -> int:
    from odradek.wire.uuid import uuid_str
    from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource

    with _client(args) as c:
        md = _metadata(c, args.topics or None)
        names = [t.name for t in md.topics if t.error_code == 0]
        configs = {}
        if names:
            dc = c.send(DescribeConfigsRequest(resources=[
                DescribeConfigsResource(resource_type=2, resource_name=n, configuration_keys=None) for n in names]))
            configs = {r.resource_name: r for r in dc.results}
    rc = 0
    described = []
    for t in sorted(md.topics, key=lambda t: t.name):
        if t.error_code:
            print(f"Error: topic {t.name}: {_err(t.error_code)}", file=sys.stderr)
            rc = 1
            continue
        overrides = [f"{x.name}={x.value}" for x in configs[t.name].configs if x.config_source == 1] \
            if t.name in configs else []
        if args.format != "table":
            described.append({"topic": t.name, "topic_id": uuid_str(t.topic_id), "configs": dict(
                o.split("=", 1) for o in overrides), "partitions": [
                {"partition": p.partition_index, "leader": p.leader_id, "leader_epoch": p.leader_epoch,
                 "replicas": list(p.replica_nodes), "isr": list(p.isr_nodes)}
                for p in sorted(t.partitions, key=lambda p: p.partition_index)]})
            continue
        title = (f"Topic: {t.name}\tTopicId: {uuid_str(t.topic_id)}\tPartitionCount: {len(t.partitions)}\t"
                 f"ReplicationFactor: {len(t.partitions[0].replica_nodes) if t.partitions else 0}\t"
                 f"Configs: {','.join(overrides)}")
        rows = [[p.partition_index, p.leader_id, p.leader_epoch, ",".join(map(str, p.replica_nodes)),
                 ",".join(map(str, p.isr_nodes))] for p in sorted(t.partitions, key=lambda p: p.partition_index)]
        print_table(rows, ["PARTITION", "LEADER", "EPOCH", "REPLICAS", "ISR"], title=title)
    if args.format != "table":
        emit(described, args.format, lambda: None)
    return rc


def topics_delete(args) -> int:
    from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest

    with _client(args) as c:
        r = c.send(DeleteTopicsRequest(topic_names=list(args.topics), timeout_ms=30000), max_version=5)
    rc = 0
    for x in r.responses:
        if x.error_code:
            print(f"Error deleting topic {x.name}: {_err(x.error_code, x.error_message)}", file=sys.stderr)
            rc = 1
        else:
            print(f"Deleted topic {x.name}.")
    return rc


def topics_alter_config(args) -> int:
    from odradek.wire.messages import incremental_alter_configs_request as iac

    ops = [iac.AlterableConfig(name=k, config_operation=0, value=v) for k, v in _kv(args.set).items()]
    ops += [iac.AlterableConfig(name=k, config_operation=1, value=None) for k in args.delete]
    if not ops:
        print("nothing to change: give --set KEY=VALUE or --delete KEY", file=sys.stderr)
        return 2
    with _client(args) as c:
        r = c.send(iac.IncrementalAlterConfigsRequest(resources=[iac.AlterConfigsResource(
            resource_type=2, resource_name=args.topic, configs=ops)])).responses[0]
    if r.error_code:
        print(f"Error altering {args.topic}: {_err(r.error_code, r.error_message)}", file=sys.stderr)
        return 1
    print(f"Altered configs of topic {args.topic}.")
    return 0


# ---------------------------------------------------------------------------- produce / consume


def produce(args) -> int:
    from odradek.cli_partitioner import StickyPartitioner
    from odradek.cli_routing import Leaders

    with _client(args) as c:
        md = _producer_metadata(c, args.topic, args.max_block_ms)
        count = len(md.topics[0].partitions)
        leaders = Leaders(c, md, args.topic)
        if args.partition is not None and not 0 <= args.partition < count:
            print(f"Invalid partition given with record: {args.partition} is not in the range "
                  f"[0...{count}).", file=sys.stderr)
            return 1
        sticky = StickyPartitioner(count)
        # bytes as they come (a key's bytes decide its partition), lines split at \n
        key_sep = args.key_separator.encode() if args.key_separator else None
        size = _input_size(sys.stdin)  # a file given as stdin: the bar's total
        with progress(f"produce {args.topic}", size, by_bytes=True) as bar:
            failed = _produce_lines(args, leaders, sticky, count, key_sep, bar)
        leaders.close()
    return 1 if failed else 0


def _input_size(stream) -> int | None:
    """The size of a regular file read as ``stream`` (None: a pipe or a terminal: no total)."""
    import os
    import stat

    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) and not stream.isatty() else None


def _produce_lines(args, leaders, sticky, count: int, key_sep: bytes | None, bar) -> int:
    """Send stdin's lines in batches of 500; 1 if a partition failed."""
    from odradek.cli_partitioner import partition_for_key

    batch: dict[int, list] = {}
    n = nbytes = 0
    for line in sys.stdin.buffer:
        nbytes += len(line)
        value = line[:-1] if line.endswith(b"\n") else line
        key = None
        if key_sep and key_sep in value:
            key, value = value.split(key_sep, 1)
        if args.partition is not None:
            p = args.partition
        elif key is not None:
            p = partition_for_key(key, count)
        else:
            p = sticky.partition(len(value))
        batch.setdefault(p, []).append((key, value))
        n += 1
        if n >= 500:
            if _send(leaders, args, batch):
                return 1
            bar.advance(n, nbytes)
            batch, n, nbytes = {}, 0, 0
    failed = 1 if batch and _send(leaders, args, batch) else 0
    bar.advance(n, nbytes)
    return failed


def _producer_metadata(c, topic: str, max_block_ms: int):
    """The topic's metadata (partitions, leaders), as a Kafka producer learns it: Metadata with
    allow_auto_topic_creation (the broker creates a missing topic if it allows), retried
    while the topic is not there yet, up to max.block.ms."""
    from odradek.cli_errors import CliError, kafka_error
    from odradek.wire.errors import ErrorCode
    from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

    deadline = time.monotonic() + max_block_ms / 1000
    while True:
        md = c.send(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=True),
                    max_version=12)
        t = md.topics[0]
        if t.error_code == ErrorCode.INVALID_TOPIC_EXCEPTION:
            # the Java producer: InvalidTopicException("Invalid topics: [name]")
            raise CliError(f"Error when sending message to topic {topic}: "
                           + kafka_error(t.error_code, f"Invalid topics: [{topic}]"))
        if t.error_code == 0 and t.partitions:
            return md
        if t.error_code and not ErrorCode.from_code(t.error_code).retriable:
            raise CliError(f"Error when sending message to topic {topic}: {kafka_error(t.error_code)}")
        if time.monotonic() >= deadline:
            raise CliError(f"Topic {topic} not present in metadata after {max_block_ms} ms.")
        time.sleep(0.1)


def _send(leaders, args, batch: dict[int, list]) -> int:
    """One Produce request per leader for the partitions it leads; 1 if a partition failed."""
    from odradek.cli_errors import kafka_error
    from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from odradek.wire.records import build_batch

    now = int(time.time() * 1000)
    failed = 0
    for c, parts in leaders.group(batch):
        req = ProduceRequest(acks=args.acks, timeout_ms=30000, topic_data=[TopicProduceData(
            name=args.topic, partition_data=[
                PartitionProduceData(index=p, records=build_batch([(k, v, (), now) for k, v in batch[p]]))
                for p in parts])])
        if args.acks == 0:
            from odradek.wire.api import encode_request

            c._sock.sendall(encode_request(req, c.version_for(ProduceRequest, 8), 0, c.client_id))
            continue
        r = c.send(req, max_version=8)
        for p in r.responses[0].partition_responses:
            if p.error_code:
                print(f"Error when sending message to topic {args.topic} partition {p.index}: "
                      f"{kafka_error(p.error_code, p.error_message)}", file=sys.stderr)
                failed = 1
    return failed


def _list_offsets(leaders, topic: str, partitions: list[int], ts: int) -> dict[int, int]:
    from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic

    out = {}
    for c, parts in leaders.group(partitions):
        r = c.send(ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(name=topic, partitions=[
            ListOffsetsPartition(partition_index=p, timestamp=ts) for p in parts])]), max_version=7)
        out.update({p.partition_index: p.offset for p in r.topics[0].partitions})
    return out


def _fetch_error(topic: str, pd) -> None:
    """A retriable error (a leader moving) is fetched again; another one ends the consumer."""
    from odradek.cli_errors import CliError
    from odradek.wire.errors import ErrorCode

    if not ErrorCode.from_code(pd.error_code).retriable:
        raise CliError(f"Error fetching {topic}-{pd.partition_index}: {_err(pd.error_code)}")


def consume(args) -> int:
    from odradek.broker.wire_client import WireClientError
    from odradek.cli_errors import CliError
    from odradek.cli_group_offsets import GroupOffsets, GroupOffsetsError
    from odradek.cli_routing import Leaders
    from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
    from odradek.wire.records import iter_batches

    timeout_ms = args.timeout_ms
    if timeout_ms is None and args.max_messages is not None:
        timeout_ms = 1000
    with _client(args) as c:
        md = _metadata(c, [args.topic])
        t = md.topics[0]
        if t.error_code:
            print(f"Error: topic {args.topic}: {_err(t.error_code)}", file=sys.stderr)
            return 1
        parts = sorted(p.partition_index for p in t.partitions)
        leaders = Leaders(c, md, args.topic)
        start = _list_offsets(leaders, args.topic, parts, -2 if args.from_beginning else -1)
        group = GroupOffsets(c, args.group) if args.group else None
        if group is not None:
            try:
                start.update(group.committed(args.topic, parts))
            except GroupOffsetsError as e:
                group.close()
                print(f"Error: {e}", file=sys.stderr)
                return 1
        pos = dict(start)
        count = shown = 0
        idle_since = time.monotonic()
        bars = ExitStack()  # the progress bar (a terminal's stderr only) goes before the summary line
        bar = bars.enter_context(progress(f"consume {args.topic}", args.max_messages))
        try:
            routes = leaders.group(parts)
            wait_ms = max(500 // len(routes), 1)
            while args.max_messages is None or count < args.max_messages:
                responses = []
                for lc, lparts in routes:
                    fetch = FetchRequest(replica_id=-1, max_wait_ms=wait_ms, min_bytes=1, max_bytes=4 << 20, topics=[
                        FetchTopic(topic=args.topic, partitions=[
                            FetchPartition(partition=p, fetch_offset=pos[p], partition_max_bytes=1 << 20)
                            for p in lparts])])
                    try:
                        responses += lc.send(fetch, max_version=12).responses
                    except (WireClientError, OSError) as e:  # the broker went away (not stdout: see cli.main)
                        raise CliError(f"Connection to {lc.host}:{lc.port} lost after {count} messages: {e}") from e
                got = backoff = False
                for ft in responses:
                    for pd in ft.partitions:
                        if pd.error_code == 1:  # OFFSET_OUT_OF_RANGE: restart at the log start
                            pos[pd.partition_index] = _list_offsets(leaders, args.topic, [pd.partition_index],
                                                                    -2)[pd.partition_index]
                            continue
                        if pd.error_code:
                            _fetch_error(args.topic, pd)
                            backoff = True
                            continue
                        if not pd.records:
                            continue
                        for h, recs in iter_batches(bytes(pd.records)):
                            if h.is_control:
                                pos[pd.partition_index] = max(pos[pd.partition_index], h.next_offset)
                                continue
                            for rec in recs:
                                off = rec.offset(h)
                                if off < pos[pd.partition_index]:
                                    continue
                                value = "null" if rec.value is None else rec.value.decode("utf-8", "replace")
                                if args.print_key:
                                    key = "null" if rec.key is None else rec.key.decode("utf-8", "replace")
                                    print(f"{key}\t{value}")
                                else:
                                    print(value)
                                pos[pd.partition_index] = off + 1
                                count += 1
                                got = True
                                if args.max_messages is not None and count >= args.max_messages:
                                    break
                            if args.max_messages is not None and count >= args.max_messages:
                                break
                sys.stdout.flush()
                if count > shown:
                    bar.advance(count - shown)
                    shown = count
                if backoff and not got:
                    time.sleep(0.1)  # retry.backoff.ms
                if got:
                    idle_since = time.monotonic()
                elif timeout_ms is not None and (time.monotonic() - idle_since) * 1000 >= timeout_ms:
                    break
        except KeyboardInterrupt:
            pass
        finally:
            bars.close()
            failed = None
            if group is not None:
                moved = {p: o for p, o in pos.items() if o != start.get(p)}
                try:
                    if moved:
                        group.commit(args.topic, moved)
                except (GroupOffsetsError, WireClientError, OSError) as e:
                    failed = e
                group.close()
            leaders.close()
    print(f"Processed a total of {count} messages", file=sys.stderr)
    if failed is not None:
        print(f"Error: {failed}", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------------------- dump-log


def dump_log(args) -> int:
    if not args.path.endswith(".log"):
        # .index, .timeindex, .snapshot: the log package's reader, in kafka-dump-log's layout
        from odradek.log.dump_log import dump

        try:
            for line in dump(args.path):
                print(line)
        except (OSError, ValueError) as e:
            print(f"odradek dump-log: cannot read {args.path}: {e}", file=sys.stderr)
            return 1
        return 0
    with open(args.path, "rb") as f:
        data = f.read()
    metadata = "__cluster_metadata" in args.path
    print(f"Dumping {args.path}")
    with progress(f"dump {args.path.rsplit('/', 1)[-1]}", len(data), unit="batches", by_bytes=True) as bar:
        return _dump_batches(args, data, metadata, bar)


def _dump_batches(args, data: bytes, metadata: bool, bar) -> int:
    from odradek.wire.exceptions import WireError
    from odradek.wire.records import LOG_OVERHEAD, decode_records, read_batch_header

    pos = 0
    while pos < len(data):
        try:
            h = read_batch_header(data, pos)
            header, records = decode_records(data, pos)
        except WireError as e:
            print(f"Found invalid or truncated data at position {pos}: {e}")
            return 1
        print(f"baseOffset: {h.base_offset} lastOffset: {h.last_offset} count: {h.records_count} "
              f"baseSequence: {h.base_sequence} lastSequence: {h.last_sequence} producerId: {h.producer_id} "
              f"producerEpoch: {h.producer_epoch} partitionLeaderEpoch: {h.partition_leader_epoch} "
              f"isTransactional: {str(h.is_transactional).lower()} isControl: {str(h.is_control).lower()} "
              f"position: {pos} CreateTime: {h.max_timestamp} size: {h.batch_length + LOG_OVERHEAD} "
              f"magic: {h.magic} compresscodec: {_codec(h.compression)} crc: {h.crc} isvalid: true")
        if args.print_records:
            for r in records:
                line = f"| offset: {r.offset(h)} CreateTime: {r.timestamp(h)} keySize: " \
                       f"{-1 if r.key is None else len(r.key)} valueSize: {-1 if r.value is None else len(r.value)}"
                if metadata and r.value is not None:
                    line += " payload: " + _metadata_payload(r.value)
                else:
                    if r.headers:
                        line += " headers: " + ",".join(f"{k}:{v!r}" for k, v in r.headers)
                    if r.key is not None:
                        line += f" key: {r.key.decode('utf-8', 'replace')}"
                    if r.value is not None:
                        line += f" payload: {r.value.decode('utf-8', 'replace')}"
                print(line)
        pos += h.batch_length + LOG_OVERHEAD
        bar.advance(1, h.batch_length + LOG_OVERHEAD)
    return 0


def _codec(c: int) -> str:
    return {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}.get(c, str(c))


def _metadata_payload(value: bytes) -> str:
    from odradek.controller.records import decode_record

    try:
        rec, version = decode_record(value)
    except Exception as e:  # noqa: BLE001 - a dump shows what it cannot parse
        return f"<undecodable: {e}>"
    d = {k: (v.hex() if isinstance(v, bytes) else v) for k, v in rec.to_dict().items()}
    return f'{{"type":"{type(rec).__name__}","version":{version},"data":{d}}}'
