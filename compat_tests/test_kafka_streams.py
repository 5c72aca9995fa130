"""A real Kafka Streams 4.3 application against the broker, with exact outcomes.

compat_tests/java-streams is a Maven project of its own (kafka-streams 4.3.0 needs kafka-clients
4.3, while compat_tests/java is also built for 3.9.2). StreamsCheck runs word count (repartition +
changelog), a KStream-KTable join with a count per region and a windowed count, fed by a plain
producer in four batches, while the application changes shape: one instance, a second joins
(tasks move, state restored from the changelogs), the first leaves, then a fresh instance on an
empty state dir (stores checked through interactive queries); under exactly_once_v2 a member in
another JVM then takes half the tasks and dies mid-batch with its transaction open (the broker
aborts it on its timeout), and the survivor's outputs are still exact. After each batch the output topics,
read_committed, hold exactly the expected final count per key. It also checks the internal topics
Streams created (CreateTopics with cleanup.policy, retention.ms, segment.bytes,
message.timestamp.type), that it purged its repartition topics (DeleteRecords), the group's
committed offsets and the output's transaction markers; then Kafka's reset tool (StreamsResetter)
deletes the internal topics and rewinds the inputs, and a new instance recounts everything to the
same exact state (its restored stores are read through interactive queries). It runs under
processing.guarantee=exactly_once_v2 and at_least_once with the classic group protocol, and under
at_least_once with group.protocol=streams (KIP-1071, served by Kafka 4.3; on a broker that does not
advertise StreamsGroupHeartbeat those checks are strict xfails); each check is a test.
Passes against Kafka 4.3 too: `python compat_tests/run_against_kafka.py -q -k kafka_streams`.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator

import pytest

import builds
from harness import CheckProgram, RawClient, assert_check_passed, assert_exit_code_matches

# (processing.guarantee, group.protocol): classic groups under both guarantees, and the streams
# rebalance protocol (KIP-1071, on by default in Kafka 4.3) under at_least_once
MODES = [("eos", "classic"), ("alos", "classic"), ("alos", "streams")]
CHECKS = [
    "streams.firstInstance",
    "streams.internalTopics",
    "streams.secondInstanceJoins",
    "streams.firstInstanceLeaves",
    "streams.freshInstanceRestoresState",
    "streams.crashedInstanceReplaced",
    "streams.repartitionTopicsPurged",
    "streams.committedOffsets",
    "streams.outputTransactions",
    "streams.noDuplicateOutput",
    "streams.resetTool",
    "streams.reprocessAfterReset",
]
# a joining or leaving Streams member is seen at once, not after a 3 s initial delay
BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "0"}

pytestmark = pytest.mark.skipif(shutil.which("mvn") is None or shutil.which("java") is None,
                                reason="needs Java 17 and Maven")


@pytest.fixture(scope="session")
def streams_classpath() -> str:
    """Compile StreamsCheck (Maven: ~/.m2 offline first, online only when something is missing)."""
    t0 = time.monotonic()
    cp = builds.streams_classpath()
    print(f"\njava-streams build: {time.monotonic() - t0:.1f}s")
    return cp


@pytest.fixture(scope="module")
def streams_programs(streams_classpath, bootstrap) -> Iterator[dict[tuple[str, str], CheckProgram]]:
    """StreamsCheck started once per mode, all at once: each run mostly waits (on its members' joins,
    rebalances, commits and the crashed member's session and transaction timeouts), and each works on
    topics and groups of its own (a random prefix), so the three waits overlap."""
    programs = {(guarantee, protocol): CheckProgram(
        ["java", *builds.CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", streams_classpath,
         "odradek.compat.streams.StreamsCheck", bootstrap, guarantee, protocol]) for guarantee, protocol in MODES}
    try:
        yield programs
    finally:
        for program in programs.values():
            program.kill()


@pytest.fixture(scope="module", params=MODES, ids=["-".join(m) for m in MODES])
def streams_results(request, streams_programs, bootstrap) -> dict[str, str]:
    """StreamsCheck's results in one mode: {check name: "PASS" or the failure line}."""
    guarantee, protocol = request.param
    results = dict(streams_programs[request.param].results())
    results["_mode"], results["_protocol"] = guarantee, protocol
    results["_streams_api"] = protocol != "streams" or _advertises(bootstrap, STREAMS_GROUP_HEARTBEAT)
    return results


# at_least_once promises no exact counts across a crash: the crash check runs under exactly_once_v2 only
EOS_ONLY = {"streams.crashedInstanceReplaced"}
STREAMS_GROUP_HEARTBEAT = 88


def _advertises(bootstrap: str, api_key: int) -> bool:
    from odradek.wire.messages.api_versions_request import ApiVersionsRequest

    c = RawClient(bootstrap)
    try:
        return any(k.api_key == api_key for k in c.call(ApiVersionsRequest(), 0).api_keys)
    finally:
        c.close()


def _known_gap(request, streams_results):
    """group.protocol=streams needs the broker's streams groups (KIP-1071): a broker that does not
    advertise StreamsGroupHeartbeat is expected to fail it (strict: an error once it passes)."""
    if streams_results["_protocol"] == "streams" and not streams_results["_streams_api"]:
        request.applymarker(pytest.mark.xfail(reason="no StreamsGroupHeartbeat (KIP-1071 streams groups): the "
                                                     "Streams client stops with UnsupportedVersionException",
                                              strict=True))


@pytest.mark.parametrize("check", CHECKS)
def test_kafka_streams_check(streams_results, check, request):
    if check in EOS_ONLY and streams_results["_mode"] != "eos":
        pytest.skip("exactly_once_v2 only")
    _known_gap(request, streams_results)
    assert_check_passed(streams_results, check)


def test_kafka_streams_exit_code(streams_results):
    assert_exit_code_matches(streams_results)
