"""Test certificates made by the tests (never committed keys): a CA, and certificates it signs
for 127.0.0.1 / localhost (servers) or a client name (mTLS), as PEM files."""

from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "odradek tests"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _key():
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key, password: str | None = None) -> bytes:
    enc = (serialization.BestAvailableEncryption(password.encode()) if password else serialization.NoEncryption())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc)


class TestCA:
    def __init__(self, directory: Path):
        self.dir = directory
        self.key = _key()
        now = datetime.datetime.now(datetime.timezone.utc)
        self.cert = (x509.CertificateBuilder().subject_name(_name("odradek test CA")).issuer_name(_name("odradek test CA"))
                     .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
                     .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
                     .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                     .sign(self.key, hashes.SHA256()))
        self.ca_file = directory / "ca.pem"
        self.ca_file.write_bytes(self.cert.public_bytes(serialization.Encoding.PEM))

    def issue(self, name: str, cn: str, server: bool, key_password: str | None = None) -> tuple[Path, Path]:
        """(certificate chain file, key file) of a new certificate signed by this CA."""
        key = _key()
        now = datetime.datetime.now(datetime.timezone.utc)
        b = (x509.CertificateBuilder().subject_name(_name(cn)).issuer_name(self.cert.subject)
             .public_key(key.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2)))
        if server:
            b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                            x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                                critical=False)
        cert = b.sign(self.key, hashes.SHA256())
        chain = self.dir / f"{name}.crt"
        chain.write_bytes(cert.public_bytes(serialization.Encoding.PEM) + self.cert.public_bytes(serialization.Encoding.PEM))
        key_file = self.dir / f"{name}.key"
        key_file.write_bytes(_pem_key(key, key_password))
        return chain, key_file

    def keystore_pem(self, name: str, cn: str, key_password: str | None = None) -> Path:
        """One PEM file with the key and the certificate chain (Kafka's ssl.keystore.type=PEM location)."""
        chain, key = self.issue(name, cn, server=True, key_password=key_password)
        both = self.dir / f"{name}-keystore.pem"
        both.write_bytes(key.read_bytes() + chain.read_bytes())
        return both
