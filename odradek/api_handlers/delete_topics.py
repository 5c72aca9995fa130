"""DeleteTopics (key 20) v1-6: by name, and from v6 by name or topic id.

A large request is made in steps (Stepped), STEP_TOPICS topics per controller write, so that
other clients are served meanwhile; the answer is the one a single write gives (errors first,
then the deletions, as Kafka). A request naming more topics than Kafka's bound on one operation
(10,000 records) is made in one write, which answers the topics past the bound as Kafka does.
Under a controller_mutation_rate quota each existing topic's partitions are admitted before it is
deleted (from v5 a topic past the quota is refused with THROTTLING_QUOTA_EXCEEDED)."""

from __future__ import annotations

from odradek.api_handlers.authorization import allowed, allowed_names
from odradek.api_handlers.context import Stepped
from odradek.api_handlers.mutation_quota import THROTTLED_MESSAGE, request_quota, throttle_ms
from odradek.api_handlers.ports import MutationQuota
from odradek.controller.acls import CLUSTER, CLUSTER_NAME, DELETE, DESCRIBE, TOPIC
from odradek.controller.decisions import MAX_RECORDS_PER_USER_OP
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_topics_response import DeletableTopicResult, DeleteTopicsResponse

API_KEY = 20
MIN_VERSION = 1
MAX_VERSION = 6

ZERO_UUID = bytes(16)
STEPPED_TOPICS = 50  # a request naming more topics than this is made in steps
STEP_TOPICS = 50  # the topics one step deletes
CHECK_STEP = 1000  # the topic names an authorizer checks in one step (10,000: ~20 ms in one piece)
STRICT_QUOTA_SINCE = 5  # Kafka's ControllerApis: newQuotaFor(request, strictSinceVersion = 5)


def handle(ctx, request) -> DeleteTopicsResponse:
    errors: list = []
    names: list[str] = []
    ids: list[bytes] = []
    if ctx.api_version >= 6:
        for t in request.topics:
            has_id = t.topic_id != ZERO_UUID
            if t.name is not None and has_id:
                errors.append((t.name, t.topic_id, ErrorCode.INVALID_REQUEST,
                               "You may not specify both topic name and topic id."))
            elif t.name is None and not has_id:
                errors.append((None, ZERO_UUID, ErrorCode.INVALID_REQUEST,
                               "Neither topic name nor id were specified."))
            elif has_id:
                ids.append(t.topic_id)
            else:
                names.append(t.name)
    else:
        names = list(request.topic_names)
    if ctx.services.authorizer is not None and not allowed(ctx, DELETE, CLUSTER, CLUSTER_NAME):
        checks = _authorize(ctx, ctx.services.metadata.image, names, ids, errors)
        if len(names) + len(ids) > STEPPED_TOPICS:  # the checks a part a step, then the deletion
            return Stepped(_Checks(ctx, checks, errors).step)
        while True:
            try:
                next(checks)
            except StopIteration as done:
                names, ids = done.value
                break
    return _delete(ctx, errors, names, ids, ctx.now_ms)


def _delete(ctx, errors: list, names: list[str], ids: list[bytes], now_ms: int):
    """The response, or its Stepped, for the names and ids the principal may delete."""
    metadata = ctx.services.metadata
    quota = request_quota(ctx, STRICT_QUOTA_SINCE)
    if quota is not None:
        names, ids = _admitted(metadata.image, quota, names, ids, errors, now_ms)
    # (names and ids mixed: one write, where a topic named both ways is one deletion)
    if STEPPED_TOPICS < len(names) + len(ids) <= MAX_RECORDS_PER_USER_OP and not (names and ids):
        return Stepped(_Steps(ctx.api_version, metadata, errors, names, ids, quota).step)
    return _response(ctx.api_version, errors + metadata.delete_topics(names=names, ids=ids, now_ms=now_ms),
                     throttle_ms(quota, now_ms))


class _Checks:
    """A large request's authorization checks a part a step (_authorize), then its deletion."""

    def __init__(self, ctx, checks, errors: list):
        self.ctx = ctx
        self.checks = checks
        self.errors = errors

    def step(self, now_ms: int):
        try:
            next(self.checks)
        except StopIteration as done:
            names, ids = done.value
            return _delete(self.ctx, self.errors, names, ids, now_ms)
        return None


