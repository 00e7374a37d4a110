"""The browser table in a real headless Chromium (Debian's ``chromium``, driven by
Playwright; no browser is downloaded): two browser contexts take the two seats of a
Ringgeister game and play against each other by clicking rings and figures.

Screenshots go to ``$BOARDWRIGHT_SCREENSHOTS`` (else the test's temporary folder).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import ADMIN, create

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# a real headless Chromium (~10 s): CI runs these with -m slow, and .ci/run installs
# chromium, so under CI a missing browser is a failure, not a skip
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists() and not os.environ.get("CI"),
        reason="needs Debian's chromium (apt-get install chromium)",
    ),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    d = Path(os.environ.get("BOARDWRIGHT_SCREENSHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


def _ply(page: Any) -> int:
    text = page.locator("#you").inner_text()
    return int(text.rsplit("ply", 1)[1])


def _play_one(page: Any) -> str:
    """Play one move the way a person would: a placement ring, else a figure and one of
    its rings, else the first move button. Returns what was clicked."""
    place = page.locator(".target.place")
    if place.count():
        place.first.click()
        return "placement ring"
    movable = page.locator(".figure.movable")
    if movable.count():
        movable.first.click()
        page.locator(".target").first.wait_for()
        assert page.locator(".figure.selected").count() == 1
        page.locator(".target").first.click()
        if page.locator("#menu button").count() and page.locator("#menu").is_visible():
            page.locator("#menu button").first.click()
        return "figure"
    page.locator("#moves button").first.click()
    return "move button"


def test_two_browsers_play_ringgeister_against_each_other(server, browser, shots):
    g = create(server.url, rules="ringgeister", project="ringgeister", players=2, seed=3)
    pages = {}
    for s in g["seats"]:
        ctx = browser.new_context(viewport={"width": 1280, "height": 860})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        page.goto(server.url + s["url"])
        pages[s["player"]] = (page, errors)
    yellow, orange = pages["yellow"][0], pages["orange"][0]
    yellow.wait_for_selector("#turn:has-text('Your turn')")
    orange.wait_for_selector("#turn:has-text('yellow to move')")
    assert yellow.locator("#board svg").count() == 1
    assert yellow.locator(".figure").count() >= 8  # light and black figures from figures()
    assert orange.locator(".target").count() == 0  # not orange's turn: nothing lights up
    yellow.screenshot(path=str(shots / "table-yellow-start.png"))

    clicked = []
    for n in range(8):
        snap = httpx.get(server.url + f"/api/games/{g['game']}").json()
        mover = pages[snap["to_move"]][0]
        mover.wait_for_selector("#turn:has-text('Your turn')")
        clicked.append(_play_one(mover))
        for page, _ in pages.values():
            page.wait_for_function(
                f"document.querySelector('#you').textContent.endsWith('ply {n + 1}')"
            )
        if n == 2:
            mover.screenshot(path=str(shots / "table-mid-game.png"))
    assert "placement ring" in clicked and "figure" in clicked
    # the mission counters placed by clicking a ring lie on their spaces for both seats
    # (drawn by the referee, as `referee render --state` draws them)
    for page, _ in pages.values():
        placed = page.locator("#pieces [data-figure^='counter-']")
        assert placed.count() == clicked.count("placement ring")
        assert "mission counter" in placed.first.locator("title").text_content()
    final = httpx.get(server.url + f"/api/games/{g['game']}").json()
    assert final["ply"] == 8
    for page, errors in pages.values():
        assert _ply(page) == 8
        assert page.locator("#log li").count() >= 8  # the events of every move
        assert errors == []
    # a figure selected shows its rings, a second click on it clears them
    mover = pages[final["to_move"]][0]
    mover.wait_for_selector("#turn:has-text('Your turn')")
    if mover.locator(".figure.movable").count():
        mover.locator(".figure.movable").first.click()
        assert mover.locator(".target:not(.place)").count() >= 1
        mover.screenshot(path=str(shots / "table-targets.png"))
    yellow.screenshot(path=str(shots / "table-yellow-end.png"))
    orange.screenshot(path=str(shots / "table-orange-end.png"))


def test_the_lobby_creates_a_game_and_hands_out_seat_links(server, browser, shots):
    ctx = browser.new_context(viewport={"width": 1100, "height": 700})
    page = ctx.new_page()
    page.goto(server.url + "/?admin=" + ADMIN)  # the link the server prints at start
    assert page.locator("#admin-token").input_value() == ADMIN
    assert "admin" not in page.url  # the token leaves the address bar at once
    page.select_option("#project", "riddle-sample")
    assert page.locator("#rules").input_value() == "riddle"
    page.fill("#players", "3")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(".seat-link")
    links = page.locator(".seat-link")
    assert links.count() == 3
    assert len(page.locator("#owner-token").inner_text()) >= 24
    page.screenshot(path=str(shots / "lobby-created.png"))
    links.first.click()
    page.wait_for_selector("#turn")
    page.wait_for_function("document.querySelector('#you').textContent.startsWith('You play')")
    assert page.locator("#hand li").count() >= 1  # the seat's own Riddle hand
    page.screenshot(path=str(shots / "table-riddle-seat.png"))


def _seat_page(browser: Any, url: str) -> tuple[Any, list[str]]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_function("document.querySelector('#you').textContent.startsWith('You play')")
    return page, errors


@pytest.mark.parametrize(
    ("rules", "project", "players"),
    [
        ("riddle", "riddle-sample", 3),
        ("lotr-coop", "lotr-coop", 2),
        ("mount-doom", "mount-doom", 2),
    ],
)
def test_a_seat_sees_its_hand_as_cards_with_titles_and_text(
    server: Any, browser: Any, shots: Path, rules: str, project: str, players: int
) -> None:
    """'Cards as cards': each card of the seat's hand is a face with its title (not
    its id) and its text or symbols, read from the deck data through the game's view;
    the cooperative game's hand is shown like the others."""
    g = create(server.url, rules=rules, project=project, players=players, seed=5)
    seat = g["seats"][0]
    page, errors = _seat_page(browser, server.url + seat["url"])
    view = httpx.get(
        server.url + f"/api/games/{g['game']}",
        headers={"Authorization": f"Bearer {seat['token']}"},
    ).json()["view"]
    hand = view["hand"]
    assert hand, "the seat holds cards at the start"
    page.wait_for_selector("#hand .card")
    cards = page.locator("#hand .card")
    assert cards.count() == len(hand)
    for i, cid in enumerate(hand):
        card = cards.nth(i)
        face = view["cards"][cid]
        assert card.get_attribute("data-card") == cid
        assert card.locator(".card-title").inner_text() == face["title"]
        assert face["title"] in (card.get_attribute("aria-label") or "")
    # the accessibility tree reads each card by its title
    names = page.locator("#hand").aria_snapshot()
    assert view["cards"][hand[0]]["title"] in names
    shown = page.locator("#hand").inner_text().split("\n")
    assert not [c for c in hand if c in shown and view["cards"][c]["title"] != c]  # no bare ids
    page.screenshot(path=str(shots / f"table-{project}-hand.png"))
    assert errors == []
