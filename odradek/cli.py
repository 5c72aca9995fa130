"""`odradek` command line: `serve` here; topics/produce/consume/... from cli_tools."""

from __future__ import annotations

import argparse
import os
import sys

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="run a single-node broker (broker + controller)",
                       description="Run a single-node Kafka-compatible broker. Settings use "
                                   "Kafka's property names, from a server.properties file and/or "
                                   "--override key=value.")
    p.add_argument("properties", nargs="?", help="a Kafka-style server.properties file")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                   help="set a property (repeatable), e.g. --override log.dirs=/tmp/data")
    p.add_argument("--port", type=int, help="listen on 127.0.0.1:PORT (shortcut for listeners)")
    p.add_argument("--host", help="listen on HOST (default 127.0.0.1)")
    p.add_argument("--data-dir", help="data directory (shortcut for log.dirs)")
    p.add_argument("--log-level", type=str.upper, choices=LOG_LEVELS,
                   help="broker log level on stderr (default: $ODRADEK_LOG_LEVEL, else INFO: listeners, "
                        "topics created/deleted, group rebalances, segment deletions; DEBUG adds client "
                        "connection errors)")
    p.set_defaults(func=_serve)


def build_config(args):
    from odradek.config import BrokerConfig, parse_override, read_properties_file

    props: dict[str, str] = {}
    if args.properties:
        props.update(read_properties_file(args.properties))
    for item in args.override:
        k, v = parse_override(item)
        props[k] = v
    if args.port is not None or args.host is not None:
        host = args.host or "127.0.0.1"
        port = args.port if args.port is not None else 9092
        props["listeners"] = f"PLAINTEXT://{host}:{port}"
    if args.data_dir:
        props["log.dirs"] = args.data_dir
    return BrokerConfig.from_properties(props)


def _serve(args) -> int:
    from odradek.config import ConfigError

    if args.log_level:
        os.environ["ODRADEK_LOG_LEVEL"] = args.log_level  # read by the broker's run()
    level = os.environ.get("ODRADEK_LOG_LEVEL", "INFO").upper()
    if level not in LOG_LEVELS:
        print(f"odradek: ODRADEK_LOG_LEVEL={level} is not one of {', '.join(LOG_LEVELS)}", file=sys.stderr)
        return 2
    try:
        cfg = build_config(args)
    except (ConfigError, OSError) as e:
        print(f"odradek: configuration error: {e}", file=sys.stderr)
        return 2
    if cfg.unused:
        print(f"odradek: warning: these configurations were supplied but are not used: "
              f"{', '.join(cfg.unused)}", file=sys.stderr, flush=True)
    if cfg.quorum_mode:  # one node of a multi-node KRaft cluster
        from odradek.broker.quorum import run
    else:
        from odradek.broker.server import run

    return run(cfg)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="odradek", description="A Kafka-wire-compatible broker in Python")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_serve(sub)
    try:
        from odradek import cli_tools
    except ImportError:
        cli_tools = None
    if cli_tools is not None and hasattr(cli_tools, "add_subparsers"):
        cli_tools.add_subparsers(sub)
    from odradek import cli_groups  # `odradek groups ...`
    cli_groups.add_subparsers(sub)
    from odradek import cli_cluster  # `odradek cluster ...`
    cli_cluster.add_subparsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    rc = args.func(args)
    return int(rc or 0)


if __name__ == "__main__":
    raise SystemExit(main())
