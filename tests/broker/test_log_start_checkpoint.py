"""DeleteRecords moves a leader's log start in memory, as Kafka's maybeIncrementLogStartOffset (no fsync on the
event loop), and the broker writes it off the loop every log.flush.start.offset.checkpoint.interval.ms (Kafka's
kafka-log-start-offset-checkpoint task) (issue 27). Real BrokerServer, real sockets."""

from __future__ import annotations

import time

from odradek.config import BrokerConfig, ConfigError
from odradek.wire import records
from odradek.wire.messages.delete_records_request import (DeleteRecordsPartition, DeleteRecordsRequest,
                                                          DeleteRecordsTopic)

import pytest

from tests.broker.test_server import Client, Running, fetch, metadata, produce


def wait_until(cond, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_the_property_is_kafkas():
    assert BrokerConfig().log_flush_start_offset_checkpoint_interval_ms == 60000
    props = {"log.flush.start.offset.checkpoint.interval.ms": "0"}
    assert BrokerConfig.from_properties(props).log_flush_start_offset_checkpoint_interval_ms == 0
    with pytest.raises(ConfigError, match="log.flush.start.offset.checkpoint.interval.ms"):
        BrokerConfig.from_properties({"log.flush.start.offset.checkpoint.interval.ms": "-1"})


def test_delete_records_moves_the_log_start_at_once_and_the_periodic_task_writes_it(tmp_path):
    r = Running(tmp_path, **{"log.flush.start.offset.checkpoint.interval.ms": "200"})
    try:
        c = Client(r.port)
        metadata(c, "t")
        wait_until(lambda: metadata(c, "t", auto=False).error_code == 0, "the topic")
        for i in range(5):
            assert produce(c, "t", records.build_batch([(None, b"v%d" % i, None, int(time.time() * 1000))])).error_code == 0
        req = DeleteRecordsRequest(timeout_ms=1000, topics=[DeleteRecordsTopic(name="t", partitions=[
            DeleteRecordsPartition(partition_index=0, offset=3)])])
        got = c.call(req, 2).topics[0].partitions[0]
        assert (got.error_code, got.low_watermark) == (0, 3)
        assert fetch(c, "t", 2).error_code == 1  # OFFSET_OUT_OF_RANGE below the new log start, at once
        assert fetch(c, "t", 3).error_code == 0
        checkpoint = tmp_path / "t-0" / "log-state.checkpoint"
        wait_until(lambda: checkpoint.exists() and b"log_start_offset=3\n" in checkpoint.read_bytes(),
                   "the log start offset written by the periodic task")
        assert not r.server.broker.log_manager.get("t", 0).start_unwritten
    finally:
        r.stop()
