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

Each partition assigned here is led or followed, as the image says (Kafka's makeLeader /
makeFollower): a leader is a replication.PartitionLeader per leader epoch (same-epoch changes
through apply_metadata) that owns the high watermark (min over the ISR), the follower
fetches (``follower_fetch``) and the ISR proposals, sent to the active controller as
AlterPartition; a follower is handed to the ReplicaFetcherManager (``FollowerFetchers``).
On a single node every partition's ISR is this node, so the high watermark is the log end
offset right after each append.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Protocol

from odradek.api_handlers.ports import UNKNOWN_PARTITION, DeletedRecords, NotLed, low_watermark_key
from odradek.broker.config_build import ConfigBuild
from odradek.config import RACK_AWARE_SELECTOR
from odradek.controller.configs import BROKER_SYNONYMS
from odradek.replication.leader import LeaderConfig, PartitionLeader
from odradek.replication.messages import (
    AlterPartitionProposal, EpochAnswer, EpochQuery, FetchDecision, LeaderAndIsr, ReplicaFetch,
)
from odradek.replication.read_replica import NO_PREFERRED, preferred_read_replica
from odradek.wire.errors import ErrorCode

if TYPE_CHECKING:
    from odradek.broker.replication_throttle import ReplicationThrottle
    from odradek.broker.stats import TopicStats
    from odradek.log.config import LogConfig

log = logging.getLogger(__name__)

KEEP, ADOPT, STRAY = "keep", "adopt", "stray"
HIGH_WATERMARK = -1  # DeleteRecords' offset meaning "up to the high watermark"
# the logs one metadata change creates at once; beyond, a slice of this many at a time with other
# work between (a 5,000-partition topic does not hold the event loop for its whole creation)
CREATE_SLICE = 64
# the partitions whose leadership (led, followed, neither) one metadata change sets at once; beyond,
# a slice of this many at a time with other work between, each partition as the newest image says
# (5,000 leaderships moved held the event loop ~0.7 s in CPU time, many seconds under load)
LEAD_SLICE = 500
# the topics whose new configs one metadata change gives at once; beyond, their configs are built
# this many topics a loop turn, then given to all of them in one turn (broker/config_build.py)
RECONFIGURE_SLICE = 200


@dataclass(frozen=True)
class NewConfigs:
    """A topic's new configs, built before they are given (ReplicaManager._reconfigure)."""
    log_config: LogConfig | None  # None: it could not be made (the logs keep theirs)
    leader_config: LeaderConfig | None  # None: no partition of it led here
    leaders: list  # [((topic, partition), PartitionLeader)] whose LeaderConfig differs from it


_NO_CONFIGS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class Verdict:
    """What start-up does with a log found on disk: keep it, adopt it, or set it aside as a stray."""
    action: str  # KEEP, ADOPT (keep and record the topic id) or STRAY
    reason: str = ""


def assigned_here(image, node_id: int, names: Iterable[str] | None = None) -> dict[tuple[str, int], int]:
    """(topic, partition) -> leader epoch of every partition this node holds in ``image`` (of the
    topics named ``names`` only, when given)."""
    out: dict[tuple[str, int], int] = {}
    topics = image.topics.items() if names is None else (
        (n, t) for n in names if (t := image.topics.get(n)) is not None)
    for name, topic in topics:
        for p, part in topic.partitions.items():
            if part.leader == node_id or node_id in tuple(part.replicas):
                out[(name, p)] = part.leader_epoch
    return out


def changed_topics(old, new) -> frozenset | None:
    """The names of the topics whose partitions or configs differ between ``old`` and ``new``,
    when ``new`` says what it changed from ``old`` (image.ImageChanges); None: not known, or a
    broker changed (which every leader hears): every topic is looked at."""
    ch = new.changes
    if old is None or ch is None or ch.base_serial != old.serial or ch.brokers:
        return None
    return ch.topics | ch.topic_configs


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


class FollowerFetchers(Protocol):
    """The follower side (broker/replica_fetcher.py ReplicaFetcherManager)."""

    def become_follower(self, tp: tuple[str, int], leader_id: int, leader_epoch: int, plog,
                        topic_id: bytes | None = None) -> None: ...

    def stop_following(self, tps: Iterable[tuple[str, int]]) -> None: ...


# an ISR change for the active controller: (topic, partition), topic id, the leader's proposal
SendAlterPartition = Callable[[tuple[str, int], bytes, AlterPartitionProposal], None]


