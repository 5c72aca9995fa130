"""Repository-wide test set-up.

- The session header says which external tools the suite uses are on this machine (tests that need a
  missing one skip, naming it).
- Parallel runs (pytest-xdist, `-n auto --dist loadscope` in pyproject.toml): every test module runs
  whole on one worker, as its module-scoped brokers expect; the Spark tests share one SparkSession, so
  they stay together on one worker. The longest modules go first (pytest_xdist_make_scheduler: a run
  of the whole suite records each test's duration in the per-user cache, apache_kafka.user_cache(),
  and the next run reads it; a module not measured yet is guessed long by what it starts: clusters, Kafka nodes, client
  builds), so the many short unit-test modules fill the end. `-n auto` is two workers more than the
  cores: most of a compat test's time is spent waiting for brokers, clusters and client processes
  (a whole run keeps ~0.85 of a core busy per worker at 3 workers on 2 cores).
"""
from __future__ import annotations

import json
import os
import resource
import shutil
from pathlib import Path

import pytest
from xdist import is_xdist_worker

import apache_kafka

# Hypothesis's storage (the Unicode tables of its text strategies; the constants it reads from the project's
# modules, keyed by their source; its example database) in the per-user cache, not in the clone's .hypothesis:
# in a fresh clone every pytest worker computed the tables and constants again (~4 CPU s each).
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(apache_kafka.user_cache() / "hypothesis"))

# tmp_path and tmp_path_factory (every test broker's, cluster's and log's data directory) in memory (tmpfs)
# when there is one: the logs, checkpoints and metadata logs the tests write are fsynced, and on a disk each
# fsync costs kernel CPU and waiting that no test checks (durability is proven on the in-memory
# FaultyFileSystem and by kill -9, which keeps the page cache either way). PYTEST_DEBUG_TEMPROOT is pytest's
# own setting for the root of its temporary directories; one set by the user wins.
if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK):
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", "/dev/shm")

TOOLS = (("java", "Java clients, Kafka Streams, Kafka's CLI tools, Spark"), ("mvn", "the same, first run"),
         ("go", "franz-go"), ("node", "kafkajs"), ("npm", "kafkajs"),
         ("chromium", "the web console in a browser"), ("chromedriver", "the same"))


def pytest_report_header(config):
    found = [name for name, _ in TOOLS if shutil.which(name)]
    missing = [f"{name} ({what})" for name, what in TOOLS if not shutil.which(name)]
    line = "external tools: " + (" ".join(found) or "none")
    if missing:
        line += "; missing, their tests skip: " + ", ".join(missing)
    return line


def _group(nodeid: str) -> str:
    """The unit of work a parallel worker takes whole: a test module, or all the Spark tests."""
    module = nodeid.split("::", 1)[0]
    return "spark_tests" if module.startswith("spark_tests/") else module


def _durations_file() -> Path:
    return apache_kafka.user_cache() / "test-durations.json"


def _measured() -> dict[str, float]:
    """Seconds per test id (setup + call + teardown) from the runs before, on this machine."""
    try:
        return json.loads(_durations_file().read_text())
    except (OSError, ValueError):
        return {}


class DurationLog:
    """Every test's seconds in a run of the whole suite (no paths given: the README's command, CI),
    merged at the end into the per-user record that the scheduler reads (the main process only: under
    xdist it receives the workers' reports). A run of a few modules is left out: its load is not the
    whole suite's (one module alone, or beside other work on the machine)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if not self.seconds or is_xdist_worker(session) or not _whole_suite(session.config, exitstatus):
            return
        path = _durations_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        with apache_kafka.cache_lock(path.name, path.parent):
            merged = {**_measured(), **{k: round(v, 3) for k, v in self.seconds.items()}}
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(merged, sort_keys=True))
            os.replace(tmp, path)


def _cpu_s() -> float:
    """CPU seconds (user + system) of this process and of the child processes it has waited for."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _whole_suite(config, exitstatus) -> bool:
    """A run of the whole suite (no paths given, no -k/-m selection) to its end: not interrupted (Ctrl-C),
    not stopped at a first failure (-x, --maxfail); what it measured holds for the next whole run."""
    o = config.option
    return config.args_source == pytest.Config.ArgsSource.TESTPATHS and not (o.keyword or o.markexpr or o.maxfail) \
        and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)


