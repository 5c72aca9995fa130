"""Repository-wide test set-up.

- The session header says which external tools the suite uses are on this machine (tests that need a
  missing one skip, naming it).
- Parallel runs (pytest-xdist, `--dist loadgroup` in pyproject.toml): every test module runs whole on
  one worker, as its module-scoped brokers and builds expect; the Spark tests share one SparkSession,
  so they stay together on one worker.
"""
from __future__ import annotations

import shutil

import pytest

TOOLS = (("java", "Java clients, Kafka Streams, Kafka's CLI tools, Spark"), ("mvn", "the same, first run"),
         ("go", "franz-go"), ("node", "kafkajs"), ("npm", "kafkajs"))


def pytest_report_header(config):
    found = [name for name, _ in TOOLS if shutil.which(name)]
    missing = [f"{name} ({what})" for name, what in TOOLS if not shutil.which(name)]
    line = "external tools: " + (" ".join(found) or "none")
    if missing:
        line += "; missing, their tests skip: " + ", ".join(missing)
    return line


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        top = item.nodeid.split("/", 1)[0]
        group = "spark_tests" if top == "spark_tests" else item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(group))
