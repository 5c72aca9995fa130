"""Golden bytes from real clients.

A tiny listener records the first requests that kafka-python and confluent-kafka
send (ApiVersions, then Metadata after we answer ApiVersions). odradek must decode
each and re-encode it to the very same bytes. The listener answers the Metadata
request too (itself as the only broker, no topics), so a client's bootstrap completes
at once instead of waiting out its timeout.
"""

import socket
import struct
import threading

import pytest

from odradek.wire import api
from odradek.wire.frames import FrameDecoder
from odradek.wire.messages.api_versions_response import ApiVersion, ApiVersionsResponse
from odradek.wire.messages.metadata_response import MetadataResponse, MetadataResponseBroker


class Recorder:
    """A fake broker that answers ApiVersions and Metadata (itself as the only broker, no topics) on
    every connection, and records the request frames a client sends up to its first Metadata
    request. Answering Metadata, and keeping connections open until the client or close() ends them,
    lets a client's bootstrap complete at once: a listener that hung up after the first Metadata
    request made kafka-python retry until its 30 s bootstrap timeout, and librdkafka's list_topics
    wait out its own timeout on a connection to the advertised broker that was never accepted."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.frames: list[bytes] = []
        self.done = threading.Event()  # the first Metadata request is recorded
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        self.sock.settimeout(20)
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self.lock:
                self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket):
        conn.settimeout(20)
        dec = FrameDecoder()
        try:
            while data := conn.recv(65536):
                for frame in dec.feed(data):
                    key, version, corr = struct.unpack_from(">hhi", frame)
                    with self.lock:
                        if not self.done.is_set():
                            self.frames.append(bytes(frame))
                        if key == 3:
                            self.done.set()
                    if key == 18:
                        resp = ApiVersionsResponse(
                            error_code=0,
                            api_keys=[ApiVersion(api_key=18, min_version=0, max_version=min(version, 4)),
                                      ApiVersion(api_key=3, min_version=0, max_version=12)],
                        )
                        conn.sendall(api.encode_response(18, min(version, 4), corr, resp))
                    elif key == 3:
                        broker = MetadataResponseBroker(node_id=0, host="127.0.0.1", port=self.port)
                        resp = MetadataResponse(brokers=[broker], cluster_id="golden", controller_id=0)
                        conn.sendall(api.encode_response(3, min(version, 12), corr, resp))
        except OSError:
            pass
        finally:
            conn.close()

    def close(self):
        self.done.set()
        self.sock.close()
        with self.lock:
            conns = list(self.conns)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _check_roundtrip(frames, allow_trailing=False):
    seen = set()
    for frame in frames:
        header, body = api.decode_request(frame)
        again = api.encode_request(body, header.request_api_version, header.correlation_id, header.client_id)[4:]
        if allow_trailing:
            # librdkafka pads some requests with bytes past the message; Kafka ignores them too
            assert frame.startswith(again), (header, frame.hex(), again.hex())
        else:
            assert again == frame, (header, frame.hex(), again.hex())
        seen.add(header.request_api_key)
    return seen


def test_kafka_python_golden_bytes():
    kafka = pytest.importorskip("kafka")
    rec = Recorder()
    try:
        client = kafka.KafkaAdminClient(bootstrap_servers=f"127.0.0.1:{rec.port}", request_timeout_ms=3000)
        client.close()
    except Exception:
        pass  # our fake broker cannot serve the whole admin bootstrap; we only want the bytes
    finally:
        rec.done.wait(10)
        rec.close()
    assert rec.frames, "kafka-python sent nothing"
    seen = _check_roundtrip(rec.frames)
    assert 18 in seen and 3 in seen, seen


def test_confluent_kafka_golden_bytes():
    ck = pytest.importorskip("confluent_kafka")
    rec = Recorder()
    p = ck.Producer({"bootstrap.servers": f"127.0.0.1:{rec.port}", "client.id": "golden",
                     "socket.timeout.ms": 3000, "log_level": 0})
    try:
        p.list_topics(timeout=5)
    except Exception:
        pass
    finally:
        rec.done.wait(10)
        rec.close()
    seen = _check_roundtrip(rec.frames, allow_trailing=True)
    assert 18 in seen and 3 in seen, seen
