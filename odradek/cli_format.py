"""How the CLI prints: `--format table|json|yaml` of the listing commands (a table in the layout of
Kafka's tools by default, or the same rows as JSON or YAML for scripts), tables drawn by ``rich``
on a terminal (plain aligned columns when piped, for scripts and `awk`), and progress bars with
rates on stderr for long operations, only when stderr is a terminal."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import contextmanager
from typing import Iterator, Protocol

FORMATS = ("table", "json", "yaml")


def add_format(p) -> None:
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="output: a table in the layout of Kafka's tools, or JSON or YAML for scripts")


def emit(value, fmt: str, table: Callable[[], None]) -> None:
    """Print ``value`` (lists, dicts, strings, numbers) as JSON or YAML, or call ``table``."""
    if fmt == "json":
        print(json.dumps(value, indent=2))
    elif fmt == "yaml":
        import yaml

        print(yaml.safe_dump(value, sort_keys=False, allow_unicode=True), end="")
    else:
        table()


def header_rows(header: list[str], rows: list[list]) -> list[dict]:
    """Table rows as objects keyed by the header in lower case ("LOG-END-OFFSET" -> "log_end_offset")."""
    keys = [h.lower().replace("-", "_").replace(" ", "_").replace("#", "").replace("(", "").replace(")", "")
            for h in header]
    return [{k: _value(v) for k, v in zip(keys, row)} for row in rows]


def _value(v):
    """A table cell as data: digits as a number, Kafka's "-" (nothing) as null."""
    if isinstance(v, str):
        if v.lstrip("-").isdigit():
            return int(v)
        if v == "-":
            return None
    return v


def _terminal(stream) -> bool:
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # closed or not a file
        return False


def print_table(rows: list[list], header: list[str], out=None, title: str | None = None) -> None:
    """The rows under the header: a rich table on a terminal, else columns padded with two spaces
    (the layout Kafka's tools print, what scripts parse)."""
    out = out or sys.stdout
    cells = [["" if x is None else str(x) for x in r] for r in rows]
    if _terminal(out):
        from rich import box
        from rich.console import Console
        from rich.table import Table

        t = Table(*header, box=box.SIMPLE_HEAD, header_style="bold cyan", title=title, title_justify="left",
                  pad_edge=False)
        for r in cells:
            t.add_row(*r)
        Console(file=out, soft_wrap=True).print(t)
        return
    if title:
        print(title, file=out)
    table = [[str(x) for x in header]] + cells
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip(), file=out)


class Progress(Protocol):
    def advance(self, n: int = 1, nbytes: int = 0) -> None:
        """``n`` more records (or steps) done, ``nbytes`` more bytes of the input."""

    def step(self, what: str) -> None:
        """Name what is being done now."""


class _Silent:
    def advance(self, n: int = 1, nbytes: int = 0) -> None:
        pass

    def step(self, what: str) -> None:
        pass


class _Bar:
    """A rich progress bar: done/total (records, or bytes when the total is a size) and the rates."""

    def __init__(self, progress, task, by_bytes: bool):
        self.progress, self.task, self.by_bytes = progress, task, by_bytes
        self.records = 0

    def advance(self, n: int = 1, nbytes: int = 0) -> None:
        self.records += n
        self.progress.update(self.task, advance=nbytes if self.by_bytes else n, records=self.records)

    def step(self, what: str) -> None:
        self.progress.update(self.task, description=what)


@contextmanager
def progress(description: str, total: int | None = None, unit: str = "records", by_bytes: bool = False,
             stream=None, rate: bool = True) -> Iterator[Progress]:
    """A progress bar on ``stream`` (stderr) while the block runs, if it is a terminal: done of
    ``total`` (bytes when ``by_bytes``, else ``unit``), the record rate, the byte rate, the time
    left (``rate`` False: no rate, for steps). Not a terminal (piped, a file, CI): nothing is drawn. What the block prints to stdout
    meanwhile goes above the bar when stdout is a terminal too, else straight to stdout."""
    stream = stream or sys.stderr
    if not _terminal(stream):
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, DownloadColumn, MofNCompleteColumn, Progress as RichProgress,
                               SpinnerColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
                               TransferSpeedColumn)

    columns = [SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn()]
    if by_bytes:
        columns += [DownloadColumn(), TransferSpeedColumn(), TextColumn("{task.fields[records]:,} " + unit)]
    else:
        columns += [MofNCompleteColumn(), TextColumn(unit)]
    if rate:
        columns.append(_RateColumn(unit, by_bytes))
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    with RichProgress(*columns, console=Console(file=stream), transient=False, refresh_per_second=8,
                      redirect_stdout=_terminal(sys.stdout), redirect_stderr=False) as p:
        task = p.add_task(description, total=total, records=0)
        yield _Bar(p, task, by_bytes)


def _RateColumn(unit: str, by_bytes: bool):
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Records per second (rich's own speed column counts the bar's unit: bytes when by size)."""

        def render(self, task) -> Text:
            elapsed = task.elapsed or 0
            n = task.fields.get("records", 0) if by_bytes else task.completed
            if not elapsed:
                return Text(f"- {unit}/s", style="progress.data.speed")
            return Text(f"{n / elapsed:,.0f} {unit}/s", style="progress.data.speed")

    return RateColumn()
