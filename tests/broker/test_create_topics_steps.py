"""A large CreateTopics is made in steps (issue 27 item 4: no request holds the event loop for
long): decided whole first (Kafka's bounds, each topic's checks), then decided again a part at a
time and written as one batch (Kafka's createTopics is atomicOf), the broker free to serve others
between steps; the answer is the one a single write gives."""
import pytest
from inproc_broker import call, drive, start_broker

from odradek.api_handlers import create_topics
from odradek.api_handlers.context import Stepped
from odradek.controller import decisions
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest


def _topic(name, partitions):
    return CreatableTopic(name=name, num_partitions=partitions, replication_factor=1, assignments=[], configs=[])


def _drive(b, resp, version=7):
    """The steps, as the connection drives them; the topics existing after each. The answer as
    its reader sees it (a large CreateTopics answer's topics are encoded in steps: decoded here)."""
    seen = []
    while isinstance(resp, Stepped):
        done = resp.step(b.clock_ms())
        seen.append(len(b.controller.image.topics))
        if done is not None:
            resp = done
    return resp.plain(version), seen


def test_a_large_request_is_decided_in_steps_and_written_in_one_batch(tmp_path):
    b = start_broker(tmp_path)
    try:
        topics = ([_topic(f"t{i}", 1) for i in range(30)] + [_topic("big", 20), _topic("bad name", 1)]
                  + [_topic("dup", 1), _topic("dup", 1), _topic("p0", 0)])
        before = len(b.controller.image.topics)
        resp = call(b, "create_topics", CreateTopicsRequest(topics=topics, timeout_ms=1000), 7)
        assert isinstance(resp, Stepped)
        assert len(b.controller.image.topics) == before  # nothing written before the first step
        resp, seen = _drive(b, resp)
        created = [n - before for n in seen]
        assert created[-1] == 31 and created == sorted(created) and set(created) == {0, 31}  # all at once
        assert created.count(0) > 2  # decided in steps before the write
        got = [(t.name, t.error_code, t.num_partitions) for t in resp.topics]
        assert got[:30] == [(f"t{i}", 0, 1) for i in range(30)]
        assert got[30:] == [("big", 0, 20), ("bad name", 17, -1), ("dup", 42, -1), ("p0", 37, -1)]
        assert all(t.topic_id != bytes(16) for t in resp.topics[:31])
        assert b.log_manager.get("big", 19) is not None  # the broker made its logs too
    finally:
        b.close()


def test_a_topic_created_by_another_client_between_steps_is_answered_as_existing(tmp_path):
    b = start_broker(tmp_path)
    try:
        resp = call(b, "create_topics", CreateTopicsRequest(
            topics=[_topic(f"t{i}", 1) for i in range(20)], timeout_ms=1000), 7)
        resp.step(b.clock_ms())  # the first topics
        other = call(b, "create_topics", CreateTopicsRequest(topics=[_topic("t19", 1)], timeout_ms=1000), 7)
        assert other.topics[0].error_code == 0
        resp, _ = _drive(b, resp)
        last = resp.topics[-1]
        assert (last.name, last.error_code) == ("t19", 36)  # TOPIC_ALREADY_EXISTS
        assert all(t.error_code == 0 for t in resp.topics[:-1])
    finally:
        b.close()


def test_an_oversized_request_is_refused_whole_before_any_write(tmp_path):
    b = start_broker(tmp_path)
    try:
        before = len(b.controller.image.topics)
        resp = call(b, "create_topics", CreateTopicsRequest(
            topics=[_topic(f"t{i}", 1) for i in range(5001)], timeout_ms=1000), 7)
        resp, seen = _drive(b, resp)
        # nothing written at any step; the decision itself made in parts (the loop free between)
        assert set(seen) == {before}
        assert len(seen) >= 10_000 // decisions.DECISION_STEP_RECORDS
        assert {(t.error_code, t.error_message) for t in resp.topics} == {
            (44, "Unable to perform excessively large batch operation.")}
    finally:
        b.close()


