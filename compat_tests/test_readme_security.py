"""The README's SASL_SSL + ACL set-up, run as written: its server.properties starts odradek (only the
host, port and file paths replaced), its admin commands run with Kafka 4.3's tools and its
admin.properties (kafka-configs for a SCRAM user and a quota, kafka-topics, kafka-acls --producer
--consumer), and its client settings work: Kafka's console producer and consumer with
client.properties, confluent-kafka with the librdkafka settings. The user may use only what the
ACLs give (another topic is refused), and kafka-configs --describe shows the user's SCRAM
credential and quota."""

from __future__ import annotations

import re
import shlex
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, Producer

from harness import REPO, BrokerProcess, free_port, kafka_tool
from tls_certs import TestCA

README = REPO / "README.md"


def blocks() -> dict[str, str]:
    """The README's code blocks marked <!-- readme-test: NAME -->."""
    text = README.read_text()
    return {m.group(1): m.group(2) for m in re.finditer(r"<!-- readme-test: (\S+) -->\n```\n(.*?)```", text, re.S)}


def properties(text: str) -> dict[str, str]:
    joined = re.sub(r"\\\n\s*", "", text)
    return dict(line.split("=", 1) for line in joined.splitlines() if line.strip() and not line.startswith("#"))


class Setup:
    def __init__(self, root: Path):
        self.port = free_port()
        ca = TestCA(root)
        self.ca_file = ca.ca_file
        self.subs = {"0.0.0.0:9094": f"127.0.0.1:{self.port}", "broker1.example:9094": f"localhost:{self.port}",
                     "/etc/odradek/broker.pem": str(ca.keystore_pem("broker", "localhost", "broker-key-secret")),
                     "/etc/odradek/ca.pem": str(ca.ca_file)}
        self.blocks = {name: self.local(text) for name, text in blocks().items()}
        self.root = root

    def local(self, text: str) -> str:
        for a, b in self.subs.items():
            text = text.replace(a, b)
        return text

    def file(self, name: str) -> str:
        path = self.root / name
        path.write_text(self.blocks[name])
        return str(path)

    @property
    def bootstrap(self) -> str:
        return f"localhost:{self.port}"


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    s = Setup(tmp_path_factory.mktemp("readme-security"))
    assert set(s.blocks) == {"server.properties", "admin.properties", "admin-commands", "client.properties",
                             "librdkafka"}
    b = BrokerProcess(str(s.root / "data"), properties(s.blocks["server.properties"]), port=s.port)
    b.start()
    try:
        yield s
    finally:
        b.stop()


def test_the_readme_set_up_works(setup):
    admin = setup.file("admin.properties")
    client = setup.file("client.properties")
    commands = re.sub(r"\\\n\s*", "", setup.blocks["admin-commands"]).splitlines()
    for command in commands:
        tool, *args = shlex.split(command.replace("admin.properties", admin))
        r = kafka_tool(tool.removeprefix("kafka-").removesuffix(".sh"), *args)
        assert r.returncode == 0, f"{command}\n{r.stdout}\n{r.stderr}"
    described = kafka_tool("configs", "--bootstrap-server", setup.bootstrap, "--command-config", admin,
                           "--describe", "--entity-type", "users", "--entity-name", "alice")
    assert "SCRAM-SHA-512=iterations=4096" in described.stdout, described.stdout + described.stderr
    assert "producer_byte_rate=1048576" in described.stdout, described.stdout + described.stderr

    # Kafka's console producer and consumer with client.properties (alice, SCRAM-SHA-512)
    value = f"order-{uuid.uuid4().hex[:6]}"
    r = kafka_tool("console-producer", "--bootstrap-server", setup.bootstrap, "--command-config", client,
                   "--topic", "orders", stdin=value + "\n", timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    r = kafka_tool("console-consumer", "--bootstrap-server", setup.bootstrap, "--command-config", client,
                   "--topic", "orders", "--group", "orders-app", "--from-beginning", "--max-messages", "1",
                   "--timeout-ms", "60000")
    assert r.returncode == 0 and value in r.stdout.splitlines(), r.stdout + r.stderr

    # confluent-kafka with the librdkafka settings: produce to the topic and read on in the group (from
    # the console consumer's committed offset); another topic is refused
    conf = properties(setup.blocks["librdkafka"])
    p = Producer(conf)
    p.produce("orders", b"from-librdkafka")
    assert p.flush(30) == 0
    c = Consumer({**conf, "group.id": "orders-app", "auto.offset.reset": "earliest"})
    c.subscribe(["orders"])
    got = []
    deadline = time.monotonic() + 60
    while b"from-librdkafka" not in got and time.monotonic() < deadline:
        m = c.poll(1)
        if m is not None and m.error() is None:
            got.append(m.value())
    c.close()
    assert got == [b"from-librdkafka"]
    errors = []
    p = Producer({**conf, "message.timeout.ms": 10000})
    p.produce("payments", b"no", on_delivery=lambda err, msg: errors.append(err))
    p.flush(20)
    assert errors and errors[0] is not None and errors[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, errors
