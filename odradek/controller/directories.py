"""Replica directory assignment (KIP-858, JBOD in KRaft) as Kafka's controller keeps it.

A broker registers the ids of its log directories (BrokerRegistration.LogDirs, kept in its
RegisterBrokerRecord); every partition holds, per replica, the directory it lives in
(PartitionRecord / PartitionChangeRecord ``directories``, the same order as the replicas).
Three reserved ids (Kafka's DirectoryId): MIGRATING (not known yet: a broker that registered
no directories, or a record written without them), UNASSIGNED (the broker picks one and
reports it with AssignReplicasToDirs) and LOST. Pure functions over the image.
"""

from __future__ import annotations

from .features import METADATA_VERSION
from .image import BrokerImage, MetadataImage, PartitionImage

MIGRATING = bytes(16)
UNASSIGNED = bytes(15) + b"\x01"
LOST = bytes(15) + b"\x02"

DIRECTORY_ASSIGNMENT_MIN_LEVEL = 17  # metadata.version 3.7-IV2: isDirectoryAssignmentSupported


def reserved(directory: bytes) -> bool:
    """One of the first 100 ids (Kafka's DirectoryId.reserved: high 64 bits 0, low ones < 100 signed)."""
    return directory[:8] == bytes(8) and int.from_bytes(directory[8:], "big", signed=True) < 100


def supported(image: MetadataImage) -> bool:
    """The image's metadata.version has replica directories (Kafka's isDirectoryAssignmentSupported)."""
    return image.features.get(METADATA_VERSION, 0) >= DIRECTORY_ASSIGNMENT_MIN_LEVEL


def default_dir(broker: BrokerImage | None) -> bytes:
    """Where a new replica on ``broker`` goes (Kafka's ClusterControlManager.defaultDir): its only
    directory; MIGRATING when it registered none; UNASSIGNED when it has several (it chooses)
    or is not registered."""
    if broker is None:
        return UNASSIGNED
    if not broker.log_dirs:
        return MIGRATING
    return broker.log_dirs[0] if len(broker.log_dirs) == 1 else UNASSIGNED


def current(p: PartitionImage) -> tuple[bytes, ...]:
    """The partition's directories, one per replica (MIGRATING for each when none are known)."""
    return p.directories if p.directories else (MIGRATING,) * len(p.replicas)


def for_replicas(p: PartitionImage, replicas: list[int], default, assigned: dict[int, bytes] | None = None
                 ) -> list[bytes]:
    """The directories of ``replicas`` (PartitionChangeBuilder.setAssignmentChanges): a replica's
    ``assigned`` one, else the one it has in ``p``, else ``default(broker_id)`` for a new replica."""
    known = dict(zip(p.replicas, current(p)))
    known.update(assigned or {})
    return [known[r] if r in known else default(r) for r in replicas]