def test_a_refused_large_request_keeps_few_objects_alive_at_any_step(tmp_path):
    """A full garbage collection walks every live object in one piece of the event loop: the
    refusal of 10,000 topics keeps no records (its decision counts them) and lets go of its
    results as they are encoded. Budget: the request's 30,001 objects (a topic and its two lists
    each), the specs, the results or the encoded answer (measured: 50,213; 104,674 before)."""
    import gc

    b = start_broker(tmp_path)
    try:
        req = CreateTopicsRequest(topics=[_topic(f"t{i}", 1) for i in range(10_000)], timeout_ms=1000)
        gc.collect()
        base = len(gc.get_objects()) - 30_001
        resp = call(b, "create_topics", req, 7)
        peak, steps = 0, 0
        while isinstance(resp, Stepped):
            done = resp.step(b.clock_ms())
            steps += 1
            if steps % 5 == 0:
                peak = max(peak, len(gc.get_objects()) - base)
            if done is not None:
                resp = done
        assert {t.error_code for t in resp.plain(7).topics} == {44}
        assert peak < 60_000, peak
    finally:
        b.close()


def test_a_large_answer_is_encoded_in_steps_with_the_bytes_of_one_piece(tmp_path):
    from odradek.wire.base import Encoded
    from odradek.wire.messages.create_topics_response import CreateTopicsResponse

    b = start_broker(tmp_path)
    try:
        n = 2 * create_topics.ANSWER_STEP + 7
        resp = call(b, "create_topics", CreateTopicsRequest(
            topics=[_topic(f"a{i}", 1) for i in range(n)] + [_topic("bad name", 1)], timeout_ms=1000), 5)
        resp, steps = drive(b, resp)
        assert isinstance(resp, CreateTopicsResponse) and all(t.__class__ is Encoded for t in resp.topics)
        plain = resp.plain(5)
        assert [(t.name, t.error_code) for t in plain.topics] == (
            [(f"a{i}", 0) for i in range(n)] + [("bad name", 17)])
        assert len(plain.topics[0].configs) > 20  # (v5: each created topic's configs)
        assert plain.encode(5) == resp.encode(5)
        assert steps >= n // create_topics.ANSWER_STEP
    finally:
        b.close()


def _delete(b, topics, version=6):
    from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState

    return call(b, "delete_topics", DeleteTopicsRequest(
        topics=[DeleteTopicState(name=n) for n in topics], timeout_ms=1000), version)


def test_a_large_delete_is_made_in_steps_with_the_single_write_answer(tmp_path):
    from odradek.api_handlers import delete_topics

    b = start_broker(tmp_path)
    try:
        names = [f"t{i}" for i in range(120)]
        resp, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(
            topics=[_topic(n, 1) for n in names], timeout_ms=1000), 7))
        assert all(t.error_code == 0 for t in resp.topics)
        before = len(b.controller.image.topics)
        resp = _delete(b, names[:100] + ["nope", "t100", "t100"] + names[101:])
        assert isinstance(resp, Stepped)
        resp, seen = _drive(b, resp, 6)
        assert len(seen) >= 119 // delete_topics.STEP_TOPICS and seen[-1] == before - 119
        got = [(t.name, t.error_code) for t in resp.responses]
        # errors first, then the deletions, as one write answers
        assert got[:2] == [("nope", 3), ("t100", 42)] or got[:2] == [("t100", 42), ("nope", 3)]
        assert sorted(got[2:]) == sorted((n, 0) for n in names if n != "t100")
        assert set(b.controller.image.topics) & set(names) == {"t100"}
    finally:
        b.close()



