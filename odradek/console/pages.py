"""The console's pages: server-rendered HTML from jinja2 templates (console/templates/), one
function per page; values shown as text, JSON (pretty-printed) or hex; the lag chart is an
inline SVG drawn here, so the pages need no JavaScript."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from jinja2 import Environment, PackageLoader, select_autoescape

_env = Environment(loader=PackageLoader("odradek.console", "templates"), autoescape=select_autoescape(["html"]))
FORMATS = ("text", "json", "hex")


def show(value: bytes | None, fmt: str) -> str:
    """A key, value or header as the page shows it; ``null`` for a missing one."""
    if value is None:
        return "null"
    if fmt == "hex":
        return value.hex(" ")
    text = value.decode("utf-8", "replace")
    if fmt == "json":
        try:
            return json.dumps(json.loads(text), indent=2, ensure_ascii=False, sort_keys=True)
        except ValueError:
            return text
    return text


def when(ms: int) -> str:
    if ms < 0:
        return "-"
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + "Z"


def sparkline(points: list[tuple[float, float]], width: int = 480, height: int = 120, label: str = "lag") -> str:
    """An SVG polyline of (time, value) points, oldest first (a group's lag, a rate); empty below
    two points."""
    if len(points) < 2:
        return ""
    t0, t1 = points[0][0], points[-1][0]
    top = max(max(v for _, v in points), 1)
    span = max(t1 - t0, 1e-9)
    xy = " ".join(f"{(t - t0) / span * (width - 10) + 5:.1f},{height - 5 - v / top * (height - 20):.1f}"
                  for t, v in points)
    return (f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'role="img" aria-label="{label} over time"><polyline fill="none" stroke="#2a6" stroke-width="2" '
            f'points="{xy}"/><text x="5" y="12" font-size="11">max {top:,.0f} {label}</text></svg>')


def render(template: str, **values) -> bytes:
    return _env.get_template(template).render(show=show, when=when, **values).encode()
