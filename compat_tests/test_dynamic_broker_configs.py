"""Broker configs Kafka 4.3 changes at run time (IncrementalAlterConfigs on a broker or the
cluster default: DynamicBrokerConfig's reconfigurables) with Kafka's own kafka-configs tool: the
connection limits (SocketServer's ConnectionQuotas), num.replica.fetchers (DynamicThreadPool),
the cleaner's threads and offset map buffer (LogCleaner) and producer.id.expiration.ms are taken, described, refused with Kafka's messages (each one
checked against Kafka 4.3), and take effect on the running broker: a lowered
max.connections.per.ip refuses new connections over it while the ones there stay, a lowered
max.connections closes the least recently active ones over it, idle producers expire after a
lowered producer.id.expiration.ms, and the values persist across a restart."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from harness import BrokerProcess, RawClient, create_topic, free_port, kafka_tool

from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)

BROKER, SET, DELETE = 4, 0, 1


def _configs(bootstrap: str, *args: str):
    return kafka_tool("configs", "--bootstrap-server", bootstrap, "--entity-type", "brokers", *args)


def _alter(bootstrap: str, entity: str, *args: str) -> None:
    target = ("--entity-default",) if entity == "" else ("--entity-name", entity)
    r = _configs(bootstrap, *target, "--alter", *args)
    assert r.returncode == 0, r.stderr


def _refusal(bootstrap: str, *args: str) -> str:
    r = _configs(bootstrap, "--alter", *args)
    assert r.returncode != 0
    (cause,) = [line for line in r.stderr.splitlines() if line.startswith("Caused by: ")]
    return cause.removeprefix("Caused by: ")


def _served(bootstrap: str) -> bool:
    """A new connection is answered (False: the broker closed it)."""
    try:
        c = RawClient(bootstrap)
    except OSError:
        return False
    try:
        return c.call(ApiVersionsRequest(), 0).error_code == 0
    except (ConnectionError, OSError):
        return False
    finally:
        c.close()


def _until(cond, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.05)


def test_taken_per_broker_and_cluster_wide_and_described(fresh_broker):
    b = fresh_broker()
    _alter(b.bootstrap, "1", "--add-config", "max.connections=1000,max.connections.per.ip=500,"
           "max.connections.per.ip.overrides=localhost:5,max.connection.creation.rate=100,"
           "producer.id.expiration.ms=60000,num.replica.fetchers=2")
    _alter(b.bootstrap, "", "--add-config", "max.connections=2000,num.replica.fetchers=2,log.cleaner.threads=2,"
           "log.cleaner.dedupe.buffer.size=4194304,log.cleaner.io.buffer.load.factor=0.5")
    r = _configs(b.bootstrap, "--entity-name", "1", "--describe")
    assert ("  max.connections=1000 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:max.connections=1000, "
            "DYNAMIC_DEFAULT_BROKER_CONFIG:max.connections=2000, DEFAULT_CONFIG:max.connections=2147483647}") \
        in r.stdout.splitlines()
    assert ("  max.connections.per.ip.overrides=localhost:5 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:"
            "max.connections.per.ip.overrides=localhost:5, DEFAULT_CONFIG:max.connections.per.ip.overrides=}") \
        in r.stdout.splitlines()
    for line in ("max.connections.per.ip=500", "max.connection.creation.rate=100", "producer.id.expiration.ms=60000",
                 "num.replica.fetchers=2"):
        assert any(s.startswith(f"  {line} ") for s in r.stdout.splitlines()), r.stdout
    r = _configs(b.bootstrap, "--entity-default", "--describe")
    for line in ("log.cleaner.threads=2", "log.cleaner.dedupe.buffer.size=4194304",
                 "log.cleaner.io.buffer.load.factor=0.5"):
        assert any(s.startswith(f"  {line} ") for s in r.stdout.splitlines()), r.stdout
    assert "  num.replica.fetchers=2 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:num.replica.fetchers=2}" \
        in r.stdout.splitlines()


# Kafka 4.3's answers (kafka-configs against it): INVALID_REQUEST, from the value's type and range,
# from KafkaConfig's checks of the whole config, or from a reconfigurable's validation
_WRAPPED = "Invalid value org.apache.kafka.common.config.ConfigException: {} for configuration Invalid dynamic configuration"
_REFUSALS = [
    (("--entity-name", "1", "--add-config", "max.connections=abc"),
     "Invalid value abc for configuration max.connections: Not a number of type INT"),
    (("--entity-default", "--add-config", "max.connections=-1"),
     "Invalid value -1 for configuration max.connections: Value must be at least 0"),
    (("--entity-default", "--add-config", "max.connections=0"), _WRAPPED.format("Invalid max.connections 0")),
    (("--entity-name", "1", "--add-config", "max.connection.creation.rate=0"),
     _WRAPPED.format("Invalid max.connection.creation.rate 0")),
    (("--entity-name", "1", "--add-config", "max.connections.per.ip=0"),
     "requirement failed: max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides "
     "property is set."),
    (("--entity-default", "--add-config", "max.connections.per.ip.overrides=foo"),
     "Error parsing configuration property 'max.connections.per.ip.overrides': begin 0, end -1, length 3"),
    (("--entity-name", "1", "--add-config", "max.connections.per.ip.overrides=127.0.0.1:x"), 'For input string: "x"'),
    (("--entity-name", "1", "--add-config", "max.connections.per.ip.overrides=a b:3"),
     "max.connections.per.ip.overrides contains invalid addresses : a b"),
    (("--entity-name", "1", "--add-config", "num.replica.fetchers=3"),
     _WRAPPED.format("Dynamic thread count update validation failed for num.replica.fetchers=3, value should not "
                     "be greater than double the current value 1")),
    (("--entity-name", "1", "--add-config", "producer.id.expiration.ms=0"),
     "Invalid value 0 for configuration producer.id.expiration.ms: Value must be at least 1"),
    (("--entity-name", "1", "--add-config", "log.cleaner.threads=3"),
     _WRAPPED.format("Log cleaner threads cannot be increased to more than double the current value 1")),
    (("--entity-name", "1", "--add-config", "log.cleaner.threads=0"), "/ by zero"),
    (("--entity-default", "--add-config", "log.cleaner.dedupe.buffer.size=1000"),
     "requirement failed: log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."),
    (("--entity-name", "1", "--add-config", "log.cleaner.io.buffer.load.factor=abc"),
     "Invalid value abc for configuration log.cleaner.io.buffer.load.factor: Not a number of type DOUBLE"),
]


def test_refused_with_kafkas_messages(fresh_broker):
    b = fresh_broker()
    for args, message in _REFUSALS:
        assert _refusal(b.bootstrap, *args) == \
            f"org.apache.kafka.common.errors.InvalidRequestException: {message}", args
    # a thread count moves at most to double (or half) the current one: 2 from 1, then 4
    _alter(b.bootstrap, "", "--add-config", "num.replica.fetchers=2")
    assert _refusal(b.bootstrap, "--entity-name", "1", "--add-config",
                    "num.replica.fetchers=5").endswith("value should not be greater than double the current value 2 "
                                                       "for configuration Invalid dynamic configuration")
    _alter(b.bootstrap, "1", "--add-config", "num.replica.fetchers=4")
    # per.ip 0 with overrides is taken; the overrides cannot then go alone
    _alter(b.bootstrap, "1", "--add-config", "max.connections.per.ip=0,max.connections.per.ip.overrides=127.0.0.1:50")
    assert _refusal(b.bootstrap, "--entity-name", "1", "--delete-config",
                    "max.connections.per.ip.overrides").endswith("can be set to zero only if "
                                                                 "max.connections.per.ip.overrides property is set.")


def test_lowered_max_connections_per_ip_refuses_new_ones_and_keeps_the_others(fresh_broker):
    b = fresh_broker()
    kept = [RawClient(b.bootstrap) for _ in range(2)]
    for c in kept:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    _alter(b.bootstrap, "1", "--add-config", "max.connections.per.ip=2")
    _until(lambda: not _served(b.bootstrap))  # (once the tool's own connections are gone: any new one)
    for c in kept:  # the connections there stay
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    b.wait_output("Rejected connection from /127.0.0.1, address already has the configured maximum of 2")
    for c in kept:  # (room for the tool's connections)
        c.close()
    # an override for the address lifts it, cluster-wide
    _alter(b.bootstrap, "", "--add-config", "max.connections.per.ip.overrides=127.0.0.1:10")
    _until(lambda: _served(b.bootstrap))
    more = [RawClient(b.bootstrap) for _ in range(5)]
    for c in more:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    for c in more:
        c.close()


def _both_served(bootstrap: str) -> bool:
    """Two connections at once are answered."""
    clients = []
    try:
        clients = [RawClient(bootstrap) for _ in range(2)]
        return all(c.call(ApiVersionsRequest(), 0).error_code == 0 for c in clients)
    except (ConnectionError, OSError):
        return False
    finally:
        for c in clients:
            c.close()


def test_an_override_host_that_does_not_resolve_stops_the_update_there(fresh_broker):
    """Kafka 4.3 takes the update (its SocketServer does not validate the overrides) and applies it in
    SocketServer.reconfigure's order: max.connections.per.ip, then the overrides, whose host does not
    resolve (UnknownHostException), so max.connections is not applied; DynamicBrokerConfig logs
    "Per-broker configs of 1 could not be applied: [...]" (checked on a 4.3 node)."""
    b = fresh_broker()
    _alter(b.bootstrap, "1", "--add-config",
           "max.connections.per.ip=2,max.connections=1,max.connections.per.ip.overrides=nosuchhost.invalid:5")
    b.wait_output("Per-broker configs of 1 could not be applied: [")
    r = _configs(b.bootstrap, "--entity-name", "1", "--describe")
    assert "  max.connections.per.ip.overrides=nosuchhost.invalid:5 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:" \
        "max.connections.per.ip.overrides=nosuchhost.invalid:5, DEFAULT_CONFIG:max.connections.per.ip.overrides=}" \
        in r.stdout.splitlines()
    _until(lambda: _both_served(b.bootstrap))  # max.connections=1 was not applied
    kept = [RawClient(b.bootstrap) for _ in range(2)]
    for c in kept:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    assert RawClient(b.bootstrap).is_closed_by_peer()  # max.connections.per.ip=2 was
    for c in kept:
        c.close()


def test_a_static_override_host_that_does_not_resolve_stops_the_start(tmp_path):
    """Kafka 4.3 does not start: "Encountered fatal fault" with java.net.UnknownHostException:
    nosuchhost.invalid: Name or service not known."""
    r = subprocess.run([sys.executable, "-m", "odradek", "serve", "--port", "0", "--data-dir", str(tmp_path),
                        "--override", "max.connections.per.ip.overrides=nosuchhost.invalid:5"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "nosuchhost.invalid: " in r.stderr, r.stderr


def _set_broker_config(admin: RawClient, name: str, value: str | None) -> None:
    """IncrementalAlterConfigs on broker 1 over this one connection (SET value, or DELETE)."""
    op = DELETE if value is None else SET
    resp = admin.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
        resource_type=BROKER, resource_name="1",
        configs=[AlterableConfig(name=name, config_operation=op, value=value)])], validate_only=False), 1)
    assert [(r.error_code, r.error_message) for r in resp.responses] == [(0, None)]


def test_lowered_max_connections_closes_the_least_recently_active_over_it(fresh_broker):
    b = fresh_broker()
    clients = [RawClient(b.bootstrap) for _ in range(4)]
    for c in clients:  # active in this order: the first is the least recently active
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    admin = RawClient(b.bootstrap)
    _set_broker_config(admin, "max.connections", "3")  # 5 connections: the 2 least recently active go
    assert clients[0].is_closed_by_peer() and clients[1].is_closed_by_peer()
    for c in clients[2:]:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    waiting = RawClient(b.bootstrap)  # at the limit: waits unserved, as Kafka's acceptor
    corr = waiting.send(ApiVersionsRequest(), 0)
    _set_broker_config(admin, "max.connections", None)  # raised again: the waiting one is let in
    resp = waiting.recv(ApiVersionsRequest.API_KEY, 0)
    assert resp.correlation_id == corr and resp.body.error_code == 0
    for c in clients[2:] + [admin, waiting]:
        c.close()


def test_lowered_producer_id_expiration_expires_idle_producers(fresh_broker, topic_name):
    from confluent_kafka import Producer

    b = fresh_broker({"producer.id.expiration.check.interval.ms": "200"})
    create_topic(b.bootstrap, topic_name, 1)
    p = Producer({"bootstrap.servers": b.bootstrap, "enable.idempotence": True})
    p.produce(topic_name, b"v")
    assert p.flush(30) == 0

    def producers() -> str:
        r = kafka_tool("transactions", "--bootstrap-server", b.bootstrap, "describe-producers", "--topic",
                       topic_name, "--partition", "0")
        assert r.returncode == 0, r.stderr
        return r.stdout

    assert len(producers().strip().splitlines()) == 2  # the header and the producer (a day's expiration)
    _alter(b.bootstrap, "", "--add-config", "producer.id.expiration.ms=1000")
    _until(lambda: len(producers().strip().splitlines()) == 1)


def test_persisted_values_apply_after_a_restart(fresh_broker):
    b = fresh_broker()
    _alter(b.bootstrap, "1", "--add-config", "max.connections.per.ip=1")
    b.restart()
    kept = RawClient(b.bootstrap)
    assert kept.call(ApiVersionsRequest(), 0).error_code == 0
    assert RawClient(b.bootstrap).is_closed_by_peer()
    kept.close()


def protected_listener_scenario(client: str, internal: str) -> None:
    """With max.connections lowered to 5 under 8 connections, the client listener's 3 least recently
    active go and the inter-broker listener's stay and take new ones, for which the client listener's
    connections go (Kafka's closeExcessConnections at each poll); the client listener's new one
    waits until the limit is raised (Kafka's ConnectionQuotas.protectedListener; run on a 4.3 node
    too, where 5 leaves room for the controller's own connections: its SocketServer takes the limit)."""
    users = [RawClient(client) for _ in range(4)]
    brokers = [RawClient(internal) for _ in range(3)]
    for c in users + brokers:  # active in this order
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    admin = RawClient(internal)
    _set_broker_config(admin, "max.connections", "5")
    assert all(c.is_closed_by_peer() for c in users[:3])
    for c in users[3:] + brokers:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    more = RawClient(internal)  # let in over the limit, and the client listener's last one goes for it
    assert more.call(ApiVersionsRequest(), 0).error_code == 0
    assert users[3].is_closed_by_peer()
    for c in brokers:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    waiting = RawClient(client)
    corr = waiting.send(ApiVersionsRequest(), 0)
    _set_broker_config(admin, "max.connections", None)
    resp = waiting.recv(ApiVersionsRequest.API_KEY, 0)
    assert resp.correlation_id == corr and resp.body.error_code == 0
    for c in brokers + [more, admin, waiting]:
        c.close()


@pytest.fixture
def two_listeners(tmp_path):
    """A broker with a client listener (PLAINTEXT) and an inter-broker one (INTERNAL): their bootstraps."""
    client, internal = free_port(), free_port()
    b = BrokerProcess(str(tmp_path / "data"), {
        "listeners": f"PLAINTEXT://127.0.0.1:{client},INTERNAL://127.0.0.1:{internal}",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "inter.broker.listener.name": "INTERNAL"}, port=client)
    b.start()
    yield f"127.0.0.1:{client}", f"127.0.0.1:{internal}"
    b.kill9()


def test_the_inter_broker_listener_is_protected_from_max_connections(two_listeners):
    protected_listener_scenario(*two_listeners)


def listener_quota_scenario(client: str, internal: str) -> None:
    """listener.name.<l>.max.connections and .max.connection.creation.rate, per broker and as the
    default: refused and described as Kafka 4.3 does (run on a 4.3 node too), and a listener's
    limit holds its new connections, not the other listener's."""
    wrapped = "org.apache.kafka.common.errors.InvalidRequestException: " + _WRAPPED
    # (the value's type is checked as the broker-wide config's; Kafka checks the type of one listener's
    # value per config name before the whole config: with another listener's max.connections stored, an
    # abc may instead be refused wrapped, by the listener's quota)
    for args, message in [
            (("--entity-name", "1", "--add-config", "listener.name.plaintext.max.connections=abc"),
             "org.apache.kafka.common.errors.InvalidRequestException: Invalid value abc for configuration "
             "max.connections: Not a number of type INT"),
            (("--entity-name", "1", "--add-config", "listener.name.plaintext.max.connections=0"),
             wrapped.format("Invalid max.connections 0")),
            (("--entity-default", "--add-config", "listener.name.internal.max.connection.creation.rate=0"),
             wrapped.format("Invalid max.connection.creation.rate 0"))]:
        assert _refusal(internal, *args) == message, args
    # a listener the broker does not have: taken as it is
    _alter(internal, "1", "--add-config", "listener.name.nosuch.max.connections=0")
    users = [RawClient(client) for _ in range(2)]
    for c in users:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    admin = RawClient(internal)
    _set_broker_config(admin, "listener.name.plaintext.max.connections", "2")
    described = ("  listener.name.plaintext.max.connections=2 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:"
                 "listener.name.plaintext.max.connections=2, DEFAULT_CONFIG:max.connections=2147483647}")
    # (Kafka's broker describes it once it has applied it)
    _until(lambda: described in _configs(internal, "--entity-name", "1", "--describe").stdout.splitlines())
    more = RawClient(internal)  # the other listener's are not held
    assert more.call(ApiVersionsRequest(), 0).error_code == 0
    waiting = RawClient(client)  # the listener's third waits
    corr = waiting.send(ApiVersionsRequest(), 0)
    users[0].close()  # until one of its own goes
    resp = waiting.recv(ApiVersionsRequest.API_KEY, 0)
    assert resp.correlation_id == corr and resp.body.error_code == 0
    _set_broker_config(admin, "listener.name.plaintext.max.connections", None)
    _set_broker_config(admin, "listener.name.nosuch.max.connections", None)
    for c in users[1:] + [more, admin, waiting]:
        c.close()


def test_a_listeners_own_connection_quota(two_listeners):
    listener_quota_scenario(*two_listeners)
