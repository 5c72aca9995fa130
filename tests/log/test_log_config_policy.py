"""cleanup.policy="" is valid on Kafka 4.x (IncrementalAlterConfigs SUBTRACT of the last policy
leaves it empty; DescribeConfigs then shows ""): neither delete nor compact, so the log is
cleaned neither by retention nor by compaction. The log layer rejected it, and the alter
from confluent-kafka's test_incremental_alter_configs failed with UNKNOWN_SERVER_ERROR."""

import pytest

from odradek.log.config import ConfigError, LogConfig


def test_empty_cleanup_policy_is_neither_delete_nor_compact():
    cfg = LogConfig.from_properties({"cleanup.policy": ""})
    assert cfg.cleanup_policy == ()
    assert not cfg.delete and not cfg.compact


def test_bad_cleanup_policy_still_rejected():
    with pytest.raises(ConfigError):
        LogConfig.from_properties({"cleanup.policy": "delete,bogus"})