class CpuByModule:
    """The CPU each test module costs: where tests run (a worker, or the one process without xdist), the
    CPU seconds since the previous test ended go on a test's teardown report (user_properties "cpu_s"):
    the test process and what it waited for (brokers, clusters, JVMs; a module's brokers are stopped in
    its last test's teardown). The main process adds them up by module and, after a run of the whole
    suite, lists the modules that cost most: on 2 cores a run is CPU-bound, so that is where time goes."""

    TOP = 15

    def __init__(self) -> None:
        self.last = _cpu_s()
        self.by_module: dict[str, float] = {}

    def pytest_collection_finish(self, session) -> None:
        self.last = _cpu_s()  # a worker's collection is no module's

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        if call.when == "teardown":
            now = _cpu_s()
            outcome.get_result().user_properties.append(("cpu_s", round(now - self.last, 3)))
            self.last = now

    def pytest_runtest_logreport(self, report) -> None:
        cpu = dict(report.user_properties).get("cpu_s") if report.when == "teardown" else None
        if cpu is not None:
            module = report.nodeid.split("::", 1)[0]
            self.by_module[module] = self.by_module.get(module, 0.0) + float(cpu)

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        if not self.by_module or not _whole_suite(config, exitstatus):
            return
        total = sum(self.by_module.values())
        ranked = sorted(self.by_module.items(), key=lambda kv: -kv[1])
        path = apache_kafka.user_cache() / "cpu-by-module.json"  # every module's, for a closer look
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({m: round(s, 2) for m, s in ranked}, indent=0))
        top = ranked[:self.TOP]
        terminalreporter.write_sep("-", f"CPU seconds of the tests: {total:.0f} in all, the {len(top)} dearest modules"
                                        f" (all of them: {path})")
        for module, seconds in top:
            terminalreporter.write_line(f"{seconds:8.1f}  {module}")


