"""Byte-rate quotas as Kafka's ClientQuotaManager: the entry that applies (DefaultQuotaCallback's
order), Rate over 11 one-second samples, throttle = (rate - bound) / bound * window."""

from __future__ import annotations

from odradek.security.quotas import FETCH, PRODUCE, ClientQuotas, quota_entity

U, C = "user", "client-id"


def test_precedence():
    q = {((U, None),): {PRODUCE: 1.0}, ((C, "app"),): {PRODUCE: 2.0}, ((C, "app"), (U, "alice")): {PRODUCE: 3.0},
         ((C, None), (U, "alice")): {PRODUCE: 4.0}, ((C, None),): {FETCH: 5.0}}
    assert quota_entity(q, PRODUCE, "alice", "app") == (((C, "app"), (U, "alice")), 3.0)
    assert quota_entity(q, PRODUCE, "alice", "other") == (((C, None), (U, "alice")), 4.0)
    assert quota_entity(q, PRODUCE, "bob", "app") == (((U, None),), 1.0)  # user default before client-id
    assert quota_entity(q, FETCH, "bob", "x") == (((C, None),), 5.0)
    assert quota_entity({}, PRODUCE, "bob", "x") is None


def test_throttle_follows_kafkas_formula():
    quotas = ClientQuotas(lambda: {((C, "app"),): {PRODUCE: 1000.0}})
    # 5,000 bytes at t=0: the window counts as 10 s (11 samples, at least 10 full windows), rate 500/s
    assert quotas.record(PRODUCE, "ANONYMOUS", "app", 5000, 0) == 0
    # 10,000 more at t=1000: 15,000 over 10 s = 1,500/s; throttle (1500 - 1000) / 1000 * 10,000 ms
    assert quotas.record(PRODUCE, "ANONYMOUS", "app", 10000, 1000) == 5000
    assert quotas.record(PRODUCE, "ANONYMOUS", "other", 10**9, 1000) == 0  # no quota for this client


def test_samples_age_out():
    quotas = ClientQuotas(lambda: {((U, None),): {FETCH: 100.0}})
    assert quotas.record(FETCH, "alice", "c", 5000, 0) > 0
    # 11 windows later the burst is gone
    assert quotas.record(FETCH, "alice", "c", 10, 11_000) == 0


def test_default_entries_rate_each_user_apart():
    quotas = ClientQuotas(lambda: {((U, None),): {PRODUCE: 1000.0}})
    assert quotas.record(PRODUCE, "alice", "c", 9000, 0) == 0
    assert quotas.record(PRODUCE, "bob", "c", 9000, 0) == 0  # bob's own rate, not alice's
    assert quotas.record(PRODUCE, "alice", "c", 9000, 0) > 0


def test_throttle_is_capped_by_the_whole_window():
    quotas = ClientQuotas(lambda: {((C, None),): {PRODUCE: 1.0}})
    assert quotas.record(PRODUCE, "u", "c", 10**9, 0) == 11_000


def test_unrecorded_bytes_leave_the_rate():
    quotas = ClientQuotas(lambda: {((C, None),): {FETCH: 1000.0}})
    assert quotas.record(FETCH, "u", "c", 20_000, 0) > 0
    quotas.unrecord(FETCH, "u", "c", 20_000, 0)  # the throttled fetch sent nothing
    assert quotas.record(FETCH, "u", "c", 5_000, 0) == 0
