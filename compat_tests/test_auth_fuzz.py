"""Fuzz of the authentication path (issue 22) against a real `odradek serve` with a SASL_PLAINTEXT and
a SASL_SSL listener (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512): requests before the handshake, the handshake
twice, malformed SaslHandshake bodies, garbage and giant SaslAuthenticate tokens, SCRAM client-finals
with a wrong nonce or proof, credentials with absurd iteration counts, a TLS handshake cut at byte
offsets of a real one, a plaintext client on the TLS port and a TLS client on the plaintext port. Each
case asserts what the broker answers (error code, or the connection closed unanswered, as Kafka 4.3
answers the same bytes), that the connection never gets an API other than authentication served
(a Metadata request after it goes unanswered), and that an authenticated client on the same broker
still produces and consumes. The sans-IO exchange is fuzzed with hypothesis in
tests/security/test_sasl_fuzz.py.

ODRADEK_TLS_CUTS: how many cut offsets of the TLS handshake to try (default 24, spread over it; 0 =
every byte). Runs against Apache Kafka 4.3 configured alike when ODRADEK_AUTH_FUZZ_REF names its
SASL_PLAINTEXT and SASL_SSL listeners ("host:port,host:port") and ODRADEK_AUTH_FUZZ_REF_CA its CA file
(the same JAAS users, SCRAM enabled on both listeners)."""

from __future__ import annotations

import base64
import os
import socket
import ssl
import struct
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from scramp import ScramClient

from harness import BrokerProcess, RawClient, free_port
from odradek.wire.messages.alter_user_scram_credentials_request import AlterUserScramCredentialsRequest, \
    ScramCredentialUpsertion
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.metadata_request import MetadataRequest
from odradek.wire.messages.sasl_authenticate_request import SaslAuthenticateRequest
from odradek.wire.messages.sasl_handshake_request import SaslHandshakeRequest
from tls_certs import TestCA

JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";')
MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
REF = os.environ.get("ODRADEK_AUTH_FUZZ_REF")
TLS_CUTS = int(os.environ.get("ODRADEK_TLS_CUTS", "24"))
TOPIC = f"auth-fuzz-{uuid.uuid4().hex[:6]}"
ALICE = ("alice", "alice-pw")  # a SCRAM-SHA-512 user made by the admin
CLOSED = "closed"  # the broker closed the connection without an answer


@dataclass
class Target:
    plain: str  # SASL_PLAINTEXT bootstrap
    tls: str  # SASL_SSL bootstrap
    ca_file: Path

    def context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(cafile=str(self.ca_file))
        ctx.check_hostname = False
        return ctx


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    if REF:
        plain, tls = REF.split(",")
        t = Target(plain, tls, Path(os.environ["ODRADEK_AUTH_FUZZ_REF_CA"]))
        yield _with_alice(t)
        return
    certs = tmp_path_factory.mktemp("certs")
    ca = TestCA(certs)
    p1, p2 = free_port(), free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("auth-fuzz")), {
        "listeners": f"SASL_PLAINTEXT://127.0.0.1:{p1},SASL_SSL://127.0.0.1:{p2}",
        "sasl.enabled.mechanisms": ",".join(MECHANISMS),
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
        "listener.name.sasl_ssl.plain.sasl.jaas.config": JAAS,
        "ssl.keystore.type": "PEM", "ssl.keystore.location": str(ca.keystore_pem("broker", "localhost", "kpw")),
        "ssl.key.password": "kpw", "group.initial.rebalance.delay.ms": "0"}, port=p1)
    b.start()
    try:
        yield _with_alice(Target(f"127.0.0.1:{p1}", f"127.0.0.1:{p2}", ca.ca_file))
    finally:
        b.stop()


