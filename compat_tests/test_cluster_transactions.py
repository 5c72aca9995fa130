"""Transactions across brokers (issue 21 item 3), on real processes: 3 controllers + 3 brokers, a topic
with replication.factor=3 whose partitions are led by all three brokers, internal topics RF=3.

The transaction coordinator sends WriteTxnMarkers to each partition's leader (Kafka's marker channel)
and completes a transaction only once every marker is written: a confluent-kafka transactional
producer commits and aborts transactions spanning every leader; read_committed consumers see exactly
the committed records of every partition, read_uncommitted ones all of them, and Kafka 4.3's
kafka-transactions describe / list show the completed state. Then the leader of a partition in the
transaction is killed -9 as the commit goes out: the marker reaches the new leader, the transaction
completes, and read_committed reads exactly the committed records, also after the killed broker is
back; and the same through a kill -9 of the transaction coordinator's broker (the new coordinator
loads the id and finishes the commit). Java kafka-clients 3.9.2 and 4.3.0 run their transaction
checks against the cluster. Runs against Apache Kafka 4.3 with --cluster-kafka.
"""
from __future__ import annotations

import threading
import time
import uuid

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from cluster import running_cluster, wait_for
from harness import kafka_tool, read_to_end

from odradek.broker.wire_client import WireClient

PARTITIONS = 6
RECORDS = 5  # per partition and transaction

pytestmark = pytest.mark.timeout(1200)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("cluster-txn"), request.config,
                         props={"min.insync.replicas": "2", "offsets.topic.replication.factor": "3",
                                "transaction.state.log.replication.factor": "3",
                                "transaction.state.log.min.isr": "2"}) as c:
        yield c


def _topic(cluster, name: str) -> dict:
    state = cluster.create_topic(name, PARTITIONS, 3, {"min.insync.replicas": "2"})
    assert {s.leader for s in state.values()} == {b.id for b in cluster.brokers}, state  # every broker leads
    return state


def _producer(bootstrap: str, txn_id: str) -> Producer:
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": txn_id, "linger.ms": 5,
                  "transaction.timeout.ms": 60000})
    p.init_transactions(60)
    return p


def _transaction(p: Producer, topic: str, n: int, commit: bool, before_end=None) -> dict[int, list[str]]:
    """One transaction writing RECORDS records to every partition, in two rounds of batches (the
    leaders verify the first with the coordinator, the second finds the transaction open):
    {partition: values}."""
    p.begin_transaction()
    values = {part: [f"t{n}-p{part}-{i}" for i in range(RECORDS)] for part in range(PARTITIONS)}
    for first, last in ((0, 2), (2, RECORDS)):
        for part in range(PARTITIONS):
            for v in values[part][first:last]:
                p.produce(topic, v.encode(), partition=part)
        p.flush(30)
    if before_end is not None:
        before_end()
    (p.commit_transaction if commit else p.abort_transaction)(60)
    return values


def _read(bootstrap: str, topic: str, isolation: str, expect: int, timeout: float = 120) -> dict[int, list[str]]:
    return read_to_end(bootstrap, topic, PARTITIONS, isolation, expect, timeout)


def _merge(*txns: dict[int, list[str]]) -> dict[int, list[str]]:
    return {part: [v for t in txns for v in t[part]] for part in range(PARTITIONS)}


def _coordinator(bootstrap: str, txn_id: str) -> int:
    with WireClient.from_bootstrap(bootstrap) as c:
        err, node, *_ = c.find_coordinator(txn_id, key_type=1, wait_s=60)
    assert err == 0
    return node


def _describe(bootstrap: str, txn_id: str) -> dict[str, str]:
    r = kafka_tool("transactions", "--bootstrap-server", bootstrap, "describe", "--transactional-id", txn_id)
    assert r.returncode == 0, r.stderr
    header, row = [line.split("\t") if "\t" in line else line.split() for line in r.stdout.strip().splitlines()[-2:]]
    return dict(zip([h.strip() for h in header], [v.strip() for v in row]))


def _coordinated(c: WireClient, key_type: int, prefix: str, avoid: int = -1) -> tuple[str, int]:
    """A new key of ``key_type`` (0 group, 1 transactional id) and its coordinator, one not ``avoid``."""
    for _ in range(100):
        key = f"{prefix}-{uuid.uuid4().hex[:8]}"
        err, node, *_ = c.find_coordinator(key, key_type=key_type, wait_s=60)
        if err == 0 and node != avoid:
            return key, node
    raise AssertionError(f"no {prefix} coordinated away from broker {avoid}")


