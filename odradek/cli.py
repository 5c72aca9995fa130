"""`odradek` command line: `serve` here; topics/produce/consume/... from cli_tools."""

from __future__ import annotations

import argparse
import gc
import importlib
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
    p.add_argument("--port", type=int,
                   help="listen on HOST:PORT (shortcut for listeners; default 9092, the listeners default "
                        "PLAINTEXT://127.0.0.1:9092)")
    p.add_argument("--host", help="listen on HOST (shortcut for listeners; default 127.0.0.1)")
    p.add_argument("--data-dir", help="data directory (shortcut for log.dirs; default ./odradek-data)")
    p.add_argument("--http-port", type=int,
                   help="serve /metrics (Prometheus), /health/live and /health/ready on this port "
                        "(shortcut for odradek.http.port; host odradek.http.host, default 127.0.0.1; "
                        "default: no HTTP listener)")
    p.add_argument("--trace", metavar="FILE",
                   help="write every request and response, decoded, to FILE as JSON lines (shortcut for "
                        "odradek.testing.trace.file)")
    p.add_argument("--log-format", choices=("text", "json"),
                   help="broker log lines as text or one JSON object each (time, level, logger, message) "
                        "(default: $ODRADEK_LOG_FORMAT, else text)")
    p.add_argument("--log-level", type=str.upper, choices=LOG_LEVELS,
                   help="broker log level on stderr (default: $ODRADEK_LOG_LEVEL, else INFO: listeners, "
                        "topics created/deleted, group rebalances, segment deletions; DEBUG adds client "
                        "connection errors)")
    p.add_argument("--add-scram", action="append", default=[], metavar="CREDENTIAL",
                   help="a SCRAM credential a fresh cluster's metadata starts with (repeatable), as Kafka's "
                        "kafka-storage format --add-scram, e.g. 'SCRAM-SHA-256=[name=alice,password=alice-secret]' "
                        "or 'SCRAM-SHA-512=[name=alice,iterations=8192,salt=\"N3E=\",saltedpassword=\"YCE=\"]': "
                        "so brokers can authenticate to the controllers with SCRAM before any credential is "
                        "altered; ignored once the metadata log exists. Give it to every controller")
    p.set_defaults(func=_serve)


def build_config(args):
    from odradek.config import BrokerConfig, ConfigError, parse_override, read_properties_file

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
    if args.http_port is not None:
        props["odradek.http.port"] = str(args.http_port)
    if args.trace:
        props["odradek.testing.trace.file"] = args.trace
    cfg = BrokerConfig.from_properties(props)
    if args.add_scram:
        import dataclasses
        import secrets

        from odradek.controller.scram import AddScramError, add_scram_record

        try:
            records = tuple(add_scram_record(a, lambda: secrets.token_bytes(16)) for a in args.add_scram)
        except AddScramError as e:
            raise ConfigError(f"--add-scram: {e}") from None
        cfg = dataclasses.replace(cfg, bootstrap_scram=records)
    return cfg