def _with_alice(t: Target) -> Target:
    raw = login(connect(t), "PLAIN", "admin", "admin-secret")
    r = raw.call(AlterUserScramCredentialsRequest(upsertions=[ScramCredentialUpsertion(
        name=ALICE[0], mechanism=2, iterations=4096, salt=b"alice-salt-16byt",
        salted_password=_salted("sha512", ALICE[1], b"alice-salt-16byt", 4096))]), 0)
    assert [x.error_code for x in r.results] == [0], r
    raw.close()
    return t


def _salted(hash_name: str, password: str, salt: bytes, iterations: int) -> bytes:
    import hashlib

    return hashlib.pbkdf2_hmac(hash_name, password.encode(), salt, iterations)


def connect(t: Target, tls: bool = False) -> RawClient:
    raw = RawClient(t.tls if tls else t.plain)
    if tls:
        raw.sock = t.context().wrap_socket(raw.sock, server_hostname="localhost")
    return raw


def login(raw: RawClient, mechanism: str, user: str, password: str) -> RawClient:
    assert raw.call(SaslHandshakeRequest(mechanism=mechanism), 1).error_code == 0
    if mechanism == "PLAIN":
        r = raw.call(SaslAuthenticateRequest(auth_bytes=f"\0{user}\0{password}".encode()), 2)
    else:
        client = ScramClient([mechanism], user, password)
        first = raw.call(SaslAuthenticateRequest(auth_bytes=client.get_client_first().encode()), 2)
        assert first.error_code == 0, first
        client.set_server_first(first.auth_bytes.decode())
        r = raw.call(SaslAuthenticateRequest(auth_bytes=client.get_client_final().encode()), 2)
        assert r.error_code == 0, r
        client.set_server_final(r.auth_bytes.decode())
    assert r.error_code == 0, r
    return raw


def answer(raw: RawClient, request, version: int) -> int | str:
    """The error code of the broker's answer, or CLOSED if it closes the connection unanswered."""
    try:
        corr = raw.send(request, version)
        resp = raw.recv(type(request).API_KEY, version)
    except OSError:  # closed: EOF, reset, or a TLS close
        return CLOSED
    assert resp.correlation_id == corr
    return resp.body.error_code


def closed(raw: RawClient, timeout: float = 10) -> bool:
    """True once the broker has closed the connection (EOF, reset, TLS close) within the timeout, having
    sent nothing more than TLS records (no Kafka frame)."""
    raw.sock.settimeout(timeout)
    try:
        while True:
            data = raw.sock.recv(65536)
            if not data:
                return True
            if not isinstance(raw.sock, ssl.SSLSocket) and data[:1] != b"\x15":  # a TLS alert is not an answer
                return False
    except (ConnectionError, ssl.SSLError):
        return True
    except socket.timeout:
        return False


SERVED, REFUSED = "served", "refused"


def metadata_answer(raw: RawClient) -> str:
    """After the case, a Metadata request on the same connection: SERVED (the broker listed),
    REFUSED (an error response with nothing in it, then closed: Kafka's answer in the middle of an
    exchange) or CLOSED unanswered."""
    try:
        raw.send(MetadataRequest(topics=None), 12)
        resp = raw.recv(3, 12).body
    except OSError:
        return CLOSED
    try:
        if resp.brokers:
            return SERVED
        return REFUSED if not resp.topics and closed(raw) else "open"
    finally:
        raw.close()


@pytest.fixture(scope="module")
def healthy(target):
    """An authenticated producer and consumer (SCRAM-SHA-512 over SASL_SSL) kept for the module: check()
    sends one record and reads it back, and a new connection authenticates with SCRAM."""
    conf = {"bootstrap.servers": target.tls, "security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.username": ALICE[0], "sasl.password": ALICE[1], "ssl.ca.location": str(target.ca_file),
            "ssl.endpoint.identification.algorithm": "none"}
    producer = Producer(conf)
    producer.produce(TOPIC, b"first")  # auto-creates the topic
    assert producer.flush(30) == 0
    consumer = Consumer({**conf, "group.id": "unused", "enable.auto.commit": False})
    consumer.assign([TopicPartition(TOPIC, 0, 0)])

    def check() -> None:
        value = uuid.uuid4().bytes
        producer.produce(TOPIC, value, partition=0)
        assert producer.flush(30) == 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            m = consumer.poll(1)
            if m is not None and m.error() is None and m.value() == value:
                break
        else:
            raise AssertionError("the healthy client did not read its record back")
        login(connect(target, tls=True), "SCRAM-SHA-512", *ALICE).close()

    yield check
    consumer.close()


