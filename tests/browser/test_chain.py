"""The proposed system, end to end: the chain animation plays, steps by keyboard and holds still under reduced motion."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def open_chain(page, server):
    page.goto(server + "cit/", wait_until="load")
    page.wait_for_selector(".chain.chain-live")
    return page.locator(".chain").first


def test_chain_plays_and_steps_by_keyboard(tab, server):
    page = tab()
    errors: list[str] = []
    tab.on(page, "pageerror", lambda e: errors.append(str(e)))
    chain = open_chain(page, server)
    assert chain.get_attribute("data-step") == "-1", "every step shows until the reader starts"
    chain.get_by_role("button", name="Play").click()
    page.wait_for_function("() => Number(document.querySelector('.chain').dataset.step) >= 1", timeout=10_000)
    chain.get_by_role("button", name="Pause").click()
    assert chain.get_attribute("data-playing") == "false"
    chain.get_by_role("button", name="Next step").focus()
    before = int(chain.get_attribute("data-step") or "0")
    page.keyboard.press("ArrowRight")
    assert int(chain.get_attribute("data-step") or "0") == before + 1
    page.keyboard.press("ArrowLeft")
    assert int(chain.get_attribute("data-step") or "0") == before
    assert chain.locator("li.is-active").count() == 1
    # the switch to E′ shows its own steps
    chain.locator("input[type=radio]").nth(1).check()
    assert chain.get_attribute("data-variant") == "1"
    assert chain.locator("ol").nth(1).is_visible() and not chain.locator("ol").nth(0).is_visible()
    assert chain.locator("ol").nth(1).locator("a.fig").count() >= 5, "each number on the chain is a figure"
    assert errors == []


def test_chain_holds_still_under_reduced_motion(browser, server):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    chain = open_chain(page, server)
    play = chain.get_by_role("button", name="Play")
    assert play.is_disabled()
    page.wait_for_timeout(2000)
    assert chain.get_attribute("data-step") == "-1"
    assert chain.locator("li.is-waiting").count() == 0
    items = chain.locator("ol").first.locator("li")
    assert all(items.nth(i).is_visible() for i in range(items.count())), "every step is shown at once"
    context.close()