def test_commits_and_aborts_across_all_leaders(cluster):
    topic = "txn-across"
    _topic(cluster, topic)
    txn_id = f"across-{uuid.uuid4().hex[:8]}"
    p = _producer(cluster.bootstrap, txn_id)
    committed, aborted = [], []
    for n in range(6):
        (committed if n % 2 == 0 else aborted).append(_transaction(p, topic, n, commit=n % 2 == 0))
    wanted = _merge(*committed)
    assert _read(cluster.bootstrap, topic, "read_committed", PARTITIONS * RECORDS * 3) == wanted
    everything = _read(cluster.bootstrap, topic, "read_uncommitted", PARTITIONS * RECORDS * 6)
    assert everything == _merge(*[t for pair in zip(committed, aborted) for t in pair])
    # the last transaction (an abort) is complete: the coordinator wrote CompleteAbort after every marker
    state = wait_for(lambda: (lambda d: d if d.get("TransactionState") == "CompleteAbort" else None)(
        _describe(cluster.bootstrap, txn_id)), 60, "CompleteAbort in kafka-transactions describe",
        last=lambda: _describe(cluster.bootstrap, txn_id))
    assert state["CoordinatorId"] == str(_coordinator(cluster.bootstrap, txn_id))
    assert state.get("TopicPartitions", "") in ("", "None"), state  # nothing left to mark
    r = kafka_tool("transactions", "--bootstrap-server", cluster.bootstrap, "list")
    assert r.returncode == 0, r.stderr
    header, *rows = [line.split() for line in r.stdout.strip().splitlines()]
    assert header == ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"], r.stdout
    assert [(row[1], row[3]) for row in rows if row[0] == txn_id] == [(state["CoordinatorId"], "CompleteAbort")]
    p.flush()


def test_commit_through_kill9_of_a_partition_leader(cluster):
    topic = "txn-kill9"
    state = _topic(cluster, topic)
    txn_id = f"kill9-{uuid.uuid4().hex[:8]}"
    coordinator = _coordinator(cluster.bootstrap, txn_id)
    victim = next(s.leader for s in state.values() if s.leader != coordinator)
    led = sorted(part for part, s in state.items() if s.leader == victim)
    p = _producer(cluster.bootstrap, txn_id)
    first = _transaction(p, topic, 0, commit=True)

    def kill_as_the_commit_goes_out():
        threading.Timer(0.05, cluster.kill9, (victim,)).start()

    second = _transaction(p, topic, 1, commit=True, before_end=kill_as_the_commit_goes_out)
    wait_for(lambda: not cluster.node(victim).alive, 30, f"broker {victim} killed")
    cluster.wait_partitions(topic, lambda s: all(s[part].leader not in (victim, -1) for part in led),
                            f"new leaders of partitions {led} after broker {victim}'s kill -9")
    aborted = _transaction(p, topic, 2, commit=False)  # the producer goes on: the commit was completed
    wanted = _merge(first, second)
    live = cluster.live_bootstrap()
    assert _read(live, topic, "read_committed", PARTITIONS * RECORDS * 2) == wanted
    cluster.start(victim)
    cluster.wait_full_isr(topic)
    assert _read(cluster.bootstrap, topic, "read_committed", PARTITIONS * RECORDS * 2) == wanted
    assert _read(cluster.bootstrap, topic, "read_uncommitted", PARTITIONS * RECORDS * 3) == _merge(first, second,
                                                                                                   aborted)
    assert cluster.wait_identical_replicas(topic, PARTITIONS) > 0


