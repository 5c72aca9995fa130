"""Kafka's CLI tools run in one long-lived JVM per process (ToolServer.java), one call at a time. A
tool run as bin/kafka-*.sh runs it costs a JVM start, ~1 CPU s even with its class-data-sharing
archive; a call to the server costs only the tool's own work (0.01-0.1 CPU s once its classes are
loaded).

    tools = ToolServer()
    tools.run("topics", "--bootstrap-server", "127.0.0.1:9092", "--list", timeout=120)

`run` answers what `apache_kafka.run_tool` answers for the same call: a CompletedProcess with the exit
code and the text of stdout and stderr as a JVM of the tool's own gives them (ToolServer.java says
how exits, output and stack traces are kept the same). A call that outlives its timeout kills the
server (the next call starts another) and raises subprocess.TimeoutExpired; a call whose tool leaves
threads behind, or does not finish unwinding, replaces the server for the next call. The server JVM
exits when this process's end of its stdin closes, so it never outlives this process.

The server's classes are compiled once with javac against Kafka's jars into a jar in the per-user cache
beside them (one per digest of the source and the Java version). The first server on a machine that
finds no class-data-sharing archive of its own writes one when it exits (the classes of the tools it
ran, every tool's --version and an admin client's), as apache_kafka.run_tool does for each tool; later servers start
on it.
"""
from __future__ import annotations

import atexit
import contextlib
import locale
import os
import select
import shutil
import struct
import subprocess
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import apache_kafka
from apache_kafka import CACHE, HERE, TOOL_CLASSES, TOOL_JVM, cache_lock, cds_archive, classpath, digest

SOURCE = HERE / "ToolServer.java"
MAIN_CLASS = "ToolServer"
# tools that must run in a JVM of their own: they call System.exit themselves (kafka-cluster through
# argparse4j's parseArgsOrFail on bad arguments)
OWN_JVM = frozenset({"verifiable-producer", "verifiable-consumer", "cluster"})
ENABLED = os.environ.get("ODRADEK_KAFKA_TOOL_SERVER", "1") != "0"  # 0: every call in a JVM of its own
# the server reads the Runnable of an admin client's network thread to close a client a tool left open
SERVER_JVM = [*TOOL_JVM, "--add-opens=java.base/java.lang=ALL-UNNAMED"]
_ANSWER = struct.Struct(">iqq?i")  # exit code, stdout bytes, stderr bytes, clean, length of the left threads' names


def server_jar() -> Path:
    """ToolServer's classes in a jar (a class-data-sharing archive takes jars only), built once, under
    a lock, aside and renamed."""
    jar = CACHE / f"tool-server-{digest([SOURCE], str(apache_kafka._java_major()))}.jar"
    if jar.exists():
        return jar
    with cache_lock(jar.stem, CACHE.parent):
        if not jar.exists():
            if shutil.which("javac") is None:
                raise RuntimeError("javac is needed to build the Kafka tool server")
            with tempfile.TemporaryDirectory(prefix="odradek-tool-server-") as out:
                r = subprocess.run(["javac", "-nowarn", "-cp", classpath(), "-d", out, str(SOURCE)],
                                   capture_output=True, text=True, timeout=300)
                if r.returncode != 0:
                    raise RuntimeError(f"javac ToolServer.java failed:\n{r.stdout}\n{r.stderr}")
                aside = jar.with_name(f"{jar.name}.{os.getpid()}.tmp")
                with zipfile.ZipFile(aside, "w") as z:
                    for cls in sorted(Path(out).glob("*.class")):
                        z.write(cls, cls.name)
                os.replace(aside, jar)
    return jar


def _text(data: bytes) -> str:
    """As subprocess.run(text=True) decodes a child's output."""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


