"""Real-browser tests of the comparison page (`drain compare --html`), in headless Chromium.

The pages come from the directory DRAIN_COMPARE_PAGES names: two-runs.html, three-runs.html
and hostile.html (a two-run comparison whose every string carries markup, among it
`<img src=x onerror=window.__pwned=1>` and `</script>`). The DrainCompareTests write such
pages from their fixtures when DRAIN_COMPARE_PAGES_OUT names a directory. Screenshots of
each state go to browser-screenshots/ (or DRAIN_SCREENSHOTS).

Needs Debian's chromium and chromium-driver and the selenium package (scripts/setup
installs them as root); selenium uses the system chromedriver, never Selenium Manager.

    DRAIN_COMPARE_PAGES=/tmp/pages python3 -m pytest -q Tests/browser
"""

import os
import pathlib
import shutil
import tempfile

import pytest

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

PAGES = os.environ.get("DRAIN_COMPARE_PAGES")
ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = pathlib.Path(os.environ.get("DRAIN_SCREENSHOTS", ROOT / "browser-screenshots"))
PAYLOAD = "<img src=x onerror=window.__pwned=1>"

pytestmark = pytest.mark.skipif(not PAGES, reason="DRAIN_COMPARE_PAGES names no directory of comparison pages")


@pytest.fixture(scope="module")
def browser():
    driver_path = shutil.which("chromedriver")
    if not driver_path or not (shutil.which("chromium") or shutil.which("chromium-browser")):
        pytest.skip("chromium and chromium-driver are not installed (scripts/setup installs them as root)")
    # Chromium leaves its profile lock's folder (org.chromium.Chromium.*) in TMPDIR when it
    # quits: the profile and TMPDIR are in a folder of the fixture's own, removed afterwards.
    scratch = tempfile.mkdtemp(prefix="drain-chromium-")
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={scratch}/profile")
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=driver_path, env={**os.environ, "TMPDIR": scratch})
    driver = webdriver.Chrome(service=service, options=options)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(scratch, ignore_errors=True)


def load(driver, name, width=1280):
    path = pathlib.Path(PAGES) / name
    assert path.is_file(), f"{path} is missing"
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.get(path.resolve().as_uri())
    driver.get_log("browser")  # what an earlier page logged
    return driver


def shot(driver, name):
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def views(driver):
    return [(t.get_attribute("data-view-start"), t.get_attribute("data-view-end")) for t in driver.find_elements(By.CSS_SELECTOR, ".timeline")]


def reload_errors(driver, name, width=1280):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.get((pathlib.Path(PAGES) / name).resolve().as_uri())
    return errors(driver)


def drawing_offset(timeline):
    """How far below the timeline's centre its drawing's centre lies (its run label, above
    the drawing, may wrap)."""
    svg = timeline.find_element(By.TAG_NAME, "svg")
    return int(svg.location["y"] + svg.size["height"] / 2 - (timeline.location["y"] + timeline.size["height"] / 2))


