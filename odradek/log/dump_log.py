"""`odradek dump-log PATH`: print a segment, index or snapshot file like
kafka-dump-log.sh. dump() yields lines; main(argv) prints them."""
from __future__ import annotations

import argparse
import sys
from typing import Iterator

from odradek.wire import records
from odradek.wire.exceptions import WireError

from .fs import FileSystem, RealFileSystem, read_whole
from .index import OffsetIndex, TimeIndex
from .producer_state import ProducerStateTable, read_snapshot_entries

_CODECS = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}


def _b(x: bool) -> str:
    return "true" if x else "false"


def _fmt_bytes(b: bytes | None) -> str:
    if b is None:
        return "null"
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.hex()


def dump(path: str, print_records: bool = False, fs: FileSystem | None = None) -> Iterator[str]:
    fs = fs or RealFileSystem()
    yield f"Dumping {path}"
    name = path.rsplit("/", 1)[-1]
    stem = name.split(".", 1)[0]
    base = int(stem) if stem.isdigit() else 0
    if name.endswith(".log") or name.endswith(".log.cleaned"):
        yield from _dump_log(fs, path, base, print_records)
    elif name.endswith(".index"):
        idx = OffsetIndex(fs, path, base, 1 << 31)
        idx.load()
        for off, pos in zip(idx.keys, idx.values):
            yield f"offset: {off} position: {pos}"
    elif name.endswith(".timeindex"):
        idx = TimeIndex(fs, path, base, 1 << 31)
        idx.load()
        for ts, off in zip(idx.keys, idx.values):
            yield f"timestamp: {ts} offset: {off}"
    elif name.endswith(".snapshot"):
        # Kafka's DumpLogSegments layout, from the same file format
        data = read_whole(fs, path)
        try:
            entries = read_snapshot_entries(data)
        except ValueError as e:
            if "checksum" in str(e) or "version" in str(e):
                raise
            entries = read_snapshot_entries(ProducerStateTable.from_bytes(data).to_bytes())  # older layout
        for ke in entries:
            txn = "OptionalLong.empty" if ke.current_txn_first_offset < 0 \
                else f"OptionalLong[{ke.current_txn_first_offset}]"
            line = (f"producerId: {ke.producer_id} producerEpoch: {ke.epoch} coordinatorEpoch: "
                    f"{ke.coordinator_epoch} currentTxnFirstOffset: {txn} lastTimestamp: {ke.timestamp} ")
            if ke.last_sequence >= 0:
                first_seq = ke.last_sequence - ke.offset_delta
                line += (f"firstSequence: {first_seq if first_seq >= 0 else first_seq + 2**31} "
                         f"lastSequence: {ke.last_sequence} lastOffset: {ke.last_offset} "
                         f"offsetDelta: {ke.offset_delta} timestamp: {ke.timestamp}")
            yield line
    else:
        yield f"Ignoring unknown file {path}"


def _dump_log(fs: FileSystem, path: str, base: int, print_records: bool) -> Iterator[str]:
    yield f"Log starting offset: {base}"
    f = fs.open(path)
    try:
        size = f.size()
        pos = 0
        while pos < size:
            head = f.read(pos, records.BATCH_HEADER_SIZE)
            try:
                h = records.read_batch_header(head, 0)
            except WireError as e:
                yield f"Found {size - pos} invalid bytes at position {pos}: {e}"
                return
            data = f.read(pos, h.size_in_bytes)
            if len(data) < h.size_in_bytes:
                yield f"Found a partial batch of {len(data)}/{h.size_in_bytes} bytes at position {pos}"
                return
            try:
                records.validate_batch(data, 0)
                valid = True
            except WireError:
                valid = False
            ts_name = "LogAppendTime" if h.timestamp_type == 1 else "CreateTime"
            yield (f"baseOffset: {h.base_offset} lastOffset: {h.last_offset} count: {h.records_count} "
                   f"baseSequence: {h.base_sequence} lastSequence: {h.last_sequence} "
                   f"producerId: {h.producer_id} producerEpoch: {h.producer_epoch} "
                   f"partitionLeaderEpoch: {h.partition_leader_epoch} "
                   f"isTransactional: {_b(h.is_transactional)} isControl: {_b(h.is_control)} "
                   f"deleteHorizonMs: {h.delete_horizon_ms if h.has_delete_horizon else 'OptionalLong.empty'} "
                   f"position: {pos} {ts_name}: {h.max_timestamp} size: {h.size_in_bytes} "
                   f"magic: {h.magic} compresscodec: {_CODECS.get(h.compression, h.compression)} "
                   f"crc: {h.crc} isvalid: {_b(valid)}")
            if print_records and valid:
                try:
                    _, recs = records.decode_records(data, 0)
                except WireError as e:
                    yield f"| cannot decode records: {e}"
                    recs = []
                for r in recs:
                    line = (f"| offset: {r.offset(h)} {ts_name}: {r.timestamp(h)} "
                            f"keySize: {-1 if r.key is None else len(r.key)} "
                            f"valueSize: {-1 if r.value is None else len(r.value)} "
                            f"sequence: {-1 if h.base_sequence < 0 else h.base_sequence + r.offset_delta} "
                            f"headerKeys: [{','.join(k if isinstance(k, str) else k.decode() for k, _ in r.headers)}]")
                    if not h.is_control:
                        line += f" key: {_fmt_bytes(r.key)} payload: {_fmt_bytes(r.value)}"
                    yield line
            pos += h.size_in_bytes
    finally:
        f.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="odradek dump-log",
                                 description="Print the batches of log segment, index or snapshot files.")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--print-data-log", "--records", dest="records", action="store_true",
                    help="also print every record (key and value)")
    args = ap.parse_args(argv)
    for path in args.files:
        for line in dump(path, args.records):
            sys.stdout.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
