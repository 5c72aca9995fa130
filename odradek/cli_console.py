"""`odradek console -b HOST:PORT --port P`: the web console as its own process, against any
Kafka-compatible broker (Apache Kafka included). A broker started with --http-port serves the
same pages under /console/."""

from __future__ import annotations

import asyncio
import signal
import sys


def add_subparsers(sub) -> None:
    from odradek.cli_tools import _bootstrap

    p = sub.add_parser("console", help="serve the web console for a Kafka cluster (any broker)",
                       description="Serve the web console (cluster, topics, a message browser, consumer groups "
                                   "with lag, offset resets) for the cluster of the given bootstrap servers.")
    _bootstrap(p)
    p.add_argument("--bootstrap", dest="bootstrap_server", metavar="HOST:PORT[,...]", help="same as -b")
    p.add_argument("--port", type=int, default=8080, help="the console's HTTP port")
    p.add_argument("--host", default="127.0.0.1", help="the console's HTTP address")
    p.set_defaults(func=console)


def console(args) -> int:
    from odradek.broker.http_server import HttpServer, Routes
    from odradek.console.app import ConsoleApp
    from odradek.console.source import KafkaSource

    routes = Routes()
    ConsoleApp(KafkaSource(args.bootstrap_server)).add_routes(routes)

    async def serve() -> int:
        server = HttpServer(args.host, args.port, routes)
        try:
            await server.start(asyncio.get_running_loop())
        except OSError as e:
            print(f"odradek console: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
            return 1
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        print(f"odradek console on http://{args.host}:{server.port}/ for {args.bootstrap_server}", flush=True)
        await stop.wait()
        server.close()
        return 0

    return asyncio.run(serve())
