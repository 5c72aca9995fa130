"""The share coordinator's DeliveryCompleteCount (WriteShareGroupState v1 / ReadShareGroupStateSummary
v1, KIP-1226): kept as written, through the records a restart replays; a state written without it
(v0, or a record of before v1) counts its done records."""
from __future__ import annotations

from odradek.coordinator import share_state
from odradek.coordinator.share_coordinator import ShareCoordinator, Snapshot, delivery_complete_count
from odradek.coordinator.share_partition import ACKNOWLEDGED, ARCHIVED, AVAILABLE
from odradek.wire.messages.write_share_group_state_request import (
    PartitionData,
    StateBatch,
    WriteShareGroupStateRequest,
    WriteStateData,
)
from tests.coordinator.memory_state_log import MemoryStateLog

TID = b"\x07" * 16
KEY = ("g", TID, 0)


def loaded(log):
    c = ShareCoordinator(log, lambda: 1)
    c.partitions.loaded(c.partitions.elect(0, 1, 0))
    c.load(0, [(i, k, v) for i, (k, v) in enumerate(log.records)])
    return c


def test_the_written_count_survives_a_reload_and_an_unwritten_one_is_counted():
    log = MemoryStateLog()
    c = loaded(log)
    batches = [(10, 12, ACKNOWLEDGED, 1), (13, 13, AVAILABLE, 1), (14, 15, ARCHIVED, 5)]
    c.write(KEY, Snapshot(11, batches, 0, 1, 9), 0)
    assert delivery_complete_count(c.summary(KEY)) == 9
    assert delivery_complete_count(loaded(log).summary(KEY)) == 9
    c.write(KEY, Snapshot(11, batches, 0, 1), 0)  # v0: not given
    assert delivery_complete_count(loaded(log).summary(KEY)) == 2 + 2  # 11-12 and 14-15


def test_a_record_encoded_at_v0_is_still_read():
    body = WriteShareGroupStateRequest(group_id="g", topics=[WriteStateData(topic_id=TID, partitions=[
        PartitionData(partition=0, state_epoch=2, leader_epoch=3, start_offset=5, state_batches=[
            StateBatch(first_offset=5, last_offset=6, delivery_state=ACKNOWLEDGED, delivery_count=1)])])])
    value = (0).to_bytes(2, "big") + body.encode(0)
    d = share_state.decode_partition_state(share_state.partition_state_key(*KEY), value)
    assert d == (KEY, 5, [(5, 6, ACKNOWLEDGED, 1)], 2, 3, -1)