def test_the_principal_s_rights_on_a_large_delete_are_found_in_steps(tmp_path):
    """With an authorizer (and no DELETE on the cluster), DESCRIBE and DELETE on each topic of a large
    DeleteTopics are checked CHECK_STEP names a step, then the topics are deleted in steps: refused
    ones first (TOPIC_AUTHORIZATION_FAILED), then the unknown, then the deletions."""
    from dataclasses import replace

    from odradek.api_handlers import create_acls, delete_topics
    from odradek.api_handlers.context import RequestContext
    from odradek.controller import acls as A
    from odradek.security.authorizer import StandardAuthorizer
    from odradek.wire.messages.create_acls_request import AclCreation, CreateAclsRequest
    from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState

    b = start_broker(tmp_path)
    try:
        existing = [f"ok{i}" for i in range(60)] + ["see1", "hidden"]
        resp, _ = _drive(b, call(b, "create_topics", CreateTopicsRequest(
            topics=[_topic(n, 1) for n in existing], timeout_ms=1000), 7))
        assert {t.error_code for t in resp.topics} == {0}
        services = replace(b.services, authorizer=StandardAuthorizer(frozenset()))
        admin = RequestContext(api_key=30, api_version=3, correlation_id=1, client_id="t", now_ms=b.clock_ms(),
                               services=services, principal=None)
        acl = [AclCreation(resource_type=A.TOPIC, resource_name=prefix, resource_pattern_type=A.PREFIXED,
                           principal="User:bob", host="*", operation=op, permission_type=A.ALLOW)
               for prefix, op in (("ok", A.DESCRIBE), ("ok", A.DELETE), ("see", A.DESCRIBE))]
        assert {r.error_code for r in create_acls.handle(admin, CreateAclsRequest(creations=acl)).results} == {0}
        unknown = [f"oknone{i}" for i in range(delete_topics.CHECK_STEP)]
        names = existing[:60] + unknown + ["see1", "hidden"]
        ctx = replace(admin, api_key=20, api_version=6, principal="User:bob")
        resp = delete_topics.handle(ctx, DeleteTopicsRequest(topics=[DeleteTopicState(name=n) for n in names],
                                                             timeout_ms=1000))
        assert isinstance(resp, Stepped)
        assert resp.step(b.clock_ms()) is None and resp.step(b.clock_ms()) is None  # the checks: two parts
        assert set(b.controller.image.topics) >= set(existing)  # nothing deleted while checking
        resp, _ = _drive(b, resp, 6)
        got = [(t.name, t.error_code) for t in resp.responses]
        assert got[:2] == [("see1", 29), ("hidden", 29)]  # TOPIC_AUTHORIZATION_FAILED
        assert sorted(got[2:1002]) == sorted((n, 3) for n in unknown)  # UNKNOWN_TOPIC_OR_PARTITION
        assert sorted(got[1002:]) == sorted((n, 0) for n in existing[:60])
        assert set(b.controller.image.topics) & set(existing) == {"see1", "hidden"}
    finally:
        b.close()


def test_metadata_auto_creating_many_topics_creates_them_in_steps(tmp_path):
    from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

    b = start_broker(tmp_path)
    try:
        names = [f"auto{i}" for i in range(20)]
        resp = call(b, "metadata", MetadataRequest(topics=[MetadataRequestTopic(name=n) for n in names],
                                                   allow_auto_topic_creation=True), 12)
        assert isinstance(resp, Stepped)
        resp, seen = _drive(b, resp, 12)
        assert len(seen) > 2 and seen == sorted(seen)
        assert [(t.name, t.error_code) for t in resp.topics] == [(n, 3) for n in names]  # Kafka 4.3's answer
        assert set(names) <= set(b.controller.image.topics)
    finally:
        b.close()


def test_a_refused_request_of_ten_thousand_topics_is_taken_decided_and_answered_in_steps(tmp_path):
    """The 10,000 topics of a request refused whole (20,000 records) are taken a part at a time,
    the decision made a part at a time, and the answer's results made a part at a time: each
    step's share of the work is bounded, and the answer is the one-piece decision's."""
    b = start_broker(tmp_path)
    try:
        n = 10_000
        topics = [_topic(f"t{i}", 1) for i in range(n)]
        resp, seen = _drive(b, call(b, "create_topics", CreateTopicsRequest(topics=topics, timeout_ms=1000), 7))
        steps = len(seen)
        # (the decision meets the 10,000-record bound half-way through the topics)
        deciding = decisions.MAX_RECORDS_PER_USER_OP // decisions.DECISION_STEP_RECORDS
        assert steps >= n // create_topics.SPEC_STEP + deciding + n // create_topics.ANSWER_STEP
        one_piece = b.controller.create_topics(create_topics._specs(topics), True, b.clock_ms())
        assert [(t.name, t.error_code, t.error_message) for t in resp.topics] == [
            (r.name, r.error_code, r.error_message) for r in one_piece] == [
            (f"t{i}", 44, "Unable to perform excessively large batch operation.") for i in range(n)]
    finally:
        b.close()


def test_topics_the_principal_may_not_create_are_left_out_of_the_steps_and_answered_last(tmp_path):
    b = start_broker(tmp_path)
    try:
        topics = [_topic(f"t{i}", 1) for i in range(20)]
        denied = create_topics._Denied(["t3", "t7"], frozenset({"t5"}))
        steps = create_topics._Steps(5, b.services.metadata, topics, None, denied)
        resp = None
        while resp is None:
            resp = steps.step(b.clock_ms())
        got = [(t.name, t.error_code, t.topic_config_error_code) for t in resp.plain(5).topics]
        assert got == ([(f"t{i}", 0, 29 if i == 5 else 0) for i in range(20) if i not in (3, 7)]
                       + [("t3", 29, 0), ("t7", 29, 0)])  # TOPIC_AUTHORIZATION_FAILED
        assert "t3" not in b.controller.image.topics and "t4" in b.controller.image.topics
    finally:
        b.close()