def frame(api_key: int, version: int, body: bytes, corr: int = 1, client_id: bytes = b"fuzz") -> bytes:
    """A request frame with a v2 header (SaslHandshake and SaslAuthenticate v0-2 are not flexible: v1
    header) around body bytes of our choosing."""
    header = struct.pack(">hhih", api_key, version, corr, len(client_id)) + client_id
    return struct.pack(">i", len(header) + len(body)) + header + body


def scram_first(raw: RawClient, mechanism: str, user: str) -> tuple[int | str, str, str]:
    """(error, client-first-bare, server-first) of a SCRAM client-first for ``user``."""
    bare = f"n={user},r=fuzz-client-nonce"
    r = raw.call(SaslAuthenticateRequest(auth_bytes=f"n,,{bare}".encode()), 2)
    return r.error_code, bare, r.auth_bytes.decode() if r.error_code == 0 else ""


def scram_final(raw: RawClient, nonce: str, proof: bytes) -> int | str:
    c = base64.b64encode(b"n,,").decode()
    token = f"c={c},r={nonce},p={base64.b64encode(proof).decode()}".encode()
    return answer(raw, SaslAuthenticateRequest(auth_bytes=token), 2)


def case_metadata_first(raw):
    return [answer(raw, MetadataRequest(topics=None), 12)]


def case_authenticate_first(raw):
    return [answer(raw, SaslAuthenticateRequest(auth_bytes=b"\0admin\0admin-secret"), 2)]


def case_handshake_twice(raw):
    return [answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1),
            answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1)]


def case_handshake_v0(raw):
    return [answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 0)]


def bare_token(raw: RawClient, token: bytes) -> bytes | str:
    """After a SaslHandshake v0 a token goes bare (a size prefix, no request header), and so does the
    answer; CLOSED if the broker closes instead."""
    raw.send_raw(struct.pack(">i", len(token)) + token)
    try:
        return raw.recv_frame()
    except OSError:
        return CLOSED


def case_v0_bare_token(raw):
    return [answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 0), bare_token(raw, b"\0bob\0bob-secret")]


def case_v0_bare_token_wrong(raw):
    return [answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 0), bare_token(raw, b"\0bob\0nope")]


def case_api_versions_mid_exchange(raw):
    answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1)
    return [answer(raw, ApiVersionsRequest(client_software_name="fuzz", client_software_version="1"), 3)]


def case_unknown_mechanism(raw):
    return [answer(raw, SaslHandshakeRequest(mechanism="GSSAPI"), 1)]


def case_mechanism_not_a_string(raw):
    raw.send_raw(frame(17, 1, b"\x7f\xff\xff"))
    return [CLOSED if closed(raw) else "open"]


def case_authenticate_body_cut(raw):
    answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1)
    raw.send_raw(frame(36, 2, b"\x00\x00\x01\x00ab"))  # a token of 256 bytes declared, 2 sent, frame ends
    return [CLOSED if closed(raw) else "open"]


def case_plain_garbage(raw):
    answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1)
    return [answer(raw, SaslAuthenticateRequest(auth_bytes=b"\xff\x00\x00\x00admin\x00"), 2)]


def case_plain_empty(raw):
    answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1)
    return [answer(raw, SaslAuthenticateRequest(auth_bytes=b""), 2)]


