"""What a handler receives, and how it asks the broker to answer later."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Generator

from odradek.controller.client_quotas import is_ip_literal
from odradek.controller.steps import whole  # noqa: F401 (a generator written for in_steps run in one piece)

if TYPE_CHECKING:
    from odradek.wire.messages.request_header import RequestHeader

    from .ports import Services


@dataclass(slots=True)
class RequestContext:
    """Per-request facts, and the broker's services as typed ports (ports.py)."""

    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    now_ms: int
    services: Services
    connection_id: str = ""
    client_host: str = ""
    # the connection's principal (the SASL user, the SSL certificate's subject, else User:ANONYMOUS as
    # Kafka's PLAINTEXT); None for a request this node's own broker side hands its controller
    principal: str | None = "User:ANONYMOUS"
    # the listener the request came in on: brokers are answered with their endpoints on it, as Kafka
    # ("": the broker's first registered endpoint)
    listener: str = ""
    header: RequestHeader | None = None
    # a host name -> does it resolve (ip quota entities, as Kafka's InetAddress.getByName);
    # the broker passes its resolver, the default takes IP literals only
    resolve_host: Callable[[str], bool] = is_ip_literal


@dataclass
class Stepped:
    """A response made in steps (a large admin write), so that no request holds the broker
    for long: the broker calls ``step(now_ms)`` again and again, serving other clients between
    calls, until it returns the response (None: more to do)."""

    step: Callable[[int], object]


# the entries (partitions, ids) a handler made in steps (in_steps) answers in one step: ~1-3 ms
STEP_ENTRIES = 500
# the partitions a step of a large Fetch reads, of a Produce or DeleteRecords appends to or moves the
# log start of (in_steps): ~20-50 us each (a log's read or append), ~5-10 ms a step
STEP_PARTITIONS = 200


def in_steps(work: Generator[None, None, object]):
    """The response of ``work``, a generator that yields after every STEP_ENTRIES entries of a
    large request and returns the response: the response at once if it never yields (a small
    request), else a Stepped that goes on from there, the broker serving other clients between
    steps (issue 27 fairness)."""
    try:
        next(work)
    except StopIteration as done:
        return done.value

    def step(now_ms: int):
        try:
            next(work)
        except StopIteration as done:
            return done.value
        return None

    return Stepped(step)


def topic_chunks(topics, partitions_of: Callable[[object], list], size: int):
    """The partitions of a request's ``topics`` (``partitions_of(topic)``) in steps of ``size``: (topic,
    a chunk of its partitions, whether it is the topic's first, whether a step of ``size`` partitions
    ends with it), in request order; a topic of no partitions comes once, with an empty chunk. A large
    request's generator does its work on each chunk and yields where a step ends; a small request's
    handler does the same work on each topic's partitions at once."""
    room = size
    for t in topics:
        data = partitions_of(t)
        start, end = 0, len(data)
        first = True
        while first or start < end:
            chunk = data[start:start + room]
            start += len(chunk)
            room -= len(chunk)
            full = room == 0
            if full:
                room = size
            yield t, chunk, first, full
            first = False


def made_in_parts(items: list, make: Callable[[object], object], weight: Callable[[object], int],
                  answer: Callable[[list], object]):
    """``answer([make(item) for item in items])`` made a part at a time: a part ends once what it made
    weighs STEP_ENTRIES entries (``weight(made)``: e.g. a described group and its members). A request
    answered by its first part (a small one) is answered at once, with no generator; a larger one goes
    on a part a step (in_steps), the broker serving other clients between them. The same ``make`` of
    the same items in either case: the answers are alike."""
    out: list = []
    return answered_in_parts(lambda at: _part(items, at, make, weight, out), lambda: answer(out))


def answered_in_parts(part: Callable[[int], int | None], response: Callable[[], object]):
    """``response()`` once ``part(at)`` made every part of an answer, the first from 0 (``part`` makes
    the part at ``at`` and gives where the next starts, None after the last): an answer made by its
    first part is answered at once, with no generator; a larger one goes on a part a step (in_steps)."""
    at = part(0)
    return response() if at is None else in_steps(_rest_of_parts(part, at, response))


def _part(items: list, at: int, make, weight, out: list) -> int | None:
    """``make`` of items[at:] appended to ``out`` until they weigh STEP_ENTRIES: where the next part
    starts, None when every item is made."""
    end, n = len(items), 0
    while at < end:
        made = make(items[at])
        at += 1
        out.append(made)
        n += weight(made)
        if n >= STEP_ENTRIES:
            break
    return at if at < end else None


def _rest_of_parts(part: Callable[[int], int | None], at: int | None, response: Callable[[], object]):
    """The parts after the first, a generator for in_steps: a part a step."""
    while at is not None:
        yield
        at = part(at)
    return response()


class StepCount:
    """The entries a handler written for in_steps made so far, when they are spread over helpers:
    ``if count.due(): yield`` after each entry yields every STEP_ENTRIES entries."""

    __slots__ = ("n",)

    def __init__(self):
        self.n = 0

    def due(self) -> bool:
        self.n += 1
        return self.n % STEP_ENTRIES == 0


def topic_results_steps(results, topic, partition, answer) -> Generator[None, None, object]:
    """``answer(topics)`` for a decision's ``results`` [(topic, [(partition, error, message)])], the
    topics made by ``topic(name, partitions)`` of ``partition(index, error, message)``, a generator
    for in_steps that yields every STEP_ENTRIES partitions: a controller decision over 100,000
    partitions is answered in steps."""
    topics, n = [], 0
    for name, parts in results:
        made = []
        for index, code, message in parts:
            n += 1
            if n % STEP_ENTRIES == 0:
                yield
            made.append(partition(index, code, message))
        topics.append(topic(name, made))
    return answer(topics)


@dataclass(slots=True)
class Delayed:
    """A response that cannot be given yet (acks=all, long-poll Fetch, JoinGroup...).

    The broker's purgatory calls ``try_complete(now_ms)`` when any of ``watch``
    keys is poked (e.g. ("partition", topic, index) after an append, ("group", id))
    and at ``deadline_ms``; it returns the response, or None to keep waiting.
    At the deadline the broker calls ``on_expire(now_ms)`` which must return the
    response.
    """

    try_complete: Callable[[int], object]  # the response, or None: not yet
    on_expire: Callable[[int], object]
    deadline_ms: int
    watch: list = field(default_factory=list)
