"""DescribeConfigs on a broker: types and read-only flags as Kafka 4.3 reports them (diffed
against the reference broker with kafka-python's describe_configs(config_filter='all')):
listeners is per-broker dynamic (read_only false); the *.hours / *.minutes retention and roll
synonyms are not dynamic (read_only true, only their *.ms forms are); advertised.listeners,
log.dir(s) are LISTs; group.* timeouts INT and log.cleaner.enable BOOLEAN when set."""

from odradek.controller.configs import BROKER
from odradek.controller.configs import T_BOOLEAN, T_INT, T_LIST
from odradek.controller.controller import Controller
from odradek.controller.image import BrokerImage


def test_broker_config_types_and_read_only(tmp_path):
    defaults = {"listeners": "PLAINTEXT://127.0.0.1:9092", "advertised.listeners": "PLAINTEXT://127.0.0.1:9092",
                "log.dirs": "/tmp/x", "group.initial.rebalance.delay.ms": "0",
                "group.min.session.timeout.ms": "1000", "log.cleaner.enable": "false", "log.retention.hours": "24"}
    c = Controller(str(tmp_path / "meta"), 1, defaults, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    try:
        [d] = c.describe_configs([(BROKER, "1", None)])
        v = {x.name: x for x in d.configs}
        assert v["listeners"].read_only is False
        assert v["advertised.listeners"].read_only is True
        for k in ("log.retention.hours", "log.retention.minutes", "log.roll.hours", "log.roll.jitter.hours"):
            assert v[k].read_only is True, k
        assert v["log.retention.ms"].read_only is False
        for k in ("advertised.listeners", "log.dirs", "log.dir"):
            assert v[k].config_type == T_LIST, k
        assert v["group.initial.rebalance.delay.ms"].config_type == T_INT
        assert v["group.min.session.timeout.ms"].config_type == T_INT
        assert v["log.cleaner.enable"].config_type == T_BOOLEAN
    finally:
        c.close()