def case_giant_token(raw):
    """A SaslAuthenticate frame of 1 MB declared (past sasl.server.max.receive.size, 512 KiB) and its
    first 4 KiB sent: the connection is closed without waiting for the rest."""
    answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1)
    raw.send_raw(frame(36, 2, struct.pack(">i", 1 << 20) + b"A" * (1 << 20))[:4096])
    return [CLOSED if closed(raw) else "open"]


def case_authenticated_then_handshake(raw):
    login(raw, "PLAIN", "bob", "bob-secret")
    return [answer(raw, SaslHandshakeRequest(mechanism="PLAIN"), 1),
            answer(raw, SaslAuthenticateRequest(auth_bytes=b"\0bob\0bob-secret"), 2)]


def case_scram_unknown_user(raw):
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
    return [scram_first(raw, "SCRAM-SHA-512", "mallory")[0]]


def case_scram_no_nonce(raw):
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
    return [answer(raw, SaslAuthenticateRequest(auth_bytes=b"n,,n=alice"), 2)]


def case_scram_wrong_nonce(raw):
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
    err, _, server_first = scram_first(raw, "SCRAM-SHA-512", ALICE[0])
    nonce = dict(a.split("=", 1) for a in server_first.split(","))["r"]
    return [err, scram_final(raw, nonce[:-1] + ("x" if nonce[-1] != "x" else "y"), b"\0" * 64)]


def case_scram_bad_proof(raw):
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
    err, _, server_first = scram_first(raw, "SCRAM-SHA-512", ALICE[0])
    nonce = dict(a.split("=", 1) for a in server_first.split(","))["r"]
    return [err, scram_final(raw, nonce, b"\x01" * 64)]


def case_scram_short_proof(raw):
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
    err, _, server_first = scram_first(raw, "SCRAM-SHA-512", ALICE[0])
    nonce = dict(a.split("=", 1) for a in server_first.split(","))["r"]
    return [err, scram_final(raw, nonce, b"\x01")]


def case_scram_three_steps(raw):
    """The wrong mechanism's credential (alice has SCRAM-SHA-512 only) fails at the first step."""
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-256"), 1)
    return [scram_first(raw, "SCRAM-SHA-256", ALICE[0])[0]]


def scram_first_token(raw, token: str):
    answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
    return [answer(raw, SaslAuthenticateRequest(auth_bytes=token.encode()), 2)]


def case_scram_authzid_other(raw):
    return scram_first_token(raw, "n,a=bob,n=alice,r=fuzz-client-nonce")


def case_scram_authzid_same(raw):
    return scram_first_token(raw, "n,a=alice,n=alice,r=fuzz-client-nonce")


def case_scram_unknown_extension(raw):
    return scram_first_token(raw, "n,,n=alice,r=fuzz-client-nonce,ext=1")


def case_scram_token_extension(raw):
    """tokenauth=true: a delegation token's login (none exists under that name)."""
    return scram_first_token(raw, "n,,n=alice,r=fuzz-client-nonce,tokenauth=true")


def case_scram_channel_binding(raw):
    return scram_first_token(raw, "p=tls-unique,,n=alice,r=fuzz-client-nonce")


