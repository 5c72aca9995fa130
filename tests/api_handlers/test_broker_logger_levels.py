"""The BROKER_LOGGER resource on Python's logging: a level set is the logger's from then on (what it
lets through), a deleted one follows its parent again, validate_only changes nothing, the root's
cannot be deleted (compat_tests/test_broker_loggers.py checks the answers against Kafka 4.3; named apart from it: pytest imports both by file name)."""

import logging

import pytest

from odradek.api_handlers import broker_loggers as bl


@pytest.fixture
def logger():
    lg = logging.getLogger("odradek.test_broker_loggers")
    yield lg
    lg.setLevel(logging.NOTSET)


def test_a_level_set_is_the_loggers_and_a_deleted_one_follows_its_parent(logger):
    parent = logging.getLogger("odradek").getEffectiveLevel()
    assert bl.loggers()[logger.name] == bl._level_name(parent)
    bl.alter(1, "1", [(logger.name, bl.SET, "DEBUG")], validate_only=False)
    assert logger.isEnabledFor(logging.DEBUG) and bl.loggers()[logger.name] == "DEBUG"
    bl.alter(1, "1", [(logger.name, bl.SET, "FATAL")], validate_only=False)
    assert not logger.isEnabledFor(logging.ERROR) and logger.isEnabledFor(logging.CRITICAL)
    bl.alter(1, "1", [(logger.name, bl.DELETE, None)], validate_only=False)
    assert logger.level == logging.NOTSET and logger.getEffectiveLevel() == parent


def test_validate_only_changes_nothing_and_refusals_change_nothing(logger):
    bl.alter(1, "1", [(logger.name, bl.SET, "TRACE")], validate_only=True)
    assert logger.level == logging.NOTSET
    with pytest.raises(bl.Refused, match="not a supported log level"):  # all checked before any is applied
        bl.alter(1, "1", [(logger.name, bl.SET, "DEBUG"), ("root", bl.SET, "LOUD")], validate_only=False)
    assert logger.level == logging.NOTSET
    with pytest.raises(bl.Refused, match="Removing the log level of the root logger is not allowed"):
        bl.alter(1, "1", [("root", bl.DELETE, None)], validate_only=False)


def test_the_root_is_described_first():
    assert next(iter(bl.loggers())) == "root"
    assert bl.describe(3, "3")["root"] == bl._level_name(logging.getLogger().getEffectiveLevel())
