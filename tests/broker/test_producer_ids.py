"""Producer ids: never handed out twice, across restarts and, in a cluster, across brokers
(each cluster broker allocates from its own range; a single node from 0, as before)."""
from odradek.broker.producer_ids import BLOCK_SIZE, ProducerIdAllocator, cluster_range


def test_single_node_counts_from_zero_across_restarts(tmp_path):
    path = str(tmp_path / "producer-ids")
    a = ProducerIdAllocator(path)
    assert [a.allocate() for _ in range(3)] == [0, 1, 2]
    b = ProducerIdAllocator(path)  # a restart skips the rest of the block (it may have been used)
    assert b.allocate() == BLOCK_SIZE


def test_cluster_brokers_never_share_an_id(tmp_path):
    ids = {}
    for node in (4, 5, 6):
        a = ProducerIdAllocator(str(tmp_path / f"pids-{node}"), cluster_range(node))
        ids[node] = [a.allocate() for _ in range(BLOCK_SIZE + 5)]
        again = ProducerIdAllocator(str(tmp_path / f"pids-{node}"), cluster_range(node))
        ids[node].append(again.allocate())
    every = [i for v in ids.values() for i in v]
    assert len(set(every)) == len(every)
    assert ids[4][0] == 4 << 32 and ids[5][0] == 5 << 32 and max(every) < 1 << 63


def test_an_older_cluster_brokers_file_starts_its_range(tmp_path):
    path = tmp_path / "producer-ids"
    path.write_text("3000\n")  # written by an odradek that counted from 0 on every broker
    a = ProducerIdAllocator(str(path), cluster_range(5))
    assert a.allocate() == 5 << 32
