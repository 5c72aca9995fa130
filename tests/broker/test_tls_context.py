"""ssl.protocol, ssl.enabled.protocols and ssl.cipher.suites of a listener's TLS context
(broker/tls.py, broker/cipher_suites.py): what a Kafka broker's JVM would negotiate, or a
start-up refusal where odradek cannot do the same."""

from __future__ import annotations

import datetime
import shutil
import ssl
import subprocess

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from odradek.broker.cipher_suites import JAVA_SUITES, TLS13_SUITES, openssl_names
from odradek.broker.tls import client_context_of, server_context
from odradek.config import BrokerConfig, ConfigError


def _key_and_cert(key=None):
    """A self-signed localhost certificate for ``key`` (a new P-256 key by default)."""
    key = ec.generate_private_key(ec.SECP256R1()) if key is None else key
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert


@pytest.fixture(scope="module")
def parts():
    return _key_and_cert()


@pytest.fixture(scope="module")
def keystore(tmp_path_factory, parts):
    key, cert = parts
    path = tmp_path_factory.mktemp("ks") / "ks.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()) + cert.public_bytes(serialization.Encoding.PEM))
    return str(path)


def context(keystore: str, **settings) -> ssl.SSLContext:
    cfg = BrokerConfig.from_properties({"listeners": "SSL://127.0.0.1:9093", **({"ssl.keystore.type": "PEM",
                                        "ssl.keystore.location": keystore} if keystore else {}), **settings})
    return server_context(cfg, "SSL")


def test_every_java_suite_has_its_openssl_name():
    by_code = openssl_names()
    missing = [n for n, code in JAVA_SUITES.items() if code not in by_code and n != "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"]
    assert missing == []
    assert by_code[JAVA_SUITES["TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"]] == "ECDHE-RSA-AES256-GCM-SHA384"
    assert by_code[JAVA_SUITES["TLS_AES_128_GCM_SHA256"]] == "TLS_AES_128_GCM_SHA256"


def test_tls12_suites_only_turn_tls13_off(keystore):
    ctx = context(keystore, **{"listener.name.ssl.ssl.cipher.suites":
                               "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, TLS_EMPTY_RENEGOTIATION_INFO_SCSV"})
    assert ctx.minimum_version == ctx.maximum_version == ssl.TLSVersion.TLSv1_2
    assert [c["name"] for c in ctx.get_ciphers() if c["protocol"] == "TLSv1.2"] == ["ECDHE-ECDSA-AES128-GCM-SHA256"]


def test_all_tls13_suites_only_turn_tls12_off(keystore):
    ctx = context(keystore, **{"ssl.cipher.suites": ",".join(TLS13_SUITES)})
    assert ctx.minimum_version == ctx.maximum_version == ssl.TLSVersion.TLSv1_3


def test_defaults_and_java_disabled_protocols(keystore):
    ctx = context(keystore, **{"ssl.enabled.protocols": "TLSv1.2,TLSv1.1", "ssl.protocol": "TLSv1.2"})
    assert ctx.minimum_version == ctx.maximum_version == ssl.TLSVersion.TLSv1_2
    ctx = context(keystore)
    assert (ctx.minimum_version, ctx.maximum_version) == (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3)


@pytest.mark.parametrize("settings, says", [
    ({"ssl.cipher.suites": "TLS_FOO_BAR"}, "ssl.cipher.suites: Unsupported CipherSuite: TLS_FOO_BAR"),
    ({"ssl.cipher.suites": "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256"},
     "cannot choose among TLS 1.3 suites"),
    ({"ssl.cipher.suites": "TLS_AES_128_GCM_SHA256", "ssl.enabled.protocols": "TLSv1.2"}, "no protocol is left"),
    ({"ssl.enabled.protocols": "TLSv1.4"}, "ssl.enabled.protocols: Unsupported protocol TLSv1.4"),
    ({"ssl.enabled.protocols": "TLSv1.1"}, "no protocol is left"),
    ({"ssl.enabled.protocols": "SSLv2Hello,TLSv1.2"}, "SSLv2Hello"),
    ({"ssl.protocol": "FOO"}, "ssl.protocol: FOO SSLContext not available"),
])
def test_refused(keystore, settings, says):
    with pytest.raises(ConfigError, match=says):
        context(keystore, **settings)


def test_a_partial_tls13_list_is_fine_without_tls13(keystore):
    ctx = context(keystore, **{"ssl.enabled.protocols": "TLSv1.2",
                               "ssl.cipher.suites": "TLS_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"})
    assert ctx.maximum_version == ssl.TLSVersion.TLSv1_2


