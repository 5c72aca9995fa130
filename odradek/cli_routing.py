"""Where `odradek produce` and `consume` send a partition's requests: to its leader, as
Kafka's clients route Produce, ListOffsets and Fetch (a cluster's partitions are led by
different brokers). The bootstrap connection serves every partition its broker leads."""

from __future__ import annotations


class Leaders:
    def __init__(self, boot, metadata, topic: str):
        """``metadata``: a Metadata response that describes ``topic``."""
        self.boot = boot
        self._addr = {b.node_id: (b.host, b.port) for b in metadata.brokers}
        t = next(t for t in metadata.topics if t.name == topic)
        self._leader = {p.partition_index: p.leader_id for p in t.partitions}
        self._clients: dict[tuple[str, int], object] = {}

    def client(self, partition: int):
        addr = self._addr.get(self._leader.get(partition, -1))
        if addr is None or addr == (self.boot.host, self.boot.port):
            return self.boot  # no leader known: the bootstrap broker answers with the error
        c = self._clients.get(addr)
        if c is None:
            from odradek.cli_errors import connect_to

            c = self._clients[addr] = connect_to(*addr)
        return c

    def group(self, partitions) -> list[tuple[object, list[int]]]:
        """(connection, its partitions) per leader, partitions in order."""
        out: dict[int, tuple[object, list[int]]] = {}
        for p in sorted(partitions):
            c = self.client(p)
            out.setdefault(id(c), (c, []))[1].append(p)
        return list(out.values())

    def close(self) -> None:
        for c in self._clients.values():
            c.close()