def centre(driver, element):
    """Scrolls `element` to the middle of the viewport: the pointer is moved relative to its
    centre, which must be on screen (scrolling an element "into view" stops as soon as its top
    edge is visible)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)


def drag(driver, timeline, start, end):
    """Drags across `timeline` from `start` to `end` pixels right of its left edge."""
    left = -timeline.size["width"] // 2
    centre(driver, timeline)
    actions = ActionChains(driver)
    actions.move_to_element_with_offset(timeline, left + start, drawing_offset(timeline)).click_and_hold().move_by_offset((end - start) // 2, 0)
    actions.move_by_offset((end - start) - (end - start) // 2, 0).release().perform()


def hover(driver, offset):
    """Moves the pointer `offset` pixels right of the first timeline's centre (its drawing is
    replaced as the view changes; the timeline itself stays)."""
    timeline = driver.find_element(By.CSS_SELECTOR, ".timeline")
    centre(driver, timeline)
    # Two moves: the pointer stays where an earlier test left it, and a move to the same
    # place fires no event.
    ActionChains(driver).move_to_element_with_offset(timeline, offset - 7, drawing_offset(timeline)).move_by_offset(7, 0).perform()


@pytest.mark.parametrize("name", ["two-runs.html", "three-runs.html", "hostile.html"])
def test_loads_without_console_errors(browser, name):
    assert reload_errors(browser, name) == []
    assert browser.find_elements(By.CSS_SELECTOR, ".timeline svg"), "the script drew the timelines"


def test_dragging_a_range_zooms_every_timeline_and_reset_restores_it(browser):
    load(browser, "two-runs.html")
    before = views(browser)
    assert len(before) == 3 and len(set(before)) == 1
    shot(browser, "two-runs")
    drag(browser, browser.find_elements(By.CSS_SELECTOR, ".timeline")[1], 200, 500)
    after = views(browser)
    assert len(set(after)) == 1, "every timeline shows the same range"
    assert after[0] != before[0]
    assert float(after[0][1]) - float(after[0][0]) < float(before[0][1]) - float(before[0][0])
    shot(browser, "two-runs-zoomed")
    browser.find_element(By.ID, "zoom-reset").click()
    assert views(browser) == before
    assert errors(browser) == []


def test_wheel_and_keys_zoom_every_timeline(browser):
    load(browser, "two-runs.html")
    before = views(browser)
    first = browser.find_element(By.CSS_SELECTOR, ".timeline")
    centre(browser, first)
    # The wheel zooms in around the pointer, on every timeline at once.
    ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(first, 0, drawing_offset(first)), 0, -300).perform()
    wheeled = views(browser)
    assert len(set(wheeled)) == 1 and wheeled != before
    browser.find_element(By.ID, "zoom-reset").click()
    assert views(browser) == before
    browser.execute_script("arguments[0].focus()", first)
    first.send_keys("+")
    zoomed = views(browser)
    assert len(set(zoomed)) == 1 and zoomed != before
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    panned = views(browser)
    assert len(set(panned)) == 1 and panned != zoomed
    browser.switch_to.active_element.send_keys("0")
    assert views(browser) == before


def test_the_threshold_changes_the_highlighted_rows(browser):
    load(browser, "two-runs.html")
    control = Select(browser.find_element(By.ID, "threshold"))
    assert control.first_selected_option.get_attribute("value") == "5"
    counts = {}
    for value in ("0", "5", "25"):
        control.select_by_value(value)
        counts[value] = len(browser.find_elements(By.CSS_SELECTOR, "table.compare tr.over"))
        browser.find_element(By.ID, "threshold-control").location_once_scrolled_into_view
        shot(browser, f"threshold-{value}")
    assert counts["0"] > counts["25"] > 0
    assert counts["0"] >= counts["5"] >= counts["25"]


def test_a_header_click_reorders_a_table(browser):
    load(browser, "two-runs.html")
    table = browser.find_element(By.CSS_SELECTOR, "#categories table")

    def names():
        return [row.find_element(By.TAG_NAME, "td").text for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]

    before = names()
    header = table.find_element(By.CSS_SELECTOR, "thead th")
    header.click()
    ascending = names()
    assert ascending == sorted(before) and ascending != before
    header.click()
    assert names() == sorted(before, reverse=True)
    shot(browser, "sorted")


@pytest.mark.parametrize("name,runs", [("two-runs.html", 2), ("three-runs.html", 3)])
def test_the_hover_cursor_shows_one_value_per_run(browser, name, runs):
    load(browser, name)
    hover(browser, 40)
    values = browser.find_elements(By.CSS_SELECTOR, "#cursor-readout li[data-run]")
    assert [value.get_attribute("data-run") for value in values] == [str(run) for run in range(runs)]
    assert all(value.text.strip() for value in values)
    cursors = browser.find_elements(By.CSS_SELECTOR, ".timeline .cursor[visibility='visible']")
    assert len(cursors) == len(browser.find_elements(By.CSS_SELECTOR, ".timeline"))
    shot(browser, f"cursor-{runs}-runs")


def test_three_runs_compare_each_with_the_reference(browser):
    load(browser, "three-runs.html")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".timeline:not(.difference)")) == 3
    assert len(browser.find_elements(By.CSS_SELECTOR, ".timeline.difference")) == 2
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#endpoints thead th")]
    assert len(headers) == 6 and sum(header.startswith("DIFF") for header in headers) == 2
    drag(browser, browser.find_elements(By.CSS_SELECTOR, ".timeline")[2], 300, 450)
    assert len(set(views(browser))) == 1
    shot(browser, "three-runs")
    assert errors(browser) == []


def test_hostile_strings_are_text_and_run_nothing(browser):
    load(browser, "hostile.html")
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert browser.execute_script("return document.images.length") == 0
    assert browser.execute_script("return document.querySelectorAll('script').length") == 2
    label = browser.find_element(By.CSS_SELECTOR, "#runs .run-label")
    assert PAYLOAD in label.text and "</script>" in label.text
    endpoint = browser.find_element(By.CSS_SELECTOR, "#endpoints tbody code")
    assert PAYLOAD in endpoint.get_attribute("textContent")
    hover(browser, 0)
    assert PAYLOAD in browser.find_element(By.ID, "cursor-readout").text
    assert browser.execute_script("return document.images.length") == 0
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    shot(browser, "hostile")


@pytest.mark.parametrize("name", ["two-runs.html", "three-runs.html"])
def test_fits_a_phone(browser, name):
    load(browser, name, width=375)
    overflow = browser.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the body scrolls sideways by {overflow} px"
    assert len(set(views(browser))) == 1
    shot(browser, f"phone-{name.removesuffix('.html')}")
    assert errors(browser) == []
