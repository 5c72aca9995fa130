"""What hostile or unlucky clients cost a broker (issue 27), odradek and Apache Kafka 4.3 in the
same run, one broker at a time:

    python -m bench limits [--brokers odradek,kafka] [--only storm,frames,lazy,create,refuse,group,streams,churn]

storm   RSS before, with and after N idle connections (each answered one ApiVersions)
frames  RSS growth while 30 connections declare 100 MiB requests and send 3 KB of them
lazy    RSS growth while 10 clients fetch 40 MB each and never read the answer
create  an ApiVersions ping every 100 ms from another client while one CreateTopics of
        10,000 topics (refused: 20,000 records), one of 4,999 (created) and a DeleteTopics of
        those 4,999 run: the answers, their times, ping p50 / p99 / max
refuse  the refused CreateTopics of 10,000 topics N times in a row (--refusals N, default 10),
        an ApiVersions ping every 100 ms from another client throughout: ping p50 / p99 / max
group   a classic group of N members (JoinGroup v3 on N connections, one LeaveGroup for all):
        RSS before, with the group (and per member), after it empties and the connections close;
        ping max; --group-storms K: K such groups one after another (RSS with and after each)
group848  a KIP-848 group of N members (--members, each on a connection of its own): N
        ConsumerGroupHeartbeat joins sent at once, one more heartbeat each once the assignment
        interval is over (the group's rebalance), then N leaves: the time and broker CPU of each
        phase, ping p50/p99/max; RSS before, with the group (and per member), after the leaves
churn   10 rounds of: 200 topics of 10 partitions created, a record in each partition, 200
        connections (a Metadata each), a classic group of 200 members joining and leaving, the
        previous round's topics deleted; RSS after each round (whether what a round leaves grows)
streams  a KIP-1071 streams group of N members (--members, each on a connection of its own): N
        StreamsGroupHeartbeat joins sent at once (a one-subtopology topology over a 64-partition
        topic, the group's streams.initial.rebalance.delay.ms 0, the broker's 1 s assignment
        interval), one more heartbeat each once the interval is over (the group's rebalance), then
        N leaves: time and broker CPU of each phase, ping p50/p99/max

The pings come from a process of their own, never delayed by the bench's own work. RSS is read
from /proc (the JVM's includes its 1 GiB heap as it touches it). Numbers go to stdout as a
markdown table per scenario (--json FILE: also as JSON); no assertion (tests assert outcomes,
not times).
--loop-blocks MS: odradek's event-loop busy periods of at least MS during each scenario, sampled
with py-spy (bench/loop_blocks.py; needs py-spy installed).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import select
import socket
import struct
import sys
import tempfile
import time

from bench.kafka_ref import BROKERS
from bench.loop_blocks import LoopBlocks

from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest

MB = 1 << 20


class Conn:
    """A raw protocol connection (odradek.wire as the client)."""

    def __init__(self, bootstrap: str, timeout: float = 120):
        host, _, port = bootstrap.rpartition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        self.corr = 0

    def send(self, request, version: int) -> int:
        self.corr += 1
        self.sock.sendall(encode_request(request, version, self.corr, client_id="limits-bench"))
        return self.corr

    def recv(self, api_key: int, version: int):
        return decode_response(self.frame(), api_key, version).body

    def frame(self) -> bytes:
        """The next response, undecoded (its header and body)."""
        size = struct.unpack(">i", self._read(4))[0]
        return self._read(size)

    def call(self, request, version: int):
        self.send(request, version)
        return self.recv(type(request).API_KEY, version)

    def _read(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed by the broker")
            buf += chunk
        return bytes(buf)

    def close(self) -> None:
        self.sock.close()


def settle_rss(b, bootstrap: str, seconds: float = 3.0) -> int:
    """RSS (kB) once the broker has handled what came before (a ping) and some time passed."""
    c = Conn(bootstrap)
    c.call(ApiVersionsRequest(), 0)
    c.close()
    time.sleep(seconds)
    return b.rss_kb()


class Pinger:
    """An ApiVersions (or ``request`` at ``version``) every `every` s on its own connection, from a
    process of its own (so that the bench's own work, e.g. encoding a 10,000-topic request or
    decoding its answer, never delays a ping); the round trips (ms)."""

    def __init__(self, bootstrap: str, every: float = 0.1, request=None, version: int = 0):
        ctx = multiprocessing.get_context("spawn")
        self.stop = ctx.Event()
        self.connected = ctx.Event()
        self.sent_at = ctx.Value("d", 0.0)  # time.monotonic() of the ping in flight, 0 if none
        self.samples, out = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_ping, args=(bootstrap, every, self.stop, self.connected, self.sent_at, out,
                                                    request, version), daemon=True)

    def start(self) -> None:
        self.proc.start()
        if not self.connected.wait(60):
            self.proc.kill()
            raise RuntimeError("the pinger did not connect")

    def finish(self) -> dict:
        """p50/p99/max of the pings; one still unanswered counts what it has waited so far."""
        self.stop.set()
        samples: list[float] = []
        while self.samples.poll(120):
            try:
                got = self.samples.recv()
            except EOFError:  # the pinger died (a ping unanswered for its socket's timeout)
                break
            if got is None:  # the pinger is done
                break
            samples.append(got)
        sent = self.sent_at.value
        if sent:
            samples.append((time.monotonic() - sent) * 1000)
        self.proc.kill()
        self.proc.join(10)
        s = sorted(samples)
        if not s:
            return {"pings": 0}
        return {"pings": len(s), "p50_ms": round(s[len(s) // 2], 1),
                "p99_ms": round(s[min(len(s) - 1, int(len(s) * 0.99))], 1), "max_ms": round(s[-1], 1)}


def _ping(bootstrap: str, every: float, stop, connected, sent_at, out, request=None, version: int = 0) -> None:
    """The pinger process: sends each round trip (ms) until told to stop, then None."""
    conn = Conn(bootstrap)
    connected.set()
    request = ApiVersionsRequest() if request is None else request
    while not stop.is_set():
        sent_at.value = t0 = time.monotonic()
        conn.call(request, version)
        sent_at.value = 0.0
        out.send((time.monotonic() - t0) * 1000)
        stop.wait(max(0.0, every - (time.monotonic() - t0)))
    out.send(None)
    conn.close()


# ------------------------------------------------------------------ scenarios


def storm(b, n: int = 2000) -> dict:
    before = settle_rss(b, b.bootstrap)
    conns = []
    for _ in range(n):
        c = Conn(b.bootstrap)
        c.call(ApiVersionsRequest(), 0)
        conns.append(c)
    during = settle_rss(b, b.bootstrap)
    for c in conns:
        c.close()
    after = settle_rss(b, b.bootstrap, 5.0)
    return {"connections": n, "rss_before_mb": before // 1024, "rss_with_mb": during // 1024,
            "rss_after_mb": after // 1024, "after_vs_before": round(after / before, 2)}


def frames(b, n: int = 30) -> dict:
    before = settle_rss(b, b.bootstrap)
    head = struct.pack(">hhi", 0, 9, 1) + struct.pack(">h", 4) + b"evil"  # a Produce v9's header
    socks = []
    for _ in range(n):
        s = socket.create_connection((b.host, b.port), timeout=10)
        s.sendall(struct.pack(">i", 100 * MB) + head)
        socks.append(s)
    for s in socks:
        s.sendall(b"x" * 3000)
    try:
        with_them = settle_rss(b, b.bootstrap, 1.0)
        answered = "yes"
    except (TimeoutError, ConnectionError) as e:  # (Kafka 4.3 with its defaults: see bench/RESULTS.md)
        with_them = b.rss_kb()
        answered = f"no ({type(e).__name__})"
    for s in socks:
        s.close()
    return {"connections": n, "declared_mb_each": 100, "rss_growth_mb": (with_them - before) // 1024,
            "ping_answered": answered}


def lazy(b, n: int = 10) -> dict:
    from confluent_kafka import Producer

    from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic

    topic = "lazy-readers"
    create(b.bootstrap, [topic], 1)
    p = Producer({"bootstrap.servers": b.bootstrap, "linger.ms": 5, "message.max.bytes": 1000000})
    for i in range(50):
        p.produce(topic, value=bytes([i]) * 800_000)
    p.flush(60)
    before = settle_rss(b, b.bootstrap)
    req = FetchRequest(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=50 * MB, isolation_level=0,
                       topics=[FetchTopic(topic=topic, partitions=[
                           FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=50 * MB)])])
    conns = []
    for _ in range(n):
        c = Conn(b.bootstrap)
        c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        c.send(req, 4)
        conns.append(c)
    with_them = settle_rss(b, b.bootstrap)
    for c in conns:
        c.close()
    return {"clients": n, "fetch_mb_each": 40, "rss_growth_mb": (with_them - before) // 1024}


def _timed(bootstrap: str, request, version: int, results) -> tuple[float, dict]:
    """The seconds an admin request took and its answers' error codes, counted."""
    c = Conn(bootstrap, timeout=600)
    t0 = time.perf_counter()
    r = c.call(request, version)
    took = time.perf_counter() - t0
    c.close()
    codes: dict = {}
    for t in results(r):
        codes[t.error_code] = codes.get(t.error_code, 0) + 1
    return took, codes


