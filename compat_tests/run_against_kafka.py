"""Run the compat suite against Apache Kafka (the reference), started for the run.

    python compat_tests/run_against_kafka.py [pytest args ...]     # e.g. -x -q -k produce

Kafka (KRaft, single node, from Maven Central jars through apache_kafka/pom.xml) is formatted
in a temporary directory, started on a free port, and `pytest compat_tests
--bootstrap 127.0.0.1:PORT` runs against it; tests that restart or kill the broker
skip. Every test must pass here too: one that passes on odradek and fails on Kafka
is a wrong test or a broker that does not behave like Kafka.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.kafka_ref import KafkaBroker  # noqa: E402


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="compat-kafka-") as d:
        kafka = KafkaBroker(d)
        s = kafka.start()
        print(f"kafka on {kafka.bootstrap} (Metadata after {s:.1f} s)", flush=True)
        try:
            return subprocess.call([sys.executable, "-m", "pytest", str(REPO / "compat_tests"),
                                    "--bootstrap", kafka.bootstrap, *argv], cwd=str(REPO))
        finally:
            kafka.stop()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
