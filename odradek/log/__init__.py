"""Storage engine: segments, offset + time indexes, retention, compaction, recovery."""
from .config import LogConfig
from .fs import FaultyFileSystem, RealFileSystem, SimulatedCrash
from .partition_log import AppendInfo, FetchSlices, FileSlice, PartitionLog, TimestampOffset
from .producer_state import CheckResult, ProducerStateTable
from .compaction import CleanerConfig, LogCleaner, validate_compacted_record_set
from .log_manager import LogManager

__all__ = ["LogConfig", "FaultyFileSystem", "RealFileSystem", "SimulatedCrash", "AppendInfo",
           "FetchSlices", "FileSlice", "PartitionLog", "TimestampOffset", "CheckResult",
           "ProducerStateTable", "CleanerConfig", "LogCleaner", "validate_compacted_record_set",
           "LogManager"]