def test_offsets_in_transactions_on_another_broker(cluster):
    """Consume-transform-produce (sendOffsetsToTransaction) where the group's coordinator and the
    transaction's are different brokers: the group coordinator asks the transaction coordinator
    (AddPartitionsToTxn verify_only), and the offsets become the group's only with the commit marker
    on its __consumer_offsets partition; an aborted transaction's offsets never do."""
    from confluent_kafka import ConsumerGroupTopicPartitions

    src, dst = "txn-eos-in", "txn-eos-out"
    _topic(cluster, src)
    _topic(cluster, dst)
    seed = Producer({"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True})
    for i in range(PARTITIONS * RECORDS * 2):
        seed.produce(src, f"in-{i}".encode(), partition=i % PARTITIONS)
    assert seed.flush(30) == 0
    with WireClient.from_bootstrap(cluster.bootstrap) as c:
        group, group_node = _coordinated(c, 0, "eos-group")
        txn_id, txn_node = _coordinated(c, 1, "eos-txn", avoid=group_node)
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": group, "enable.auto.commit": False,
                         "isolation.level": "read_committed", "auto.offset.reset": "earliest"})
    consumer.subscribe([src])
    p = _producer(cluster.bootstrap, txn_id)
    copied: list[str] = []
    half = PARTITIONS * RECORDS
    aborted_once = False
    deadline = time.monotonic() + 120
    while len(copied) < 2 * half:
        assert time.monotonic() < deadline, f"copied {len(copied)} of {2 * half}"
        msgs = [m for m in consumer.consume(half, 1.0) if not m.error()]
        if not msgs:
            continue
        p.begin_transaction()
        for m in msgs:
            p.produce(dst, m.value().replace(b"in-", b"out-"), partition=m.partition())
        p.send_offsets_to_transaction(consumer.position(consumer.assignment()), consumer.consumer_group_metadata(), 30)
        if not aborted_once:  # the first batch is aborted: its output and offsets are dropped, it is read again
            aborted_once = True
            p.abort_transaction(60)
            for tp in consumer.committed(list(consumer.assignment()), 30):
                consumer.seek(TopicPartition(src, tp.partition, max(tp.offset, 0)))
            continue
        p.commit_transaction(60)
        copied.extend(m.value().decode() for m in msgs)
    consumer.close()
    out = _read(cluster.bootstrap, dst, "read_committed", 2 * half)
    assert sorted(v for vs in out.values() for v in vs) == sorted(v.replace("in-", "out-") for v in copied)
    assert len(copied) == 2 * half and len(set(copied)) == 2 * half  # each input exactly once
    offsets = cluster.admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group].result(30)
    assert sorted((tp.partition, tp.offset) for tp in offsets.topic_partitions) == [
        (part, RECORDS * 2) for part in range(PARTITIONS)], (group_node, txn_node)


def test_a_large_txn_offset_commit_verified_by_another_broker(cluster):
    """A TxnOffsetCommit of 1,200 partitions (6 existing) to the group's coordinator, the transaction's
    coordinator another broker: the group coordinator waits for that broker's verdict, then commits and
    answers in steps (issue 27: the commit after the wait goes on as coordinator events). The answer is
    Kafka's TxnOffsetCommitResponse.Builder order; the offsets are the group's once committed."""
    from odradek.wire.messages import add_offsets_to_txn_request as ao, end_txn_request as et
    from odradek.wire.messages import init_producer_id_request as ip, offset_fetch_request as of
    from odradek.wire.messages import txn_offset_commit_request as tc

    topic = "txn-large-commit"
    _topic(cluster, topic)
    ports = {b.id: b.port for b in cluster.brokers}
    with WireClient.from_bootstrap(cluster.bootstrap) as c:
        group, group_node = _coordinated(c, 0, "large-group")
        txn_id, txn_node = _coordinated(c, 1, "large-txn", avoid=group_node)
    with WireClient("127.0.0.1", ports[txn_node], timeout=60) as t, \
            WireClient("127.0.0.1", ports[group_node], timeout=60) as g:
        def init_producer():  # (retried while the transaction log loads, as clients do)
            r = t.request(ip.InitProducerIdRequest(transactional_id=txn_id, transaction_timeout_ms=60000,
                                                   producer_id=-1, producer_epoch=-1), 4)
            assert r.error_code in (0, 14, 15), r
            return r if r.error_code == 0 else None
        init = wait_for(init_producer, 60, "InitProducerId")
        pid, epoch = init.producer_id, init.producer_epoch
        assert t.request(ao.AddOffsetsToTxnRequest(transactional_id=txn_id, producer_id=pid, producer_epoch=epoch,
                                                   group_id=group), 3).error_code == 0
        resp = g.request(tc.TxnOffsetCommitRequest(
            transactional_id=txn_id, group_id=group, producer_id=pid, producer_epoch=epoch, generation_id=-1,
            member_id="", topics=[tc.TxnOffsetCommitRequestTopic(name=topic, partitions=[
                tc.TxnOffsetCommitRequestPartition(partition_index=p, committed_offset=100 + p,
                                                   committed_leader_epoch=-1, committed_metadata="")
                for p in range(1200)])]), 4)
        assert [(x.name, [(p.partition_index, p.error_code) for p in x.partitions]) for x in resp.topics] == [
            (topic, [(p, 3) for p in range(PARTITIONS, 1200)] + [(p, 0) for p in range(PARTITIONS)])]
        assert t.request(et.EndTxnRequest(transactional_id=txn_id, producer_id=pid, producer_epoch=epoch,
                                          committed=True), 3).error_code == 0
        fetch = of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(group_id=group, topics=[
            of.OffsetFetchRequestTopics(name=topic, partition_indexes=list(range(PARTITIONS)))])], require_stable=True)

        def committed():
            r = g.request(fetch, 8).groups[0].topics[0].partitions
            return None if any(p.error_code for p in r) else [(p.partition_index, p.committed_offset) for p in r]
        assert wait_for(committed, 60, "the committed offsets") == [(p, 100 + p) for p in range(PARTITIONS)]


