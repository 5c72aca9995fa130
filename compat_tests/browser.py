"""Headless Chromium through Selenium for the console's checks: a module-scoped driver whose
``shot(name)`` saves a screenshot of the page under the test's temp dir; the checks skip with the
prerequisite named when selenium, Chromium or chromedriver is missing."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = ("the console's browser checks need Chromium and chromedriver "
           "(Debian: apt-get install chromium chromium-driver)")


def have_browser() -> bool:
    try:
        import selenium.webdriver  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM is not None and CHROMEDRIVER is not None


def start_browser(shots_dir):
    """A headless Chromium driver; the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    d.set_page_load_timeout(60)
    d.shot = lambda name: d.save_screenshot(str(shots_dir / f"{name}.png"))
    return d


def texts(d, css: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in d.find_elements(By.CSS_SELECTOR, css)]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not have_browser():
        pytest.skip(MISSING)
    d = start_browser(tmp_path_factory.mktemp("screenshots"))
    try:
        yield d
    finally:
        d.quit()


def click_and_load(d, by: str, value: str) -> None:
    """Click what submits a form or follows a link, and wait until the next page replaced this one
    (reading right after a click can find the old page's elements going stale)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.webdriver.support.ui import WebDriverWait

    old = d.find_element(By.TAG_NAME, "html")
    d.find_element(by, value).click()
    WebDriverWait(d, 60).until(_gone(old, staleness_of(old)))


def _gone(old, stale):
    """staleness_of, also when chromedriver, asked about the old page's node while that page is
    being replaced, answers "Node with given id does not belong to the document" (a generic
    WebDriverException, seen in a CI run) instead of a stale element: that node is gone too."""
    from selenium.common.exceptions import WebDriverException

    def check(driver) -> bool:
        try:
            return stale(driver)
        except WebDriverException as e:
            if "does not belong to the document" in str(e):
                return True
            raise
    return check
