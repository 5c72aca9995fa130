"""A clean stop closes the logs in a worker thread while the event loop goes on (server.py:
close_logs in an executor). What the coordinators still have scheduled on the loop then must not
write to a log the worker has closed: such a write met the closed file (EBADF), took the log
offline, failed its log dir and halted the broker (halt(1)) before the clean-shutdown markers, so
the next start recovered every log. As Kafka's BrokerServer shuts its coordinator runtimes down
before its LogManager, stop_work stops the coordinators first: the events queued fail
NOT_COORDINATOR and no slice, flush or load runs; and a write that still reaches a closed log is
refused (LogClosedError), failing no log dir."""
from __future__ import annotations

import asyncio
import struct
import threading

from inproc_broker import Clock, call, start_broker
from odradek.broker.broker import Broker
from odradek.config import BrokerConfig
from odradek.coordinator.errors import CoordinatorError
from odradek.log.errors import LogClosedError
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import create_topics_request as ct
from odradek.wire.messages import find_coordinator_request as fc
from odradek.wire.messages import offset_commit_request as oc
from odradek.wire.messages import offset_fetch_request as of
from odradek.wire.api import decode_response, encode_request

OFFSETS = "__consumer_offsets"


def commit(b, offset: int):
    return call(b, "offset_commit", oc.OffsetCommitRequest(
        group_id="g", generation_id_or_member_epoch=-1, member_id="", topics=[oc.OffsetCommitRequestTopic(
            name="t", partitions=[oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=offset)])]), 8)


def test_coordinator_work_left_on_the_loop_at_a_stop_writes_nothing_and_halts_nothing(tmp_path):
    """Commits queued as coordinator events and a coordinator write queued on the loop when the
    stop begins; the worker closes every log before the loop's next turn (the latest a callback
    can come). The events fail NOT_COORDINATOR without running, the write gets LogClosedError, no
    log goes offline, no halt; the markers are written and the next start loads clean."""
    data = tmp_path / "data"
    props = {"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(data), "offsets.topic.num.partitions": "1",
             "transaction.state.log.num.partitions": "1"}
    loop = asyncio.new_event_loop()
    halts: list[int] = []
    b = Broker(BrokerConfig.from_properties(props), Clock(), loop.call_later, halt=halts.append,
               background=loop.call_soon)
    b.start()
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name="t", num_partitions=1, replication_factor=1)], timeout_ms=1000), 7)
    assert r.topics[0].error_code == 0
    call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 6)
    assert commit(b, 1).topics[0].partitions[0].error_code == 0
    offsets = b.replicas.get(OFFSETS, 0)
    end = offsets.log_end_offset

    async def stop():
        events = [b.coordinator_events.run(lambda i=i: commit(b, 10 + i)) for i in range(3)]  # (a slice queued)
        wrote = loop.create_future()

        def direct_write():  # (a coordinator's write outside the events: a load completing a transaction)
            try:
                wrote.set_result(b.groups.log.write(0, [(b"k", b"v", (), 1)], 1))
            except Exception as e:  # noqa: BLE001 - what the write got is the outcome
                wrote.set_result(e)

        loop.call_soon(direct_write)
        epoch = b.stop_work()
        closer = threading.Thread(target=b.close_logs, args=(epoch,))
        closer.start()
        closer.join()  # (the loop's next turn comes after every log closed)
        answers = await asyncio.gather(*events, return_exceptions=True)
        return answers, await wrote

    answers, wrote = loop.run_until_complete(stop())
    loop.close()
    b.close_metadata()
    assert halts == [] and not b.log_manager.failed_dirs and offsets.offline is None
    assert [a.code if isinstance(a, CoordinatorError) else a for a in answers] == [ErrorCode.NOT_COORDINATOR] * 3
    assert isinstance(wrote, LogClosedError)
    assert offsets.log_end_offset == end
    assert (data / ".kafka_cleanshutdown").exists()
    again = start_broker(data)
    try:
        assert all(log._dir_clean for log in again.log_manager)  # (its dir's marker: loaded without recovery)
        assert again.replicas.get(OFFSETS, 0).log_end_offset == end
    finally:
        again.close()


