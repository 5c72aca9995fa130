"""Feature flags (KIP-584): what odradek supports, what a fresh cluster finalizes, and
Kafka's UpdateFeatures validation (FeatureControlManager.updateFeature), as pure code.

Only levels whose behaviour odradek implements are supported. Against Kafka 4.3, which
finalizes metadata.version 30 (4.3-IV0), group.version 1, transaction.version 2,
eligible.leader.replicas.version 1, share.version 1, streams.version 1 (kraft.version 0):
- group.version 1: KIP-848 consumer groups (odradek/coordinator/consumer_group_*).
- transaction.version 2: KIP-890 part 2 (Produce v12+ and TxnOffsetCommit v5 add partitions
  to the transaction implicitly, EndTxn v5 bumps the epoch per transaction; the transaction
  log value is v1 from level 1), odradek/coordinator/txn_coordinator.py. Clients read the
  finalized level from ApiVersions and use that protocol; 1 <-> 2 both ways as Kafka.
- share.version 1: KIP-932 share groups (odradek/coordinator/share_group_coordinator.py); at
  level 0 the share APIs are not advertised and answer UNSUPPORTED_VERSION, as Kafka's.
- streams.version 1: KIP-1071 streams groups (odradek/coordinator/streams_heartbeat.py);
  at level 0 StreamsGroupHeartbeat/StreamsGroupDescribe are not advertised and answer
  UNSUPPORTED_VERSION, as Kafka's.
- kraft.version: 0 only (no KIP-853 AddRaftVoter/RemoveRaftVoter).
- eligible.leader.replicas.version 1: KIP-966 eligible leader replicas (controller/partition_change.py:
  replicas leaving an ISR under min.insync.replicas stay eligible, the ISR may empty, the last
  leader is remembered; the leader's HW does not move under min ISR, replication/leader.py).
"""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.feature_level_record import FeatureLevelRecord

METADATA_VERSION = "metadata.version"
METADATA_VERSION_MIN = 7    # 3.3-IV3, the oldest a 4.x broker supports
METADATA_VERSION_MAX = 30   # 4.3-IV0
TRANSACTION_VERSION_MAX = 2  # KIP-890 part 2 (coordinator/txn_coordinator.py)

# name -> (min supported, max supported)
SUPPORTED: dict[str, tuple[int, int]] = {
    "eligible.leader.replicas.version": (0, 1),
    "group.version": (0, 1),
    "kraft.version": (0, 0),
    METADATA_VERSION: (METADATA_VERSION_MIN, METADATA_VERSION_MAX),
    "share.version": (0, 1),
    "streams.version": (0, 1),
    "transaction.version": (0, TRANSACTION_VERSION_MAX),
}

# what `kafka-storage format` finalizes on a fresh node (each feature's default for the
# release); level 0 is "not finalized" and is not written
BOOTSTRAP: dict[str, int] = {
    METADATA_VERSION: METADATA_VERSION_MAX,
    "eligible.leader.replicas.version": 1,
    "group.version": 1,
    "share.version": 1,
    "streams.version": 1,
    "transaction.version": TRANSACTION_VERSION_MAX,
}

UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE = 1, 2, 3


def bootstrap_records() -> list:
    return [FeatureLevelRecord(name=k, feature_level=v) for k, v in BOOTSTRAP.items() if v > 0]


def finalized(features) -> dict[str, int]:
    """The finalized levels of an image (a FeatureLevelRecord at level 0 removes a feature)."""
    return {k: v for k, v in features.items() if v > 0}


class UpdateFailed(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _invalid(name: str, level: int, why: str) -> UpdateFailed:
    return UpdateFailed(f"Invalid update version {level} for feature {name}. {why}")


def validate_update(features, name: str, level: int, upgrade_type: int, node_id: int):
    """One FeatureUpdateKey against the image's features -> FeatureLevelRecord, or UpdateFailed."""
    if upgrade_type not in (UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE):
        raise _invalid(name, level, "The controller does not support the given upgrade type.")
    if level < 0:
        raise _invalid(name, level, "A feature version cannot be less than 0.")
    current = features.get(name, 0)
    rng = SUPPORTED.get(name)
    if rng is None:
        if level == 0:
            raise _invalid(name, level, f"Feature {name} not found.")
        raise _invalid(name, level, f"Local controller {node_id} does not support this feature.")
    lo, hi = rng
    if not (lo <= level <= hi) and not (level == 0 and name != METADATA_VERSION):
        raise _invalid(name, level, f"Local controller {node_id} only supports versions {lo}-{hi}")
    if level < current and upgrade_type == UPGRADE:
        raise _invalid(name, level, "Can't downgrade the version of this feature without setting the upgrade "
                                    "type to either safe or unsafe downgrade.")
    if name == METADATA_VERSION and level < current:
        if upgrade_type == UNSAFE_DOWNGRADE:
            raise UpdateFailed(f"Unsupported metadata.version downgrade from {current} to {level}. "
                               "Unsafe metadata downgrade is not supported in this version.")
        raise UpdateFailed(f"Unsupported metadata.version downgrade from {current} to {level}. Refusing to "
                           "perform the requested downgrade because it might delete metadata information.")
    return FeatureLevelRecord(name=name, feature_level=level)


def decide_updates(features, updates, node_id: int):
    """updates: [(name, level, upgrade_type)] -> (records, None) or ([], (error_code, message)).

    Kafka applies all or nothing: the first failing update fails the request.
    """
    records = []
    for name, level, upgrade_type in updates:
        try:
            records.append(validate_update(features, name, level, upgrade_type, node_id))
        except UpdateFailed as e:
            return [], (ErrorCode.INVALID_UPDATE_VERSION,
                        "The update failed for all features since the following feature had an error: " + e.message)
    return records, None
