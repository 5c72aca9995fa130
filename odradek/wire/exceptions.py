"""Typed errors raised by the sans-IO wire layer.

Every malformed input must surface as one of these, never as IndexError,
struct.error or UnicodeDecodeError, so the broker can map it to a Kafka error
code or a closed connection.
"""


class WireError(Exception):
    """Base class of every error raised while decoding or encoding wire data."""


class TruncatedError(WireError):
    """The buffer ended before the structure being read was complete."""


class MalformedError(WireError):
    """Bytes that cannot be a valid encoding (bad varint, negative length, ...)."""


class FrameTooLargeError(WireError):
    """A frame's size prefix is negative or above the configured maximum."""

    def __init__(self, size: int, maximum: int):
        super().__init__(f"frame size {size} outside 0..{maximum}")
        self.size = size
        self.maximum = maximum


class UnsupportedApiError(WireError):
    """An API key the codec does not know."""

    def __init__(self, api_key: int):
        super().__init__(f"unknown api key {api_key}")
        self.api_key = api_key


class UnsupportedVersionError(WireError):
    """A known API key at a version outside the specs' valid range."""

    def __init__(self, api_key: int, version: int):
        super().__init__(f"unsupported version {version} of api key {api_key}")
        self.api_key = api_key
        self.version = version


class CorruptRecordError(WireError):
    """A record batch whose CRC or structure is wrong (Kafka's CORRUPT_MESSAGE)."""


class InvalidRecordError(WireError):
    """A record batch that is well formed but not acceptable (Kafka's INVALID_RECORD)."""


class RecordCountError(CorruptRecordError, InvalidRecordError):
    """A batch header's record count its records section cannot hold (a Produce: Kafka's
    INVALID_RECORD; a corrupt batch to every reader)."""


class UnsupportedMagicError(CorruptRecordError):
    """A record batch with a magic byte other than 2."""


class CompressionError(CorruptRecordError):
    """Compressed data that cannot be decompressed, or expands past the allowed bound."""
