"""odradek.testing.Cluster refuses what a cluster cannot do, before any process starts."""

import pytest

from odradek.testing import Cluster


def test_a_cluster_has_no_virtual_clock():
    with pytest.raises(ValueError, match="virtual_clock is for a single broker"):
        Cluster(brokers=1, virtual_clock=True)


def test_a_partition_has_two_sides():
    c = Cluster(brokers=2)
    with pytest.raises(ValueError, match="two sides"):
        c.partition([1], [1])


def test_a_kraft_node_with_the_virtual_clock_does_not_start(tmp_path):
    import subprocess

    from odradek.cli_cluster import cluster_layout, serve_command
    from odradek.testing.broker import serve_env
    from odradek.testing.ports import free_port

    controller = cluster_layout(1, 1, free_port(), str(tmp_path))[0]  # (refused before it binds)
    r = subprocess.run(serve_command({**controller, "odradek.testing.virtual.clock": "true"}), capture_output=True,
                       text=True, timeout=60, env=serve_env())
    assert r.returncode == 1
    assert "odradek.testing.virtual.clock=true is for a single-node broker" in r.stderr
    assert not any(tmp_path.iterdir())  # nothing was written
