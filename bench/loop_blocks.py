"""What holds a broker's event loop: py-spy samples the process while a bench scenario runs, and
the main thread's busy periods of at least `min_ms` are listed with their two most sampled stacks.

    with LoopBlocks(pid, min_ms=50) as blocks:
        ...  # the scenario
    print(blocks.report())

py-spy (https://github.com/benfred/py-spy, `pip install py-spy`; it attaches with ptrace) samples
every thread at `rate` Hz including idle ones, in order, into a speedscope file. A main-thread
sample whose innermost frame is the event loop's run call (asyncio's or uvloop's Runner.run) is
the loop waiting; a run of other samples is one busy period (steps that follow each other with no
wait between them count as one). Wall-clock samples: on a loaded machine a period includes the
time the process waited for a CPU. A diagnostic for a person, not a test.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

IDLE_FRAMES = ("Runner.run", "EpollSelector.select")  # innermost Python frame of a waiting loop: uvloop, asyncio


class LoopBlocks:
    def __init__(self, pid: int, min_ms: float = 50, rate: int = 200):
        self.pid, self.min_ms, self.rate = pid, min_ms, rate
        self._proc: subprocess.Popen | None = None
        self._out = os.path.join(tempfile.mkdtemp(prefix="loop-blocks-"), "profile.json")

    @staticmethod
    def available() -> bool:
        return shutil.which("py-spy") is not None

    def __enter__(self) -> "LoopBlocks":
        self._proc = subprocess.Popen(
            ["py-spy", "record", "--pid", str(self.pid), "--idle", "--nonblocking", "--rate", str(self.rate),
             "--format", "speedscope", "--output", self._out],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # (attached)
        return self

    def __exit__(self, *exc) -> None:
        if self._proc is not None:
            self._proc.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
            self._proc.wait(60)

    def periods(self) -> list[tuple[float, float, list[tuple[str, int]]]]:
        """(start s, length ms, [(stack, samples)] two most sampled) of every busy period >= min_ms."""
        with open(self._out) as f:
            prof = json.load(f)
        frames = [fr["name"] for fr in prof["shared"]["frames"]]
        main = next((p for p in prof["profiles"] if "MainThread" in p["name"]), prof["profiles"][0])
        samples = main["samples"]
        dt = (main["endValue"] - main["startValue"]) / max(1, len(samples))
        out, run, start = [], [], 0
        for i, s in enumerate(samples + [[]]):
            if not s or frames[s[-1]] in IDLE_FRAMES:
                if run and len(run) * dt * 1000 >= self.min_ms:
                    top = collections.Counter(" > ".join(frames[j] for j in st[-8:]) for st in run).most_common(2)
                    out.append((start * dt, len(run) * dt * 1000, top))
                run = []
            else:
                if not run:
                    start = i
                run.append(s)
        return out

    def report(self) -> str:
        lines = [f"### event-loop busy periods >= {self.min_ms:g} ms (py-spy, wall clock)", ""]
        for at, ms, top in self.periods():
            lines.append(f"- at {at:.2f} s, {ms:.0f} ms:")
            lines += [f"    - {n} samples: {stack}" for stack, n in top]
        return "\n".join(lines)
