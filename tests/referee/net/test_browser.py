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

from .conftest import ADMIN, AS_ADMIN, create

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
    # the track games' boards as drawn by render: stage goals and scenario names
    board = page.locator("#board svg")
    if rules == "mount-doom":
        assert board.locator(".stage-goal").count() == 6
        places = board.locator(".place-name").all_text_contents()
        assert {"Lothlórien", "Mount Doom"} <= set(places)
        assert board.locator(".card-slot").count() == 6
        # beside the board: the Gandalf stack as a back with its count, the dice tray
        stack = next(t for t in view["table"] if t["name"] == "Gandalf stack")
        pile = page.locator("#piles [data-pile='Gandalf stack'] .back")
        assert pile.inner_text() == str(stack["count"])
        assert page.locator("#piles [data-pile='dice tray']").count() == 1
    elif rules == "lotr-coop":
        tracks = board.locator(".track-name").all_text_contents()
        assert any(t.startswith("Moria:") for t in tracks)
    page.screenshot(path=str(shots / f"table-{project}-hand.png"))
    assert errors == []


def test_a_riddle_figure_after_a_roll_rings_one_way_at_a_time(
    server: Any, browser: Any, shots: Path
) -> None:
    """After a roll with Eagles in hand, the marker may move by the die or fly anywhere
    (rulebook: 'Eagles ... move to any space on the board'): the table rings the die's
    destinations first and offers the flight as a second way, instead of ringing every
    space of the map at once."""
    g = create(server.url, rules="riddle", project="riddle-sample", players=3, seed=7)
    snap = httpx.get(server.url + f"/api/games/{g['game']}", headers=AS_ADMIN).json()
    seat = next(s for s in g["seats"] if s["player"] == snap["to_move"])
    page, errors = _seat_page(browser, server.url + seat["url"])
    page.wait_for_selector("#turn:has-text('Your turn')")
    page.locator("#moves button[data-move='roll']").click()
    page.wait_for_selector(".figure.movable")
    after = httpx.get(
        server.url + f"/api/games/{g['game']}",
        headers={"Authorization": f"Bearer {seat['token']}"},
    ).json()
    (fig, dests), *_ = after["targets"].items()
    assert len(dests) > 200  # the flight reaches (nearly) every space
    page.locator(f".figure.movable[data-figure='{fig}']").click()
    ways = page.locator("#ways button")
    assert ways.count() >= 2
    shown = page.locator(".target:not(.place)").count()
    die_moves = {n for n, ms in dests.items() if any(m.startswith("move ") for m in ms)}
    assert shown == len(die_moves) < 100
    page.screenshot(path=str(shots / "table-riddle-die-moves.png"))
    fly = page.locator("#ways button[data-way^='fly']")
    fly.click()
    assert page.locator(".target:not(.place)").count() > 200
    assert fly.get_attribute("aria-pressed") == "true"
    assert errors == []


