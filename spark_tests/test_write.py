"""df.write / writeStream .format("kafka"): Spark's Java producer (idempotent by
default) writes to the broker; read back exactly, no duplicates across a restart."""

from __future__ import annotations


def test_batch_write_read_back_exactly(spark, bootstrap, kafka, topic_name):
    from pyspark.sql.types import (ArrayType, BinaryType, IntegerType, StringType, StructField, StructType)

    topic = kafka.create_topic(topic_name, 3)
    schema = StructType([
        StructField("key", BinaryType()), StructField("value", BinaryType()),
        StructField("partition", IntegerType()),
        StructField("headers", ArrayType(StructType([StructField("key", StringType()),
                                                     StructField("value", BinaryType())]))),
    ])
    rows = []
    for i in range(300):
        headers = [("n", str(i).encode()), ("n", b"twice")] if i % 2 else [("nil", None)]
        rows.append((None if i % 10 == 0 else f"k{i}".encode(), f"value-{i}".encode() + b"\x00\xff",
                     i % 3, headers))
    df = spark.createDataFrame(rows, schema).coalesce(1)    # one writer: per-partition order is the row order
    df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", topic).save()

    got = kafka.consume_all(topic, 3, len(rows))
    assert len(got) == len(rows)
    for p in range(3):
        exp = [r for r in rows if r[2] == p]
        act = sorted((m for m in got if m.partition() == p), key=lambda m: m.offset())
        assert [m.offset() for m in act] == list(range(len(exp)))
        assert [(m.key(), m.value(), m.headers()) for m in act] == [(k, v, h) for (k, v, _, h) in exp]


def test_batch_write_topic_column(spark, bootstrap, kafka, topic_name):
    a = kafka.create_topic(topic_name + "-a", 1)
    b = kafka.create_topic(topic_name + "-b", 1)
    df = spark.createDataFrame([(a if i % 2 else b, f"v{i}") for i in range(20)], "topic STRING, value STRING")
    df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).save()
    assert sorted(m.value() for m in kafka.consume_all(a, 1, 10)) == sorted(f"v{i}".encode() for i in range(1, 20, 2))
    assert sorted(m.value() for m in kafka.consume_all(b, 1, 10)) == sorted(f"v{i}".encode() for i in range(0, 20, 2))


def test_write_stream_kafka_to_kafka_restart(spark, bootstrap, kafka, topic_name, tmp_path):
    src = kafka.create_topic(topic_name + "-src", 3)
    dst = kafka.create_topic(topic_name + "-dst", 2)
    ckpt = str(tmp_path / "ckpt")

    def start():
        df = (spark.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap)
              .option("subscribe", src).option("startingOffsets", "earliest").option("includeHeaders", "true").load())
        out = df.selectExpr("key", "upper(CAST(value AS STRING)) AS value", "headers",
                            "CAST(pmod(hash(key), 2) AS INT) AS partition")
        return (out.writeStream.format("kafka").option("kafka.bootstrap.servers", bootstrap)
                .option("topic", dst).option("checkpointLocation", ckpt)
                .trigger(processingTime="200 milliseconds").start())

    def batch(lo, hi):
        return [{"partition": i % 3, "key": f"k{i}".encode(), "value": f"click-{i}".encode(),
                 "headers": [("src", str(i).encode())]} for i in range(lo, hi)]

    kafka.produce(src, batch(0, 60))
    q = start()
    try:
        q.processAllAvailable()
        kafka.produce(src, batch(60, 90))
        q.processAllAvailable()
    finally:
        q.stop()
    assert q.exception() is None
    kafka.produce(src, batch(90, 120))
    q = start()
    try:
        q.processAllAvailable()
    finally:
        q.stop()
    assert q.exception() is None

    got = kafka.consume_all(dst, 2, 120)
    values = sorted(m.value() for m in got)
    assert len(values) == 120, f"{len(values)} records: duplicates or losses"
    assert values == sorted(f"CLICK-{i}".encode() for i in range(120))
    for m in got:
        i = int(m.value().split(b"-")[1])
        assert m.key() == f"k{i}".encode()
        assert m.headers() == [("src", str(i).encode())]
    # Spark's producer is idempotent: per-partition offsets are dense, no gaps from retries
    for p in range(2):
        offs = sorted(m.offset() for m in got if m.partition() == p)
        assert offs == list(range(len(offs)))
