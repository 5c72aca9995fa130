"""One-line topic, produce and consume helpers for tests, on confluent-kafka (librdkafka)."""

from __future__ import annotations

import time
import uuid


def _ck():
    try:
        import confluent_kafka
    except ImportError:
        raise RuntimeError("these helpers use confluent-kafka: pip install confluent-kafka") from None
    return confluent_kafka


def create_topic(bootstrap: str, name: str, partitions: int = 1, replication_factor: int = 1,
                 configs: dict | None = None) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    _ck()
    admin = AdminClient({"bootstrap.servers": bootstrap})
    topic = NewTopic(name, partitions, replication_factor, config={k.replace("_", "."): str(v)
                                                                   for k, v in (configs or {}).items()})
    admin.create_topics([topic], operation_timeout=30)[name].result(30)


def produce(bootstrap: str, topic: str, values, key=None) -> list[int]:
    """Produce ``values`` (bytes or str) in order, acks=all; their offsets."""
    ck = _ck()
    p = ck.Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True})
    out: list = [None] * len(values)
    errors = []

    def done(i):
        def cb(err, msg):
            if err is not None:
                errors.append(err)
            else:
                out[i] = msg.offset()
        return cb
    for i, v in enumerate(values):
        p.produce(topic, v.encode() if isinstance(v, str) else v, key=key, on_delivery=done(i))
    left = p.flush(30)
    if errors or left:
        raise RuntimeError(f"produce to {topic} failed: {errors or f'{left} not delivered in 30 s'}")
    return out


def consume(bootstrap: str, topic: str, n: int, timeout_s: float = 30) -> list[bytes]:
    """The first ``n`` values of ``topic`` from the beginning (a fresh group)."""
    ck = _ck()
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"odradek-testing-{uuid.uuid4().hex[:8]}",
                     "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([topic])
    got: list[bytes] = []
    deadline = time.monotonic() + timeout_s
    try:
        while len(got) < n:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(got)} of {n} records of {topic} in {timeout_s} s")
            msg = c.poll(0.2)
            if msg is not None and msg.error() is None:
                got.append(msg.value())
    finally:
        c.close()
    return got


class ClientHelpers:
    """``create_topic``, ``produce``, ``consume`` on a Broker's or Cluster's ``bootstrap``."""

    bootstrap: str

    def create_topic(self, name: str, partitions: int = 1, replication_factor: int = 1, **configs) -> str:
        """Create ``name`` (configs by Kafka name, dots as underscores allowed: retention_ms=1000)."""
        create_topic(self.bootstrap, name, partitions, replication_factor, configs)
        return name

    def produce(self, topic: str, *values, key: bytes | str | None = None) -> list[int]:
        """Produce ``values`` in order (acks=all, idempotent); their offsets."""
        return produce(self.bootstrap, topic, values, key)

    def consume(self, topic: str, n: int, timeout_s: float = 30) -> list[bytes]:
        """The first ``n`` values of ``topic``."""
        return consume(self.bootstrap, topic, n, timeout_s)
