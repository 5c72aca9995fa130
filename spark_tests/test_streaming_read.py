"""spark.readStream.format("kafka"): checkpointed restarts without loss or duplicates,
maxOffsetsPerTrigger, minPartitions, failOnDataLoss after DeleteRecords."""

from __future__ import annotations

import pytest


def stream(spark, bootstrap: str, **options):
    reader = spark.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def produce_round(kafka, topics: list[str], partitions: int, start: int, n: int) -> set[tuple]:
    """n records per topic, round-robin over partitions; returns {(topic, value)}."""
    sent = set()
    for t in topics:
        recs = [{"partition": i % partitions, "key": f"k{i}".encode(), "value": f"{t}:{i}".encode()}
                for i in range(start, start + n)]
        kafka.produce(t, recs)
        sent |= {(t, r["value"].decode()) for r in recs}
    return sent


def test_checkpointed_restart_no_loss_no_duplicates(spark, bootstrap, kafka, topic_name, tmp_path):
    topics = [kafka.create_topic(f"{topic_name}-{x}", 3) for x in "ab"]
    out, ckpt = str(tmp_path / "out"), str(tmp_path / "checkpoint")

    def start():
        df = stream(spark, bootstrap, subscribe=",".join(topics), startingOffsets="earliest")
        return (df.selectExpr("topic", "partition", "offset", "CAST(key AS STRING) AS k", "CAST(value AS STRING) AS v")
                .writeStream.format("parquet").option("path", out).option("checkpointLocation", ckpt)
                .trigger(processingTime="200 milliseconds").start())

    sent = produce_round(kafka, topics, 3, 0, 30)
    q = start()
    try:
        q.processAllAvailable()
        sent |= produce_round(kafka, topics, 3, 30, 30)     # while the query runs
        q.processAllAvailable()
    finally:
        q.stop()
    assert q.exception() is None
    first = spark.read.parquet(out).count()
    assert first == 120

    sent |= produce_round(kafka, topics, 3, 60, 30)         # while it is stopped
    q = start()
    try:
        q.processAllAvailable()
    finally:
        q.stop()
    assert q.exception() is None

    rows = spark.read.parquet(out).collect()
    keys = [(r.topic, r.partition, r.offset) for r in rows]
    assert len(keys) == len(set(keys)) == 180, "duplicates or losses across the restart"
    assert {(r.topic, r.v) for r in rows} == sent
    for t in topics:
        for p in range(3):
            assert sorted(o for (tt, pp, o) in keys if tt == t and pp == p) == list(range(30))


def test_max_offsets_per_trigger_and_min_partitions(spark, bootstrap, kafka, topic_name, tmp_path):
    topic = kafka.create_topic(topic_name, 3)
    produce_round(kafka, [topic], 3, 0, 90)
    batches = []

    def record(df, batch_id):
        batches.append((batch_id, df.rdd.getNumPartitions(), df.count()))

    df = stream(spark, bootstrap, subscribe=topic, startingOffsets="earliest", maxOffsetsPerTrigger="30",
                minPartitions="6")
    q = (df.writeStream.foreachBatch(record).option("checkpointLocation", str(tmp_path / "ckpt"))
         .trigger(availableNow=True).start())
    q.awaitTermination(120)
    assert q.exception() is None
    counts = [c for (_, _, c) in batches if c]
    assert sum(counts) == 90
    assert all(c <= 30 for c in counts), batches
    assert len(counts) >= 3, batches
    assert all(n >= 6 for (_, n, c) in batches if c == 30), f"minPartitions not honoured: {batches}"


def _run_until_idle(spark, bootstrap, topic, out, ckpt, fail_on_data_loss: bool):
    df = stream(spark, bootstrap, subscribe=topic, startingOffsets="earliest",
                failOnDataLoss=str(fail_on_data_loss).lower())
    q = (df.selectExpr("offset").writeStream.format("parquet").option("path", out)
         .option("checkpointLocation", ckpt).trigger(availableNow=True).start())
    try:
        q.awaitTermination(120)
    finally:
        q.stop()
    return q


@pytest.mark.parametrize("fail_on_data_loss", [True, False])
def test_fail_on_data_loss_after_delete_records(spark, bootstrap, kafka, topic_name, tmp_path, fail_on_data_loss):
    topic = kafka.create_topic(topic_name, 1)
    out, ckpt = str(tmp_path / "out"), str(tmp_path / "ckpt")
    kafka.produce(topic, [{"partition": 0, "value": f"v{i}".encode()} for i in range(20)])
    q = _run_until_idle(spark, bootstrap, topic, out, ckpt, fail_on_data_loss)
    assert q.exception() is None
    assert spark.read.parquet(out).count() == 20

    # records 20..39 arrive, then 20..29 are deleted before the query saw them
    kafka.produce(topic, [{"partition": 0, "value": f"v{i}".encode()} for i in range(20, 40)])
    kafka.delete_records(topic, {0: 30})
    assert kafka.offsets(topic, 1)[0] == (30, 40)

    if fail_on_data_loss:
        with pytest.raises(Exception, match="(?i)data (may have been|was) lost|lost data|dataloss|out of range"):
            q = _run_until_idle(spark, bootstrap, topic, out, ckpt, True)
            if q.exception() is not None:
                raise q.exception()
        offsets = sorted(r.offset for r in spark.read.parquet(out).collect())
        assert offsets == list(range(20)), "a failing query must not write past the loss"
    else:
        q = _run_until_idle(spark, bootstrap, topic, out, ckpt, False)
        assert q.exception() is None
        offsets = sorted(r.offset for r in spark.read.parquet(out).collect())
        assert offsets == list(range(20)) + list(range(30, 40))
