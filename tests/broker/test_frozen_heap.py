"""odradek serve freezes what its start-up made (broker/server.py freeze_start_up_heap: gc.freeze),
so no full garbage collection scans it again (issue 27: full collections held the event loop 20-90 ms
during a large creation). A frozen object is never freed by the collector, only by refcounting: a
partition loaded at start-up and deleted later must leave no cyclic garbage behind."""

from __future__ import annotations

import gc

from inproc_broker import call, start_broker

from odradek.controller.controller import CreateTopicSpec
from odradek.wire import records as wr
from odradek.wire.messages import produce_request as pr


def test_a_deleted_partition_leaves_no_cyclic_garbage(tmp_path):
    b = start_broker(tmp_path)
    try:
        names = [f"t{i}" for i in range(40)]
        assert all(r.error_code == 0 for r in b.controller.create_topics(
            [CreateTopicSpec(n, 2, 1) for n in names], False, b.clock_ms()))
        for n in names[::2]:  # half with records: whole logs (segments, indexes, producer state)
            batch = wr.build_batch([(None, b"v")], base_timestamp=b.clock_ms(), producer_id=7, producer_epoch=0,
                                   base_sequence=0)
            r = call(b, "produce", pr.ProduceRequest(acks=-1, timeout_ms=1000, topic_data=[
                pr.TopicProduceData(name=n, partition_data=[pr.PartitionProduceData(index=0, records=batch)])]), 9)
            assert r.responses[0].partition_responses[0].error_code == 0
        b.log_manager.write_pending_state()
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for n in names:
                assert b.controller.delete_topics([n], now_ms=b.clock_ms())[0][2] == 0
            lm = b.log_manager
            dirs = lm.release_deleted(b.clock_ms()) + lm.release_deleted(b.clock_ms() + 10 ** 9)
            assert len(dirs) == 80
            lm.remove_dirs(dirs)
            gc.collect()
            left = [type(o).__name__ for o in gc.garbage]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert left == []
    finally:
        b.close()


def test_only_a_process_own_broker_freezes_its_start_up_heap(tmp_path):
    from test_server import Running

    r = Running(tmp_path)  # an in-process server does not freeze (the test process goes on)
    try:
        assert gc.get_freeze_count() == 0
    finally:
        r.stop()
    from odradek.broker import server

    try:
        server.freeze_start_up_heap()
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
