"""A broker's producer ids (Kafka's RPCProducerIdManager): blocks from the controller, the next one
asked for at 90% of the current, COORDINATOR_LOAD_IN_PROGRESS with no block at hand, errors retried
after a back-off; a single node's blocks from its own controller, never an id twice across
restarts, and above the ids an older odradek's ``producer-ids`` file says were handed out."""

import pytest

from odradek.broker.producer_ids import (
    RETRY_BACKOFF_MS, LocalController, ProducerIdManager,
)
from odradek.controller.controller import Controller
from odradek.controller.image import BrokerImage
from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.allocate_producer_ids_response import AllocateProducerIdsResponse

BLOCK_SIZE = 1000


class Rig:
    def __init__(self):
        self.now = 0
        self.sent = []
        self.m = ProducerIdManager(4, lambda: 77, self.sent.append, lambda: self.now)

    def answer(self, start=0, length=BLOCK_SIZE, error=0):
        self.m.on_response(AllocateProducerIdsResponse(error_code=error, producer_id_start=start,
                                                       producer_id_len=length))

    def not_ready(self):
        with pytest.raises(CoordinatorError) as e:
            self.m.allocate()
        assert e.value.code == E.COORDINATOR_LOAD_IN_PROGRESS


def test_no_block_load_in_progress_then_ids_from_the_block():
    r = Rig()
    r.not_ready()
    assert len(r.sent) == 1 and (r.sent[0].broker_id, r.sent[0].broker_epoch) == (4, 77)
    r.not_ready()  # one request in flight at a time
    assert len(r.sent) == 1
    r.answer(5000)
    assert [r.m.allocate() for _ in range(3)] == [5000, 5001, 5002]


def test_the_next_block_is_asked_for_at_90_percent_and_taken_when_the_current_runs_out():
    r = Rig()
    r.not_ready()
    r.answer(0)
    ids = [r.m.allocate() for _ in range(900)]
    assert ids == list(range(900)) and len(r.sent) == 1
    assert r.m.allocate() == 900 and len(r.sent) == 2  # the 90% mark
    r.answer(3000)
    ids = [r.m.allocate() for _ in range(99)]
    assert ids[-1] == 999 and r.m.allocate() == 3000
    assert len(r.sent) == 2


def test_the_current_block_runs_out_before_the_next_arrives():
    r = Rig()
    r.not_ready()
    r.answer(0)
    for _ in range(BLOCK_SIZE):
        r.m.allocate()
    r.not_ready()
    r.answer(1000)
    assert r.m.allocate() == 1000


@pytest.mark.parametrize("error", [E.STALE_BROKER_EPOCH, E.BROKER_ID_NOT_REGISTERED, E.NOT_CONTROLLER,
                                   E.UNKNOWN_SERVER_ERROR])
def test_errors_are_retried_after_a_back_off(error):
    r = Rig()
    r.not_ready()
    r.answer(error=int(error))
    r.not_ready()
    assert len(r.sent) == 1  # within the back-off
    r.now += RETRY_BACKOFF_MS
    r.not_ready()
    assert len(r.sent) == 2
    r.answer(2000)
    assert r.m.allocate() == 2000


def test_a_request_without_answer_is_sent_again():
    r = Rig()
    r.not_ready()
    r.m.on_failure()
    r.not_ready()
    assert len(r.sent) == 2


def test_a_block_below_the_current_one_or_invalid_is_not_used():
    r = Rig()
    r.not_ready()
    r.answer(5000)
    for _ in range(901):
        r.m.allocate()
    assert len(r.sent) == 2
    r.answer(1000)  # below the current block
    r.now += RETRY_BACKOFF_MS
    assert [r.m.allocate() for _ in range(99)][-1] == 5999
    r.not_ready()
    assert len(r.sent) == 3
    r.answer(-5, 10)
    r.now += RETRY_BACKOFF_MS
    r.not_ready()
    r.answer(9000)
    assert r.m.allocate() == 9000


def _node(tmp_path):
    c = Controller(str(tmp_path / "metadata"), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    return c, LocalController(c, 1, lambda: 0)


def test_single_node_counts_from_zero_across_restarts(tmp_path):
    c, local = _node(tmp_path)
    assert [local.manager.allocate() for _ in range(3)] == [0, 1, 2]  # no load-in-progress: asked locally
    c.close()
    c, local = _node(tmp_path)  # a restart skips the rest of the block (it may have been used)
    assert local.manager.allocate() == BLOCK_SIZE
    ids = [local.manager.allocate() for _ in range(2 * BLOCK_SIZE)]
    assert ids == list(range(BLOCK_SIZE + 1, 3 * BLOCK_SIZE + 1))
    assert c.image.next_producer_id == 4 * BLOCK_SIZE  # the third block was asked for at 90% of the second
    c.close()


def test_an_older_single_nodes_file_starts_the_first_block(tmp_path):
    (tmp_path / "producer-ids").write_text("3000\n")  # an odradek that allocated blocks on its own
    c, local = _node(tmp_path)
    local.start_above_legacy_file(str(tmp_path))
    assert local.manager.allocate() == 3000
    c.close()
    c, local = _node(tmp_path)
    local.start_above_legacy_file(str(tmp_path))  # read again: the image is above it already
    assert local.manager.allocate() == 4000
    c.close()


def test_brokers_sharing_a_controller_never_share_an_id(tmp_path):
    c, _ = _node(tmp_path)
    from odradek.controller.producer_ids import ProducerIdControl
    ctl = ProducerIdControl()
    managers = []

    def request(req):
        a = c.write(lambda d: ctl.allocate(d.image, 1, c.image.brokers[1].epoch), False, 0).response
        managers[req.broker_id].on_response(AllocateProducerIdsResponse(
            error_code=a.error_code, producer_id_start=a.block.first, producer_id_len=a.block.size))
    managers.extend(ProducerIdManager(i, lambda: 0, request, lambda: 0) for i in range(3))
    every = []
    for k in range(3 * BLOCK_SIZE + 5):
        m = managers[k % 3]
        try:
            every.append(m.allocate())
        except CoordinatorError:
            pass
    assert len(set(every)) == len(every) > 3 * BLOCK_SIZE - 10
    c.close()
