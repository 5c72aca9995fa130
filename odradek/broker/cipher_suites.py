"""ssl.cipher.suites as Kafka takes it: Java (IANA) suite names, mapped onto OpenSSL's.

The names a Kafka broker accepts are those its JVM supports; on Java 17 (Kafka 4.3's floor)
these are the 36 below (37 with the renegotiation signal), kept with their IANA code points (the TLS Cipher Suites registry). The
OpenSSL name of a code point is read at run time from the linked OpenSSL (``get_ciphers()``
carries each suite's code in its ``id``), so no OpenSSL spelling is written here.

TLS 1.2 suites go to ``SSLContext.set_ciphers``. TLS 1.3 suites cannot be chosen through
Python's ssl module (it has no ``set_ciphersuites``: OpenSSL's three defaults, the same three
Java offers, are always on); so a list naming all three or none of them is honoured exactly (none:
TLS 1.3 cannot be negotiated, as in Java, whose engine needs an enabled TLS 1.3 suite for it),
and a list naming some of them is refused at start-up rather than pretended."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

from odradek.config import ConfigError

JAVA_SUITES: dict[str, int] = {
    "TLS_AES_256_GCM_SHA384": 0x1302,
    "TLS_AES_128_GCM_SHA256": 0x1301,
    "TLS_CHACHA20_POLY1305_SHA256": 0x1303,
    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384": 0xC02C,
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256": 0xC02B,
    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256": 0xCCA9,
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384": 0xC030,
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256": 0xCCA8,
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": 0xC02F,
    "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384": 0x009F,
    "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256": 0xCCAA,
    "TLS_DHE_DSS_WITH_AES_256_GCM_SHA384": 0x00A3,
    "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256": 0x009E,
    "TLS_DHE_DSS_WITH_AES_128_GCM_SHA256": 0x00A2,
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384": 0xC024,
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384": 0xC028,
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256": 0xC023,
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256": 0xC027,
    "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256": 0x006B,
    "TLS_DHE_DSS_WITH_AES_256_CBC_SHA256": 0x006A,
    "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256": 0x0067,
    "TLS_DHE_DSS_WITH_AES_128_CBC_SHA256": 0x0040,
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA": 0xC00A,
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA": 0xC014,
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA": 0xC009,
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA": 0xC013,
    "TLS_DHE_RSA_WITH_AES_256_CBC_SHA": 0x0039,
    "TLS_DHE_DSS_WITH_AES_256_CBC_SHA": 0x0038,
    "TLS_DHE_RSA_WITH_AES_128_CBC_SHA": 0x0033,
    "TLS_DHE_DSS_WITH_AES_128_CBC_SHA": 0x0032,
    "TLS_RSA_WITH_AES_256_GCM_SHA384": 0x009D,
    "TLS_RSA_WITH_AES_128_GCM_SHA256": 0x009C,
    "TLS_RSA_WITH_AES_256_CBC_SHA256": 0x003D,
    "TLS_RSA_WITH_AES_128_CBC_SHA256": 0x003C,
    "TLS_RSA_WITH_AES_256_CBC_SHA": 0x0035,
    "TLS_RSA_WITH_AES_128_CBC_SHA": 0x002F,
    "TLS_EMPTY_RENEGOTIATION_INFO_SCSV": 0x00FF,  # a signal, not a suite: OpenSSL always sends it
}
# Names Java 17 takes in setEnabledCipherSuites but never negotiates (3DES, RC4, DES, NULL, anonymous,
# static ECDH, export: its jdk.tls.disabledAlgorithms): accepted, and they add nothing, as in Kafka.
JAVA_DISABLED_SUITES = frozenset({
    "TLS_ECDH_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDH_RSA_WITH_AES_256_GCM_SHA384",
    "TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDH_RSA_WITH_AES_128_GCM_SHA256",
    "TLS_ECDH_ECDSA_WITH_AES_256_CBC_SHA384", "TLS_ECDH_RSA_WITH_AES_256_CBC_SHA384",
    "TLS_ECDH_ECDSA_WITH_AES_128_CBC_SHA256", "TLS_ECDH_RSA_WITH_AES_128_CBC_SHA256",
    "TLS_ECDH_ECDSA_WITH_AES_256_CBC_SHA", "TLS_ECDH_RSA_WITH_AES_256_CBC_SHA",
    "TLS_ECDH_ECDSA_WITH_AES_128_CBC_SHA", "TLS_ECDH_RSA_WITH_AES_128_CBC_SHA",
    "TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA", "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
    "SSL_DHE_RSA_WITH_3DES_EDE_CBC_SHA", "TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA", "SSL_DHE_DSS_WITH_3DES_EDE_CBC_SHA",
    "TLS_DHE_DSS_WITH_3DES_EDE_CBC_SHA", "TLS_ECDH_ECDSA_WITH_3DES_EDE_CBC_SHA",
    "TLS_ECDH_RSA_WITH_3DES_EDE_CBC_SHA", "SSL_RSA_WITH_3DES_EDE_CBC_SHA", "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
    "TLS_DH_anon_WITH_AES_256_GCM_SHA384", "TLS_DH_anon_WITH_AES_128_GCM_SHA256",
    "TLS_DH_anon_WITH_AES_256_CBC_SHA256", "TLS_ECDH_anon_WITH_AES_256_CBC_SHA", "TLS_DH_anon_WITH_AES_256_CBC_SHA",
    "TLS_DH_anon_WITH_AES_128_CBC_SHA256", "TLS_ECDH_anon_WITH_AES_128_CBC_SHA", "TLS_DH_anon_WITH_AES_128_CBC_SHA",
    "TLS_ECDH_anon_WITH_3DES_EDE_CBC_SHA", "SSL_DH_anon_WITH_3DES_EDE_CBC_SHA", "TLS_DH_anon_WITH_3DES_EDE_CBC_SHA",
    "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA", "TLS_ECDHE_RSA_WITH_RC4_128_SHA", "SSL_RSA_WITH_RC4_128_SHA",
    "TLS_RSA_WITH_RC4_128_SHA", "TLS_ECDH_ECDSA_WITH_RC4_128_SHA", "TLS_ECDH_RSA_WITH_RC4_128_SHA",
    "SSL_RSA_WITH_RC4_128_MD5", "TLS_RSA_WITH_RC4_128_MD5", "TLS_ECDH_anon_WITH_RC4_128_SHA",
    "SSL_DH_anon_WITH_RC4_128_MD5", "TLS_DH_anon_WITH_RC4_128_MD5", "SSL_RSA_WITH_DES_CBC_SHA",
    "TLS_RSA_WITH_DES_CBC_SHA", "SSL_DHE_RSA_WITH_DES_CBC_SHA", "TLS_DHE_RSA_WITH_DES_CBC_SHA",
    "SSL_DHE_DSS_WITH_DES_CBC_SHA", "TLS_DHE_DSS_WITH_DES_CBC_SHA", "SSL_DH_anon_WITH_DES_CBC_SHA",
    "TLS_DH_anon_WITH_DES_CBC_SHA", "SSL_RSA_EXPORT_WITH_DES40_CBC_SHA", "TLS_RSA_EXPORT_WITH_DES40_CBC_SHA",
    "SSL_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA", "TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA",
    "SSL_DHE_DSS_EXPORT_WITH_DES40_CBC_SHA", "TLS_DHE_DSS_EXPORT_WITH_DES40_CBC_SHA",
    "SSL_DH_anon_EXPORT_WITH_DES40_CBC_SHA", "TLS_DH_anon_EXPORT_WITH_DES40_CBC_SHA",
    "SSL_RSA_EXPORT_WITH_RC4_40_MD5", "TLS_RSA_EXPORT_WITH_RC4_40_MD5", "SSL_DH_anon_EXPORT_WITH_RC4_40_MD5",
    "TLS_DH_anon_EXPORT_WITH_RC4_40_MD5", "TLS_RSA_WITH_NULL_SHA256", "TLS_ECDHE_ECDSA_WITH_NULL_SHA",
    "TLS_ECDHE_RSA_WITH_NULL_SHA", "SSL_RSA_WITH_NULL_SHA", "TLS_RSA_WITH_NULL_SHA", "TLS_ECDH_ECDSA_WITH_NULL_SHA",
    "TLS_ECDH_RSA_WITH_NULL_SHA", "TLS_ECDH_anon_WITH_NULL_SHA", "SSL_RSA_WITH_NULL_MD5", "TLS_RSA_WITH_NULL_MD5"})
TLS13_SUITES = ("TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_GCM_SHA256")
_SCSV = "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"


@dataclass(frozen=True)
class CipherChoice:
    """What ssl.cipher.suites asks of OpenSSL: the TLS 1.2 cipher list, DHE, TLS 1.3 on or off."""
    tls12: str | None  # the OpenSSL cipher list for TLS 1.2, None: no TLS 1.2 suite (TLS 1.2 is off)
    dhe: bool  # a finite-field DHE suite is listed: the server needs DH parameters, as Java has them
    tls13: bool  # the TLS 1.3 suites are on (all three) or off (none)


def openssl_names() -> dict[int, str]:
    """IANA code point -> OpenSSL name, from the linked OpenSSL's full list."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.set_ciphers("ALL:COMPLEMENTOFALL:@SECLEVEL=0")
    return {c["id"] & 0xFFFF: c["name"] for c in ctx.get_ciphers()}


