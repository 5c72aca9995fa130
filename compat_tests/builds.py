"""The compat suite's client programs, built once and reused: the Java checks (Maven), the Kafka
Streams check (Maven), the franz-go check (Go), the kafkajs check (npm), and Kafka's own tools (its
jars and the tool server's jar, apache_kafka.tool_server).

The Maven builds are kept in the per-user cache (apache_kafka.user_cache()/builds), one entry per
digest of the project's pom.xml, sources and build options, so a new clone of the repository (CI's
clean clone, a second worktree) reuses them as it reuses ~/.m2; an entry is built aside and renamed
into place when complete. The Go builds (the franz-go check, kafka-go's own tests) and npm builds live in the clone's .cache/ and compat_tests/js,
reused when newer than their inputs. Every build holds a lock so that parallel test workers build
it once. `prebuild(names)` starts the builds a session will need in a background thread when
collection ends (conftest.py), so they overlap the tests that need none.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

import apache_kafka
from apache_kafka.tool_server import server_jar

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
JAVA_DIR = HERE / "java"
STREAMS_DIR = HERE / "java-streams"
GO_DIR = HERE / "go"
GO_BIN = REPO / ".cache" / "franz-go" / "franzgo-check"
KAFKA_GO_VERSION = "v0.4.51"  # github.com/segmentio/kafka-go, whose own tests test_kafka_go.py runs
KAFKA_GO_DIR = REPO / ".cache" / "kafka-go"
JS_DIR = HERE / "js"
JAVA_CLIENT_VERSIONS = ("3.9.2", "4.3.0")
# The client check programs' JVM options: C1 only and the serial collector, as Kafka's tools are run
# (apache_kafka.TOOL_JVM). A check's JVM lives seconds to a minute, and C2's compiler threads and G1's
# workers were about half of its CPU (JavaClientsCheck 6.3 -> 3.4 s, StreamsCheck at_least_once
# 11.7 -> 5.5 s, the same checks passing).
CHECK_JVM = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


def kafka_test_jvm() -> list[str]:
    """The tests' Kafka node JVM options (bench.kafka_ref.KAFKA_TEST_JVM) with the class-data-sharing archive
    of a Kafka node's classes, for its storage format and its start: a node starts on half the CPU
    (5.8 -> 3.0 s from start to ready and stopped, the format 2.7 -> 1.9 s). The archive is written once
    per machine (per-user cache): the first caller, alone under a lock, starts one Kafka node that dumps
    the classes it loaded when it stops (~15 s of CPU); a caller that finds another process writing it
    goes without. The JVM checks that the archive fits (same Java, same jars) and else runs without it."""
    from bench.kafka_ref import KAFKA_TEST_JVM

    options = list(KAFKA_TEST_JVM)
    archive = apache_kafka.cds_archive("kafka.Kafka-" + hashlib.sha256(" ".join(options).encode()).hexdigest()[:12])
    if archive is None:
        return options
    if not archive.exists():
        _write_kafka_archive(archive, options)
    return [*options, f"-XX:SharedArchiveFile={archive}", "-Xlog:disable"] if archive.exists() else options


def _write_kafka_archive(archive: Path, options: list[str]) -> None:
    """A combined Kafka node formatted, started until it answers Metadata and stopped (SIGTERM), with
    -XX:ArchiveClassesAtExit: the archive written aside and renamed into place; nothing when another
    process is writing it or the node does not come up (the callers go without)."""
    import tempfile

    from bench.kafka_ref import KafkaBroker

    archive.parent.mkdir(parents=True, exist_ok=True)
    with apache_kafka.cache_lock(f"cds-{archive.stem}", archive.parent, wait=False) as writer:
        if not writer or archive.exists():
            return
        aside = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")
        with tempfile.TemporaryDirectory(prefix="odradek-kafka-cds-") as d:
            node = KafkaBroker(d, jvm=options)
            node.startup_timeout_s = 120  # a loaded machine
            try:
                node.format()
                node.jvm = [*options, f"-XX:ArchiveClassesAtExit={aside}", "-Xlog:disable"]
                node.start(fresh=False)
                node.proc.terminate()  # the dump happens as the JVM exits
                node.proc.wait(90)  # (a JVM killed mid-dump leaves a partial file: not renamed)
                if aside.exists() and aside.stat().st_size > 0:
                    os.replace(aside, archive)
            except (OSError, RuntimeError, subprocess.SubprocessError):
                pass
            finally:
                node.stop()
                aside.unlink(missing_ok=True)


def _newest(paths: Iterable[Path]) -> float:
    return max(p.stat().st_mtime for p in paths if p.is_file())


def _classpath_ready(entry: Path) -> bool:
    cp_file = entry / "classpath.txt"
    return cp_file.exists() and all(Path(j).exists() for j in cp_file.read_text().strip().split(os.pathsep))


def maven_classpath(project: Path, build_dir: str, *mvn_args: str) -> str:
    """Compile a Maven project (build_dir: its build directory relative to the project, as its pom.xml
    sets it) in the per-user cache and return its run classpath. Maven resolves from ~/.m2 offline
    first and goes online only when something is missing."""
    inputs = [project / "pom.xml", *(p for p in (project / "src").rglob("*") if p.is_file())]
    entry = apache_kafka.user_cache() / "builds" / f"{project.name}-{apache_kafka.digest(inputs, *mvn_args)}"
    if not _classpath_ready(entry):
        with apache_kafka.cache_lock(entry.name, entry.parent):
            if not _classpath_ready(entry):
                _maven_build(project, inputs, entry, mvn_args)
    return str(entry / build_dir / "classes") + os.pathsep + (entry / "classpath.txt").read_text().strip()


def _maven_build(project: Path, inputs: list[Path], entry: Path, mvn_args: tuple[str, ...]) -> None:
    """Copy the project's inputs to a folder beside entry, build there, then rename it to entry."""
    print(f"building {' '.join([str(project.relative_to(REPO)), *mvn_args])} with Maven into {entry} (once)",
          file=sys.stderr, flush=True)
    work = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
    shutil.rmtree(work, ignore_errors=True)
    for src in inputs:
        dst = work / src.relative_to(project)
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    cmd = ["mvn", "-q", "-B", *mvn_args, "compile", "dependency:build-classpath",
           f"-Dmdep.outputFile={work / 'classpath.txt'}"]
    r = subprocess.run([cmd[0], "-o", *cmd[1:]], cwd=work, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        r = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise RuntimeError(f"mvn build of {project.name} {' '.join(mvn_args)} failed:\n"
                           f"{r.stdout[-5000:]}\n{r.stderr[-5000:]}")
    shutil.rmtree(entry, ignore_errors=True)  # an older entry whose jars left ~/.m2
    os.rename(work, entry)


def java_clients_classpath(version: str) -> str:
    """compat_tests/java (JavaClientsCheck, ConsumerProtocolCheck) against kafka-clients `version`."""
    return maven_classpath(JAVA_DIR, f"target/{version}", f"-Dkafka.version={version}")


def streams_classpath() -> str:
    """compat_tests/java-streams (StreamsCheck, Kafka Streams 4.3)."""
    return maven_classpath(STREAMS_DIR, "target")


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


def kafka_go_test_binary() -> Path:
    """segmentio/kafka-go's own tests (its root package, KAFKA_GO_VERSION) compiled into .cache/kafka-go:
    the module comes from the Go module proxy (its zip holds the _test.go files) and is built from a copy
    (the module cache is read-only); once per version."""
    binary = KAFKA_GO_DIR / f"kafka-go-{KAFKA_GO_VERSION}.test"
    with apache_kafka.cache_lock("kafka-go"):
        if binary.exists():
            return binary
        KAFKA_GO_DIR.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "GOFLAGS": "-mod=mod"}
        r = subprocess.run(["go", "mod", "download", "-json", f"github.com/segmentio/kafka-go@{KAFKA_GO_VERSION}"],
                           cwd=KAFKA_GO_DIR, capture_output=True, text=True, timeout=900, env=env)
        if r.returncode != 0:
            raise RuntimeError(f"go mod download failed:\n{r.stdout[-5000:]}\n{r.stderr[-5000:]}")
        src = KAFKA_GO_DIR / f"src-{KAFKA_GO_VERSION}"
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(json.loads(r.stdout)["Dir"], src)
        for p in (src, *src.rglob("*")):
            p.chmod(p.stat().st_mode | 0o200)
        aside = binary.with_name(f"{binary.name}.{os.getpid()}.tmp")
        r = subprocess.run(["go", "test", "-c", "-o", str(aside), "."], cwd=src, capture_output=True, text=True,
                           timeout=900, env=env)
        if r.returncode != 0:
            raise RuntimeError(f"go test -c of kafka-go failed:\n{r.stdout[-5000:]}\n{r.stderr[-5000:]}")
        os.replace(aside, binary)
    return binary


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
    "kafka-go": (("go",), kafka_go_test_binary),
    "kafkajs": (("node", "npm"), kafkajs_install),
    "kafka-tools": (("java", "mvn"), lambda: (apache_kafka.jars(), server_jar())),
}

# test module -> the builds it uses
USED_BY = {
    "test_java_clients.py": ("java-clients",),
    "test_fetch_sessions.py": ("java-clients",),
    "test_groups_consumer_protocol.py": ("java-clients",),
    "test_cli_partitioner.py": ("java-clients",),
    "test_kafka_streams.py": ("java-streams",),
    "test_franz_go.py": ("franz-go",),
    "test_kafka_go.py": ("kafka-go",),
    "test_kafkajs.py": ("kafkajs",),
    "test_cli_groups.py": ("kafka-tools",),
    "test_cluster_group_coordinator_failover.py": ("java-clients", "kafka-tools"),
    "test_cluster_eos_java.py": ("java-clients", "java-streams"),
    "test_cluster_transactions.py": ("java-clients", "kafka-tools"),
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
