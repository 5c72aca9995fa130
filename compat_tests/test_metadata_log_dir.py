"""metadata.log.dir: the directory of the KRaft metadata log, as Kafka 4.3 lays it out (checked
side by side: `kafka.sh start PORT DIR metadata.log.dir=...`): meta.properties and
__cluster_metadata-0 (the log, quorum-state) in it, nothing of the metadata log in the log dirs.
A restart reads the metadata back from there: the topics stay. The same directory as a log dir
(a usual Kafka server.properties) holds both, and the metadata log is no partition."""

from __future__ import annotations

import os

from confluent_kafka.admin import AdminClient

from harness import BrokerProcess, create_topic, read_to_end


def _topics(bootstrap: str) -> set[str]:
    return set(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=20).topics)


def _produce(bootstrap: str, topic: str, value: bytes) -> None:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap})
    p.produce(topic, value=value)
    assert p.flush(20) == 0


def test_metadata_log_in_its_own_dir_survives_a_restart(tmp_path):
    data, mld = str(tmp_path / "data"), str(tmp_path / "meta")
    b = BrokerProcess(data, {"metadata.log.dir": mld})
    try:
        b.start()
        create_topic(b.bootstrap, "kept", 2)
        _produce(b.bootstrap, "kept", b"v1")
        b.stop()
        assert {"meta.properties", "__cluster_metadata-0"} <= set(os.listdir(mld))
        assert {"quorum-state", "00000000000000000000.log"} <= set(os.listdir(os.path.join(mld, "__cluster_metadata-0")))
        assert "metadata" not in os.listdir(data) and "__cluster_metadata-0" not in os.listdir(data)
        assert {"kept-0", "kept-1"} <= set(os.listdir(data))
        b.start()
        assert "kept" in _topics(b.bootstrap)
        assert sum(read_to_end(b.bootstrap, "kept", 2, expect=1).values(), []) == ["v1"]
    finally:
        b.kill9()


def test_metadata_log_dir_that_is_the_log_dir(tmp_path):
    data = str(tmp_path / "data")
    b = BrokerProcess(data, {"metadata.log.dir": data})
    try:
        b.start()
        create_topic(b.bootstrap, "kept", 1)
        b.restart()
        assert {"meta.properties", "__cluster_metadata-0", "kept-0"} <= set(os.listdir(data))
        topics = _topics(b.bootstrap)
        assert "kept" in topics and "__cluster_metadata" not in topics
    finally:
        b.kill9()
