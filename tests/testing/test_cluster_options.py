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
