"""Kafka protocol error codes.

One source of truth for every error code a Kafka 4.x broker can return, named
exactly as in Apache Kafka's ``org.apache.kafka.common.protocol.Errors``.
``retriable`` is True where Kafka's exception for the code is a subclass of
``RetriableException``; ``message`` is Kafka's default description.

Codes 134+ (READ_ONLY_TOPIC and the cluster-mirroring codes of KIP-1279) exist
only on Kafka's development branch and are deliberately not listed yet.
"""

from __future__ import annotations

import enum


class ErrorCode(enum.IntEnum):
    """A Kafka error code (int16 on the wire)."""

    UNKNOWN_SERVER_ERROR = -1
    NONE = 0
    OFFSET_OUT_OF_RANGE = 1
    CORRUPT_MESSAGE = 2
    UNKNOWN_TOPIC_OR_PARTITION = 3
    INVALID_FETCH_SIZE = 4
    LEADER_NOT_AVAILABLE = 5
    NOT_LEADER_OR_FOLLOWER = 6
    REQUEST_TIMED_OUT = 7
    BROKER_NOT_AVAILABLE = 8
    REPLICA_NOT_AVAILABLE = 9
    MESSAGE_TOO_LARGE = 10
    STALE_CONTROLLER_EPOCH = 11
    OFFSET_METADATA_TOO_LARGE = 12
    NETWORK_EXCEPTION = 13
    COORDINATOR_LOAD_IN_PROGRESS = 14
    COORDINATOR_NOT_AVAILABLE = 15
    NOT_COORDINATOR = 16
    INVALID_TOPIC_EXCEPTION = 17
    RECORD_LIST_TOO_LARGE = 18
    NOT_ENOUGH_REPLICAS = 19
    NOT_ENOUGH_REPLICAS_AFTER_APPEND = 20
    INVALID_REQUIRED_ACKS = 21
    ILLEGAL_GENERATION = 22
    INCONSISTENT_GROUP_PROTOCOL = 23
    INVALID_GROUP_ID = 24
    UNKNOWN_MEMBER_ID = 25
    INVALID_SESSION_TIMEOUT = 26
    REBALANCE_IN_PROGRESS = 27
    INVALID_COMMIT_OFFSET_SIZE = 28
    TOPIC_AUTHORIZATION_FAILED = 29
    GROUP_AUTHORIZATION_FAILED = 30
    CLUSTER_AUTHORIZATION_FAILED = 31
    INVALID_TIMESTAMP = 32
    UNSUPPORTED_SASL_MECHANISM = 33
    ILLEGAL_SASL_STATE = 34
    UNSUPPORTED_VERSION = 35
    TOPIC_ALREADY_EXISTS = 36
    INVALID_PARTITIONS = 37
    INVALID_REPLICATION_FACTOR = 38
    INVALID_REPLICA_ASSIGNMENT = 39
    INVALID_CONFIG = 40
    NOT_CONTROLLER = 41
    INVALID_REQUEST = 42
    UNSUPPORTED_FOR_MESSAGE_FORMAT = 43
    POLICY_VIOLATION = 44
    OUT_OF_ORDER_SEQUENCE_NUMBER = 45
    DUPLICATE_SEQUENCE_NUMBER = 46
    INVALID_PRODUCER_EPOCH = 47
    INVALID_TXN_STATE = 48
    INVALID_PRODUCER_ID_MAPPING = 49
    INVALID_TRANSACTION_TIMEOUT = 50
    CONCURRENT_TRANSACTIONS = 51
    TRANSACTION_COORDINATOR_FENCED = 52
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53
    SECURITY_DISABLED = 54
    OPERATION_NOT_ATTEMPTED = 55
    KAFKA_STORAGE_ERROR = 56
    LOG_DIR_NOT_FOUND = 57
    SASL_AUTHENTICATION_FAILED = 58
    UNKNOWN_PRODUCER_ID = 59
    REASSIGNMENT_IN_PROGRESS = 60
    DELEGATION_TOKEN_AUTH_DISABLED = 61
    DELEGATION_TOKEN_NOT_FOUND = 62
    DELEGATION_TOKEN_OWNER_MISMATCH = 63
    DELEGATION_TOKEN_REQUEST_NOT_ALLOWED = 64
    DELEGATION_TOKEN_AUTHORIZATION_FAILED = 65
    DELEGATION_TOKEN_EXPIRED = 66
    INVALID_PRINCIPAL_TYPE = 67
    NON_EMPTY_GROUP = 68
    GROUP_ID_NOT_FOUND = 69
    FETCH_SESSION_ID_NOT_FOUND = 70
    INVALID_FETCH_SESSION_EPOCH = 71
    LISTENER_NOT_FOUND = 72
    TOPIC_DELETION_DISABLED = 73
    FENCED_LEADER_EPOCH = 74
    UNKNOWN_LEADER_EPOCH = 75
    UNSUPPORTED_COMPRESSION_TYPE = 76
    STALE_BROKER_EPOCH = 77
    OFFSET_NOT_AVAILABLE = 78
    MEMBER_ID_REQUIRED = 79
    PREFERRED_LEADER_NOT_AVAILABLE = 80
    GROUP_MAX_SIZE_REACHED = 81
    FENCED_INSTANCE_ID = 82
    ELIGIBLE_LEADERS_NOT_AVAILABLE = 83
    ELECTION_NOT_NEEDED = 84
    NO_REASSIGNMENT_IN_PROGRESS = 85
    GROUP_SUBSCRIBED_TO_TOPIC = 86
    INVALID_RECORD = 87
    UNSTABLE_OFFSET_COMMIT = 88
    THROTTLING_QUOTA_EXCEEDED = 89
    PRODUCER_FENCED = 90
    RESOURCE_NOT_FOUND = 91
    DUPLICATE_RESOURCE = 92
    UNACCEPTABLE_CREDENTIAL = 93
    INCONSISTENT_VOTER_SET = 94
    INVALID_UPDATE_VERSION = 95
    FEATURE_UPDATE_FAILED = 96
    PRINCIPAL_DESERIALIZATION_FAILURE = 97
    SNAPSHOT_NOT_FOUND = 98
    POSITION_OUT_OF_RANGE = 99
    UNKNOWN_TOPIC_ID = 100
    DUPLICATE_BROKER_REGISTRATION = 101
    BROKER_ID_NOT_REGISTERED = 102
    INCONSISTENT_TOPIC_ID = 103
    INCONSISTENT_CLUSTER_ID = 104
    TRANSACTIONAL_ID_NOT_FOUND = 105
    FETCH_SESSION_TOPIC_ID_ERROR = 106
    INELIGIBLE_REPLICA = 107
    NEW_LEADER_ELECTED = 108
    OFFSET_MOVED_TO_TIERED_STORAGE = 109
    FENCED_MEMBER_EPOCH = 110
    UNRELEASED_INSTANCE_ID = 111
    UNSUPPORTED_ASSIGNOR = 112
    STALE_MEMBER_EPOCH = 113
    MISMATCHED_ENDPOINT_TYPE = 114
    UNSUPPORTED_ENDPOINT_TYPE = 115
    UNKNOWN_CONTROLLER_ID = 116
    UNKNOWN_SUBSCRIPTION_ID = 117
    TELEMETRY_TOO_LARGE = 118
    INVALID_REGISTRATION = 119
    TRANSACTION_ABORTABLE = 120
    INVALID_RECORD_STATE = 121
    SHARE_SESSION_NOT_FOUND = 122
    INVALID_SHARE_SESSION_EPOCH = 123
    FENCED_STATE_EPOCH = 124
    INVALID_VOTER_KEY = 125
    DUPLICATE_VOTER = 126
    VOTER_NOT_FOUND = 127
    INVALID_REGULAR_EXPRESSION = 128
    REBOOTSTRAP_REQUIRED = 129
    STREAMS_INVALID_TOPOLOGY = 130
    STREAMS_INVALID_TOPOLOGY_EPOCH = 131
    STREAMS_TOPOLOGY_FENCED = 132
    SHARE_SESSION_LIMIT_REACHED = 133

    @property
    def retriable(self) -> bool:
        """True when Kafka clients treat this error as retriable."""
        return self.value in _RETRIABLE

    @property
    def message(self) -> str:
        """Kafka's default human-readable description ('' for NONE)."""
        return _MESSAGES.get(self.value, "")

    @property
    def is_error(self) -> bool:
        return self.value != 0

    @classmethod
    def from_code(cls, code: int) -> "ErrorCode":
        """The member for ``code``; unknown codes map to UNKNOWN_SERVER_ERROR, as in Kafka."""
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN_SERVER_ERROR

