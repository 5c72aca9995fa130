"""Consumer groups with kafka-python: split, rebalance on join/leave/death, exactly-once across a
clean rebalance, offsets across restarts, static membership, admin list/describe/delete, lag."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid

import pytest

kafka = pytest.importorskip("kafka")
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, OffsetAndMetadata, TopicPartition  # noqa: E402
from kafka.admin import NewTopic  # noqa: E402

SESSION_MS = 6000  # Kafka's default group.min.session.timeout.ms: works whatever the broker's overrides
BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "200"}


def _name(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def admin(bootstrap):
    a = KafkaAdminClient(bootstrap_servers=bootstrap)
    yield a
    a.close()


def make_topic(admin, partitions=4):
    name = _name("grp")
    admin.create_topics([NewTopic(name, partitions, 1)])
    return name


def produce(bootstrap, topic, n, partitions):
    p = KafkaProducer(bootstrap_servers=bootstrap)
    for i in range(n):
        p.send(topic, f"v{i}".encode(), partition=i % partitions)
    p.flush()
    p.close()


def consumer(bootstrap, topic, group, **kw):
    cfg = dict(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
               session_timeout_ms=SESSION_MS, heartbeat_interval_ms=500, enable_auto_commit=False,
               max_poll_interval_ms=20000)
    cfg.update(kw)
    c = KafkaConsumer(**cfg)
    if topic:
        c.subscribe([topic])
    return c


class Runner:
    """Polls one consumer on its own thread (as an application does), committing after each batch."""

    def __init__(self, c, sink=None):
        self.c, self.sink, self.stop_flag = c, sink, False
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop_flag:
            with self.lock:
                recs = self.c.poll(timeout_ms=100)
                if self.sink is not None:
                    for tp, msgs in recs.items():
                        self.sink.extend((tp.partition, m.offset) for m in msgs)
                    if recs:
                        self.c.commit()

    def stop(self):
        self.stop_flag = True
        self.thread.join(10)


_runners: dict = {}


def poll_until(consumers, cond, timeout=60.0, sink=None):
    for c in consumers:
        if id(c) not in _runners:
            _runners[id(c)] = Runner(c, sink)
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.1)
    return False


def pause(c):
    """Stop polling c from its thread so the test may call it directly."""
    r = _runners.pop(id(c), None)
    if r is not None:
        r.stop()


def close(c):
    pause(c)
    c.close()


def parts(c):
    return {tp.partition for tp in c.assignment()}


def test_two_and_three_consumers_split_and_rebalance_on_join_and_leave(bootstrap, admin):
    topic = make_topic(admin, 6)
    group = _name("g")
    # a long session: the take-over after a LeaveGroup must come well before any session could
    # expire (its bound below), however slow a loaded machine is
    session_ms = 30000
    c1 = consumer(bootstrap, topic, group, session_timeout_ms=session_ms)
    assert poll_until([c1], lambda: parts(c1) == set(range(6)))
    c2 = consumer(bootstrap, topic, group, session_timeout_ms=session_ms)
    assert poll_until([c1, c2], lambda: len(parts(c1)) == 3 and len(parts(c2)) == 3)
    c3 = consumer(bootstrap, topic, group, session_timeout_ms=session_ms)
    assert poll_until([c1, c2, c3], lambda: [len(parts(c)) for c in (c1, c2, c3)] == [2, 2, 2])
    assert parts(c1) | parts(c2) | parts(c3) == set(range(6))
    close(c3)  # LeaveGroup: the others take over at once
    assert poll_until([c1, c2], lambda: len(parts(c1)) == 3 and len(parts(c2)) == 3, timeout=session_ms / 1000)
    close(c2)
    assert poll_until([c1], lambda: parts(c1) == set(range(6)))
    close(c1)


def test_dead_consumer_is_evicted_after_session_timeout(bootstrap, admin):
    topic = make_topic(admin, 4)
    group = _name("g")
    c1 = consumer(bootstrap, topic, group)
    assert poll_until([c1], lambda: parts(c1) == set(range(4)))
    script = textwrap.dedent(f"""
        import time
        from kafka import KafkaConsumer
        c = KafkaConsumer({topic!r}, bootstrap_servers={bootstrap!r}, group_id={group!r},
                          session_timeout_ms={SESSION_MS}, heartbeat_interval_ms=500)
        while True:
            c.poll(100)
            if c.assignment():
                print("assigned", flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert poll_until([c1], lambda: len(parts(c1)) == 2)
        os.kill(child.pid, signal.SIGKILL)  # no LeaveGroup: only the session timeout notices
        child.wait()
        t0 = time.time()
        assert poll_until([c1], lambda: parts(c1) == set(range(4)), timeout=SESSION_MS / 1000 + 60)
        assert time.time() - t0 >= 1.0
    finally:
        if child.poll() is None:
            child.kill()
        close(c1)


def test_commits_give_exactly_once_across_clean_rebalance(bootstrap, admin):
    topic = make_topic(admin, 4)
    group = _name("g")
    n = 400
    produce(bootstrap, topic, n, 4)
    seen: list = []
    c1 = consumer(bootstrap, topic, group, max_poll_records=10)
    assert poll_until([c1], lambda: len(seen) >= 100, sink=seen)
    c2 = consumer(bootstrap, topic, group, max_poll_records=10)
    assert poll_until([c1, c2], lambda: len(seen) >= n and parts(c2), sink=seen)
    close(c1)
    close(c2)
    assert len(seen) == n and len(set(seen)) == n  # every record once, none twice
    a = KafkaAdminClient(bootstrap_servers=bootstrap)
    committed = a.list_group_offsets(group)[group]
    assert sum(om.offset for om in committed.values()) == n
    close(a)


def test_committed_offsets_survive_restart_and_kill(bootstrap, admin, controllable_broker):
    b = controllable_broker
    topic = make_topic(admin, 2)
    group = _name("g")
    c = consumer(bootstrap, topic, group)
    assert poll_until([c], lambda: parts(c) == {0, 1})
    pause(c)
    c.commit({TopicPartition(topic, 0): OffsetAndMetadata(7, "meta", -1),
              TopicPartition(topic, 1): OffsetAndMetadata(9, "", -1)})
    close(c)
    # a simple (memberless) commit, as Spark and kafka-python's assign() users do
    s = consumer(bootstrap, None, group + "-simple")
    s.assign([TopicPartition(topic, 0)])
    s.commit({TopicPartition(topic, 0): OffsetAndMetadata(3, "", -1)})
    close(s)
    for kill in (False, True):
        if kill:
            b.kill9()
            b.start()
        else:
            b.restart()
        c = consumer(b.bootstrap, None, group)
        assert c.committed(TopicPartition(topic, 0)) == 7
        assert c.committed(TopicPartition(topic, 1)) == 9
        close(c)
        s = consumer(b.bootstrap, None, group + "-simple")
        assert s.committed(TopicPartition(topic, 0)) == 3
        close(s)


def test_static_member_restarts_without_rebalance(bootstrap, admin):
    topic = make_topic(admin, 4)
    group = _name("g")
    revoked = []

    class Listener(kafka.ConsumerRebalanceListener):
        def on_partitions_revoked(self, revoked_parts):
            revoked.append(set(revoked_parts))

        def on_partitions_assigned(self, assigned):
            pass

    # generous sessions: a's restart must stay within its session, and b must not miss heartbeats
    # for a whole session on a loaded machine (either would be a rebalance the test does not test)
    a = consumer(bootstrap, None, group, group_instance_id="static-a", session_timeout_ms=60000)
    a.subscribe([topic])
    b = consumer(bootstrap, None, group, session_timeout_ms=30000)
    b.subscribe([topic], listener=Listener())
    assert poll_until([a, b], lambda: len(parts(a)) == 2 and len(parts(b)) == 2)
    b_parts = parts(b)
    revoked.clear()
    gen_before = admin.describe_groups([group])[group]
    close(a)  # static member: no LeaveGroup
    a = consumer(bootstrap, None, group, group_instance_id="static-a", session_timeout_ms=60000)
    a.subscribe([topic])
    assert poll_until([a, b], lambda: len(parts(a)) == 2, timeout=50)  # within a's session
    poll_until([a, b], lambda: False, timeout=2)  # a window in which b must see no rebalance: kept
    assert parts(b) == b_parts and not revoked  # b never saw a rebalance
    after = admin.describe_groups([group])[group]
    assert after["group_state"] == "Stable"
    assert {m["group_instance_id"] for m in after["members"]} == {"static-a", None}
    assert len(after["members"]) == len(gen_before["members"]) == 2
    close(a)
    close(b)


def test_admin_list_describe_delete_and_lag(bootstrap, admin):
    topic = make_topic(admin, 2)
    group = _name("g")
    produce(bootstrap, topic, 10, 2)  # 5 per partition
    c = consumer(bootstrap, topic, group)
    assert poll_until([c], lambda: parts(c) == {0, 1})
    pause(c)
    c.commit({TopicPartition(topic, 0): OffsetAndMetadata(2, "", -1),
              TopicPartition(topic, 1): OffsetAndMetadata(5, "", -1)})
    listed = {g["group_id"]: g for g in admin.list_groups()}
    assert listed[group]["group_state"] == "Stable" and listed[group]["protocol_type"] == "consumer"
    d = admin.describe_groups([group])[group]
    assert d["group_state"] == "Stable" and d["protocol_data"] in ("range", "roundrobin", "sticky")
    assert len(d["members"]) == 1
    assigned = d["members"][0]["member_assignment"]["assigned_partitions"]
    assert sorted(p for t in assigned for p in t["partitions"]) == [0, 1]
    committed = admin.list_group_offsets(group)[group]
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    ends = c.end_offsets(tps)
    lag = {tp.partition: ends[tp] - committed[tp].offset for tp in tps}
    assert lag == {0: 3, 1: 0}
    assert admin.delete_groups([group])[group] != "OK"  # non-empty
    close(c)
    assert admin.delete_groups([group])[group] == "OK"
    assert group not in {g["group_id"] for g in admin.list_groups()}
    assert admin.list_group_offsets(group)[group] == {}
