"""segmentio/kafka-go's own integration tests (its root package's _test.go files, builds.KAFKA_GO_VERSION)
against the broker, as kafka-go's CI runs them against Kafka: KAFKA_VERSION=4.3.0, KAFKA_SKIP_NETTEST=1
(its Makefile), a broker on localhost:9092 with auto.create.topics.enable (Kafka's default) and
message.max.bytes=200000000 as its docker-compose sets them.

The tests name localhost:9092 themselves, so this module's broker listens there: the module is skipped
when the port is taken (a local Kafka), and xdist runs a module in one worker (--dist loadscope). The
tests run are a chosen subset (TESTS, a few seconds: the Client API's admin, produce, fetch, offsets,
group, ACL and SCRAM calls); ODRADEK_KAFKA_GO=all adds the Writer's, the Reader's and the consumer
group's tests and the slower Client ones (~70 s more, so not in CI by default). The whole suite
(also its SASL tests on localhost:9093, ~3 min, passing on odradek and on Kafka 4.3 alike but for its
timing-sensitive ones) is run by hand the same way: `.cache/kafka-go/kafka-go-*.test -test.v`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

import builds
from odradek.testing.ports import ports_free

BROKER_OVERRIDES = {  # its docker-compose's broker: PLAINTEXT and SASL (PLAIN) as localhost, ACLs allowing all
    "listeners": "PLAINTEXT://127.0.0.1:9092,SASL_PLAINTEXT://127.0.0.1:9093",
    "advertised.listeners": "PLAINTEXT://localhost:9092,SASL_PLAINTEXT://localhost:9093",
    "sasl.enabled.mechanisms": "PLAIN",
    "listener.name.sasl_plaintext.plain.sasl.jaas.config":
        'org.apache.kafka.common.security.plain.PlainLoginModule required user_adminplain="admin-secret";',
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "allow.everyone.if.no.acl.found": "true", "super.users": "User:adminplain",
    "message.max.bytes": "200000000",
}
# the quick ones (a few seconds in all), run by default
TESTS = [
    "TestClientApiVersions", "TestClientCreateTopics", "TestClientMetadata", "TestClientProduce",
    "TestClientProduceCompressed", "TestClientRawProduce", "TestClientFetch", "TestClientFetchCompressed",
    "TestClientListOffsets", "TestClientDescribeConfigs", "TestClientAlterConfigs",
    "TestClientIncrementalAlterConfigs", "TestClientCreateACLs", "TestClientDeleteACLs", "TestClientOffsetCommit",
    "TestClientDeleteOffset", "TestClientFindCoordinator", "TestClientJoinGroup", "TestClientHeartbeat",
    "TestClientLeaveGroup", "TestClientProduceAndConsume", "TestAlterUserScramCredentials",
    "TestDescribeUserScramCredentials", "TestBatchDontExpectEOF", "TestConnCreateTopics",
]
# ~70 s more (the Writer's and Reader's subtests wait on their batch timeouts): ODRADEK_KAFKA_GO=all
if os.environ.get("ODRADEK_KAFKA_GO") == "all":
    TESTS += ["TestClientDeleteTopics", "TestClientListGroups", "TestClientCreatePartitions",
              "TestClientAlterClientQuotas", "TestWriter", "TestReader", "TestConsumerGroup"]
RESULT = re.compile(r"^--- (PASS|FAIL|SKIP): (\S+)")

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs Go")


@pytest.fixture(scope="module")
def kafka_go_results(request) -> dict[str, str]:
    """test name -> PASS / FAIL / SKIP with its output, from one run of the chosen tests."""
    external = request.config.getoption("--bootstrap")
    if external and external.rpartition(":")[2] != "9092":
        pytest.skip("kafka-go's tests dial localhost:9092: give --bootstrap 127.0.0.1:9092")
    if not external and not ports_free([9092, 9093]):
        pytest.skip("kafka-go's tests dial localhost:9092 and 9093, one of which is taken")
    binary = builds.kafka_go_test_binary()
    request.getfixturevalue("bootstrap")  # the module's broker, on 9092
    env = {**os.environ, "KAFKA_VERSION": "4.3.0", "KAFKA_SKIP_NETTEST": "1"}
    r = subprocess.run([str(binary), "-test.v", "-test.count=1", "-test.timeout=300s",
                        "-test.run", "^(" + "|".join(TESTS) + ")$"],
                       cwd=binary.parent / f"src-{builds.KAFKA_GO_VERSION}", env=env, capture_output=True,
                       text=True, timeout=400)
    results = {m.group(2): m.group(1) for m in map(RESULT.match, r.stdout.splitlines()) if m}
    results["output"] = r.stdout[-20000:] + r.stderr[-5000:]
    return results


@pytest.mark.parametrize("test", TESTS)
def test_kafka_go(kafka_go_results, test):
    outcome = kafka_go_results.get(test)
    assert outcome == "PASS", f"kafka-go {test}: {outcome}\n{kafka_go_results['output']}"
