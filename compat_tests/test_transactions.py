"""Transactions and exactly-once with stock clients: confluent-kafka (librdkafka) and
kafka-python transactional producers, read_committed / read_uncommitted consumers,
consume-transform-produce with offsets in the transaction, zombie fencing, kill -9
in the middle of a transaction, and the transaction timeout.

Passes against Kafka 4.3 too (``--bootstrap``), except the tests that restart the broker.
"""
from __future__ import annotations

import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition

from harness import RawClient, create_topic, read_to_end

TXN_TIMEOUT_MS = 3000
# a consume-transform-produce instance's group is assigned at once, not after Kafka's 3 s initial delay
# (each instance, and its restart, joins an empty group)
BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "0"}


def producer(bootstrap, txn_id=None, **extra):
    conf = {"bootstrap.servers": bootstrap, "transactional.id": txn_id or f"tx-{uuid.uuid4().hex[:8]}",
            "linger.ms": 5}
    conf.update(extra)
    p = Producer(conf)
    p.init_transactions(20)
    return p


def consume(bootstrap, topic, partitions=1, isolation="read_committed", expect=0, timeout=60):
    """Values read from the start of every partition to its end (harness.read_to_end), partition
    after partition."""
    return [v for values in read_to_end(bootstrap, topic, partitions, isolation, expect, timeout).values()
            for v in values]


