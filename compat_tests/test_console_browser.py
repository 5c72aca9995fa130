"""The web console in a real browser (headless Chromium through Selenium) against a real broker:
the cluster with its metadata quorum and feature levels, create a topic, browse to a produced
message and read its key, value (text, JSON, hex) and headers, change a topic (config, partitions,
delete), watch a group's lag go from N to 0, reset its offsets with a confirmation, an open
transaction and its producer, share and streams groups, quotas, ACLs, throughput. Each page is
saved as a screenshot under the test's temp dir."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer

from browser import MISSING, browser, click_and_load, have_browser, texts  # noqa: F401 - browser: the fixture
from harness import BrokerProcess, create_topic, free_port

webdriver = pytest.importorskip("selenium.webdriver", reason="the console's browser checks need selenium (pip)")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

pytestmark = pytest.mark.skipif(not have_browser(), reason=MISSING)
TOPIC = "browsed"
LAGGED = "lagged"  # one partition: the group's lag is exact
RECORDS = 40


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    http_port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("console")),
                      {"odradek.http.port": str(http_port), "group.initial.rebalance.delay.ms": "0"})
    b.start()
    try:
        yield b, f"http://127.0.0.1:{http_port}/console"
    finally:
        b.stop()


def test_overview(served, browser):
    broker, console = served
    browser.get(console + "/")
    assert browser.title == "Cluster - odradek console"
    assert texts(browser, "#brokers td")[:2] == ["1", broker.bootstrap]
    # the metadata quorum of a single node: itself, the only voter, caught up
    assert texts(browser, "#quorum-leader") == ["1"]
    assert [r.split()[:2] for r in texts(browser, "#quorum tr")[1:]] == [["1", "voter"]]
    features = dict(r.split() for r in texts(browser, "#features tr")[1:])
    assert int(features["metadata.version"]) > 0 and features["transaction.version"] == "2"
    browser.shot("overview")


def test_create_topic_in_the_page(served, browser):
    _, console = served
    browser.get(console + "/topics")
    browser.find_element(By.ID, "topic-name").send_keys(TOPIC)
    partitions = browser.find_element(By.ID, "topic-partitions")
    partitions.clear()
    partitions.send_keys("2")
    click_and_load(browser, By.ID, "create")
    assert browser.find_element(By.ID, "notice").text == f"Created topic {TOPIC}."
    row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#topics tr") if r.text.startswith(TOPIC))
    assert row.find_elements(By.TAG_NAME, "td")[1].text == "2"
    browser.shot("topics")
    browser.find_element(By.ID, "topic-name").send_keys(TOPIC)
    click_and_load(browser, By.ID, "create")
    assert "TOPIC_ALREADY_EXISTS" in browser.find_element(By.ID, "error").text


def test_browse_to_a_message(served, browser):
    broker, console = served
    p = Producer({"bootstrap.servers": broker.bootstrap})
    value = json.dumps({"b": [2, 3], "a": 1}).encode()
    p.produce(TOPIC, key=b"k-json", value=value, partition=1, headers=[("trace", b"t-1"), ("empty", None)])
    p.produce(TOPIC, key=b"k-text", value=b"plain words", partition=1)
    assert p.flush(30) == 0
    browser.get(f"{console}/topics/{TOPIC}")
    Select(browser.find_element(By.ID, "partition")).select_by_value("1")
    Select(browser.find_element(By.ID, "format")).select_by_visible_text("json")
    click_and_load(browser, By.ID, "show")
    assert texts(browser, "#messages .offset") == ["0", "1"]
    assert texts(browser, "#messages .key") == ["k-json", "k-text"]
    assert texts(browser, "#messages .value")[0] == '{\n  "a": 1,\n  "b": [\n    2,\n    3\n  ]\n}'
    assert texts(browser, "#messages .value")[1] == "plain words"  # not JSON: shown as text
    assert texts(browser, "#messages .headers")[0] == "trace: t-1\nempty: null"
    browser.shot("messages-json")
    Select(browser.find_element(By.ID, "format")).select_by_visible_text("hex")
    browser.find_element(By.ID, "search").send_keys("plain")
    click_and_load(browser, By.ID, "show")
    assert texts(browser, "#messages .key") == [b"k-text".hex(" ")]
    assert texts(browser, "#shown") == ["1 record(s)"]
    assert texts(browser, ".isr") == ["1", "1"]


def consume(broker, group: str, n: int) -> None:
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                  "enable.auto.commit": False})
    c.subscribe([LAGGED])
    got = 0
    deadline = time.monotonic() + 60
    while got < n and time.monotonic() < deadline:
        for m in c.consume(n - got, 1):
            if m.error() is None:
                got += 1
    assert got == n
    c.commit(asynchronous=False)
    c.close()


def lag_of(browser, url: str) -> int:
    browser.get(url)
    return int(browser.find_element(By.ID, "lag").text)


def test_group_lag_and_reset(served, browser):
    broker, console = served
    create_topic(broker.bootstrap, LAGGED)
    p = Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(RECORDS):
        p.produce(LAGGED, value=b"%d" % i)
    assert p.flush(30) == 0
    consume(broker, "watched", 12)
    page = f"{console}/groups/watched"
    assert lag_of(browser, page) == RECORDS - 12
    assert browser.find_element(By.ID, "state").text == "Empty"
    browser.shot("group-lagging")
    consume(broker, "watched", RECORDS - 12)
    assert lag_of(browser, page) == 0
    assert browser.find_elements(By.CSS_SELECTOR, "svg.chart polyline")  # the chart over the views
    browser.shot("group-caught-up")

    click_and_load(browser, By.ID, "reset-button")  # not confirmed: nothing moves
    assert "tick the confirmation" in browser.find_element(By.ID, "error").text
    assert int(browser.find_element(By.ID, "lag").text) == 0
    Select(browser.find_element(By.ID, "reset-to")).select_by_visible_text("earliest")
    browser.find_element(By.ID, "reset-confirm").click()
    click_and_load(browser, By.ID, "reset-button")
    assert browser.find_element(By.ID, "notice").text == f"Reset {LAGGED}-0 to 0."
    assert int(browser.find_element(By.ID, "lag").text) == RECORDS
    browser.shot("group-reset")
    browser.get(f"{console}/groups")
    assert "watched" in texts(browser, "#groups a")


def test_reset_refused_while_the_group_is_active(served, browser):
    broker, console = served
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "active", "auto.offset.reset": "earliest"})
    c.subscribe([LAGGED])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            c.poll(0.5)
            browser.get(f"{console}/groups/active")
            if browser.find_element(By.ID, "state").text == "Stable":
                break
        assert browser.find_element(By.ID, "reset-refused").text.endswith("it is Stable.")
    finally:
        c.close()


def test_standalone_console_process(served, browser, tmp_path):
    import subprocess
    import sys

    from harness import REPO

    broker, _ = served
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "odradek", "console", "-b", broker.bootstrap, "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=str(REPO))
    try:
        assert proc.stdout.readline().startswith(f"odradek console on http://127.0.0.1:{port}/")
        browser.get(f"http://127.0.0.1:{port}/topics/{TOPIC}")
        assert texts(browser, "h1") == [f"Topic {TOPIC}"]
        assert len(texts(browser, "#partitions .isr")) == 2
    finally:
        proc.terminate()
        proc.wait(30)
    Path(tmp_path / "done").write_text("ok")


def test_change_a_topic(served, browser):
    broker, console = served
    create_topic(broker.bootstrap, "changed")
    browser.get(f"{console}/topics/changed")
    browser.find_element(By.ID, "config-key").send_keys("retention.ms")
    browser.find_element(By.ID, "config-value").send_keys("123456")
    click_and_load(browser, By.ID, "config-set")
    assert browser.find_element(By.ID, "notice").text == "Set retention.ms=123456 on changed."
    assert texts(browser, ".config-retention-ms") == ["123456"]
    count = browser.find_element(By.ID, "partition-count")
    count.clear()
    count.send_keys("3")
    click_and_load(browser, By.ID, "partitions-add")
    assert browser.find_element(By.ID, "notice").text == "Topic changed now has 3 partitions."
    assert len(texts(browser, "#partitions .isr")) == 3
    browser.shot("topic-changed")
    click_and_load(browser, By.ID, "delete-button")  # not confirmed: kept
    assert "tick the confirmation" in browser.find_element(By.ID, "error").text
    browser.find_element(By.ID, "delete-confirm").click()
    click_and_load(browser, By.ID, "delete-button")
    assert browser.find_element(By.ID, "notice").text == "Deleted topic changed."
    assert "changed" not in texts(browser, "#topics a")


def test_open_transaction_and_its_producer(served, browser):
    broker, console = served
    create_topic(broker.bootstrap, "txn-browsed")
    p = Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": "console-txn"})
    p.init_transactions(30)
    p.begin_transaction()
    p.produce("txn-browsed", b"pending", partition=0)
    assert p.flush(30) == 0
    try:
        browser.get(f"{console}/transactions")
        row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#transactions tr.txn")
                   if r.find_element(By.CLASS_NAME, "txn-id").text == "console-txn")
        assert row.find_element(By.CLASS_NAME, "txn-state").text == "Ongoing"
        assert row.find_element(By.CLASS_NAME, "txn-partitions").text == "txn-browsed-0"
        producer_id = row.find_elements(By.TAG_NAME, "td")[2].text
        browser.shot("transactions")
        browser.get(f"{console}/topics/txn-browsed")
        assert texts(browser, "#producers .producer-id") == [producer_id]
        assert texts(browser, "#producers .txn-start") == ["0"]  # its open transaction starts at offset 0
    finally:
        p.abort_transaction(30)
    browser.get(f"{console}/transactions")
    assert [r.find_element(By.CLASS_NAME, "txn-state").text
            for r in browser.find_elements(By.CSS_SELECTOR, "#transactions tr.txn")
            if r.find_element(By.CLASS_NAME, "txn-id").text == "console-txn"] == ["CompleteAbort"]


def test_share_and_streams_groups(served, browser):
    import confluent_kafka

    from harness import RawClient
    from odradek.wire.messages import streams_group_heartbeat_request as hb

    broker, console = served
    create_topic(broker.bootstrap, "queued")
    p = Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(3):
        p.produce("queued", b"q%d" % i)
    assert p.flush(30) == 0
    from test_share_groups import _set_group_config

    _set_group_config(broker.bootstrap, "console-share", "share.auto.offset.reset", "earliest")
    share = confluent_kafka.ShareConsumer({"bootstrap.servers": broker.bootstrap, "group.id": "console-share",
                                           "client.id": "share-member", "share.acknowledgement.mode": "explicit"})
    share.subscribe(["queued"])
    raw = RawClient(broker.bootstrap)
    try:
        got = 0
        deadline = time.monotonic() + 60
        while got < 3 and time.monotonic() < deadline:
            for m in share.poll(timeout=0.5):
                if m.error() is None:
                    share.acknowledge(m)
                    got += 1
        assert got == 3
        share.commit_sync()  # the acknowledgements written: the share-partition starts after them
        joined = raw.call(hb.StreamsGroupHeartbeatRequest(
            group_id="console-streams", member_id="streams-member", member_epoch=0, rebalance_timeout_ms=30000,
            topology=hb.Topology(epoch=0, subtopologies=[hb.Subtopology(subtopology_id="0", source_topics=["queued"])]),
            active_tasks=[], standby_tasks=[], warmup_tasks=[], process_id="p-1"), 0)
        assert joined.error_code == 0
        browser.get(f"{console}/groups")
        kinds = {r.find_element(By.TAG_NAME, "a").text: r.find_element(By.CLASS_NAME, "group-type").text
                 for r in browser.find_elements(By.CSS_SELECTOR, "#groups tr")[1:]}
        assert kinds["console-share"] == "share" and kinds["console-streams"] == "streams"
        browser.shot("groups")
        click_and_load(browser, By.LINK_TEXT, "console-share")
        assert texts(browser, "h1") == ["Share group console-share"]
        assert texts(browser, "#members .client-id") == ["share-member"]
        assert texts(browser, "#members .assignment") == ["queued-0"]
        # all three acknowledged in one write: as Kafka 4.3, the share coordinator keeps the start
        # offset from before them (0) with the three delivery-complete (lag 0)
        assert texts(browser, "#share-partitions .start-offset") == ["0"]
        assert texts(browser, "#share-partitions .lag") == ["0"]
        browser.shot("share-group")
        browser.get(f"{console}/groups")
        click_and_load(browser, By.LINK_TEXT, "console-streams")
        assert texts(browser, "h1") == ["Streams group console-streams"]
        assert texts(browser, "#topology li") == ["0: queued -> - (changelogs: -)"]
        assert len(texts(browser, "#members .client-id")) == 1
        browser.shot("streams-group")
    finally:
        share.close()
        raw.close()


def test_quotas_and_acls(served, browser):
    from test_client_quotas import set_quota

    broker, console = served
    set_quota(broker, "console-slow", "producer_byte_rate", 2048)
    browser.get(f"{console}/quotas")
    rows = {r.find_element(By.CLASS_NAME, "quota-entity").text: r.find_element(By.CLASS_NAME, "quota-values").text
            for r in browser.find_elements(By.CSS_SELECTOR, "#quotas tr.quota")}
    assert rows["client-id=console-slow"] == "producer_byte_rate=2048"
    browser.shot("quotas")
    browser.get(f"{console}/acls")  # no authorizer on this broker: Kafka's answer, shown as it is
    assert browser.find_element(By.ID, "error").text.startswith("DescribeAcls: SECURITY_DISABLED")


def test_throughput_between_views(served, browser):
    broker, console = served
    create_topic(broker.bootstrap, "flowing")
    p = Producer({"bootstrap.servers": broker.bootstrap})

    def view_after(n: int) -> tuple[int, str]:
        for i in range(n):
            p.produce("flowing", b"f%d" % i)
        assert p.flush(30) == 0
        browser.get(f"{console}/throughput")
        row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#throughput tr")[1:]
                   if r.find_elements(By.TAG_NAME, "td")[0].text == "flowing")
        return int(row.find_element(By.CLASS_NAME, "end").text), row.find_element(By.CLASS_NAME, "rate").text

    first, _ = view_after(0)
    second, rate = view_after(25)
    assert second - first == 25 and float(rate) > 0
    third, _ = view_after(10)
    assert third - second == 10
    assert browser.find_elements(By.CSS_SELECTOR, "svg.chart polyline")  # two rates: a chart
    browser.shot("throughput")
