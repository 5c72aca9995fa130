"""BrokerConfig: Kafka property names, precedence, and clear errors."""

import pytest

from odradek.cli import build_config, make_parser
from odradek.config import BrokerConfig, ConfigError, read_properties_file


def test_defaults():
    c = BrokerConfig.from_properties({})
    assert (c.listener.host, c.listener.port) == ("127.0.0.1", 9092)
    assert c.log_dirs == ("./odradek-data",)
    assert c.node_id == 1 and c.num_partitions == 1 and c.auto_create_topics_enable
    assert c.advertised.host == "127.0.0.1"


def test_kafka_names_and_units():
    c = BrokerConfig.from_properties({
        "listeners": "PLAINTEXT://0.0.0.0:19092,CONTROLLER://:9093",
        "advertised.listeners": "PLAINTEXT://broker.example:19092",
        "log.dirs": "/a,/b", "log.retention.hours": "2", "num.partitions": "4",
        "auto.create.topics.enable": "false", "process.roles": "broker,controller",
    })
    assert c.listener.port == 19092 and c.listener.host == "0.0.0.0"
    assert (c.advertised.host, c.advertised.port) == ("broker.example", 19092)
    assert c.log_dirs == ("/a", "/b")
    assert c.log_retention_ms == 2 * 3600 * 1000
    assert c.num_partitions == 4 and not c.auto_create_topics_enable
    assert c.topic_defaults()["retention.ms"] == str(2 * 3600 * 1000)


def test_ms_wins_over_hours():
    c = BrokerConfig.from_properties({"log.retention.hours": "2", "log.retention.ms": "5000"})
    assert c.log_retention_ms == 5000


@pytest.mark.parametrize("props,needle", [
    ({"num.partitions": "zero"}, "num.partitions"),
    ({"num.partitions": "0"}, "num.partitions"),
    ({"auto.create.topics.enable": "yes"}, "auto.create.topics.enable"),
    ({"listeners": "127.0.0.1:9092"}, "listeners"),
    ({"log.message.timestamp.type": "Whenever"}, "log.message.timestamp.type"),
])
def test_bad_properties_name_the_property(props, needle):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties(props)
    assert needle in str(e.value)


def test_properties_file_and_cli_flags(tmp_path):
    f = tmp_path / "server.properties"
    f.write_text("# comment\nnode.id=3\nlog.dirs=/x\nlisteners = PLAINTEXT://127.0.0.1:1234\n"
                 "num.partitions: 2\nlog.segment.bytes=\\\n  1048576\n")
    assert read_properties_file(str(f))["log.segment.bytes"] == "1048576"
    args = make_parser().parse_args(["serve", str(f), "--override", "num.partitions=5", "--port", "4321",
                                     "--data-dir", "/y"])
    c = build_config(args)
    assert c.node_id == 3 and c.num_partitions == 5 and c.listener.port == 4321 and c.log_dirs == ("/y",)
    assert c.log_segment_bytes == 1048576


def test_kafka_python_fixture_properties_accepted():
    # kafka-python's integration fixture (servers/resources/default/kafka.properties) sets these;
    # Kafka accepts them, odradek refused to start ("unknown configuration property").
    props = {"replica.lag.time.max.ms": "1000", "replica.socket.timeout.ms": "1000",
             "offsets.commit.timeout.ms": "500", "log.cleaner.enable": "false",
             "group.min.session.timeout.ms": "1000", "offsets.topic.num.partitions": "2"}
    cfg = BrokerConfig.from_properties(props)
    assert cfg.offsets_topic_num_partitions == 2


def test_unused_properties_are_reported_not_refused():
    # as Kafka: a name it does not use (another broker's setting, a typo) is logged at start
    c = BrokerConfig.from_properties({"no.such.thing": "1", "remote.log.manager.thread.pool.size": "10",
                                      "num.partitions": "3"})
    assert c.unused == ("no.such.thing", "remote.log.manager.thread.pool.size") and c.num_partitions == 3
    assert BrokerConfig.from_properties({"num.partitions": "3"}).unused == ()


