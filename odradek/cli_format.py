"""`--format table|json|yaml` of the listing commands: a table in the layout of Kafka's tools (the
default), or the same rows as JSON or YAML for scripts."""

from __future__ import annotations

import json
from collections.abc import Callable

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
