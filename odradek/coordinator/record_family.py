"""A family of group records in __consumer_offsets (KIP-848 consumer groups, KIP-1071 streams
groups): a key is its record type (int16) then the key struct at version 0; a value is its
version (int16) then the value struct. One family knows its key and value structs by type."""

from __future__ import annotations

import struct
from dataclasses import dataclass

I16 = struct.Struct(">h")


@dataclass
class DecodedRecord:
    """A coordinator record, its key and value decoded."""
    kind: int
    group_id: str
    member_id: str = ""
    regex: str = ""  # a consumer group's regular expression record only
    value: object = None  # decoded value struct; None for a tombstone


class RecordFamily:
    def __init__(self, keys: dict, values: dict):
        """keys, values: {record type: generated key / value struct class}."""
        self.keys = keys
        self.values = values
        self.types = frozenset(keys)

    @staticmethod
    def record_type(key: bytes) -> int:
        return I16.unpack_from(key, 0)[0]

    def key(self, kind: int, **fields) -> bytes:
        return I16.pack(kind) + self.keys[kind](**fields).encode(0)

    @staticmethod
    def value(msg) -> bytes:
        return I16.pack(0) + msg.encode(0)

    def record(self, kind: int, value, **key_fields) -> tuple[bytes, bytes | None]:
        """(key, value) of a record of type ``kind``; ``value`` None: the key's tombstone."""
        return self.key(kind, **key_fields), None if value is None else self.value(value)

    def decode(self, key: bytes, value: bytes | None) -> DecodedRecord:
        kind = self.record_type(key)
        k = self.keys[kind].decode(key, 0, 2)
        v = None
        if value is not None and kind in self.values:
            version = I16.unpack_from(value, 0)[0]
            v = self.values[kind].decode(value, min(version, 0), 2)
        fields = k.to_dict()  # the key struct's own fields: member records name a member, regex records a regex
        return DecodedRecord(kind, k.group_id, member_id=fields.get("member_id") or "",
                             regex=fields.get("regular_expression") or "", value=v)
