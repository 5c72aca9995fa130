"""Byte-rate quotas as Kafka's ClientQuotaManager: the entry that applies (DefaultQuotaCallback's
order), Rate over 11 one-second samples, throttle = (rate - bound) / bound * window."""

from __future__ import annotations

from odradek.security.quotas import FETCH, MUTATION, PRODUCE, REQUEST, ClientQuotas, quota_entity

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


def test_request_time_is_a_percentage_throttled_at_most_one_window():
    quotas = ClientQuotas(lambda: {((C, "busy"),): {REQUEST: 50.0}})  # half a thread
    # 3 s of handling at t=0 over the 10 s minimum window: 30 % - under the bound
    assert quotas.record_request_time("ANONYMOUS", "busy", 3.0, 0) == 0
    # 4 s more: 70 % over 10 s; (70 - 50) / 50 * 10,000 ms = 4,000, bounded to one window
    assert quotas.record_request_time("ANONYMOUS", "busy", 4.0, 100) == 1000
    assert quotas.record_request_time("ANONYMOUS", "idle", 100.0, 100) == 0


def test_strict_mutation_quota_refuses_once_the_bucket_is_empty():
    quotas = ClientQuotas(lambda: {((C, "admin"),): {MUTATION: 2.0}})  # burst 11 x 1 s x 2 = 22
    q = quotas.mutation_quota("ANONYMOUS", "admin", strict=True, now_ms=0)
    assert q.admit(30, 0)  # a full bucket takes any one topic: 22 - 30 = -8
    assert not q.admit(1, 0)  # below zero: refused, 8 / 2 s to come back
    assert q.throttle_time_ms(0) == 4000
    assert q.throttle_time_ms(1500) == 2500  # less the time since it was recorded
    later = quotas.mutation_quota("ANONYMOUS", "admin", strict=True, now_ms=4000)
    assert later.admit(1, 4000)  # refilled to zero: admitted again, the bucket is shared
    assert later.throttle_time_ms(4000) == 0


def test_permissive_mutation_quota_admits_and_throttles():
    quotas = ClientQuotas(lambda: {((U, None),): {MUTATION: 1.0}})
    q = quotas.mutation_quota("alice", "c", strict=False, now_ms=0)
    assert q.admit(10, 0) and q.throttle_time_ms(0) == 0  # 11 - 10 = 1
    assert q.admit(5, 0)  # old request versions are never refused: 1 - 5 = -4
    assert q.throttle_time_ms(0) == 4000
    bob = quotas.mutation_quota("bob", "c", strict=True, now_ms=0)
    assert bob.admit(11, 0) and bob.admit(1, 0)  # bob's own bucket (11 - 11 = 0 is not below zero)
    none = ClientQuotas(lambda: {}).mutation_quota("bob", "c", strict=True, now_ms=0)
    assert all(none.admit(10**6, 0) for _ in range(3)) and none.throttle_time_ms(0) == 0


def test_connection_creation_rate_per_address_with_the_default_address_entry():
    quotas = ClientQuotas(lambda: {(("ip", None),): {"connection_creation_rate": 1.0},
                                   (("ip", "10.0.0.9"),): {"connection_creation_rate": 3.0}})
    # the Rate counts at least 10 windows: 10 connections at once stay at the bound of 1 a second
    assert [quotas.record_connection("10.0.0.1", 0) for _ in range(10)] == [0] * 10
    throttle = quotas.record_connection("10.0.0.1", 0)
    assert 0 < throttle <= 1000  # (11 - 10) / 1 x 10 s, bounded to one window
    assert quotas.record_connection("10.0.0.1", 0) > 0  # the refused one was not counted, nor is this
    assert [quotas.record_connection("10.0.0.9", 0) for _ in range(30)] == [0] * 30  # its own entry: 3 a second
    assert quotas.record_connection("10.0.0.9", 0) > 0
    assert ClientQuotas(lambda: {}).record_connection("10.0.0.1", 0) == 0


def test_sensors_of_clients_gone_an_hour_expire_as_kafkas():
    """Kafka's quota sensors go after an hour without a record (InactiveSensorExpirationTimeSeconds):
    a broker that met 1,000 client ids under a default quota keeps only those still seen."""
    from odradek.security.quotas import SENSOR_EXPIRY_MS

    quotas = ClientQuotas(lambda: {((C, None),): {PRODUCE: 1000.0, MUTATION: 10.0}})
    for i in range(1000):
        quotas.record(PRODUCE, "u", f"client-{i}", 10, 0)
    quotas.mutation_quota("u", "admin", True, 0)
    quotas.record(PRODUCE, "u", "client-7", 10, SENSOR_EXPIRY_MS - 1000)  # client-7 is still around
    assert quotas.sensors() == 1001
    quotas.expire(SENSOR_EXPIRY_MS - 1)
    assert quotas.sensors() == 1001  # not yet an hour
    quotas.expire(SENSOR_EXPIRY_MS + 1)
    assert quotas.sensors() == 1
    # the one kept still counts its bytes: 20,000 more over its 10 s window is over 1,000/s
    assert quotas.record(PRODUCE, "u", "client-7", 20_000, SENSOR_EXPIRY_MS + 2) > 0
