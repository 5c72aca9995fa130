"""The group coordinator's broker bounds as Kafka 4.3 has them (GroupCoordinatorConfig): `odradek serve`
refuses a share-group heartbeat interval under group.share.min.heartbeat.interval.ms with Kafka's message
(exit code 2, one line, as every configuration error); lowered together with its minimum it starts, the
minimum is used (not reported unused) and it bounds a share group's share.heartbeat.interval.ms, whose
IncrementalAlterConfigs answer is Kafka's (INVALID_CONFIG, same message as Kafka 4.3 gives), as is the
answer to a group whose session timeout would not be above its heartbeat interval. (This module's broker
checks pass against Kafka 4.3 started with BROKER_OVERRIDES: `--bootstrap`.)"""

from __future__ import annotations

import subprocess
import sys

import confluent_kafka as ck
import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource
from harness import REPO, free_port

BROKER_OVERRIDES = {"group.share.heartbeat.interval.ms": "1000", "group.share.min.heartbeat.interval.ms": "1000",
                    "group.share.min.session.timeout.ms": "2000"}


def test_serve_refuses_a_heartbeat_interval_under_its_minimum(tmp_path):
    r = subprocess.run([sys.executable, "-m", "odradek", "serve", "--data-dir", str(tmp_path), "--port",
                        str(free_port()), "--override", "group.share.heartbeat.interval.ms=1000"],
                       capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert "Traceback" not in r.stderr and r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.splitlines() == ["odradek: configuration error: group.share.heartbeat.interval.ms must be "
                                     "greater than or equal to group.share.min.heartbeat.interval.ms"]


def _set(admin: AdminClient, group: str, name: str, value: str) -> None:
    res = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=[
        ConfigEntry(name, value, incremental_operation=AlterConfigOpType.SET)])
    for f in admin.incremental_alter_configs([res], request_timeout=10).values():
        f.result()


def test_the_lowered_minimum_is_used_and_bounds_the_group_config(broker, bootstrap):
    if broker.controllable:
        assert not any("not used" in line for line in broker.output), "".join(broker.output)
    admin = AdminClient({"bootstrap.servers": bootstrap})
    _set(admin, "gcfg-share", "share.heartbeat.interval.ms", "1000")
    res = ConfigResource(ConfigResource.Type.GROUP, "gcfg-share")
    configs = admin.describe_configs([res], request_timeout=10)[res].result()
    assert (configs["share.heartbeat.interval.ms"].value, configs["share.heartbeat.interval.ms"].source) == ("1000", 8)
    with pytest.raises(KafkaException) as e:
        _set(admin, "gcfg-share", "share.heartbeat.interval.ms", "999")
    err = e.value.args[0]
    assert err.code() == ck.KafkaError.INVALID_CONFIG
    assert err.str() == ("share.heartbeat.interval.ms must be greater than or equal to "
                         "group.share.min.heartbeat.interval.ms")


def test_a_groups_session_timeout_must_stay_above_its_heartbeat_interval(bootstrap):
    admin = AdminClient({"bootstrap.servers": bootstrap})
    _set(admin, "gcfg-pair", "share.session.timeout.ms", "2000")  # above the broker's interval (1000)
    with pytest.raises(KafkaException) as e:
        _set(admin, "gcfg-pair", "share.heartbeat.interval.ms", "2000")
    err = e.value.args[0]
    assert (err.code(), err.str()) == (ck.KafkaError.INVALID_CONFIG,
                                       "share.session.timeout.ms must be greater than share.heartbeat.interval.ms")


def test_the_broker_lists_its_group_coordinator_properties_as_kafka(bootstrap):
    """DescribeConfigs on the broker lists each group.* property odradek reads with its value (Kafka 4.3 lists
    the same values for the same server properties: compared with kafka-configs --describe --all)."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    md = admin.list_topics(timeout=10)
    res = ConfigResource(ConfigResource.Type.BROKER, str(next(iter(md.brokers))))
    configs = admin.describe_configs([res], request_timeout=10)[res].result()
    got = {k: configs[k].value for k in ("group.share.min.heartbeat.interval.ms", "group.share.heartbeat.interval.ms",
                                         "group.share.max.partition.max.record.locks", "group.consumer.min.session.timeout.ms",
                                         "group.streams.max.standby.replicas", "group.share.max.share.sessions")}
    assert got == {"group.share.min.heartbeat.interval.ms": "1000", "group.share.heartbeat.interval.ms": "1000",
                   "group.share.max.partition.max.record.locks": "4000", "group.consumer.min.session.timeout.ms": "45000",
                   "group.streams.max.standby.replicas": "2", "group.share.max.share.sessions": "2000"}