def test_replica_fetcher_properties_are_kafkas():
    # ReplicationConfigs: names, defaults and validation as Kafka's
    c = BrokerConfig()
    assert (c.num_replica_fetchers, c.replica_fetch_max_bytes, c.replica_fetch_response_max_bytes,
            c.replica_fetch_wait_max_ms, c.replica_fetch_min_bytes, c.replica_fetch_backoff_ms,
            c.replica_socket_timeout_ms) == (1, 1048576, 10485760, 500, 1, 1000, 30000)
    c = BrokerConfig.from_properties({"num.replica.fetchers": "3", "replica.fetch.max.bytes": "65536"})
    assert c.num_replica_fetchers == 3 and c.replica_fetch_max_bytes == 65536 and c.unused == ()
    with pytest.raises(ConfigError, match="Invalid value -1 for configuration replica.fetch.backoff.ms: "
                                          "Value must be at least 0"):
        BrokerConfig.from_properties({"replica.fetch.backoff.ms": "-1"})
    with pytest.raises(ConfigError, match="replica.socket.timeout.ms should always be at least "
                                          "replica.fetch.wait.max.ms"):
        BrokerConfig.from_properties({"replica.socket.timeout.ms": "100"})


@pytest.mark.parametrize("props,message", [
    ({"listeners": "SASL_SSL://127.0.0.1:9093,PLAINTEXT://127.0.0.1:9092"},
     "sasl.enabled.mechanisms=GSSAPI: listener SASL_SSL://127.0.0.1:9093 can offer PLAIN, SCRAM-SHA-256, "
     "SCRAM-SHA-512 and OAUTHBEARER only"),
    ({"listeners": "SECURE://127.0.0.1:9093", "listener.security.protocol.map": "SECURE:SSL"},
     "listener SECURE://127.0.0.1:9093: SSL key store is not specified"),
    ({"listeners": "PLAINTEXT://127.0.0.1:9092,PLAINTEXT://127.0.0.1:9093"},
     "Each listener must have a different name"),
    ({"listeners": "PLAINTEXT://127.0.0.1:9092", "advertised.listeners": "OTHER://h:1",
      "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,OTHER:PLAINTEXT"},
     "advertised.listeners listener names must be equal to or a subset of the ones defined in listeners"),
    ({"listeners": "OTHER://127.0.0.1:9092"},
     "Listener with name OTHER defined in listeners not found in listener.security.protocol.map."),
    ({"listener.security.protocol.map": "PLAINTEXT:TLS"},
     "Invalid value PLAINTEXT:TLS for configuration listener.security.protocol.map"),
])
def test_listeners_odradek_cannot_serve_are_refused(props, message):
    """A SASL_SSL listener was once bound as plaintext, and a second listener left unbound, silently;
    now each is served as asked or start-up stops."""
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties(props)
    assert message in str(e.value)


def test_plaintext_listeners_under_any_name():
    cfg = BrokerConfig.from_properties({"listeners": "CLIENT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
                                        "listener.security.protocol.map": "CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT"})
    assert cfg.listener.name == "CLIENT" and cfg.controller_listeners[0].port == 9093