def test_a_stopped_coordinators_events_run_nothing(tmp_path):
    """After close (stop_work), an event given to the coordinator fails NOT_COORDINATOR at once
    and never runs; a slice or flush scheduled before runs nothing."""
    b = start_broker(tmp_path, offsets_topic_num_partitions="1")
    try:
        ran: list[int] = []

        async def go():
            before = b.coordinator_events.run(lambda: ran.append(1))
            b.coordinator_events.close()
            after = b.coordinator_events.run(lambda: ran.append(2))
            return await asyncio.gather(before, after, return_exceptions=True)

        answers = asyncio.run(go())
        assert ran == [] and [a.code for a in answers] == [ErrorCode.NOT_COORDINATOR] * 2
    finally:
        b.close()


def test_sigterm_while_a_group_commits_offsets_stops_cleanly_and_the_restart_recovers_nothing(tmp_path):
    """A real `odradek serve`: connections commit a group's offsets back to back, pipelined (several
    requests in flight each), when SIGTERM arrives. The broker exits 0 after its clean stop - not
    halted by a write to a log its closing worker had closed - with its log dir's clean-shutdown
    marker written; the restart loads every log without recovery and serves the group's last
    acknowledged commit (or a later one)."""
    from test_server import Client

    from odradek.testing.broker import Broker as Serve

    data = tmp_path / "data"
    b = Serve(data_dir=data, control=False)
    b.start()
    try:
        c = Client(b.port)
        created = c.call(ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
            name="t", num_partitions=4, replication_factor=1)], timeout_ms=10000), 7)
        assert created.topics[0].error_code == 0
        while c.call(fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 6).coordinators[0].error_code:
            pass  # (until __consumer_offsets is led and loaded)
        acked = [0] * 4
        started = threading.Barrier(5)
        going = [threading.Event() for _ in range(4)]  # (a connection's commits acknowledged)

        def committing(n: int) -> None:
            conn = Client(b.port)
            started.wait(60)
            offset = 0
            try:
                while True:
                    for _ in range(4):  # (pipelined: four in flight)
                        offset += 1
                        conn.corr += 1
                        conn.sock.sendall(encode_request(commit_request(n, offset), 8, conn.corr))
                    for i in range(4):
                        size = struct.unpack(">i", conn._read(4))[0]
                        body = decode_response(conn._read(size), oc.OffsetCommitRequest.API_KEY, 8).body
                        if body.topics[0].partitions[0].error_code == 0:
                            acked[n] = max(acked[n], offset - 3 + i)
                    if acked[n] >= 20:
                        going[n].set()
            except (ConnectionError, OSError):
                return  # (the broker stopped)

        threads = [threading.Thread(target=committing, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        started.wait(60)
        assert all(g.wait(60) for g in going), b.log_tail()  # (every connection committing)
        assert b.stop() == 0, b.log_tail()
        for t in threads:
            t.join(60)
        out = b.log_tail(2000)
        assert "odradek stopped" in out and "Shutdown broker because" not in out and "offline" not in out, out
        assert (data / ".kafka_cleanshutdown").exists()
        b.start()
        assert "recovering" not in b.log_tail(2000)
        c = Client(b.port)
        fetched = c.call(of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(group_id="g", topics=[
            of.OffsetFetchRequestTopics(name="t", partition_indexes=[0, 1, 2, 3])])]), 9)
        got = {p.partition_index: p.committed_offset for p in fetched.groups[0].topics[0].partitions}
        assert all(got[n] >= acked[n] for n in range(4)), (got, acked)
    finally:
        b.close()


def commit_request(partition: int, offset: int) -> oc.OffsetCommitRequest:
    return oc.OffsetCommitRequest(group_id="g", generation_id_or_member_epoch=-1, member_id="", topics=[
        oc.OffsetCommitRequestTopic(name="t", partitions=[oc.OffsetCommitRequestPartition(
            partition_index=partition, committed_offset=offset)])])
