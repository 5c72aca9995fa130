"""The controller's producer id blocks (Kafka's ProducerIdControlManager): consecutive blocks of
1000, a ProducerIdsRecord each, the next block derived from the replayed metadata log and from
snapshots; broker epochs checked; a record that would move the next id back refused."""

import pytest

from odradek.controller.controller import Controller
from odradek.controller.image import BrokerImage, MetadataDelta, MetadataImage
from odradek.controller.producer_ids import (
    BLOCK_SIZE, MAX_PRODUCER_ID, Allocation, ProducerIdControl, ProducerIdsBlock, answer_when_applied,
    ids_handed_out_before,
)
from odradek.controller.records import decode_record, encode_record
from odradek.controller.result import Commit, committed_as_proposed
from odradek.controller.snapshot import decode_snapshot, encode_snapshot
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.producer_ids_record import ProducerIdsRecord


def image_with_brokers(**epochs) -> MetadataImage:
    img = MetadataImage(cluster_id="c")
    return MetadataImage(cluster_id="c", brokers={int(k[1:]): BrokerImage(int(k[1:]), "h", 1, epoch=e)
                                                  for k, e in epochs.items()}) if epochs else img


def replay(img: MetadataImage, records) -> MetadataImage:
    d = MetadataDelta(img)
    for i, r in enumerate(records):
        d.replay(decode_record(encode_record(r))[0], img.offset + 1 + i)
    return d.apply()


def test_blocks_follow_each_other_and_are_recorded():
    img = image_with_brokers(b4=10, b5=20)
    ctl = ProducerIdControl()
    r = ctl.allocate(img, 4, 10)
    assert r.response == Allocation(0, ProducerIdsBlock(4, 0, BLOCK_SIZE))
    assert r.records == [ProducerIdsRecord(broker_id=4, broker_epoch=10, next_producer_id=1000)]
    img = replay(img, r.records)
    assert img.next_producer_id == 1000
    r2 = ctl.allocate(img, 5, 20)
    assert r2.response.block == ProducerIdsBlock(5, 1000, BLOCK_SIZE) and r2.response.block.last == 1999
    img = replay(img, r2.records)
    # another controller (a failover) derives the next block from the replayed log alone
    assert ProducerIdControl().allocate(img, 4, 10).response.block.first == 2000


def test_a_block_proposed_but_not_yet_applied_is_not_handed_out_again():
    img = image_with_brokers(b4=10)
    ctl = ProducerIdControl()
    first = ctl.allocate(img, 4, 10).response.block
    second = ctl.allocate(img, 4, 10).response.block  # the same image: the first record not applied
    assert (first.first, second.first) == (0, 1000)


def test_broker_epoch_checks_as_kafka():
    img = image_with_brokers(b4=10)
    ctl = ProducerIdControl()
    # Kafka's checkBrokerEpoch: an unknown broker and a stale epoch are both STALE_BROKER_EPOCH
    for broker, epoch in ((4, 9), (4, -1), (7, 10)):
        r = ctl.allocate(img, broker, epoch)
        assert r.records == [] and r.response == Allocation(int(E.STALE_BROKER_EPOCH))
    assert ctl.allocate(img, 4, 10).response.block.first == 0  # nothing was used up by the refusals


def test_the_int64_limit():
    img = replay(image_with_brokers(b4=1), [ProducerIdsRecord(broker_id=4, broker_epoch=1,
                                                              next_producer_id=MAX_PRODUCER_ID - BLOCK_SIZE)])
    assert ProducerIdControl().allocate(img, 4, 1).response.block.last == MAX_PRODUCER_ID - 1
    img = replay(img, [ProducerIdsRecord(broker_id=4, broker_epoch=1, next_producer_id=MAX_PRODUCER_ID - 999)])
    r = ProducerIdControl().allocate(img, 4, 1)
    assert r.records == [] and r.response.error_code == E.UNKNOWN_SERVER_ERROR


def test_a_record_that_does_not_move_forward_is_refused():
    img = replay(image_with_brokers(), [ProducerIdsRecord(broker_id=4, broker_epoch=1, next_producer_id=3000)])
    d = MetadataDelta(img)
    with pytest.raises(ValueError):
        d.replay(ProducerIdsRecord(broker_id=5, broker_epoch=1, next_producer_id=3000), 5)
    with pytest.raises(ValueError):
        d.replay(ProducerIdsRecord(broker_id=5, broker_epoch=1, next_producer_id=2000), 5)
    assert d.apply().next_producer_id == 3000


def test_snapshot_keeps_the_next_block():
    img = image_with_brokers(b4=10)
    ctl = ProducerIdControl()
    for _ in range(3):
        img = replay(img, ctl.allocate(img, 4, 10).records)
    back = decode_snapshot(encode_snapshot(img, 10), 10, "c", 1)
    assert back.next_producer_id == 3000
    assert ProducerIdControl().allocate(back, 4, 10).response.block.first == 3000
    # no ProducerIdsRecord ever: the snapshot has none, the first block starts at 0
    empty = decode_snapshot(encode_snapshot(image_with_brokers(b4=10), 1), 1, "c", 1)
    assert empty.next_producer_id == -1 and ProducerIdControl().allocate(empty, 4, 10).response.block.first == 0


def test_answer_only_when_its_record_was_applied():
    ok = Allocation(0, ProducerIdsBlock(4, 0, BLOCK_SIZE))
    assert answer_when_applied(ok, True) == ok
    assert answer_when_applied(ok, False).error_code == E.NOT_CONTROLLER
    stale = Allocation(int(E.STALE_BROKER_EPOCH))
    assert answer_when_applied(stale, False) == stale


def test_a_record_committed_at_the_offset_is_the_proposed_one_only_in_its_epoch():
    proposed = Commit(41, False, epoch=3)
    assert committed_as_proposed(proposed, 3, 3) and committed_as_proposed(proposed, 3, 5)
    assert not committed_as_proposed(proposed, 4, 4)  # a new leader's record at the same offset
    assert committed_as_proposed(proposed, None, 3)  # in a snapshot: the epoch did not change
    assert not committed_as_proposed(proposed, None, 4)  # in a snapshot, and the epoch changed: unknown
    assert committed_as_proposed(Commit(41, True), 7, 7)  # a single voter's: applied at once


def test_ids_handed_out_before_raise_the_next_block():
    img = image_with_brokers()
    recs = ids_handed_out_before(img, 5000)
    assert recs == [ProducerIdsRecord(broker_id=-1, broker_epoch=-1, next_producer_id=5000)]
    img = replay(img, recs)
    assert ids_handed_out_before(img, 5000) == [] and ids_handed_out_before(img, 4000) == []


def test_single_voter_log_replay_keeps_the_next_block(tmp_path):
    def start():
        c = Controller(str(tmp_path), 1, {}, 0)
        c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
        return c
    c = start()
    ctl = ProducerIdControl()
    epoch = c.image.brokers[1].epoch
    blocks = [c.write(lambda d: ctl.allocate(d.image, 1, epoch), False, 1).response.block for _ in range(2)]
    assert [b.first for b in blocks] == [0, 1000] and c.image.next_producer_id == 2000
    c.close()
    c = start()  # replayed from the metadata log; a restart registers the broker again (a new epoch)
    assert c.image.next_producer_id == 2000
    epoch = c.image.brokers[1].epoch
    assert c.write(lambda d: ProducerIdControl().allocate(d.image, 1, epoch), False, 1).response.block.first == 2000
    c.close()
