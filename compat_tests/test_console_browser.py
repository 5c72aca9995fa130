"""The web console in a real browser (headless Chromium through Selenium) against a real broker:
create a topic, browse to a produced message and read its key, value (text, JSON, hex) and
headers, watch a group's lag go from N to 0, reset its offsets with a confirmation. Each page
is saved as a screenshot under the test's temp dir."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer

from harness import BrokerProcess, create_topic, free_port

webdriver = pytest.importorskip("selenium.webdriver", reason="the console's browser checks need selenium (pip)")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="the console's browser checks need Chromium and chromedriver "
                                       "(Debian: apt-get install chromium chromium-driver)")
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


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    d.set_page_load_timeout(60)
    shots = tmp_path_factory.mktemp("screenshots")
    d.shot = lambda name: d.save_screenshot(str(shots / f"{name}.png"))
    try:
        yield d
    finally:
        d.quit()


def texts(d, css: str) -> list[str]:
    return [e.text for e in d.find_elements(By.CSS_SELECTOR, css)]


def test_overview(served, browser):
    broker, console = served
    browser.get(console + "/")
    assert browser.title == "Cluster - odradek console"
    assert texts(browser, "#brokers td")[:2] == ["1", broker.bootstrap]
    browser.shot("overview")


def test_create_topic_in_the_page(served, browser):
    _, console = served
    browser.get(console + "/topics")
    browser.find_element(By.ID, "topic-name").send_keys(TOPIC)
    partitions = browser.find_element(By.ID, "topic-partitions")
    partitions.clear()
    partitions.send_keys("2")
    browser.find_element(By.ID, "create").click()
    assert browser.find_element(By.ID, "notice").text == f"Created topic {TOPIC}."
    row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#topics tr") if r.text.startswith(TOPIC))
    assert row.find_elements(By.TAG_NAME, "td")[1].text == "2"
    browser.shot("topics")
    browser.find_element(By.ID, "topic-name").send_keys(TOPIC)
    browser.find_element(By.ID, "create").click()
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
    browser.find_element(By.ID, "show").click()
    assert texts(browser, "#messages .offset") == ["0", "1"]
    assert texts(browser, "#messages .key") == ["k-json", "k-text"]
    assert texts(browser, "#messages .value")[0] == '{\n  "a": 1,\n  "b": [\n    2,\n    3\n  ]\n}'
    assert texts(browser, "#messages .value")[1] == "plain words"  # not JSON: shown as text
    assert texts(browser, "#messages .headers")[0] == "trace: t-1\nempty: null"
    browser.shot("messages-json")
    Select(browser.find_element(By.ID, "format")).select_by_visible_text("hex")
    browser.find_element(By.ID, "search").send_keys("plain")
    browser.find_element(By.ID, "show").click()
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

    browser.find_element(By.ID, "reset-button").click()  # not confirmed: nothing moves
    assert "tick the confirmation" in browser.find_element(By.ID, "error").text
    assert int(browser.find_element(By.ID, "lag").text) == 0
    Select(browser.find_element(By.ID, "reset-to")).select_by_visible_text("earliest")
    browser.find_element(By.ID, "reset-confirm").click()
    browser.find_element(By.ID, "reset-button").click()
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
