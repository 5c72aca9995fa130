"""KRaft metadata record serde: Kafka's MetadataRecordSerde (ApiMessageAndVersion framing).

A record value is: unsigned varint frame version (1), unsigned varint api key,
unsigned varint record version, then the record body in that version.
"""

from __future__ import annotations

from typing import Generator

from odradek.raft.codec import Prepared
from odradek.wire.exceptions import MalformedError
from odradek.wire.messages.abort_transaction_record import AbortTransactionRecord
from odradek.wire.messages.access_control_entry_record import AccessControlEntryRecord
from odradek.wire.messages.begin_transaction_record import BeginTransactionRecord
from odradek.wire.messages.broker_registration_change_record import BrokerRegistrationChangeRecord
from odradek.wire.messages.client_quota_record import ClientQuotaRecord
from odradek.wire.messages.clear_elr_record import ClearElrRecord
from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.delegation_token_record import DelegationTokenRecord
from odradek.wire.messages.end_transaction_record import EndTransactionRecord
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.fence_broker_record import FenceBrokerRecord
from odradek.wire.messages.no_op_record import NoOpRecord
from odradek.wire.messages.partition_change_record import PartitionChangeRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.producer_ids_record import ProducerIdsRecord
from odradek.wire.messages.register_broker_record import RegisterBrokerRecord
from odradek.wire.messages.register_controller_record import RegisterControllerRecord
from odradek.wire.messages.remove_access_control_entry_record import RemoveAccessControlEntryRecord
from odradek.wire.messages.remove_delegation_token_record import RemoveDelegationTokenRecord
from odradek.wire.messages.remove_topic_record import RemoveTopicRecord
from odradek.wire.messages.remove_user_scram_credential_record import RemoveUserScramCredentialRecord
from odradek.wire.messages.topic_record import TopicRecord
from odradek.wire.messages.unfence_broker_record import UnfenceBrokerRecord
from odradek.wire.messages.unregister_broker_record import UnregisterBrokerRecord
from odradek.wire.messages.user_scram_credential_record import UserScramCredentialRecord
from odradek.wire.messages.zk_migration_state_record import ZkMigrationStateRecord
from odradek.wire.primitives import uvarint_bytes

FRAME_VERSION = 1

RECORD_TYPES = {cls.API_KEY: cls for cls in (
    RegisterBrokerRecord, TopicRecord, PartitionRecord, ConfigRecord, PartitionChangeRecord,
    FeatureLevelRecord, RemoveTopicRecord, UnfenceBrokerRecord, BrokerRegistrationChangeRecord, NoOpRecord,
    ClientQuotaRecord, UserScramCredentialRecord, RemoveUserScramCredentialRecord,
    # what Kafka's controllers write besides (MetadataRecordType): every type is decoded, as
    # Kafka's MetadataRecordSerde does; the image replays those it keeps (image.py)
    UnregisterBrokerRecord, FenceBrokerRecord, DelegationTokenRecord, ProducerIdsRecord,
    AccessControlEntryRecord, RemoveAccessControlEntryRecord, ZkMigrationStateRecord,
    BeginTransactionRecord, EndTransactionRecord, AbortTransactionRecord, RemoveDelegationTokenRecord,
    RegisterControllerRecord, ClearElrRecord,
)}

# The version each record type is written in (read: any version the codec knows).
# PartitionRecord / PartitionChangeRecord v2 carry the ELR fields (KIP-966), the change
# record v1 in_controlled_shutdown (as Kafka 4.3 writes them).
WRITE_VERSION = {
    RegisterBrokerRecord: 3,
    PartitionRecord: 2,
    PartitionChangeRecord: 2,
    BrokerRegistrationChangeRecord: 1,
}


def encode_record(record, version: int | None = None) -> bytes:
    cls = type(record)
    if version is None:
        version = WRITE_VERSION.get(cls, 0)
    return (uvarint_bytes(FRAME_VERSION) + uvarint_bytes(cls.API_KEY) + uvarint_bytes(version)
            + record.encode(version))


ENCODE_STEP = 500  # the records encoded in one part of encoded_steps (~25 us each, their batch's bytes too)


def encoded_steps(records: list, now_ms: int, step: int = ENCODE_STEP) -> Generator[None, None, Prepared]:
    """The batch of ``records`` at ``now_ms`` made ahead (raft.codec.Prepared: encoded and framed
    as records of a batch), ``step`` records a part: yields between parts (a large decision's
    write, proposed as one batch, then holds no thread for its encoding)."""
    prepared = Prepared(now_ms)
    for i in range(0, len(records), step):
        if i:
            yield
        prepared.add([encode_record(r) for r in records[i:i + step]])
    return prepared


def _read_uvarint(buf, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise MalformedError("truncated varint in metadata record")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 28:
            raise MalformedError("varint too long in metadata record")


def decode_record(buf) -> tuple[object, int]:
    """-> (record object, record version). Raises MalformedError for anything unknown."""
    frame_version, pos = _read_uvarint(buf, 0)
    if frame_version != FRAME_VERSION:
        raise MalformedError(f"unknown metadata record frame version {frame_version}")
    api_key, pos = _read_uvarint(buf, pos)
    version, pos = _read_uvarint(buf, pos)
    cls = RECORD_TYPES.get(api_key)
    if cls is None:
        raise MalformedError(f"unknown metadata record type {api_key}")
    record, end = cls.decode_from(buf, version, pos)
    if end != len(buf):
        raise MalformedError(f"{end - len(buf)} trailing bytes after {cls.__name__}")
    return record, version
