"""A consumer group's committed offsets for `odradek consume --group`, asked of the group's
coordinator the way Kafka's consumers ask: found with FindCoordinator (on a broker no group has
used yet that creates __consumer_offsets), and asked again, coordinator looked up anew, while it
answers COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR (Kafka does
while it loads a new __consumer_offsets partition)."""
from __future__ import annotations

import time

RETRIABLE = frozenset({14, 15, 16})


class GroupOffsetsError(Exception):
    pass


class GroupOffsets:
    def __init__(self, boot, group: str, wait_s: float = 15.0):
        self.boot = boot  # a WireClient on the bootstrap broker
        self.group = group
        self.wait_s = wait_s
        self._coordinator = None

    def _client(self):
        from odradek.cli_errors import connect_to

        if self._coordinator is None:
            err, _node, host, port, msg = self.boot.find_coordinator(self.group, wait_s=self.wait_s)
            if err:
                raise GroupOffsetsError(f"cannot find the coordinator of group {self.group}: "
                                        f"{_name(err)}{': ' + msg if msg else ''}")
            same = (host, port) == (self.boot.host, self.boot.port)
            self._coordinator = self.boot if same else connect_to(host, port)
        return self._coordinator

    def _call(self, request, max_version: int, errors_of):
        """The response, once its errors (errors_of(response)) are not retriable or time is up."""
        deadline = time.monotonic() + self.wait_s
        while True:
            r = self._client().send(request, max_version=max_version)
            if not (errors_of(r) & RETRIABLE) or time.monotonic() >= deadline:
                return r
            self.close()
            time.sleep(0.1)

    def committed(self, topic: str, partitions: list[int]) -> dict[int, int]:
        """{partition: committed offset} of the partitions that have one."""
        from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic

        req = OffsetFetchRequest(group_id=self.group, topics=[
            OffsetFetchRequestTopic(name=topic, partition_indexes=partitions)])
        r = self._call(req, 7, lambda r: {r.error_code} | {p.error_code for t in r.topics for p in t.partitions})
        if r.error_code:
            raise GroupOffsetsError(f"cannot fetch the offsets of group {self.group}: {_name(r.error_code)}")
        return {p.partition_index: p.committed_offset for t in r.topics for p in t.partitions
                if p.error_code == 0 and p.committed_offset >= 0}

    def commit(self, topic: str, offsets: dict[int, int]) -> None:
        from odradek.wire.messages.offset_commit_request import (OffsetCommitRequest, OffsetCommitRequestPartition,
                                                                 OffsetCommitRequestTopic)

        req = OffsetCommitRequest(group_id=self.group, generation_id_or_member_epoch=-1, member_id="", topics=[
            OffsetCommitRequestTopic(name=topic, partitions=[
                OffsetCommitRequestPartition(partition_index=p, committed_offset=o) for p, o in offsets.items()])])
        r = self._call(req, 8, lambda r: {p.error_code for t in r.topics for p in t.partitions})
        errors = sorted({p.error_code for t in r.topics for p in t.partitions if p.error_code})
        if errors:
            raise GroupOffsetsError(f"cannot commit the offsets of group {self.group}: "
                                    f"{', '.join(_name(e) for e in errors)}")

    def close(self) -> None:
        if self._coordinator is not None and self._coordinator is not self.boot:
            self._coordinator.close()
        self._coordinator = None


def _name(code: int) -> str:
    from odradek.wire.errors import ErrorCode

    try:
        return ErrorCode(code).name
    except ValueError:
        return str(code)
