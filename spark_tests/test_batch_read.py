"""spark.read.format("kafka"): subscribe / subscribePattern / assign, offsets as
earliest / latest / JSON / timestamps, every column exactly as produced, minPartitions."""

from __future__ import annotations

import json
import time

import pytest

BASE_TS = 1_700_000_000_000   # fixed CreateTime timestamps, one second apart


def make_records(n: int, partitions: int, tag: str = "v") -> list[dict]:
    out = []
    for i in range(n):
        headers = [("i", str(i).encode()), ("tag", tag.encode())]
        if i % 3 == 0:
            headers.append(("i", b"again"))     # repeated keys keep their order
        if i % 4 == 0:
            headers.append(("empty", None))      # a header without a value
        if i % 5 == 0:
            headers = None                       # no headers at all
        out.append({
            "partition": i % partitions,
            "key": None if i % 7 == 0 else f"k{i}".encode(),
            "value": None if i % 11 == 0 else f"{tag}-{i}".encode() + bytes([0, 255, i % 256]),
            "headers": headers,
            "timestamp": BASE_TS + i * 1000,
        })
    return out


def expected_rows(topic: str, records: list[dict]) -> list[tuple]:
    """(topic, partition, offset, key, value, ts, headers) in partition/offset order."""
    next_off: dict[int, int] = {}
    rows = []
    for r in records:
        p = r["partition"]
        off = next_off.get(p, 0)
        next_off[p] = off + 1
        hdrs = None if not r["headers"] else [(k, v) for k, v in r["headers"]]
        rows.append((topic, p, off, r["key"], r["value"], r["timestamp"], hdrs))
    return sorted(rows, key=lambda x: (x[0], x[1], x[2]))


def read(spark, bootstrap: str, **options):
    reader = spark.read.format("kafka").option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def collect(df) -> list[tuple]:
    rows = df.selectExpr("topic", "partition", "offset", "key", "value", "unix_millis(timestamp) AS ts",
                         "timestampType", "headers").collect()
    out = []
    for r in rows:
        assert r.timestampType == 0, "CreateTime expected"
        hdrs = None if r.headers is None else [(h.key, None if h.value is None else bytes(h.value)) for h in r.headers]
        out.append((r.topic, r.partition, r.offset, None if r.key is None else bytes(r.key),
                    None if r.value is None else bytes(r.value), r.ts, hdrs))
    return sorted(out, key=lambda x: (x[0], x[1], x[2]))


@pytest.fixture(scope="module")
def three_partitions(kafka):
    """A 3-partition topic with 60 records, produced once for the module."""
    topic = kafka.create_topic(f"spark-batch-{time.time_ns() % 10**9}", 3)
    records = make_records(60, 3)
    kafka.produce(topic, records)
    return topic, records


def test_subscribe_all_columns_exactly(spark, bootstrap, three_partitions):
    topic, records = three_partitions
    df = read(spark, bootstrap, subscribe=topic, includeHeaders="true")
    assert [f.name for f in df.schema.fields] == ["key", "value", "topic", "partition", "offset", "timestamp",
                                                  "timestampType", "headers"]
    assert collect(df) == expected_rows(topic, records)


def test_without_headers_column(spark, bootstrap, three_partitions):
    topic, records = three_partitions
    df = read(spark, bootstrap, subscribe=topic)
    assert "headers" not in df.columns
    assert df.count() == len(records)


def test_subscribe_pattern(spark, bootstrap, kafka, topic_name):
    a = kafka.create_topic(topic_name + "-a", 2)
    b = kafka.create_topic(topic_name + "-b", 1)
    other = kafka.create_topic("other-" + topic_name, 1)
    kafka.produce(a, make_records(10, 2, "a"))
    kafka.produce(b, make_records(5, 1, "b"))
    kafka.produce(other, make_records(3, 1, "o"))
    df = read(spark, bootstrap, subscribePattern=topic_name.replace("-", "\\-") + "-.*")
    counts = {r.topic: r["count"] for r in df.groupBy("topic").count().collect()}
    assert counts == {a: 10, b: 5}


def test_assign_some_partitions(spark, bootstrap, three_partitions):
    topic, records = three_partitions
    df = read(spark, bootstrap, assign=json.dumps({topic: [0, 2]}), includeHeaders="true")
    exp = [r for r in expected_rows(topic, records) if r[1] in (0, 2)]
    assert collect(df) == exp