class Timeline:
    """When each module ran and on which worker (the setup of its first test to the teardown of its last),
    after a run of the whole suite: kept in the per-user cache (run-timeline.json: module -> worker, start,
    end, seconds from the run's first test) and its end printed: when each worker ran out of work and the
    modules that ended last, so that a run whose end is one long module alone (the others idle) shows it."""

    LAST = 6

    def __init__(self) -> None:
        self.spans: dict[str, list] = {}  # module -> [worker, start, stop]

    def pytest_runtest_logreport(self, report) -> None:
        module = report.nodeid.split("::", 1)[0]
        worker = str(dict(report.user_properties).get("worker", "-"))
        span = self.spans.setdefault(module, [worker, report.start, report.stop])
        span[0] = worker if report.when == "teardown" else span[0]
        span[1], span[2] = min(span[1], report.start), max(span[2], report.stop)

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        if not self.spans or not _whole_suite(config, exitstatus):
            return
        t0 = min(start for _, start, _ in self.spans.values())
        spans = {m: (w, round(a - t0, 1), round(b - t0, 1)) for m, (w, a, b) in self.spans.items()}
        path = apache_kafka.user_cache() / "run-timeline.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(dict(sorted(spans.items(), key=lambda kv: kv[1][1])), indent=0))
        ends: dict[str, float] = {}
        for w, _, b in spans.values():
            ends[w] = max(ends.get(w, 0.0), b)
        terminalreporter.write_sep("-", "the run's end: each worker's last test ended at (s) "
                                        + ", ".join(f"{w} {b:.0f}" for w, b in sorted(ends.items()))
                                        + f"; the last modules (all: {path})")
        for m, (w, a, b) in sorted(spans.items(), key=lambda kv: -kv[1][2])[:self.LAST]:
            terminalreporter.write_line(f"{w:>6} {a:6.0f} - {b:4.0f} s  {m}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each report names the worker that ran it (Timeline)."""
    outcome = yield
    outcome.get_result().user_properties.append(("worker", os.environ.get("PYTEST_XDIST_WORKER", "main")))


def pytest_configure(config):
    config.pluginmanager.register(DurationLog(), "odradek-duration-log")
    config.pluginmanager.register(CpuByModule(), "odradek-cpu-by-module")
    config.pluginmanager.register(Timeline(), "odradek-timeline")


# Seconds per test of a module this machine has not measured yet, by what the module starts (the words
# its source uses), so that a new multi-node module is started early in its first run too.
FIRST_GUESS = (("running_cluster", 40.0), ("running_odradek", 40.0), ("kafka_ref", 40.0), ("import builds", 15.0),
               ("from builds import", 15.0), ("kafka_tool", 5.0))
BUSY_S = 30  # a worker with more than this many seconds of tests still ahead of it is busy for a while yet


def _first_guess(root: Path, group: str) -> float:
    if group == "spark_tests":
        return 20.0
    if not group.startswith("compat_tests/"):
        return 0.05
    try:
        source = (root / group).read_text()
    except OSError:
        return 3.0
    return next((seconds for word, seconds in FIRST_GUESS if word in source), 3.0)


def pytest_xdist_make_scheduler(config, log):
    """xdist's load-by-scope scheduling with _group as the scope (its loadgroup marks do not reach the
    scheduler under pytest 9, which made node ids read-only), the longest group first: a worker about
    to be free takes the longest group left (expected seconds: the tests' measured durations, else
    FIRST_GUESS), so that no worker ends the run alone on a long one; a worker that has a long test
    still ahead of it, and is only given its next group because xdist queues one before a worker's
    last test runs, takes the shortest."""
    from xdist.scheduler import LoadScopeScheduling

    measured = _measured()
    guesses: dict[str, float] = {}
    totals: dict[str, float] = {}

    def expected(nodeid: str) -> float:
        if nodeid in measured:
            return measured[nodeid]
        group = _group(nodeid)
        if group not in guesses:
            guesses[group] = _first_guess(config.rootpath, group)
        return guesses[group]

    def total(group: str, tests) -> float:
        if group not in totals:
            totals[group] = sum(map(expected, tests))
        return totals[group]

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _group(nodeid)

        def _assign_work_unit(self, node) -> None:
            ahead = sum(expected(t) for unit in self.assigned_work.get(node, {}).values()
                        for t, done in unit.items() if not done)
            pick = (min if ahead > BUSY_S else max)(self.workqueue, key=lambda g: total(g, self.workqueue[g]))
            self.workqueue.move_to_end(pick, last=False)
            super()._assign_work_unit(node)

    return GroupScheduling(config, log)


def pytest_addoption(parser):
    """The seeded simulations' options (tests/raft, tests/replication): registered here, once, so they
    work whichever directories a run names (tests/sim_seeds.py reads them)."""
    group = parser.getgroup("simulation")
    group.addoption("--sim-seeds", type=int, default=None,
                    help="number of simulation seeds to run (also ODRADEK_SIM_SEEDS)")
    group.addoption("--sim-seed", type=int, default=None, help="run (replay) this one seed (also ODRADEK_SIM_SEED)")


def pytest_xdist_auto_num_workers(config):
    """Most of the suite's time is waiting (brokers fencing a killed node, clients' polls, JVMs), so
    more workers than cores: on 2 cores 8 workers took 341 s, 6 370 s, 4 479 s (same tree, quiet
    machine, CPU 651-710 s each). Bounded by memory: a worker may hold a 3+3-node cluster and JVMs
    (~2 GiB each at most)."""
    cores = os.cpu_count() or 1
    gib = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 30
    return max(1, min(4 * cores, cores + 6, gib // 2))