# ------------------------------------------------------------- card, then target
def _seat_view(server: Any, game: str, token: str) -> dict[str, Any]:
    r = httpx.get(server.url + f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"})
    return r.json()  # type: ignore[no-any-return]


def _advance(server: Any, g: dict[str, Any], plies: int) -> None:
    """Play the first legal move ``plies`` times through the API (as its seat)."""
    tokens = {s["player"]: s["token"] for s in g["seats"]}
    for _ in range(plies):
        mover = httpx.get(server.url + f"/api/games/{g['game']}").json()["to_move"]
        snap = _seat_view(server, g["game"], tokens[mover])
        r = httpx.post(
            server.url + f"/api/games/{g['game']}/moves",
            json={"move": snap["moves"][0], "expect_ply": snap["ply"]},
            headers={"Authorization": f"Bearer {tokens[mover]}"},
        )
        assert r.status_code == 200, r.text


def _card_moves(snap: dict[str, Any], card: str) -> tuple[dict[str, list[str]], list[str]]:
    """The spaces the card's moves go to (from the snapshot's targets) and its other
    moves, read independently of the page."""
    dest = {m: node for d in snap["targets"].values() for node, ms in d.items() for m in ms}
    spaces: dict[str, list[str]] = {}
    other = []
    for m in snap["moves"]:
        if card not in m.split()[1:]:
            continue
        if m in dest:
            spaces.setdefault(dest[m], []).append(m)
        else:
            other.append(m)
    return spaces, other


def _pick_a_card_with(snap: dict[str, Any], want: str) -> str:
    """A held card whose moves go to spaces (``want='spaces'``) or name a player."""
    for cid in snap["view"]["hand"]:
        spaces, other = _card_moves(snap, cid)
        if want == "spaces" and spaces:
            return str(cid)
        if want == "players" and any(
            w in snap["seats"] for m in other for w in m.split()[m.split().index(cid) + 1 :]
        ):
            return str(cid)
    raise AssertionError(f"no held card with {want} targets in {snap['view']['hand']}")


def _card(page: Any, cid: str) -> Any:
    return page.locator(f"#hand .card[data-card='{cid}']").first


@pytest.mark.parametrize(
    ("rules", "project", "players", "seed", "plies"),
    [("riddle", "riddle-sample", 3, 0, 1), ("lotr-coop", "lotr-coop", 2, 0, 1)],
)
def test_a_card_then_a_ringed_space_plays_the_card(
    server: Any,
    browser: Any,
    shots: Path,
    rules: str,
    project: str,
    players: int,
    seed: int,
    plies: int,
) -> None:
    """Click a card in the hand: the spaces its moves go to are ringed (and nothing
    else); click the card again to put it back, Esc too; pick it, click a ring: the
    move using that card is played."""
    g = create(server.url, rules=rules, project=project, players=players, seed=seed)
    _advance(server, g, plies)
    snap = httpx.get(server.url + f"/api/games/{g['game']}", headers=AS_ADMIN).json()
    seat = next(s for s in g["seats"] if s["player"] == snap["to_move"])
    snap = _seat_view(server, g["game"], seat["token"])
    cid = _pick_a_card_with(snap, "spaces")
    spaces, _ = _card_moves(snap, cid)
    page, errors = _seat_page(browser, server.url + seat["url"])
    page.wait_for_selector("#turn:has-text('Your turn')")
    title = snap["view"]["cards"][cid]["title"]
    card = _card(page, cid)
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    rings = page.locator(".target.card-target")
    assert sorted(rings.evaluate_all("rs => rs.map(r => r.dataset.target)")) == sorted(spaces)
    panel = page.locator("#card-panel")
    assert panel.is_visible() and title in panel.inner_text()
    # every move button left names the card
    shown = page.locator("#moves button[data-move]").evaluate_all(
        "bs => bs.map(b => b.dataset.move)"
    )
    assert shown and all(cid in m.split() for m in shown)
    page.screenshot(path=str(shots / f"table-{project}-card-targets.png"))
    card.click()  # again: put back
    assert page.locator(".target.card-target").count() == 0
    assert not panel.is_visible()
    card.click()
    page.keyboard.press("Escape")
    assert page.locator(".target.card-target").count() == 0
    # by keyboard this time: the card and the ring take the focus, Enter plays
    card.focus()
    page.keyboard.press("Enter")
    node = sorted(spaces)[0]
    page.locator(f".target.card-target[data-target='{node}']").focus()
    page.keyboard.press("Enter")
    if len(spaces[node]) > 1:
        page.locator("#menu button[data-move]").first.click()
    page.wait_for_function(
        f"document.querySelector('#you').textContent.endsWith('ply {snap['ply'] + 1}')"
    )
    log = httpx.get(server.url + f"/api/games/{g['game']}/log", headers=AS_ADMIN).json()
    last = log["log"]["moves"][-1]["move"] if log.get("complete") else None
    played = last or page.locator("#verdict").inner_text().removeprefix("played ")
    assert played in spaces[node]
    assert errors == []


@pytest.mark.parametrize(
    ("rules", "project", "players", "seed", "plies"),
    [("riddle", "riddle-sample", 3, 5, 1), ("lotr-coop", "lotr-coop", 2, 1, 2)],
)
def test_a_card_then_a_player_plays_it_on_that_player(
    server: Any,
    browser: Any,
    shots: Path,
    rules: str,
    project: str,
    players: int,
    seed: int,
    plies: int,
) -> None:
    """A card whose moves name a player (a Riddle card riddles a player, the
    cooperative game's yellow cards help one): picking it lights those players' chips
    (and their figures on the board); clicking one plays the move, or, when several
    moves share card and player (the guessed title), a small choice of them."""
    g = create(server.url, rules=rules, project=project, players=players, seed=seed)
    _advance(server, g, plies)
    snap = httpx.get(server.url + f"/api/games/{g['game']}", headers=AS_ADMIN).json()
    seat = next(s for s in g["seats"] if s["player"] == snap["to_move"])
    snap = _seat_view(server, g["game"], seat["token"])
    cid = _pick_a_card_with(snap, "players")
    _, other = _card_moves(snap, cid)
    on: dict[str, list[str]] = {}
    for m in other:
        ws = m.split()
        hit = next((w for w in ws[ws.index(cid) + 1 :] if w in snap["seats"]), None)
        if hit:
            on.setdefault(hit, []).append(m)
    page, errors = _seat_page(browser, server.url + seat["url"])
    page.wait_for_selector("#turn:has-text('Your turn')")
    assert page.locator("#seats button.card-target").count() == 0
    _card(page, cid).click()
    lit = page.locator("#seats button.card-target")
    assert sorted(lit.evaluate_all("bs => bs.map(b => b.dataset.player)")) == sorted(on)
    # the players' own figures on the board are lit as targets too
    figs = {f["id"] for f in snap["figures"]}
    assert sorted(
        page.locator("#pieces .card-target").evaluate_all(
            "fs => fs.map(f => f.getAttribute('data-figure'))"
        )
    ) == sorted(p for p in on if p in figs)
    # the accessibility tree: the lit players are enabled buttons, the others not
    tree = page.locator("#seats").aria_snapshot()
    for p in on:
        assert f'button "{p}' in tree
    page.screenshot(path=str(shots / f"table-{project}-card-players.png"))
    who = sorted(on, key=lambda p: -len(on[p]))[0]
    page.locator(f"#seats button[data-player='{who}']").click()
    if len(on[who]) > 1:
        menu = page.locator("#menu")
        assert menu.is_visible()
        offered = menu.locator("button[data-move]").evaluate_all(
            "bs => bs.map(b => b.dataset.move)"
        )
        assert offered == on[who]
        page.screenshot(path=str(shots / f"table-{project}-card-choice.png"))
        page.keyboard.press("Escape")
        assert not menu.is_visible()
        page.locator(f"#seats button[data-player='{who}']").click()
        menu.locator("button[data-move]").first.click()
    page.wait_for_function(
        f"document.querySelector('#you').textContent.endsWith('ply {snap['ply'] + 1}')"
    )
    assert page.locator("#verdict").inner_text().removeprefix("played ") in on[who]
    assert errors == []


# ------------------------------------------------------------------ label sizes
#: what a label's letters must measure on screen, in CSS px, to be read
LEGIBLE_PX = 11

LABEL_SIZES = """() => [...document.querySelectorAll('#board svg text')]
  .filter((t) => !t.closest('#pieces') && t.getBoundingClientRect().width > 0)
  .map((t) => {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    return [t.textContent, px];
  })"""


#: the letters inside the figures (each figure's element carries ``data-figure``, its
#: label follows it), with the figure's screen box
FIGURE_SIZES = """() => [...document.querySelectorAll('#pieces [data-figure]')]
  .map((body) => {
    const t = body.nextElementSibling;
    const b = body.getBoundingClientRect();
    const box = [b.left, b.top, b.right, b.bottom];
    if (!t || t.tagName !== 'text') return [body.getAttribute('data-figure'), '', 99, box];
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    return [body.getAttribute('data-figure'), t.textContent, px, box];
  })"""


def _overlapping(figs: list[Any]) -> list[tuple[str, str]]:
    """Pairs of figures whose screen boxes overlap by more than a fifth of the smaller
    (figures sharing a space stand round it just apart; their boxes may touch)."""
    out = []
    for i, (a, _, _, p) in enumerate(figs):
        for b, _, _, q in figs[i + 1 :]:
            w = min(p[2], q[2]) - max(p[0], q[0])
            h = min(p[3], q[3]) - max(p[1], q[1])
            side = min(p[2] - p[0], q[2] - q[0], p[3] - p[1], q[3] - q[1])
            if w > side / 5 and h > side / 5:
                out.append((a, b))
    return out


@pytest.mark.parametrize(
    ("rules", "project", "players"),
    [
        ("mount-doom", "mount-doom", 2),
        ("lotr-coop", "lotr-coop", 2),
        ("ringgeister", "ringgeister", 2),
        ("riddle", "riddle-sample", 3),
    ],
)
def test_board_labels_are_legible_at_1400_by_900(
    server: Any, browser: Any, shots: Path, rules: str, project: str, players: int
) -> None:
    """Every name and number the board draws is at least 11 px on screen at 1400 x
    900 with the board fitted; the Riddle map's 300 names, too dense for that, are
    read zoomed in (the table's + button), which keeps them scaled with the zoom."""
    g = create(server.url, rules=rules, project=project, players=players, seed=5)
    page, errors = _seat_page(browser, server.url + g["seats"][0]["url"])
    sizes = page.evaluate(LABEL_SIZES)
    assert len(sizes) >= 3
    small = sorted((round(px, 1), t) for t, px in sizes if px < LEGIBLE_PX)
    figs = page.evaluate(FIGURE_SIZES)
    assert figs, "no figures on the board"
    tiny = sorted((round(px, 1), f, t) for f, t, px, _ in figs if px < LEGIBLE_PX)
    assert _overlapping(figs) == []
    page.screenshot(path=str(shots / f"table-{project}-labels.png"))
    if rules != "riddle":
        assert small == [], small[:8]
        assert tiny == [], tiny[:8]
        return
    assert small, "the Riddle map's names are too small to read at fit"
    steps = 0
    while small and steps < 8:
        page.locator("#zoom button[data-zoom='in']").click()
        steps += 1
        sizes = page.evaluate(LABEL_SIZES)
        small = [t for t, px in sizes if px < LEGIBLE_PX]
    assert small == [] and steps <= 5  # at most 600 %
    # at the zoom where the names read, so do the figures' letters
    figs = page.evaluate(FIGURE_SIZES)
    assert [(f, round(px, 1)) for f, _, px, _ in figs if px < LEGIBLE_PX] == []
    level = page.locator("#zoom-level").inner_text()
    assert level.endswith("%") and int(level.split()[0]) > 100
    # zoomed, the board scrolls inside its area; the side panel stays where it was
    box = page.locator("#board").bounding_box()
    assert box is not None and box["width"] < 1400
    assert page.locator("#board").evaluate("b => b.scrollWidth > b.clientWidth")
    page.screenshot(path=str(shots / f"table-{project}-labels-zoomed.png"))
    page.locator("#zoom button[data-zoom='fit']").click()
    assert page.locator("#zoom-level").inner_text() == "100 %"
    assert errors == []
