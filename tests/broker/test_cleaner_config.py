"""log.cleaner.dedupe.buffer.size, log.cleaner.io.buffer.load.factor and log.cleaner.threads:
Kafka 4.3's defaults, its start-up check (at least 1 MiB per cleaner thread), settable with
`odradek serve --override`, shown by DescribeConfigs on the broker as Kafka shows them
(types, defaults, cluster-wide dynamic so not read-only, documentation), and the broker's
cleaner sized from them."""

import pytest

from odradek.cli import build_config, make_parser
from odradek.config import BrokerConfig, ConfigError
from odradek.controller.configs import (BROKER, DEFAULT_CONFIG, STATIC_BROKER_CONFIG, T_DOUBLE, T_INT,
                                        T_LONG)
from odradek.controller.controller import Controller
from odradek.controller.image import BrokerImage
from odradek.log import CleanerConfig

NAMES = ("log.cleaner.dedupe.buffer.size", "log.cleaner.io.buffer.load.factor", "log.cleaner.threads")


def test_kafka_defaults():
    c = BrokerConfig.from_properties({})
    assert (c.log_cleaner_dedupe_buffer_size, c.log_cleaner_io_buffer_load_factor, c.log_cleaner_threads) == \
        (134217728, 0.9, 1)
    assert c.cleaner_config() == CleanerConfig() == CleanerConfig(134217728, 0.9, 1)


def test_override_on_the_command_line():
    args = make_parser().parse_args(["serve", "--override", "log.cleaner.dedupe.buffer.size=4194304",
                                     "--override", "log.cleaner.io.buffer.load.factor=0.75",
                                     "--override", "log.cleaner.threads=2"])
    c = build_config(args)
    cc = c.cleaner_config()
    assert (cc.dedupe_buffer_size, cc.dedupe_buffer_load_factor, cc.threads) == (4194304, 0.75, 2)
    assert cc.offset_map_memory == 2097152 and cc.slots == 87381 and cc.max_map_size == int(87381 * 0.75)


@pytest.mark.parametrize("props,needle", [
    # KafkaConfig: require(logCleanerDedupeBufferSize / logCleanerThreads > 1024 * 1024)
    ({"log.cleaner.dedupe.buffer.size": "1048576"},
     "log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."),
    ({"log.cleaner.dedupe.buffer.size": "4194304", "log.cleaner.threads": "4"},
     "log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."),
    ({"log.cleaner.dedupe.buffer.size": "-1"}, "at least 1MB per cleaner thread"),
    ({"log.cleaner.threads": "0"}, "log.cleaner.threads"),
    ({"log.cleaner.threads": "-1"}, "log.cleaner.threads"),
    ({"log.cleaner.dedupe.buffer.size": "lots"}, "log.cleaner.dedupe.buffer.size"),
    ({"log.cleaner.io.buffer.load.factor": "most"}, "log.cleaner.io.buffer.load.factor"),
])
def test_bad_values_refused_at_start(props, needle):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties(props)
    assert needle in str(e.value)


def test_smallest_buffer_kafka_accepts():
    c = BrokerConfig.from_properties({"log.cleaner.dedupe.buffer.size": str(4 * 1048576 + 4),
                                      "log.cleaner.threads": "4"})
    assert c.cleaner_config().offset_map_memory == 1048577


def _describe(props, tmp_path, docs=False):
    cfg = BrokerConfig.from_properties(props)
    c = Controller(str(tmp_path / "meta"), 1, cfg.controller_defaults(), 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    try:
        [d] = c.describe_configs([(BROKER, "1", None)], include_synonyms=True, include_documentation=docs)
        return {v.name: v for v in d.configs}
    finally:
        c.close()


def test_describe_configs_shows_kafka_defaults_types_and_docs(tmp_path):
    v = _describe({}, tmp_path, docs=True)
    want = {"log.cleaner.dedupe.buffer.size": ("134217728", T_LONG),
            "log.cleaner.io.buffer.load.factor": ("0.9", T_DOUBLE),
            "log.cleaner.threads": ("1", T_INT)}
    for name, (value, ctype) in want.items():
        x = v[name]
        assert (x.value, x.config_source, x.config_type, x.read_only) == (value, DEFAULT_CONFIG, ctype, False)
        assert x.synonyms == ((name, value, DEFAULT_CONFIG),)
    assert v["log.cleaner.dedupe.buffer.size"].documentation == \
        "The total memory used for log deduplication across all cleaner threads"
    assert v["log.cleaner.io.buffer.load.factor"].documentation.startswith(
        "Log cleaner dedupe buffer load factor. The percentage full the dedupe buffer can become.")
    assert v["log.cleaner.threads"].documentation == "The number of background threads to use for log cleaning"
    assert all(x.documentation is None for x in _describe({}, tmp_path / "b").values())


def test_describe_configs_shows_overrides_as_static(tmp_path):
    v = _describe({"log.cleaner.dedupe.buffer.size": "8388608", "log.cleaner.threads": "2"}, tmp_path)
    x = v["log.cleaner.dedupe.buffer.size"]
    assert (x.value, x.config_source) == ("8388608", STATIC_BROKER_CONFIG)
    assert x.synonyms == (("log.cleaner.dedupe.buffer.size", "8388608", STATIC_BROKER_CONFIG),
                          ("log.cleaner.dedupe.buffer.size", "134217728", DEFAULT_CONFIG))
    assert (v["log.cleaner.threads"].value, v["log.cleaner.threads"].config_source) == ("2", STATIC_BROKER_CONFIG)
    assert (v["log.cleaner.io.buffer.load.factor"].value,
            v["log.cleaner.io.buffer.load.factor"].config_source) == ("0.9", DEFAULT_CONFIG)


def test_broker_sizes_its_cleaner_from_the_config(tmp_path):
    from odradek.broker.broker import Broker

    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(tmp_path),
                                        "log.cleaner.dedupe.buffer.size": "3145728",
                                        "log.cleaner.io.buffer.load.factor": "0.5"})
    b = Broker(cfg, lambda: 1_000_000, lambda delay, fn: None)
    b.start()
    try:
        assert b.log_manager.cleaner.config == CleanerConfig(3145728, 0.5, 1)
        assert b.log_manager.cleaner.config.max_map_size == 3145728 // 24 // 2
    finally:
        b.close()
