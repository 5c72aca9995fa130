"""A test cluster: N controllers + M brokers, each an `odradek serve` process (the layout of
`odradek cluster`), on free ports with a temp data dir; brokers can be killed and restarted by id.

    with Cluster(brokers=3) as c:
        create a topic with replication factor 3 on c.bootstrap ...
        c.kill(c.brokers[0]); ...; c.restart(c.brokers[0])
        with c.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=1): ...   # on every broker
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections import deque

from odradek.cli_cluster import cluster_layout, internal_topic_settings, layout_offsets, serve_command

from .clients import ClientHelpers
from .broker import READY_TIMEOUT_S, STOP_TIMEOUT_S, TEST_DEFAULTS, _props, _spawn, _wait_ready
from .control import Clock, FaultHandle, Faults, http_transport
from .ports import PortLeases

# short enough that a killed broker is fenced and its partitions move in a few seconds
FAST = {
    "broker.session.timeout.ms": "3000", "broker.heartbeat.interval.ms": "500",
    "replica.lag.time.max.ms": "3000",
    "controller.quorum.election.timeout.ms": "500", "controller.quorum.fetch.timeout.ms": "1000",
}


class _Node:
    def __init__(self, node_id: int, props: dict[str, str], http_port: int | None):
        self.id = node_id
        self.props = props
        self.http_port = http_port
        self.is_broker = "broker" in props["process.roles"]
        self.port = int(props["listeners"].rsplit(":", 1)[1]) if self.is_broker else None
        self.output: deque[str] = deque(maxlen=2000)
        self.proc = None

    def start(self) -> None:
        extra = {} if self.http_port is None else {"odradek.http.port": str(self.http_port)}
        self.output.clear()  # (a restart: the earlier run's ready line is not this one's)
        self.proc = _spawn(serve_command({**self.props, **extra}), self.output)

    def wait_ready(self) -> None:
        _wait_ready(self.proc, self.output, "odradek ready", READY_TIMEOUT_S)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a paused node must run to stop
            self.proc.terminate()
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired: then kill -9
                self.kill()
        self.proc = None


class Cluster(ClientHelpers):
    """``brokers`` brokers (node ids controllers+1 ..) and ``controllers`` controllers (1 ..).
    ``racks``: broker.rack of each broker, in order; ``properties`` for every node."""

    def __init__(self, brokers: int = 3, controllers: int = 1, *, properties: dict | None = None,
                 racks: list[str] | None = None, virtual_clock: bool = False, control: bool = True,
                 data_dir: str | os.PathLike | None = None) -> None:
        if virtual_clock:
            raise ValueError("virtual_clock is for a single broker (odradek.testing.Broker): the nodes of a cluster "
                             "keep the system clock (heartbeats, broker session timeouts and elections run on it)")
        if racks is not None and len(racks) != brokers:
            raise ValueError(f"racks names one rack per broker ({brokers}), not {len(racks)}")
        self.n_brokers, self.n_controllers = brokers, controllers
        self._own_dir = data_dir is None
        self.data_dir = str(data_dir) if data_dir is not None else None
        props = {**TEST_DEFAULTS, **FAST, **internal_topic_settings(brokers)}
        props.update(_props(properties))
        if control:
            props["odradek.testing.control.enable"] = "true"
        self.properties = props
        self.racks = racks
        self.control = control
        self.nodes: dict[int, _Node] = {}
        self._ports = PortLeases()  # every node's ports, leased until close(): a restart keeps them
        self.faults = ClusterFaults(self)
        self.clock = ClusterClock(self)

    @property
    def brokers(self) -> list[int]:
        return [i for i, n in self.nodes.items() if n.is_broker]

    @property
    def controllers(self) -> list[int]:
        return [i for i, n in self.nodes.items() if not n.is_broker]

    @property
    def bootstrap(self) -> str:
        """Every broker, running or not (clients try the next)."""
        return ",".join(f"127.0.0.1:{self.nodes[i].port}" for i in self.brokers)

    def broker_bootstrap(self, node_id: int) -> str:
        return f"127.0.0.1:{self.nodes[node_id].port}"

    def broker_faults(self, node_id: int) -> Faults:
        """The faults of one broker; of a controller, its pause and test network (it takes no faults)."""
        return Faults(self._transport(node_id))

    node_faults = broker_faults

    def partition(self, nodes: list[int], others: list[int] | None = None, *, clients: bool = False
                  ) -> "NetworkHandle":
        """Cut ``nodes`` from ``others`` (default: every other node, controllers too): each side refuses
        the other's requests (replica fetches, heartbeats, metadata fetches, inter-broker calls: their
        connections are dropped, as on a lost link). ``clients``: ``nodes`` refuse clients' requests
        too. Healed on exit of the returned handle (or by ``heal``). A node restarted meanwhile comes
        back with its network whole."""
        others = [i for i in self.nodes if i not in nodes] if others is None else list(others)
        if set(nodes) & set(others) or not nodes or not others:
            raise ValueError(f"two sides of a partition: {nodes} and {others}")
        for i in nodes:
            self._network(i, cut=others, clients=True if clients else None)
        for i in others:
            self._network(i, cut=list(nodes))
        return NetworkHandle(self, list(nodes) + others)

    def slow_follower(self, node_id: int, delay_ms: int) -> "NetworkHandle":
        """Every other broker (a leader) answers ``node_id``'s replica fetches (and its other requests)
        ``delay_ms`` late: past replica.lag.time.max.ms behind, the follower leaves the ISR. Undone on
        exit of the returned handle."""
        others = [i for i in self.brokers if i != node_id]
        for i in others:
            self._network(i, slow={node_id: delay_ms})
        return NetworkHandle(self, others, slow=node_id)

    def heal(self, nodes: list[int] | None = None) -> None:
        """Nothing cut, nothing slow on ``nodes`` (default: every running node)."""
        for i in (self.nodes if nodes is None else nodes):
            if self.running(i):
                self.node_faults(i).heal()

    def _network(self, node_id: int, **rules) -> None:
        if self.running(node_id):
            self.node_faults(node_id).network(**rules)

    def broker_clock(self, node_id: int) -> Clock:
        return Clock(self._transport(node_id))

    def control_url(self, node_id: int) -> str:
        return f"http://127.0.0.1:{self.nodes[node_id].http_port}"

    def running(self, node_id: int) -> bool:
        p = self.nodes[node_id].proc
        return p is not None and p.poll() is None

    def __enter__(self) -> "Cluster":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> "Cluster":
        if self.data_dir is None:
            self.data_dir = tempfile.mkdtemp(prefix="odradek-cluster-")
        for attempt in range(3):  # a port taken between the pick and the bind: a new layout
            self._layout(os.path.join(self.data_dir, f"try{attempt}"))
            try:
                for n in self.nodes.values():
                    n.start()
                for n in self.nodes.values():
                    n.wait_ready()
                self._wait_brokers_registered()
                return self
            except RuntimeError as e:
                self.stop_all()
                self._ports.release()  # a process that leases nothing bound one first: new ports
                if attempt == 2 or "address already in use" not in str(e).lower():
                    raise
        return self

    def _layout(self, root: str) -> None:
        base = self._ports.take(layout_offsets(self.n_controllers, self.n_brokers))
        self.nodes = {}
        for k, p in enumerate(cluster_layout(self.n_controllers, self.n_brokers, base, root)):
            node_id = int(p["node.id"])
            props = {**p, **self.properties}
            broker = "broker" in p["process.roles"]
            if broker and self.racks is not None:
                props["broker.rack"] = self.racks[node_id - self.n_controllers - 1]
            self.nodes[node_id] = _Node(node_id, props, self._ports.take() if self.control else None)

    def _wait_brokers_registered(self) -> None:
        """Every broker unfenced in the metadata (what clients see)."""
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if len(self.metadata_brokers()) == self.n_brokers:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("not every broker registered in time")
            time.sleep(0.1)

    def metadata_brokers(self, via: int | None = None) -> list[int]:
        """The broker ids a client's Metadata request lists now (asked of broker ``via``, default the
        first broker that answers)."""
        from odradek.broker.wire_client import WireClient, WireClientError
        from odradek.wire.messages.metadata_request import MetadataRequest

        for i in self.brokers if via is None else [via]:
            if not self.running(i):
                continue
            try:
                with WireClient("127.0.0.1", self.nodes[i].port, client_id="odradek-testing", timeout=5) as c:
                    return sorted(b.node_id for b in c.send(MetadataRequest(topics=[]), max_version=12).brokers)
            except (OSError, WireClientError):
                continue
        return []

    def kill(self, node_id: int) -> None:
        """kill -9 of a node."""
        self.nodes[node_id].kill()

    def stop(self, node_id: int) -> None:
        """A clean shutdown of a node (SIGTERM: a broker's controlled shutdown)."""
        self.nodes[node_id].stop()

    def restart(self, node_id: int) -> None:
        """Start a node again (stopped first if it runs), waited for until it is ready."""
        n = self.nodes[node_id]
        n.stop()
        n.start()
        n.wait_ready()

    def pause(self, node_id: int) -> None:
        """SIGSTOP: the node accepts nothing and answers nothing (its connections stay open)."""
        self.nodes[node_id].proc.send_signal(signal.SIGSTOP)

    def resume(self, node_id: int) -> None:
        self.nodes[node_id].proc.send_signal(signal.SIGCONT)

    def leader(self, topic: str, partition: int = 0, via: int | None = None) -> int:
        """The node id leading ``topic``-``partition`` as a client's Metadata request says now (-1: none),
        asked of broker ``via`` (default: the first that answers)."""
        return self.partition_state(topic, partition, via)[0]

    def isr(self, topic: str, partition: int = 0, via: int | None = None) -> list[int]:
        """The in-sync replicas of ``topic``-``partition`` as a client's Metadata request says now."""
        return self.partition_state(topic, partition, via)[1]

    def partition_state(self, topic: str, partition: int = 0, via: int | None = None) -> tuple[int, list[int]]:
        """(leader, ISR) of ``topic``-``partition`` in a Metadata answer ((-1, []): none)."""
        from odradek.broker.wire_client import WireClient, WireClientError
        from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

        for i in self.brokers if via is None else [via]:
            if not self.running(i):
                continue
            try:
                with WireClient("127.0.0.1", self.nodes[i].port, client_id="odradek-testing", timeout=5) as c:
                    md = c.send(MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), max_version=12)
            except (OSError, WireClientError):
                continue
            for t in md.topics:
                for p in t.partitions:
                    if t.name == topic and p.partition_index == partition:
                        return p.leader_id, sorted(p.isr_nodes)
        return -1, []

    def stop_all(self) -> None:
        for n in self.nodes.values():  # brokers first: their controlled shutdown needs the controllers
            if n.is_broker:
                n.stop()
        for n in self.nodes.values():
            n.stop()

    def close(self) -> None:
        try:
            self.stop_all()
        finally:
            for n in self.nodes.values():
                n.kill()
            self._ports.release()
            if self._own_dir and self.data_dir is not None:
                shutil.rmtree(self.data_dir, ignore_errors=True)
                self.data_dir = None

    def log_tail(self, node_id: int, n: int = 50) -> str:
        return "".join(list(self.nodes[node_id].output)[-n:])

    def _transport(self, node_id: int):
        if self.nodes[node_id].http_port is None:
            raise RuntimeError("this cluster has no control API (Cluster(control=True) enables it)")
        return http_transport(self.control_url(node_id))


