"""`odradek groups`: option parsing, lag rows, reset plans and tables, without a broker.

(Named *_format so its basename differs from compat_tests/test_cli_groups.py: the test folders
have no __init__.py, and pytest refuses two test modules with one basename.)
"""

from __future__ import annotations

import io
from datetime import datetime, timezone

import pytest

from odradek.cli import make_parser
from odradek.cli_groups import (OFFSET_HEADER, GroupInfo, Member, decode_assignment, format_assignment,
                                inactive_reason, member_rows, offset_rows, parse_datetime_ms, parse_topic_spec,
                                plan_reset, reset_rows)
from odradek.cli_tools import print_table


def parse(*argv):
    return make_parser().parse_args(list(argv))


# ---------------------------------------------------------------------------- argument parsing


def test_groups_commands_registered():
    a = parse("groups", "list", "--bootstrap-server", "h:1")
    assert a.bootstrap_server == "h:1" and a.state is None
    assert parse("groups", "list", "--state").state == ""
    assert parse("groups", "list", "--state", "Stable,Empty").state == "Stable,Empty"


def test_describe_views_and_group_forms():
    a = parse("groups", "describe", "g1", "--group", "g2", "-g", "g3")
    assert a.groups == ["g1"] and a.group_opts == ["g2", "g3"]
    assert not (a.members or a.state or a.offsets)
    assert parse("groups", "describe", "g", "--members", "--verbose").members
    assert parse("groups", "describe", "--all-groups", "--state").all_groups
    with pytest.raises(SystemExit):
        parse("groups", "describe", "g", "--members", "--state")


def test_reset_offsets_requires_scope_and_target():
    a = parse("groups", "reset-offsets", "--group", "g", "--topic", "t:0,1", "--topic", "u", "--to-offset", "5")
    assert a.group_opt == "g" and a.topic == ["t:0,1", "u"] and a.to_offset == 5
    assert not a.execute and not a.dry_run
    a = parse("groups", "reset-offsets", "g", "--all-topics", "--to-earliest", "--execute")
    assert a.group == "g" and a.all_topics and a.to_earliest and a.execute
    for bad in (["g", "--to-earliest"],                                      # no scope
                ["g", "--all-topics"],                                       # no target
                ["g", "--all-topics", "--topic", "t", "--to-latest"],        # two scopes
                ["g", "--all-topics", "--to-latest", "--to-earliest"],       # two targets
                ["g", "--all-topics", "--to-latest", "--dry-run", "--execute"]):
        with pytest.raises(SystemExit):
            parse("groups", "reset-offsets", *bad)


def test_parse_topic_spec():
    assert parse_topic_spec("events") == ("events", None)
    assert parse_topic_spec("events:2,0,2") == ("events", [0, 2])
    for bad in (":1", "t:x", "t:", "t:-1"):
        with pytest.raises(ValueError):
            parse_topic_spec(bad)


def test_parse_datetime_like_kafka():
    utc = lambda *a: int(datetime(*a, tzinfo=timezone.utc).timestamp() * 1000)  # noqa: E731
    assert parse_datetime_ms("2024-03-01T12:30:15.250") == utc(2024, 3, 1, 12, 30, 15) + 250  # no zone: UTC
    assert parse_datetime_ms("2024-03-01T12:30:15") == utc(2024, 3, 1, 12, 30, 15)
    assert parse_datetime_ms("2024-03-01T12:30:15.000Z") == utc(2024, 3, 1, 12, 30, 15)
    assert parse_datetime_ms("2024-03-01T14:30:15.000+02:00") == utc(2024, 3, 1, 12, 30, 15)
    for bad in ("2024-03-01", "yesterday", "2024-13-01T00:00:00"):
        with pytest.raises(ValueError):
            parse_datetime_ms(bad)


# ---------------------------------------------------------------------------- describe rows


def _assignment_bytes(assign: dict[str, list[int]], version: int = 0) -> bytes:
    from odradek.wire.messages.consumer_protocol_assignment import ConsumerProtocolAssignment, TopicPartition

    body = ConsumerProtocolAssignment(assigned_partitions=[TopicPartition(topic=t, partitions=ps)
                                                           for t, ps in assign.items()]).encode(version)
    return version.to_bytes(2, "big") + body


def test_decode_assignment_consumer_protocol():
    assert decode_assignment(_assignment_bytes({"b": [2, 0], "a": [1]})) == {"a": [1], "b": [0, 2]}
    assert decode_assignment(_assignment_bytes({"a": [1]}, version=3)) == {"a": [1]}
    assert decode_assignment(b"") == {}
    assert decode_assignment(b"\x00\x00\xff") == {}  # not a consumer assignment: no partitions, no crash


