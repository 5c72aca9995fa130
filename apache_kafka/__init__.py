"""Apache Kafka 4.3.0, the reference, fetched pinned from Maven Central into the per-user cache.

What the project needs of Kafka, from one place:
  - the runtime jars of the broker and its CLI tools (apache_kafka/pom.xml, copied by
    `mvn dependency:copy-dependencies` once, ~55 MB, into the per-user cache: user_cache() /
    kafka-4.3.0-<digest of pom.xml>/jars, so every clone of the repository shares them, as
    Maven's ~/.m2 is shared; ODRADEK_KAFKA_CACHE names another folder);
  - Kafka's CLI tools run as bin/kafka-*.sh runs them: `java -cp JARS MAIN_CLASS ARGS`
    (tool_command / run_tool, main classes as in Kafka 4.3's bin/ scripts);
  - the JSON message specs tools/gen_wire.py reads, taken out of the jars (specs_dir).

    python -m apache_kafka jars                  # assemble the jars, print their folder
    python -m apache_kafka tool NAME [ARGS..]    # e.g. tool consumer-groups --bootstrap-server H:P --list
    python -m apache_kafka tools                 # the tool names
    python -m apache_kafka specs                 # extract the JSON specs, print their folder

Java 17 and Maven are needed (`missing()` names what is absent, for test skips). Each tool's
first run writes a class-data-sharing archive next to the jars, so later JVMs of the same tool
start in about a third of the time (a tool call costs ~1.5 s instead of ~4 s on a loaded
2-core machine).
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

KAFKA_VERSION = "4.3.0"
HERE = Path(__file__).resolve().parent
REPO = HERE.parent
POM = HERE / "pom.xml"


def user_cache() -> Path:
    """The per-user cache of what the project fetches or builds for its tests and tools, keyed by
    the content of its inputs, so that every clone reuses it: $XDG_CACHE_HOME/odradek, else
    ~/.cache/odradek."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "odradek"