JAVA_VERSIONS = ["3.9.2", "4.3.0"]


@pytest.fixture(scope="module")
def java_transaction_checks(cluster) -> dict[str, dict[str, str]]:
    """Java kafka-clients' transaction checks (compat_tests/java), 3.9.2 and 4.3.0 at once against the
    cluster: {version: results}. Each run mostly waits on the cluster, on topics and transactional ids of
    its own (named after its version and start time), so the two waits overlap."""
    import shutil

    from builds import CHECK_JVM, java_clients_classpath
    from harness import CheckProgram

    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("needs Java 17 and Maven")
    classpaths = {version: java_clients_classpath(version) for version in JAVA_VERSIONS}
    programs = {version: CheckProgram(["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                                       classpaths[version], "odradek.compat.JavaClientsCheck", cluster.bootstrap,
                                       "producer.transactions", "producer.transactionEpochs"])
                for version in JAVA_VERSIONS}
    try:
        return {version: program.results() for version, program in programs.items()}
    finally:
        for program in programs.values():
            program.kill()


@pytest.mark.parametrize("version", JAVA_VERSIONS)
def test_java_transactions_on_the_cluster(java_transaction_checks, version):
    """Java kafka-clients' transaction checks (compat_tests/java) against the cluster: commits, aborts,
    sendOffsetsToTransaction, fencing, and with 4.3.0 transactions V2 (Produce v12 and TxnOffsetCommit
    v5 add the partitions through the leaders, EndTxn v5 bumps the epoch, the markers carry it);
    3.9.2 verifies through the leaders (AddPartitionsToTxn verify_only)."""
    from harness import assert_check_passed

    results = java_transaction_checks[version]
    assert_check_passed(results, "producer.transactions")
    assert_check_passed(results, "producer.transactionEpochs")


def test_commit_through_kill9_of_the_transaction_coordinator(cluster):
    """The broker coordinating the transactional id is killed -9 as the commit goes out: the new
    leader of its __transaction_state partition loads it and finishes what the log says (a
    PrepareCommit: its markers to every leader, then CompleteCommit), the producer's commit is
    retried there; read_committed sees the transaction whole, before and after the restart."""
    from confluent_kafka import KafkaException

    topic = "txn-kill9-coordinator"
    _topic(cluster, topic)
    txn_id = f"kill9c-{uuid.uuid4().hex[:8]}"
    victim = _coordinator(cluster.bootstrap, txn_id)
    p = _producer(cluster.bootstrap, txn_id)
    first = _transaction(p, topic, 0, commit=True)

    def kill_as_the_commit_goes_out():
        threading.Timer(0.05, cluster.kill9, (victim,)).start()

    try:
        second = _transaction(p, topic, 1, commit=True, before_end=kill_as_the_commit_goes_out)
    except KafkaException as e:
        err = e.args[0]
        if err.retriable():  # librdkafka: call commit_transaction again
            second = {}
            wait_for(lambda: _retry_commit(p), 120, "the retried commit")
            second = {part: [f"t1-p{part}-{i}" for i in range(RECORDS)] for part in range(PARTITIONS)}
        elif err.txn_requires_abort():  # aborted as a whole: then none of it may be visible
            p.abort_transaction(60)
            second = {part: [] for part in range(PARTITIONS)}
        else:
            raise
    wait_for(lambda: not cluster.node(victim).alive, 30, f"broker {victim} killed")
    new = wait_for(lambda: (lambda n: n if n != victim else None)(_coordinator(cluster.live_bootstrap(), txn_id)),
                   60, "a new transaction coordinator")
    after = _transaction(p, topic, 2, commit=True)  # the producer goes on with the new coordinator
    wanted = _merge(first, second, after)
    assert _read(cluster.live_bootstrap(), topic, "read_committed", sum(map(len, wanted.values()))) == wanted
    cluster.start(victim)
    cluster.wait_full_isr(topic)
    assert _read(cluster.bootstrap, topic, "read_committed", sum(map(len, wanted.values()))) == wanted
    state = _describe(cluster.bootstrap, txn_id)
    assert state["TransactionState"] == "CompleteCommit" and state["CoordinatorId"] in (str(new), str(victim)), state


