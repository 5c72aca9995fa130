"""The seeded cluster simulation (raft_sim.py) with each node writing as broker/raft_driver.py does on
its raft IO thread (Sim's async_disk). A failure names its seed; replay it with
`pytest tests/raft/test_simulation_io_thread.py --sim-seed=N`.

100 seeds by default (tests/raft/conftest.py): a driver that sent a Ready's messages before its write
returned fails seeds 63, 73, 84 and 85 (two leaders in an epoch, a committed record lost); 1,000 seeds pass
(ODRADEK_SIM_SEEDS=1000)."""

from raft_sim import run_seed


def test_simulation_with_writes_on_the_raft_io_thread(sim_seed):
    """Each node writes as broker/raft_driver.py with its raft IO thread (Sim's async_disk): a Ready's
    write ends 0-8 steps later; until then nothing of it is sent or applied, proposals still append to
    the core's log, and the messages and ticks that come wait for it. A crash meanwhile leaves none, a
    prefix or all of the write on the disk. The invariants hold: no committed record lost, one leader
    an epoch, the state machines agree."""
    run_seed(sim_seed, async_disk=True)


def test_simulation_on_files_with_writes_on_the_raft_io_thread():
    """The same on the real FileStorage with crashes mid-write and failing disks: a write under way
    when the node crashes reaches the disk torn (a prefix of its batches, then a power loss), whole or
    not at all; a failed write is tried again at a later tick, the inputs that came meanwhile stepped."""
    crashed = while_writing = failed = 0
    for seed in range(40):
        sim = run_seed(seed, files=True, disk_faults=seed % 2 == 1, async_disk=True)
        crashed += sum(n.incarnation - 1 for n in sim.nodes.values())
        while_writing += sim.crashes_while_writing
        failed += sum(n.disk.fs.failed_writes + n.disk.fs.failed_fsyncs for n in sim.nodes.values())
    assert crashed > 40 and while_writing > 10 and failed > 50
