"""A topic's config holds after a broker restart: the logs open before the metadata log is
replayed, and were left with the broker defaults (a compacted topic with retention.ms=-1
came back as cleanup.policy=delete and 7 days of retention: its data deleted by time)."""
from inproc_broker import call, start_broker

from odradek.wire.messages.create_topics_request import CreatableTopic, CreatableTopicConfig, CreateTopicsRequest


def test_compacted_forever_topic_keeps_its_config_after_restart(tmp_path):
    b = start_broker(tmp_path)
    r = call(b, "create_topics", CreateTopicsRequest(topics=[CreatableTopic(
        name="t", num_partitions=2, replication_factor=1,
        configs=[CreatableTopicConfig(name="retention.ms", value="-1"),
                 CreatableTopicConfig(name="cleanup.policy", value="compact")])], timeout_ms=1000), 7)
    assert r.topics[0].error_code == 0
    before = [(lg.config.retention_ms, lg.config.cleanup_policy) for lg in (b.log_manager.get("t", p) for p in (0, 1))]
    assert before == [(-1, ("compact",))] * 2
    b.close()
    b2 = start_broker(tmp_path)
    try:
        after = [(lg.config.retention_ms, lg.config.cleanup_policy)
                 for lg in (b2.log_manager.get("t", p) for p in (0, 1))]
        assert after == before
    finally:
        b2.close()
