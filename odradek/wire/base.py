"""Runtime base for the generated message classes (odradek/wire/messages)."""

from __future__ import annotations

import struct

from .exceptions import MalformedError, TruncatedError, UnsupportedVersionError, WireError

# Sentinel for mutable defaults in generated constructors.
DEFAULT = object()


class Encoded:
    """A struct already encoded (Message.encoded): an array of that struct in a message takes it
    in place of the object and writes ``data`` as it is, if ``encoder`` is the one the message's
    version uses (else the message fails to encode). Only for the structs tools/gen_wire.py
    lists in PRE_ENCODABLE."""

    __slots__ = ("encoder", "data")

    def __init__(self, encoder, data: bytes):
        self.encoder = encoder
        self.data = data


# the largest part a step of a stepped encode joins with the others (encode_parts_steps): the
# generated encoders' packed fields and strings; a records field is left a part of its own
JOINED_PART_BYTES = 16 * 1024


def _joined(parts: list, start: int) -> int:
    """parts[start:] (one step's encoding) replaced by their bytes joined, unless one is large or
    not bytes-like (a records field: the connection writes it as it is); -> the new len(parts).
    A 100,000-entry response is then ~100 parts, not ~700,000 for the connection to size, look at
    and join in one piece (issue 27 fairness)."""
    if len(parts) - start > 1 and max(map(len, parts[start:])) <= JOINED_PART_BYTES:
        try:
            parts[start:] = [b"".join(parts[start:])]
        except TypeError:  # (a records object of small file slices)
            pass
    return len(parts)


_UNDECODABLE = (IndexError, struct.error, UnicodeDecodeError, ValueError, OverflowError, MemoryError)


def _decode_error(cls, version: int, e: Exception) -> WireError:
    """What a decoder's low-level error means: input cut short, or input that is not the message."""
    if isinstance(e, (IndexError, struct.error)):
        return TruncatedError(f"{cls.__name__} v{version}: truncated ({e})")
    return MalformedError(f"{cls.__name__} v{version}: {e}")


def whole(steps):
    """A STEPPED message's decoder (tools/gen_wire.py) run through without pausing: the
    decode_from of a generator that Message.decode_steps runs a step at a time."""

    def decode(b, p):
        g = steps(b, p)
        try:
            while True:
                next(g)
        except StopIteration as done:
            return done.value

    return decode