_RETRIABLE: frozenset[int] = frozenset({
    ErrorCode.CORRUPT_MESSAGE.value,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.value,
    ErrorCode.LEADER_NOT_AVAILABLE.value,
    ErrorCode.NOT_LEADER_OR_FOLLOWER.value,
    ErrorCode.REQUEST_TIMED_OUT.value,
    ErrorCode.REPLICA_NOT_AVAILABLE.value,
    ErrorCode.NETWORK_EXCEPTION.value,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS.value,
    ErrorCode.COORDINATOR_NOT_AVAILABLE.value,
    ErrorCode.NOT_COORDINATOR.value,
    ErrorCode.NOT_ENOUGH_REPLICAS.value,
    ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND.value,
    ErrorCode.NOT_CONTROLLER.value,
    ErrorCode.CONCURRENT_TRANSACTIONS.value,
    ErrorCode.KAFKA_STORAGE_ERROR.value,
    ErrorCode.FETCH_SESSION_ID_NOT_FOUND.value,
    ErrorCode.INVALID_FETCH_SESSION_EPOCH.value,
    ErrorCode.LISTENER_NOT_FOUND.value,
    ErrorCode.FENCED_LEADER_EPOCH.value,
    ErrorCode.UNKNOWN_LEADER_EPOCH.value,
    ErrorCode.OFFSET_NOT_AVAILABLE.value,
    ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE.value,
    ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE.value,
    ErrorCode.ELECTION_NOT_NEEDED.value,
    ErrorCode.UNSTABLE_OFFSET_COMMIT.value,
    ErrorCode.THROTTLING_QUOTA_EXCEEDED.value,
    ErrorCode.UNKNOWN_TOPIC_ID.value,
    ErrorCode.INCONSISTENT_TOPIC_ID.value,
    ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR.value,
    ErrorCode.SHARE_SESSION_NOT_FOUND.value,
    ErrorCode.INVALID_SHARE_SESSION_EPOCH.value,
    ErrorCode.SHARE_SESSION_LIMIT_REACHED.value,
})

