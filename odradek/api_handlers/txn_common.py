"""Helpers shared by the transaction handlers."""

from __future__ import annotations

from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode

from .ports import Txns


def txn_coordinator(ctx) -> Txns:
    """The transaction coordinator. The broker attaches it before it serves; a services object
    without one answers COORDINATOR_NOT_AVAILABLE, in the API's own error response."""
    txn = ctx.services.txns
    if txn is None:
        raise CoordinatorError(ErrorCode.COORDINATOR_NOT_AVAILABLE)
    return txn


def fenced_for(version: int, first_version: int, err):
    """PRODUCER_FENCED exists for clients from `first_version`; older ones get INVALID_PRODUCER_EPOCH."""
    if err == ErrorCode.PRODUCER_FENCED and version < first_version:
        return ErrorCode.INVALID_PRODUCER_EPOCH
    return err
