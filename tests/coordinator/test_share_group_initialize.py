"""ShareGroupCoordinator's initialization of share-partition state (as Kafka 4.3's group coordinator:
InitializeShareGroupState before assigning): only initialized partitions are assigned; those the
share coordinators initialize later are assigned at the member's next heartbeat; a failed or stale
initialization is asked again; a group restored from its records is not initialized again."""

from odradek.coordinator import share_state
from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator

T1, T2 = b"\1" * 16, b"\2" * 16
TOPICS = {"t1": (T1, 3), "t2": (T2, 1)}
RETRY = 30_000


class Init:
    """The initialize_state port: records what it is asked; initializes at once only ``now``."""

    def __init__(self, now=()):
        self.asked = []
        self.now = set(now)

    def __call__(self, group_id, state_epoch, parts):
        self.asked.append((group_id, state_epoch, {t: sorted(ps) for t, ps in parts.items()}))
        return {t: {p for p in ps if (t, p) in self.now} for t, ps in parts.items()}


def coord(init):
    s = {"share.session.timeout.ms": 45000, "share.heartbeat.interval.ms": 5000}
    return ShareGroupCoordinator(settings=lambda g: s, offsets=lambda t, p: (0, 7), initialize_state=init,
                                 initialize_retry_ms=RETRY)


def hb(c, member, epoch, subs=None, now=0, topics=TOPICS):
    return c.heartbeat("g", member, epoch, subs, None, "client", "/127.0.0.1", now, topics)


def test_partitions_are_assigned_once_their_state_is_initialized():
    init = Init()
    c = coord(init)
    r = hb(c, "m1", 0, ["t1"])
    # a new group is at epoch 1 (Kafka 4.3): the first member joins at 2
    assert (r.member_epoch, r.assignment) == (2, {})  # nothing initialized yet: nothing assigned
    assert init.asked == [("g", 2, {T1: [0, 1, 2]})]  # state epoch = the group epoch, every partition
    r = hb(c, "m1", 2, now=1000)
    assert (r.member_epoch, r.assignment) == (2, None) and len(init.asked) == 1  # under way: not asked again
    c.initialize_done("g", {T1: {0, 2}}, True)
    r = hb(c, "m1", 2, now=2000)
    assert (r.member_epoch, r.assignment) == (3, {T1: [0, 2]})  # assigned at the next heartbeat
    c.initialize_done("g", {T1: {1}}, True)
    r = hb(c, "m1", 3, now=3000)
    assert (r.member_epoch, r.assignment) == (4, {T1: [0, 1, 2]})
    g = c.groups["g"]
    assert g.initialized == {T1: {0, 1, 2}} and g.initializing == {} and len(init.asked) == 1
    assert hb(c, "m1", 4, now=4000).member_epoch == 4  # nothing pending: the epoch stays


def test_initialized_at_once_is_assigned_by_the_same_heartbeat():
    init = Init(now={(T1, 0), (T1, 1), (T1, 2)})
    c = coord(init)
    r = hb(c, "m1", 0, ["t1"])
    assert (r.member_epoch, r.assignment) == (2, {T1: [0, 1, 2]})
    assert hb(c, "m2", 0, ["t1"], now=10).member_epoch == 3
    assert len(init.asked) == 1  # a new member of an initialized topic asks nothing


def test_a_failed_initialization_is_asked_again_and_a_stale_one_after_the_retry_interval():
    init = Init()
    c = coord(init)
    hb(c, "m1", 0, ["t1"], now=0)
    c.initialize_done("g", {T1: {0, 1, 2}}, False)  # the share coordinators refused
    assert c.groups["g"].initializing == {} and c.groups["g"].initialized == {}
    hb(c, "m1", 2, now=1000)
    assert init.asked[1:] == [("g", 2, {T1: [0, 1, 2]})]
    hb(c, "m1", 2, now=1000 + RETRY - 1)  # no answer yet, still fresh
    assert len(init.asked) == 2
    hb(c, "m1", 2, now=1000 + RETRY)  # no answer within the retry interval: asked again
    assert init.asked[2:] == [("g", 2, {T1: [0, 1, 2]})]


def test_only_partitions_new_to_the_group_are_initialized():
    init = Init(now={(T1, 0), (T1, 1), (T1, 2), (T1, 3), (T2, 0)})
    c = coord(init)
    hb(c, "m1", 0, ["t1"])
    r = hb(c, "m1", 2, now=10, topics={**TOPICS, "t1": (T1, 4)})  # a partition added
    assert init.asked[1:] == [("g", 3, {T1: [3]})] and r.assignment == {T1: [0, 1, 2, 3]}
    r = hb(c, "m1", 3, ["t1", "t2"], now=1010, topics={**TOPICS, "t1": (T1, 4)})  # after the assignment interval
    assert init.asked[2:] == [("g", 4, {T2: [0]})] and r.assignment == {T1: [0, 1, 2, 3], T2: [0]}


def test_a_restored_group_does_not_initialize_its_partitions_again():
    init = Init()
    c = coord(init)
    hb(c, "m1", 0, ["t1", "t2"])
    c.initialize_done("g", {T1: {0, 1, 2}}, True)  # t2's still under way when the coordinator moves
    (gid, epoch, h, initialized, initializing), = c.changes()[0]
    key, value = share_state.initialized_key(gid), share_state.initialized_value(initialized, initializing)

    init2 = Init(now={(T2, 0)})
    c2 = coord(init2)  # the next group coordinator, replaying the group's records
    c2.restore_group(gid, epoch, h)
    c2.restore_initialized(*share_state.decode_initialized(key, value))
    assert c2.groups["g"].initialized == {T1: {0, 1, 2}}
    r = hb(c2, "m2", 0, ["t1", "t2"], now=5)
    assert init2.asked == [("g", epoch + 1, {T2: [0]})]  # t1 is initialized already; t2 asked again
    assert r.assignment == {T1: [0, 1, 2], T2: [0]}
