"""The layering of odradek/ (docs: ARCHITECTURE's layer map), read off the source with ast.

1. Imports point downward only: each part of odradek/ imports only the parts listed
   under it in LOWER (so api_handlers never imports broker, log never imports raft...).
   Imports inside functions and under TYPE_CHECKING count too.
2. No part below broker/ imports asyncio, sockets or processes: the event loop and the
   network live in broker/ only.
3. Pure code (PURE) does no I/O and draws nothing from hidden state: no threads, no
   builtin open() or os file writes, no module-level random functions (an injected
   random.Random is fine), no uuid4/os.urandom, no clock reads (time comes in as now_ms).
4. In log/, files are touched only through the FileSystem interface (fs.py, and
   batchio.py's positional write that RealFile uses).

KNOWN lists today's violations in other work in flight, each with its issue; whoever
removes one deletes its entry (a stale entry fails the test, so the list only shrinks).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "odradek"

LOWER = {
    "wire": set(),
    # numbers as Java parses them (java_numbers.py: Integer.parseInt), where Kafka's answer depends on it
    "java_numbers": set(),
    "log": {"wire"},
    "config": {"wire", "log"},
    "raft": {"wire", "log"},
    "replication": {"wire", "log"},
    "controller": {"wire", "log", "raft", "config", "java_numbers"},
    "coordinator": {"wire", "log", "raft", "controller", "config", "java_numbers"},
    "api_handlers": {"wire", "log", "raft", "replication", "controller", "coordinator", "config", "java_numbers"},
    # odradek for tests: the fault rules, the clock, the trace and the control API the broker consults
    "testing": {"wire", "log", "api_handlers", "config"},
    # SASL exchanges, sans-IO (security/sasl.py), quotas, the ACL authorizer over the image's ACLs
    "security": {"wire", "controller"},
    "broker": {"wire", "log", "raft", "replication", "controller", "coordinator", "api_handlers", "config",
               "testing", "security", "java_numbers"},
}  # anything else (cli*.py, __main__.py) is an entry point and may import any part
# odradek.testing's user side (the Broker/Cluster harness, the pytest plugin, the control client):
# entry points, as the CLI is (they start brokers)
TESTING_ENTRY_POINTS = {"testing/__init__.py", "testing/broker.py", "testing/cluster.py", "testing/control.py",
                        "testing/ports.py", "testing/pytest_plugin.py", "testing/clients.py"}

NO_EVENT_LOOP = {"wire", "java_numbers", "log", "raft", "replication", "controller", "coordinator", "api_handlers", "security"}
EVENT_LOOP_MODULES = {"asyncio", "socket", "ssl", "selectors", "subprocess", "uvloop", "multiprocessing"}

PURE = {"wire", "java_numbers", "raft", "replication", "controller", "coordinator", "api_handlers", "log/config.py",
        "testing/faults.py", "testing/trace.py", "testing/control_api.py", "security"}
PURE_BANNED_MODULES = {"threading", "time", "shutil", "concurrent", "secrets"}
OS_IO = {"open", "write", "pwrite", "pwritev", "remove", "unlink", "rename", "replace", "fsync",
         "fdatasync", "makedirs", "mkdir", "rmdir", "ftruncate", "truncate", "urandom", "listdir",
         "scandir", "stat", "read", "pread"}
RANDOM_OK = {"Random"}  # a seeded (or injected) generator; never the module's shared one
UUID_BANNED = {"uuid1", "uuid4"}
LOG_FILE_EDGE = {"log/fs.py", "log/batchio.py"}

# Known violations, each with the issue whose work removes it (none today: keep it so).
KNOWN: set[tuple[str, str]] = set()


GENERATED = "wire/messages/"  # tools/gen_wire.py output: only its import header is read (speed)


def modules():
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        text = path.read_text(encoding="utf-8")
        if rel.startswith(GENERATED):  # its imports all precede the first class
            text = text.split("\nclass ", 1)[0]
        yield rel, ast.parse(text, filename=str(path))


def part_of(rel: str) -> str:
    """'log/segment.py' -> 'log'; 'config.py' -> 'config'."""
    if rel in TESTING_ENTRY_POINTS:
        return "entry point"
    return rel.split("/")[0].removesuffix(".py")


def module_name(rel: str) -> list[str]:
    parts = ["odradek"] + rel.removesuffix(".py").split("/")
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported(rel: str, tree: ast.AST):
    """(line, dotted name) for every import, relative ones resolved; `from odradek import x`
    gives odradek.x."""
    here = module_name(rel)
    package = here if rel.endswith("__init__.py") else here[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                yield node.lineno, f"{mod}.{a.name}" if mod == "odradek" else mod
                if mod != "odradek":
                    yield node.lineno, f"{mod}.{a.name}"  # `from random import randrange`


def calls(tree: ast.AST):
    """(line, 'mod.attr' or 'name') for calls of a plain name or a module attribute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                yield node.lineno, f.id
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                yield node.lineno, f"{f.value.id}.{f.attr}"


