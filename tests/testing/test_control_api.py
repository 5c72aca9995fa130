"""odradek/testing/control_api.py: the /control routes as (method, path, body) -> (status, JSON)."""

import json

from odradek.testing.clock import SystemClock, VirtualClock
from odradek.testing.control_api import handle
from odradek.testing.faults import FaultTable


def call(method, path, body=None, faults=None, clock=None):
    return handle(method, path, b"" if body is None else json.dumps(body).encode(),
                  faults if faults is not None else FaultTable(), clock or VirtualClock(1000))


def test_faults_add_list_remove_clear():
    faults = FaultTable()
    status, answer = call("POST", "/control/faults", {"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER",
                                                     "times": 2}, faults)
    assert status == 201 and answer == {"id": 1}
    call("POST", "/control/faults", {"api": "Fetch", "delay_ms": 10}, faults)
    listed = call("GET", "/control/faults", faults=faults)[1]["faults"]
    assert [(f["api"], f["error"], f["times"]) for f in listed] == [("Produce", "NOT_LEADER_OR_FOLLOWER", 2),
                                                                    ("Fetch", None, None)]
    assert call("DELETE", "/control/faults/1", faults=faults) == (200, {"removed": True})
    assert call("DELETE", "/control/faults/1", faults=faults) == (404, {"removed": False})
    assert call("DELETE", "/control/faults", faults=faults) == (200, {"removed": 1})


def test_bad_fault_is_400_with_the_reason():
    status, answer = call("POST", "/control/faults", {"api": "Produce", "error": "NOPE"})
    assert status == 400 and "unknown error 'NOPE'" in answer["error"]
    status, answer = handle("POST", "/control/faults", b"{not json", FaultTable(), SystemClock())
    assert status == 400 and "not JSON" in answer["error"]


def test_clock_advance_only_on_a_virtual_clock():
    clock = VirtualClock(5000)
    assert call("POST", "/control/clock/advance", {"ms": 250}, clock=clock) == (200, {"now_ms": 5250})
    assert call("GET", "/control/clock", clock=clock) == (200, {"now_ms": 5250, "virtual": True})
    assert call("POST", "/control/clock/advance", {"ms": -1}, clock=clock)[0] == 400
    status, answer = call("POST", "/control/clock/advance", {"ms": 1}, clock=SystemClock())
    assert status == 409 and "odradek.testing.virtual.clock=true" in answer["error"]


def test_unknown_paths_and_methods():
    assert call("GET", "/control/nothing")[0] == 404
    assert call("PUT", "/control/faults")[0] == 405
