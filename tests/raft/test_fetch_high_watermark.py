"""A replica's metadata-log Fetch carries the high watermark it knows (Fetch v18, KIP-1166), as Kafka
4.3's KafkaRaftClient sends it, and the leader answers at once a fetch whose replica is behind its high
watermark (KafkaRaftClient.isHighWatermarkUpdated). The fetch goes over the wire at the version the
broker's raft driver sends (RAFT_VERSIONS): at v17 the field, tagged from v18, was left off, the leader
read its default (Long.MAX_VALUE, "not supported") and parked the fetch up to its max wait (500 ms).
The replica whose fetch came after the high watermark moved (it had the records already) then learnt
the commit up to 500 ms after the others: a broker named another as a new partition's leader while
that one did not lead it yet, and a client it sent there got NOT_COORDINATOR (issue 21, CI red)."""
import dataclasses

from odradek.broker.raft_driver import RAFT_VERSIONS
from odradek.raft import rpc
from odradek.wire.api import decode_request, encode_request

from scenario import Scenario


def _over_the_wire(msg):
    """``msg`` as the peer decodes it, sent at the raft driver's version of its API."""
    frame = encode_request(msg, RAFT_VERSIONS[type(msg)], 7, "test")
    return decode_request(frame[4:])[1]


def _fetches_to(sc: Scenario, dst: int, src: int) -> list:
    return [e for e in sc.queue if e.dst == dst and e.src == src and isinstance(e.msg, rpc.FetchRequest)]


def _step(sc: Scenario, env) -> None:
    sc.queue.remove(env)
    sc.nodes[env.dst].step(dataclasses.replace(env, msg=_over_the_wire(env.msg)))
    sc._process(env.dst)


def test_a_fetch_behind_the_high_watermark_is_answered_at_once():
    sc = Scenario()
    sc.run("voters 1 2 observers 3")
    sc.run("campaign 1")
    sc.run("stabilize")
    while sc.nodes[3].leader_id != 1:  # the observer finds the leader
        sc.run("tick 3")
        sc.run("stabilize")
    sc.run("stabilize")  # every fetch parked at leader 1
    leader, observer = sc.nodes[1], sc.nodes[3]
    assert leader.is_leader and observer.leader_id == 1
    sc.run("propose 1 topic-record")
    sc.run("deliver 2 3")  # both replicas get the record (not committed yet) and fetch on
    assert observer.log.end_offset == leader.log.end_offset and observer.hw < leader.log.end_offset
    _step(sc, _fetches_to(sc, 1, 2)[0])  # the voter's fetch commits it
    assert leader.hw == leader.log.end_offset
    [observers_fetch] = _fetches_to(sc, 1, 3)
    assert rpc.part(_over_the_wire(observers_fetch.msg)).high_watermark == observer.hw
    _step(sc, observers_fetch)
    answers = [e for e in sc.queue if e.dst == 3 and isinstance(e.msg, rpc.FetchResponse)]
    assert [rpc.part(e.msg).high_watermark for e in answers] == [leader.hw]  # at once, not parked
    sc.run("deliver 3")
    assert observer.hw == leader.hw