def is_pure(rel: str) -> bool:
    return rel in PURE or part_of(rel) in PURE


@functools.cache
def violations() -> dict:
    """{(module, what): line} for every rule broken."""
    found: dict[tuple[str, str], int] = {}
    for rel, tree in modules():
        module_violations(rel, tree, found)
    return found


def module_violations(rel: str, tree: ast.AST, found: dict) -> dict:
    """Adds (rel, what) -> line to ``found`` for every rule module ``rel`` breaks; returns found."""
    part = part_of(rel)
    top_imports = set()
    for line, name in imported(rel, tree):
        top = name.split(".")[0]
        top_imports.add(top)
        if top == "odradek" and part in LOWER:
            dst = name.split(".")[1] if "." in name else ""
            if dst and dst != part and dst not in LOWER[part]:
                found.setdefault((rel, f"import odradek.{dst}"), line)
        if part in NO_EVENT_LOOP and top in EVENT_LOOP_MODULES:
            found.setdefault((rel, f"import {top}"), line)
        if is_pure(rel):
            if top in PURE_BANNED_MODULES:
                found.setdefault((rel, f"import {top}"), line)
            if top == "random" and name not in ("random",) and name.split(".")[-1] not in RANDOM_OK:
                found.setdefault((rel, f"import {name}"), line)
            if top == "uuid" and name.split(".")[-1] in UUID_BANNED:
                found.setdefault((rel, f"import {name}"), line)
    for line, name in calls(tree):
        mod, _, attr = name.rpartition(".")
        if is_pure(rel):
            bad = (name == "open" or (mod == "os" and attr in OS_IO) or (mod == "socket")
                   or (mod == "random" and attr not in RANDOM_OK) or (mod == "uuid" and attr in UUID_BANNED)
                   or (not mod and attr in UUID_BANNED) or mod in ("time", "shutil", "threading"))
            if bad:
                found.setdefault((rel, f"call {name}"), line)
        elif part == "log" and rel not in LOG_FILE_EDGE:
            if name == "open" or (mod == "os" and attr in OS_IO) or mod == "shutil":
                found.setdefault((rel, f"call {name}"), line)
        elif part in NO_EVENT_LOOP and mod in ("socket", "asyncio"):
            found.setdefault((rel, f"call {name}"), line)
    return found


def test_no_forbidden_arrow_or_impure_call():
    new = {k: v for k, v in violations().items() if k not in KNOWN}
    assert not new, "layering broken (see tests/test_layering.py):\n" + "\n".join(
        f"  odradek/{rel}:{line}: {what}" for (rel, what), line in sorted(new.items()))


def test_known_violations_are_still_there():
    stale = KNOWN - set(violations())
    assert not stale, f"fixed - delete these entries from KNOWN in tests/test_layering.py: {sorted(stale)}"


def test_the_checker_sees_what_it_forbids(tmp_path):
    src = ("import asyncio\nimport random\nfrom odradek.broker import server\n"
           "def f():\n    open('x', 'w')\n    random.randrange(3)\n    return random.Random(1)\n")
    tree = ast.parse(src)
    assert ("odradek.broker" in {n for _, n in imported("api_handlers/x.py", tree)})
    assert {n for _, n in calls(tree)} >= {"open", "random.randrange", "random.Random"}


def test_each_forbidden_thing_in_a_pure_package_is_a_violation():
    """Issue 19 items 4 and 6: asyncio, sockets and resolver calls, threads, file I/O, global random,
    uuid4 and os.urandom in controller/, coordinator/, raft/ (pure) each fail the check, as does an
    arrow up the layers; an injected random.Random does not."""
    src = ("import asyncio\nimport socket\nimport threading\nimport secrets\nimport os\nimport random\n"
           "import uuid\nfrom uuid import uuid4\nfrom random import choice\nfrom odradek.broker import server\n"
           "def f(rng: random.Random):\n    open('x', 'w')\n    socket.getaddrinfo('h', 1)\n"
           "    random.randrange(3)\n    uuid.uuid4()\n    uuid4()\n    os.urandom(4)\n"
           "    threading.Thread()\n    return rng.random(), random.Random(1)\n")
    for part in ("controller", "coordinator", "raft"):
        rel = f"{part}/x.py"
        found = {what for (_, what) in module_violations(rel, ast.parse(src), {})}
        assert found >= {"import asyncio", "import socket", "import threading", "import secrets",
                         "import uuid.uuid4", "import random.choice", "import odradek.broker", "call open",
                         "call socket.getaddrinfo", "call random.randrange", "call uuid.uuid4", "call uuid4",
                         "call os.urandom", "call threading.Thread"}, (part, found)
        assert "call random.Random" not in found
    # below broker/ but not pure (log/): no event loop, and files only behind the FileSystem
    found = {what for (_, what) in module_violations("log/x.py", ast.parse(src), {})}
    assert {"import asyncio", "import socket", "call open", "call os.urandom", "import odradek.broker"} <= found
    assert not module_violations("broker/x.py", ast.parse(src), {})  # the composition root may