class ClusterFaultHandle:
    """A fault injected on several brokers; removed from each on exit."""

    def __init__(self, handles: list[FaultHandle]) -> None:
        self.handles = handles

    def remove(self) -> bool:
        return any([h.remove() for h in self.handles])

    @property
    def active(self) -> bool:
        return any(h.active for h in self.handles)

    @property
    def hits(self) -> int:
        return sum(h.hits for h in self.handles)

    def __enter__(self) -> "ClusterFaultHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class NetworkHandle:
    """A partition or a slow follower in place; undone on exit (``heal``)."""

    def __init__(self, cluster: Cluster, nodes: list[int], slow: int | None = None) -> None:
        self._cluster, self.nodes, self._slow = cluster, nodes, slow

    def heal(self) -> None:
        c = self._cluster
        if self._slow is None:
            c.heal(self.nodes)
        else:
            for i in self.nodes:
                c._network(i, slow={self._slow: 0})

    def __enter__(self) -> "NetworkHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.heal()


class ClusterFaults:
    """Faults on every running broker of a cluster (``times`` counts on each), or on ``node_id``'s."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster

    def _targets(self, node_id: int | None) -> list[Faults]:
        c = self._cluster
        ids = [node_id] if node_id is not None else [i for i in c.brokers if c.running(i)]
        return [c.broker_faults(i) for i in ids]

    def inject(self, api, error=None, times=None, *, node_id: int | None = None, **filters) -> ClusterFaultHandle:
        return ClusterFaultHandle([f.inject(api, error, times, **filters) for f in self._targets(node_id)])

    def clear(self) -> int:
        return sum(f.clear() for f in self._targets(None))

    def drop_connections(self, client_id: str) -> int:
        """Reset every connection of ``client_id`` on every running broker."""
        return sum(f.drop_connections(client_id) for f in self._targets(None))

    def partition(self, nodes: list[int], others: list[int] | None = None, *, clients: bool = False) -> NetworkHandle:
        """Cluster.partition."""
        return self._cluster.partition(nodes, others, clients=clients)

    def slow_follower(self, node_id: int, delay_ms: int) -> NetworkHandle:
        """Cluster.slow_follower."""
        return self._cluster.slow_follower(node_id, delay_ms)

    def heal(self) -> None:
        self._cluster.heal()


class ClusterClock:
    """The clocks of every running broker: the system's (a cluster has no virtual clock, see Cluster)."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster

    def advance(self, ms: int) -> dict[int, int]:
        c = self._cluster
        return {i: c.broker_clock(i).advance(ms) for i in c.brokers if c.running(i)}
