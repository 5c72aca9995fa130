"""The SCRAM client of a node (security/scram_client.py): RFC 7677's test vector, an exchange with
odradek's own SCRAM server, and the server messages it refuses; `--add-scram` parsed as Kafka's
kafka-storage format (controller/scram.add_scram_record)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from odradek.controller.scram import AddScramError, add_scram_record, derive_keys
from odradek.security.sasl import Credential, SaslSession
from odradek.security.scram_client import ScramClient, ScramError
from odradek.wire.errors import ErrorCode

RFC7677_FIRST = b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"


def test_rfc7677_vector():
    c = ScramClient("SCRAM-SHA-256", "user", "pencil", nonce="rOprNGfwEbeRWgbNEkqO")
    assert c.first() == b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    assert c.final(RFC7677_FIRST) == (b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                                      b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
    c.verify(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
    with pytest.raises(ScramError, match="server signature"):
        c.verify(b"v=" + base64.b64encode(b"\0" * 32))
    with pytest.raises(ScramError, match="invalid-proof"):
        c.verify(b"e=invalid-proof")


@pytest.mark.parametrize("server_first, why", [
    (b"r=someone-else,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", "nonce"),
    (b"r=abc,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", "nonce"),  # the client's nonce with nothing added
    (b"r=abcXYZ,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4095", "iterations"),
    (b"r=abcXYZ,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=x", "iterations"),
    (b"r=abcXYZ,s=***,i=4096", "salt"),
])
def test_bad_server_first(server_first, why):
    with pytest.raises(ScramError, match=f"(?i){why}"):
        ScramClient("SCRAM-SHA-512", "u", "p", nonce="abc").final(server_first)


def _credential(record) -> Credential:
    return Credential(bytes(record.salt), bytes(record.stored_key), bytes(record.server_key), record.iterations)


@pytest.mark.parametrize("mechanism, byte", [("SCRAM-SHA-256", 1), ("SCRAM-SHA-512", 2)])
def test_exchange_with_odradek_server_from_an_add_scram_credential(mechanism, byte):
    record = add_scram_record(f"{mechanism}=[name=node,password=node-secret]", lambda: b"0123456789abcdef")
    assert (record.name, record.mechanism, record.iterations) == ("node", byte, 4096)
    creds = {("node", byte): _credential(record)}
    for password, ok in (("node-secret", True), ("wrong", False)):
        server = SaslSession((mechanism,), {}, lambda u, m: creds.get((u, m)), lambda: "srv")
        assert server.handshake(mechanism) == ErrorCode.NONE
        client = ScramClient(mechanism, "node", password, "client-nonce")
        first = server.authenticate(client.first())
        final = server.authenticate(client.final(first.token))
        if ok:
            assert final.error == ErrorCode.NONE and server.principal == "User:node"
            client.verify(final.token)
        else:
            assert final.error == ErrorCode.SASL_AUTHENTICATION_FAILED


def test_add_scram_salted_password_form():
    salted = hashlib.pbkdf2_hmac("sha512", b"pw", b"7q", 8192)
    arg = (f'SCRAM-SHA-512=[name=alice,iterations=8192,salt="{base64.b64encode(b"7q").decode()}",'
           f'saltedpassword="{base64.b64encode(salted).decode()}"]')
    record = add_scram_record(arg, lambda: pytest.fail("a salt was given"))
    assert (bytes(record.salt), record.iterations) == (b"7q", 8192)
    assert (bytes(record.stored_key), bytes(record.server_key)) == derive_keys(2, salted)


@pytest.mark.parametrize("arg, message", [  # Kafka 4.3's ScramParser messages
    ("SCRAM-SHA-256", "Failed to find equals sign in SCRAM argument 'SCRAM-SHA-256'"),
    ("SCRAM-SHA-1=[name=a,password=b]", "The add-scram mechanism SCRAM-SHA-1 is not supported."),
    ("SCRAM-SHA-256=name=a,password=b]", "Expected configuration string to start with ["),
    ("SCRAM-SHA-256=[name=a,password=b", "Expected configuration string to end with ]"),
    ("SCRAM-SHA-256=[password=b]", "You must supply 'name' to add-scram"),
    ("SCRAM-SHA-256=[name=a]", "You must supply one of 'password' or 'saltedpassword' to add-scram"),
    ("SCRAM-SHA-256=[name=a,saltedpassword=YCE=]", "You must supply 'salt' with 'saltedpassword' to add-scram"),
    ("SCRAM-SHA-256=[name=a,password=b,x=1]", "Unknown SCRAM configurations: x"),
    ("SCRAM-SHA-256=[name=a,password=b,iterations=100]",
     "The 'iterations' value must be >= 4096 for add-scram using SCRAM_SHA_256"),
    ("SCRAM-SHA-512=[name=a,password=b,iterations=20000]",
     "The 'iterations' value must be <= 16384 for add-scram using SCRAM_SHA_512"),
    ("SCRAM-SHA-256=[name=a,password=b,iterations=z]", "Failed to parse iterations count: z"),
])
def test_add_scram_refusals(arg, message):
    with pytest.raises(AddScramError) as e:
        add_scram_record(arg, lambda: b"salt")
    assert str(e.value) == message
