"""What the test CoordinatorLogs share: a log of one replica, whose records are committed as they
are written (coordinator/result.py's CoordinatorLog: the high watermark past every record, and a
read of the newest state waits for nothing)."""


class CommittedAtOnce:
    def committed_offset(self, partition: int) -> int:
        return 1 << 62

    def hold_until_committed(self, partition: int) -> None:
        return None
