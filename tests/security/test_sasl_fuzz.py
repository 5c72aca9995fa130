"""Fuzz of the sans-IO SASL exchange (odradek/security/sasl.py) with hypothesis: any sequence of
handshakes and tokens (random bytes, PLAIN-shaped tokens, SCRAM client-firsts and client-finals with
mutated nonces, channel bindings and proofs) answers an ErrorCode and never raises, never
authenticates without the password, and once failed stays failed. A real SCRAM client (scramp)
whose client-final is mutated at one byte is refused. The real-process side is
compat_tests/test_auth_fuzz.py."""

from __future__ import annotations

import base64
import binascii

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scramp import ScramClient

from odradek.security.sasl import FAILED_STATE, SaslSession, Step, plain_users
from odradek.wire.errors import ErrorCode
from tests.security.test_sasl_session import JAAS, credential

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
CREDS = {("alice", 1): credential("SCRAM-SHA-256", "alice-pw"), ("alice", 2): credential("SCRAM-SHA-512", "alice-pw")}
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def session() -> SaslSession:
    return SaslSession(MECHANISMS, plain_users(JAAS), lambda user, mech: CREDS.get((user, mech)), lambda: "srv")


text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
users = st.sampled_from(["alice", "admin", "bob", "", "a=2Cb", "=", "\x00"]) | text
nonce = st.sampled_from(["c", "csrv", "srv", "", "c,", "c\x01"]) | text
b64 = st.binary(max_size=70).map(lambda b: base64.b64encode(b).decode()) | text


def _scram_first() -> st.SearchStrategy[bytes]:
    gs2 = st.sampled_from(["n,,", "y,,", "p=tls-unique,,", "n,a=alice,", "", "n,"])
    return st.builds(lambda g, u, r, ext: f"{g}n={u},r={r}{ext}".encode(), gs2, users, nonce,
                     st.sampled_from(["", ",ext=1", ",", ",m=x"]))


def _scram_final() -> st.SearchStrategy[bytes]:
    c = st.sampled_from([base64.b64encode(b"n,,").decode(), base64.b64encode(b"y,,").decode(), "", "bixz"]) | b64
    return st.builds(lambda c, r, p, tail: f"c={c},r={r},p={p}{tail}".encode(), c, nonce, b64,
                     st.sampled_from(["", ",p=", ",x=1"]))


def _plain() -> st.SearchStrategy[bytes]:
    part = st.sampled_from(["", "admin", "bob", "alice"]) | text
    return st.builds(lambda a, u, p: f"{a}\0{u}\0{p}".encode(), part, part, part)


tokens = st.binary(max_size=200) | _scram_first() | _scram_final() | _plain()
ops = st.lists(st.one_of(st.tuples(st.just("handshake"), st.sampled_from(MECHANISMS) | text),
                         st.tuples(st.just("authenticate"), tokens)), max_size=8)


@SETTINGS
@given(ops)
def test_no_sequence_authenticates_without_the_password(sequence):
    s = session()
    failed = False
    for op, arg in sequence:
        if op == "handshake":
            out = s.handshake(arg)
            assert isinstance(out, ErrorCode)
        else:
            out = s.authenticate(arg)
            assert isinstance(out, Step) and isinstance(out.error, ErrorCode) and isinstance(out.token, bytes)
            if out.error == ErrorCode.SASL_AUTHENTICATION_FAILED:
                assert s.state == FAILED_STATE
        failed = failed or s.state == FAILED_STATE
        assert not s.authenticated and s.principal is None
        if failed:
            assert s.state == FAILED_STATE


def _meaning(final: bytes) -> tuple[bytes, bytes] | None:
    """A client-final-message as the server reads it: its text before the proof and the proof's bytes."""
    head, _, proof = final.rpartition(b",p=")
    try:
        return head, base64.b64decode(proof, validate=True)
    except (ValueError, binascii.Error):
        return None


@settings(SETTINGS, max_examples=100)  # a SCRAM client's key derivation per example
@given(st.sampled_from(["SCRAM-SHA-256", "SCRAM-SHA-512"]), st.data())
def test_a_mutated_client_final_is_refused(mechanism, data):
    s = session()
    assert s.handshake(mechanism) == ErrorCode.NONE
    client = ScramClient([mechanism], "alice", "alice-pw")
    first = s.authenticate(client.get_client_first().encode())
    assert first.error == ErrorCode.NONE
    client.set_server_first(first.token.decode())
    sent = client.get_client_final().encode()
    final = bytearray(sent)
    at = data.draw(st.integers(0, len(final) - 1))
    final[at] = data.draw(st.integers(0, 255).filter(lambda b: b != final[at]))
    # (a proof's last base64 digit carries unused bits: a change of those alone is the same proof,
    # which Kafka's decoder, as Python's, accepts)
    assume(_meaning(bytes(final)) != _meaning(sent))
    step = s.authenticate(bytes(final))
    assert step.error == ErrorCode.SASL_AUTHENTICATION_FAILED and not s.authenticated, (at, bytes(final))


@SETTINGS
@given(_plain())
def test_plain_only_with_the_users_password(token):
    s = session()
    s.handshake("PLAIN")
    step = s.authenticate(token)
    parts = token.decode().split("\0")
    good = len(parts) == 3 and tuple(parts[1:]) in {("admin", "admin-secret"), ("bob", 'b"ob')} \
        and parts[0] in ("", parts[1])
    assert s.authenticated == good and (step.error == ErrorCode.NONE) == good
