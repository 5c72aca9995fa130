"""The follower's side of a KIP-227 incremental fetch session (Kafka's FetchSessionHandler)."""
from odradek.broker.fetch_session_handler import FetchSessionHandler
from odradek.wire.errors import ErrorCode

A, B, C = ("t", 0), ("t", 1), ("u", 0)


def test_full_then_incremental_with_changes_and_forgotten_partitions():
    h = FetchSessionHandler()
    assert h.build({A: (0,), B: (0,)}, True) == (0, 0, [A, B], [])  # full, asks for a session
    h.on_response(ErrorCode.NONE, 77)
    assert h.build({A: (5,), B: (0,)}, True) == (77, 1, [A], [])  # only what changed
    h.on_response(ErrorCode.NONE, 77)
    assert h.build({B: (0,), C: (0,)}, True) == (77, 2, [C], [A])  # C joins, A is forgotten
    h.on_response(ErrorCode.NONE, 77)
    assert h.build({B: (0,), C: (0,)}, True) == (77, 3, [], [])  # nothing changed: an empty incremental fetch


def test_no_session_from_the_leader_keeps_full_fetches():
    h = FetchSessionHandler()
    h.build({A: (0,)}, True)
    h.on_response(ErrorCode.NONE, 0)
    assert h.build({A: (3,)}, True) == (0, 0, [A], [])


def test_errors_start_over_with_a_full_fetch():
    h = FetchSessionHandler()
    h.build({A: (0,)}, True)
    h.on_response(ErrorCode.NONE, 9)
    h.build({A: (1,)}, True)
    h.on_response(ErrorCode.INVALID_FETCH_SESSION_EPOCH, 0)
    assert h.build({A: (1,)}, True) == (9, 0, [A], [])  # closes session 9, opens a new one
    h.on_response(ErrorCode.FETCH_SESSION_ID_NOT_FOUND, 0)
    assert h.build({A: (1,)}, True) == (0, 0, [A], [])  # the leader has none: just a new one
    h.on_response(ErrorCode.NONE, 10)
    h.fail()  # a lost connection
    assert h.build({A: (2,)}, True)[:2] == (10, 0)
    h.on_response(ErrorCode.NONE, 11)
    assert h.build({A: (2,)}, False) == (11, 0, [A], [])  # topic names instead of ids: a new session
