"""ReplicaManager: the partitions this node leads, backed by the LogManager.

Logs are created and deleted as the metadata image changes (controller listener).
On a single node every partition's ISR is this node, so the high watermark is the
log end offset right after each append.
"""

from __future__ import annotations

import logging
from typing import Callable

log = logging.getLogger(__name__)


class ReplicaManager:
    def __init__(self, log_manager, node_id: int, topic_log_config: Callable, poke: Callable,
                 clock_ms: Callable[[], int]):
        self.logs = log_manager
        self.node_id = node_id
        self._topic_log_config = topic_log_config
        self._poke = poke
        self._clock = clock_ms
        self.image = None
        # (topic, partition) -> leader epoch, for every partition led here
        self.leader_epochs: dict[tuple[str, int], int] = {}
        self.stray: set[tuple[str, int]] = set()

    # ------------------------------------------------------------ metadata

    def on_metadata(self, old, new) -> None:
        """Controller listener: make the local logs match the new image."""
        first = self.image is None  # start-up: the replayed image
        self.image = new
        now = self._clock()
        wanted: dict[tuple[str, int], int] = {}
        for name, topic in new.topics.items():
            for p, part in topic.partitions.items():
                if part.leader == self.node_id or self.node_id in tuple(part.replicas):
                    wanted[(name, p)] = part.leader_epoch
        old_topics = old.topics if old is not None and not first else {}
        for name, topic in new.topics.items():
            prev = old_topics.get(name)
            if prev is not None and prev.topic_id != topic.topic_id:
                self._delete_topic(name)  # deleted and re-created under the same name
            elif prev is not None and _topic_configs(old, name) != _topic_configs(new, name):
                try:
                    self.logs.update_config(name, self._topic_log_config(name))
                except Exception:  # keep the current config; never stop the other topics
                    log.exception("topic %s: cannot apply the new config; keeping the current one", name)
        for tp in self.logs.list():
            if tp in wanted:
                if tp in self.stray:  # a new topic reuses the name of a stray log
                    self.stray.discard(tp)
                    self.logs.delete(*tp)
                continue
            if first:
                # At start-up a log whose topic is unknown is kept on disk, unserved
                # (Kafka renames such logs "-stray" rather than deleting them).
                if tp not in self.stray:
                    log.warning("log %s-%d belongs to no topic in the metadata; not serving it", *tp)
                    self.stray.add(tp)
                continue
            if tp in self.stray:
                continue
            log.info("deleting log %s-%d (no longer in metadata)", *tp)
            self.logs.delete(*tp)
            self._poke(("partition", tp[0], tp[1]))
        new_configs: dict[str, object] = {}  # one LogConfig per topic, shared by its new partitions
        for tp in wanted:
            plog = self.logs.get(*tp)
            if plog is None:
                try:
                    tcfg = new_configs.get(tp[0])
                    if tcfg is None:
                        tcfg = new_configs[tp[0]] = self._topic_log_config(tp[0])
                    plog = self.logs.get_or_create(tp[0], tp[1], tcfg, now_ms=now)
                except Exception:
                    log.exception("cannot open the log of %s-%d; not serving it", *tp)
                    continue
            if tp not in self.leader_epochs:
                # becoming leader with this node as the whole ISR: everything in the
                # log is committed (after a crash the checkpointed HW lags behind)
                plog.high_watermark = plog.log_end_offset
        self.leader_epochs = wanted

    def _delete_topic(self, name: str) -> None:
        for tp in self.logs.list():
            if tp[0] == name:
                self.logs.delete(*tp)
                self._poke(("partition", tp[0], tp[1]))

    # ------------------------------------------------------------ data path

    def get(self, topic: str, partition: int):
        """The PartitionLog if this node leads topic-partition, else None."""
        if (topic, partition) not in self.leader_epochs:
            return None
        return self.logs.get(topic, partition)

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