@pytest.fixture(scope="module")
def keytool_stores(tmp_path_factory, parts):
    """Key and trust stores made by Java 17's keytool from the test's certificate: ks.jks (JKS),
    ks.p12 (keytool's PKCS12: PBES2/AES-256, HmacSHA256) and ts.p12 (a trusted-certificate entry)."""
    keytool = shutil.which("keytool")
    if keytool is None:
        pytest.skip("keytool (Java) is not installed")
    key, cert = parts
    d = tmp_path_factory.mktemp("keytool")
    (d / "made.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"broker", key, cert, None, serialization.BestAvailableEncryption(b"secret1")))
    (d / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    for args in (["-importkeystore", "-srckeystore", "made.p12", "-srcstoretype", "PKCS12", "-srcstorepass", "secret1",
                  "-destkeystore", "ks.jks", "-deststoretype", "JKS", "-deststorepass", "secret1"],
                 ["-importkeystore", "-srckeystore", "made.p12", "-srcstoretype", "PKCS12", "-srcstorepass", "secret1",
                  "-destkeystore", "ks.p12", "-deststoretype", "PKCS12", "-deststorepass", "secret1"],
                 ["-importcert", "-alias", "ca", "-file", "cert.pem", "-keystore", "ts.p12", "-storetype", "PKCS12",
                  "-storepass", "secret2"]):
        subprocess.run([keytool, *args, "-noprompt"], cwd=d, check=True, capture_output=True, timeout=120)
    return d


def _handshake(server: ssl.SSLContext, client: ssl.SSLContext) -> str:
    """Both sides of a TLS handshake in memory; the protocol agreed."""
    to_server, to_client = ssl.MemoryBIO(), ssl.MemoryBIO()
    s_out, c_out = ssl.MemoryBIO(), ssl.MemoryBIO()
    srv = server.wrap_bio(to_server, s_out, server_side=True)
    cli = client.wrap_bio(to_client, c_out, server_hostname="localhost")
    for _ in range(10):
        for side in (cli, srv):
            try:
                side.do_handshake()
            except ssl.SSLWantReadError:
                pass
        to_server.write(c_out.read())
        to_client.write(s_out.read())
    return cli.version()


@pytest.mark.parametrize("store_type", [{"ssl.keystore.type": "PKCS12", "ssl.truststore.type": "PKCS12"},
                                        {}])  # Kafka's default type JKS reads PKCS12 files too (Java's dual format)
def test_keytool_pkcs12_stores_load(keytool_stores, store_type):
    server = context("", **{"ssl.keystore.location": str(keytool_stores / "ks.p12"),
                            "ssl.keystore.password": "secret1", **store_type})
    trust = {"ssl.truststore.location": str(keytool_stores / "ts.p12"), "ssl.truststore.password": "secret2",
             **store_type}
    client = client_context_of(lambda key, default=None: trust.get(key, default))
    assert _handshake(server, client) == "TLSv1.3"


def test_keytool_jks_is_refused_in_kafkas_words(keytool_stores):
    jks = keytool_stores / "ks.jks"
    with pytest.raises(ConfigError, match=f"Failed to load SSL keystore {jks} of type JKS: it is a JKS file"):
        context("", **{"ssl.keystore.type": "JKS", "ssl.keystore.location": str(jks), "ssl.keystore.password": "secret1"})
    with pytest.raises(ConfigError, match="Failed to load SSL keystore .* of type PKCS12: Invalid password"):
        context("", **{"ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(keytool_stores / "ks.p12"),
                       "ssl.keystore.password": "wrong"})


def test_java_disabled_suites_are_taken_and_add_nothing(keystore):
    ctx = context(keystore, **{"ssl.cipher.suites": "TLS_RSA_WITH_3DES_EDE_CBC_SHA,SSL_RSA_WITH_RC4_128_SHA,"
                                                    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"})
    assert [c["name"] for c in ctx.get_ciphers() if c["protocol"] == "TLSv1.2"] == ["ECDHE-ECDSA-AES256-GCM-SHA384"]
    with pytest.raises(ConfigError, match="no protocol is left"):  # Java takes it, then agrees on nothing
        context(keystore, **{"ssl.cipher.suites": "SSL_RSA_WITH_RC4_128_SHA"})


def test_dhe_suite_is_served(tmp_path):
    """A DHE suite needs DH parameters, which Python's ssl has none of by default (Java has)."""
    from cryptography.hazmat.primitives.asymmetric import rsa

    key, cert = _key_and_cert(rsa.generate_private_key(public_exponent=65537, key_size=2048))
    pem = cert.public_bytes(serialization.Encoding.PEM)
    (tmp_path / "ks.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                        serialization.NoEncryption()) + pem)
    server = context(str(tmp_path / "ks.pem"), **{"ssl.cipher.suites": "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"})
    client = ssl.create_default_context(cadata=pem.decode())
    client.set_ciphers("DHE-RSA-AES128-GCM-SHA256")
    assert _handshake(server, client) == "TLSv1.2"
