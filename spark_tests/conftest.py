"""Fixtures for the Spark suite: PySpark + Spark's Kafka connector against a live broker.

The broker is the compat suite's launcher (compat_tests/harness.py, BrokerProcess):
one `odradek serve` subprocess for the whole session. The connector jars come from
Maven Central through tools/fetch_jars.py (cached in ~/.cache/odradek). One SparkSession
(local[2], UI off, 2 shuffle partitions) serves every test.

SPARK_TESTS_BOOTSTRAP=HOST:PORT runs the suite against a running broker instead
(for example Apache Kafka, to compare).

Fixtures:
    broker, bootstrap   the broker and "host:port"
    spark               the SparkSession
    topic_name          a fresh topic name per test
    kafka               helpers: create topics, produce, consume, delete records
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    """Import a file as a module under its own name (compat_tests/ and tools/ are not packages)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


compat = _load("odradek_compat_harness", REPO / "compat_tests" / "harness.py")
fetch_jars = _load("odradek_fetch_jars", REPO / "tools" / "fetch_jars.py")

def _need_pyspark():
    if shutil.which("java") is None:
        pytest.skip("needs Java 17")
    try:
        import pyspark  # noqa: F401
    except ImportError:
        pytest.skip("pyspark is not installed (pip install -e .[test])")


@pytest.fixture(scope="session")
def broker(tmp_path_factory):
    external = os.environ.get("SPARK_TESTS_BOOTSTRAP")
    if external:
        yield compat.ExternalBroker(external)
        return
    b = compat.BrokerProcess(str(tmp_path_factory.mktemp("odradek-spark-data")))
    b.start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def bootstrap(broker) -> str:
    return broker.bootstrap


@pytest.fixture(scope="session")
def spark_jars() -> list[str]:
    if shutil.which("mvn") is None:
        pytest.skip("needs Maven to fetch the Spark Kafka connector jars")
    t0 = time.monotonic()
    jars = fetch_jars.spark_kafka_jars()
    print(f"\nspark connector jars ready in {time.monotonic() - t0:.1f}s")
    return jars


@pytest.fixture(scope="session")
def spark(spark_jars, tmp_path_factory):
    _need_pyspark()
    from pyspark.sql import SparkSession

    t0 = time.monotonic()
    session = (SparkSession.builder
               .master("local[2]")
               .appName("odradek-spark-tests")
               .config("spark.jars", ",".join(spark_jars))
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.default.parallelism", "2")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.streaming.stopTimeout", "30s")
               .config("spark.sql.adaptive.enabled", "false")
               .config("spark.local.dir", str(tmp_path_factory.mktemp("spark-local")))
               .config("spark.driver.memory", "1g")
               # C1 only and the serial collector, as the compat checks' JVMs (compat_tests/builds.py
               # CHECK_JVM): the 17 tests' JVM CPU 67 -> 34 s, the same results
               .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    print(f"spark session ready in {time.monotonic() - t0:.1f}s")
    yield session
    session.stop()


@pytest.fixture
def topic_name(request) -> str:
    base = "".join(c if c.isalnum() else "-" for c in request.node.name)[:60]
    return f"spark-{base}-{uuid.uuid4().hex[:8]}"


class KafkaHelpers:
    """Plain-client helpers (confluent-kafka) to set up and check what Spark sees."""

    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap

    def create_topic(self, name: str, partitions: int = 1, configs: dict | None = None) -> str:
        # The tests write fixed event times of 2023 (BASE_TS, the clickstream's start_ms), past
        # the default retention.ms of 7 days: the broker's retention check (every 5 minutes, as
        # Kafka's) would delete them under a test that happens to run at that moment.
        compat.create_topic(self.bootstrap, name, partitions, {"retention.ms": "-1", **(configs or {})})
        return name

    def produce(self, topic: str, records: list[dict]) -> None:
        """records: dicts with value and optional key, partition, headers (list of pairs), timestamp (ms)."""
        from confluent_kafka import Producer

        p = Producer({"bootstrap.servers": self.bootstrap, "linger.ms": 5, "enable.idempotence": True})
        errors = []

        def on_delivery(err, msg):
            if err is not None:
                errors.append(err)

        for r in records:
            kwargs = {"value": r.get("value"), "key": r.get("key"), "on_delivery": on_delivery}
            if r.get("partition") is not None:
                kwargs["partition"] = r["partition"]
            if r.get("headers") is not None:
                kwargs["headers"] = r["headers"]
            if r.get("timestamp") is not None:
                kwargs["timestamp"] = r["timestamp"]
            p.produce(topic, **kwargs)
        left = p.flush(30)
        assert left == 0 and not errors, f"produce failed: {errors} ({left} left)"

    def consume_all(self, topic: str, partitions: int, expected: int, timeout: float = 30) -> list:
        """Every record of `topic` from the beginning (assign, no group), as confluent Messages."""
        from confluent_kafka import Consumer, TopicPartition

        c = Consumer({"bootstrap.servers": self.bootstrap, "group.id": "unused-" + uuid.uuid4().hex,
                      "enable.auto.commit": False, "auto.offset.reset": "earliest"})
        c.assign([TopicPartition(topic, p, -2) for p in range(partitions)])
        out = []
        deadline = time.monotonic() + timeout
        try:
            while len(out) < expected and time.monotonic() < deadline:
                for m in c.consume(500, 0.5):
                    assert m.error() is None, m.error()
                    out.append(m)
            # anything beyond `expected` would be a duplicate: give it a moment to show up
            for m in c.consume(500, 1.0):
                assert m.error() is None, m.error()
                out.append(m)
        finally:
            c.close()
        return out

    def delete_records(self, topic: str, before: dict[int, int]) -> None:
        from kafka.admin import KafkaAdminClient
        from kafka.structs import TopicPartition

        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=10000)
        try:
            admin.delete_records({TopicPartition(topic, p): o for p, o in before.items()})
        finally:
            admin.close()

    def offsets(self, topic: str, partitions: int) -> dict[int, tuple[int, int]]:
        """{partition: (low, high)} watermarks."""
        from confluent_kafka import Consumer, TopicPartition

        c = Consumer({"bootstrap.servers": self.bootstrap, "group.id": "unused"})
        try:
            return {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=10) for p in range(partitions)}
        finally:
            c.close()


@pytest.fixture(scope="session")
def kafka(bootstrap) -> KafkaHelpers:
    return KafkaHelpers(bootstrap)
