"""KRaft quorum settings: Kafka's names, single-voter default, clear errors."""

import pytest

from odradek.config import BrokerConfig, ConfigError

V = "1@127.0.0.1:9093,2@127.0.0.1:9094,3@127.0.0.1:9095"


def test_stock_combined_single_voter_is_plain_serve():
    c = BrokerConfig.from_properties({"node.id": "1", "process.roles": "broker,controller",
                                      "controller.quorum.voters": "1@127.0.0.1:9093",
                                      "listeners": "PLAINTEXT://:9092,CONTROLLER://:9093"})
    assert not c.quorum_mode and c.listener.port == 9092 and c.controller_listener.port == 9093


def test_controller_and_broker_roles():
    c = BrokerConfig.from_properties({"node.id": "2", "process.roles": "controller", "controller.quorum.voters": V,
                                      "listeners": "CONTROLLER://127.0.0.1:9094"})
    assert c.quorum_mode and c.controller_listener.port == 9094
    assert c.controller_quorum_voters[1] == (2, "127.0.0.1", 9094)
    b = BrokerConfig.from_properties({"node.id": "4", "process.roles": "broker", "controller.quorum.voters": V,
                                      "listeners": "PLAINTEXT://127.0.0.1:9092"})
    assert b.quorum_mode and b.controller_listener is None and b.listener.port == 9092


@pytest.mark.parametrize("props,needle", [
    ({"process.roles": "zookeeper"}, "process.roles"),
    ({"controller.quorum.voters": "1@nohostport"}, "controller.quorum.voters"),
    ({"node.id": "4", "process.roles": "controller", "controller.quorum.voters": V,
      "listeners": "CONTROLLER://127.0.0.1:9096"}, "not in controller.quorum.voters"),
    ({"node.id": "2", "process.roles": "controller", "controller.quorum.voters": V,
      "listeners": "PLAINTEXT://127.0.0.1:9096"}, "controller.listener.names"),
    ({"node.id": "4", "process.roles": "broker"}, "controller.quorum.voters"),
])
def test_bad_quorum_settings(props, needle):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties(props)
    assert needle in str(e.value)


def _broker(tmp_path):
    return BrokerConfig.from_properties({"node.id": "4", "process.roles": "broker", "controller.quorum.voters": V,
                                         "listeners": "PLAINTEXT://127.0.0.1:9092", "log.dirs": str(tmp_path)})


def test_cluster_id_derived_from_the_voters_without_meta_properties(tmp_path):
    """An unformatted log dir gets the id derived from the voters and a directory id, written once."""
    from odradek.broker.quorum import log_dir_meta

    a, b = log_dir_meta(_broker(tmp_path)), log_dir_meta(_broker(tmp_path / "other"))
    assert a["cluster.id"] == b["cluster.id"] and a["directory.id"] != b["directory.id"]
    assert log_dir_meta(_broker(tmp_path)) == a and "node.id=4" in (tmp_path / "meta.properties").read_text()


def test_cluster_id_from_kafka_storage_format_meta_properties(tmp_path):
    """A node formatted for an Apache Kafka cluster (kafka-storage format writes meta.properties in the
    log dir) joins that cluster under its id; another node's meta.properties is refused as Kafka does."""
    from odradek.broker.quorum import log_dir_meta

    (tmp_path / "meta.properties").write_text("#\n#Thu Nov 26 19:43:41 UTC 2026\nnode.id=4\n"
                                              "directory.id=A1BojDgQd3fMDLq7-xg_1g\nversion=1\n"
                                              "cluster.id=QlmXYVRESvCc2jZSnCrGhA\n")
    meta = log_dir_meta(_broker(tmp_path))
    assert (meta["cluster.id"], meta["directory.id"]) == ("QlmXYVRESvCc2jZSnCrGhA", "A1BojDgQd3fMDLq7-xg_1g")
    (tmp_path / "meta.properties").write_text("node.id=1\nversion=1\ncluster.id=QlmXYVRESvCc2jZSnCrGhA\n")
    with pytest.raises(RuntimeError, match="Stored node id 1 doesn't match previous node id 4"):
        log_dir_meta(_broker(tmp_path))
