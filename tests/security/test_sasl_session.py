"""The SASL exchange of a SASL_PLAINTEXT listener (odradek/security/sasl.py), against a real
SCRAM client (scramp) and PLAIN tokens as clients send them."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from scramp import ScramClient

from odradek.security.sasl import FAILED, Credential, SaslSession, plain_users
from odradek.wire.errors import ErrorCode

JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_bob="b\\"ob";')


def credential(mechanism: str, password: str, salt: bytes = b"sixteen-byte-slt", iterations: int = 4096) -> Credential:
    h = {"SCRAM-SHA-256": hashlib.sha256, "SCRAM-SHA-512": hashlib.sha512}[mechanism]
    salted = hashlib.pbkdf2_hmac(h().name, password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", h).digest()
    return Credential(salt, h(client_key).digest(), hmac.new(salted, b"Server Key", h).digest(), iterations)


def session(*mechanisms: str, creds: dict | None = None) -> SaslSession:
    creds = creds or {}
    return SaslSession(mechanisms or ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"), plain_users(JAAS),
                       lambda user, mech: creds.get((user, mech)), lambda: "server-nonce")


def test_jaas_users():
    assert plain_users(JAAS) == {"admin": "admin-secret", "bob": 'b"ob'}


def test_plain():
    s = session()
    assert s.handshake("PLAIN") == ErrorCode.NONE
    step = s.authenticate(b"\x00admin\x00admin-secret")
    assert (step.error, step.token, s.authenticated, s.principal) == (ErrorCode.NONE, b"", True, "User:admin")
    assert s.authenticate(b"\x00admin\x00admin-secret").error == ErrorCode.ILLEGAL_SASL_STATE


@pytest.mark.parametrize("token", [b"\x00admin\x00wrong", b"\x00nobody\x00x", b"admin\x00admin-secret",
                                   b"other\x00admin\x00admin-secret", b"\x00\x00admin-secret"])
def test_plain_refused(token):
    s = session()
    s.handshake("PLAIN")
    step = s.authenticate(token)
    assert (step.error, step.message) == (ErrorCode.SASL_AUTHENTICATION_FAILED, FAILED.format("PLAIN"))
    assert not s.authenticated and s.authenticate(b"\x00admin\x00admin-secret").error == ErrorCode.ILLEGAL_SASL_STATE


def test_mechanism_not_enabled():
    s = session("PLAIN")
    assert s.handshake("SCRAM-SHA-512") == ErrorCode.UNSUPPORTED_SASL_MECHANISM
    assert session("SCRAM-SHA-256").handshake("GSSAPI") == ErrorCode.UNSUPPORTED_SASL_MECHANISM


@pytest.mark.parametrize("mechanism,byte", [("SCRAM-SHA-256", 1), ("SCRAM-SHA-512", 2)])
def test_scram_exchange(mechanism, byte):
    s = session(creds={("alice", byte): credential(mechanism, "alice-pw")})
    assert s.handshake(mechanism) == ErrorCode.NONE
    client = ScramClient([mechanism], "alice", "alice-pw")
    first = s.authenticate(client.get_client_first().encode())
    assert first.error == ErrorCode.NONE
    client.set_server_first(first.token.decode())
    final = s.authenticate(client.get_client_final().encode())
    assert final.error == ErrorCode.NONE and s.principal == "User:alice"
    client.set_server_final(final.token.decode())  # the client checks the server's signature


@pytest.mark.parametrize("user,password", [("alice", "wrong"), ("mallory", "alice-pw")])
def test_scram_refused(user, password):
    s = session(creds={("alice", 2): credential("SCRAM-SHA-512", "alice-pw")})
    s.handshake("SCRAM-SHA-512")
    client = ScramClient(["SCRAM-SHA-512"], user, password)
    first = s.authenticate(client.get_client_first().encode())
    if first.error == ErrorCode.NONE:
        client.set_server_first(first.token.decode())
        first = s.authenticate(client.get_client_final().encode())
    assert (first.error, first.message) == (ErrorCode.SASL_AUTHENTICATION_FAILED, FAILED.format("SCRAM-SHA-512"))
    assert not s.authenticated


def test_scram_credential_of_the_other_hash_does_not_count():
    s = session(creds={("alice", 1): credential("SCRAM-SHA-256", "alice-pw")})
    s.handshake("SCRAM-SHA-512")
    client = ScramClient(["SCRAM-SHA-512"], "alice", "alice-pw")
    assert s.authenticate(client.get_client_first().encode()).error == ErrorCode.SASL_AUTHENTICATION_FAILED


def test_garbage_tokens_fail_cleanly():
    for token in (b"", b"\xff\xfe", b"n,,", b"p=tls-unique,,n=alice,r=x", b"n,,n=alice"):
        s = session(creds={("alice", 1): credential("SCRAM-SHA-256", "pw")})
        s.handshake("SCRAM-SHA-256")
        assert s.authenticate(token).error == ErrorCode.SASL_AUTHENTICATION_FAILED


def test_a_short_salt_is_accepted_as_kafka_accepts_it():
    """A client may send any salt with AlterUserScramCredentials (kafka-configs [salt=...]); RFC 5802
    by hand on the client side (scramp refuses salts under 12 bytes)."""
    import base64

    cred = credential("SCRAM-SHA-256", "pw", salt=b"salt")
    s = session(creds={("alice", 1): cred})
    s.handshake("SCRAM-SHA-256")
    bare = "n=alice,r=client-nonce"
    server_first = s.authenticate(f"n,,{bare}".encode()).token.decode()
    attrs = dict(a.split("=", 1) for a in server_first.split(","))
    assert attrs["r"] == "client-nonceserver-nonce" and base64.b64decode(attrs["s"]) == b"salt"
    salted = hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", int(attrs["i"]))
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    without_proof = f"c={base64.b64encode(b'n,,').decode()},r={attrs['r']}"
    auth = f"{bare},{server_first},{without_proof}".encode()
    signature = hmac.new(hashlib.sha256(client_key).digest(), auth, hashlib.sha256).digest()
    proof = base64.b64encode(bytes(a ^ b for a, b in zip(client_key, signature))).decode()
    final = s.authenticate(f"{without_proof},p={proof}".encode())
    assert final.error == ErrorCode.NONE and s.principal == "User:alice"
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    assert final.token == b"v=" + base64.b64encode(hmac.new(server_key, auth, hashlib.sha256).digest())


def test_a_reauthentication_keeps_the_mechanism_and_the_principal():
    s = session()
    assert s.handshake("PLAIN") == ErrorCode.NONE and s.authenticate(b"\0admin\0admin-secret").error == 0
    again = s.reauthentication()
    assert not again.authenticated and again.handshake("PLAIN") == ErrorCode.NONE
    assert again.authenticate(b"\0admin\0admin-secret").error == 0 and again.principal == "User:admin"
    other = s.reauthentication()
    assert other.handshake("PLAIN") == ErrorCode.NONE
    step = other.authenticate(b'\0bob\0b"ob')
    assert (step.error, step.message) == (ErrorCode.SASL_AUTHENTICATION_FAILED,
                                          "Cannot change principals during re-authentication from User.admin: User.bob")
    assert not other.authenticated
    moved = s.reauthentication()
    assert moved.handshake("SCRAM-SHA-256") == ErrorCode.NONE and moved.mechanism_changed  # closed at the next step


@pytest.mark.parametrize("gs2,ok", [("n,,", True), ("n,a=alice,", True), ("y,a=alice,", True),
                                    ("n,a=bob,", False)])
def test_scram_authorization_id_must_be_the_user(gs2, ok):
    """RFC 5802's gs2 header may name an authorization id: Kafka's ScramSaslServer takes it when it is the
    user (the client-final's c= then carries that header) and refuses any other."""
    import base64

    cred = credential("SCRAM-SHA-256", "pw")
    s = session(creds={("alice", 1): cred})
    s.handshake("SCRAM-SHA-256")
    bare = "n=alice,r=client-nonce"
    first = s.authenticate(f"{gs2}{bare}".encode())
    if not ok:
        assert first.error == ErrorCode.SASL_AUTHENTICATION_FAILED
        return
    server_first = first.token.decode()
    attrs = dict(a.split("=", 1) for a in server_first.split(","))
    salted = hashlib.pbkdf2_hmac("sha256", b"pw", base64.b64decode(attrs["s"]), int(attrs["i"]))
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    without_proof = f"c={base64.b64encode(gs2.encode()).decode()},r={attrs['r']}"
    auth = f"{bare},{server_first},{without_proof}".encode()
    signature = hmac.new(hashlib.sha256(client_key).digest(), auth, hashlib.sha256).digest()
    proof = base64.b64encode(bytes(a ^ b for a, b in zip(client_key, signature))).decode()
    assert s.authenticate(f"{without_proof},p={proof}".encode()).error == ErrorCode.NONE
    assert s.principal == "User:alice"


def test_a_delegation_token_login_fails_without_tokens():
    s = session(creds={("alice", 1): credential("SCRAM-SHA-256", "pw")})
    s.handshake("SCRAM-SHA-256")
    assert s.authenticate(b"n,,n=alice,r=x,tokenauth=true").error == ErrorCode.SASL_AUTHENTICATION_FAILED
