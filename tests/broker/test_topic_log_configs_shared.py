"""Topics given the same configs share one LogConfig, made once (issue 27: an AlterConfigs of
1,000 topics parsed each topic's ~35 effective properties on the event loop)."""
from __future__ import annotations

from odradek.controller.decisions import CreateTopicSpec

from inproc_broker import start_broker


def _configs(b, topic: str) -> list:
    return [lg.config for lg in b.log_manager.topic_logs(topic).values()]


def test_one_config_object_for_topics_configured_alike(tmp_path):
    b = start_broker(tmp_path)
    try:
        names = ["a", "b", "c"]
        b.controller.create_topics([CreateTopicSpec(n, 3, 1) for n in names], False, 0)
        r = b.controller.decisions().alter_configs(
            [(2, "a", [("retention.ms", "86400000")]), (2, "b", [("retention.ms", "86400000")]),
             (2, "c", [("retention.ms", "3600000")])])
        b.controller.commit(r.records, 0)
        a, bb, c = (_configs(b, n) for n in names)
        assert len({id(x) for x in a + bb}) == 1 and a[0].retention_ms == 86400000
        assert len({id(x) for x in c}) == 1 and c[0].retention_ms == 3600000
        assert a[0] is not c[0] and a[0].segment_bytes == c[0].segment_bytes
    finally:
        b.close()

