"""Producer id blocks, handed out by the active controller (Kafka's ProducerIdControlManager).

A broker asks for a block (AllocateProducerIds, API 67); the controller answers the next
BLOCK_SIZE ids after every block handed out before and writes a ProducerIdsRecord whose
NextProducerId is the first id after the new block. The image keeps that id (replayed from
the log and from snapshots), so a block is never handed out twice: not after a restart,
not after the controller moved.

The metadata image only holds committed records; the active controller also remembers the
end of every block it proposed (``_proposed``), so that a block whose record is not committed
yet (a write that timed out) is never handed out again by the next request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.producer_ids_record import ProducerIdsRecord

from .result import ControllerResult

if TYPE_CHECKING:
    from .image import MetadataImage

BLOCK_SIZE = 1000  # Kafka's ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE
MAX_PRODUCER_ID = (1 << 63) - 1


@dataclass(frozen=True)
class ProducerIdsBlock:
    """A block of producer ids given to one broker."""
    broker_id: int
    first: int
    size: int

    @property
    def last(self) -> int:
        """The last id of the block (inclusive)."""
        return self.first + self.size - 1

    @property
    def next_block_first(self) -> int:
        return self.first + self.size


@dataclass(frozen=True)
class Allocation:
    """AllocateProducerIds' answer: an error code, or the block."""
    error_code: int
    block: ProducerIdsBlock | None = None


def next_block_first(image: MetadataImage) -> int:
    """The first id of the next block (0 before any ProducerIdsRecord)."""
    return max(image.next_producer_id, 0)


class ProducerIdControl:
    def __init__(self) -> None:
        self._proposed = 0  # the first id after the last block this controller proposed

    def allocate(self, image: MetadataImage, broker_id: int, broker_epoch: int) -> ControllerResult[Allocation]:
        """The next block for ``broker_id``: STALE_BROKER_EPOCH unless the broker is registered with
        ``broker_epoch`` (Kafka's checkBrokerEpoch: also for an unknown broker), UNKNOWN_SERVER_ERROR
        once the ids would pass the int64 limit."""
        b = image.brokers.get(broker_id)
        if b is None or b.epoch != broker_epoch:
            return ControllerResult([], Allocation(int(ErrorCode.STALE_BROKER_EPOCH)))
        first = max(next_block_first(image), self._proposed)
        if first > MAX_PRODUCER_ID - BLOCK_SIZE:
            return ControllerResult([], Allocation(int(ErrorCode.UNKNOWN_SERVER_ERROR)))
        block = ProducerIdsBlock(broker_id, first, BLOCK_SIZE)
        self._proposed = block.next_block_first
        record = ProducerIdsRecord(broker_id=broker_id, broker_epoch=broker_epoch,
                                   next_producer_id=block.next_block_first)
        return ControllerResult([record], Allocation(0, block))


def answer_when_applied(a: Allocation, applied: bool) -> Allocation:
    """What the active controller answers once it waited for the block's record: the block only if
    that record was applied (result.committed_as_proposed: not another block a new leader committed at
    the same offset); NOT_CONTROLLER otherwise, and the broker asks again."""
    if a.error_code or applied:
        return a
    return Allocation(int(ErrorCode.NOT_CONTROLLER))


def ids_handed_out_before(image: MetadataImage, next_id: int) -> list:
    """Records that make the next block start at ``next_id`` or above (ids a node handed out
    before blocks came from the controller); none when the image is there already."""
    if next_id <= next_block_first(image):
        return []
    return [ProducerIdsRecord(broker_id=-1, broker_epoch=-1, next_producer_id=next_id)]


def replay(current: int, record: ProducerIdsRecord) -> int:
    """The image's next producer id after ``record``; a record that does not move it forward is
    refused (Kafka's controller refuses it too: two blocks would overlap)."""
    if current >= 0 and record.next_producer_id <= current:
        raise ValueError(f"ProducerIdsRecord's next producer id {record.next_producer_id} is not above "
                         f"the current {current}")
    return record.next_producer_id


def image_records(image: MetadataImage) -> list:
    """The snapshot's record (as Kafka's ProducerIdsImage writes it: no broker)."""
    if image.next_producer_id < 0:
        return []
    return [ProducerIdsRecord(broker_id=-1, broker_epoch=-1, next_producer_id=image.next_producer_id)]
