"""`odradek cluster` gives the internal topics Kafka's replication defaults from 3 brokers on
(replication factor 3, min ISR 2), every broker with fewer, and leaves what the user overrides."""

from odradek.cli_cluster import internal_topic_settings

KAFKA = {"offsets.topic.replication.factor": "3", "transaction.state.log.replication.factor": "3",
         "share.coordinator.state.topic.replication.factor": "3",
         "transaction.state.log.min.isr": "2", "share.coordinator.state.topic.min.isr": "2"}


def test_three_brokers_or_more_get_kafkas_defaults():
    assert internal_topic_settings(3) == KAFKA
    assert internal_topic_settings(5) == KAFKA


def test_fewer_brokers_replicate_on_every_broker():
    assert internal_topic_settings(2) == {k: "2" for k in KAFKA}
    assert internal_topic_settings(1) == {k: "1" for k in KAFKA}
    assert internal_topic_settings(0) == {}


def test_the_users_overrides_win():
    got = internal_topic_settings(3, ["offsets.topic.replication.factor=1", "transaction.state.log.min.isr = 1",
                                      "num.partitions=4"])
    assert got == {k: v for k, v in KAFKA.items()
                   if k not in ("offsets.topic.replication.factor", "transaction.state.log.min.isr")}
