"""Spark's Kafka connector jars for PySpark, fetched through Maven into the per-user cache.

    python tools/fetch_jars.py          # prints the comma-separated list for spark.jars

jars/pom.xml names the four jars PySpark does not ship (the connector, its token
provider, kafka-clients 3.9.2, commons-pool2); `mvn dependency:copy-dependencies`
copies them from the local Maven repository (downloading them once) into
~/.cache/odradek/spark-kafka-4.2.0-<digest of jars/pom.xml> ($XDG_CACHE_HOME honoured, as
apache_kafka.user_cache()), so every clone of the repository reuses them. Nothing is
committed; a `.complete` marker makes later calls instant.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
POM = REPO / "jars" / "pom.xml"
CACHE = (Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "odradek"
         / f"spark-kafka-4.2.0-{hashlib.sha256(POM.read_bytes()).hexdigest()[:16]}")


def spark_kafka_jars(cache: Path = CACHE) -> list[str]:
    """Absolute paths of the connector jars, fetched on first use."""
    marker = cache / ".complete"
    if not marker.exists():
        if shutil.which("mvn") is None:
            raise RuntimeError("Maven (mvn) is needed to fetch the Spark Kafka connector jars")
        # copied beside the cache entry and renamed into place when complete (other clones share it)
        work = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        base = ["mvn", "-q", "-B", "-f", str(POM), "dependency:copy-dependencies",
                f"-DoutputDirectory={work}"]
        # offline first (a warm ~/.m2 needs no network), then online
        if subprocess.run(base + ["-o"], capture_output=True, text=True).returncode != 0:
            r = subprocess.run(base, capture_output=True, text=True)
            if r.returncode != 0:
                shutil.rmtree(work, ignore_errors=True)
                raise RuntimeError("mvn dependency:copy-dependencies failed:\n" + r.stdout[-4000:] + r.stderr[-4000:])
        (work / ".complete").touch()
        shutil.rmtree(cache, ignore_errors=True)  # an incomplete entry
        try:
            os.rename(work, cache)
        except OSError:  # another process completed it first
            shutil.rmtree(work, ignore_errors=True)
    jars = sorted(str(p) for p in cache.glob("*.jar"))
    if len(jars) != 4:
        raise RuntimeError(f"expected 4 jars in {cache}, found {jars}")
    return jars


if __name__ == "__main__":
    print(",".join(spark_kafka_jars()))
    sys.exit(0)
