"""Fixtures for the Spark suite: PySpark + Spark's Kafka connector against a live broker.

The broker is the compat suite's launcher (compat_tests/harness.py, BrokerProcess):
one `odradek serve` subprocess for the Spark tests. The connector jars come from
Maven Central through tools/fetch_jars.py (cached in ~/.cache/odradek). One SparkSession
(local[2], UI off, 2 shuffle partitions) serves every test. The broker and the SparkSession are
package-scoped: they end with the last Spark test, not at the end of the session (under xdist a
worker goes on with other modules: they idled beside those, and the driver JVM's exit, ~25 CPU s,
was charged to whichever module that worker ran last).

SPARK_TESTS_BOOTSTRAP=HOST:PORT runs the suite against a running broker instead
(for example Apache Kafka, to compare).

Fixtures:
    broker, bootstrap   the broker and "host:port"
    spark               the SparkSession
    topic_name          a fresh topic name per test
    kafka               helpers: create topics, produce, consume, delete records
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import subprocess
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


@pytest.fixture(scope="package")
def broker(tmp_path_factory):
    external = os.environ.get("SPARK_TESTS_BOOTSTRAP")
    if external:
        yield compat.ExternalBroker(external)
        return
    b = compat.BrokerProcess(str(tmp_path_factory.mktemp("odradek-spark-data")))
    b.start()
    yield b
    b.kill9()  # the Spark tests are done with it: a clean stop checks nothing here


@pytest.fixture(scope="package")
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


# The driver JVM's options: C1 only and the serial collector, as the compat checks' JVMs (compat_tests/builds.py
# CHECK_JVM): the 17 tests' JVM CPU 67 -> 34 s, the same results
DRIVER_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def _driver_archive(jars: list[str]) -> Path | None:
    """Where the driver JVM's class-data-sharing archive goes: per Java version, pyspark version, JVM
    options and connector jars (None before Java 13: no dynamic archives)."""
    import pyspark

    import apache_kafka

    key = hashlib.sha256("\n".join([pyspark.__version__, DRIVER_JVM, *jars]).encode()).hexdigest()[:12]
    return apache_kafka.cds_archive(f"spark-driver-{key}")


@pytest.fixture(scope="package")
def spark(spark_jars, tmp_path_factory):
    """The Spark tests' SparkSession on a driver JVM this fixture launches (pyspark's launch_gateway) and stops:
    its stdin closed, it exits and is waited for (so its CPU counts in the test process's children). The JVM
    starts from the class-data-sharing archive of the driver's classes: the driver's CPU over the 17 tests
    32-34 -> 25-26 s. Without an archive, the first session to get the lock writes it as its JVM exits
    (aside, then renamed into place; ~25 s of CPU once per machine, ~200 MB in the per-user cache); others
    go without. The JVM checks that the archive fits (same Java, same jars) and else runs without it."""
    _need_pyspark()
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    import apache_kafka

    t0 = time.monotonic()
    with contextlib.ExitStack() as stack:
        jvm, aside = DRIVER_JVM, None
        archive = _driver_archive(spark_jars)
        if archive is not None and archive.exists():
            jvm += f" -XX:SharedArchiveFile={archive} -Xlog:disable"
        elif archive is not None:
            archive.parent.mkdir(parents=True, exist_ok=True)
            if stack.enter_context(apache_kafka.cache_lock(f"cds-{archive.stem}", archive.parent, wait=False)):
                aside = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")
                stack.callback(aside.unlink, missing_ok=True)
                jvm += f" -XX:ArchiveClassesAtExit={aside} -Xlog:disable"
        conf = (SparkConf()
                .setMaster("local[2]")
                .setAppName("odradek-spark-tests")
                .set("spark.jars", ",".join(spark_jars))
                .set("spark.sql.shuffle.partitions", "2")
                .set("spark.default.parallelism", "2")
                .set("spark.ui.enabled", "false")
                .set("spark.ui.showConsoleProgress", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.sql.session.timeZone", "UTC")
                .set("spark.sql.streaming.stopTimeout", "30s")
                .set("spark.sql.adaptive.enabled", "false")
                .set("spark.local.dir", str(tmp_path_factory.mktemp("spark-local")))
                .set("spark.driver.memory", "1g")
                .set("spark.driver.extraJavaOptions", jvm))
        gateway = launch_gateway(conf)
        try:
            sc = SparkContext(conf=conf, gateway=gateway)
            session = SparkSession(sc)
            sc.setLogLevel("ERROR")
            print(f"spark session ready in {time.monotonic() - t0:.1f}s")
            yield session
            session.stop()
        finally:
            gateway.shutdown()
            gateway.proc.stdin.close()  # the JVM exits at the end of its input (PythonGatewayServer)
            try:
                # writing the archive: ~25 s of CPU; bounded well inside the last test's timeout (pytest-timeout
                # counts this teardown): killed, it leaves no archive and a later session writes one
                gateway.proc.wait(60 if aside is None else 150)
            except subprocess.TimeoutExpired:
                gateway.proc.kill()
                gateway.proc.wait()
        if aside is not None and gateway.proc.returncode == 0 and aside.exists() and aside.stat().st_size > 0:
            os.replace(aside, archive)


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


@pytest.fixture(scope="package")
def kafka(bootstrap) -> KafkaHelpers:
    return KafkaHelpers(bootstrap)
