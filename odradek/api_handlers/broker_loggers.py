"""The BROKER_LOGGER config resource (KIP-412): a broker's loggers and their levels, described and
changed at run time through DescribeConfigs and IncrementalAlterConfigs on that broker, as Kafka
4.3's RuntimeLoggerManager and ConfigHelper do for its log4j loggers; odradek's are Python's
(``root`` and the named loggers the broker made: odradek.broker, odradek.quorum, ...). A change lives
as long as the process, as Kafka's.

Kafka's levels map to Python's: TRACE 5, DEBUG 10, INFO 20, WARN 30, ERROR 40, FATAL 50. Deleting a
logger's level makes it follow its parent again; the root's cannot be deleted."""

from __future__ import annotations

import logging

from odradek.java_numbers import parse_int
from odradek.wire.errors import ErrorCode

BROKER_LOGGER = 8
ROOT = "root"
LEVELS = {"TRACE": 5, "DEBUG": 10, "INFO": 20, "WARN": 30, "ERROR": 40, "FATAL": 50}
_VALID = ", ".join(sorted(LEVELS))
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3
_OP_NAMES = {APPEND: "APPEND", SUBTRACT: "SUBTRACT"}


class Refused(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _logger(name: str) -> logging.Logger | None:
    if name == ROOT:
        return logging.getLogger()
    found = logging.Logger.manager.loggerDict.get(name)
    return found if isinstance(found, logging.Logger) else None


def _level_name(level: int) -> str:
    """A Python level as Kafka's level names say it (the nearest one at or below it)."""
    return max(((v, k) for k, v in LEVELS.items() if v <= level), default=(5, "TRACE"))[1]


def loggers() -> dict[str, str]:
    """Every logger there is and its level (its effective one), the root's first."""
    out = {ROOT: _level_name(logging.getLogger().getEffectiveLevel())}
    for name in sorted(logging.Logger.manager.loggerDict):
        lg = _logger(name)
        if lg is not None:
            out[name] = _level_name(lg.getEffectiveLevel())
    return out


def _asked_node(name: str, what: str) -> int:
    """The node id a resource names (as Java's Integer.parseInt); Refused when it is no number
    ("<what> must be an integer, ...")."""
    asked = parse_int(name)
    if asked is None:
        raise Refused(ErrorCode.INVALID_REQUEST, f"{what} must be an integer, but it is: {name}")
    return asked


def _check_node(node_id: int, name: str) -> None:
    asked = _asked_node(name, "Node id")
    if asked != node_id:
        raise Refused(ErrorCode.INVALID_REQUEST, f"Unexpected node id. Expected {node_id}, but received {asked}")


def alter(node_id: int, name: str, ops, validate_only: bool) -> None:
    """One BROKER_LOGGER resource of an IncrementalAlterConfigs, ops [(logger, op, level)]: all checked,
    then applied (unless ``validate_only``); Refused with Kafka's error otherwise."""
    _check_node(node_id, name)
    for logger, op, level in ops:
        if op == SET:
            if _logger(logger) is None:
                raise Refused(ErrorCode.INVALID_CONFIG, f"Logger {logger} does not exist!")
            if level not in LEVELS:  # (a null level reads "null", as Java prints it)
                raise Refused(ErrorCode.INVALID_CONFIG, f"Cannot set the log level of {logger} to "
                                                        f"{'null' if level is None else level} as it is "
                                                        f"not a supported log level. Valid log levels are {_VALID}")
        elif op == DELETE:
            if _logger(logger) is None:
                raise Refused(ErrorCode.INVALID_CONFIG, f"Logger {logger} does not exist!")
            if logger == ROOT:
                raise Refused(ErrorCode.INVALID_REQUEST, f"Removing the log level of the {ROOT} logger is not allowed")
        elif op in _OP_NAMES:
            raise Refused(ErrorCode.INVALID_REQUEST,
                          f"{_OP_NAMES[op]} operation is not allowed for the BROKER_LOGGER resource")
        else:
            raise Refused(ErrorCode.INVALID_REQUEST,
                          f"Unknown operation type {op} is not allowed for the BROKER_LOGGER resource")
    if validate_only:
        return
    log = logging.getLogger("odradek.broker")
    for logger, op, level in ops:
        lg = _logger(logger)
        if op == SET:
            lg.setLevel(LEVELS[level])
            log.warning("Updated the log level of %s to %s", logger, level)
        else:
            lg.setLevel(logging.NOTSET)
            log.warning("Unset the log level of %s", logger)


def describe(node_id: int, name: str) -> dict[str, str]:
    """A DescribeConfigs of BROKER_LOGGER ``name``: every logger and its level; Refused otherwise."""
    if not name:
        raise Refused(ErrorCode.INVALID_REQUEST, "Broker id must not be empty")
    if _asked_node(name, "Broker id") != node_id:
        raise Refused(ErrorCode.INVALID_REQUEST, f"Unexpected broker id, expected {node_id} but received {name}")
    return loggers()
