"""`odradek fault inject|remove|clear|list` and `odradek clock advance|now`: a test broker's
faults and clock over its HTTP control API (a broker started with
odradek.testing.control.enable=true and an HTTP port), for tests in any language.

    odradek fault inject --bootstrap-http http://127.0.0.1:8080 --api Produce \\
        --error NOT_LEADER_OR_FOLLOWER --times 2          # prints the fault's id
    odradek clock advance --bootstrap-http http://127.0.0.1:8080 --ms 45000
    odradek fault inject ... --api Produce --rewrite '{"throttle_time_ms": 500}'
    odradek fault drop-connections --bootstrap-http URL --client-id my-app
    odradek fault pause|resume --bootstrap-http URL
    odradek fault network --bootstrap-http URL --cut 4,5 [--clients] [--slow 6=5000]; odradek fault heal ...
"""

from __future__ import annotations

import argparse
import json
import urllib.error

from odradek.cli_errors import CliError
from odradek.testing.control import Clock, Faults, http_transport
from odradek.testing.faults import ACTIONS, FaultError


def _http(p) -> None:
    p.add_argument("--bootstrap-http", required=True, metavar="URL",
                   help="the broker's HTTP listener, http://HOST:PORT (its odradek.http.port)")


def add_subparsers(sub) -> None:
    f = sub.add_parser("fault", help="inject and remove faults on a test broker (its HTTP control API)",
                       description="Protocol-level faults on a broker started with "
                                   "odradek.testing.control.enable=true (see the README's testing section).")
    fsub = f.add_subparsers(dest="fault_command", metavar="ACTION")
    i = fsub.add_parser("inject", help="answer matching requests with an error, delay them, drop their "
                                       "response or close their connection; prints the fault's id")
    _http(i)
    i.add_argument("--api", required=True, help="a Kafka API name (Produce, Fetch, JoinGroup, ...) or key")
    i.add_argument("--error", help="answer with this Kafka error (name, e.g. NOT_LEADER_OR_FOLLOWER, or code)")
    i.add_argument("--times", type=int, help="how many matching requests (default: all until removed)")
    i.add_argument("--topic", help="only requests naming this topic")
    i.add_argument("--partition", type=int, help="only requests naming this partition")
    i.add_argument("--group", help="only requests naming this group id")
    i.add_argument("--client-id", help="only requests of this client id")
    i.add_argument("--version", type=int, help="only requests of this API version")
    i.add_argument("--delay-ms", type=int, help="answer after this delay")
    i.add_argument("--action", choices=ACTIONS, help="drop the response, or close the connection")
    i.add_argument("--rewrite", type=_json_object, metavar="JSON",
                   help='set fields of the response before it is sent, e.g. '
                        '\'{"responses": {"partition_responses": {"error_code": 6}}}\' (arrays: every element)')
    i.set_defaults(func=fault_inject)
    d = fsub.add_parser("drop-connections", help="reset every connection of a client id; prints how many")
    _http(d)
    d.add_argument("--client-id", required=True, help="the client.id whose connections are reset")
    d.set_defaults(func=fault_drop_connections)
    for name, what, fn in (("pause", "the node's listeners read and answer nothing until resumed", fault_pause),
                           ("resume", "a paused node answers again", fault_resume)):
        ps = fsub.add_parser(name, help=what)
        _http(ps)
        ps.set_defaults(func=fn)
    nw = fsub.add_parser("network", help="cut the node from peers (node ids) or clients, or slow a peer's requests; "
                                         "prints the node's test network")
    _http(nw)
    nw.add_argument("--cut", type=_ids, default=[], metavar="IDS", help="node ids whose requests it refuses, e.g. 4,5")
    nw.add_argument("--clients", action="store_true", help="refuse every client's requests too")
    nw.add_argument("--slow", action="append", type=_slow, default=[], metavar="ID=MS",
                    help="answer node ID's requests after MS ms (0 removes it); repeatable")
    nw.set_defaults(func=fault_network)
    h = fsub.add_parser("heal", help="nothing cut, nothing slow")
    _http(h)
    h.set_defaults(func=fault_heal)
    r = fsub.add_parser("remove", help="remove a fault by id")
    _http(r)
    r.add_argument("id", type=int, help="the id odradek fault inject printed")
    r.set_defaults(func=fault_remove)
    c = fsub.add_parser("clear", help="remove every fault")
    _http(c)
    c.set_defaults(func=fault_clear)
    ls = fsub.add_parser("list", help="the faults in place, as JSON (with their hits)")
    _http(ls)
    ls.set_defaults(func=fault_list)

    k = sub.add_parser("clock", help="advance a test broker's virtual clock (its HTTP control API)",
                       description="The clock of a broker started with odradek.testing.virtual.clock=true.")
    ksub = k.add_subparsers(dest="clock_command", metavar="ACTION")
    a = ksub.add_parser("advance", help="move the broker's clock forward; prints its new time (ms)")
    _http(a)
    a.add_argument("--ms", type=int, required=True, help="by how many milliseconds")
    a.set_defaults(func=clock_advance)
    n = ksub.add_parser("now", help="the broker's clock (ms since the epoch)")
    _http(n)
    n.set_defaults(func=clock_now)


