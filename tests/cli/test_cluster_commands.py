"""`odradek cluster` reads node commands from stdin (os.read: no lock held at exit) a bounded line at a time: stdin that is a
binary stream (/dev/zero, a file without newlines) costs neither memory nor CPU (an unbounded
line read once grew the supervisor to 13 GB)."""

from __future__ import annotations

import io
import queue

from odradek.cli_cluster import MAX_COMMAND_LINE, read_commands


class Zeros(io.RawIOBase):
    """An endless stream of zero bytes, as /dev/zero; counts what was asked of it."""

    def __init__(self):
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        buf[:] = bytes(len(buf))
        self.given += len(buf)
        return len(buf)


def drained(q: queue.Queue) -> list[str]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def test_each_line_is_a_command():
    q: queue.Queue = queue.Queue()
    read_commands(io.BytesIO(b"status\nrestart 4\n\nkill 2").read, q)
    assert drained(q) == ["status\n", "restart 4\n", "\n", "kill 2"]


def test_an_endless_line_stops_reading_at_once(capsys):
    q: queue.Queue = queue.Queue()
    zeros = Zeros()
    read_commands(zeros.read, q)
    assert drained(q) == []
    assert zeros.given <= 4096  # one read's worth, not the stream
    assert "no more commands are read from stdin" in capsys.readouterr().out


def test_commands_before_a_long_line_still_count():
    q: queue.Queue = queue.Queue()
    read_commands(io.BytesIO(b"status\n" + b"x" * (MAX_COMMAND_LINE + 1) + b"\nkill 2\n").read, q)
    assert drained(q) == ["status\n"]
