"""A broker's producer ids, in blocks from the active controller (Kafka's RPCProducerIdManager).

The broker hands out ids from its current block and asks for the next block
(AllocateProducerIds, API 67) once 90% of the current one is used, so that the next is
there when the current runs out. With no block at hand InitProducerId is answered
COORDINATOR_LOAD_IN_PROGRESS (retriable for every client) and a block is asked for; an
error from the controller (STALE_BROKER_EPOCH or BROKER_ID_NOT_REGISTERED before the
broker's registration is known, NOT_CONTROLLER while the controller moves) is retried
after a short back-off. The controller records each block as a ProducerIdsRecord in the
metadata log (controller/producer_ids.py), so no id is handed out twice, across brokers,
restarts and controller failover.

A single node (`odradek serve` as its own voter) asks its local controller, which
answers at once through the same decision. Its ``producer-ids`` file, written by an
odradek that allocated blocks on its own, is read once: the controller's first block
starts above every id handed out before.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Awaitable, Callable

from odradek.controller.producer_ids import ProducerIdControl, ids_handed_out_before
from odradek.coordinator.errors import CoordinatorError
from odradek.log.fs import RealFileSystem, read_whole
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.allocate_producer_ids_request import AllocateProducerIdsRequest
from odradek.wire.messages.allocate_producer_ids_response import AllocateProducerIdsResponse

log = logging.getLogger(__name__)

ALLOCATE_PRODUCER_IDS = 67
PREFETCH_THRESHOLD = 0.90  # of the current block used: ask for the next one
ITERATION_LIMIT = 3
RETRY_BACKOFF_MS = 50
LEGACY_FILE = "producer-ids"  # the block end of an odradek that allocated on its own


class _Block:
    """A block being handed out: ids first..first+size-1."""

    def __init__(self, first: int, size: int):
        self.first, self.size = first, size
        self.next = first

    @property
    def last(self) -> int:
        return self.first + self.size - 1

    def claim(self) -> int | None:
        if self.next > self.last:
            return None
        self.next += 1
        return self.next - 1


def _not_ready() -> CoordinatorError:
    return CoordinatorError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                            "Producer ID block is full. Waiting for next block")


class ProducerIdManager:
    def __init__(self, broker_id: int, broker_epoch: Callable[[], int],
                 request_block: Callable[[AllocateProducerIdsRequest], None], clock_ms: Callable[[], int]):
        """``request_block(request)``: send AllocateProducerIds to the active controller; its answer
        comes back through on_response (or on_failure when none came)."""
        self._broker_id = broker_id
        self._broker_epoch = broker_epoch
        self._request_block = request_block
        self._clock_ms = clock_ms
        self._current = _Block(0, 0)  # none yet: the first allocate asks for one
        self._next_block: _Block | None = None
        self._in_flight = False
        self._retry_at = -1  # no request before this time (ms); -1: none set

    def allocate(self) -> int:
        """The next producer id; CoordinatorError(COORDINATOR_LOAD_IN_PROGRESS) while no block is at hand."""
        for _ in range(ITERATION_LIMIT):
            cur = self._current
            pid = cur.claim()
            if pid is not None:
                if pid == cur.first + int(cur.size * PREFETCH_THRESHOLD):
                    self._maybe_request()
                return pid
            if self._next_block is None:
                self._maybe_request()  # a local controller answers at once
            if self._next_block is None:
                raise _not_ready()
            self._current, self._next_block = self._next_block, None
            self._in_flight = False
        raise _not_ready()

    def _maybe_request(self) -> None:
        if self._retry_at >= 0 and self._clock_ms() < self._retry_at:
            return
        if self._next_block is None and not self._in_flight:
            self._in_flight = True
            self._retry_at = -1
            log.debug("broker %d: requesting the next producer id block", self._broker_id)
            self._request_block(AllocateProducerIdsRequest(broker_id=self._broker_id,
                                                           broker_epoch=self._broker_epoch()))

    def on_response(self, resp: AllocateProducerIdsResponse) -> None:
        ok = False
        code = resp.error_code
        if code == 0:
            start, length = resp.producer_id_start, resp.producer_id_len
            if start < self._current.last:
                log.error("producer id block %d+%d is not above the current one (%d..%d)", start, length,
                          self._current.first, self._current.last)
            elif start < 0 or length <= 0 or start > (1 << 63) - 1 - length:
                log.error("producer id block %d+%d is not a valid range", start, length)
            else:
                self._next_block = _Block(start, length)
                ok = True
                log.info("broker %d: producer id block %d..%d", self._broker_id, start, start + length - 1)
        elif code == ErrorCode.STALE_BROKER_EPOCH:
            log.warning("AllocateProducerIds: our broker epoch was stale, trying again")
        elif code == ErrorCode.BROKER_ID_NOT_REGISTERED:
            log.warning("AllocateProducerIds: our broker id is not yet known by the controller, trying again")
        elif code == ErrorCode.NOT_CONTROLLER:
            log.info("AllocateProducerIds: no active controller answered, trying again")
        else:
            log.error("AllocateProducerIds: unexpected error %s from the controller", _name(code))
        if not ok:
            self._retry_at = self._clock_ms() + RETRY_BACKOFF_MS
            self._in_flight = False

    def on_failure(self) -> None:
        """The request got no answer (Kafka's handleTimeout): the next allocate asks again."""
        log.warning("AllocateProducerIds to the controller failed; asking again on the next InitProducerId")
        self._in_flight = False


def _name(code: int) -> str:
    try:
        return ErrorCode(code).name
    except ValueError:
        return str(code)


def controller_requests(call: Callable[..., Awaitable], manager: Callable[[], ProducerIdManager]
                        ) -> Callable[[AllocateProducerIdsRequest], None]:
    """A cluster broker's request_block: AllocateProducerIds over ``call`` (ControllerChannel.call,
    which follows the active controller), in the background."""
    def send(req: AllocateProducerIdsRequest) -> None:
        fut = asyncio.ensure_future(call(req, 0, ALLOCATE_PRODUCER_IDS))

        def done(f: asyncio.Future) -> None:
            if f.cancelled():
                manager().on_failure()
            elif f.exception() is not None:
                log.warning("AllocateProducerIds: %s", f.exception())
                manager().on_failure()
            else:
                manager().on_response(f.result())
        fut.add_done_callback(done)
    return send


class LocalController:
    """A single node's controller as the producer id manager's: the same decision as the
    active controller's, written through the local metadata log before it answers."""

    def __init__(self, controller, node_id: int, clock_ms: Callable[[], int]):
        self._controller = controller
        self._node_id = node_id
        self._clock_ms = clock_ms
        self._control = ProducerIdControl()
        self.manager = ProducerIdManager(node_id, self.broker_epoch, self.request_block, clock_ms)

    def broker_epoch(self) -> int:
        b = self._controller.image.brokers.get(self._node_id)
        return b.epoch if b is not None else -1

    def request_block(self, req: AllocateProducerIdsRequest) -> None:
        try:
            written = self._controller.write(
                lambda d: self._control.allocate(d.image, req.broker_id, req.broker_epoch), False, self._clock_ms())
        except Exception:  # noqa: BLE001 - the metadata log failed: no block, InitProducerId retries
            log.exception("cannot write the next producer id block")
            self.manager.on_failure()
            return
        a = written.response
        self.manager.on_response(AllocateProducerIdsResponse(
            error_code=a.error_code, producer_id_start=a.block.first if a.block else 0,
            producer_id_len=a.block.size if a.block else 0))

    def start_above_legacy_file(self, data_dir: str) -> None:
        """Ids handed out before blocks came from the controller (a ``producer-ids`` file holds the
        end of the last block used): the controller's next block starts above them."""
        fs = RealFileSystem()
        path = os.path.join(data_dir, LEGACY_FILE)
        if not fs.exists(path):
            return
        text = read_whole(fs, path).decode().strip()
        if not text:
            return
        records = ids_handed_out_before(self._controller.image, int(text))
        if records:
            self._controller.commit(records, self._clock_ms())
            log.info("producer ids below %s were handed out before (%s): the next block starts there", text, path)