def _authorize(ctx, image, names: list[str], ids: list[bytes], errors: list):
    """Kafka's ControllerApis.deleteTopics: DELETE on each topic (without DELETE on the cluster); a topic
    the principal may not DESCRIBE is not disclosed (by id: no name; by name: refused whether it exists
    or not). A generator: the checks CHECK_STEP names a step, then -> the names and ids left to delete;
    the refusals appended to ``errors``."""
    denied = ErrorCode.TOPIC_AUTHORIZATION_FAILED
    id_names = {i: image.topics_by_id[i].name for i in ids if i in image.topics_by_id}
    asked = list(dict.fromkeys([*names, *id_names.values()]))
    describable: set = set()
    deletable: set = set()
    for i in range(0, len(asked), CHECK_STEP):
        part = asked[i:i + CHECK_STEP]
        describable |= allowed_names(ctx, DESCRIBE, TOPIC, part)
        deletable |= allowed_names(ctx, DELETE, TOPIC, part)
        yield
    refused_ids = {i for i, n in id_names.items() if n not in deletable}
    for i in dict.fromkeys(refused_ids):
        n = id_names[i]
        errors.append((n if n in describable else None, i, denied, denied.message))
    refused = {n for n in names if n not in describable or (n in image.topics and n not in deletable)}
    for n in dict.fromkeys(x for x in names if x in refused):
        errors.append((n, ZERO_UUID, denied, denied.message))
    return [n for n in names if n not in refused], [i for i in ids if i not in refused_ids]


def _admitted(image, quota: MutationQuota, names: list[str], ids: list[bytes], errors: list, now_ms: int):
    """The names and ids left once each existing topic's partitions are admitted against the quota
    (a refused topic joins ``errors``); unknown and repeated ones are left to the decision."""
    seen: set = set()

    def keep(topic) -> bool:
        if topic is None or topic.topic_id in seen:
            return True
        seen.add(topic.topic_id)
        if quota.admit(len(topic.partitions), now_ms):
            return True
        errors.append((topic.name, topic.topic_id, ErrorCode.THROTTLING_QUOTA_EXCEEDED, THROTTLED_MESSAGE))
        return False

    return ([n for n in names if keep(image.topics.get(n))],
            [i for i in ids if keep(image.topics_by_id.get(i))])


class _Steps:
    """The named topics deleted a step at a time (a name or id given twice stays in one step, where
    the decision answers it as a duplicate); the response once all are."""

    def __init__(self, version: int, metadata, errors: list, names: list[str], ids: list[bytes],
                 quota: MutationQuota | None = None):
        self.version = version
        self.quota = quota
        self.metadata = metadata
        self.errors = list(errors)
        self.ok: list = []
        self.todo = [(list(group), []) for group in _chunks(names)] + [([], list(group)) for group in _chunks(ids)]

    def step(self, now_ms: int):
        if not self.todo:
            return _response(self.version, self.errors + self.ok, throttle_ms(self.quota, now_ms))
        names, ids = self.todo.pop(0)
        for r in self.metadata.delete_topics(names=names, ids=ids, now_ms=now_ms):
            (self.ok if r[2] == 0 else self.errors).append(r)
        return None


def _chunks(keys: list) -> list[list]:
    """keys in groups of about STEP_TOPICS distinct keys, every occurrence of a key in its group."""
    by_key: dict = {}
    for k in keys:
        by_key.setdefault(k, []).append(k)
    groups, group, distinct = [], [], 0
    for occurrences in by_key.values():
        group += occurrences
        distinct += 1
        if distinct == STEP_TOPICS:
            groups.append(group)
            group, distinct = [], 0
    if group:
        groups.append(group)
    return groups


def _response(version: int, results, throttle_time_ms: int = 0) -> DeleteTopicsResponse:
    responses = []
    for name, topic_id, code, message in results:
        if name is None and version < 6:
            name = ""
        responses.append(DeletableTopicResult(name=name, topic_id=topic_id, error_code=int(code),
                                              error_message=message))
    return DeleteTopicsResponse(throttle_time_ms=throttle_time_ms, responses=responses)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteTopicsRequest.getErrorResponse."""
    if v >= 6:
        states = [(t.name, t.topic_id) for t in req.topics or ()]
    else:
        from odradek.wire.primitives import ZERO_UUID
        states = [(n, ZERO_UUID) for n in req.topic_names or ()]
    return DeleteTopicsResponse(responses=[
        DeletableTopicResult(name=n, topic_id=tid, error_code=code) for n, tid in states])
