"""CreateTopics (key 19) v2-7: validate_only, configs in the response from v5, topic ids from v7.

A large request is made in steps (Stepped), so that other clients are served meanwhile: its
topics are taken into the controller's specs SPEC_STEP a step, the whole request is decided
first without writing (validate_only: Kafka's whole-request bounds, every topic's own checks),
a part at a time (a validate_only request is answered then), then the topics that passed are
decided again a part at a time over the image of the moment and written as one batch (Kafka's
createTopics is atomicOf: all the request's topics or none, also across a crash), then the
answer's topic results are made and encoded ANSWER_STEP a step (4,999 created topics' results
with their configs are ~5 MB, a fifth of a second of encoding in one piece; making the 10,000
results of a refused request ~35 ms of CPU). Kafka's controller thread does the same work away
from its request handlers.

Under a controller_mutation_rate quota (api_handlers/mutation_quota.py) the request is always
decided first, then each topic that passed is admitted against the quota in request order (from
v6 a topic past the quota is refused with THROTTLING_QUOTA_EXCEEDED), then the admitted are made."""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterator
from typing import NamedTuple

from odradek.api_handlers.authorization import allowed, allowed_names
from odradek.api_handlers.context import Stepped
from odradek.api_handlers.mutation_quota import THROTTLED_MESSAGE, request_quota, throttle_ms
from odradek.controller.acls import CLUSTER, CLUSTER_NAME, CREATE, DESCRIBE_CONFIGS, TOPIC
from odradek.controller.controller import CreateTopicSpec
from odradek.controller.decisions import CreateTopicResult
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.create_topics_response import (
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsResponse,
)

API_KEY = 19
MIN_VERSION = 2
MAX_VERSION = 7

STEPPED_TOPICS = 8  # a request with more topics than this is made in steps
SPEC_STEP = 1000  # the request's topics taken into specs in one step
ANSWER_STEP = 250  # the topic results of a stepped answer encoded in one step
STRICT_QUOTA_SINCE = 6  # Kafka's ControllerApis: newQuotaFor(request, strictSinceVersion = 6)


def handle(ctx, request):
    metadata = ctx.services.metadata
    validate_only = bool(request.validate_only)
    authorized = ctx.services.authorizer is not None
    quota = request_quota(ctx, STRICT_QUOTA_SINCE)
    if len(request.topics) > STEPPED_TOPICS or (quota is not None and not validate_only):
        authorizing = _authorize_steps(ctx, [t.name for t in request.topics]) if authorized else None
        return Stepped(_Steps(ctx.api_version, metadata, request.topics, quota, validate_only=validate_only,
                              authorizing=authorizing).step)
    denied = _authorize(ctx, [t.name for t in request.topics]) if authorized else _NO_AUTHZ
    specs = _specs(request.topics, frozenset(denied.create))
    if quota is None:
        return _response(ctx.api_version, metadata.create_topics(specs, validate_only, ctx.now_ms), 0, denied)
    # validate_only under a quota: decided whole, admitted, answered
    decided = _admitted(metadata.create_topics(specs, True, ctx.now_ms), quota, ctx.now_ms)
    return _response(ctx.api_version, decided, throttle_ms(quota, ctx.now_ms), denied)


def _specs(topics, denied: frozenset = frozenset()) -> list[CreateTopicSpec]:
    """The request's topics as the controller takes them, without those the principal may not create."""
    specs = []
    for t in topics:
        if denied and t.name in denied:
            continue
        assignments = {a.partition_index: list(a.broker_ids) for a in t.assignments} if t.assignments else None
        specs.append(CreateTopicSpec(
            name=t.name,
            num_partitions=t.num_partitions,
            replication_factor=t.replication_factor,
            assignments=assignments,
            configs={c.name: c.value for c in t.configs},
        ))
    return specs


def _admitted(decided: list, quota, now_ms: int) -> list:
    """The decided topics admitted against the quota in request order (None: no quota)."""
    if quota is None:
        return decided
    return [r if r.error_code or quota.admit(r.num_partitions, now_ms)
            else CreateTopicResult(r.name, ErrorCode.THROTTLING_QUOTA_EXCEEDED, THROTTLED_MESSAGE)
            for r in decided]


class _Denied(NamedTuple):
    create: list  # topics the principal may not create, in the order Kafka answers them
    describe_configs: frozenset  # created topics whose configs the principal may not see


_NO_AUTHZ = _Denied([], frozenset())


def _authorize(ctx, names: list) -> _Denied:
    """Kafka's ControllerApis.createTopics: CREATE on the cluster or on each topic; the configs of a topic
    without DESCRIBE_CONFIGS are not sent (topic_config_error_code TOPIC_AUTHORIZATION_FAILED)."""
    steps = _authorize_steps(ctx, names)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def _authorize_steps(ctx, names: list) -> Generator[None, None, _Denied]:
    """_authorize SPEC_STEP names a step (10,000 names: ~10-20 ms of the authorizer's checks)."""
    every = allowed(ctx, CREATE, CLUSTER, CLUSTER_NAME)
    creatable: set = set()
    describable: set = set()
    for i in range(0, len(names), SPEC_STEP):
        part = names[i:i + SPEC_STEP]
        creatable |= set(part) if every else allowed_names(ctx, CREATE, TOPIC, part)
        describable |= allowed_names(ctx, DESCRIBE_CONFIGS, TOPIC, part)
        yield
    unique = set(names)
    return _Denied(sorted(unique - creatable), frozenset(unique - describable))