def digest(paths: list[Path], *extra: str) -> str:
    """A short content key: the files' names (relative to the repository) and bytes, and extra words."""
    h = hashlib.sha256()
    for word in extra:
        h.update(word.encode() + b"\0")
    for p in sorted(paths):
        h.update(p.relative_to(REPO).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


CACHE = Path(os.environ.get("ODRADEK_KAFKA_CACHE") or user_cache() / f"kafka-{KAFKA_VERSION}-{digest([POM])}")
JARS = CACHE / "jars"

# bin/kafka-NAME.sh -> the main class it hands to kafka-run-class.sh (Kafka 4.3)
TOOL_CLASSES = {
    "topics": "org.apache.kafka.tools.TopicCommand",
    "configs": "kafka.admin.ConfigCommand",
    "consumer-groups": "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
    "share-groups": "org.apache.kafka.tools.consumer.group.ShareGroupCommand",
    "streams-groups": "org.apache.kafka.tools.streams.StreamsGroupCommand",
    "groups": "org.apache.kafka.tools.GroupsCommand",
    "console-producer": "org.apache.kafka.tools.ConsoleProducer",
    "console-consumer": "org.apache.kafka.tools.consumer.ConsoleConsumer",
    "console-share-consumer": "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
    "producer-perf-test": "org.apache.kafka.tools.ProducerPerformance",
    "consumer-perf-test": "org.apache.kafka.tools.ConsumerPerformance",
    "e2e-latency": "org.apache.kafka.tools.EndToEndLatency",
    "get-offsets": "org.apache.kafka.tools.GetOffsetShell",
    "delete-records": "org.apache.kafka.tools.DeleteRecordsCommand",
    "transactions": "org.apache.kafka.tools.TransactionsCommand",
    "features": "org.apache.kafka.tools.FeatureCommand",
    "metadata-quorum": "org.apache.kafka.tools.MetadataQuorumCommand",
    "cluster": "org.apache.kafka.tools.ClusterTool",
    "broker-api-versions": "org.apache.kafka.tools.BrokerApiVersionsCommand",
    "log-dirs": "org.apache.kafka.tools.LogDirsCommand",
    "replica-verification": "org.apache.kafka.tools.ReplicaVerificationTool",
    "leader-election": "org.apache.kafka.tools.LeaderElectionCommand",
    "reassign-partitions": "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
    "acls": "org.apache.kafka.tools.AclCommand",
    "client-metrics": "org.apache.kafka.tools.ClientMetricsCommand",
    "delegation-tokens": "org.apache.kafka.tools.DelegationTokenCommand",
    "verifiable-producer": "org.apache.kafka.tools.VerifiableProducer",
    "verifiable-consumer": "org.apache.kafka.tools.VerifiableConsumer",
    "dump-log": "org.apache.kafka.tools.DumpLogSegments",
    "storage": "kafka.tools.StorageTool",
}

# tools/gen_wire.py's spec folders -> (jar artifact, folder inside the jar)
SPEC_SOURCES = {
    "message": ("kafka-clients", "common/message/"),
    "metadata": ("kafka-metadata", "common/metadata/"),
    "raft": ("kafka-raft", "common/message/"),
    "group-coordinator": ("kafka-group-coordinator", "common/message/"),
    "transaction-coordinator": ("kafka-transaction-coordinator", "common/message/"),
}

# what bin/kafka-run-class.sh gives a tool (its default heap, a quiet log4j), plus a client JVM's
# quick start: C1 only and the serial collector (a tool runs seconds, not hours)
TOOL_JVM = ["-Xmx256M", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.awt.headless=true",
            "-Dlog4j2.rootLogger.level=WARN"]


def missing(java: bool = True) -> str | None:
    """What this machine lacks to run Kafka's tools (java=True) or only to have its jars, as a
    skip reason naming the tool; None when nothing is missing. Maven is not needed once the jars
    are cached."""
    needs = [("java", "Java 17 (java)")] if java else []
    if not (JARS / ".complete").exists():
        needs.append(("mvn", "Maven (mvn)"))
    for exe, what in needs:
        if shutil.which(exe) is None:
            return f"needs {what}, not found on PATH"
    return None


@contextlib.contextmanager
def cache_lock(name: str, folder: Path | None = None, wait: bool = True):
    """One writer of a cache entry at a time across processes (parallel test workers, other clones):
    an flock on FOLDER/locks/NAME.lock, FOLDER the repository's .cache/ unless given (user_cache()
    for the per-user entries). Yields whether this process holds the lock: always True when wait,
    else False at once when another process holds it."""
    path = (folder or REPO / ".cache") / "locks" / f"{name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def jars() -> Path:
    """The folder of Kafka's runtime jars, assembled with Maven on first use (cached)."""
    done = JARS / ".complete"
    if done.exists():
        return JARS
    with cache_lock(f"{CACHE.name}-jars", CACHE.parent):
        if not done.exists():
            if shutil.which("mvn") is None:
                raise RuntimeError("Maven (mvn) is needed to fetch Apache Kafka's jars from Maven Central")
            JARS.mkdir(parents=True, exist_ok=True)
            print(f"fetching Apache Kafka {KAFKA_VERSION} jars from Maven Central into {JARS} (once, ~55 MB)",
                  file=sys.stderr, flush=True)
            try:  # bounded: a stalled download fails with Maven's output instead of hanging its caller
                r = subprocess.run(["mvn", "-B", "-ntp", "-q", "-f", str(POM), "dependency:copy-dependencies",
                                    f"-DoutputDirectory={JARS}", "-DincludeScope=runtime"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
            except subprocess.TimeoutExpired as e:
                out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
                raise RuntimeError(f"mvn did not fetch Apache Kafka {KAFKA_VERSION}'s jars in 900 s:\n{out[-5000:]}")
            if r.returncode != 0:
                raise RuntimeError(f"mvn could not fetch Apache Kafka {KAFKA_VERSION}'s jars:\n{r.stdout[-5000:]}")
            done.touch()
    return JARS


def classpath() -> str:
    """The jars as an explicit, sorted class path (a class-data-sharing archive needs the same one)."""
    return os.pathsep.join(str(p) for p in sorted(jars().glob("*.jar")))


@functools.cache
def _java_major() -> int:
    r = subprocess.run(["java", "-version"], capture_output=True, text=True)
    m = re.search(r'version "(\d+)(?:\.(\d+))?', r.stderr)
    if not m:
        return 0
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


def cds_archive(main_class: str) -> Path | None:
    """Where the class-data-sharing archive of a JVM running `main_class` (a tool's, or a name for one
    kind of JVM) on Kafka's jars goes (None before Java 13: no dynamic archives)."""
    major = _java_major()
    return CACHE / "cds" / f"{main_class}-java{major}.jsa" if major >= 13 else None


def tool_command(name: str, *args: str, write_archive: Path | None = None) -> list[str]:
    """The command line of bin/kafka-NAME.sh ARGS (Kafka 4.3), e.g. tool_command("transactions", "list").
    It uses the tool's class-data-sharing archive when there is one, else writes one to write_archive."""
    cls = TOOL_CLASSES.get(name)
    if cls is None:
        raise ValueError(f"unknown Kafka tool {name!r}; one of: {' '.join(TOOL_CLASSES)}")
    archive = cds_archive(cls)
    cds = []
    if archive is not None and archive.exists():
        cds = [f"-XX:SharedArchiveFile={archive}", "-Xlog:disable"]
    elif archive is not None and write_archive is not None:
        cds = [f"-XX:ArchiveClassesAtExit={write_archive}", "-Xlog:disable"]
    return ["java", *TOOL_JVM, *cds, "-cp", classpath(), cls, *args]


def run_tool(name: str, *args: str, timeout: float = 120, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run one of Kafka's tools to completion, output captured as text (stdin: its input, else it
    inherits this process's stdin). The first run of a tool
    leaves its class-data-sharing archive for the next ones: one process at a time writes it (under
    a lock, aside, then renamed into place); a run that finds another process writing it goes
    without an archive instead of writing one more (parallel test workers starting the same tool
    at once on a loaded machine each paid the archive dump and ran past their timeouts)."""
    archive = cds_archive(TOOL_CLASSES.get(name, ""))
    with contextlib.ExitStack() as stack:
        written = None
        if archive is not None and not archive.exists():
            archive.parent.mkdir(parents=True, exist_ok=True)
            writer = stack.enter_context(cache_lock(f"{CACHE.name}-cds-{archive.stem}", CACHE.parent, wait=False))
            if writer and not archive.exists():
                written = archive.with_name(f"{archive.name}.{os.getpid()}.{threading.get_ident()}.tmp")
                stack.callback(written.unlink, missing_ok=True)
        r = subprocess.run(tool_command(name, *args, write_archive=written), capture_output=True, text=True,
                           timeout=timeout, input=stdin)
        if written is not None and r.returncode == 0 and written.exists() and written.stat().st_size > 0:
            os.replace(written, archive)
        return r


def specs_dir() -> Path:
    """Kafka's JSON message specs, extracted from the jars into a folder tools/gen_wire.py reads
    (message/, metadata/, raft/, group-coordinator/, transaction-coordinator/)."""
    out = CACHE / "specs"
    done = out / ".complete"
    folder = jars()
    with cache_lock(f"{CACHE.name}-specs", CACHE.parent):
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            for sub, (artifact, prefix) in SPEC_SOURCES.items():
                (out / sub).mkdir(parents=True)
                with zipfile.ZipFile(folder / f"{artifact}-{KAFKA_VERSION}.jar") as jar:
                    for entry in jar.namelist():
                        if entry.startswith(prefix) and entry.endswith(".json") and "/" not in entry[len(prefix):]:
                            (out / sub / entry[len(prefix):]).write_bytes(jar.read(entry))
            done.touch()
    return out


def _main(argv: list[str]) -> int:
    cmd, args = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "jars":
        print(jars())
    elif cmd == "specs":
        print(specs_dir())
    elif cmd == "tools":
        print("\n".join(TOOL_CLASSES))
    elif cmd == "tool" and args:
        if args[0] not in TOOL_CLASSES:
            print(f"unknown Kafka tool {args[0]!r}; one of: {' '.join(TOOL_CLASSES)}", file=sys.stderr)
            return 2
        cmdline = tool_command(args[0], *args[1:])
        os.execvp(cmdline[0], cmdline)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0
