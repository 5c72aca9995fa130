"""A stand-in for odradek.controller.Controller until it lands: same interface,
topics kept in a JSON file. Used only when odradek.controller has no Controller."""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass, field

_LEGAL = re.compile(r"^[a-zA-Z0-9._-]+$")


@dataclass(frozen=True)
class BrokerImage:
    node_id: int
    host: str
    port: int
    rack: str | None = None


@dataclass(frozen=True)
class PartitionImage:
    partition: int
    leader: int
    leader_epoch: int
    partition_epoch: int
    replicas: tuple
    isr: tuple


@dataclass(frozen=True)
class TopicImage:
    name: str
    topic_id: bytes
    partitions: dict
    configs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class MetadataImage:
    topics: dict
    topics_by_id: dict
    brokers: dict
    cluster_id: str
    controller_id: int


@dataclass
class CreateTopicSpec:
    name: str
    num_partitions: int = -1
    replication_factor: int = -1
    assignments: object = None
    configs: dict = field(default_factory=dict)
    internal: bool = False


@dataclass
class CreateTopicResult:
    name: str
    error_code: int
    error_message: str | None = None
    topic_id: bytes = b"\0" * 16
    num_partitions: int = -1
    replication_factor: int = -1
    configs: dict = field(default_factory=dict)


class Controller:
    def __init__(self, data_dir, node_id, defaults, now_ms):
        self.path = os.path.join(data_dir, "interim-metadata.json")
        os.makedirs(data_dir, exist_ok=True)
        self.node_id = node_id
        self.defaults = defaults
        self.listeners = []
        self._topics = {}
        self.cluster_id = uuid.uuid4().hex[:22]
        if os.path.exists(self.path):
            with open(self.path) as f:
                st = json.load(f)
            self.cluster_id = st["cluster_id"]
            self._topics = {n: dict(t) for n, t in st["topics"].items()}
        self.image = self._build({})

    def _build(self, brokers):
        topics = {}
        for n, t in self._topics.items():
            parts = {p: PartitionImage(p, self.node_id, 0, 0, (self.node_id,), (self.node_id,))
                     for p in range(t["partitions"])}
            topics[n] = TopicImage(n, bytes.fromhex(t["id"]), parts, dict(t["configs"]))
        return MetadataImage(topics, {t.topic_id: t for t in topics.values()}, brokers,
                             self.cluster_id, self.node_id)

    def _save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"cluster_id": self.cluster_id, "topics": self._topics}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def _publish(self):
        old, self.image = self.image, self._build(self.image.brokers)
        for fn in self.listeners:
            fn(old, self.image)

    def start(self, broker, now_ms):
        old, self.image = self.image, self._build({broker.node_id: broker})
        for fn in self.listeners:
            fn(old, self.image)

    def add_listener(self, fn):
        self.listeners.append(fn)

    def topic_config(self, name):
        t = self._topics.get(name)
        return dict(t["configs"]) if t else {}

    def create_topics(self, specs, validate_only, now_ms):
        out = []
        for s in specs:
            if not s.name or s.name in (".", "..") or len(s.name) > 249 or not _LEGAL.match(s.name):
                out.append(CreateTopicResult(s.name, 17, "invalid topic name"))
                continue
            if s.name in self._topics:
                out.append(CreateTopicResult(s.name, 36, f"Topic '{s.name}' already exists."))
                continue
            n = s.num_partitions if s.num_partitions > 0 else int(self.defaults.get("num.partitions", 1))
            tid = uuid.uuid4().bytes
            if not validate_only:
                self._topics[s.name] = {"id": tid.hex(), "partitions": n, "configs": dict(s.configs)}
            out.append(CreateTopicResult(s.name, 0, None, tid, n, 1, dict(s.configs)))
        if not validate_only:
            self._save()
            self._publish()
        return out

    def delete_topic(self, name):
        if self._topics.pop(name, None) is not None:
            self._save()
            self._publish()

    def close(self):
        pass