class Message:
    """Base of every generated struct. Subclasses define __slots__ and _FIELDS.

    _FIELDS rows: (attr, type, vmin, vmax, nullable_min, nullable_max, tag,
    tagged_min, struct_class_name_or_None). Versions use -1/-1 for "none".
    """

    __slots__ = ()
    _FIELDS: tuple = ()
    _ENCODERS: dict = {}
    _DECODERS: dict = {}
    _STEPS: dict = {}  # a STEPPED message's decoders as generators, by version (decode_steps)
    _ENCODE_STEPS: dict = {}  # a STEPPED_RESPONSES message's encoders as generators (encode_parts_steps)
    API_KEY: int | None = None
    VALID_VERSIONS: tuple[int, int] = (0, -1)
    FLEXIBLE_MIN: int | None = None

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        for s in self.__slots__:  # (a loop: the generated encoders compare tagged structs per record set)
            if getattr(self, s) != getattr(other, s):
                return False
        return True

    def __repr__(self):
        inner = ", ".join(f"{s}={getattr(self, s)!r}" for s in self.__slots__ if s != "_unknown_tagged")
        return f"{type(self).__name__}({inner})"

    @classmethod
    def is_flexible(cls, version: int) -> bool:
        return cls.FLEXIBLE_MIN is not None and version >= cls.FLEXIBLE_MIN

    def encode_parts(self, version: int) -> list:
        """Encode into a list of parts; records fields appear as the objects given."""
        fn = self._ENCODERS.get(version)
        if fn is None:
            raise UnsupportedVersionError(self.API_KEY if self.API_KEY is not None else -1, version)
        parts: list = []
        try:
            fn(self, parts)
        except (AttributeError, TypeError, struct.error, OverflowError) as e:
            raise WireError(f"cannot encode {type(self).__name__} v{version}: {e}") from e
        return parts

    def encode_parts_steps(self, version: int):
        """encode_parts in steps, for a large response: a generator that yields None every
        ENCODE_STEP_ENTRIES entries of a STEPPED_RESPONSES message's arrays (tools/gen_wire.py)
        and returns the parts: the same bytes, and the same error, as encode_parts, each step's
        small parts joined into one (a records field stays a part of its own). Any other message
        is encoded in one step."""
        fn = self._ENCODE_STEPS.get(version)
        if fn is None:
            return self.encode_parts(version)
        parts: list = []
        done = 0  # parts[:done]: the steps before, each joined into one part (_joined)
        try:
            for _ in fn(self, parts):
                done = _joined(parts, done)
                yield
        except (AttributeError, TypeError, struct.error, OverflowError) as e:
            raise WireError(f"cannot encode {type(self).__name__} v{version}: {e}") from e
        _joined(parts, done)
        return parts

    def encode(self, version: int) -> bytes:
        return b"".join(self.encode_parts(version))

    def encoded(self, version: int) -> Encoded:
        """This struct encoded at ``version``, to be put in an array of a message in its place
        (a cache of what does not change between responses)."""
        return Encoded(self._ENCODERS.get(version), self.encode(version))

    def plain(self, version: int):
        """This message with every Encoded struct in it decoded (Metadata sends cached topic
        encodings): what a reader of its fields outside the encoder needs, a trace or a test's
        rewrite; the message itself when it holds none. Not for the hot path."""
        return type(self).decode(self.encode(version), version) if self._holds_encoded() else self

    def _holds_encoded(self) -> bool:
        for s in self.__slots__:
            v = getattr(self, s, None)
            if isinstance(v, Message):
                if v._holds_encoded():
                    return True
            elif type(v) is list:
                for x in v:
                    if x.__class__ is Encoded or (isinstance(x, Message) and x._holds_encoded()):
                        return True
        return False

    @classmethod
    def decode(cls, buf, version: int, pos: int = 0):
        """Decode one message at buf[pos:]; returns the object."""
        return cls.decode_from(buf, version, pos)[0]

    @classmethod
    def decode_from(cls, buf, version: int, pos: int = 0):
        """Decode one message; returns (object, end position)."""
        fn = cls._DECODERS.get(version)
        if fn is None:
            raise UnsupportedVersionError(cls.API_KEY if cls.API_KEY is not None else -1, version)
        if type(buf) is not memoryview:
            buf = memoryview(buf)  # records fields come out as views, never copies
        try:
            return fn(buf, pos)
        except _UNDECODABLE as e:
            raise _decode_error(cls, version, e) from None

    @classmethod
    def decode_steps(cls, buf, version: int, pos: int = 0):
        """decode_from in steps, for a large request: a generator that yields None every
        DECODE_STEP_BYTES or so of a STEPPED message's top-level arrays (tools/gen_wire.py) and returns
        (object, end position): the same object, and the same error at the same input, as
        decode_from. Any other message is decoded in one step."""
        fn = cls._STEPS.get(version)
        if fn is None:
            return cls.decode_from(buf, version, pos)
        if type(buf) is not memoryview:
            buf = memoryview(buf)
        try:
            return (yield from fn(buf, pos))
        except _UNDECODABLE as e:
            raise _decode_error(cls, version, e) from None

    def to_dict(self) -> dict:
        out = {}
        for s in self.__slots__:
            if s == "_unknown_tagged":
                continue
            v = getattr(self, s)
            if isinstance(v, Message):
                v = v.to_dict()
            elif isinstance(v, list):
                v = [x.to_dict() if isinstance(x, Message) else x for x in v]
            out[s] = v
        return out
