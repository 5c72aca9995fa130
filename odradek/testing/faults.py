"""Fault rules at the protocol level (franz-go kfake's ControlKey / AddFault): which requests a
rule matches (API, version, client id, topic, partition, group) and what the broker does to
them (answer an error code, delay the response, drop the response, close the connection, rewrite
the response: odradek/testing/rewrite.py).

Pure: the broker's connection (broker/connection.py) asks ``FaultTable.match`` for each decoded
request and acts on the ``Fault`` it gets; rules come from the Python API, the HTTP control
API (``POST /control/faults``) or the CLI (``odradek fault inject``), all through ``parse``.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable

from odradek.wire import messages
from odradek.wire.base import Message
from odradek.wire.errors import ErrorCode

from .rewrite import PatchError, Rewriter, check_patch, response_class, rewriter

ACTIONS = ("drop_response", "close_connection")
FIELDS = ("api", "error", "times", "topic", "partition", "group", "client_id", "version", "delay_ms", "action",
          "rewrite")


class FaultError(ValueError):
    """A fault that cannot be injected (an unknown API or error name, a bad field)."""


def api_key_of(name: str) -> int:
    """``Produce`` (or ``ProduceRequest``, or the key itself as a number) -> 0."""
    if isinstance(name, int) and not isinstance(name, bool):
        key = name
    elif isinstance(name, str) and name.strip().isdigit():
        key = int(name)
    elif isinstance(name, str):
        wanted = name.strip().removesuffix("Request").lower()
        key = next((k for k, n in messages.REQUEST_BY_KEY.items() if n.removesuffix("Request").lower() == wanted),
                   None)
        if key is None:
            raise FaultError(f"unknown API {name!r}: a Kafka API name such as Produce, Fetch, Metadata, "
                             f"JoinGroup, or its key")
    else:
        raise FaultError(f"api must be a Kafka API name or key, not {name!r}")
    if key not in messages.REQUEST_BY_KEY:
        raise FaultError(f"unknown API key {key}")
    return key


def api_name(key: int) -> str:
    return messages.REQUEST_BY_KEY[key].removesuffix("Request")


def error_code_of(error) -> int:
    """``NOT_LEADER_OR_FOLLOWER`` (any case, or the code as a number) -> 6."""
    if isinstance(error, int) and not isinstance(error, bool):
        try:
            return int(ErrorCode(error))
        except ValueError:
            raise FaultError(f"unknown error code {error}") from None
    if isinstance(error, str):
        s = error.strip()
        if s.lstrip("-").isdigit():
            return error_code_of(int(s))
        try:
            return int(ErrorCode[s.upper()])
        except KeyError:
            raise FaultError(f"unknown error {error!r}: a Kafka error name such as NOT_LEADER_OR_FOLLOWER, "
                             f"or its code") from None
    raise FaultError(f"error must be a Kafka error name or code, not {error!r}")


@dataclass
class FaultRule:
    """One injected fault. ``times``: how many matching requests it takes (None: every one until it
    is removed). The filters that are None match anything."""

    api_key: int
    error_code: int | None = None
    times: int | None = None
    topic: str | None = None
    partition: int | None = None
    group: str | None = None
    client_id: str | None = None
    version: int | None = None
    delay_ms: int | None = None
    action: str | None = None
    rewrite: dict | Callable | None = None  # a patch of fields (JSON) or a callable (in process)
    id: int = 0
    hits: int = 0

    def describe(self) -> dict:
        d = asdict(dataclasses.replace(self, rewrite=None))
        d["rewrite"] = (self.rewrite if self.rewrite is None or isinstance(self.rewrite, dict)
                        else repr(self.rewrite))
        d["api"] = api_name(self.api_key)
        d["error"] = None if self.error_code is None else ErrorCode.from_code(self.error_code).name
        return d


def _opt_int(fields: dict, name: str, lo: int) -> int | None:
    v = fields.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise FaultError(f"{name} must be an integer, not {v!r}")
    try:
        n = int(v)
    except ValueError:
        raise FaultError(f"{name} must be an integer, not {v!r}") from None
    if n < lo:
        raise FaultError(f"{name} must be at least {lo}, not {n}")
    return n


def _opt_str(fields: dict, name: str) -> str | None:
    v = fields.get(name)
    if v is None or isinstance(v, str):
        return v
    raise FaultError(f"{name} must be a string, not {v!r}")


def parse(fields: dict, in_process: bool = False) -> FaultRule:
    """A rule from the fields of ``faults.inject(...)`` / the JSON of ``POST /control/faults``.
    ``in_process``: the rule comes from this process (a callable ``rewrite`` is allowed)."""
    if not isinstance(fields, dict):
        raise FaultError("a fault is a JSON object")
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise FaultError(f"unknown field(s) {', '.join(unknown)}; a fault has {', '.join(FIELDS)}")
    if fields.get("api") is None:
        raise FaultError("api is required (a Kafka API name such as Produce)")
    rule = FaultRule(
        api_key=api_key_of(fields["api"]),
        error_code=None if fields.get("error") is None else error_code_of(fields["error"]),
        times=_opt_int(fields, "times", 1),
        topic=_opt_str(fields, "topic"),
        partition=_opt_int(fields, "partition", 0),
        group=_opt_str(fields, "group"),
        client_id=_opt_str(fields, "client_id"),
        version=_opt_int(fields, "version", 0),
        delay_ms=_opt_int(fields, "delay_ms", 0),
        action=_opt_str(fields, "action"),
        rewrite=fields.get("rewrite"),
    )
    if rule.rewrite is not None:
        if callable(rule.rewrite):
            if not in_process:
                raise FaultError("a callable rewrite needs the broker in this process (Broker(in_process=True)); "
                                 "to a broker process give a patch of fields, e.g. {\"throttle_time_ms\": 5}")
        else:
            try:
                check_patch(response_class(rule.api_key), rule.rewrite)
            except PatchError as e:
                raise FaultError(f"bad rewrite: {e}") from None
        if rule.action is not None:
            raise FaultError(f"a fault rewrites the response or does {rule.action}, not both")
    if rule.action is not None and rule.action not in ACTIONS:
        raise FaultError(f"unknown action {rule.action!r}: one of {', '.join(ACTIONS)}")
    if rule.action is not None and rule.error_code is not None:
        raise FaultError(f"a fault answers an error or does {rule.action}, not both")
    if rule.error_code is None and rule.action is None and rule.delay_ms is None and rule.rewrite is None:
        raise FaultError("a fault needs an error, a delay_ms or an action (or a rewrite)")
    return rule


@dataclass(frozen=True)
class Fault:
    """What to do with one request: wait ``delay_ms`` first (0: no wait), then answer ``error_code``
    instead of handling it, or handle it and do ``action`` (drop_response / close_connection: the
    connection closes before the request is handled), or (neither) handle it as usual; the response
    sent (the error's or the handler's) goes through ``rewrite`` first."""

    rule_id: int
    delay_ms: int = 0
    error_code: int | None = None
    action: str | None = None
    rewrite: Rewriter | None = None


# ------------------------------------------------------------ what a request names


def _items(msg: Message) -> Iterable[tuple[str, object]]:
    for f in msg._FIELDS:
        yield f[0], getattr(msg, f[0], None)


_TOPIC_FIELDS = ("name", "topic", "topic_name")
_TOPIC_ID_FIELDS = ("topic_id",)
_PARTITION_FIELDS = ("index", "partition_index", "partition")
_PARTITION_LISTS = ("partitions", "partition_indexes")
_GROUP_FIELDS = ("group_id",)
_GROUP_LISTS = ("groups", "group_ids")


@dataclass
class Named:
    """The topics, (topic, partition)s and groups a request names."""

    topics: set = field(default_factory=set)
    partitions: set = field(default_factory=set)
    groups: set = field(default_factory=set)


def named(request: Message, topic_name: Callable[[object], str | None]) -> Named:
    """What ``request`` names: a sub-message of a topic kind (a name or topic id, beside its
    partitions), group ids. ``topic_name(uuid)``: topic ids (Fetch v13+) as names."""
    out = Named()
    _walk(request, out, topic_name, top=True)
    return out


def _walk(msg: Message, out: Named, topic_name, top: bool) -> None:
    topic = None
    parts: list[int] = []
    subs = []
    for name, value in _items(msg):
        if isinstance(value, list):
            if value and isinstance(value[0], Message):
                subs.extend(value)
            elif name in _PARTITION_LISTS:
                parts.extend(v for v in value if isinstance(v, int))
            elif name in _GROUP_LISTS and top:
                out.groups.update(v for v in value if isinstance(v, str))
        elif isinstance(value, Message):
            subs.append(value)
        elif name in _TOPIC_FIELDS and isinstance(value, str) and value and "Topic" in type(msg).__name__:
            topic = value
        elif name in _TOPIC_ID_FIELDS and topic is None and value is not None:
            resolved = topic_name(value)
            topic = resolved or topic
        elif name in _GROUP_FIELDS and isinstance(value, str):
            out.groups.add(value)
    if topic is not None:
        out.topics.add(topic)
        for sub in subs:
            for pname, pvalue in _items(sub):
                if pname in _PARTITION_FIELDS and isinstance(pvalue, int):
                    parts.append(pvalue)
        out.partitions.update((topic, p) for p in parts)
    for sub in subs:
        _walk(sub, out, topic_name, top=False)


# ------------------------------------------------------------ the table


class FaultTable:
    """The broker's injected faults, oldest first; the first rule matching a request takes it."""

    def __init__(self) -> None:
        self._rules: list[FaultRule] = []
        self._ids = itertools.count(1)

    def __len__(self) -> int:
        return len(self._rules)

    def add(self, rule: FaultRule) -> int:
        rule.id = next(self._ids)
        self._rules.append(rule)
        return rule.id

    def remove(self, rule_id: int) -> bool:
        n = len(self._rules)
        self._rules = [r for r in self._rules if r.id != rule_id]
        return len(self._rules) != n

    def clear(self) -> int:
        n = len(self._rules)
        self._rules = []
        return n

    def rules(self) -> list[dict]:
        return [r.describe() for r in self._rules]

    def match(self, api_key: int, version: int, client_id: str | None, request: Message,
              topic_name: Callable[[object], str | None]) -> Fault | None:
        """The fault for this request, or None; counts it against the rule (a spent rule goes)."""
        if not self._rules:
            return None
        found = None
        req_named = None
        for rule in self._rules:
            if rule.api_key != api_key:
                continue
            if rule.version is not None and rule.version != version:
                continue
            if rule.client_id is not None and rule.client_id != client_id:
                continue
            if rule.topic is not None or rule.partition is not None or rule.group is not None:
                if req_named is None:
                    req_named = named(request, topic_name)
                if rule.topic is not None and rule.topic not in req_named.topics:
                    continue
                if rule.partition is not None and not any(
                        p == rule.partition and (rule.topic is None or t == rule.topic)
                        for t, p in req_named.partitions):
                    continue
                if rule.group is not None and rule.group not in req_named.groups:
                    continue
            found = rule
            break
        if found is None:
            return None
        found.hits += 1
        if found.times is not None:
            found.times -= 1
            if found.times <= 0:
                self.remove(found.id)
        return Fault(found.id, found.delay_ms or 0, found.error_code, found.action,
                     None if found.rewrite is None else rewriter(found.rewrite))