def _json_object(text: str) -> dict:
    try:
        value = json.loads(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not JSON: {e}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("a JSON object of response fields")
    return value


def _ids(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"node ids separated by commas, not {text!r}") from None


def _slow(text: str) -> tuple[int, int]:
    node, _, ms = text.partition("=")
    if not node.strip().isdigit() or not ms.strip().isdigit():
        raise argparse.ArgumentTypeError(f"ID=MS, not {text!r}")
    return int(node), int(ms)


def _calling(fn):
    try:
        return fn()
    except FaultError as e:
        raise CliError(str(e)) from None
    except urllib.error.URLError as e:
        raise CliError(f"cannot reach the control API: {e.reason}") from None


def fault_inject(args) -> int:
    faults = Faults(http_transport(args.bootstrap_http))
    handle = _calling(lambda: faults.inject(args.api, args.error, args.times, topic=args.topic,
                                            partition=args.partition, group=args.group, client_id=args.client_id,
                                            version=args.version, delay_ms=args.delay_ms, action=args.action,
                                            rewrite=args.rewrite))
    print(handle.id)
    return 0


def fault_drop_connections(args) -> int:
    print(_calling(lambda: Faults(http_transport(args.bootstrap_http)).drop_connections(args.client_id)))
    return 0


def fault_pause(args) -> int:
    _calling(lambda: Faults(http_transport(args.bootstrap_http)).pause())
    return 0


def fault_resume(args) -> int:
    _calling(lambda: Faults(http_transport(args.bootstrap_http)).resume())
    return 0


def fault_network(args) -> int:
    state = _calling(lambda: Faults(http_transport(args.bootstrap_http)).network(
        args.cut, clients=True if args.clients else None, slow=dict(args.slow)))
    print(json.dumps(state))
    return 0


def fault_heal(args) -> int:
    print(json.dumps(_calling(lambda: Faults(http_transport(args.bootstrap_http)).heal())))
    return 0


def fault_remove(args) -> int:
    removed = _calling(lambda: Faults(http_transport(args.bootstrap_http)).remove(args.id))
    if not removed:
        raise CliError(f"no fault {args.id} (spent or removed)")
    return 0


def fault_clear(args) -> int:
    print(_calling(lambda: Faults(http_transport(args.bootstrap_http)).clear()))
    return 0


def fault_list(args) -> int:
    print(json.dumps(_calling(lambda: Faults(http_transport(args.bootstrap_http)).list()), indent=2))
    return 0


def clock_advance(args) -> int:
    print(_calling(lambda: Clock(http_transport(args.bootstrap_http)).advance(args.ms)))
    return 0


def clock_now(args) -> int:
    print(_calling(lambda: Clock(http_transport(args.bootstrap_http)).now_ms()))
    return 0
