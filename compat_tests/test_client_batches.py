"""Record batches written by librdkafka with each codec decode, in odradek's codec, to the records sent.

The batches are fetched raw over the wire (no client decoding in between), so this
also runs against Apache Kafka with --bootstrap.
"""

import pytest

from harness import RawClient, create_topic
from odradek.wire import records as rec
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic

ck = pytest.importorskip("confluent_kafka")

CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def _fetch_raw(bootstrap: str, topic: str) -> bytes:
    client = RawClient(bootstrap)
    try:
        req = FetchRequest(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=50 << 20,
                           isolation_level=0,
                           topics=[FetchTopic(topic=topic, partitions=[
                               FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=50 << 20)])])
        resp = client.call(req, 12)
    finally:
        client.close()
    part = resp.responses[0].partitions[0]
    assert part.error_code == 0
    return bytes(part.records)


@pytest.mark.parametrize("codec", list(CODECS))
def test_librdkafka_batches_decode_to_the_records_sent(bootstrap, topic_name, codec):
    create_topic(bootstrap, topic_name)
    sent = []
    p = ck.Producer({"bootstrap.servers": bootstrap, "compression.type": codec, "linger.ms": 50,
                     "enable.idempotence": True})
    for i in range(300):
        key = None if i % 7 == 0 else f"k{i}".encode()
        value = (f"value-{i}-" * (i % 5 + 1)).encode()
        headers = [("h", f"{i}".encode()), ("empty", b"")] if i % 3 == 0 else None
        p.produce(topic_name, value=value, key=key, headers=headers, timestamp=1_700_000_000_000 + i)
        sent.append((key, value, headers or [], 1_700_000_000_000 + i))
    assert p.flush(20) == 0

    got = []
    codecs_seen = set()
    for header, records in rec.iter_batches(_fetch_raw(bootstrap, topic_name)):
        codecs_seen.add(header.compression)
        assert header.producer_id >= 0  # idempotent
        for r in records:
            got.append((r.key, r.value, [(k, v) for k, v in r.headers], r.timestamp(header)))
    assert got == sent
    assert codecs_seen == {CODECS[codec]}