def create(bootstrap: str, names: list[str], partitions: int) -> tuple[float, dict]:
    topics = [CreatableTopic(name=n, num_partitions=partitions, replication_factor=1, assignments=[], configs=[])
              for n in names]
    return _timed(bootstrap, CreateTopicsRequest(topics=topics, timeout_ms=600000, validate_only=False), 7,
                  lambda r: r.topics)


def delete(bootstrap: str, names: list[str]) -> tuple[float, dict]:
    from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState

    return _timed(bootstrap, DeleteTopicsRequest(topics=[DeleteTopicState(name=n) for n in names],
                                                 timeout_ms=600000), 6, lambda r: r.responses)


def create_fairness(b) -> list[dict]:
    """CreateTopics of 10,000 (refused) and 4,999 topics, then DeleteTopics of the 4,999, each
    with an ApiVersions ping every 100 ms from another client."""
    rows = []
    created = [f"fair-4999-{i}" for i in range(4999)]
    for label, run in (("create 10,000 topics (refused)",
                        lambda: create(b.bootstrap, [f"fair-10000-{i}" for i in range(10000)], 1)),
                       ("create 4,999 topics", lambda: create(b.bootstrap, created, 1)),
                       ("delete those 4,999", lambda: delete(b.bootstrap, created))):
        pinger = Pinger(b.bootstrap)
        pinger.start()
        time.sleep(0.5)
        took, codes = run()
        time.sleep(0.3)
        rows.append({"request": label, "answered_s": round(took, 2), "error_codes": codes, **pinger.finish()})
    return rows