def _serve(args) -> int:
    if args.log_level:
        os.environ["ODRADEK_LOG_LEVEL"] = args.log_level  # read by the broker's run()
    if args.log_format:
        os.environ["ODRADEK_LOG_FORMAT"] = args.log_format
    if os.environ.get("ODRADEK_LOG_FORMAT", "text") not in ("text", "json"):
        print(f"odradek: ODRADEK_LOG_FORMAT={os.environ['ODRADEK_LOG_FORMAT']} is not one of text, json",
              file=sys.stderr)
        return 2
    level = os.environ.get("ODRADEK_LOG_LEVEL", "INFO").upper()
    if level not in LOG_LEVELS:
        print(f"odradek: ODRADEK_LOG_LEVEL={level} is not one of {', '.join(LOG_LEVELS)}", file=sys.stderr)
        return 2
    # What the imports below make (~45,000 objects: modules, classes, functions, the config) lives as
    # long as the process, and they hold next to no garbage: collections while they load would only walk
    # them (~70 young ones, ~20 ms of CPU a start). So automatic collection is off while they load, and
    # they are then moved out of the collector's generations, as the broker's freeze_start_up_heap does
    # with the rest of its start-up once it is ready.
    gc.disable()
    try:
        from odradek.config import ConfigError

        try:
            cfg = build_config(args)
        except (ConfigError, OSError) as e:
            print(f"odradek: configuration error: {e}", file=sys.stderr)
            return 2
        if cfg.unused:
            print(f"odradek: warning: these configurations were supplied but are not used: "
                  f"{', '.join(cfg.unused)}", file=sys.stderr, flush=True)
        for message in cfg.deprecations:
            print(f"odradek: warning: {message}", file=sys.stderr, flush=True)
        if cfg.quorum_mode:  # one node of a multi-node KRaft cluster
            from odradek.broker.quorum import run
        else:
            from odradek.broker.server import run
        mounts = ()
        if cfg.http_port is not None:  # the web console under /console/ beside /metrics
            from odradek.console.app import mount_console

            mounts = (mount_console,)
        gc.freeze()
    finally:
        gc.enable()
    return run(cfg, mounts)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help ends with its default, unless it has none worth showing
    (None, False, an empty list) or the help already names it."""

    def _get_help_string(self, action):
        if action.default in (None, False, [], argparse.SUPPRESS) or "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


class CliParser(argparse.ArgumentParser):
    """argparse with odradek's help formatter and one-line usage errors."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        # on every command, before or after its name (the top level sets the default False)
        self.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                          help="on failure, show the Python traceback instead of one line")

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# `odradek COMMAND ...` -> the module that adds COMMAND: a client command's process imports just that
# one (the others cost ~0.15 s of CPU a process: the console's asyncio, the testing client's messages)
COMMAND_MODULES = {"topics": "cli_tools", "produce": "cli_tools", "consume": "cli_tools", "dump-log": "cli_tools",
                   "groups": "cli_groups", "cluster": "cli_cluster", "fault": "cli_testing", "clock": "cli_testing",
                   "status": "cli_status", "console": "cli_console"}
CLIENT_MODULES = ("cli_tools", "cli_groups", "cli_cluster", "cli_testing", "cli_status", "cli_console")


def make_parser(serve_only: bool = False, command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; ``serve_only``: just `serve` (a broker's start then imports none of
    the client commands' modules: ~0.25 s of imports per broker process); ``command``: just `serve`
    and the commands of COMMAND's module (COMMAND_MODULES), when it is one of them."""
    parser = CliParser(prog="odradek", description="A Kafka-wire-compatible broker in Python")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_serve(sub)
    if serve_only:
        parser.set_defaults(debug=False)
        return parser
    only = COMMAND_MODULES.get(command or "")
    for name in CLIENT_MODULES if only is None else (only,):
        importlib.import_module(f"odradek.{name}").add_subparsers(sub)
    if only is None:
        _add_completion(sub, parser)
    parser.set_defaults(debug=False)
    return parser


COMPLETION_SHELLS = ("bash", "zsh", "tcsh")


def _add_completion(sub, parser: argparse.ArgumentParser) -> None:
    p = sub.add_parser("completion", help="print a shell completion script for odradek (bash, zsh, tcsh)",
                       description="Print a completion script of every command and option, made from this "
                                   "command line by shtab. Install it, e.g.: odradek completion bash > "
                                   "~/.local/share/bash-completion/completions/odradek (bash), odradek "
                                   "completion zsh > ~/.zfunc/_odradek (zsh, with ~/.zfunc in fpath), or "
                                   "eval \"$(odradek completion bash)\" in a shell's rc file.")
    p.add_argument("shell", choices=COMPLETION_SHELLS, help="the shell to complete in")

    def completion(args) -> int:
        import shtab

        print(shtab.complete(parser, shell=args.shell), end="")
        return 0

    p.set_defaults(func=completion)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = make_parser(serve_only=bool(argv) and argv[0] == "serve", command=argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        rc = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # stdout closed early (`odradek consume ... | head`): as the Python docs advise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:  # noqa: BLE001 - every failure is one line unless --debug
        if args.debug:
            raise
        from odradek.cli_errors import CliError, describe

        print(f"{parser.prog} {args.command}: {describe(e)}", file=sys.stderr)
        return e.code if isinstance(e, CliError) else 1
    return int(rc or 0)


if __name__ == "__main__":
    raise SystemExit(main())
