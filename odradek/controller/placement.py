"""Replica placement for new partitions, as Kafka's StripedReplicaPlacer.

The usable brokers (registered, not in controlled shutdown; fenced ones included) are
grouped by rack. Each partition's first replica, its leader, is an unfenced broker taken
from the racks in turn; the other replicas are taken one per rack going round the racks,
unfenced brokers of a rack before its fenced ones. Racks and brokers start at a random
offset and are reshuffled once every unfenced broker has led a partition, so leaders
and replicas spread over brokers and racks. A broker without broker.rack is in the
rack "no rack" (sorted first).
"""

from __future__ import annotations

import random
from dataclasses import dataclass


class InvalidReplicationFactor(Exception):
    """Kafka's InvalidReplicationFactorException (its message as Kafka words it)."""


@dataclass(frozen=True)
class UsableBroker:
    """A broker replicas can be placed on: id, rack, fenced."""
    node_id: int
    rack: str | None
    fenced: bool


class _BrokerList:
    def __init__(self) -> None:
        self.brokers: list[int] = []
        self.index = 0
        self.offset = 0
        self.epoch = 0

    def initialize(self, rng: random.Random) -> None:
        if self.brokers:
            self.brokers.sort()
            self.offset = rng.randrange(len(self.brokers))

    def next(self, epoch: int) -> int:
        if not self.brokers:
            return -1
        if self.epoch != epoch:
            self.epoch, self.index = epoch, 0
            self.offset = (self.offset + 1) % len(self.brokers)
        if self.index >= len(self.brokers):
            return -1
        b = self.brokers[(self.index + self.offset) % len(self.brokers)]
        self.index += 1
        return b


class _Rack:
    def __init__(self) -> None:
        self.fenced = _BrokerList()
        self.unfenced = _BrokerList()

    def next(self, epoch: int) -> int:
        b = self.unfenced.next(epoch)
        return b if b >= 0 else self.fenced.next(epoch)


def _check(rf: int, total: int, unfenced: int) -> None:
    if rf <= 0:
        raise InvalidReplicationFactor(f"Invalid replication factor {rf}: the replication factor must be positive.")
    if unfenced == 0:
        raise InvalidReplicationFactor("All brokers are currently fenced, or have all their log directories "
                                       "cordoned.")
    if rf > total:
        raise InvalidReplicationFactor(f"The target replication factor of {rf} cannot be reached because only "
                                       f"{total} broker(s) are registered or some brokers have all their log "
                                       "directories cordoned.")


class _RackList:
    def __init__(self, rng: random.Random, brokers: list[UsableBroker]):
        self.rng = rng
        self.racks: dict[str | None, _Rack] = {}
        for b in brokers:
            rack = self.racks.setdefault(b.rack, _Rack())
            (rack.fenced if b.fenced else rack.unfenced).brokers.append(b.node_id)
        for rack in self.racks.values():
            rack.fenced.initialize(rng)
            rack.unfenced.initialize(rng)
        self.names = sorted(self.racks, key=lambda n: (n is not None, n or ""))
        self.total = len(brokers)
        self.unfenced = sum(1 for b in brokers if not b.fenced)
        self.epoch = 0
        self.offset = rng.randrange(len(self.names)) if self.names else 0

    def place(self, rf: int) -> list[int]:
        if self.epoch == self.unfenced and self.unfenced > 1:
            self.rng.shuffle(self.names)
            for rack in self.racks.values():
                self.rng.shuffle(rack.fenced.brokers)
                self.rng.shuffle(rack.unfenced.brokers)
            self.epoch = 0
        if self.offset == len(self.names):
            self.offset = 0
        first = self.offset
        while True:  # the leader: the next unfenced broker, racks in turn
            b = self.racks[self.names[first]].unfenced.next(self.epoch)
            if b >= 0:
                out = [b]
                break
            first = (first + 1) % len(self.names)
        i = self.offset
        for _ in range(1, rf):
            b, misses = -1, 0
            while b < 0:
                if i == first:
                    first = -1  # the leader's rack gave its replica already
                else:
                    b = self.racks[self.names[i]].next(self.epoch)
                i = (i + 1) % len(self.names)
                misses += 1
                if misses > 2 * len(self.names) + 1:  # every rack ran dry: never spin
                    _check(rf, len(out), self.unfenced)
            out.append(b)
        self.epoch += 1
        self.offset += 1
        return out


def place(brokers: list[UsableBroker], partitions: int, rf: int, rng: random.Random) -> list[list[int]]:
    """The replicas of ``partitions`` new partitions, ``rf`` each; InvalidReplicationFactor
    when the usable brokers cannot carry them."""
    racks = _RackList(rng, brokers)
    _check(rf, racks.total, racks.unfenced)
    return [racks.place(rf) for _ in range(partitions)]
