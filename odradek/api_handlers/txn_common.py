"""Helpers shared by the transaction handlers."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode

from .ports import Txns


def txn_coordinator(ctx) -> Txns | None:
    return ctx.services.txns


def fenced_for(version: int, first_version: int, err):
    """PRODUCER_FENCED exists for clients from `first_version`; older ones get INVALID_PRODUCER_EPOCH."""
    if err == ErrorCode.PRODUCER_FENCED and version < first_version:
        return ErrorCode.INVALID_PRODUCER_EPOCH
    return err
