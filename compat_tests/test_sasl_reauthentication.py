"""Re-authentication (KIP-368) with connections.max.reauth.ms on a SASL_PLAINTEXT listener: the
session lifetime is told in SaslAuthenticate; a connection that goes past it without
re-authenticating is closed at its next request; a re-authentication keeps the connection, and must
keep the mechanism and the principal (Kafka's SaslServerAuthenticator); librdkafka re-authenticates
by itself and a producer runs through several lifetimes, every record delivered, never refused. The raw-client answers
were checked against Kafka 4.3 with the same settings (the same codes, message and closes)."""

from __future__ import annotations

import time

import pytest
from confluent_kafka import KafkaError, Producer

from harness import BrokerProcess, RawClient, free_port
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest

LIFETIME_MS = 1500
JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";')


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("reauth")), {
        "listeners": f"SASL_PLAINTEXT://127.0.0.1:{port}", "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
        "connections.max.reauth.ms": str(LIFETIME_MS)}, port=port)
    b.start()
    try:
        yield b
    finally:
        b.stop()


def login(raw: RawClient, user: str, password: str, mechanism: str = "PLAIN"):
    hs = raw.call(SaslHandshakeRequest(mechanism=mechanism), 1)
    if hs.error_code:
        return hs
    return raw.call(SaslAuthenticateRequest(auth_bytes=b"\0" + user.encode() + b"\0" + password.encode()), 2)


def api_versions(raw: RawClient) -> int:
    return raw.call(ApiVersionsRequest(client_software_name="reauth", client_software_version="1"), 3).error_code


def test_the_session_lifetime_is_told_and_enforced(broker):
    raw = RawClient(broker.bootstrap)
    try:
        auth = login(raw, "admin", "admin-secret")
        assert (auth.error_code, auth.session_lifetime_ms) == (0, LIFETIME_MS)
        assert api_versions(raw) == 0
        time.sleep(LIFETIME_MS / 1000 + 0.2)  # past the session's end, without re-authenticating
        with pytest.raises(ConnectionError):
            api_versions(raw)
    finally:
        raw.close()


def test_a_reauthentication_keeps_the_connection_and_its_principal(broker):
    raw = RawClient(broker.bootstrap)
    try:
        assert login(raw, "admin", "admin-secret").error_code == 0
        again = login(raw, "admin", "admin-secret")  # on the authenticated connection
        assert (again.error_code, again.session_lifetime_ms) == (0, LIFETIME_MS)
        assert api_versions(raw) == 0
    finally:
        raw.close()
    raw = RawClient(broker.bootstrap)
    try:
        assert login(raw, "admin", "admin-secret").error_code == 0
        other = login(raw, "bob", "bob-secret")
        assert (other.error_code, other.error_message) == (
            ErrorCode.SASL_AUTHENTICATION_FAILED,
            "Cannot change principals during re-authentication from User.admin: User.bob")
    finally:
        raw.close()
    raw = RawClient(broker.bootstrap)
    try:  # another mechanism: the handshake is answered, the connection closed at the next step (as Kafka 4.3)
        assert login(raw, "admin", "admin-secret").error_code == 0
        assert raw.call(SaslHandshakeRequest(mechanism="SCRAM-SHA-256"), 1).error_code == 0
        with pytest.raises(ConnectionError):
            raw.call(SaslAuthenticateRequest(auth_bytes=b"n,,n=admin,r=abcdefgh"), 2)
    finally:
        raw.close()


def test_librdkafka_reauthenticates_through_several_lifetimes(broker):
    errors = []
    p = Producer({"bootstrap.servers": broker.bootstrap, "security.protocol": "SASL_PLAINTEXT",
                  "sasl.mechanism": "PLAIN", "sasl.username": "bob", "sasl.password": "bob-secret",
                  "linger.ms": 0, "error_cb": errors.append})
    delivered = []
    deadline = time.monotonic() + 3 * LIFETIME_MS / 1000 + 1
    n = 0
    while time.monotonic() < deadline:  # a record every 200 ms over more than three lifetimes
        p.produce("reauth", b"%d" % n, on_delivery=lambda err, msg: delivered.append(err))
        n += 1
        p.poll(0.2)
    assert p.flush(30) == 0
    assert len(delivered) == n and all(e is None for e in delivered), delivered
    # never refused; on a loaded machine a re-authentication that comes late finds its connection
    # closed (the session is over, as on Kafka) and librdkafka reconnects: a transport error, no more
    assert not [e for e in errors if e.code() == KafkaError._AUTHENTICATION], errors