class _Steps:
    """The request's topics taken SPEC_STEP a step, decided a part at a time (validate-only),
    then the topics that passed decided again a part at a time and created in one write; the
    response once they are, its topic results made and encoded ANSWER_STEP a step."""

    def __init__(self, version: int, metadata, topics: list, quota=None, denied: _Denied = _NO_AUTHZ,
                 validate_only: bool = False, authorizing: Generator[None, None, _Denied] | None = None):
        self.version = version
        self.validate_only = validate_only  # answered once decided
        self.denied = denied
        self.authorizing = authorizing  # the principal's rights on the topics, found a part a step (denied)
        self.metadata = metadata
        self.quota = quota
        self.topics = topics  # the request's, taken SPEC_STEP a step into specs
        self.skip = frozenset(denied.create)
        self.specs: list[CreateTopicSpec] = []
        self.deciding = None
        self.results: dict = {}
        self.decided = False  # the validate-only pass is done: the write's turn
        self.writing = None  # the topics that passed: decided again a part at a time, written as one batch
        self.answer: CreateTopicsResponse | None = None
        self.answering = None  # the answer's topic results, made as they are encoded

    def step(self, now_ms: int):
        if self.authorizing is not None:
            try:
                next(self.authorizing)
            except StopIteration as done:
                self.authorizing = None
                self.denied = done.value
                self.skip = frozenset(self.denied.create)
            return None
        if self.topics is not None:
            taken = len(self.specs)
            self.specs += _specs(self.topics[taken:taken + SPEC_STEP], self.skip)
            if taken + SPEC_STEP >= len(self.topics):
                self.topics = None
                self.deciding = self.metadata.decide_create_topics(self.specs)
            return None
        if self.deciding is not None:
            try:
                next(self.deciding)
            except StopIteration as decided:
                self.deciding = None
                self.results = {r.name: r for r in _admitted(decided.value, self.quota, now_ms)}
                self.decided = True  # (the next step: a pass over all the topics again)
            return None
        if self.decided:
            self.decided = False
            todo = [] if self.validate_only else [s for s in self.specs if self.results[s.name].error_code == 0]
            self.specs = []
            self.writing = self.metadata.create_topics_steps(todo, now_ms) if todo else None
            return None
        if self.writing is not None:
            try:
                next(self.writing)
            except StopIteration as written:
                self.writing = None
                for r in written.value:
                    self.results[r.name] = r
            return None
        return self._answer(now_ms)

    def _answer(self, now_ms: int):
        """The response once its topics are made and encoded, ANSWER_STEP a step (None until then)."""
        if self.answer is None:
            self.answer = CreateTopicsResponse(throttle_time_ms=throttle_ms(self.quota, now_ms), topics=[])
            self.answering = _topic_results(self.version, _taken(list(self.results.values())), self.denied)
            self.results = {}
            return None
        topics = self.answer.topics
        before = len(topics)
        topics += [t.encoded(self.version) for t in itertools.islice(self.answering, ANSWER_STEP)]
        return self.answer if len(topics) - before < ANSWER_STEP else None


def _taken(items: list) -> Iterator:
    """The items in order, each let go of as it is taken (a large answer's 10,000 results are not
    all kept until the last is encoded: fewer objects for each garbage collection to walk)."""
    items.reverse()
    while items:
        yield items.pop()


def _response(version: int, results, throttle_time_ms: int = 0, denied: _Denied = _NO_AUTHZ) -> CreateTopicsResponse:
    return CreateTopicsResponse(throttle_time_ms=throttle_time_ms,
                                topics=list(_topic_results(version, results, denied)))


def _topic_results(version: int, results, denied: _Denied) -> Iterator[CreatableTopicResult]:
    """The answer's topic results, one by one: the decided topics', then those the principal may not create."""
    shared: dict = {}  # id(config views), and the views themselves -> their entries (views live in results)
    for r in results:
        out = CreatableTopicResult(name=r.name, topic_id=r.topic_id, error_code=int(r.error_code),
                                   error_message=r.error_message, num_partitions=r.num_partitions,
                                   replication_factor=r.replication_factor, configs=[])
        if denied.describe_configs and r.name in denied.describe_configs:
            if version >= 5 and r.error_code == 0:
                out.topic_config_error_code = ErrorCode.TOPIC_AUTHORIZATION_FAILED
        elif version >= 5 and r.error_code == 0:
            # topics of the same settings share one list of entries (a large request's 4,999 topics
            # would otherwise make ~175,000 entry objects in one go)
            configs = shared.get(id(r.configs))
            if configs is None:
                key = tuple(r.configs)
                configs = shared.get(key)
                if configs is None:
                    configs = shared[key] = [
                        CreatableTopicConfigs(name=c.name, value=c.value, read_only=c.read_only,
                                              config_source=c.config_source, is_sensitive=c.is_sensitive)
                        for c in r.configs]
                shared[id(r.configs)] = configs
            out.configs = configs
        yield out
    for n in denied.create:
        yield CreatableTopicResult(name=n, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                   error_message="Authorization failed.")


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's CreateTopicsRequest.getErrorResponse."""
    return CreateTopicsResponse(topics=[
        CreatableTopicResult(name=t.name, error_code=code, error_message=msg)
        for t in req.topics or ()])
