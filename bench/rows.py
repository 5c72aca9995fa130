"""A bench's rows (one dict each) as a markdown table, to stdout, and as JSON to a file if asked;
the machine's load average beside each number."""
from __future__ import annotations

import json
import os


def loadavg() -> float:
    return round(os.getloadavg()[0], 2)


def table(rows: list[dict], cols: list[str]) -> str:
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join("" if r.get(c) is None else str(r[c]) for c in cols) + " |" for r in rows]
    return "\n".join(out)


def emit(rows: list[dict], cols: list[str], json_path: str | None) -> None:
    """The table to stdout; every field of the rows to ``json_path`` too, if given."""
    print(table(rows, cols))
    if json_path:
        with open(json_path, "w") as f:
            json.dump(rows, f, indent=1)
