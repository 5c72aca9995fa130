"""examples/clickstream.py end to end: generator -> Spark per-minute page counts -> topic -> reader."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "clickstream.py"


def load_example():
    spec = importlib.util.spec_from_file_location("odradek_example_clickstream", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_clickstream_counts_match_the_generator(spark, bootstrap, kafka, topic_name, tmp_path):
    ex = load_example()
    src = kafka.create_topic(topic_name + "-clicks", 3)
    dst = kafka.create_topic(topic_name + "-counts", 1)
    truth = ex.generate(bootstrap, topic=src, events=3000, minutes=4, start_ms=1_700_000_040_000)
    q = ex.page_counts_query(spark, bootstrap, str(tmp_path / "ckpt"), src=src, dst=dst)
    q.awaitTermination(180)
    assert q.exception() is None
    assert ex.read_counts(bootstrap, dst) == dict(truth)
