"""What eligible leader replicas (KIP-966) mean for min.insync.replicas config changes, as Kafka 4.3's
ConfigurationControlManager decides them while eligible.leader.replicas.version is 1 or more (the
level a fresh cluster finalizes):

- every ConfigRecord of min.insync.replicas a request writes is followed, after all of the request's
  ConfigRecords, by a ClearElrRecord: of that topic for a topic's value (a new topic's
  configs included), of every topic (empty name) for a broker's or the cluster default's value
  (createClearElrRecordsAsNeeded). An ELR is kept against one min.insync.replicas; once it
  changes, the replicas it kept are no longer known to be eligible;
- a broker's own min.insync.replicas cannot be set or deleted, and the cluster default's cannot be
  deleted (isDisallowedBrokerMinIsrTransition, isDisallowedClusterMinIsrTransition);
- enabling ELR (UpdateFeatures) writes first what makes it safe: the cluster default's
  min.insync.replicas if there is none, and the removal of every broker's own
  (maybeGenerateElrSafetyRecords).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from odradek.wire.messages.clear_elr_record import ClearElrRecord
from odradek.wire.messages.config_record import ConfigRecord

from .configs import BROKER, TOPIC

ELR_FEATURE = "eligible.leader.replicas.version"
MIN_ISR = "min.insync.replicas"

BROKER_LEVEL_REFUSED = f"Broker-level {MIN_ISR} cannot be altered while ELR is enabled."
CLUSTER_LEVEL_REMOVAL_REFUSED = f"Cluster-level {MIN_ISR} cannot be removed while ELR is enabled."


def elr_enabled(features: Mapping[str, int]) -> bool:
    """A metadata image's finalized features enable ELR (FeatureControlManager.isElrFeatureEnabled)."""
    return features.get(ELR_FEATURE, 0) >= 1


def clear_elr_records(records: Iterable) -> list[ClearElrRecord]:
    """The ClearElrRecords that follow ``records`` (a request's records) while ELR is enabled: one
    per ConfigRecord of min.insync.replicas, in their order."""
    return [ClearElrRecord(topic_name=r.resource_name if r.resource_type == TOPIC else "")
            for r in records if isinstance(r, ConfigRecord) and r.name == MIN_ISR]


def broker_change_refused(resource_name: str, key: str, value: str | None) -> str | None:
    """Why the controller refuses a broker resource's ConfigRecord (``resource_name`` "" is the
    cluster default; ``value`` None deletes) while ELR is enabled; None: it does not."""
    if key != MIN_ISR:
        return None
    if resource_name:
        return BROKER_LEVEL_REFUSED
    return CLUSTER_LEVEL_REMOVAL_REFUSED if value is None else None


def safety_records(broker_configs: Mapping[str, Mapping[str, str]], static_min_isr: str) -> list[ConfigRecord]:
    """What enabling ELR writes ahead of its FeatureLevelRecord: the cluster default's
    min.insync.replicas (the static value) if it has none, then a deletion of each broker's own."""
    out = []
    if MIN_ISR not in broker_configs.get("", {}):
        out.append(ConfigRecord(resource_type=BROKER, resource_name="", name=MIN_ISR, value=static_min_isr))
    for name in sorted((n for n in broker_configs if n), key=lambda n: (len(n), n)):
        if MIN_ISR in broker_configs[name]:
            out.append(ConfigRecord(resource_type=BROKER, resource_name=name, name=MIN_ISR, value=None))
    return out
