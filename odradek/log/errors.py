"""Errors raised by the log engine; `error_name` is the Kafka error the broker maps to."""
from __future__ import annotations


class LogError(Exception):
    error_name = "UNKNOWN_SERVER_ERROR"


class OffsetOutOfRangeError(LogError):
    error_name = "OFFSET_OUT_OF_RANGE"


class RecordTooLargeError(LogError):
    error_name = "RECORD_TOO_LARGE"


class RecordBatchTooLargeError(LogError):
    error_name = "RECORD_LIST_TOO_LARGE"


class InvalidRecordError(LogError):
    error_name = "INVALID_RECORD"

    def __init__(self, message: str = "", record_errors=()):
        super().__init__(message)
        # Kafka's RecordError list: (batch index of the record, message), for the Produce response
        self.record_errors = list(record_errors)


class InvalidTimestampError(InvalidRecordError):
    """CreateTime records outside [now - message.timestamp.before.max.ms,
    now + message.timestamp.after.max.ms]; record_errors as Kafka's LogValidator."""
    error_name = "INVALID_TIMESTAMP"


class RecordStructureError(LogError):
    """Records of a batch that Kafka's DefaultRecord.readFrom refuses (sizes, count,
    fields): INVALID_RECORD, which Kafka sends without a message or record errors."""
    error_name = "INVALID_RECORD"


class UndecodableBatchError(LogError):
    """A compressed batch Kafka fails to decompress or whose inner offsets are out of
    order: Kafka answers UNKNOWN_SERVER_ERROR."""
    error_name = "UNKNOWN_SERVER_ERROR"


class CorruptRecordError(LogError):
    error_name = "CORRUPT_MESSAGE"


class OutOfOrderSequenceError(LogError):
    error_name = "OUT_OF_ORDER_SEQUENCE_NUMBER"


class InvalidProducerEpochError(LogError):
    error_name = "INVALID_PRODUCER_EPOCH"


class TransactionCoordinatorFencedError(LogError):
    """A marker from a coordinator older than the last one that wrote for the producer."""
    error_name = "TRANSACTION_COORDINATOR_FENCED"


class UnexpectedAppendOffsetError(LogError):
    """A follower append whose first offset is below the log end offset."""
    error_name = "UNKNOWN_SERVER_ERROR"


class OffsetsOutOfOrderError(LogError):
    """A follower append whose batches' offsets do not increase (Kafka's
    OffsetsOutOfOrderException, not an API error)."""
    error_name = "UNKNOWN_SERVER_ERROR"


class KafkaStorageError(LogError):
    """The log takes no more writes: a write or fsync failed in a way that could not be
    undone (as Kafka takes a failed log directory offline); a restart recovers it."""
    error_name = "KAFKA_STORAGE_ERROR"


class LogClosedError(KafkaStorageError):
    """A write to a log that has closed (a broker stop closes its logs while the event loop still
    runs what was scheduled on it): refused before any byte is written, the log not taken offline
    and its log dir not failed (Kafka's LocalLog.checkIfMemoryMappedBufferClosed: a
    KafkaStorageException that does not go through the LogDirFailureChannel)."""
    error_name = "KAFKA_STORAGE_ERROR"


class LogCorruptionError(LogError):
    """Data that was fsynced (below the recovery point) fails validation."""
    error_name = "KAFKA_STORAGE_ERROR"

    def __init__(self, path: str, position: int, offset: int, reason: str):
        super().__init__(f"corrupt log segment {path} at position {position} "
                         f"(offset {offset}): {reason}")
        self.path = path
        self.position = position
        self.offset = offset
