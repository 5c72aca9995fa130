"""Fetch records sent with sendfile while the client is slow: the segment file may be
closed (retired segment, deleted topic, parked descriptor) while the response waits for
the socket, and its descriptor number handed to the next file opened."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket

from odradek.broker.connection import KafkaConnection
from odradek.log.fs import RealFile, close_detached
from odradek.log.partition_log import FetchSlices, FileSlice
from connection_stand_in import stand_in_server, until

SIZE = 4 << 20  # more than the socket buffers hold: the response has to wait for the client


def _open_fds() -> set[int]:
    fds = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            os.fstat(int(name))
        except OSError:  # the listing's own descriptor
            continue
        fds.add(int(name))
    return fds


async def _recv_all(sock, n):
    loop = asyncio.get_running_loop()
    buf = bytearray()
    while len(buf) < n:
        chunk = await loop.sock_recv(sock, min(1 << 20, n - len(buf)))
        if not chunk:
            break
        buf += chunk
    return bytes(buf)


async def _connection():
    server_sock, client_sock = socket.socketpair()
    client_sock.setblocking(False)
    conn = KafkaConnection(stand_in_server())
    await asyncio.get_running_loop().connect_accepted_socket(lambda: conn, sock=server_sock)
    return conn, client_sock


@contextlib.contextmanager
def _taken_by_another_file(path: str, old_fd: int):
    """Another file (at ``path``) opened on the number a segment gave back, as the next file opened
    gets it; closed at the end."""
    other = RealFile(path)
    if other.fileno() != old_fd:
        os.dup2(other.fileno(), old_fd)
    try:
        yield other
    finally:
        if other.fileno() != old_fd:
            os.close(old_fd)
        other.close()


def test_segment_closed_and_fd_reused_while_waiting_for_the_client(tmp_path):
    original = os.urandom(SIZE)
    (tmp_path / "a.log").write_bytes(original)
    (tmp_path / "b.log").write_bytes(b"X" * SIZE)
    seg = RealFile(str(tmp_path / "a.log"))

    async def main():
        conn, client = await _connection()
        fds_before = _open_fds()
        rec = FetchSlices(slices=[FileSlice(seg.path, 0, SIZE, seg)], total_bytes=SIZE)
        task = asyncio.ensure_future(conn._send_records(rec))
        await until(lambda: conn._drain_waiter is not None)  # the client does not read yet
        old_fd = seg.fileno()
        seg.close()  # e.g. release_retired with file.delete.delay.ms=0
        try:
            with _taken_by_another_file(str(tmp_path / "b.log"), old_fd) as other:
                got, sent = await asyncio.gather(_recv_all(client, SIZE), task)
                assert sent is True
                assert got == original
                assert not conn.closed
                assert _open_fds() <= fds_before | {other.fileno()}  # the duplicate is closed
        finally:
            conn.transport.close()
            client.close()

    asyncio.run(main())


def test_segment_let_go_of_by_the_loop_and_closed_by_a_worker_never_sends_another_files_bytes(tmp_path):
    """How the broker lets go of a removed segment (LogManager.take_released, then let_go): its file
    is detached on the event loop, between two sendfile bursts (a burst uses the raw number until it
    duplicates it, all on the loop), and the number is closed in a worker thread afterwards, where
    another file may then take it. The number stays open until the worker's close; the response
    waiting for the client (on its duplicate) is sent whole, from the segment; a later send of the
    same slice gets no number from the file and aborts the connection, nothing of the other file
    sent."""
    original = os.urandom(SIZE)
    (tmp_path / "a.log").write_bytes(original)
    (tmp_path / "b.log").write_bytes(b"X" * SIZE)
    seg = RealFile(str(tmp_path / "a.log"))

    async def main():
        loop = asyncio.get_running_loop()
        conn, client = await _connection()
        rec = FetchSlices(slices=[FileSlice(seg.path, 0, SIZE, seg)], total_bytes=SIZE)
        task = asyncio.ensure_future(conn._send_records(rec))
        await until(lambda: conn._drain_waiter is not None)  # the client does not read yet
        old_fd = seg.detach()  # the loop's tick
        assert old_fd >= 0 and seg.fileno() == -1
        os.fstat(old_fd)  # not released: still the segment's, open
        await loop.run_in_executor(None, close_detached, [old_fd])  # the worker
        later, later_client = await _connection()
        try:
            with _taken_by_another_file(str(tmp_path / "b.log"), old_fd):
                got, sent = await asyncio.gather(_recv_all(client, SIZE), task)
                assert sent is True and got == original and not conn.closed
                assert await later._send_records(rec) is False and later.closed
                assert await _recv_all(later_client, SIZE) == b""  # aborted: nothing of another file
        finally:
            conn.transport.close()
            client.close()
            later_client.close()

    asyncio.run(main())


def test_parked_segment_is_sent_whole_while_waiting_for_the_client(tmp_path):
    original = os.urandom(SIZE)
    (tmp_path / "a.log").write_bytes(original)
    seg = RealFile(str(tmp_path / "a.log"))

    async def main():
        conn, client = await _connection()
        rec = FetchSlices(slices=[FileSlice(seg.path, 0, SIZE, seg)], total_bytes=SIZE)
        task = asyncio.ensure_future(conn._send_records(rec))
        await until(lambda: conn._drain_waiter is not None)
        seg.park()  # idle descriptors given back; the segment is then deleted
        os.remove(seg.path)
        try:
            got, sent = await asyncio.gather(_recv_all(client, SIZE), task)
            assert sent is True
            assert got == original
        finally:
            conn.transport.close()
            client.close()

    asyncio.run(main())


def test_closed_segment_closes_the_connection(tmp_path):
    (tmp_path / "a.log").write_bytes(b"a" * SIZE)
    seg = RealFile(str(tmp_path / "a.log"))
    seg.close()

    async def main():
        conn, client = await _connection()
        rec = FetchSlices(slices=[FileSlice(seg.path, 0, SIZE, seg)], total_bytes=SIZE)
        try:
            assert await conn._send_records(rec) is False
            assert conn.closed
            assert await _recv_all(client, SIZE) == b""  # aborted: nothing of another file
        finally:
            client.close()

    asyncio.run(main())


def test_many_small_records_are_read_in_steps_other_work_between(tmp_path):
    """A fetch response over thousands of partitions, each a few bytes read into the response:
    INLINE_READS_PER_STEP reads a turn of the event loop, the bytes the same as read in one piece."""
    from odradek.api_handlers.common import SliceRecords
    from odradek.broker.connection import INLINE_READS_PER_STEP
    from odradek.wire.api import encode_response_parts
    from odradek.wire.messages.fetch_response import FetchableTopicResponse, FetchResponse, PartitionData

    n = 3 * INLINE_READS_PER_STEP
    (tmp_path / "a.log").write_bytes(bytes(range(256)) * 8)
    seg = RealFile(str(tmp_path / "a.log"))
    resp = FetchResponse(throttle_time_ms=0, error_code=0, session_id=0, responses=[FetchableTopicResponse(
        topic="t", partitions=[PartitionData(partition_index=i, error_code=0, high_watermark=1, last_stable_offset=1,
                                             log_start_offset=0, records=SliceRecords(FetchSlices(
                                                 slices=[FileSlice(seg.path, i % 2000, 7, seg)], total_bytes=7)))
                               for i in range(n)])])
    expected = b"".join(bytes(p) for p in encode_response_parts(1, 12, 5, resp))

    class Counting(KafkaConnection):
        """Notes, at each read of a slice, how many turns the other work has had."""

        def _read_slice(self, sl, pos, length, fd=None):
            seen.append(turns)
            return super()._read_slice(sl, pos, length, fd)

    seen: list[int] = []
    turns = 0

    async def main():
        nonlocal turns
        server_sock, client = socket.socketpair()
        client.setblocking(False)
        conn = Counting(stand_in_server())
        conn.server.trace = None  # (the stand-in server has no request trace)
        await asyncio.get_running_loop().connect_accepted_socket(lambda: conn, sock=server_sock)

        async def other_work():
            nonlocal turns
            while True:
                turns += 1
                await asyncio.sleep(0)

        ticker = asyncio.ensure_future(other_work())
        try:
            got, _ = await asyncio.gather(_recv_all(client, len(expected)), conn._send(1, 12, 5, resp))
            assert got == expected
        finally:
            ticker.cancel()
            conn.transport.close()
            client.close()
            seg.close()

    asyncio.run(main())
    # the reads in groups of INLINE_READS_PER_STEP, the other work going on between them
    assert len(seen) == n
    assert [seen.count(t) for t in sorted(set(seen))] == [INLINE_READS_PER_STEP] * (n // INLINE_READS_PER_STEP)


def test_an_inline_read_of_a_segment_let_go_of_aborts_the_connection(tmp_path):
    """A small records field is read into the response (not sent with sendfile); its segment let
    go of meanwhile (detached by the broker's tick) makes the read fail: the connection is aborted,
    nothing sent, and the connection's task does not fail."""
    (tmp_path / "a.log").write_bytes(b"a" * 1000)
    seg = RealFile(str(tmp_path / "a.log"))
    close_detached([seg.detach()])

    async def main():
        conn, client = await _connection()
        try:
            assert conn._read_slice(FileSlice(seg.path, 0, 1000, seg), 0, 1000) is None
            assert conn.closed
            assert await _recv_all(client, 1000) == b""
        finally:
            client.close()

    asyncio.run(main())
