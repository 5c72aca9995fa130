"""What the `odradek` commands tell a user when something goes wrong: one line on stderr
and a non-zero exit code (the traceback only with --debug).

Bootstrap lists are validated as Kafka's clients do (ClientUtils.parseAndValidateAddresses):
HOST:PORT only, with Kafka's ConfigException words; connection and DNS failures name the
address; broker error codes are shown by Kafka's error name and message.
"""

from __future__ import annotations

import re
import socket

from odradek.wire.errors import ErrorCode

# Kafka's Utils.HOST_PORT_PATTERN: an optional [IPv6] host, then :port
_HOST_PORT = re.compile(r".*?\[?([0-9a-zA-Z\-%._:]*)\]?:([0-9]+)")


class CliError(Exception):
    """A failure already worded for the user; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def parse_bootstrap(text: str) -> list[tuple[str, int]]:
    """bootstrap.servers as Kafka's clients read it: comma-separated HOST:PORT entries."""
    out = []
    for url in (u.strip() for u in text.split(",")):
        if not url:
            continue
        m = _HOST_PORT.fullmatch(url)
        if m is None or not m.group(1) or not 0 <= int(m.group(2)) <= 65535:
            raise CliError(f"Invalid url in bootstrap.servers: {url}", 2)
        out.append((m.group(1), int(m.group(2))))
    if not out:
        raise CliError("No resolvable bootstrap urls given in bootstrap.servers", 2)
    return out


def connect(bootstrap: str):
    """A WireClient to the first reachable server of the bootstrap list (Kafka's clients
    try each); every server failing is one CliError naming them."""
    from odradek.broker.wire_client import WireClient

    failures = []
    resolvable = False
    for host, port in parse_bootstrap(bootstrap):
        try:
            return WireClient(host, port)
        except socket.gaierror:
            failures.append(f"Couldn't resolve server {host}:{port} from bootstrap.servers as DNS "
                            f"resolution failed for {host}")
            continue
        except OSError as e:
            resolvable = True
            failures.append(connection_failure(host, port, e))
    if not resolvable:
        raise CliError(f"No resolvable bootstrap urls given in bootstrap.servers ({'; '.join(failures)})")
    raise CliError("; ".join(failures))


def connect_to(host: str, port: int):
    """A WireClient to a broker named by the cluster (a coordinator, a leader)."""
    from odradek.broker.wire_client import WireClient

    try:
        return WireClient(host, port)
    except socket.gaierror:
        raise CliError(f"Couldn't resolve broker {host}:{port}: DNS resolution failed for {host}") from None
    except OSError as e:
        raise CliError(connection_failure(host, port, e)) from None


def connection_failure(host: str, port: int, e: OSError) -> str:
    why = "timed out" if isinstance(e, TimeoutError) else (e.strerror or str(e)).lower()
    return f"Connection to {host}:{port} could not be established ({why}). Broker may not be available."


def kafka_error(code: int, message: str | None = None) -> str:
    """`NAME: message` as Kafka's tools show an error code (its exception's default message
    when the broker sent none)."""
    err = ErrorCode.from_code(code)
    return f"{err.name}: {message or err.message}".rstrip(": ")


def describe(e: BaseException) -> str:
    """One line for an exception no command worded itself."""
    from odradek.broker.wire_client import WireClientError

    if isinstance(e, CliError):
        return str(e)
    if isinstance(e, WireClientError):
        return f"Connection to the broker failed: {e}"
    if isinstance(e, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
        return "Connection to the broker failed: connection closed by broker"
    if isinstance(e, TimeoutError):
        return "Timed out waiting for the broker's response"
    if isinstance(e, OSError):
        return f"{e.strerror or e}{': ' + str(e.filename) if e.filename else ''}"
    return f"internal error {type(e).__name__}: {e} (--debug shows the traceback)"
