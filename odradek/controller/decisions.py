"""Run a pure controller decision (image -> (records, result)) and commit its records.

For the metadata kinds that live in their own modules (client_quotas.py, scram.py):
the decision sees the current image under the controller's lock, and its records go
to the metadata log as one batch through the controller's commit path (single voter
or Raft quorum alike). validate_only drops the records.
"""

from __future__ import annotations

from typing import Callable


def decide_and_commit(controller, decide: Callable, validate_only: bool, now_ms: int):
    with controller._lock:
        records, result = decide(controller.image)
        if records and not validate_only:
            controller._commit(records, now_ms)
        return result