def _retry_commit(p: Producer) -> bool:
    from confluent_kafka import KafkaException

    try:
        p.commit_transaction(30)
        return True
    except KafkaException as e:
        if e.args[0].retriable():
            return False
        raise


OPEN_TXN_SCRIPT = """
import sys, time
from confluent_kafka import Producer
bootstrap, topic, txn_id = sys.argv[1:4]
p = Producer({"bootstrap.servers": bootstrap, "transactional.id": txn_id, "transaction.timeout.ms": 600000})
p.init_transactions(60)
p.begin_transaction()
for i in range(3):
    p.produce(topic, b"open-%d" % i, partition=0)
assert p.flush(60) == 0
print("WRITTEN", flush=True)
time.sleep(600)
"""


def _table(r) -> list[dict[str, str]]:
    """kafka-transactions' table (tab separated, a header row) -> its rows as dicts."""
    assert r.returncode == 0, r.stderr
    header, *rows = [[c.strip() for c in line.rstrip().split("\t")] for line in r.stdout.strip().splitlines()]
    return [dict(zip(header, row)) for row in rows]


def test_kafka_transactions_tools_on_an_open_transaction(cluster):
    """A transactional producer begins, writes 3 records to partition 0 (after 2 plain ones) and is
    killed -9: kafka-transactions describe / list show it Ongoing on its coordinator; describe-producers
    shows its transaction starting at offset 2 on the leader and, with --broker-id, on each follower;
    find-hanging --broker-id finds nothing on any broker (the coordinator knows the transaction and its
    partition); abort --topic --partition --start-offset writes the abort marker, after which
    read_committed reads past it."""
    import subprocess
    import sys

    topic = "txn-tools"
    state = _topic(cluster, topic)
    plain = Producer({"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True})
    for v in (b"plain-0", b"plain-1"):
        plain.produce(topic, v, partition=0)
    assert plain.flush(30) == 0
    txn_id = f"tools-{uuid.uuid4().hex[:8]}"
    proc = subprocess.Popen([sys.executable, "-c", OPEN_TXN_SCRIPT, cluster.bootstrap, topic, txn_id],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout.readline().strip() == "WRITTEN", f"the open transaction's producer exited {proc.wait(30)}"
    finally:
        proc.kill()
        proc.wait(30)
    tool = ("transactions", "--bootstrap-server", cluster.bootstrap)
    (described,) = _table(kafka_tool(*tool, "describe", "--transactional-id", txn_id))
    coordinator = str(_coordinator(cluster.bootstrap, txn_id))
    assert (described["CoordinatorId"], described["TransactionState"], described["TopicPartitions"]) == \
        (coordinator, "Ongoing", f"{topic}-0"), described
    pid = described["ProducerId"]
    listed = [row for row in _table(kafka_tool(*tool, "list")) if row["TransactionalId"] == txn_id]
    assert listed == [{"TransactionalId": txn_id, "Coordinator": coordinator, "ProducerId": pid,
                       "TransactionState": "Ongoing"}]
    for broker in [None, *state[0].replicas]:  # the leader, then each replica by --broker-id
        where = () if broker is None else ("--broker-id", str(broker))
        producers = _table(kafka_tool(*tool, "describe-producers", "--topic", topic, "--partition", "0", *where))
        assert [(p["ProducerEpoch"], p["CurrentTransactionStartOffset"]) for p in producers
                if p["ProducerId"] == pid] == [(described["ProducerEpoch"], "2")], (broker, producers)
    for broker in cluster.brokers:
        found = _table(kafka_tool(*tool, "find-hanging", "--broker-id", str(broker.id),
                                  "--max-transaction-timeout", "0"))
        assert found == [], (broker.id, found)
    r = kafka_tool(*tool, "abort", "--topic", topic, "--partition", "0", "--start-offset", "2")
    assert r.returncode == 0, r.stderr
    producers = _table(kafka_tool(*tool, "describe-producers", "--topic", topic, "--partition", "0"))
    assert [p["CurrentTransactionStartOffset"] for p in producers if p["ProducerId"] == pid] == ["None"]
    plain.produce(topic, b"after", partition=0)  # readable read_committed only past the aborted transaction
    assert plain.flush(30) == 0
    got = read_to_end(cluster.bootstrap, topic, PARTITIONS, "read_committed", 3)
    assert got[0] == ["plain-0", "plain-1", "after"], got
    assert read_to_end(cluster.bootstrap, topic, PARTITIONS, "read_uncommitted", 6)[0] == [
        "plain-0", "plain-1", "open-0", "open-1", "open-2", "after"]