class _Server:
    """One ToolServer JVM: its stdin (requests), its answer pipe, its stdout and stderr files, and the
    class-data-sharing archive it writes at its exit, if it is the one writing it."""

    def __init__(self) -> None:
        self.left_behind = ""
        self.proc: subprocess.Popen | None = None
        self.answers = self.out_fd = self.err_fd = -1
        self._writing = contextlib.ExitStack()
        self.archive: Path | None = None  # the server's class-data-sharing archive
        self._archive_aside: Path | None = None  # where this server writes it at its exit, if it does
        folder = tempfile.mkdtemp(prefix="odradek-kafka-tools-")
        try:
            # the JVM appends to its output files; this process reads them back and empties them
            self.out_fd = os.open(os.path.join(folder, "stdout"), os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
            self.err_fd = os.open(os.path.join(folder, "stderr"), os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        self.answers, answer_w = os.pipe()
        try:
            jar = server_jar()
            cmd = ["java", *SERVER_JVM, *self._cds(jar), "-cp", f"{jar}{os.pathsep}{classpath()}",
                   MAIN_CLASS, f"/dev/fd/{answer_w}"]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=self.out_fd, stderr=self.err_fd,
                                         pass_fds=(answer_w,))
        except BaseException:
            self.close()
            raise
        finally:
            os.close(answer_w)

    def _cds(self, jar: Path) -> list[str]:
        """The JVM options of the server's archive: use it, or write it (one server at a time), or neither."""
        self.archive = cds_archive(jar.stem)
        if self.archive is None:
            return []
        if self.archive.exists():
            return [f"-XX:SharedArchiveFile={self.archive}", "-Xlog:disable"]
        self.archive.parent.mkdir(parents=True, exist_ok=True)
        writer = self._writing.enter_context(cache_lock(f"{CACHE.name}-cds-{self.archive.stem}", CACHE.parent,
                                                        wait=False))
        if not writer or self.archive.exists():
            self._writing.close()
            return []
        self._archive_aside = self.archive.with_name(f"{self.archive.name}.{os.getpid()}.tmp")
        return [f"-XX:ArchiveClassesAtExit={self._archive_aside}", "-Xlog:disable"]

    def _load_every_tool(self) -> bool:
        """Before the archive is written: every tool's --version, so that it holds each tool's classes
        (its option parser's, Scala's for kafka-configs), not only those of the tools this server ran,
        and an admin client's call that times out at once (no broker on port 1), for the client's.
        False if one did not answer in time."""
        with tempfile.NamedTemporaryFile("w", prefix="odradek-tool-warm-", suffix=".properties") as config:
            config.write("default.api.timeout.ms=200\nrequest.timeout.ms=100\n")
            config.flush()
            calls = [(cls, ("--version",)) for name, cls in TOOL_CLASSES.items() if name not in OWN_JVM]
            calls.append((TOOL_CLASSES["topics"], ("--bootstrap-server", "127.0.0.1:1", "--command-config",
                                                   config.name, "--list")))
            for cls, args in calls:
                try:
                    self.call(cls, args, b"", 30)
                except TimeoutError:
                    return False
        return True

    def call(self, main_class: str, args: tuple[str, ...], stdin: bytes, timeout: float
             ) -> tuple[int, bytes, bytes, bool]:
        """(exit code, stdout, stderr, whether the server can take the next call); TimeoutError."""
        for fd in (self.out_fd, self.err_fd):
            os.ftruncate(fd, 0)
        words = [w.encode() for w in (main_class, *args)]
        request = b"".join([struct.pack(">i", len(words)), *(struct.pack(">i", len(w)) + w for w in words),
                            struct.pack(">i", len(stdin)), stdin])
        try:
            self.proc.stdin.write(request)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # (it has ended: read below)
        answer = self._read(_ANSWER.size, timeout)
        if answer is None:  # the JVM ended during the call (a System.exit): its exit code and all its output
            return self.proc.wait(), self._output(self.out_fd), self._output(self.err_fd), False
        code, out_bytes, err_bytes, clean, names = _ANSWER.unpack(answer)
        self.left_behind = (self._read(names, timeout) or b"").decode()
        return code, self._output(self.out_fd, out_bytes), self._output(self.err_fd, err_bytes), clean

    def output(self) -> tuple[bytes, bytes]:
        """All that the JVM wrote since the last call began."""
        return self._output(self.out_fd), self._output(self.err_fd)

    def _read(self, n: int, timeout: float) -> bytes | None:
        """n bytes of the answer pipe; None at its end; TimeoutError after timeout s."""
        chunks, got = [], 0
        deadline = time.monotonic() + timeout
        while got < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.answers], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(self.answers, n - got)
            if not chunk:
                return None
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    @staticmethod
    def _output(fd: int, size: int = -1) -> bytes:
        return os.pread(fd, os.fstat(fd).st_size if size < 0 else size, 0)

    def close(self, kill: bool = False) -> None:
        """End the JVM (kill: at once; else it exits at its stdin's end, writing its archive if it does)."""
        if self.proc is not None:
            if self._archive_aside is not None and not kill:
                kill = not self._load_every_tool()
            if kill:
                self.proc.kill()
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            try:
                self.proc.wait(120 if self._archive_aside else 10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            aside = self._archive_aside
            if aside is not None and self.archive is not None and self.proc.returncode == 0 and aside.exists() \
                    and aside.stat().st_size > 0:
                os.replace(aside, self.archive)
            if aside is not None:
                aside.unlink(missing_ok=True)
        self._writing.close()
        for fd in (self.answers, self.out_fd, self.err_fd):
            if fd >= 0:
                os.close(fd)
        self.answers = self.out_fd = self.err_fd = -1


class ToolServer:
    """Kafka's tools for one process: calls go to one long-lived JVM one at a time. A call made while
    another runs (from another thread), a tool that needs a JVM of its own (OWN_JVM), any call once the
    server cannot be built or started, and every call with ODRADEK_KAFKA_TOOL_SERVER=0, runs in a JVM
    of its own (apache_kafka.run_tool)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._pid = os.getpid()
        self._broken = False
        self.starts = 0  # servers started (a timeout or a tool leaving threads behind starts another)
        self.calls = 0
        self.replaced: list[str] = []  # why each replaced server was replaced
        atexit.register(self.close)  # (its JVM ends with this process anyway; this waits for it)

    def run(self, name: str, *args: str, timeout: float = 120, stdin: str | None = None
            ) -> subprocess.CompletedProcess:
        """Kafka's tool bin/kafka-NAME.sh ARGS, its input stdin (else none)."""
        cls = TOOL_CLASSES.get(name)
        if cls is None:
            raise ValueError(f"unknown Kafka tool {name!r}; one of: {' '.join(TOOL_CLASSES)}")
        if not ENABLED or name in OWN_JVM or self._broken or os.getpid() != self._pid \
                or not self._lock.acquire(blocking=False):
            return apache_kafka.run_tool(name, *args, timeout=timeout, stdin=stdin)
        try:
            if self._server is None:
                try:
                    self._server = _Server()
                except (OSError, RuntimeError, subprocess.SubprocessError):
                    self._broken = True
                    return apache_kafka.run_tool(name, *args, timeout=timeout, stdin=stdin)
                self.starts += 1
            self.calls += 1
            cmd = apache_kafka.tool_command(name, *args)
            try:
                code, out, err, clean = self._server.call(cls, args, (stdin or "").encode(), timeout)
            except TimeoutError:
                out, err = self._server.output()
                self.replaced.append(f"{name}: timed out after {timeout} s")
                self._close(kill=True)
                raise subprocess.TimeoutExpired(cmd, timeout, _text(out), _text(err)) from None
            if not clean:
                self.replaced.append(f"{name}: left {self._server.left_behind or 'nothing: the JVM ended'}")
                self._close(kill=True)
            return subprocess.CompletedProcess(cmd, code, _text(out), _text(err))
        finally:
            self._lock.release()

    def close(self) -> None:
        """End the server JVM (the next call starts another); killed if a call still holds it after 5 s."""
        if os.getpid() != self._pid:
            return
        if not self._lock.acquire(timeout=5):
            self._close(kill=True)
            return
        try:
            self._close(kill=False)
        finally:
            self._lock.release()

    def _close(self, kill: bool) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close(kill=kill)
