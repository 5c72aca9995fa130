"""A full Metadata sends each topic as an encoding cached per topic (issue 28): the bytes are
those of the plain response at every version, a changed topic or broker set is encoded again,
and a topic encoded for one layout is refused by another (wire.base.Encoded)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from odradek.api_handlers import metadata
from odradek.api_handlers.context import RequestContext
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.wire.api import decode_response, encode_response
from odradek.wire.exceptions import WireError
from odradek.wire.messages.metadata_request import MetadataRequest
from odradek.wire.messages.metadata_response import MetadataResponse

from fake_services import services


def topic(i: int, leader: int = 1) -> TopicImage:
    return TopicImage(f"t{i}", bytes([i]) * 16,
                      {p: PartitionImage(p, leader, 0, 0, (1, 2), (1, 2)) for p in range(3)})


def image(topics, brokers=None) -> MetadataImage:
    brokers = brokers or {1: BrokerImage(1, "h1", 9001), 2: BrokerImage(2, "h2", 9002)}
    return MetadataImage(topics={t.name: t for t in topics}, topics_by_id={t.topic_id: t for t in topics},
                         brokers=brokers, offset=9)


def full(img, v: int, ops: bool = False) -> bytes:
    ctx = RequestContext(api_key=3, api_version=v, correlation_id=1, client_id="c", now_ms=0,
                         services=services(image_of=lambda: img))
    return encode_response(3, v, 1, metadata.handle(ctx, MetadataRequest(
        topics=None, include_topic_authorized_operations=ops)))


def plain(img, v: int, ops: bool = False) -> bytes:
    """The same response with every topic built and encoded afresh (no cache)."""
    metadata._ENCODED.clear()
    ctx = RequestContext(api_key=3, api_version=v, correlation_id=1, client_id="c", now_ms=0,
                         services=services(image_of=lambda: img))
    resp = metadata.handle(ctx, MetadataRequest(topics=None, include_topic_authorized_operations=ops))
    resp.topics = [metadata._topic_response(ctx, img.topics[n], False, ops and v >= 8) for n in sorted(img.topics)]
    return encode_response(3, v, 1, resp)


@pytest.mark.parametrize("v", range(0, 14))
def test_cached_bytes_are_the_plain_response(v):
    img = image([topic(i) for i in range(4)])
    first, again = full(img, v, ops=True), full(img, v, ops=True)
    assert first == again == plain(img, v, ops=True)


def test_a_changed_topic_and_a_fenced_broker_are_encoded_again():
    ts = [topic(i) for i in range(3)]
    img = image(ts)
    full(img, 12)
    moved = image([ts[0], topic(1, leader=2), ts[2]])
    body = decode_response(full(moved, 12)[4:], 3, 12).body
    assert [p.leader_id for p in body.topics[1].partitions] == [2, 2, 2]
    assert [p.leader_id for p in body.topics[0].partitions] == [1, 1, 1]
    fenced = replace(moved, brokers={1: BrokerImage(1, "h1", 9001), 2: BrokerImage(2, "h2", 9002, fenced=True)})
    body = decode_response(full(fenced, 12)[4:], 3, 12).body
    assert all(p.offline_replicas == [2] for t in body.topics for p in t.partitions)
    gone = image([ts[0]])
    body = decode_response(full(gone, 12)[4:], 3, 12).body
    assert [t.name for t in body.topics] == ["t0"]


def test_a_topic_encoded_for_another_layout_is_refused():
    ctx = RequestContext(api_key=3, api_version=1, correlation_id=1, client_id="c", now_ms=0,
                         services=services(image_of=lambda: image([topic(0)])))
    enc = metadata._topic_response(ctx, topic(0), False, False).encoded(1)
    assert MetadataResponse(topics=[enc]).encode(1)  # the layout it was encoded for
    with pytest.raises(WireError):
        MetadataResponse(topics=[enc]).encode(12)


def named(img, v: int, names) -> bytes:
    ctx = RequestContext(api_key=3, api_version=v, correlation_id=1, client_id="c", now_ms=0,
                         services=services(image_of=lambda: img))
    from odradek.wire.messages.metadata_request import MetadataRequestTopic
    return encode_response(3, v, 1, metadata.handle(ctx, MetadataRequest(
        topics=[MetadataRequestTopic(name=n) for n in names], allow_auto_topic_creation=False)))


@pytest.mark.parametrize("v", range(1, 14))
def test_named_topics_are_sent_from_the_cache_as_the_plain_encoding(v):
    ts = [topic(i) for i in range(3)]
    img = image(ts)
    metadata._ENCODED.clear()
    first = named(img, v, ["t2", "nope", "t0"])
    assert named(img, v, ["t2", "nope", "t0"]) == first
    (per,) = [p for k, p in metadata._ENCODED.items() if k[:2] == (v, False)]
    assert per["t0"][0] is ts[0]  # (served from the cache)
    body = decode_response(first[4:], 3, v).body
    assert [(t.name, t.error_code) for t in body.topics] == [("t2", 0), ("nope", 3), ("t0", 0)]
    moved = image([ts[0], ts[1], topic(2, leader=2)])  # a delta that changes t2: encoded again
    body = decode_response(named(moved, v, ["t2"])[4:], 3, v).body
    assert [p.leader_id for p in body.topics[0].partitions] == [2, 2, 2]
    gone = image([ts[0]])  # a deleted topic's entry goes
    named(gone, v, ["t0"])
    assert set(per) == {"t0"}
