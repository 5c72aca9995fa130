"""The JWKS of a listener's signed-token validation (security/oauthbearer_jwt.py), fetched as Kafka
4.3 fetches it: a ``file:`` URL is read at start-up and again whenever the file's modification time
changes (CachedFile's lastModified policy); an ``http(s)://`` URL is fetched at start-up and every
``sasl.oauthbearer.jwks.endpoint.refresh.ms``, a failed fetch retried after
``sasl.oauthbearer.jwks.endpoint.retry.backoff.ms`` doubling up to ``...retry.backoff.max.ms``, and a
token naming a key the set has not asks for a fetch at once (RefreshingHttpsJwks.maybeExpediteRefresh,
at most once a minute per key id). HTTP runs in a worker thread: the event loop never waits on it; a
failed fetch keeps the keys it had.

The allowed URLs come from Kafka's JVM system property ``org.apache.kafka.sasl.oauthbearer.allowed.urls``,
read here the way Kafka's scripts pass it: as ``-D<name>=<value>`` in the ``KAFKA_OPTS`` environment
variable."""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import ssl
import time
import urllib.request
from collections.abc import Mapping
from urllib.parse import unquote, urlsplit

from joserfc.jwk import KeySet

from odradek.broker.tls import client_context_of
from odradek.security.oauthbearer_jwt import JwtSettings, parse_jwks

log = logging.getLogger("odradek.security")

MISSING_KID_INTERVAL_MS = 60_000  # Kafka's MISSING_KEY_ID_CACHE_IN_FLIGHT_MS
MISSING_KID_MAX_LENGTH = 1000  # Kafka's MISSING_KEY_ID_MAX_KEY_LENGTH
HTTP_TIMEOUT_S = 10


def system_properties(environ: Mapping[str, str]) -> dict[str, str]:
    """JVM system properties as a Kafka user passes them: ``-Dname=value`` words of KAFKA_OPTS."""
    out = {}
    try:
        words = shlex.split(environ.get("KAFKA_OPTS", ""))
    except ValueError:
        words = []
    for w in words:
        if w.startswith("-D") and "=" in w:
            name, _, value = w[2:].partition("=")
            out[name] = value
    return out


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class JwksKeys:
    """The verification keys of one listener (security/oauthbearer_jwt.KeySource)."""

    def __init__(self, settings: JwtSettings, scheme: str, tls_options: Mapping[str, str] | None = None):
        """tls_options: an https JWKS's client ssl.* settings, from the listener's OAUTHBEARER JAAS
        options as Kafka takes them (ssl.truststore.location, ssl.truststore.type, ...; none: the
        system's trust store)."""
        self.settings = settings
        self.tls: ssl.SSLContext | None = None
        if scheme == "https":
            options = dict(tls_options or {})
            self.tls = client_context_of(lambda key, default=None: options.get(key, default))
        self.url = settings.jwks_url
        self.is_file = scheme == "file"
        self.path = unquote(urlsplit(self.url).path) if self.is_file else None
        self._keys: KeySet | None = None
        self._mtime: int | None = None
        self._asked: dict[str, int] = {}  # key id -> when a fetch was last asked for it
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self.fetches = 0  # successful fetches (HTTP), for the log and tests

    # ------------------------------------------------------------ KeySource
    def keys(self) -> KeySet | None:
        if self.is_file:
            self._reload_file_if_changed()
        return self._keys

    def missing_kid(self, kid: str | None) -> None:
        if self.is_file or kid is None or len(kid) > MISSING_KID_MAX_LENGTH or self._wake is None:
            return
        now = _now_ms()
        if now - self._asked.get(kid, -MISSING_KID_INTERVAL_MS) < MISSING_KID_INTERVAL_MS:
            return
        self._asked[kid] = now
        log.info("JWKS %s has no key %r: fetching it again now", self.url, kid[:80])
        self._wake.set()

    # ------------------------------------------------------------ file:
    def load_file(self) -> None:
        """Start-up: the file must exist and hold a key set (else the broker does not start)."""
        if not os.path.exists(self.path):
            raise ValueError(f"The OAuth configuration option sasl.oauthbearer.jwks.endpoint.url contains a file "
                             f"({self.path}) that doesn't exist")
        if os.path.isdir(self.path):
            raise ValueError(f"The OAuth configuration option sasl.oauthbearer.jwks.endpoint.url references a "
                             f"directory ({self.path}), not a file")
        try:
            self._mtime = os.stat(self.path).st_mtime_ns
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            raise ValueError(f"The OAuth configuration option sasl.oauthbearer.jwks.endpoint.url contains a file "
                             f"({self.path}) that doesn't have read permission") from None
        self._keys = parse_jwks(data)

    def _reload_file_if_changed(self) -> None:
        try:
            mtime = os.stat(self.path).st_mtime_ns
            if mtime == self._mtime:
                return
            with open(self.path, "rb") as f:
                keys = parse_jwks(f.read())
        except (OSError, ValueError) as e:
            log.warning("JWKS file %s could not be read again (keeping the keys it had): %s", self.path, e)
            return
        self._mtime = mtime
        self._keys = keys
        log.info("JWKS file %s read again: %d keys", self.path, len(keys.keys))

    # ------------------------------------------------------------ http(s)://
    async def start(self) -> None:
        """Fetch the key set once (a failure is logged: tokens are refused until a fetch succeeds),
        then keep it fresh in the background."""
        if self.is_file:
            return
        self._wake = asyncio.Event()
        if not await self._fetch():
            log.warning("JWKS %s not fetched at start-up; retrying in the background", self.url)
        self._task = asyncio.get_running_loop().create_task(self._refresh_loop())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _fetch(self) -> bool:
        try:
            data = await asyncio.to_thread(self._get)
            keys = parse_jwks(data)
        except (OSError, ValueError) as e:  # URLError and HTTPError are OSErrors
            log.warning("JWKS %s could not be fetched: %s", self.url, e)
            return False
        self._keys = keys
        self.fetches += 1
        log.debug("JWKS %s fetched: %d keys", self.url, len(keys.keys))
        return True

    def _get(self) -> bytes:
        req = urllib.request.Request(self.url, headers={"Accept": "application/json"})
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT_S, context=self.tls) as resp:  # noqa: S310
            return resp.read()

    async def _refresh_loop(self) -> None:
        s = self.settings
        backoff = s.retry_backoff_ms
        wait_ms = s.refresh_ms if self._keys is not None else backoff
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=max(wait_ms, 1) / 1000)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            if await self._fetch():
                backoff = s.retry_backoff_ms
                wait_ms = s.refresh_ms
            else:
                wait_ms = backoff
                backoff = min(backoff * 2, s.retry_backoff_max_ms)
