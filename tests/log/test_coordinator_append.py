"""A coordinator's own batch (PartitionLog.append coordinator=True, Kafka's AppendOrigin.COORDINATOR) is
not read back record by record, and lands as any leader append: the same bytes in the log (offsets
assigned, the leader epoch stamped), the same AppendInfo, the same producer and transaction state
(the last stable offset held until the marker). A client's batch is still checked."""
from __future__ import annotations

import pytest

from odradek.log import errors
from odradek.log.config import LogConfig
from odradek.log.fs import RealFileSystem
from odradek.log.partition_log import PartitionLog
from odradek.wire.records import build_batch, build_control_batch

COMPACTED = LogConfig(cleanup_policy=("compact",))


def _offsets_batch(n: int, pid: int = -1, epoch: int = -1, transactional: bool = False) -> bytes:
    recs = [(b"key-%d" % i, b"value-%d" % i, (), 1000) for i in range(n)]
    return build_batch(recs, base_timestamp=1000, producer_id=pid, producer_epoch=epoch,
                       is_transactional=transactional)


def _log_bytes(log: PartitionLog) -> bytes:
    return log.read(0, 1 << 24, upper_bound_offset=log.log_end_offset).read_bytes()


def test_a_coordinator_batch_lands_as_any_leader_append(tmp_path):
    logs = {c: PartitionLog(RealFileSystem(), str(tmp_path / f"c{c}" / "__consumer_offsets-0"), COMPACTED, now_ms=0)
            for c in (False, True)}
    infos: dict = {False: [], True: []}
    lso: dict = {False: [], True: []}
    for coordinator, log in logs.items():
        for data, epoch in ((_offsets_batch(3), 5), (_offsets_batch(2000, 7, 0, True), 5),
                            (_offsets_batch(4), 6), (build_control_batch(True, 7, 0, 0, 1000), 6)):
            info = log.append(data, 1000, leader_epoch=epoch, coordinator=coordinator)
            log.high_watermark = log.log_end_offset
            infos[coordinator].append(tuple(info))
            lso[coordinator].append(log.last_stable_offset)
    assert infos[True] == infos[False]
    assert [i[:2] for i in infos[True]] == [(0, 2), (3, 2002), (2003, 2006), (2007, 2007)]
    assert lso[True] == lso[False] == [3, 3, 3, 2008]  # (the transaction open at 3 until its marker)
    assert _log_bytes(logs[True]) == _log_bytes(logs[False])
    assert logs[True].producer_state.to_bytes() == logs[False].producer_state.to_bytes()


def test_a_client_batch_without_keys_is_still_refused_on_a_compacted_topic(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), COMPACTED, now_ms=0)
    with pytest.raises(errors.InvalidRecordError):
        log.append(build_batch([(None, b"v", (), 1000)]), 1000, leader_epoch=0)
    assert log.log_end_offset == 0
