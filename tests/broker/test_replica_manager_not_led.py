"""ReplicaManager.leader_log (the Partitions port) for a partition not served here, as Kafka's
getPartitionOrError: NOT_LEADER_OR_FOLLOWER with the image's leader and epoch when another
broker leads it, UNKNOWN_TOPIC_OR_PARTITION when the image has no such partition,
KAFKA_STORAGE_ERROR when its log is offline here (damaged on disk), and that offline
partition is logged once, not on every metadata update."""
from __future__ import annotations

import glob
import logging
import os

from odradek.api_handlers.ports import NotLed
from odradek.broker.replica_manager import ReplicaManager
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.log import LogManager
from odradek.wire.errors import ErrorCode
from odradek.wire.records import build_batch

ME, OTHER = 1, 2
T = bytes([7]) * 16


def image(leaders: list[int], epoch: int = 5, offset: int = 10) -> MetadataImage:
    t = TopicImage("t", T, {p: PartitionImage(p, leader=b, leader_epoch=epoch, partition_epoch=0,
                                              replicas=(b,), isr=(b,)) for p, b in enumerate(leaders)})
    return MetadataImage(topics={"t": t}, topics_by_id={T: t}, offset=offset,
                         brokers={ME: BrokerImage(ME, "h1", 9001), OTHER: BrokerImage(OTHER, "h2", 9002)})


def manager(d: str) -> ReplicaManager:
    return ReplicaManager(LogManager([d]), ME, lambda t: None, lambda key: 0, lambda: 100)


def test_not_led_here_names_the_images_leader(tmp_path):
    rm = manager(str(tmp_path / "logs"))
    rm.start(image([ME, OTHER]))
    assert not isinstance(rm.leader_log("t", 0), NotLed)
    assert rm.leader_log("t", 1) == NotLed(ErrorCode.NOT_LEADER_OR_FOLLOWER, OTHER, 5)
    # no leader at all: still NOT_LEADER_OR_FOLLOWER (the client refreshes its metadata)
    rm.on_metadata(rm.image, image([ME, -1], epoch=6, offset=11))
    assert rm.leader_log("t", 1) == NotLed(ErrorCode.NOT_LEADER_OR_FOLLOWER, -1, 6)


def test_unknown_topic_or_partition(tmp_path):
    rm = manager(str(tmp_path / "logs"))
    assert rm.leader_log("t", 0).error == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION  # before any metadata
    rm.start(image([ME]))
    assert rm.leader_log("t", 1) == NotLed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    assert rm.leader_log("nope", 0) == NotLed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)


def test_damaged_log_is_offline_storage_error_logged_once(tmp_path, caplog):
    d = str(tmp_path / "logs")
    lm = LogManager([d])
    plog = lm.get_or_create("t", 0, topic_id=T)
    for i in range(3):
        plog.append(build_batch([(b"k", b"v%d" % i, (), 1)]), now_ms=1)
    plog.flush()
    lm.close()
    (seg,) = glob.glob(os.path.join(d, "t-0", "*.log"))
    with open(seg, "r+b") as f:
        f.truncate(os.path.getsize(seg) - 5)  # a written batch cut short: damaged
    with caplog.at_level(logging.INFO):
        rm = manager(d)
        rm.start(image([ME, ME]))
        for i in range(3):
            rm.on_metadata(rm.image, image([ME, ME], offset=12 + i))
    assert rm.leader_log("t", 0) == NotLed(ErrorCode.KAFKA_STORAGE_ERROR, ME, 5)
    assert not isinstance(rm.leader_log("t", 1), NotLed)
    errors = [r for r in caplog.records if "t-0" in r.getMessage() and r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "partition t-0 is offline" in errors[0].getMessage(), errors
    assert errors[0].exc_info is None  # no traceback


def test_log_that_cannot_be_created_is_offline_and_logged_once(tmp_path, caplog):
    d = tmp_path / "logs"
    rm = manager(str(d))
    (d / "t-1").write_bytes(b"")  # a file where the partition's directory must go
    with caplog.at_level(logging.INFO):
        rm.start(image([ME, ME]))
        rm.on_metadata(rm.image, image([ME, ME], offset=11))
    assert rm.leader_log("t", 1) == NotLed(ErrorCode.KAFKA_STORAGE_ERROR, ME, 5)
    assert len([r for r in caplog.records if "t-1" in r.getMessage() and r.levelno == logging.ERROR]) == 1


def test_an_acks_all_wait_answers_as_kafkas_delayed_produce_once_not_led_here(tmp_path):
    """An acks=all produce waiting for its replicas (acks_reached) when the partition stops being led
    here: NOT_LEADER_OR_FOLLOWER while the metadata still has it (another broker leads it), and
    UNKNOWN_TOPIC_OR_PARTITION once its topic is deleted, as DelayedProduce.tryComplete's
    getPartitionOrError (rev-k finding 5: it was NOT_LEADER_OR_FOLLOWER for a deleted topic too)."""
    rm = manager(str(tmp_path / "logs"))
    rm.start(image([ME, ME]))
    assert rm.acks_reached("t", 0, 1) == (False, ErrorCode.NONE)
    rm.on_metadata(rm.image, image([OTHER, ME], epoch=6, offset=11))
    assert rm.acks_reached("t", 0, 1) == (False, ErrorCode.NOT_LEADER_OR_FOLLOWER)
    rm.on_metadata(rm.image, MetadataImage(topics={}, topics_by_id={}, offset=12, brokers=rm.image.brokers))
    assert rm.acks_reached("t", 1, 1) == (False, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