def choose(raw: str, tls13_enabled: bool) -> CipherChoice | None:
    """The suites of ssl.cipher.suites (a comma list; empty: the defaults, None). With TLSv1.3 not
    enabled its suites do not matter (Java ignores them too)."""
    names = [n.strip() for n in raw.split(",") if n.strip()]
    if not names:
        return None
    unknown = [n for n in names if n not in JAVA_SUITES and n not in JAVA_DISABLED_SUITES]
    if unknown:
        raise ConfigError(f"ssl.cipher.suites: Unsupported CipherSuite: {unknown[0]} (Kafka 4.3 starts, then closes "
                          f"every connection of the listener with this error)")
    tls13 = [n for n in names if n in TLS13_SUITES]
    if tls13_enabled and tls13 and len(set(tls13)) != len(TLS13_SUITES):
        raise ConfigError(
            f"ssl.cipher.suites names {', '.join(tls13)} but not every TLS 1.3 suite: odradek cannot choose "
            f"among TLS 1.3 suites (Python's ssl module always offers {', '.join(TLS13_SUITES)}); list all "
            f"three, or none (no TLS 1.3), or leave TLSv1.3 out of ssl.enabled.protocols")
    by_code = openssl_names()
    tls12 = []
    for n in names:
        if n in TLS13_SUITES or n == _SCSV or n in JAVA_DISABLED_SUITES:
            continue
        openssl = by_code.get(JAVA_SUITES[n])
        if openssl is None:
            raise ConfigError(f"ssl.cipher.suites: {n} is not available in this OpenSSL ({ssl.OPENSSL_VERSION})")
        tls12.append(openssl)
    return CipherChoice(":".join(tls12) or None, any(n.startswith("DHE-") for n in tls12), bool(tls13))
