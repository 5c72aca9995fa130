"""Storage engine: segments, offset + time indexes, retention, compaction, recovery.

The names below load with the module that defines them, on first use: a controller-only node
needs the log's file system, configs and meta.properties but none of the partition logs."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .compaction import CleanerConfig, LogCleaner, validate_compacted_record_set
    from .config import LogConfig
    from .fs import FaultyFileSystem, RealFileSystem, SimulatedCrash
    from .log_manager import LogManager
    from .partition_log import AppendInfo, FetchSlices, FileSlice, PartitionLog, TimestampOffset
    from .producer_state import CheckResult, ProducerStateTable

__all__ = ["LogConfig", "FaultyFileSystem", "RealFileSystem", "SimulatedCrash", "AppendInfo",
           "FetchSlices", "FileSlice", "PartitionLog", "TimestampOffset", "CheckResult",
           "ProducerStateTable", "CleanerConfig", "LogCleaner", "validate_compacted_record_set",
           "LogManager"]

_WHERE = {"LogConfig": "config", "FaultyFileSystem": "fs", "RealFileSystem": "fs", "SimulatedCrash": "fs",
          "AppendInfo": "partition_log", "FetchSlices": "partition_log", "FileSlice": "partition_log",
          "PartitionLog": "partition_log", "TimestampOffset": "partition_log", "CheckResult": "producer_state",
          "ProducerStateTable": "producer_state", "CleanerConfig": "compaction", "LogCleaner": "compaction",
          "validate_compacted_record_set": "compaction", "LogManager": "log_manager"}


def __getattr__(name: str):  # PEP 562, as odradek/testing/__init__.py
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'odradek.log' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"odradek.log.{where}"), name)
