"""The StandardAuthorizer (security/authorizer.py) and the ACL decisions (controller/acls.py): matching,
DENY over ALLOW, implied operations, super users, the no-ACL default, filters; a property test against a
brute-force reading of Kafka's rules."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.controller import acls as A
from odradek.controller.acls import AclBinding, AclFilter
from odradek.security.authorizer import StandardAuthorizer, super_users

ALICE, BOB = "User:alice", "User:bob"
HOST = "10.0.0.1"


def acls_of(*bindings) -> dict:
    return {bytes([i]) * 16: b for i, b in enumerate(bindings, 1)}


def topic(name, op, perm=A.ALLOW, principal=ALICE, host="*", pattern=A.LITERAL):
    return AclBinding(A.TOPIC, name, pattern, principal, host, op, perm)


def test_literal_prefixed_and_wildcard_patterns():
    z = StandardAuthorizer()
    acls = acls_of(topic("orders", A.WRITE), topic("logs-", A.READ, pattern=A.PREFIXED),
                   AclBinding(A.GROUP, "*", A.LITERAL, ALICE, "*", A.READ, A.ALLOW))
    assert z.authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "orders")
    assert not z.authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "orders2")  # literal is exact
    assert z.authorize(acls, ALICE, HOST, A.READ, A.TOPIC, "logs-app")
    assert not z.authorize(acls, ALICE, HOST, A.READ, A.TOPIC, "logs")
    assert z.authorize(acls, ALICE, HOST, A.READ, A.GROUP, "any-group")
    assert not z.authorize(acls, BOB, HOST, A.READ, A.GROUP, "any-group")


def test_deny_wins_and_host_and_wildcard_principal():
    z = StandardAuthorizer()
    acls = acls_of(topic("t", A.ALL, principal="User:*"), topic("t", A.WRITE, A.DENY, principal=BOB),
                   topic("u", A.READ, host="10.0.0.2"))
    assert z.authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "t")
    assert not z.authorize(acls, BOB, HOST, A.WRITE, A.TOPIC, "t")
    assert z.authorize(acls, BOB, HOST, A.READ, A.TOPIC, "t")
    assert not z.authorize(acls, ALICE, HOST, A.READ, A.TOPIC, "u")
    assert z.authorize(acls, ALICE, "10.0.0.2", A.READ, A.TOPIC, "u")


def test_implied_operations_for_allow_only():
    z = StandardAuthorizer()
    for op in (A.READ, A.WRITE, A.DELETE, A.ALTER):
        assert z.authorize(acls_of(topic("t", op)), ALICE, HOST, A.DESCRIBE, A.TOPIC, "t")
    assert not z.authorize(acls_of(topic("t", A.CREATE)), ALICE, HOST, A.DESCRIBE, A.TOPIC, "t")
    assert z.authorize(acls_of(topic("t", A.ALTER_CONFIGS)), ALICE, HOST, A.DESCRIBE_CONFIGS, A.TOPIC, "t")
    assert not z.authorize(acls_of(topic("t", A.READ)), ALICE, HOST, A.WRITE, A.TOPIC, "t")
    # a DENY READ does not deny DESCRIBE
    acls = acls_of(topic("t", A.ALL), topic("t", A.READ, A.DENY))
    assert z.authorize(acls, ALICE, HOST, A.DESCRIBE, A.TOPIC, "t")
    assert not z.authorize(acls, ALICE, HOST, A.READ, A.TOPIC, "t")


def test_super_users_and_no_acl_default():
    assert super_users(" User:a ; User:b;") == {"User:a", "User:b"}
    acls = acls_of(topic("t", A.WRITE, principal=BOB))
    assert StandardAuthorizer(frozenset({ALICE})).authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "t")
    everyone = StandardAuthorizer(allow_everyone_if_no_acl_found=True)
    assert everyone.authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "other")  # no ACL on it
    assert not everyone.authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "t")  # ACLs, none for alice
    assert not StandardAuthorizer().authorize(acls, ALICE, HOST, A.WRITE, A.TOPIC, "other")


def test_authorize_by_resource_type():
    z = StandardAuthorizer()
    assert not z.authorize_by_resource_type({}, ALICE, HOST, A.WRITE, A.TOPIC)
    assert z.authorize_by_resource_type(acls_of(topic("t", A.WRITE)), ALICE, HOST, A.WRITE, A.TOPIC)
    assert not z.authorize_by_resource_type(acls_of(topic("t", A.WRITE), topic("t", A.WRITE, A.DENY)),
                                            ALICE, HOST, A.WRITE, A.TOPIC)
    assert not z.authorize_by_resource_type(
        acls_of(topic("tx", A.WRITE), topic("t", A.WRITE, A.DENY, pattern=A.PREFIXED)), ALICE, HOST, A.WRITE, A.TOPIC)
    assert not z.authorize_by_resource_type(acls_of(topic("t", A.WRITE), topic("*", A.WRITE, A.DENY)),
                                            ALICE, HOST, A.WRITE, A.TOPIC)


def test_create_validates_and_dedups_then_filters_delete():
    ids = (bytes([i]) * 16 for i in itertools.count(1))
    good = topic("t", A.READ)
    records, results = A.create({}, [good, good, AclBinding(A.CLUSTER, "x", A.LITERAL, ALICE, "*", A.ALTER, A.ALLOW),
                                     topic("", A.READ), topic("t", A.READ, pattern=A.MATCH)], lambda: next(ids))
    assert len(records) == 1
    assert [c for c, _ in results] == [0, 0, 42, 42, 42]
    assert results[2][1] == "The only valid name for the CLUSTER resource is kafka-cluster"
    acls = {records[0].id: good, b"\x09" * 16: topic("t-", A.WRITE, pattern=A.PREFIXED)}
    match = AclFilter(A.TOPIC, "t-1", A.MATCH, None, None, A.O_ANY, A.A_ANY)
    assert A.describe(acls, match) == [topic("t-", A.WRITE, pattern=A.PREFIXED)]
    any_t = AclFilter(A.R_ANY, None, A.P_ANY, ALICE, None, A.O_ANY, A.A_ANY)
    recs, res = A.delete(acls, [any_t, any_t])
    assert len(recs) == 2 and [len(d) for _, _, d in res] == [2, 2]


# ------------------------------------------------------------------ property: against a brute force

NAMES = ["a", "ab", "abc", "b", "*"]
PRINCIPALS = [ALICE, BOB, "User:*"]
OPS = [A.ALL, A.READ, A.WRITE, A.DESCRIBE, A.ALTER, A.ALTER_CONFIGS, A.DESCRIBE_CONFIGS]
bindings = st.builds(AclBinding, st.just(A.TOPIC), st.sampled_from(NAMES), st.sampled_from([A.LITERAL, A.PREFIXED]),
                     st.sampled_from(PRINCIPALS), st.sampled_from(["*", HOST, "10.9.9.9"]), st.sampled_from(OPS),
                     st.sampled_from([A.ALLOW, A.DENY]))

IMPLIES = {A.DESCRIBE: {A.READ, A.WRITE, A.DELETE, A.ALTER, A.DESCRIBE},
           A.DESCRIBE_CONFIGS: {A.ALTER_CONFIGS, A.DESCRIBE_CONFIGS}}


def brute(acls, principal, host, op, name, everyone):
    on_resource = [b for b in acls
                   if (b.pattern_type == A.LITERAL and b.resource_name in (name, "*"))
                   or (b.pattern_type == A.PREFIXED and name.startswith(b.resource_name))]
    applying = [b for b in on_resource if b.principal in (principal, "User:*") and b.host in ("*", host)]
    if any(b.permission_type == A.DENY and b.operation in (A.ALL, op) for b in applying):
        return False
    if any(b.permission_type == A.ALLOW and (b.operation in (A.ALL, op) or b.operation in IMPLIES.get(op, ()))
           for b in applying):
        return True
    return everyone and not on_resource


@settings(max_examples=300, deadline=None)
@given(st.lists(bindings, max_size=8), st.sampled_from([ALICE, BOB]), st.sampled_from([HOST, "10.9.9.9"]),
       st.sampled_from(OPS[1:]), st.sampled_from(NAMES[:4] + ["abcd", "zz"]), st.booleans())
def test_matches_a_brute_force_reading_of_kafkas_rules(bs, principal, host, op, name, everyone):
    z = StandardAuthorizer(allow_everyone_if_no_acl_found=everyone)
    assert z.authorize(acls_of(*bs), principal, host, op, A.TOPIC, name) == brute(bs, principal, host, op, name,
                                                                                  everyone)
