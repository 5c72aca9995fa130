"""ReplicaManager: the partitions this node leads, backed by the LogManager.

Nothing is decided about the logs on disk until the metadata is caught up: ``start(image)``
(a single node: at once, its metadata log is local; a cluster broker: once it has applied
its own registration record, see broker/broker_lifecycle.py, as Kafka's broker waits for the
metadata log before its LogManager starts). Until then no partition is served. start()
classifies each log found on disk against that image (``classify_logs``): the partition of
a topic of the same name and id assigned here is kept and served, any other is renamed
`-stray` and kept on disk (never deleted at start-up). From then on, logs are created and
deleted as the metadata image changes (controller listener): a log goes only when the
metadata removes its topic or moves its partition away. A log damaged on disk (offline,
KAFKA_STORAGE_ERROR) is set aside the same way once its topic is gone or re-created under
another id, never while its topic is there with the same id.

On a single node every partition's ISR is this node, so the high watermark is the log end
offset right after each append.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from odradek.api_handlers.ports import UNKNOWN_PARTITION, NotLed
from odradek.wire.errors import ErrorCode

log = logging.getLogger(__name__)

KEEP, ADOPT, STRAY = "keep", "adopt", "stray"


@dataclass(frozen=True)
class Verdict:
    action: str  # KEEP, ADOPT (keep and record the topic id) or STRAY
    reason: str = ""


def assigned_here(image, node_id: int) -> dict[tuple[str, int], int]:
    """(topic, partition) -> leader epoch of every partition this node holds in ``image``."""
    out: dict[tuple[str, int], int] = {}
    for name, topic in image.topics.items():
        for p, part in topic.partitions.items():
            if part.leader == node_id or node_id in tuple(part.replicas):
                out[(name, p)] = part.leader_epoch
    return out


def classify_logs(image, node_id: int, local: dict[tuple[str, int], bytes | None],
                  unreadable: frozenset | set = frozenset(),
                  offline: frozenset | set = frozenset()) -> dict[tuple[str, int], Verdict]:
    """What start-up does with each log on disk, given the caught-up ``image``.
    ``local``: (topic, partition) -> the topic id of its partition.metadata (None: none).
    An ``offline`` (damaged) log is set aside only when its topic is gone or its recorded
    id is another's; else it stays offline, its files untouched (KEEP): it may hold
    acknowledged records of the topic now in the metadata."""
    wanted = assigned_here(image, node_id)
    out = {}
    for tp, tid in local.items():
        topic = image.topics.get(tp[0])
        if tp in offline:
            if topic is None:
                out[tp] = Verdict(STRAY, "its topic is not in the metadata (deleted)")
            elif tid is not None and tp not in unreadable and tid != topic.topic_id:
                out[tp] = Verdict(STRAY, "it belongs to an earlier topic of that name (deleted and re-created)")
            else:
                out[tp] = Verdict(KEEP)
        elif tp in unreadable:
            out[tp] = Verdict(STRAY, "its partition.metadata cannot be read")
        elif topic is None:
            out[tp] = Verdict(STRAY, "its topic is not in the metadata (deleted)")
        elif tid is not None and tid != topic.topic_id:
            out[tp] = Verdict(STRAY, "it belongs to an earlier topic of that name (deleted and re-created)")
        elif tp not in wanted:
            out[tp] = Verdict(STRAY, "the metadata does not assign this partition to this broker")
        elif tid is None:
            out[tp] = Verdict(ADOPT)
        else:
            out[tp] = Verdict(KEEP)
    return out


class ReplicaManager:
    def __init__(self, log_manager, node_id: int, topic_log_config: Callable, poke: Callable,
                 clock_ms: Callable[[], int]):
        self.logs = log_manager
        self.node_id = node_id
        self._topic_log_config = topic_log_config
        self._poke = poke
        self._clock = clock_ms
        self.image = None
        self.started = False
        # (topic, partition) -> leader epoch, for every partition led here
        self.leader_epochs: dict[tuple[str, int], int] = {}
        # partitions assigned here whose log could not be created: offline, tried again on
        # each metadata update, logged once (those the LogManager refused at load, damaged,
        # are in logs.offline until their topic goes)
        self.offline: set[tuple[str, int]] = set()

    # ------------------------------------------------------------ metadata

    def start(self, image) -> None:
        """The metadata is caught up to ``image``: classify the logs on disk, then serve."""
        if self.started:
            return
        self.started = True
        lm = self.logs
        local = {tp: lm.topic_id(*tp) for tp in lm.list() + lm.offline_list()}
        for tp, v in classify_logs(image, self.node_id, local, lm.unreadable, set(lm.offline)).items():
            if v.action == STRAY:
                where = lm.mark_stray(*tp)
                log.warning("log %s-%d: %s; kept on disk, not served, as %s", tp[0], tp[1], v.reason, where)
            elif v.action == ADOPT:
                try:
                    lm.assign_topic_id(*tp, image.topics[tp[0]].topic_id)
                except OSError:
                    log.exception("log %s-%d: cannot write its partition.metadata", *tp)
                    log.warning("log %s-%d kept on disk, not served, as %s", tp[0], tp[1], lm.mark_stray(*tp))
        # the logs were opened before the metadata was there (LogManager's load): give each
        # its topic's config now (else a compacted or retention.ms=-1 topic would run with
        # the broker defaults, cleanup.policy=delete and 7 days, until its next config change);
        # one config per topic, then one pass over the logs (not one pass per topic)
        configs = {}
        for name in sorted({tp[0] for tp in lm.list()}):
            try:
                configs[name] = self._topic_log_config(name)
            except Exception:  # keep the current config; never stop the other topics
                log.exception("topic %s: cannot apply its config; keeping the broker defaults", name)
        lm.update_configs(configs)
        self._follow(None, image)

    def on_metadata(self, old, new) -> None:
        """Controller listener: make the local logs match the new image (once started)."""
        if not self.started:
            self.image = new  # not caught up yet: decide nothing
            return
        self._follow(old, new)

    def _follow(self, old, new) -> None:
        self.image = new
        now = self._clock()
        wanted = assigned_here(new, self.node_id)
        for name, topic in new.topics.items():
            prev = old.topics.get(name) if old is not None else None
            if prev is not None and prev.topic_id == topic.topic_id \
                    and _topic_configs(old, name) != _topic_configs(new, name):
                try:
                    self.logs.update_config(name, self._topic_log_config(name))
                except Exception:  # keep the current config; never stop the other topics
                    log.exception("topic %s: cannot apply the new config; keeping the current one", name)
        offline = set(self.logs.offline_list())
        for tp in self.logs.list() + sorted(offline):
            topic = new.topics.get(tp[0])
            tid = self.logs.topic_id(*tp)
            if tid is None:  # none recorded (older odradek; or unreadable, offline): the name's previous id
                prev = old.topics.get(tp[0]) if old is not None else None
                tid = prev.topic_id if prev is not None else topic.topic_id if topic is not None else None
            if topic is not None and topic.topic_id == tid and (tp in wanted or tp in offline):
                # (an offline log of the topic stays offline and untouched, even moved away)
                if tp not in offline and self.logs.topic_id(*tp) is None:
                    self.logs.assign_topic_id(*tp, tid)
                continue
            # the metadata removed the topic (RemoveTopicRecord), re-created it under
            # another id, or moved this partition away
            log.info("deleting log %s-%d (no longer in metadata)", *tp)
            self.logs.delete(*tp)
            self._poke(("partition", tp[0], tp[1]))
        new_configs: dict[str, object] = {}  # one LogConfig per topic, shared by its new partitions
        for tp in wanted:
            plog = self.logs.get(*tp)
            if plog is None:
                if tp in self.logs.offline:
                    continue  # damaged (the LogManager logged why when it refused it at load)
                try:
                    tcfg = new_configs.get(tp[0])
                    if tcfg is None:
                        tcfg = new_configs[tp[0]] = self._topic_log_config(tp[0])
                    plog = self.logs.get_or_create(tp[0], tp[1], tcfg, now_ms=now,
                                                   topic_id=new.topics[tp[0]].topic_id)
                except Exception:
                    if tp not in self.offline:  # logged once; tried again on the next update
                        log.exception("cannot create the log of %s-%d; partition offline, not serving it", *tp)
                        self.offline.add(tp)
                    continue
                if tp in self.offline:
                    log.info("log %s-%d created; partition back online", *tp)
            self.offline.discard(tp)
            if tp not in self.leader_epochs:
                # becoming leader with this node as the whole ISR: everything in the
                # log is committed (after a crash the checkpointed HW lags behind)
                plog.high_watermark = plog.log_end_offset
        self.offline.intersection_update(wanted)  # a failed create of a partition no longer here is moot
        # served: the partitions led here (a replica that is not the leader - a cluster of an
        # older odradek recorded several - keeps its log but takes no produce or fetch)
        self.leader_epochs = {tp: e for tp, e in wanted.items()
                              if new.topics[tp[0]].partitions[tp[1]].leader == self.node_id
                              and self.logs.get(*tp) is not None}

    # ------------------------------------------------------------ data path

    def get(self, topic: str, partition: int):
        """The PartitionLog if this node leads topic-partition, else None."""
        if (topic, partition) not in self.leader_epochs:
            return None
        return self.logs.get(topic, partition)

    def leader_log(self, topic: str, partition: int):
        """api_handlers.ports.Partitions.leader_log: the PartitionLog if this node leads
        topic-partition, else why not (``not_led``)."""
        plog = self.logs.get(topic, partition) if (topic, partition) in self.leader_epochs else None
        return self.not_led(topic, partition) if plog is None else plog

    def not_led(self, topic: str, partition: int) -> NotLed:
        """Why a partition is not served here, as Kafka's getPartitionOrError: not in the
        metadata image: UNKNOWN_TOPIC_OR_PARTITION; its log offline here (damaged):
        KAFKA_STORAGE_ERROR; else NOT_LEADER_OR_FOLLOWER with the image's leader and epoch."""
        topic_image = self.image.topics.get(topic) if self.image is not None else None
        part = topic_image.partitions.get(partition) if topic_image is not None else None
        if part is None:
            return UNKNOWN_PARTITION
        if (topic, partition) in self.offline or (topic, partition) in self.logs.offline:
            return NotLed(ErrorCode.KAFKA_STORAGE_ERROR, part.leader, part.leader_epoch)
        return NotLed(ErrorCode.NOT_LEADER_OR_FOLLOWER, part.leader, part.leader_epoch)

    def leader_epoch(self, topic: str, partition: int) -> int:
        return self.leader_epochs.get((topic, partition), -1)

    def append(self, topic: str, partition: int, record_set, now_ms: int, log=None):
        """Append as leader (assign offsets, sequence checks); advance the HW; wake fetchers."""
        plog = log or self.get(topic, partition)
        info = plog.append(record_set, now_ms, leader_epoch=self.leader_epochs.get((topic, partition)))
        plog.high_watermark = plog.log_end_offset
        if not info.duplicate:
            self._poke(("partition", topic, partition))
        return info

    def delete_records(self, topic: str, partition: int, offset: int) -> int:
        plog = self.get(topic, partition)
        low = plog.delete_records(offset)
        self._poke(("partition", topic, partition))
        return low


def _topic_configs(image, name: str):
    tc = getattr(image, "topic_configs", None)
    if tc is not None:
        return dict(tc.get(name, {}))
    t = image.topics.get(name)
    return dict(t.configs) if t is not None else {}
