"""The TLS side of an SSL or SASL_SSL listener: an ssl.SSLContext from Kafka's ssl.* settings
(listener-prefixed first). Key stores PEM (a file holding the key and its chain, or the inline
ssl.keystore.key / ssl.keystore.certificate.chain) or PKCS12 (read with the `cryptography`
package; keytool's PKCS12 too, also under Kafka's default type JKS, as Java reads it); trust stores
PEM or PKCS12. A JKS file is not read: no maintained Python reader exists (pyjks's last release is
from 2020), so start-up refuses it in Kafka's words with the keytool line that converts it, as it
refuses any setting it cannot honour."""

from __future__ import annotations

import contextlib
import os
import ssl
import tempfile

from odradek.broker import cipher_suites
from odradek.config import ConfigError

PROTOCOLS = {"TLSv1.2": ssl.TLSVersion.TLSv1_2, "TLSv1.3": ssl.TLSVersion.TLSv1_3}
JAVA_DISABLED_PROTOCOLS = ("TLSv1.1", "TLSv1", "SSLv3")  # known to Java 17, never negotiated by it
# the SSLContext protocols of Java 17 (SSLContext.getInstance): ssl.protocol must be one of them
# (DTLS and Default exist too, but a Kafka broker cannot serve with them)
JAVA_CONTEXTS = ("TLS", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3", "SSL", "SSLv3")
# RFC 7919's ffdhe2048 group, the DH parameters of a DHE suite (Python's ssl has none by default; Java
# negotiates RFC 7919 groups)
FFDHE2048 = b"""-----BEGIN DH PARAMETERS-----
MIIBCAKCAQEA//////////+t+FRYortKmq/cViAnPTzx2LnFg84tNpWp4TZBFGQz
+8yTnc4kmz75fS/jY2MMddj2gbICrsRhetPfHtXV/WVhJDP1H18GbtCFY2VVPe0a
87VXE15/V8k1mE8McODmi3fipona8+/och3xWKE2rec1MKzKT0g6eXq8CrGCsyT7
YdEIqUuyyOP7uWrat2DX9GgdT0Kj3jlN9K5W7edjcrsZCwenyO4KbXCeAvzhzffi
7MA0BM0oNC9hkXL+nOmFg/+OTxIy7vKBg8P+OxtMb61zO7X8vC7CIAXFjvGDfRaD
ssbzSibBsu/6iGtCOGEoXJf//////////wIBAg==
-----END DH PARAMETERS-----
"""
_JKS_MAGIC = b"\xfe\xed\xfe\xed"
CLIENT_AUTH = {"none": ssl.CERT_NONE, "requested": ssl.CERT_OPTIONAL, "required": ssl.CERT_REQUIRED}


def server_context(cfg, listener: str) -> ssl.SSLContext:
    def get(key: str, default: str | None = None) -> str | None:
        return cfg.ssl(listener, key, default)

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    _protocols_and_suites(ctx, get, server=True)
    auth = (get("ssl.client.auth", "none") or "none").lower()
    if auth not in CLIENT_AUTH:
        raise ConfigError(f"Invalid value {auth} for configuration ssl.client.auth: String must be one of: "
                          f"required, requested, none")
    _load_keystore(ctx, get)
    _load_truststore(ctx, get, required=auth != "none")
    ctx.verify_mode = CLIENT_AUTH[auth]
    return ctx


def _protocols_and_suites(ctx: ssl.SSLContext, get, server: bool) -> None:
    """ssl.protocol, ssl.enabled.protocols and ssl.cipher.suites as a Kafka broker's JVM takes them.
    Java also knows TLSv1.1, TLSv1 and SSLv3 but Java 17 disables them (jdk.tls.disabledAlgorithms),
    so a Kafka broker never negotiates them: listed, they change nothing here either. A list with
    neither TLSv1.2 nor TLSv1.3 (or whose cipher suites leave no protocol) could serve no client:
    refused at start-up."""
    protocol = (get("ssl.protocol", "TLSv1.3") or "").strip()
    if protocol not in JAVA_CONTEXTS:
        raise ConfigError(f"ssl.protocol: {protocol} SSLContext not available (odradek serves TLS: "
                          f"{', '.join(JAVA_CONTEXTS)})")
    enabled = [p.strip() for p in (get("ssl.enabled.protocols", "TLSv1.2,TLSv1.3") or "").split(",") if p.strip()]
    for p in enabled:
        if p == "SSLv2Hello":
            raise ConfigError("ssl.enabled.protocols: SSLv2Hello (SSLv2-format client hellos) is not offered by odradek")
        if p not in PROTOCOLS and p not in JAVA_DISABLED_PROTOCOLS:
            raise ConfigError(f"ssl.enabled.protocols: Unsupported protocol {p}")
    versions = {PROTOCOLS[p] for p in enabled if p in PROTOCOLS}
    raw_suites = get("ssl.cipher.suites") or ""
    choice = cipher_suites.choose(raw_suites, ssl.TLSVersion.TLSv1_3 in versions)
    if choice is not None:
        if choice.tls12 is None:
            versions.discard(ssl.TLSVersion.TLSv1_2)
        else:
            ctx.set_ciphers(choice.tls12)
        if choice.dhe and server:
            with _temp_file(FFDHE2048) as path:
                ctx.load_dh_params(path)
        if not choice.tls13:
            versions.discard(ssl.TLSVersion.TLSv1_3)
    if not versions:
        suites = f" with ssl.cipher.suites={raw_suites}" if choice is not None else ""
        raise ConfigError(f"ssl.enabled.protocols={','.join(enabled)}{suites}: no protocol is left that a "
                          f"client could use (odradek offers TLSv1.2 and TLSv1.3)")
    ctx.minimum_version, ctx.maximum_version = min(versions), max(versions)


def _load_keystore(ctx: ssl.SSLContext, get) -> None:
    kind = (get("ssl.keystore.type", "JKS") or "JKS").upper()
    key_password = get("ssl.key.password") or get("ssl.keystore.password")
    inline_key, inline_chain = get("ssl.keystore.key"), get("ssl.keystore.certificate.chain")
    if inline_key or inline_chain:
        if kind != "PEM" or not (inline_key and inline_chain):
            raise ConfigError("ssl.keystore.key and ssl.keystore.certificate.chain go together, "
                              "with ssl.keystore.type=PEM")
        _load_pem(ctx, (inline_chain + "\n" + inline_key).encode(), key_password)
        return
    location = get("ssl.keystore.location")
    data = _read(location, "ssl.keystore.location")
    if kind == "PEM":
        _load_pem(ctx, data, key_password)
    else:
        from cryptography.hazmat.primitives.serialization import pkcs12

        _must_be_pkcs12("keystore", location, kind, data)
        pw = get("ssl.keystore.password")
        try:
            key, cert, chain = pkcs12.load_key_and_certificates(data, pw.encode() if pw else None)
        except ValueError as e:
            raise ConfigError(f"Failed to load SSL keystore {location} of type {kind}: {e}") from None
        if key is None or cert is None:
            raise ConfigError(f"ssl.keystore.location {location}: no key and certificate in the PKCS12 key store")
        _load_pem(ctx, _pem(key, [cert, *(chain or [])]), None)


def _load_truststore(ctx: ssl.SSLContext, get, required: bool) -> None:
    kind = (get("ssl.truststore.type", "JKS") or "JKS").upper()
    inline = get("ssl.truststore.certificates")
    location = get("ssl.truststore.location")
    if inline:
        ctx.load_verify_locations(cadata=inline)
        return
    if not location:
        if required:
            raise ConfigError("ssl.client.auth asks for client certificates but no trust store is set "
                              "(ssl.truststore.location or ssl.truststore.certificates)")
        return
    data = _read(location, "ssl.truststore.location")
    if kind == "PEM":
        ctx.load_verify_locations(cadata=data.decode("ascii", "replace"))
    else:
        from cryptography.hazmat.primitives.serialization import Encoding, pkcs12

        _must_be_pkcs12("truststore", location, kind, data)
        pw = get("ssl.truststore.password")
        try:
            certs = pkcs12.load_pkcs12(data, pw.encode() if pw else None)
        except ValueError as e:
            raise ConfigError(f"Failed to load SSL truststore {location} of type {kind}: {e}") from None
        pems = [c.certificate.public_bytes(Encoding.PEM).decode() for c in certs.additional_certs]
        if certs.cert is not None:
            pems.append(certs.cert.certificate.public_bytes(Encoding.PEM).decode())
        ctx.load_verify_locations(cadata="".join(pems))


def _must_be_pkcs12(store: str, location: str, kind: str, data: bytes) -> None:
    """Java's JKS and PKCS12 key stores each load the other's files (keystore.type.compat=true, the
    default), so Kafka's default type JKS reads a PKCS12 file: a store of either type that is PKCS12
    is read as PKCS12. A JKS file (or any other type) is refused in Kafka's words: JKS has no
    maintained Python reader (pyjks's last release is from 2020); keytool converts it."""
    if kind not in ("JKS", "PKCS12"):
        raise ConfigError(f"Failed to load SSL {store} {location} of type {kind}: odradek reads PEM and PKCS12 "
                          f"{store}s, not {kind}")
    if data[:4] == _JKS_MAGIC:
        raise ConfigError(f"Failed to load SSL {store} {location} of type {kind}: it is a JKS file, which odradek "
                          f"does not read (convert it: keytool -importkeystore -srckeystore {location} "
                          f"-destkeystore {store}.p12 -deststoretype PKCS12, then ssl.{store}.type=PKCS12)")


def _read(location: str | None, name: str) -> bytes:
    if not location:
        raise ConfigError(f"{name} is not set")
    try:
        with open(location, "rb") as f:
            return f.read()
    except OSError as e:
        raise ConfigError(f"{name} {location}: {e.strerror or e}") from None


def _pem(key, certs) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    out = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    return out + b"".join(c.public_bytes(Encoding.PEM) for c in certs)


@contextlib.contextmanager
def _temp_file(data: bytes):
    """load_cert_chain and load_dh_params take files only: the PEM goes through a private temporary file."""
    fd, path = tempfile.mkstemp(prefix="odradek-tls-", suffix=".pem")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        yield path
    finally:
        os.unlink(path)


def _load_pem(ctx: ssl.SSLContext, pem: bytes, password: str | None) -> None:
    with _temp_file(pem) as path:
        try:
            ctx.load_cert_chain(path, password=password)
        except ssl.SSLError as e:
            raise ConfigError(f"the SSL key store cannot be loaded: {e.reason or e}") from None


def client_context(cfg, listener: str) -> ssl.SSLContext:
    """The TLS side of a node's own connections to another node's ``listener`` (the controller
    listener, the inter-broker listener), from that listener's ssl.* settings as Kafka's node clients
    take them: its trust store verifies the peer, its key store (if any) is this node's certificate
    for mTLS, ssl.endpoint.identification.algorithm=https (Kafka's default) checks the peer's host
    name, an empty value does not."""
    def get(key: str, default: str | None = None) -> str | None:
        return cfg.ssl(listener, key, default)

    return client_context_of(get)


def client_context_of(get) -> ssl.SSLContext:
    """A client TLS context from Kafka's client ssl.* settings as ``get(key, default)`` answers them
    (a listener's, or the JAAS options of OAUTHBEARER's JWKS endpoint); no trust store: the system's."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    _protocols_and_suites(ctx, get, server=False)
    algorithm = (get("ssl.endpoint.identification.algorithm", "https") or "").strip().lower()
    if algorithm not in ("", "https"):
        raise ConfigError(f"ssl.endpoint.identification.algorithm={algorithm}: odradek knows https or none (empty)")
    ctx.check_hostname = algorithm == "https"
    ctx.verify_mode = ssl.CERT_REQUIRED
    if get("ssl.truststore.location") or get("ssl.truststore.certificates"):
        _load_truststore(ctx, get, required=True)
    else:
        ctx.load_default_certs()
    if get("ssl.keystore.location") or get("ssl.keystore.key"):
        _load_keystore(ctx, get)
    return ctx