@pytest.mark.parametrize("props,message", [
    ({"listeners": "SSL://127.0.0.1:9093"}, "SSL key store is not specified"),
    ({"listeners": "SSL://127.0.0.1:9093", "controller.quorum.voters": "1@127.0.0.1:9094",
      "process.roles": "broker", "ssl.keystore.location": "/k.pem"},
     "inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid options "
     "based on currently configured listeners are SSL"),
    ({"listeners": "SASL_SSL://127.0.0.1:9093", "controller.quorum.voters": "1@127.0.0.1:9094",
      "process.roles": "broker", "ssl.keystore.location": "/k.pem", "inter.broker.listener.name": "SASL_SSL",
      "sasl.enabled.mechanisms": "SCRAM-SHA-512"},
     "requirement failed: sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms "
     "when SASL is used for inter-broker communication"),
    ({"listeners": "SASL_SSL://127.0.0.1:9093", "controller.quorum.voters": "1@127.0.0.1:9094",
      "process.roles": "broker", "ssl.keystore.location": "/k.pem", "inter.broker.listener.name": "SASL_SSL",
      "sasl.enabled.mechanisms": "SCRAM-SHA-512", "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512"},
     "listener SASL_SSL (SASL_SSL) between cluster nodes: odradek's nodes authenticate with "
     "sasl.mechanism.inter.broker.protocol=PLAIN|SCRAM-SHA-256|SCRAM-SHA-512 (given SCRAM-SHA-512) and the "
     "username and password of listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config"),
    ({"listeners": "PLAINTEXT://127.0.0.1:9093", "controller.quorum.voters": "1@127.0.0.1:9094",
      "process.roles": "broker", "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
      "sasl.mechanism.controller.protocol": "PLAIN",
      "listener.name.controller.plain.sasl.jaas.config": 'x required user_admin="pw";'},
     "listener CONTROLLER (SASL_PLAINTEXT) between cluster nodes"),
    ({"listeners": "SSL://127.0.0.1:9093", "security.inter.broker.protocol": "SSL",
      "inter.broker.listener.name": "SSL", "ssl.keystore.location": "/k.pem"},
     "Only one of inter.broker.listener.name and security.inter.broker.protocol should be set."),
    ({"listeners": "SASL_SSL://127.0.0.1:9093", "ssl.keystore.location": "/k.pem"},
     "sasl.enabled.mechanisms=GSSAPI"),
])
def test_tls_listeners_odradek_cannot_serve_are_refused(props, message):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties(props)
    assert message in str(e.value)


def test_a_cluster_broker_serves_tls_clients_beside_a_plaintext_inter_broker_listener():
    cfg = BrokerConfig.from_properties({
        "listeners": "PLAINTEXT://127.0.0.1:9092,SSL://0.0.0.0:9093,SASL_SSL://127.0.0.1:9094",
        "advertised.listeners": "SSL://ssl.example:9093,PLAINTEXT://127.0.0.1:9092,SASL_SSL://s.example:9094",
        "controller.quorum.voters": "1@127.0.0.1:9095", "process.roles": "broker", "node.id": "2",
        "ssl.keystore.location": "/k.pem", "sasl.enabled.mechanisms": "SCRAM-SHA-512"})
    assert [lst.name for lst in cfg.listeners] == ["PLAINTEXT", "SSL", "SASL_SSL"]
    # the inter-broker listener first: the image's host:port of this broker is where others fetch
    assert [str(lst) for lst in cfg.advertised_broker_listeners] == [
        "PLAINTEXT://127.0.0.1:9092", "SSL://ssl.example:9093", "SASL_SSL://s.example:9094"]
    assert cfg.inter_broker_listener == "PLAINTEXT" and cfg.advertised.port == 9092


def test_listener_prefixed_tls_settings_win():
    cfg = BrokerConfig.from_properties({"listeners": "SSL://127.0.0.1:9093", "ssl.keystore.location": "/all.pem",
                                        "listener.name.ssl.ssl.keystore.location": "/ssl.pem",
                                        "ssl.client.auth": "required"})
    assert cfg.ssl("SSL", "ssl.keystore.location") == "/ssl.pem"
    assert cfg.ssl("SSL", "ssl.client.auth") == "required" and cfg.unused == ()


def test_an_authorizer_other_than_kafkas_standard_one_is_refused_not_ignored():
    """It was warned about as unused and the broker ran with every client allowed everything; now the
    StandardAuthorizer is there and any other class stops start-up (as Kafka's ClassNotFoundException)."""
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"})
    assert "ClassNotFoundException: kafka.security.authorizer.AclAuthorizer" in str(e.value)
    cfg = BrokerConfig.from_properties({"authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                                        "super.users": "User:admin;User:b", "allow.everyone.if.no.acl.found": "true"})
    assert cfg.super_users == "User:admin;User:b" and cfg.allow_everyone_if_no_acl_found
    assert BrokerConfig.from_properties({"authorizer.class.name": ""}).authorizer_class_name == ""
