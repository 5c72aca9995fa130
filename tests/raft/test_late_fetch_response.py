"""A follower's fetch answered after the follower resent it (a leader that answers one request at a
time per connection, as Kafka's controllers do, with each fetch parked up to max_wait_ms): the late
answer still shows the leader alive and its records are appended, so an observer of a loaded Kafka
quorum neither loses its leader every fetch timeout nor stops following the log."""
from odradek.raft import rpc
from odradek.raft.quorum_state import Follower

from scenario import CONFIG, Scenario


def test_a_late_fetch_answer_counts():
    sc = Scenario()
    sc.run("voters 1 observers 3")
    sc.run("tick-all 30")
    sc.run("stabilize")
    leader, observer = sc.nodes[1], sc.nodes[3]
    assert leader.is_leader and isinstance(observer.state, Follower) and observer.leader_id == 1
    sc.run("propose 1 a b")
    sc.run("stabilize")
    end = observer.log.end_offset
    sc.run("propose 1 c")
    sc.run("deliver 1")  # the leader hears the fetch parked before the proposal: it answers with c
    late = [e for e in sc.queue if e.dst == 3 and isinstance(e.msg, rpc.FetchResponse)]
    assert late, sc.queue
    sc.queue = [e for e in sc.queue if e not in late]
    for _ in range(CONFIG.request_timeout + CONFIG.fetch_max_wait + 1):  # the observer resends meanwhile
        sc.run("tick 3")
    assert observer.state.fetch_corr not in {e.correlation_id for e in late}
    for _ in range(CONFIG.fetch_timeout - CONFIG.request_timeout - CONFIG.fetch_max_wait - 2):
        sc.run("tick 3")
    sc.queue.extend(late)
    sc.run("deliver 3")
    assert observer.log.end_offset == end + 1 and observer.hw <= observer.log.end_offset
    for _ in range(CONFIG.request_timeout):  # the late answer moved the fetch deadline on
        sc.run("tick 3")
    assert isinstance(observer.state, Follower) and observer.leader_id == 1
