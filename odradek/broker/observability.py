"""The broker's HTTP side when `odradek.http.port` is set: the counters the hot paths feed
(broker/stats.py), `/metrics` (broker/metrics.py) and the health checks.

`/health/live` answers 200 while the process serves HTTP at all; `/health/ready` answers 503
until start-up is complete (logs recovered and loaded, the Kafka listener accepting, and in a
cluster the broker registered and unfenced) and 200 after, until shutdown begins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from odradek.broker.http_server import HttpServer, Request, Response, Routes
from odradek.broker.stats import LogStats, RequestStats, TopicStats

if TYPE_CHECKING:
    from odradek.broker.broker import Broker
    from odradek.controller.image import MetadataImage
    from odradek.broker.raft_driver import RaftDriver

PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"


class NodeHttp:
    """One node's HTTP side: the routes, the counters the broker feeds, and what /metrics reads."""

    def __init__(self, host: str, port: int):
        self.topic_stats = TopicStats()
        self.request_stats = RequestStats()
        self.log_stats = LogStats()
        self.routes = Routes()
        self.server = HttpServer(host, port, self.routes)
        self.ready = False
        self._collectors: list = []
        self.routes.add("GET", "/health/live", lambda req: Response.text(200, "live\n"))
        self.routes.add("GET", "/health/ready", self._ready)
        self.routes.add("GET", "/metrics", self._metrics)

    async def start(self, loop) -> None:
        await self.server.start(loop)

    def serve_broker_metrics(self, broker: Broker, connections: Callable[[], dict[str, int]],
                             connections_created: Callable[[], dict[str, int]]) -> None:
        """From now on /metrics reads this broker (its logs are open, its coordinators built)."""
        from odradek.broker.metrics import BrokerCollector  # prometheus_client: only when served

        if broker.log_manager is not None:
            broker.log_manager.observe_flushes(self.log_stats)
        self._collectors.append(BrokerCollector(broker, self.topic_stats, self.request_stats, self.log_stats,
                                                connections, connections_created))

    def serve_controller_metrics(self, image: Callable[[], MetadataImage], active: Callable[[], bool] | None,
                                 raft: Callable[[], RaftDriver | None] | None) -> None:
        """KafkaController's gauges on a node with the controller role (``active`` given), and the
        metadata quorum's on a node of a quorum (``raft`` given)."""
        from odradek.broker.metrics import ControllerCollector, RaftCollector

        if active is not None:
            self._collectors.append(ControllerCollector(image, active))
        if raft is not None:
            self._collectors.append(RaftCollector(raft))

    def _ready(self, req: Request) -> Response:
        return Response.text(200, "ready\n") if self.ready else Response.text(503, "starting\n")

    def _metrics(self, req: Request) -> Response:
        if not self._collectors:
            return Response.text(503, "starting: no metrics yet\n")
        from odradek.broker.metrics import exposition

        return Response(200, exposition(self._collectors), PROMETHEUS_TEXT)

    def close(self) -> None:
        self.ready = False
        self.server.close()
