"""What a broker does when one of its log dirs fails at runtime (a log could not undo a failed
write or fsync: Kafka's ReplicaManager.handleLogDirFailure / LogManager.handleLogDirFailure).

Kafka 4.3 reports a failed directory to the controller (BrokerHeartbeat OfflineLogDirs) only
while the broker still has a live log dir, the failed one is not the metadata log dir, and the
failed one has a directory id; otherwise it halts the process (Exit.halt(1)) and the controller
fences it when its session expires, electing new leaders from the ISR. An odradek broker
registers one directory id (its first log dir, which also holds the metadata log), so every
runtime log dir failure ends in a halt, with Kafka's message for the case.
"""

from __future__ import annotations

import logging
import posixpath
from typing import Callable

log = logging.getLogger("odradek.broker")


def halt_reason(failed_dir: str, log_dirs: list[str], failed_dirs: set[str]) -> str:
    """Kafka's fatal line for a failed log dir, in its order of checks: no live dir left; the
    metadata log dir (odradek's first log dir); a dir with no directory id (the others)."""
    live = [d for d in log_dirs if d not in failed_dirs]
    if not live:
        return f"Shutdown broker because all log dirs in {', '.join(log_dirs)} have failed"
    if posixpath.normpath(failed_dir) == posixpath.normpath(log_dirs[0]):
        return f"Shutdown broker because the metadata log dir {failed_dir} has failed"
    return f"Unable to propagate directory failure disabled because directory {failed_dir} has no UUID"


def on_log_dir_failure(log_dirs: list[str], failed_dirs: set[str], halt: Callable[[int], None]
                       ) -> Callable[[str, str], None]:
    """The LogManager's on_dir_failure for a broker: log Kafka's lines, then halt(1)."""

    def failed(d: str, why: str) -> None:
        log.warning("Stopping serving replicas in dir %s because the log directory has failed: %s", d, why)
        log.critical(halt_reason(d, log_dirs, failed_dirs))
        for h in logging.getLogger().handlers:
            h.flush()
        halt(1)

    return failed