SASL_OK, ILLEGAL, UNSUPPORTED, AUTH_FAILED, UNSUPPORTED_VERSION = 0, 34, 33, 58, 35
CASES = {  # what Kafka 4.3 answers (checked with ODRADEK_AUTH_FUZZ_REF)
    "metadata_first": (case_metadata_first, [CLOSED]),
    "authenticate_first": (case_authenticate_first, [CLOSED]),
    "handshake_twice": (case_handshake_twice, [SASL_OK, ILLEGAL]),
    "handshake_v0": (case_handshake_v0, [SASL_OK]),
    "v0_bare_token": (case_v0_bare_token, [SASL_OK, b""], SERVED),  # PLAIN's answer: an empty token
    "v0_bare_token_wrong": (case_v0_bare_token_wrong, [SASL_OK, CLOSED]),
    "unknown_mechanism": (case_unknown_mechanism, [UNSUPPORTED]),
    "api_versions_mid_exchange": (case_api_versions_mid_exchange, [ILLEGAL]),
    "mechanism_not_a_string": (case_mechanism_not_a_string, [CLOSED]),
    "authenticate_body_cut": (case_authenticate_body_cut, [CLOSED]),
    "plain_garbage": (case_plain_garbage, [AUTH_FAILED]),
    "plain_empty": (case_plain_empty, [AUTH_FAILED]),
    "giant_token": (case_giant_token, [CLOSED]),
    # bob authenticated: the SASL requests are refused, the connection kept and served
    "authenticated_then_handshake": (case_authenticated_then_handshake, [ILLEGAL, ILLEGAL], SERVED),
    "scram_unknown_user": (case_scram_unknown_user, [AUTH_FAILED]),
    "scram_no_nonce": (case_scram_no_nonce, [AUTH_FAILED]),
    "scram_wrong_nonce": (case_scram_wrong_nonce, [SASL_OK, AUTH_FAILED]),
    "scram_bad_proof": (case_scram_bad_proof, [SASL_OK, AUTH_FAILED]),
    "scram_short_proof": (case_scram_short_proof, [SASL_OK, CLOSED]),
    "scram_other_hash": (case_scram_three_steps, [AUTH_FAILED]),
    "scram_authzid_other": (case_scram_authzid_other, [AUTH_FAILED]),
    # server-first sent, the exchange goes on: a Metadata request now gets an empty error response
    "scram_authzid_same": (case_scram_authzid_same, [SASL_OK], REFUSED),
    "scram_unknown_extension": (case_scram_unknown_extension, [SASL_OK], REFUSED),
    "scram_token_extension": (case_scram_token_extension, [AUTH_FAILED]),
    "scram_channel_binding": (case_scram_channel_binding, [AUTH_FAILED]),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("tls", [False, True], ids=["sasl_plaintext", "sasl_ssl"])
def test_malformed_authentication(target, healthy, name, tls):
    case, expected, *then = CASES[name]
    raw = connect(target, tls)
    assert case(raw) == expected
    assert metadata_answer(raw) == (then[0] if then else CLOSED)
    healthy()


def handshake_cut(t: Target, budget: int | None) -> int:
    """A TLS handshake with the SASL_SSL listener driven by hand (ssl.MemoryBIO) that sends at most
    ``budget`` bytes and then closes; the bytes the client had to send to finish it (budget None)."""
    sock = socket.create_connection(_host_port(t.tls), timeout=10)
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = t.context().wrap_bio(incoming, outgoing, server_hostname="localhost")
    sent = 0
    try:
        while True:
            try:
                tls.do_handshake()
                done = True
            except ssl.SSLWantReadError:
                done = False
            out = outgoing.read()
            if budget is not None and sent + len(out) >= budget:
                sock.sendall(out[:budget - sent])
                return budget
            sock.sendall(out)
            sent += len(out)
            if done:
                return sent
            data = sock.recv(65536)
            assert data, "the broker closed a TLS handshake that was going well"
            incoming.write(data)
    finally:
        sock.close()


def _host_port(bootstrap: str) -> tuple[str, int]:
    host, _, port = bootstrap.rpartition(":")
    return host, int(port)


def cut_offsets(length: int) -> list[int]:
    if TLS_CUTS <= 0 or TLS_CUTS >= length:
        return list(range(length))
    return sorted({1, 2, 4, 5, 6, length - 1} | {i * length // TLS_CUTS for i in range(TLS_CUTS)})


def test_tls_handshake_cut_at_byte_offsets(target, healthy):
    """The client's side of a real TLS handshake (ClientHello, then its Finished) cut after k bytes and
    the connection closed, for ODRADEK_TLS_CUTS offsets (0: every one); the broker goes on serving."""
    length = handshake_cut(target, None)
    assert length > 100
    offsets = cut_offsets(length)
    for k in offsets:
        assert handshake_cut(target, k) == k
    assert handshake_cut(target, None) == length
    healthy()


def test_stalled_handshakes_do_not_hold_others(target, healthy):
    """Half a ClientHello on the SASL_SSL port and half a SaslHandshake frame on the SASL_PLAINTEXT
    port, both left open: an authenticated client is served meanwhile."""
    hello = _client_hello(target)
    stalled = [socket.create_connection(_host_port(target.tls)), socket.create_connection(_host_port(target.plain))]
    try:
        stalled[0].sendall(hello[:len(hello) // 2])
        stalled[1].sendall(frame(17, 1, b"\x00\x05PLAIN")[:9])
        healthy()
    finally:
        for s in stalled:
            s.close()


def _client_hello(t: Target) -> bytes:
    tls = t.context().wrap_bio(ssl.MemoryBIO(), outgoing := ssl.MemoryBIO(), server_hostname="localhost")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def test_plaintext_client_on_the_tls_port(target, healthy):
    """Kafka requests in the clear on the SASL_SSL port: no Kafka answer (at most a TLS alert), closed."""
    raw = RawClient(target.tls)
    raw.send(SaslHandshakeRequest(mechanism="PLAIN"), 1)
    assert closed(raw)
    raw.close()
    healthy()


def test_tls_client_on_the_plaintext_port(target, healthy):
    """A TLS ClientHello on the SASL_PLAINTEXT port reads as a frame of 0x16030100+ bytes, past
    sasl.server.max.receive.size: closed at once, nothing sent back."""
    raw = RawClient(target.plain)
    raw.send_raw(_client_hello(target))
    assert closed(raw)
    raw.close()
    sock = socket.create_connection(_host_port(target.plain), timeout=10)
    with pytest.raises(OSError):  # the handshake fails (an SSLError, a reset or EOF)
        target.context().wrap_socket(sock, server_hostname="localhost")
    sock.close()
    healthy()


# (iterations, salt, salted password) -> (error code, message) as Kafka 4.3 answers AlterUserScramCredentials
ABSURD_CREDENTIALS = {
    "iterations_negative": ((-1, b"s" * 16, b"p" * 64), (93, "Too few iterations")),
    "iterations_zero": ((0, b"s" * 16, b"p" * 64), (93, "Too few iterations")),
    "iterations_4095": ((4095, b"s" * 16, b"p" * 64), (93, "Too few iterations")),
    "iterations_16385": ((16385, b"s" * 16, b"p" * 64), (93, "Too many iterations")),
    "iterations_int_max": ((2**31 - 1, b"s" * 16, b"p" * 64), (93, "Too many iterations")),
    "iterations_16384": ((16384, b"s" * 16, b"p" * 64), (0, None)),
}


def test_absurd_scram_iterations_are_refused(target, healthy):
    """Credentials with absurd iteration counts are refused as Kafka refuses them (UNACCEPTABLE_CREDENTIAL)
    and the user cannot log in with them; the bounds themselves are accepted."""
    raw = login(connect(target), "PLAIN", "admin", "admin-secret")
    users = {f"absurd-{name}-{uuid.uuid4().hex[:4]}": case for name, case in ABSURD_CREDENTIALS.items()}
    r = raw.call(AlterUserScramCredentialsRequest(upsertions=[
        ScramCredentialUpsertion(name=user, mechanism=2, iterations=i, salt=salt, salted_password=salted)
        for user, ((i, salt, salted), _) in users.items()]), 0)
    raw.close()
    got = {x.user: (x.error_code, x.error_message) for x in r.results}
    assert got == {user: expected for user, (_, expected) in users.items()}
    for user, (_, (code, _)) in users.items():
        raw = connect(target)
        answer(raw, SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 1)
        first = scram_first(raw, "SCRAM-SHA-512", user)[0]
        assert first == (0 if code == 0 else AUTH_FAILED), user  # a refused credential was never stored
        raw.close()
    healthy()