def refusals(b, n: int = 10) -> dict:
    """The refused CreateTopics of 10,000 topics n times in a row, one ApiVersions ping every 100 ms
    from another client throughout: the answers' median time, the pings' p50 / p99 / max over all
    (one refusal gives ~10 pings: too few for a p99 on a loaded machine)."""
    names = [f"fair-10000-{i}" for i in range(10000)]
    pinger = Pinger(b.bootstrap)
    pinger.start()
    time.sleep(0.5)
    took, codes = [], {}
    for _ in range(n):
        t, got = create(b.bootstrap, names, 1)
        took.append(t)
        for code, count in got.items():
            codes[code] = codes.get(code, 0) + count
    time.sleep(0.3)
    return {"requests": n, "answered_median_s": round(sorted(took)[n // 2], 2), "error_codes": codes,
            **pinger.finish()}


def find_coordinator(bootstrap: str, gid: str) -> None:
    """FindCoordinator until it answers (the offsets topic is created on first use)."""
    from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest

    c = Conn(bootstrap)
    for _ in range(100):
        if c.call(FindCoordinatorRequest(key=gid, key_type=0), 2).error_code == 0:
            break
        time.sleep(0.2)
    c.close()


def _group_storm(b, gid: str, n: int) -> tuple[list[str], int, int]:
    """N members join (each on a connection of its own) and are answered; -> their ids, the RSS (kB)
    with the group, the LeaveGroup's error code once one LeaveGroup removed them all and the
    connections closed."""
    from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
    from odradek.wire.messages.leave_group_request import LeaveGroupRequest, MemberIdentity

    join = JoinGroupRequest(group_id=gid, session_timeout_ms=120000, rebalance_timeout_ms=120000, member_id="",
                            protocol_type="consumer",
                            protocols=[JoinGroupRequestProtocol(name="range", metadata=b"\0" * 16)])
    conns = []
    for _ in range(n):
        m = Conn(b.bootstrap, timeout=600)
        m.send(join, 3)
        conns.append(m)
    members = []
    pending = {m.sock.fileno(): m for m in conns}
    poll = select.poll()
    for fd in pending:
        poll.register(fd, select.POLLIN)
    deadline = time.monotonic() + 600
    while pending and time.monotonic() < deadline:
        for fd, _ in poll.poll(1000):
            poll.unregister(fd)
            r = pending.pop(fd).recv(11, 3)
            members.append(r.member_id)
    with_group = b.rss_kb()
    lc = Conn(b.bootstrap, timeout=600)
    left = lc.call(LeaveGroupRequest(group_id=gid, members=[MemberIdentity(member_id=m) for m in members]), 3)
    lc.close()
    for m in conns:
        m.close()
    return members, with_group, left.error_code


def group(b, n: int = 10000, storms: int = 1) -> dict:
    """N members join one classic group (JoinGroup v3 on N connections, answered together once
    the group stabilises), then one LeaveGroup v3 removes them all and the connections close;
    `storms` times (--group-storms: whether what the first leaves behind grows with more)."""
    gid = "limits-bench-group"
    find_coordinator(b.bootstrap, gid)
    before = settle_rss(b, b.bootstrap)
    pinger = Pinger(b.bootstrap)
    pinger.start()
    withs, afters, joined, errors = [], [], [], []
    for _ in range(storms):
        members, with_group, error = _group_storm(b, gid, n)
        joined.append(len(members))
        errors.append(error)
        withs.append(with_group)
        afters.append(settle_rss(b, b.bootstrap, 5.0))
    row = {"members": n, "joined": min(joined), "leave_error": max(errors, key=abs),
           "rss_before_mb": before // 1024, "rss_with_group_mb": withs[0] // 1024,
           "kb_per_member": round((withs[0] - before) / n, 1),
           "rss_after_mb": afters[0] // 1024, "after_vs_before": round(afters[0] / before, 2)}
    if storms > 1:
        row["rss_with_group_each_mb"] = "/".join(str(w // 1024) for w in withs)
        row["rss_after_each_mb"] = "/".join(str(a // 1024) for a in afters)
    return {**row, **pinger.finish()}


def churn(b, rounds: int = 10, n: int = 200) -> dict:
    """`rounds` times: N topics of 10 partitions created and a record produced to each partition, N
    connections (a Metadata each, then closed), a classic group of N members joining and leaving,
    the previous round's topics deleted (each topic lives a round: its idle files parked, through
    collections); RSS once each round is over (settled): whether what a round leaves behind grows
    with the rounds (e.g. cyclic garbage among objects the collector no longer walks)."""
    from odradek.wire.messages.metadata_request import MetadataRequest
    from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from odradek.wire.records import build_batch

    gid = "limits-bench-churn"
    find_coordinator(b.bootstrap, gid)
    before = settle_rss(b, b.bootstrap)
    afters, previous = [], []
    for r in range(rounds):
        names = [f"churn-{r}-{i}" for i in range(n)]
        create(b.bootstrap, names, 10)
        batch = build_batch([(None, b"x" * 100, None, int(time.time() * 1000))])
        c = Conn(b.bootstrap, timeout=600)
        c.call(ProduceRequest(acks=1, timeout_ms=30000, topic_data=[
            TopicProduceData(name=t, partition_data=[PartitionProduceData(index=i, records=batch) for i in range(10)])
            for t in names]), 9)
        c.close()
        for _ in range(n):
            c = Conn(b.bootstrap)
            c.call(MetadataRequest(topics=None, allow_auto_topic_creation=False), 9)
            c.close()
        _group_storm(b, gid, n)
        if previous:
            delete(b.bootstrap, previous)
        previous = names
        afters.append(settle_rss(b, b.bootstrap, 2.0))
    return {"rounds": rounds, "topics_a_round": n, "rss_before_mb": before // 1024,
            "rss_after_each_mb": "/".join(str(a // 1024) for a in afters),
            "last_vs_second": round(afters[-1] / afters[1], 2) if rounds > 1 else None}


def _heartbeat_phase(b, members: dict, request_of, version: int, answered) -> tuple[float, float, dict]:
    """One request from every member (members: member id -> Conn), all sent at once, and their answers
    as they come (``answered(member id, response)``): (wall s, broker CPU s, {error code: count})."""
    cpu0, t0 = b.cpu_s(), time.monotonic()
    errors: dict = {}
    pending = {}
    poll = select.poll()
    api_key = None
    for mid, conn in members.items():
        request = request_of(mid)
        api_key = type(request).API_KEY
        conn.send(request, version)
        pending[conn.sock.fileno()] = mid
        poll.register(conn.sock.fileno(), select.POLLIN)
    deadline = time.monotonic() + 900
    while pending and time.monotonic() < deadline:
        for fd, _ in poll.poll(1000):
            poll.unregister(fd)
            mid = pending.pop(fd)
            r = members[mid].recv(api_key, version)
            errors[r.error_code] = errors.get(r.error_code, 0) + 1
            if r.error_code == 0:
                answered(mid, r)
    return round(time.monotonic() - t0, 2), round(b.cpu_s() - cpu0, 2), errors


def group848(b, n: int = 10000) -> dict:
    """N KIP-848 members join one group (ConsumerGroupHeartbeat v1, epoch 0, each on a connection of
    its own and all sent at once, as N consumers starting together), each heartbeats once more after
    the assignment interval, then each leaves."""
    from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest as Hb
    from odradek.wire.messages.consumer_group_heartbeat_request import TopicPartitions

    gid, topic = "limits-bench-group848", "limits-bench-848"
    create(b.bootstrap, [topic], 64)
    find_coordinator(b.bootstrap, gid)
    before = settle_rss(b, b.bootstrap)
    members = {f"member-{i:05d}-{os.urandom(4).hex()}": Conn(b.bootstrap, timeout=900) for i in range(n)}
    state: dict = {}  # member id -> (epoch, owned partitions)

    def answered(mid, r) -> None:
        owned = state.get(mid, (0, []))[1] if r.assignment is None else [
            TopicPartitions(topic_id=t.topic_id, partitions=list(t.partitions)) for t in r.assignment.topic_partitions]
        state[mid] = (r.member_epoch, owned)

    def phase(request_of) -> tuple[float, float, dict]:
        return _heartbeat_phase(b, members, request_of, 1, answered)

    pinger = Pinger(b.bootstrap)
    pinger.start()
    join_s, join_cpu, join_err = phase(lambda mid: Hb(
        group_id=gid, member_id=mid, member_epoch=0, rebalance_timeout_ms=60000, subscribed_topic_names=[topic],
        topic_partitions=[]))
    with_group = b.rss_kb()
    time.sleep(1.1)  # Kafka's group.consumer.assignment.interval.ms (1000) is over
    hb_s, hb_cpu, hb_err = phase(lambda mid: Hb(group_id=gid, member_id=mid, member_epoch=state[mid][0],
                                                topic_partitions=state[mid][1]))
    leave_s, leave_cpu, leave_err = phase(lambda mid: Hb(group_id=gid, member_id=mid, member_epoch=-1))
    for conn in members.values():
        conn.close()
    after = settle_rss(b, b.bootstrap, 5.0)
    return {"members": n, "rss_before_mb": before // 1024, "rss_with_group_mb": with_group // 1024,
            "kb_per_member": round((with_group - before) / n, 1), "rss_after_mb": after // 1024, "join_s": join_s, "join_cpu_s": join_cpu, "rebalance_s": hb_s, "rebalance_cpu_s": hb_cpu,
            "leave_s": leave_s, "leave_cpu_s": leave_cpu,
            "errors": {k: join_err.get(k, 0) + hb_err.get(k, 0) + leave_err.get(k, 0)
                       for k in {*join_err, *hb_err, *leave_err} if k},
            **pinger.finish()}


def streams(b, n: int = 10000) -> dict:
    """N KIP-1071 members join one streams group (StreamsGroupHeartbeat v0, epoch 0, each on a
    connection of its own, all sent at once), each heartbeats once more after the assignment
    interval, then each leaves. The group's own initial rebalance delay is 0 (IncrementalAlterConfigs)."""
    from odradek.wire.messages import streams_group_heartbeat_request as R
    from odradek.wire.messages.incremental_alter_configs_request import (
        AlterableConfig,
        AlterConfigsResource,
        IncrementalAlterConfigsRequest,
    )

    gid, topic = "limits-bench-streams", "limits-bench-streams-in"
    create(b.bootstrap, [topic], 64)
    find_coordinator(b.bootstrap, gid)
    admin = Conn(b.bootstrap, timeout=60)
    admin.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
        resource_type=32, resource_name=gid, configs=[
            AlterableConfig(name="streams.initial.rebalance.delay.ms", config_operation=0, value="0")])]), 1)
    admin.close()
    topology = R.Topology(epoch=0, subtopologies=[R.Subtopology(
        subtopology_id="0", source_topics=[topic], repartition_sink_topics=[], state_changelog_topics=[],
        repartition_source_topics=[], copartition_groups=[])])
    members = {f"member-{i:05d}-{os.urandom(4).hex()}": Conn(b.bootstrap, timeout=900) for i in range(n)}
    state: dict = {}  # member id -> (epoch, owned active tasks)

    def answered(mid, r) -> None:
        owned = state.get(mid, (0, []))[1] if r.active_tasks is None else [
            R.TaskIds(subtopology_id=t.subtopology_id, partitions=list(t.partitions)) for t in r.active_tasks]
        state[mid] = (r.member_epoch, owned)

    def phase(request_of) -> tuple[float, float, dict]:
        return _heartbeat_phase(b, members, request_of, 0, answered)

    pinger = Pinger(b.bootstrap)
    pinger.start()
    join_s, join_cpu, join_err = phase(lambda mid: R.StreamsGroupHeartbeatRequest(
        group_id=gid, member_id=mid, member_epoch=0, endpoint_information_epoch=0, rebalance_timeout_ms=60000,
        topology=topology, active_tasks=[], standby_tasks=[], warmup_tasks=[], process_id=mid, client_tags=[]))
    time.sleep(1.1)  # the broker's group.streams.assignment.interval.ms (1000) is over
    hb_s, hb_cpu, hb_err = phase(lambda mid: R.StreamsGroupHeartbeatRequest(
        group_id=gid, member_id=mid, member_epoch=state[mid][0], endpoint_information_epoch=0,
        active_tasks=state[mid][1], standby_tasks=[], warmup_tasks=[]))
    leave_s, leave_cpu, leave_err = phase(lambda mid: R.StreamsGroupHeartbeatRequest(
        group_id=gid, member_id=mid, member_epoch=-1, endpoint_information_epoch=0))
    for conn in members.values():
        conn.close()
    return {"members": n, "join_s": join_s, "join_cpu_s": join_cpu, "heartbeat_s": hb_s, "heartbeat_cpu_s": hb_cpu,
            "leave_s": leave_s, "leave_cpu_s": leave_cpu,
            "errors": {k: join_err.get(k, 0) + hb_err.get(k, 0) + leave_err.get(k, 0)
                       for k in {*join_err, *hb_err, *leave_err} if k},
            **pinger.finish()}


SCENARIOS = {"storm": storm, "frames": frames, "lazy": lazy, "create": create_fairness, "refuse": refusals,
             "group": group, "group848": group848, "streams": streams, "churn": churn}


def table(name: str, rows: list[dict]) -> str:
    cols = list(dict.fromkeys(k for r in rows for k in r))
    out = [f"### {name}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(r.get(k, "")) for k in cols) + " |" for r in rows]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench limits")
    ap.add_argument("--brokers", default="odradek,kafka")
    ap.add_argument("--only", default=",".join(SCENARIOS))
    ap.add_argument("--storm", type=int, default=2000, help="connections of the storm scenario")
    ap.add_argument("--members", type=int, default=10000,
                    help="members of the group, group848 and streams scenarios")
    ap.add_argument("--group-storms", type=int, default=1, help="the group scenario's storms, one after another")
    ap.add_argument("--refusals", type=int, default=10, help="refused CreateTopics of the refuse scenario")
    ap.add_argument("--json", default=None, metavar="FILE", help="also write the results as JSON to FILE")
    ap.add_argument("--loop-blocks", type=float, default=None, metavar="MS",
                    help="list odradek's event-loop busy periods of at least MS (py-spy)")
    args = ap.parse_args(argv)
    if args.loop_blocks is not None and not LoopBlocks.available():
        ap.error("--loop-blocks needs py-spy (pip install py-spy)")
    reports: list[str] = []
    results: dict[str, list[dict]] = {}
    for kind in args.brokers.split(","):
        for name in args.only.split(","):
            with tempfile.TemporaryDirectory(prefix=f"limits-{kind}-") as d:
                # a fresh broker per scenario: each starts from the same state; the group's members
                # all join within Kafka's default initial rebalance delay (each join extends it 3 s)
                extra = {"group.initial.rebalance.delay.ms": "3000"} if name in ("group", "churn") else None
                b = BROKERS[kind](d, extra=extra)
                b.start()
                try:
                    print(f"{kind} {name} ...", file=sys.stderr, flush=True)
                    fn = SCENARIOS[name]
                    sampled = args.loop_blocks is not None and kind == "odradek"
                    blocks = LoopBlocks(b.pid, args.loop_blocks) if sampled else contextlib.nullcontext()
                    with blocks:
                        if name == "storm":
                            got = fn(b, args.storm)
                        elif name == "group":
                            got = fn(b, args.members, args.group_storms)
                        elif name in ("group848", "streams"):
                            got = fn(b, args.members)
                        elif name == "refuse":
                            got = fn(b, args.refusals)
                        else:
                            got = fn(b)
                    if sampled:
                        reports.append(f"{name}: " + blocks.report())
                finally:
                    b.stop()
            for row in got if isinstance(got, list) else [got]:
                results.setdefault(name, []).append({"broker": kind, **row})
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    for name, rows in results.items():
        print(table(name, rows) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load_average": round(os.getloadavg()[0], 1), "cpus": os.cpu_count(), **results}, f, indent=1)
    for r in reports:
        print(r + "\n")
    return 0
