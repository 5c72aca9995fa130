"""`odradek ... --help`: every option and argument of every command has help text, and
options with a default show it (argparse's defaults formatter or the help's own words)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from odradek.cli import COMMAND_MODULES, make_parser

REPO = Path(__file__).resolve().parents[2]


def _commands(parser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _commands(child, path + (name,))


COMMANDS = list(_commands(make_parser()))


@pytest.mark.parametrize("path,parser", COMMANDS, ids=[" ".join(p) or "odradek" for p, _ in COMMANDS])
def test_every_option_has_help_and_its_default(path, parser, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # no line wrapping inside a default
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        assert action.help, f"odradek {' '.join(path)}: {action.option_strings or action.dest} has no help"
    text = parser.format_help()
    for action in parser._actions:
        if action.option_strings and action.default not in (None, False, [], argparse.SUPPRESS) \
                and not isinstance(action, argparse._HelpAction):
            assert "default" in text and str(action.default) in text, (path, action.option_strings)


@pytest.mark.parametrize("argv,needles", [
    (["serve"], ["9092", "./odradek-data", "--log-level", "ODRADEK_LOG_LEVEL"]),
    (["cluster"], ["--controllers", "(default: 3)", "--brokers", "(default: 1)", "19092", "./odradek-cluster"]),
    (["produce"], ["--partition", "Kafka's partitioner", "--acks", "(default: -1)", "murmur2"]),
    (["consume"], ["--from-beginning", "the latest", "--max-messages", "no limit"]),
    (["topics", "create"], ["--partitions", "num.partitions", "--config", "(default: -1)"]),
])
def test_help_names_the_defaults(argv, needles):
    r = subprocess.run([sys.executable, "-m", "odradek", *argv, "--help"], capture_output=True, text=True,
                       cwd=str(REPO), timeout=60, env=dict(os.environ, COLUMNS="400"))
    assert r.returncode == 0, r.stderr
    flat = " ".join(r.stdout.split())
    for n in needles:
        assert n in flat, f"{n!r} not in odradek {' '.join(argv)} --help:\n{r.stdout}"


def _top_commands(parser) -> set[str]:
    return {path[0] for path, _ in _commands(parser) if len(path) == 1}


def test_a_command_s_parser_is_the_whole_one_s():
    """`odradek COMMAND ...` builds only COMMAND's module's commands (COMMAND_MODULES): the table names
    every client command with the module that adds it, and COMMAND parses as in the whole parser."""
    whole = make_parser()
    assert _top_commands(whole) == set(COMMAND_MODULES) | {"serve", "completion"}
    whole_commands = dict((path, p) for path, p in _commands(whole))
    for command, module in COMMAND_MODULES.items():
        own = make_parser(command=command)
        assert _top_commands(own) == {"serve"} | {c for c, m in COMMAND_MODULES.items() if m == module}
        for path, p in _commands(own):
            if path and path[0] == command:
                assert p.format_help() == whole_commands[path].format_help(), path