def test_json_starting_and_ending_offsets(spark, bootstrap, three_partitions):
    topic, records = three_partitions
    start = {topic: {"0": 3, "1": -2, "2": 19}}     # -2 = earliest
    end = {topic: {"0": 8, "1": -1, "2": 20}}       # -1 = latest
    df = read(spark, bootstrap, subscribe=topic, includeHeaders="true",
              startingOffsets=json.dumps(start), endingOffsets=json.dumps(end))
    exp = [r for r in expected_rows(topic, records)
           if (r[1] == 0 and 3 <= r[2] < 8) or r[1] == 1 or (r[1] == 2 and r[2] == 19)]
    assert collect(df) == exp


def test_earliest_latest(spark, bootstrap, kafka, topic_name):
    topic = kafka.create_topic(topic_name, 2)
    kafka.produce(topic, make_records(10, 2))
    assert read(spark, bootstrap, subscribe=topic).count() == 10     # batch defaults: earliest..latest
    assert read(spark, bootstrap, subscribe=topic, startingOffsets="earliest", endingOffsets="latest").count() == 10
    # latest is read when the query runs: records produced later are included
    kafka.produce(topic, [{"partition": 1, "value": b"late"}])
    late = read(spark, bootstrap, subscribe=topic, startingOffsets=json.dumps({topic: {"0": 5, "1": 5}}))
    assert [bytes(r.value) for r in late.collect()] == [b"late"]


def test_offsets_by_timestamp(spark, bootstrap, three_partitions):
    topic, records = three_partitions
    # record i has timestamp BASE_TS + i*1000 and sits in partition i % 3
    df = read(spark, bootstrap, subscribe=topic, includeHeaders="true",
              startingTimestamp=str(BASE_TS + 30_500), endingTimestamp=str(BASE_TS + 45_000))
    exp = [r for r in expected_rows(topic, records) if BASE_TS + 30_500 <= r[5] < BASE_TS + 45_000]
    assert collect(df) == exp

    # per partition; a timestamp past the end means latest for the ending side
    start = {topic: {"0": BASE_TS, "1": BASE_TS + 50_000, "2": BASE_TS + 10_000}}
    end = {topic: {"0": BASE_TS + 6_000, "1": BASE_TS + 10**9, "2": BASE_TS + 20_000}}
    df = read(spark, bootstrap, subscribe=topic, includeHeaders="true",
              startingOffsetsByTimestamp=json.dumps(start), endingOffsetsByTimestamp=json.dumps(end))
    lo = {0: BASE_TS, 1: BASE_TS + 50_000, 2: BASE_TS + 10_000}
    hi = {0: BASE_TS + 6_000, 1: float("inf"), 2: BASE_TS + 20_000}
    exp = [r for r in expected_rows(topic, records) if lo[r[1]] <= r[5] < hi[r[1]]]
    assert collect(df) == exp


def test_min_partitions(spark, bootstrap, three_partitions):
    topic, records = three_partitions
    df = read(spark, bootstrap, subscribe=topic, minPartitions="6")
    assert df.rdd.getNumPartitions() >= 6   # Spark splits the offset ranges in proportion to their size
    assert df.count() == len(records)
    offsets = sorted((r.partition, r.offset) for r in df.select("partition", "offset").collect())
    assert offsets == sorted((p, o) for p in range(3) for o in range(20))


def test_batch_read_after_delete_records(spark, bootstrap, kafka, topic_name):
    """earliest starts at the log start offset; explicit offsets below it fail when failOnDataLoss."""
    topic = kafka.create_topic(topic_name, 1)
    kafka.produce(topic, make_records(20, 1))
    kafka.delete_records(topic, {0: 12})
    df = read(spark, bootstrap, subscribe=topic)
    assert sorted(r.offset for r in df.select("offset").collect()) == list(range(12, 20))

    below = json.dumps({topic: {"0": 5}})
    lossy = read(spark, bootstrap, subscribe=topic, startingOffsets=below, failOnDataLoss="false")
    assert sorted(r.offset for r in lossy.select("offset").collect()) == list(range(12, 20))
    with pytest.raises(Exception, match="(?i)data (may have been|was) lost|out of range|OffsetOutOfRange"):
        read(spark, bootstrap, subscribe=topic, startingOffsets=below, failOnDataLoss="true").collect()