def test_the_principal_s_rights_on_a_large_request_are_found_in_steps(tmp_path):
    """With an authorizer, the principal's CREATE and DESCRIBE_CONFIGS on each of a large request's
    topics are checked SPEC_STEP a step (10,000 names: 10-20 ms of checks in one piece before);
    those it may not create are answered last, sorted, with TOPIC_AUTHORIZATION_FAILED."""
    from dataclasses import replace

    from odradek.api_handlers import create_acls
    from odradek.api_handlers.context import RequestContext
    from odradek.controller import acls as A
    from odradek.security.authorizer import StandardAuthorizer
    from odradek.wire.messages.create_acls_request import AclCreation, CreateAclsRequest

    b = start_broker(tmp_path)
    try:
        services = replace(b.services, authorizer=StandardAuthorizer(frozenset()))
        admin = RequestContext(api_key=30, api_version=3, correlation_id=1, client_id="t", now_ms=b.clock_ms(),
                               services=services, principal=None)
        acl = [AclCreation(resource_type=A.TOPIC, resource_name=prefix, resource_pattern_type=A.PREFIXED,
                           principal="User:bob", host="*", operation=op, permission_type=A.ALLOW)
               for prefix, op in (("ok", A.CREATE), ("ok1", A.DESCRIBE_CONFIGS))]
        assert {r.error_code for r in create_acls.handle(admin, CreateAclsRequest(creations=acl)).results} == {0}
        names = [f"ok{i}" for i in range(create_topics.SPEC_STEP + 20)] + ["no2", "no1"]
        ctx = replace(admin, api_key=19, api_version=7, principal="User:bob")
        resp = create_topics.handle(ctx, CreateTopicsRequest(topics=[_topic(n, 1) for n in names],
                                                             timeout_ms=1000, validate_only=True))
        assert isinstance(resp, Stepped) and resp.step(b.clock_ms()) is None
        resp, seen = _drive(b, resp)
        got = [(t.name, t.error_code, t.topic_config_error_code) for t in resp.topics]
        assert got == ([(n, 0, 0 if n.startswith("ok1") else 29) for n in names[:-2]]
                       + [("no1", 29, 0), ("no2", 29, 0)])
        checks = create_topics._authorize_steps(ctx, names)
        assert next(checks) is None and next(checks) is None  # a step per SPEC_STEP names
        with pytest.raises(StopIteration) as done:
            next(checks)
        assert done.value.value == create_topics._authorize(ctx, names) == create_topics._Denied(
            ["no1", "no2"], frozenset(names) - {n for n in names if n.startswith("ok1")})
    finally:
        b.close()


def test_a_large_validate_only_request_is_decided_in_steps_and_creates_nothing(tmp_path):
    """validate_only: the same answer as the one-piece decision (10,000 topics on an idle machine:
    ~180 ms of CPU in one piece before), made in steps; nothing created."""
    b = start_broker(tmp_path)
    try:
        before = set(b.controller.image.topics)
        for topics, n in (([_topic(f"v{i}", 2) for i in range(30)] + [_topic("bad name", 1)], 31),
                          ([_topic(f"w{i}", 1) for i in range(10_000)], 10_000)):
            resp = call(b, "create_topics", CreateTopicsRequest(topics=topics, timeout_ms=1000, validate_only=True), 7)
            assert isinstance(resp, Stepped)
            resp, seen = _drive(b, resp)
            assert len(seen) > 2 and set(seen) == {len(before)}
            one_piece = b.controller.create_topics(create_topics._specs(topics), True, b.clock_ms())
            assert [(t.name, t.error_code, t.error_message, t.num_partitions) for t in resp.topics] == [
                (r.name, r.error_code, r.error_message, r.num_partitions) for r in one_piece]
            assert len(resp.topics) == n
        assert resp.topics[0].error_code == 44  # (the 10,000: refused whole)
        assert set(b.controller.image.topics) == before
    finally:
        b.close()