def _group():
    m1 = Member("m-1", "c1", "/10.0.0.1", None, {"t": [0, 1]})
    m2 = Member("m-2", "c2", "/10.0.0.2", "static-2", {"t": [2]})
    return GroupInfo("g", "Stable", "consumer", "range", [m2, m1])


def test_offset_rows_lag_and_unassigned():
    committed = {("t", 0): 7, ("t", 2): 10, ("old", 0): 3}
    log_end = {("t", 0): 10, ("t", 1): 4, ("t", 2): 10, ("old", 0): None}
    rows = offset_rows(_group(), committed, log_end)
    assert rows == [
        ["g", "t", "0", "7", "10", "3", "m-1", "/10.0.0.1", "c1"],
        ["g", "t", "1", "-", "4", "-", "m-1", "/10.0.0.1", "c1"],     # assigned, never committed
        ["g", "t", "2", "10", "10", "0", "m-2", "/10.0.0.2", "c2"],
        ["g", "old", "0", "3", "-", "-", "-", "-", "-"],               # committed, no member, no log end
    ]


def test_offset_rows_empty_group():
    g = GroupInfo("g", "Empty", "consumer", "", [])
    rows = offset_rows(g, {("t", 1): 5, ("t", 0): 2}, {("t", 0): 2, ("t", 1): 9})
    assert [r[1:6] for r in rows] == [["t", "0", "2", "2", "0"], ["t", "1", "5", "9", "4"]]
    assert all(r[6:] == ["-", "-", "-"] for r in rows)


def test_member_rows():
    header, rows = member_rows(_group(), verbose=False)
    assert header == ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"]
    assert rows == [["g", "m-1", "/10.0.0.1", "c1", "2"], ["g", "m-2", "/10.0.0.2", "c2", "1"]]
    header, rows = member_rows(_group(), verbose=True)
    assert header[-2:] == ["GROUP-INSTANCE-ID", "ASSIGNMENT"]
    assert rows[0][-2:] == ["-", "t:0,1"] and rows[1][-2:] == ["static-2", "t:2"]
    assert format_assignment({"b": [1], "a": [0, 2], "c": []}) == "a:0,2;b:1"
    assert format_assignment({}) == "-"


def test_table_columns_line_up():
    out = io.StringIO()
    rows = offset_rows(_group(), {("t", 0): 7}, {("t", 0): 10, ("t", 1): 4, ("t", 2): 10})
    print_table(rows, OFFSET_HEADER, out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == OFFSET_HEADER
    lag_col = lines[0].index("LAG")
    assert lines[1][lag_col:].split()[0] == "3" and lines[2][lag_col:].split()[0] == "-"


# ---------------------------------------------------------------------------- reset-offsets


def test_inactive_reason_matches_kafka():
    assert inactive_reason("g", "Empty") is None
    assert inactive_reason("g", "Dead") is None
    assert inactive_reason("g", "Stable") == \
        "Assignments can only be reset if the group 'g' is inactive, but the current state is Stable."


TPS = [("t", 0), ("t", 1)]
EARLIEST = {("t", 0): 2, ("t", 1): 0}
LATEST = {("t", 0): 10, ("t", 1): 5}


def test_plan_earliest_latest():
    assert plan_reset(TPS, how="earliest", value=None, earliest=EARLIEST, latest=LATEST) == EARLIEST
    assert plan_reset(TPS, how="latest", value=None, earliest=EARLIEST, latest=LATEST) == LATEST


def test_plan_to_offset_clamps_with_warning():
    warnings = []
    plan = plan_reset(TPS, how="offset", value=1, earliest=EARLIEST, latest=LATEST, warn=warnings.append)
    assert plan == {("t", 0): 2, ("t", 1): 1}
    assert warnings == ["New offset (1) is lower than earliest offset for topic partition t-0. Value will be set to 2"]
    plan = plan_reset(TPS, how="offset", value=7, earliest=EARLIEST, latest=LATEST, warn=warnings.append)
    assert plan == {("t", 0): 7, ("t", 1): 5}


def test_plan_datetime_past_the_end_goes_to_log_end():
    plan = plan_reset(TPS, how="datetime", value=123, earliest=EARLIEST, latest=LATEST,
                      by_time={("t", 0): 4, ("t", 1): -1})
    assert plan == {("t", 0): 4, ("t", 1): 5}


def test_plan_shift_by():
    plan = plan_reset(TPS, how="shift", value=-3, earliest=EARLIEST, latest=LATEST, committed={("t", 0): 4})
    assert plan == {("t", 0): 2, ("t", 1): 2}  # 4-3 clamped to 2; no commit: from the log end 5


def test_reset_rows_sorted():
    assert reset_rows("g", {("t", 1): 5, ("a", 0): 0, ("t", 0): 3}) == [
        ["g", "a", "0", "0"], ["g", "t", "0", "3"], ["g", "t", "1", "5"]]
