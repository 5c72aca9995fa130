"""DescribeQuorum names each observer with the directory id its Fetch carries (ReplicaDirectoryId, Fetch
v17: a Kafka broker sends its metadata log directory's), as Kafka's leader keys observers; static voters
(kraft.version 0) have none, so theirs stays the zero uuid."""
from odradek.api_handlers.describe_quorum import from_node
from odradek.raft import rpc

from scenario import Scenario

DIR = b"\x5a" * 16


def test_an_observers_directory_id_comes_from_its_fetch():
    sc = Scenario()
    sc.run("voters 1 observers 3")
    sc.run("tick-all 30")
    sc.run("stabilize")
    leader = sc.nodes[1]
    while not any(e.dst == 1 and isinstance(e.msg, rpc.FetchRequest) for e in sc.queue):
        sc.run("tick 3")  # the observer's next fetch
    for e in sc.queue:
        if e.dst == 1 and isinstance(e.msg, rpc.FetchRequest):
            rpc.part(e.msg).replica_directory_id = DIR
    sc.run("stabilize")
    part = from_node(leader, 0, 1, {1: ("CONTROLLER", "h", 1)}).topics[0].partitions[0]
    assert [(o.replica_id, o.replica_directory_id) for o in part.observers] == [(3, DIR)]
    assert all(v.replica_directory_id == bytes(16) for v in part.current_voters)