_MESSAGES: dict[int, str] = {
    -1: 'The server experienced an unexpected error when processing the request.',
    1: 'The requested offset is not within the range of offsets maintained by the server.',
    2: 'This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.',
    3: 'This server does not host this topic-partition.',
    4: 'The requested fetch size is invalid.',
    5: 'There is no leader for this topic-partition as we are in the middle of a leadership election.',
    6: 'For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.',
    7: 'The request timed out.',
    8: 'The broker is not available.',
    9: 'The replica is not available for the requested topic-partition.',
    10: 'The request included a message larger than the max message size the server will accept.',
    11: 'The controller moved to another broker.',
    12: 'The metadata field of the offset request was too large.',
    13: 'The server disconnected before a response was received.',
    14: "The coordinator is loading and hence can't process requests.",
    15: 'The coordinator is not available.',
    16: 'This is not the correct coordinator.',
    17: 'The request attempted to perform an operation on an invalid topic.',
    18: 'The request included message batch larger than the configured segment size on the server.',
    19: 'Messages are rejected since there are fewer in-sync replicas than required.',
    20: 'Messages are written to the log, but to fewer in-sync replicas than required.',
    21: 'Produce request specified an invalid value for required acks.',
    22: 'Specified group generation id is not valid.',
    23: "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.",
    24: 'The group id is invalid.',
    25: 'The coordinator is not aware of this member.',
    26: 'The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).',
    27: 'The group is rebalancing, so a rejoin is needed.',
    28: 'The committing offset data size is not valid.',
    29: 'Topic authorization failed.',
    30: 'Group authorization failed.',
    31: 'Cluster authorization failed.',
    32: 'The timestamp of the message is out of acceptable range.',
    33: 'The broker does not support the requested SASL mechanism.',
    34: 'Request is not valid given the current SASL state.',
    35: 'The version of API is not supported.',
    36: 'Topic with this name already exists.',
    37: 'Number of partitions is below 1.',
    38: 'Replication factor is below 1 or larger than the number of available brokers.',
    39: 'Replica assignment is invalid.',
    40: 'Configuration is invalid.',
    41: 'This is not the correct controller for this cluster.',
    42: 'This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.',
    43: 'The message format version on the broker does not support the request.',
    44: 'Request parameters do not satisfy the configured policy.',
    45: 'The broker received an out of order sequence number.',
    46: 'The broker received a duplicate sequence number.',
    47: 'Producer attempted to produce with an old epoch.',
    48: 'The producer attempted a transactional operation in an invalid state.',
    49: 'The producer attempted to use a producer id which is not currently assigned to its transactional id.',
    50: 'The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).',
    51: 'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.',
    52: 'Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.',
    53: 'Transactional Id authorization failed.',
    54: 'Security features are disabled.',
    55: 'The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.',
    56: 'Disk error when trying to access log file on the disk.',
    57: 'The user-specified log directory is not found in the broker config.',
    58: 'SASL Authentication failed.',
    59: 'This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question.',
    60: 'A partition reassignment is in progress.',
    61: 'Delegation Token feature is not enabled.',
    62: 'Delegation Token is not found on server.',
    63: 'Specified Principal is not valid Owner/Renewer.',
    64: 'Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.',
    65: 'Delegation Token authorization failed.',
    66: 'Delegation Token is expired.',
    67: 'Supplied principalType is not supported.',
    68: 'The group is not empty.',
    69: 'The group id does not exist.',
    70: 'The fetch session ID was not found.',
    71: 'The fetch session epoch is invalid.',
    72: 'There is no listener on the leader broker that matches the listener on which metadata request was processed.',
    73: 'Topic deletion is disabled.',
    74: 'The leader epoch in the request is older than the epoch on the broker.',
    75: 'The leader epoch in the request is newer than the epoch on the broker.',
    76: 'The requesting client does not support the compression type of given partition.',
    77: 'Broker epoch has changed.',
    78: 'The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.',
    79: 'The group member needs to have a valid member id before actually entering a consumer group.',
    80: 'The preferred leader was not available.',
    81: 'The group has reached its maximum size.',
    82: 'The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.',
    83: 'Eligible topic partition leaders are not available.',
    84: 'Leader election not needed for topic partition.',
    85: 'No partition reassignment is in progress.',
    86: 'Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.',
    87: 'This record has failed the validation on broker and hence will be rejected.',
    88: 'There are unstable offsets that need to be cleared.',
    89: 'The throttling quota has been exceeded.',
    90: 'There is a newer producer with the same transactionalId which fences the current one.',
    91: 'A request illegally referred to a resource that does not exist.',
    92: 'A request illegally referred to the same resource twice.',
    93: 'Requested credential would not meet criteria for acceptability.',
    94: 'Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters.',
    95: 'The given update version was invalid.',
    96: 'Unable to update finalized features due to an unexpected server error.',
    97: 'Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.',
    98: 'Requested snapshot was not found.',
    99: 'Requested position is not greater than or equal to zero, and less than the size of the snapshot.',
    100: 'This server does not host this topic ID.',
    101: 'This broker ID is already in use.',
    102: 'The given broker ID was not registered.',
    103: "The log's topic ID did not match the topic ID in the request.",
    104: 'The clusterId in the request does not match that found on the server.',
    105: 'The transactionalId could not be found.',
    106: 'The fetch session encountered inconsistent topic ID usage.',
    107: 'The new ISR contains at least one ineligible replica.',
    108: 'The AlterPartition request successfully updated the partition state but the leader has changed.',
    109: 'The requested offset is moved to tiered storage.',
    110: 'The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.',
    111: 'The instance ID is still used by another member in the consumer group. That member must leave first.',
    112: 'The assignor or its version range is not supported by the consumer group.',
    113: 'The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.',
    114: 'The request was sent to an endpoint of the wrong type.',
    115: 'This endpoint type is not supported yet.',
    116: 'This controller ID is not known.',
    117: 'Client sent a push telemetry request with an invalid or outdated subscription ID.',
    118: 'Client sent a push telemetry request larger than the maximum size the broker will accept.',
    119: 'The controller has considered the broker registration to be invalid.',
    120: 'The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.',
    121: 'The record state is invalid. The acknowledgement of delivery could not be completed.',
    122: 'The share session was not found.',
    123: 'The share session epoch is invalid.',
    124: 'The share coordinator rejected the request because the share-group state epoch did not match.',
    125: "The voter key doesn't match the receiving replica's key.",
    126: 'The voter is already part of the set of voters.',
    127: 'The voter is not part of the set of voters.',
    128: 'The regular expression is not valid.',
    129: 'Client metadata is stale. The client should rebootstrap to obtain new metadata.',
    130: 'The supplied topology is invalid.',
    131: 'The supplied topology epoch is invalid.',
    132: 'The supplied topology epoch is outdated.',
    133: 'The limit of share sessions has been reached.',
}
