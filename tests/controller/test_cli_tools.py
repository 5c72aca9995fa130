import argparse
import os

from odradek import cli_tools
from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.controller.metadata_log import DIR_NAME, SEGMENT_NAME


def test_dump_log_decodes_metadata_records(tmp_path, capsys):
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "h", 1), 0)
    c.create_topics([CreateTopicSpec("dumped", 2)], False, 0)
    c.close()
    path = os.path.join(tmp_path, DIR_NAME, SEGMENT_NAME)
    rc = cli_tools.dump_log(argparse.Namespace(path=path, print_records=True))
    out = capsys.readouterr().out
    assert rc == 0
    assert '"type":"TopicRecord"' in out and "'name': 'dumped'" in out
    assert out.count('"type":"PartitionRecord"') == 2
    # the leader's LeaderChange control record comes first, as in Kafka's KRaft log
    assert "baseOffset: 0 lastOffset: 0 count: 1" in out and "isControl: true position: 0" in out
    # bootstrap: 6 FeatureLevelRecords (eligible.leader.replicas.version too, issue 20),
    # min.insync.replicas, RegisterBroker, UnfenceBroker
    assert "baseOffset: 1 lastOffset: 9 count: 9" in out


def test_print_table_aligns(capsys):
    cli_tools.print_table([[0, 1, "1,2"], [10, 2, None]], ["PARTITION", "LEADER", "REPLICAS"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "PARTITION  LEADER  REPLICAS"
    assert lines[2].startswith("10         2")