def end_offsets(bootstrap, topic, partitions=1, isolation="read_committed"):
    """(low, high) per partition as the consumer sees them: high is the LSO under read_committed."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "wm", "isolation.level": isolation})
    try:
        return [c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(partitions)]
    finally:
        c.close()


# ---------------------------------------------------------------- commit / abort


def test_commit_and_abort_confluent(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 3)
    p = producer(bootstrap)
    p.begin_transaction()
    for i in range(30):
        p.produce(topic_name, value=f"c{i}", partition=i % 3)
    p.commit_transaction(20)
    p.begin_transaction()
    for i in range(12):
        p.produce(topic_name, value=f"a{i}", partition=i % 3)
    p.flush(10)
    p.abort_transaction(20)
    p.begin_transaction()
    for i in range(6):
        p.produce(topic_name, value=f"d{i}", partition=i % 3)
    p.commit_transaction(20)

    committed = consume(bootstrap, topic_name, 3, "read_committed", expect=36)
    everything = consume(bootstrap, topic_name, 3, "read_uncommitted", expect=48)
    assert sorted(committed) == sorted([f"c{i}" for i in range(30)] + [f"d{i}" for i in range(6)])
    assert sorted(everything) == sorted(committed + [f"a{i}" for i in range(12)])
    # 48 records + one marker per partition per transaction (3 txns x 3 partitions)
    assert sum(end_offsets(bootstrap, topic_name, 3)) == 48 + 9


def test_kafka_python_transactional_producer(bootstrap, topic_name):
    from kafka import KafkaConsumer, KafkaProducer

    create_topic(bootstrap, topic_name, 2)
    p = KafkaProducer(bootstrap_servers=bootstrap, transactional_id=f"kp-{uuid.uuid4().hex[:8]}")
    p.init_transactions()
    p.begin_transaction()
    for i in range(10):
        p.send(topic_name, value=f"c{i}".encode(), partition=i % 2)
    p.commit_transaction()
    p.begin_transaction()
    for i in range(4):
        p.send(topic_name, value=f"a{i}".encode(), partition=i % 2)
    p.flush()
    p.abort_transaction()
    p.close()

    def read(isolation, expect):
        """Every partition read to its end as this isolation level sees it, and at least `expect` values."""
        c = KafkaConsumer(bootstrap_servers=bootstrap, isolation_level=isolation, auto_offset_reset="earliest")
        tps = [TopicPartition_kp(topic_name, i) for i in range(2)]
        c.assign(tps)
        vals = []
        deadline = time.monotonic() + 60
        try:
            while len(vals) < expect or any(c.position(tp) < end for tp, end in c.end_offsets(tps).items()):
                assert time.monotonic() < deadline, f"{isolation}: read {vals} in 60 s"
                for msgs in c.poll(timeout_ms=200).values():
                    vals.extend(m.value.decode() for m in msgs)
        finally:
            c.close()
        return sorted(vals)

    assert read("read_committed", 10) == sorted(f"c{i}" for i in range(10))
    assert read("read_uncommitted", 14) == sorted([f"c{i}" for i in range(10)] + [f"a{i}" for i in range(4)])
    # kafka-python's consumer reading with librdkafka's: the same committed view
    assert sorted(consume(bootstrap, topic_name, 2, expect=10)) == sorted(f"c{i}" for i in range(10))


def TopicPartition_kp(topic, p):
    from kafka import TopicPartition as KTP

    return KTP(topic, p)


def test_read_committed_waits_for_open_transaction(bootstrap, topic_name):
    """Records after an open transaction stay invisible to read_committed until it ends (LSO)."""
    create_topic(bootstrap, topic_name, 1)
    p = producer(bootstrap)
    p.begin_transaction()
    p.produce(topic_name, value="open")
    p.flush(10)
    plain = Producer({"bootstrap.servers": bootstrap})
    plain.produce(topic_name, value="plain")
    plain.flush(10)
    assert consume(bootstrap, topic_name) == []
    assert end_offsets(bootstrap, topic_name) == [0]                       # LSO at the open txn
    assert end_offsets(bootstrap, topic_name, isolation="read_uncommitted") == [2]
    p.commit_transaction(20)
    assert consume(bootstrap, topic_name, expect=2) == ["open", "plain"]


# ---------------------------------------------------------------- consume-transform-produce


def _process(bootstrap, src, dst, group, txn_id, stop_after=None, crash=False, batch=20, total=None):
    """Read src, write value+'!' to dst, offsets in the same transaction. Returns records handled.

    stop_after: stop after this many records; crash: leave the last transaction open
    (as a process dying would) instead of committing it. total: else run until the group's
    committed offsets on src add up to this (the whole input handled). Bounded: 120 s.
    """
    assert (stop_after is None) != (total is None)
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "isolation.level": "read_committed",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    c.subscribe([src])
    p = producer(bootstrap, txn_id)
    handled = 0
    deadline = time.monotonic() + 120

    parts: list[int] = []  # src's partitions, asked once: a Metadata request waits behind the consumer's
    # long-polling Fetch on the same connection (up to fetch.wait.max.ms, 500 ms), as on Kafka

    def committed_total():
        if not parts:
            parts.extend(c.list_topics(src, timeout=10).topics[src].partitions)
        return sum(max(tp.offset, 0) for tp in c.committed([TopicPartition(src, i) for i in parts], timeout=10))

    try:
        while handled < stop_after if total is None else committed_total() < total:
            assert time.monotonic() < deadline, f"handled {handled} records of {src} in 120 s"
            msgs = c.consume(batch, 1.0)
            msgs = [m for m in msgs if not m.error()]
            if not msgs:
                continue
            p.begin_transaction()
            for m in msgs:
                p.produce(dst, value=m.value() + b"!", key=m.key(), partition=m.partition())
            offsets = {}
            for m in msgs:
                offsets[(m.topic(), m.partition())] = m.offset() + 1
            p.send_offsets_to_transaction([TopicPartition(t, pa, o) for (t, pa), o in offsets.items()],
                                          c.consumer_group_metadata(), 20)
            handled += len(msgs)
            if crash and stop_after is not None and handled >= stop_after:
                p.flush(10)
                return handled  # transaction left open: the process "dies" here
            p.commit_transaction(20)
    finally:
        c.close()
    return handled


def test_consume_transform_produce_exactly_once(bootstrap, topic_name):
    src, dst = topic_name + "-in", topic_name + "-out"
    create_topic(bootstrap, src, 2)
    create_topic(bootstrap, dst, 2)
    n = 300
    pr = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for i in range(n):
        pr.produce(src, value=f"v{i}", partition=i % 2)
    pr.flush(10)
    group = f"eos-{uuid.uuid4().hex[:8]}"
    txn_id = f"eos-tx-{uuid.uuid4().hex[:8]}"
    # first instance handles ~100 records, then dies with a transaction open
    _process(bootstrap, src, dst, group, txn_id, stop_after=100, crash=True)
    # the restarted instance (same transactional.id) fences the zombie, its txn is aborted
    _process(bootstrap, src, dst, group, txn_id, total=n)
    out = consume(bootstrap, dst, 2, expect=n)
    assert sorted(out) == sorted(f"v{i}!" for i in range(n))
    assert len(out) == len(set(out)) == n
    # and everything is visible to read_uncommitted, including the aborted duplicates
    assert len(consume(bootstrap, dst, 2, "read_uncommitted")) > n


def test_kafka_python_send_offsets_to_transaction(bootstrap, topic_name):
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.structs import OffsetAndMetadata

    src, dst = topic_name + "-in", topic_name + "-out"
    create_topic(bootstrap, src, 1)
    create_topic(bootstrap, dst, 1)
    pr = Producer({"bootstrap.servers": bootstrap})
    for i in range(50):
        pr.produce(src, value=f"v{i}")
    pr.flush(10)
    group = f"kp-eos-{uuid.uuid4().hex[:8]}"

    def run(limit, commit):
        c = KafkaConsumer(src, bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False,
                          auto_offset_reset="earliest", isolation_level="read_committed")
        p = KafkaProducer(bootstrap_servers=bootstrap, transactional_id=group + "-tx")
        p.init_transactions()
        handled = 0
        deadline = time.monotonic() + 60
        while handled < limit and time.monotonic() < deadline:
            polled = c.poll(timeout_ms=500, max_records=10)
            for tp, msgs in polled.items():
                p.begin_transaction()
                for m in msgs:
                    p.send(dst, value=m.value + b"!")
                p.send_offsets_to_transaction({tp: OffsetAndMetadata(msgs[-1].offset + 1, "", -1)},
                                              c.group_metadata())
                if commit:
                    p.commit_transaction()
                else:
                    p.abort_transaction()
                handled += len(msgs)
        c.close()
        p.close()
        return handled

    assert run(20, commit=False) >= 20   # aborted: neither the output nor the offsets count
    assert run(50, commit=True) == 50
    assert sorted(consume(bootstrap, dst, expect=50)) == sorted(f"v{i}!" for i in range(50))


# ---------------------------------------------------------------- fencing


def test_zombie_producer_is_fenced(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 1)
    txn_id = f"zombie-{uuid.uuid4().hex[:8]}"
    old = producer(bootstrap, txn_id)
    old.begin_transaction()
    old.produce(topic_name, value="zombie-1")
    old.flush(10)
    new = producer(bootstrap, txn_id)  # bumps the epoch and aborts the zombie's transaction
    new.begin_transaction()
    new.produce(topic_name, value="new")
    new.commit_transaction(20)
    with pytest.raises(KafkaException) as e:
        old.produce(topic_name, value="zombie-2")
        old.commit_transaction(10)
    err = e.value.args[0]
    assert err.fatal() or err.code() in (KafkaError._FENCED, KafkaError.PRODUCER_FENCED,
                                         KafkaError.INVALID_PRODUCER_EPOCH), err
    assert consume(bootstrap, topic_name, expect=1) == ["new"]


def test_transaction_timeout_aborts_and_lso_advances(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 1)
    p = producer(bootstrap, **{"transaction.timeout.ms": TXN_TIMEOUT_MS})
    p.begin_transaction()
    p.produce(topic_name, value="abandoned")
    p.flush(10)
    plain = Producer({"bootstrap.servers": bootstrap})
    plain.produce(topic_name, value="after")
    plain.flush(10)
    assert end_offsets(bootstrap, topic_name) == [0]
    deadline = time.monotonic() + TXN_TIMEOUT_MS / 1000 + 15
    while end_offsets(bootstrap, topic_name) == [0] and time.monotonic() < deadline:
        time.sleep(0.5)
    assert end_offsets(bootstrap, topic_name) == [3]  # data, plain record, abort marker
    assert consume(bootstrap, topic_name, expect=1) == ["after"]
    with pytest.raises(KafkaException):  # its epoch was bumped by the coordinator
        p.commit_transaction(10)


def test_invalid_transaction_timeout(bootstrap):
    from odradek.wire.messages.init_producer_id_request import InitProducerIdRequest

    rc = RawClient(bootstrap)
    try:
        resp = rc.call(InitProducerIdRequest(transactional_id="too-long", transaction_timeout_ms=900001,
                                             producer_id=-1, producer_epoch=-1), 4)
        assert resp.error_code == 50  # INVALID_TRANSACTION_TIMEOUT
        resp = rc.call(InitProducerIdRequest(transactional_id="ok", transaction_timeout_ms=900000,
                                             producer_id=-1, producer_epoch=-1), 4)
        assert resp.error_code == 0 and resp.producer_id >= 0
    finally:
        rc.close()


def test_describe_and_list_transactions(bootstrap, topic_name):
    from odradek.wire.messages.describe_transactions_request import DescribeTransactionsRequest
    from odradek.wire.messages.list_transactions_request import ListTransactionsRequest

    create_topic(bootstrap, topic_name, 2)
    txn_id = f"desc-{uuid.uuid4().hex[:8]}"
    p = producer(bootstrap, txn_id)
    p.begin_transaction()
    p.produce(topic_name, value="x", partition=1)
    p.flush(10)
    rc = RawClient(bootstrap)
    try:
        d = rc.call(DescribeTransactionsRequest(transactional_ids=[txn_id, "no-such-id"]), 0)
        st = {s.transactional_id: s for s in d.transaction_states}
        assert st[txn_id].error_code == 0 and st[txn_id].transaction_state == "Ongoing"
        assert [(t.topic, t.partitions) for t in st[txn_id].topics] == [(topic_name, [1])]
        assert st["no-such-id"].error_code == 105  # TRANSACTIONAL_ID_NOT_FOUND
        lst = rc.call(ListTransactionsRequest(state_filters=["Ongoing", "Bogus"], producer_id_filters=[],
                                              duration_filter=-1), 1)
        assert txn_id in [s.transactional_id for s in lst.transaction_states]
        assert lst.unknown_state_filters == ["Bogus"]
        p.commit_transaction(20)
        deadline = time.monotonic() + 60  # Kafka writes the markers after answering EndTxn
        while True:
            d = rc.call(DescribeTransactionsRequest(transactional_ids=[txn_id]), 0)
            if d.transaction_states[0].transaction_state != "PrepareCommit" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert d.transaction_states[0].transaction_state == "CompleteCommit"
        assert d.transaction_states[0].topics == []
    finally:
        rc.close()


# ---------------------------------------------------------------- crash


def test_kill9_mid_transaction_is_all_or_nothing(controllable_broker, topic_name):
    b = controllable_broker
    bs = b.bootstrap
    create_topic(bs, topic_name, 2)
    committed = producer(bs, f"k9c-{uuid.uuid4().hex[:6]}")
    committed.begin_transaction()
    for i in range(20):
        committed.produce(topic_name, value=f"c{i}", partition=i % 2)
    committed.commit_transaction(20)
    open_ = producer(bs, f"k9o-{uuid.uuid4().hex[:6]}", **{"transaction.timeout.ms": TXN_TIMEOUT_MS})
    open_.begin_transaction()
    for i in range(20):
        open_.produce(topic_name, value=f"o{i}", partition=i % 2)
    open_.flush(10)
    b.kill9()
    b.start()
    # committed before the crash: all there; open at the crash: never visible, aborted after its timeout
    assert sorted(consume(bs, topic_name, 2, expect=20)) == sorted(f"c{i}" for i in range(20))
    deadline = time.monotonic() + TXN_TIMEOUT_MS / 1000 + 20
    while sum(end_offsets(bs, topic_name, 2)) < 20 + 2 + 20 + 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert sum(end_offsets(bs, topic_name, 2)) == 20 + 2 + 20 + 2  # LSO = log end: the open one was aborted
    assert sorted(consume(bs, topic_name, 2, expect=20)) == sorted(f"c{i}" for i in range(20))
    assert len(consume(bs, topic_name, 2, "read_uncommitted")) == 40
    # a new producer with the same id works
    nxt = producer(bs, f"k9c2-{uuid.uuid4().hex[:6]}")
    nxt.begin_transaction()
    nxt.produce(topic_name, value="later", partition=0)
    nxt.commit_transaction(20)
    assert "later" in consume(bs, topic_name, 2, expect=21)


def test_consume_transform_produce_survives_broker_kill9(controllable_broker, topic_name):
    """The broker dies with a transaction open (output written, offsets sent, no commit):
    after the restart the application resumes and the output still holds each input once."""
    b = controllable_broker
    bs = b.bootstrap
    src, dst = topic_name + "-in", topic_name + "-out"
    create_topic(bs, src, 2)
    create_topic(bs, dst, 2)
    n = 200
    pr = Producer({"bootstrap.servers": bs})
    for i in range(n):
        pr.produce(src, value=f"v{i}", partition=i % 2)
    pr.flush(10)
    group = f"eos-k9-{uuid.uuid4().hex[:8]}"
    txn_id = f"eos-k9-tx-{uuid.uuid4().hex[:8]}"
    assert _process(bs, src, dst, group, txn_id, stop_after=80, crash=True) >= 80
    b.kill9()
    b.start()
    _process(bs, src, dst, group, txn_id, total=n)
    out = consume(bs, dst, 2, expect=n)
    assert sorted(out) == sorted(f"v{i}!" for i in range(n))
