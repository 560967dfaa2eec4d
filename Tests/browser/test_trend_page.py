"""Real-browser tests of the run history's trend page (`drain history trend --html`).

Tests/browser/make-pages writes trend.html: energy.total_j of a scenario named
`<img src=x onerror=window.__pwned=1></script>` over four commits, two runs each.

    DRAIN_COMPARE_PAGES=/tmp/pages python3 -m pytest -q Tests/browser
"""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from test_compare_page import PAYLOAD, SHOTS, browser, load, pytestmark  # noqa: F401  (fixture and skip mark)


def test_every_run_is_a_point_and_the_medians_a_line(browser):
    driver = load(browser, "trend.html")
    points = driver.find_elements(By.CSS_SELECTOR, "#trend-chart circle.point")
    assert len(points) == 8
    assert len({point.get_attribute("data-commit") for point in points}) == 4
    median = driver.find_element(By.CSS_SELECTOR, "#trend-chart polyline.median")
    assert len(median.get_attribute("points").split()) == 4
    rows = driver.find_elements(By.CSS_SELECTOR, "table.commits tbody tr")
    assert len(rows) == 4
    driver.save_screenshot(str(SHOTS / "trend.png"))


def test_hovering_a_point_shows_its_commit_and_date(browser):
    driver = load(browser, "trend.html")
    tooltip = driver.find_element(By.CSS_SELECTOR, "#trend-chart .tooltip")
    assert not tooltip.is_displayed()
    point = driver.find_elements(By.CSS_SELECTOR, "#trend-chart circle.point")[5]
    ActionChains(driver).move_to_element(point).perform()
    assert tooltip.is_displayed()
    text = tooltip.text
    assert "commit " + point.get_attribute("data-commit")[:12] in text
    assert " UTC · run " in text and text.count("-") >= 2  # the date
    driver.save_screenshot(str(SHOTS / "trend-hover.png"))
    ActionChains(driver).move_by_offset(0, 300).perform()
    assert not tooltip.is_displayed()


def test_the_hostile_scenario_name_stays_text(browser):
    driver = load(browser, "trend.html")
    assert driver.execute_script("return window.__pwned === undefined")
    assert PAYLOAD in driver.find_element(By.CSS_SELECTOR, "header .meta").text
    assert driver.find_elements(By.CSS_SELECTOR, "header img") == []
    assert [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"] == []
