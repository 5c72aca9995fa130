"""How the broker's log lines look on stderr: text (the default) or one JSON object a line
(`odradek serve --log-format json`, or ODRADEK_LOG_FORMAT=json) for log shippers."""

from __future__ import annotations

import json
import logging

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    """{"time": ISO-8601 UTC with ms, "level", "logger", "message"[, "exception"]}"""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
               "message": record.getMessage()}
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)

    def formatTime(self, record: logging.LogRecord, datefmt=None) -> str:
        import time

        t = time.gmtime(record.created)
        return time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{int(record.msecs):03d}Z"


def formatter(kind: str) -> logging.Formatter:
    return JsonFormatter() if kind == "json" else logging.Formatter(TEXT)