class ReplicaManager:
    def __init__(self, log_manager, node_id: int, topic_log_config: Callable, poke: Callable,
                 clock_ms: Callable[[], int], *, min_insync_replicas: Callable[[str], int] = lambda topic: 1,
                 replica_lag_time_max_ms: int = 30_000, fetchers: FollowerFetchers | None = None,
                 send_alter_partition: SendAlterPartition | None = None,
                 replica_selector: str | None = None, topic_stats: TopicStats | None = None,
                 background: Callable[[Callable[[], None]], None] | None = None,
                 throttle: ReplicationThrottle | None = None):
        """``background(fn)``: runs fn soon, after other work waiting (the broker's event loop):
        a metadata change creating more than CREATE_SLICE logs here creates the rest a slice at
        a time through it, and the logs' directories are made and renamed away by the log
        manager's background pass (the broker runs it in a worker thread); None: all at once."""
        self.logs = log_manager
        self._background = background
        # partitions assigned here whose log is still to be created (a large creation, a slice
        # at a time): created by the next slices, or at once when a request needs one
        self._pending: dict[tuple[str, int], None] = {}
        self._slice_scheduled = False
        # partitions of a large leadership change still to be led, followed or let go as the image
        # followed says (a slice at a time; at once when a request needs one): _lead_slice
        self._moving: dict[tuple[str, int], None] = {}
        self._lead_scheduled = False
        # topics whose dynamic configs changed in a large change (more than RECONFIGURE_SLICE of
        # them), their new configs built a slice at a time, then given to all at once (_reconfigure)
        self._reconfiguring: ConfigBuild[NewConfigs | None] = ConfigBuild()
        self._reconfigure_scheduled = False
        self._throttle = throttle  # leader.replication.throttled.rate (KIP-73)
        self._stats = topic_stats
        self._followed = None  # the image the leaders, followers and logs last matched
        self._replica_selector = replica_selector  # replica.selector.class (KIP-392), None: leader only
        self.node_id = node_id
        self._topic_log_config = topic_log_config
        self._poke = poke
        self._clock = clock_ms
        self._min_isr = min_insync_replicas
        self._lag_ms = replica_lag_time_max_ms
        self.fetchers = fetchers
        self._send_alter_partition = send_alter_partition
        self.image = None
        self.started = False
        # (topic, partition) -> its PartitionLeader (one per leader epoch), for every partition led here
        self.leaders: dict[tuple[str, int], PartitionLeader] = {}
        # (topic, partition) -> leader epoch, for every partition led here (a view of ``leaders``)
        self.leader_epochs: Mapping[tuple[str, int], int] = LeaderEpochs(self.leaders)
        # the unfenced brokers' epochs of the image's broker table last seen, shared by the leaders
        self._alive: tuple[object, dict[int, int]] = (None, {})
        # (topic, partition) -> (leader id, leader epoch) of the partitions followed here
        self.following: dict[tuple[str, int], tuple[int, int]] = {}
        # called after each leadership change with ({tp: leader epoch} now led here at a new epoch,
        # {tp: leader epoch it is followed at, None: gone from here} no longer led here): the
        # coordinators of the internal topics (broker/coordinator_loading.py)
        self.leadership_listeners: list[Callable[[dict, dict], None]] = []
        # leadership changes a request set (_settle), told the listeners at the loop's next turn, in
        # order: a coordinator unloads its partition in its own turn, never inside a request's
        # operation on it (Kafka's coordinator runtime runs onResignation as an event of its own)
        self._untold: list[tuple[dict, dict]] = []
        self._tell_scheduled = False
        self._next_isr_check_ms = 0
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
        """Make the logs, leaders and followers match ``new``: for the topics the change from
        ``old`` touched (changed_topics), or for every topic when that is not known - also when
        ``old`` is not the image this manager last followed (images that came while it was not
        started, or that start() did not see: their changes were never applied here)."""
        if old is not None and old is not self._followed:
            old = None
        self._followed = new
        self.image = new
        now = self._clock()
        configured = changed_topics(old, new)
        # the topics whose partitions (or existence) differ: the delta's TopicsDelta, whose partitions,
        # logs, leaders and followers are looked at; a topic whose configs alone changed is not among
        # them: only its log and leader configs change (Kafka's BrokerMetadataPublisher:
        # ReplicaManager.applyDelta for the TopicsDelta, the topic config handler for config changes)
        names = None if configured is None else new.changes.topics
        full = names is None
        # a changed dynamic broker default of a topic config (log.retention.ms of the cluster default or
        # this broker): every topic without its own value takes it (Kafka's DynamicLogConfig.reconfigure)
        every = old is not None and _topic_defaults_changed(old, new, self.node_id)
        if every and not full:
            configured = frozenset(new.topics)
        if full:
            names = set(new.topics)
            if old is not None:
                names.update(old.topics)
            names.update(tp[0] for tp in self.logs.list())
            names.update(tp[0] for tp in self.leaders)
            names.update(tp[0] for tp in self.following)
            names.update(tp[0] for tp in self.offline)
            configured = names
        elif self.offline:  # (a log that could not be created is tried again on every update)
            names = names | {tp[0] for tp in self.offline}
        if old is not None:
            self._reconfigure(old, new, configured, now, every)
        elif self._reconfiguring:  # (what changed is not known: every topic's config built again)
            self._reconfiguring.restart()
        if not names:
            return
        wanted = assigned_here(new, self.node_id, names)
        offline = {tp for tp in self.logs.offline_list() if tp[0] in names}
        local = [(name, p) for name in names for p in self.logs.topic_logs(name)]
        gone = []
        for tp in sorted(local) + sorted(offline):
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
            gone.append(tp)
        if gone:  # (one line per metadata change, however many partitions it deletes)
            log.info("deleting the logs of %d partition(s) no longer in metadata here%s", len(gone),
                     _some(f"{t}-{p}" for t, p in gone))
        # (with a background, the deleted logs' directories are renamed and the new logs' made by the
        # log manager's background pass, off the event loop: LogManager.write_pending_state)
        self.logs.delete_many(gone, defer=self._background is not None)
        for tp in gone:
            self._poke(("partition", tp[0], tp[1]))
        new_configs: dict[str, object] = {}  # one LogConfig per topic, shared by its new partitions
        if self._background is not None:
            missing = [tp for tp in wanted if tp not in self._pending and self.logs.get(*tp) is None
                       and tp not in self.logs.offline]
            if len(missing) > CREATE_SLICE:  # a large creation: a slice now, the rest between other work
                self._pending.update(dict.fromkeys(sorted(missing)[CREATE_SLICE:]))
                self._schedule_slice()
        for tp in wanted:
            if tp in self._pending:
                continue
            if self.logs.get(*tp) is None:
                if tp in self.logs.offline:
                    continue  # damaged (the LogManager logged why when it refused it at load)
                if not self._create_log(tp, new, now, new_configs):
                    continue
            self.offline.discard(tp)
        # a failed create of a partition no longer here is moot
        self.offline.difference_update([tp for tp in self.offline if tp[0] in names and tp not in wanted])
        self._lead(new, wanted, self._scope(old, new, names, wanted, full), now)

    def _lead(self, image, wanted, scope: set, now: int) -> None:
        """_become_leaders_and_followers over ``scope``: at once, or - more than LEAD_SLICE
        partitions (or a large change still under way), with a background runner - LEAD_SLICE
        partitions now and the rest a slice at a time (_lead_slice), each partition set as the image
        of the moment says. A partition's own change is whole in one turn (its fetcher stopped before
        it leads; it leads on its ready log; followed once it no longer leads), as Kafka's applyDelta
        changes one partition at a time while its request threads serve the others."""
        if self._background is None or (len(scope) <= LEAD_SLICE and not self._moving):
            self._become_leaders_and_followers(image, wanted, scope, now)
            return
        # (a partition no longer here is let go at once: its log may be deleted in this turn, and
        # its fetcher must not write to it after)
        order = sorted(tp for tp in scope if tp in wanted)
        for tp in scope:
            self._moving.pop(tp, None)
        self._moving.update(dict.fromkeys(order[LEAD_SLICE:]))
        now_set = set(order[:LEAD_SLICE]) | {tp for tp in scope if tp not in wanted}
        self._become_leaders_and_followers(image, {tp: e for tp, e in wanted.items() if tp in now_set}, now_set, now)
        self._schedule_lead()

    def _schedule_lead(self) -> None:
        if self._moving and not self._lead_scheduled:
            self._lead_scheduled = True
            self._background(self._lead_slice)

    def _lead_slice(self) -> None:
        """The next LEAD_SLICE partitions of a large leadership change, as the image followed says."""
        self._lead_scheduled = False
        self._settle_moving(list(itertools.islice(self._moving, LEAD_SLICE)))
        self._schedule_lead()

    def _settle_moving(self, tps: list[tuple[str, int]], tell_later: bool = False) -> None:
        """Lead, follow or let go the partitions ``tps`` of a large change as the image followed says
        (``tell_later``: the listeners are told at the loop's next turn)."""
        image = self.image
        scope = set()
        wanted: dict[tuple[str, int], int] = {}
        for tp in tps:
            if self._moving.pop(tp, False) is False:
                continue
            scope.add(tp)
            topic = image.topics.get(tp[0])
            part = topic.partitions.get(tp[1]) if topic is not None else None
            if part is not None and (part.leader == self.node_id or self.node_id in part.replicas):
                wanted[tp] = part.leader_epoch
        if scope:
            self._become_leaders_and_followers(image, wanted, scope, self._clock(), tell_later)

    def _reconfigure(self, old, new, names, now: int, every: bool = False) -> None:
        """The topics ``names`` whose dynamic configs differ between ``old`` and ``new`` (the same
        topic id in both): their logs take the new log config, their leaders here the new
        LeaderConfig; a leader whose min.insync.replicas changed checks its HW and its waiting
        acks=all produces against it at once. Every topic's logs change config at the same moment:
        in this call, or - more than RECONFIGURE_SLICE topics, with a background runner - in the
        turn that gives the last of them theirs, their new configs built RECONFIGURE_SLICE topics a
        turn before it (as Kafka's broker applies a config change after publishing the image, on
        its publisher's thread, while requests go on with the configs they had). A change meanwhile
        wins: the topics it touches are built again, and added if they were not there. ``every``: the
        broker's topic config defaults changed, every topic of ``names`` in both images takes its config
        again."""
        building = self._reconfiguring
        if building:  # (a newer image: what it touched of the build is built again)
            building.add([name for name in names if name in building and _config_moved(old, new, name)])
        changed = [name for name in names
                   if (_same_topic(old, new, name) if every else _config_changed(old, new, name))]
        if not changed:
            return
        if self._background is not None and (building or len(changed) > RECONFIGURE_SLICE):
            building.add(sorted(changed))  # (built in name order)
            self._schedule_reconfigure()
            return
        self._give_configs({name: self._new_configs(name) for name in changed}, now)

    def _schedule_reconfigure(self) -> None:
        if self._reconfiguring and not self._reconfigure_scheduled:
            self._reconfigure_scheduled = True
            self._background(self._reconfigure_slice)

    def _reconfigure_slice(self) -> None:
        """The new configs of the next RECONFIGURE_SLICE topics; once all are built, every topic
        takes its own in this turn."""
        self._reconfigure_scheduled = False
        building = self._reconfiguring
        if not building:
            return
        layers = getattr(self.image, "broker_configs", None)
        if building.shared is not layers:  # (the dynamic broker configs under every topic's changed)
            building.shared = layers
            building.restart()
        if building.build(self._new_configs, RECONFIGURE_SLICE):
            self._give_configs(building.take(), self._clock())
        else:
            self._schedule_reconfigure()

    def _new_configs(self, name: str) -> NewConfigs | None:
        """The topic's new log config and LeaderConfig in the image followed, and its leaders here
        whose LeaderConfig differs; None: the topic is not there."""
        topic = self.image.topics.get(name)
        if topic is None:
            return None
        try:
            log_config = self._topic_log_config(name)
        except Exception:  # keep the current config; never stop the other topics
            log.exception("topic %s: cannot apply the new config; keeping the current one", name)
            log_config = None
        config = None  # (one per topic, read only when it leads one of its partitions here)
        leaders = []
        for p in topic.partitions:
            leader = self.leaders.get((name, p))
            if leader is None:
                continue
            if config is None:
                config = self._leader_config(name)
            if leader.config != config:
                leaders.append(((name, p), leader))
        return NewConfigs(log_config, config, leaders)

    def _give_configs(self, configs: Mapping[str, NewConfigs | None], now: int) -> None:
        """Every topic its new log config, and its leaders their new LeaderConfig (a leader made
        since its config was built has it already: made with the image's)."""
        self.logs.update_configs({name: c.log_config for name, c in configs.items()
                                  if c is not None and c.log_config is not None})
        for c in configs.values():
            for tp, leader in c.leaders if c is not None else ():
                if self.leaders.get(tp) is leader and leader.config != c.leader_config:
                    leader.reconfigure(c.leader_config, now)
                    self._drain(tp, leader)

    def _create_log(self, tp: tuple[str, int], image, now: int, configs: dict) -> bool:
        """Create the log of a partition assigned here (``configs``: one LogConfig per topic, shared
        by its new partitions); False when it cannot be (offline, tried again on the next update)."""
        try:
            tcfg = configs.get(tp[0])
            if tcfg is None:
                tcfg = configs[tp[0]] = self._topic_log_config(tp[0])
            self.logs.get_or_create(tp[0], tp[1], tcfg, now_ms=now, topic_id=image.topics[tp[0]].topic_id, key=tp,
                                    defer_files=self._background is not None)
        except Exception:
            if tp not in self.offline:  # logged once; tried again on the next update
                log.exception("cannot create the log of %s-%d; partition offline, not serving it", *tp)
                self.offline.add(tp)
            return False
        if tp in self.offline:
            log.info("log %s-%d created; partition back online", *tp)
        return True

    def _schedule_slice(self) -> None:
        if self._pending and not self._slice_scheduled:
            self._slice_scheduled = True
            self._background(self._create_slice)

    def stop_creating(self) -> None:
        """The broker stops: the pending logs are not made (the next start makes them), the configs
        being built are not given (the next start gives every log its topic's)."""
        self._pending.clear()
        self._moving.clear()
        self._reconfiguring.clear()

    def stop(self) -> None:
        """The broker stops (before its logs close, in a worker thread, while the event loop goes
        on): stop_creating, and later images are kept, not followed - no log is made, deleted,
        led, followed or reconfigured any more (the next start follows the image it finds); the
        leadership changes not yet told to the listeners (the coordinators' loaders) are dropped."""
        self.stop_creating()
        self.started = False
        self._untold.clear()  # (leadership changes not told yet: no listener loads or unloads now)

    def _create_slice(self) -> None:
        """The next CREATE_SLICE pending logs; the rest in later slices."""
        self._slice_scheduled = False
        self._materialize(list(itertools.islice(self._pending, CREATE_SLICE)))
        self._schedule_slice()

    def _materialize(self, tps: list[tuple[str, int]], tell_later: bool = False) -> None:
        """Create the pending logs ``tps`` that the image followed still assigns here, and lead or
        follow them as it says (a partition gone or moved meanwhile is dropped; ``tell_later``: the
        listeners are told at the loop's next turn)."""
        image = self.image
        now = self._clock()
        made: dict[tuple[str, int], int] = {}
        configs: dict = {}
        for tp in tps:
            if self._pending.pop(tp, False) is False:
                continue
            topic = image.topics.get(tp[0])
            part = topic.partitions.get(tp[1]) if topic is not None else None
            if part is None or (part.leader != self.node_id and self.node_id not in part.replicas):
                continue
            if self.logs.get(*tp) is None and not self._create_log(tp, image, now, configs):
                continue
            self.offline.discard(tp)
            made[tp] = part.leader_epoch
        if made:
            for tp in made:
                self._moving.pop(tp, None)
            self._become_leaders_and_followers(image, made, set(made), now, tell_later)

    def _leader(self, tp: tuple[str, int]) -> PartitionLeader | None:
        """The partition's leader here; a pending log is created first (a request needs it now)."""
        self._settle(tp)
        return self.leaders.get(tp)

    def _settle(self, tp: tuple[str, int]) -> None:
        """A request needs the partition now: its pending log created, its pending leadership set
        (the listeners told at the loop's next turn: not inside the request)."""
        if tp in self._pending:
            self._materialize([tp], tell_later=True)
        if tp in self._moving:
            self._settle_moving([tp], tell_later=True)

    def _scope(self, old, new, names, wanted, full: bool) -> set[tuple[str, int]]:
        """Every partition of the topics ``names`` that is, or was, led, followed or wanted here
        (``full``: also every one led or followed here now)."""
        scope = set(wanted)
        for image in (old, new):
            for name in names:
                topic = image.topics.get(name) if image is not None else None
                if topic is not None:
                    scope.update((name, p) for p in topic.partitions)
        if full:
            scope.update(self.leaders)
            scope.update(self.following)
        return scope

    def _become_leaders_and_followers(self, image, wanted, scope, now: int, tell_later: bool = False) -> None:
        """Kafka's applyDelta: the partitions whose leader is this node become (or stay) leaders,
        the others followers of the image's leader; a partition no longer here is neither.
        Only the partitions in ``scope`` (those of the topics that changed) are looked at.
        ``tell_later``: the leadership listeners are told at the loop's next turn (a request's settle)."""
        if self._alive[0] is not image.brokers:  # (the same broker table: the same mapping, shared)
            self._alive = (image.brokers, {b.node_id: b.epoch for b in image.brokers.values() if not b.fenced})
        alive = self._alive[1]
        led, followed = {}, {}
        for tp in wanted:
            if self.logs.get(*tp) is None:
                continue
            part = image.topics[tp[0]].partitions[tp[1]]
            if part.leader == self.node_id:
                led[tp] = part
            else:
                followed[tp] = (part.leader, part.leader_epoch)
        # the fetchers let go of the new leaders (and of partitions gone) before they lead
        stop = [tp for tp in scope if tp in self.following and tp not in followed]
        if stop and self.fetchers is not None:
            self.fetchers.stop_following(stop)
        leaders: dict[tuple[str, int], PartitionLeader] = {}
        configs: dict[str, LeaderConfig] = {}  # one per topic, for its new leaders
        for tp, part in led.items():
            state = LeaderAndIsr(part.leader, part.leader_epoch, part.partition_epoch, frozenset(part.isr))
            replicas = tuple(part.replicas) or (self.node_id,)
            leader = self.leaders.get(tp)
            plog = self.logs.get(*tp)
            if leader is not None and leader.leader_epoch == part.leader_epoch and leader.log is plog:
                leader.apply_metadata(state, replicas, now, alive)
            else:  # a new leader epoch, or a new log (its topic deleted and re-created)
                # as makeLeader: the HW this broker had (a single node's: the whole log, see
                # PartitionLeader: with no other replica the HW is the log end at once)
                config = configs.get(tp[0]) or configs.setdefault(tp[0], self._leader_config(tp[0]))
                leader = PartitionLeader(self.node_id, plog, config, state, replicas, plog.high_watermark, now, alive)
            leaders[tp] = leader
            self._drain(tp, leader)
        resigned = [tp for tp in scope if tp in self.leaders and leaders.get(tp) is not self.leaders[tp]]
        old_epochs = {tp: self.leaders[tp].leader_epoch for tp in scope if tp in self.leaders}
        for tp in scope:
            if tp in self.leaders and tp not in leaders:
                del self.leaders[tp]
        self.leaders.update(leaders)
        for tp in resigned:  # waiting acks=all produces answer NOT_LEADER_OR_FOLLOWER, fetches wake
            self._poke(("partition", tp[0], tp[1]))
        for tp, (leader_id, epoch) in followed.items():
            if self.following.get(tp) == (leader_id, epoch) or self.fetchers is None:
                continue
            if leader_id >= 0:
                self.fetchers.become_follower(tp, leader_id, epoch, self.logs.get(*tp),
                                              topic_id=image.topics[tp[0]].topic_id)
            elif tp in self.following:
                self.fetchers.stop_following([tp])
        if followed and self.fetchers is None:
            log.warning("partitions %s are led elsewhere and this node has no replica fetcher",
                        sorted(followed)[:5])
        for tp in scope:
            if tp in self.following and tp not in followed:
                del self.following[tp]
        self.following.update(followed)
        elected = {tp: ld.leader_epoch for tp, ld in leaders.items() if old_epochs.get(tp) != ld.leader_epoch}
        lost = {tp: followed[tp][1] if tp in followed else None for tp in old_epochs if tp not in leaders}
        if elected or lost:  # one line per metadata change, however many partitions it moves
            log.info("leadership: leader of %d more partition(s)%s, no longer leader of %d%s", len(elected),
                     _some(f"{t}-{p}@{e}" for (t, p), e in sorted(elected.items())), len(lost),
                     _some(f"{t}-{p}" for t, p in sorted(lost)))
        if not (elected or lost):
            return
        if tell_later and self._background is not None:
            self._untold.append((elected, lost))
            if not self._tell_scheduled:
                self._tell_scheduled = True
                self._background(self._tell_untold)
            return
        self._tell_untold()  # (the changes a request set before this one first: the listeners see them in order)
        self._tell(elected, lost)

    def _tell_untold(self) -> None:
        self._tell_scheduled = False
        untold, self._untold = self._untold, []
        for elected, lost in untold:
            self._tell(elected, lost)

    def _tell(self, elected: dict, lost: dict) -> None:
        for listener in self.leadership_listeners:
            try:
                listener(elected, lost)
            except Exception:  # never stop the partitions' own changes
                log.exception("leadership listener %r failed", listener)

    def _leader_config(self, topic: str) -> LeaderConfig:
        try:
            min_isr = self._min_isr(topic)
        except Exception:  # never stop the other partitions
            log.exception("topic %s: cannot read min.insync.replicas; using 1", topic)
            min_isr = 1
        return LeaderConfig(min_insync_replicas=min_isr, replica_lag_time_max_ms=self._lag_ms)

    def _drain(self, tp: tuple[str, int], leader: PartitionLeader) -> None:
        """Carry out what the leader asks: the epoch's start in the epoch cache, the HW (waking
        whoever waits on the partition when it moves), ISR proposals to the controller."""
        rd = leader.ready()
        plog = leader.log
        if rd.epoch_start is not None:
            plog.assign_epoch(*rd.epoch_start)
        if rd.high_watermark != plog.high_watermark:
            plog.high_watermark = rd.high_watermark
            self._poke(("partition", tp[0], tp[1]))
        if rd.low_watermark_moved:
            self._poke(low_watermark_key(*tp))
        if rd.proposals:
            topic = self.image.topics.get(tp[0]) if self.image is not None else None
            if self._send_alter_partition is None or topic is None:
                log.warning("partition %s-%d: cannot send the ISR change %s: no controller to send it to",
                            tp[0], tp[1], rd.proposals[-1])
            else:
                for p in rd.proposals:
                    shrink = len(p.isr_ids) < len(leader.isr)
                    if self._stats is not None:
                        self._stats.isr_change(shrink)
                    log.info("partition %s-%d: %s ISR from %s to %s (leader epoch %d, high watermark %d)", tp[0],
                             tp[1], "shrinking" if shrink else "expanding", ",".join(map(str, sorted(leader.isr))),
                             ",".join(map(str, sorted(p.isr_ids))), leader.leader_epoch, plog.high_watermark)
                    self._send_alter_partition(tp, topic.topic_id, p)

    def tick(self, now_ms: int) -> None:
        """Kafka's isr-expiration task, every replica.lag.time.max.ms / 2: shrink the ISR of
        followers that stopped being caught up (and move the HW they held back)."""
        if now_ms < self._next_isr_check_ms:
            return
        self._next_isr_check_ms = now_ms + max(1, self._lag_ms // 2)
        for tp, leader in list(self.leaders.items()):
            if leader.followers:
                leader.tick(now_ms)
                self._drain(tp, leader)

    def on_alter_partition_answer(self, tp: tuple[str, int], proposal_id: int,
                                  answer: LeaderAndIsr | ErrorCode) -> None:
        """The controller's answer to a proposal (or the error it failed with)."""
        leader = self.leaders.get(tp)
        if leader is not None:
            leader.on_alter_partition_answer(proposal_id, answer, self._clock())
            self._drain(tp, leader)

    # ------------------------------------------------------------ data path

    def get(self, topic: str, partition: int):
        """The PartitionLog if this node leads topic-partition, else None."""
        leader = self._leader((topic, partition))
        return leader.log if leader is not None else None

    def leader_log(self, topic: str, partition: int, current_leader_epoch: int = -1):
        """api_handlers.ports.Partitions.leader_log: the PartitionLog if this node leads
        topic-partition (at ``current_leader_epoch`` when the request names one, -1: any),
        else why not (``not_led``)."""
        leader = self._leader((topic, partition))
        if leader is None:
            return self.not_led(topic, partition, current_leader_epoch)
        if current_leader_epoch >= 0 and current_leader_epoch != leader.leader_epoch:
            return NotLed(_epoch_error(current_leader_epoch, leader.leader_epoch), self.node_id, leader.leader_epoch)
        return leader.log

    def consumer_log(self, topic: str, partition: int, current_leader_epoch: int = -1):
        """api_handlers.ports.Partitions.consumer_log: for a consumer's Fetch v11+ (KIP-392),
        which Kafka serves from a follower too (fetchOnlyFromLeader false): the PartitionLog of
        a partition led or followed here, checked against ``current_leader_epoch`` as
        Partition's localLogWithEpochOrThrow; else why not (``not_led``)."""
        tp = (topic, partition)
        self._settle(tp)
        if tp in self.leaders:
            return self.leader_log(topic, partition, current_leader_epoch)
        followed = self.following.get(tp)
        plog = self.logs.get(topic, partition) if followed is not None else None
        if plog is None or tp in self.offline or followed[0] < 0:
            return self.not_led(topic, partition, current_leader_epoch)
        if current_leader_epoch >= 0 and current_leader_epoch != followed[1]:
            return NotLed(_epoch_error(current_leader_epoch, followed[1]), followed[0], followed[1])
        return plog

    def preferred_read_replica(self, topic: str, partition: int, client_rack: str | None,
                               fetch_offset: int, now_ms: int) -> int:
        """The follower a consumer in ``client_rack`` should fetch from (Kafka's
        findPreferredReadReplica with replica.selector.class), -1: read from this leader."""
        leader = self._leader((topic, partition))
        if leader is None or self._replica_selector != RACK_AWARE_SELECTOR or not client_rack \
                or self.image is None:
            return NO_PREFERRED
        racks = {b.node_id: b.rack for b in self.image.brokers.values() if not b.fenced}
        return preferred_read_replica(self.node_id, leader.isr, leader.followers,
                                      racks, client_rack, fetch_offset, now_ms)

    def not_led(self, topic: str, partition: int, current_leader_epoch: int = -1) -> NotLed:
        """Why a partition is not served here, as Kafka's getPartitionOrError: not in the
        metadata image: UNKNOWN_TOPIC_OR_PARTITION; its log offline here (damaged):
        KAFKA_STORAGE_ERROR; a replica followed here, asked at another leader epoch than the
        image's: FENCED_LEADER_EPOCH (older) or UNKNOWN_LEADER_EPOCH (newer), as Partition's
        checkCurrentLeaderEpoch; else NOT_LEADER_OR_FOLLOWER with the image's leader and epoch."""
        self._settle((topic, partition))
        topic_image = self.image.topics.get(topic) if self.image is not None else None
        part = topic_image.partitions.get(partition) if topic_image is not None else None
        if part is None:
            return UNKNOWN_PARTITION
        if (topic, partition) in self.offline or (topic, partition) in self.logs.offline:
            return NotLed(ErrorCode.KAFKA_STORAGE_ERROR, part.leader, part.leader_epoch)
        if current_leader_epoch >= 0 and current_leader_epoch != part.leader_epoch \
                and (topic, partition) in self.following:
            return NotLed(_epoch_error(current_leader_epoch, part.leader_epoch), part.leader, part.leader_epoch)
        return NotLed(ErrorCode.NOT_LEADER_OR_FOLLOWER, part.leader, part.leader_epoch)

    def leader_epoch(self, topic: str, partition: int) -> int:
        leader = self._leader((topic, partition))
        return leader.leader_epoch if leader is not None else -1

    def check_append(self, topic: str, partition: int, acks: int) -> ErrorCode:
        """Before an append as leader: NOT_ENOUGH_REPLICAS for acks=all while the ISR is
        under min.insync.replicas (Partition.appendRecordsToLeader)."""
        leader = self._leader((topic, partition))
        return leader.check_append(acks) if leader is not None else ErrorCode.NOT_LEADER_OR_FOLLOWER

    def append(self, topic: str, partition: int, record_set, now_ms: int, log=None, coordinator: bool = False,
               flush_later: bool = False):
        """Append as leader (assign offsets, sequence checks) at the leader epoch; move the
        HW (the log end on a single node); wake fetchers. ``coordinator``: a batch a coordinator
        here built of its own records (PartitionLog.append: not read back). ``flush_later``: a
        flush.messages flush goes to the log flusher, and the caller waits for it (PartitionLog.flushed)."""
        tp = (topic, partition)
        leader = self.leaders[tp]
        plog = leader.log
        stats = self._stats
        if stats is not None:
            stats.produce_request(topic)
        info = plog.append(record_set, now_ms, leader_epoch=leader.leader_epoch, coordinator=coordinator,
                           flush_later=flush_later)
        if not info.duplicate:
            if stats is not None:
                stats.appended(topic, info.record_count, len(record_set))
            leader.on_append(now_ms)
            hw = leader.high_watermark
            if hw != plog.high_watermark:
                plog.high_watermark = hw
            self._poke(("partition", topic, partition))
        return info

    def acks_reached(self, topic: str, partition: int, required_offset: int) -> tuple[bool, ErrorCode]:
        """An acks=all produce up to ``required_offset`` (exclusive): done, and with what
        error (Partition.checkEnoughReplicasReachOffset; not led here, DelayedProduce's
        getPartitionOrError: NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION once the metadata
        has no such partition - its topic deleted -, KAFKA_STORAGE_ERROR for a log offline here)."""
        leader = self._leader((topic, partition))
        if leader is None:
            return False, self.not_led(topic, partition).error
        if leader.high_watermark < required_offset:
            return False, ErrorCode.NONE
        if leader.effective_min_isr <= len(leader.isr_state.maximal):
            return True, ErrorCode.NONE
        return True, ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND

    def follower_fetch(self, topic: str, partition: int, fetch: ReplicaFetch, now_ms: int):
        """A follower's Fetch of a partition led here: (log, the leader's FetchDecision) after
        its progress is recorded (the HW may move: waiting produces and fetches wake), or
        NotLed as for a consumer."""
        leader = self._leader((topic, partition))
        if leader is None:
            return self.not_led(topic, partition, fetch.current_leader_epoch)
        decision: FetchDecision = leader.on_fetch(fetch, now_ms)
        self._drain((topic, partition), leader)
        return leader.log, decision

    def replication_throttled(self, topic: str, partition: int, replica_id: int, now_ms: int) -> bool:
        """A follower's fetch of a partition led here gets no records now: the follower is out of
        the ISR, the partition's leader replicas are throttled and the leader rate is over its
        bound (Kafka's shouldLeaderThrottle)."""
        t = self._throttle
        if t is None:
            return False
        leader = self.leaders.get((topic, partition))
        return leader is not None and t.leader_holds(topic, partition, replica_id in leader.isr, now_ms)

    def replication_sent(self, topic: str, partition: int, nbytes: int, now_ms: int) -> None:
        """Bytes sent to a follower, counted against the leader rate if the partition is throttled."""
        if self._throttle is not None:
            self._throttle.leader_sent(topic, partition, nbytes, now_ms)

    def epoch_end_offset(self, topic: str, partition: int, current_leader_epoch: int,
                         leader_epoch: int) -> EpochAnswer | NotLed:
        """OffsetForLeaderEpoch on the leader, from its epoch cache (lastOffsetForLeaderEpoch)."""
        leader = self._leader((topic, partition))
        if leader is None:
            return self.not_led(topic, partition, current_leader_epoch)
        return leader.answer_epoch_query(EpochQuery(0, -1, current_leader_epoch, leader_epoch))

    def delete_records(self, topic: str, partition: int, offset: int) -> DeletedRecords:
        """DeleteRecords on the leader (Partition.deleteRecordsOnLeader): the log start moves to
        ``offset`` (-1: the high watermark); the offset asked for and the partition's low
        watermark, which reaches it once every live replica's log start has."""
        leader = self.leaders[(topic, partition)]
        requested = leader.log.high_watermark if offset == HIGH_WATERMARK else offset
        leader.log.delete_records(requested)
        self._poke(("partition", topic, partition))
        self._poke(low_watermark_key(topic, partition))
        return DeletedRecords(requested, leader.low_watermark)

    def low_watermark(self, topic: str, partition: int) -> int | NotLed:
        """The smallest log start offset over the live replicas of a partition led here
        (lowWatermarkIfLeader), or why it is not led here."""
        leader = self._leader((topic, partition))
        if leader is None:
            return self.not_led(topic, partition)
        return leader.low_watermark


class LeaderEpochs(Mapping):
    """(topic, partition) -> leader epoch of every partition led here: read through the leaders
    (no table of its own)."""

    __slots__ = ("_leaders",)

    def __init__(self, leaders: dict[tuple[str, int], PartitionLeader]):
        self._leaders = leaders

    def __getitem__(self, tp: tuple[str, int]) -> int:
        return self._leaders[tp].leader_epoch

    def __iter__(self):
        return iter(self._leaders)

    def __len__(self) -> int:
        return len(self._leaders)


def _epoch_error(requested: int, current: int) -> ErrorCode:
    return ErrorCode.FENCED_LEADER_EPOCH if requested < current else ErrorCode.UNKNOWN_LEADER_EPOCH


def _topic_configs(image, name: str) -> Mapping[str, str]:
    tc = getattr(image, "topic_configs", None)
    if tc is not None:
        return tc.get(name, _NO_CONFIGS)
    t = image.topics.get(name)
    return t.configs if t is not None else _NO_CONFIGS


def _same_topic(old, new, name: str) -> bool:
    """The topic is in both images, the same topic id."""
    topic, prev = new.topics.get(name), old.topics.get(name)
    return topic is not None and prev is not None and prev.topic_id == topic.topic_id


def _config_changed(old, new, name: str) -> bool:
    """The topic is in both images, the same topic id, and its dynamic configs differ."""
    return _same_topic(old, new, name) and _topic_configs(old, name) != _topic_configs(new, name)


def _topic_defaults_changed(old, new, node_id: int) -> bool:
    """A dynamic broker config that is a topic config's default (a broker synonym: log.retention.ms,
    min.insync.replicas, ...) differs between the images, in the cluster default or this broker's."""
    before, after = getattr(old, "broker_configs", None), getattr(new, "broker_configs", None)
    if before is after:
        return False
    for layer in ("", str(node_id)):
        a, b = (before or {}).get(layer, _NO_CONFIGS), (after or {}).get(layer, _NO_CONFIGS)
        if a is not b and any(a.get(k) != b.get(k) for k in set(a) | set(b) if k in BROKER_SYNONYMS):
            return True
    return False


def _config_moved(old, new, name: str) -> bool:
    """The topic's dynamic configs differ between the images, or the topic does (deleted, made)."""
    topic, prev = new.topics.get(name), old.topics.get(name)
    if topic is None or prev is None or prev.topic_id != topic.topic_id:
        return topic is not None or prev is not None
    return _topic_configs(old, name) != _topic_configs(new, name)


def _some(names, shown: int = 5) -> str:
    """" (a, b, c, ...)": the first few of a log line's partitions."""
    names = list(names)
    if not names:
        return ""
    return " (" + ", ".join(names[:shown]) + (", ..." if len(names) > shown else "") + ")"
