"""ssl.cipher.suites on a listener, as Kafka 4.3 takes it (Java names): a listener limited to one
TLS 1.2 suite serves a client offering it, and a client offering only another suite (or only
TLS 1.3: no TLS 1.3 suite is listed) fails its handshake cleanly; Python's ssl client and
confluent-kafka (ssl.cipher.suites) alike. A name the JVM does not know is refused.

ODRADEK_TLS_REF=host:port runs the handshake checks against a Kafka 4.3 SSL listener started by
hand with the settings of ``SETTINGS`` and a PEM key store (no key password) issued by the CA
whose PEM file is ODRADEK_TLS_REF_CA."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from confluent_kafka import KafkaError, Producer

from harness import REPO, BrokerProcess, free_port
from tls_certs import TestCA

SUITE = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"  # the test certificates' keys are EC
SETTINGS = {"ssl.cipher.suites": SUITE}


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    if os.environ.get("ODRADEK_TLS_REF"):
        yield os.environ["ODRADEK_TLS_REF"], Path(os.environ["ODRADEK_TLS_REF_CA"])
        return
    certs = tmp_path_factory.mktemp("certs")
    ca = TestCA(certs)
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("tls")), {
        "listeners": f"SSL://127.0.0.1:{port}", "ssl.keystore.type": "PEM",
        "ssl.keystore.location": str(ca.keystore_pem("broker", "localhost")), **SETTINGS}, port=port)
    b.start()
    try:
        yield b.bootstrap, ca.ca_file
    finally:
        b.stop()


def handshake(bootstrap: str, ca: Path, ciphers: str | None, version: ssl.TLSVersion) -> tuple[str, str]:
    """(protocol, OpenSSL suite name) a Python client agrees on, offering ``ciphers`` at ``version``."""
    ctx = ssl.create_default_context(cafile=str(ca))
    ctx.minimum_version = ctx.maximum_version = version
    if ciphers:
        ctx.set_ciphers(ciphers)
    host, port = bootstrap.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=15) as raw, \
            ctx.wrap_socket(raw, server_hostname=host) as tls:
        name, protocol, _ = tls.cipher()
        return protocol, name


def test_only_the_configured_suite_is_agreed(broker):
    bootstrap, ca = broker
    assert handshake(bootstrap, ca, "ECDHE-ECDSA-AES128-GCM-SHA256", ssl.TLSVersion.TLSv1_2) == \
        ("TLSv1.2", "ECDHE-ECDSA-AES128-GCM-SHA256")
    for ciphers, version in (("ECDHE-ECDSA-AES256-GCM-SHA384", ssl.TLSVersion.TLSv1_2),
                             (None, ssl.TLSVersion.TLSv1_3)):  # no TLS 1.3 suite listed: no TLS 1.3
        with pytest.raises((ssl.SSLError, ConnectionResetError)):
            handshake(bootstrap, ca, ciphers, version)


def _produce(bootstrap: str, ca: Path, ciphers: str, timeout_ms: int) -> tuple[list, list]:
    """(delivery errors, client errors) of one record produced offering only ``ciphers``."""
    errors, delivered = [], []
    p = Producer({"bootstrap.servers": bootstrap, "security.protocol": "SSL", "ssl.ca.location": str(ca),
                  "ssl.cipher.suites": ciphers, "message.timeout.ms": timeout_ms, "error_cb": errors.append})
    p.produce("cipher-suites", b"v", on_delivery=lambda err, msg: delivered.append(err))
    p.flush(timeout_ms / 1000 + 5)
    return delivered, errors


def test_confluent_client_cipher_suites(broker):
    bootstrap, ca = broker
    assert _produce(bootstrap, ca, "ECDHE-ECDSA-AES128-GCM-SHA256", 30000) == ([None], [])
    delivered, errors = _produce(bootstrap, ca, "ECDHE-ECDSA-AES256-GCM-SHA384", 3000)
    assert len(delivered) == 1 and delivered[0] is not None  # never written
    assert any(e.code() in (KafkaError._SSL, KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN) for e in errors), errors


@pytest.mark.skipif(bool(os.environ.get("ODRADEK_TLS_REF")), reason="odradek's start-up")
def test_a_suite_the_jvm_does_not_know_stops_start_up(tmp_path):
    """Kafka 4.3 starts, then closes every connection of the listener with this error; odradek says
    it at start-up (the other refusals: tests/broker/test_tls_context.py)."""
    r = subprocess.run([sys.executable, "-m", "odradek", "serve", "--data-dir", str(tmp_path), "--override",
                        f"listeners=SSL://127.0.0.1:{free_port()}", "--override", "ssl.keystore.type=PEM",
                        "--override", "ssl.keystore.location=/nope.pem", "--override", "ssl.cipher.suites=TLS_FOO_BAR"],
                       capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert r.returncode == 2 and "Unsupported CipherSuite: TLS_FOO_BAR" in r.stderr, r.stderr
