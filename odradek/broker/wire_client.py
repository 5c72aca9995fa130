"""A tiny blocking Kafka-protocol client: one socket, one request at a time.

Used by the CLI tools and by tests to speak raw protocol to odradek (or to Kafka).
Versions are negotiated with ApiVersions on connect: ``send(req)`` uses the highest
version both sides support unless a version is given.
"""

from __future__ import annotations

import socket
import struct
import time

from odradek.wire.api import decode_response, encode_request
from odradek.wire.messages.api_versions_request import ApiVersionsRequest

_size = struct.Struct(">i")


class WireClientError(Exception):
    """Connection-level failure (closed socket, no common version)."""


def common_version(request_cls, api_versions: dict[int, tuple[int, int]], max_version: int | None = None) -> int:
    """The highest version of ``request_cls`` both sides support (Kafka's NetworkClient
    negotiation), given the peer's ApiVersions as api key -> (min, max)."""
    lo, hi = request_cls.VALID_VERSIONS
    if max_version is not None:
        hi = min(hi, max_version)
    theirs = api_versions.get(request_cls.API_KEY)
    if theirs is None:
        raise WireClientError(f"broker does not support api key {request_cls.API_KEY}")
    v = min(hi, theirs[1])
    if v < max(lo, theirs[0]):
        raise WireClientError(f"no common version for api key {request_cls.API_KEY}")
    return v


class WireClient:
    def __init__(self, host: str, port: int, *, client_id: str = "odradek-cli", timeout: float = 30.0):
        self.host = host
        self.port = port
        self.client_id = client_id
        self._sock = socket.create_connection((host, port), timeout=timeout)
        self._corr = 0
        self.api_versions: dict[int, tuple[int, int]] = {}
        self.negotiate()

    @classmethod
    def from_bootstrap(cls, bootstrap: str, **kw) -> "WireClient":
        first = bootstrap.split(",")[0].strip()
        host, _, port = first.rpartition(":")
        return cls(host or "127.0.0.1", int(port), **kw)

    def negotiate(self) -> None:
        req = ApiVersionsRequest(client_software_name="odradek", client_software_version="0.1.0")
        resp = self.request(req, 3)
        if resp.error_code != 0:
            resp = self.request(ApiVersionsRequest(), 0)
        self.api_versions = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}

    def version_for(self, request_cls, max_version: int | None = None) -> int:
        return common_version(request_cls, self.api_versions, max_version)

    def send(self, request, version: int | None = None, *, max_version: int | None = None):
        """Send a request and return the decoded response body."""
        if version is None:
            version = self.version_for(type(request), max_version)
        return self.request(request, version)

    def find_coordinator(self, key: str, key_type: int = 0, wait_s: float = 10.0):
        """(error, node_id, host, port, message) of the key's coordinator (key_type 0: group,
        1: transactional id), asked as Kafka clients ask: COORDINATOR_NOT_AVAILABLE and
        COORDINATOR_LOAD_IN_PROGRESS (e.g. while the broker creates the internal topic) are
        retried for up to wait_s."""
        from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest

        deadline = time.monotonic() + wait_s
        v = self.version_for(FindCoordinatorRequest)
        while True:
            if v >= 4:
                c = self.send(FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]), v).coordinators[0]
                found = (c.error_code, c.node_id, c.host, c.port, c.error_message)
            else:
                r = self.send(FindCoordinatorRequest(key=key, key_type=key_type), v)
                found = (r.error_code, r.node_id, r.host, r.port, r.error_message)
            if found[0] not in (14, 15) or time.monotonic() >= deadline:
                return found
            time.sleep(0.1)

    def request(self, request, version: int):
        self._corr += 1
        corr = self._corr
        api_key = type(request).API_KEY
        self._sock.sendall(encode_request(request, version, corr, self.client_id))
        frame = self._read_frame()
        decoded = decode_response(frame, api_key, version)
        if decoded.correlation_id != corr:
            raise WireClientError(f"correlation id {decoded.correlation_id} != {corr}")
        return decoded.body

    def send_raw(self, data: bytes) -> bytes:
        """Write raw bytes; read back one frame body (tests of bad input)."""
        self._sock.sendall(data)
        return self._read_frame()

    def _read_exact(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self._sock.recv(n - len(buf))
            if not chunk:
                raise WireClientError("connection closed by broker")
            buf += chunk
        return bytes(buf)

    def _read_frame(self) -> bytes:
        (size,) = _size.unpack(self._read_exact(4))
        return self._read_exact(size)

    def close(self) -> None:
        try:
            self._sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
