"""The compat suite's client programs, built once and reused: the Java checks (Maven), the Kafka
Streams check (Maven), the franz-go check (Go), the kafkajs check (npm), and Kafka's own tools.

Every build is skipped when its output is newer than its inputs, and holds a lock on .cache/locks so
that parallel test workers build it once. `prebuild(names)` starts the builds a session will need in a
background thread when collection ends (conftest.py), so they overlap the tests that need none.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterable
from pathlib import Path

import apache_kafka

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
JAVA_DIR = HERE / "java"
STREAMS_DIR = HERE / "java-streams"
GO_DIR = HERE / "go"
GO_BIN = REPO / ".cache" / "franz-go" / "franzgo-check"
JS_DIR = HERE / "js"
JAVA_CLIENT_VERSIONS = ("3.9.2", "4.3.0")


def _newest(paths: Iterable[Path]) -> float:
    return max(p.stat().st_mtime for p in paths if p.is_file())


def maven_classpath(project: Path, build_dir: Path, *mvn_args: str) -> str:
    """Compile a Maven project whose build directory is build_dir and return its run classpath.
    Maven resolves from ~/.m2 offline first and goes online only when something is missing; a build
    newer than pom.xml and every source is reused."""
    cp_file = build_dir / "classpath.txt"
    with apache_kafka.cache_lock(f"mvn-{build_dir.relative_to(REPO).as_posix().replace('/', '-')}"):
        fresh = cp_file.exists() and cp_file.stat().st_mtime >= _newest(
            [project / "pom.xml", *(project / "src").rglob("*")]) and all(
            Path(j).exists() for j in cp_file.read_text().strip().split(os.pathsep))
        if not fresh:
            cmd = ["mvn", "-q", "-B", *mvn_args, "compile", "dependency:build-classpath",
                   f"-Dmdep.outputFile={cp_file}"]
            r = subprocess.run([cmd[0], "-o", *cmd[1:]], cwd=project, capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                r = subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                raise RuntimeError(f"mvn build of {project.name} {' '.join(mvn_args)} failed:\n"
                                   f"{r.stdout[-5000:]}\n{r.stderr[-5000:]}")
    return str(build_dir / "classes") + os.pathsep + cp_file.read_text().strip()


def java_clients_classpath(version: str) -> str:
    """compat_tests/java (JavaClientsCheck, ConsumerProtocolCheck) against kafka-clients `version`."""
    return maven_classpath(JAVA_DIR, JAVA_DIR / "target" / version, f"-Dkafka.version={version}")


def streams_classpath() -> str:
    """compat_tests/java-streams (StreamsCheck, Kafka Streams 4.3)."""
    return maven_classpath(STREAMS_DIR, STREAMS_DIR / "target")


def franz_go_binary() -> Path:
    """compat_tests/go built into .cache/franz-go (modules from the Go module proxy the first time)."""
    with apache_kafka.cache_lock("franz-go"):
        if not GO_BIN.exists() or GO_BIN.stat().st_mtime < _newest(GO_DIR.iterdir()):
            GO_BIN.parent.mkdir(parents=True, exist_ok=True)
            r = subprocess.run(["go", "build", "-o", str(GO_BIN), "."], cwd=GO_DIR, capture_output=True, text=True,
                               timeout=900)
            if r.returncode != 0:
                raise RuntimeError(f"go build failed:\n{r.stdout[-5000:]}\n{r.stderr[-5000:]}")
    return GO_BIN


def kafkajs_install() -> None:
    """npm ci in compat_tests/js, unless node_modules already matches package-lock.json."""
    lock = JS_DIR / "package-lock.json"
    stamp = JS_DIR / "node_modules" / ".package-lock.json"  # npm writes it on install
    with apache_kafka.cache_lock("kafkajs"):
        if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
            return
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS_DIR, capture_output=True, text=True,
                           timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"npm ci failed:\n{r.stdout[-5000:]}\n{r.stderr[-5000:]}")


# build name -> (the executables it needs, the build), in the order a session starts them
BUILDS = {
    "java-clients": (("java", "mvn"), lambda: [java_clients_classpath(v) for v in JAVA_CLIENT_VERSIONS]),
    "java-streams": (("java", "mvn"), streams_classpath),
    "franz-go": (("go",), franz_go_binary),
    "kafkajs": (("node", "npm"), kafkajs_install),
    "kafka-tools": (("java", "mvn"), apache_kafka.jars),
}

# test module -> the builds it uses
USED_BY = {
    "test_java_clients.py": ("java-clients",),
    "test_fetch_sessions.py": ("java-clients",),
    "test_groups_consumer_protocol.py": ("java-clients",),
    "test_cli_partitioner.py": ("java-clients",),
    "test_kafka_streams.py": ("java-streams",),
    "test_franz_go.py": ("franz-go",),
    "test_kafkajs.py": ("kafkajs",),
    "test_cli_groups.py": ("kafka-tools",),
    "test_cluster_admin.py": ("kafka-tools",),
    "test_producer_expiry.py": ("kafka-tools",),
    "test_share_groups.py": ("kafka-tools",),
    "test_share_group_offsets.py": ("kafka-tools",),
    "test_share_groups_restart.py": ("kafka-tools",),
}


def needed(module_files: Iterable[str]) -> list[str]:
    """The builds the given test modules use, in BUILDS order."""
    names = {b for f in module_files for b in USED_BY.get(f, ())}
    return [n for n in BUILDS if n in names]


def prebuild(names: list[str]) -> threading.Thread | None:
    """Run the named builds one after the other in a daemon thread (a failure is left for the test
    that needs the build to report: it builds again and raises there)."""
    todo = [BUILDS[n][1] for n in names if all(shutil.which(exe) for exe in BUILDS[n][0])]
    if not todo:
        return None

    def run():
        for build in todo:
            try:
                build()
            except Exception:  # noqa: BLE001 - reported by the test that needs it
                pass

    t = threading.Thread(target=run, name="compat-prebuild", daemon=True)
    t.start()
    return t
