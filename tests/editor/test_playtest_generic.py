"""Click-to-play for every rules module, through the games' ``figures()`` and
``move_targets()`` hooks: Riddle of the Ring and Adventure to Mount Doom played by
clicking a figure, then a ring; the editor decides no rule."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from .conftest import ROOT
from .helpers import click

RIDDLE = ROOT / "projects" / "riddle-sample"
MOUNT_DOOM = ROOT / "projects" / "mount-doom"


def _start(make_window: Any, project: Path, rules: str, seed: int, players: int = 2) -> Any:
    win = make_window()
    assert win.open_path(project, offer_recovery=False)
    win.resize(1400, 900)
    ctl = win.begin_playtest(rules, seed=seed, players=players)
    assert ctl is not None
    return win, ctl


def _click(win: Any, x: float, y: float) -> None:
    win.view.centerOn(x, y)
    click(win.view, x, y)


def _texts(ctl: Any) -> list[str]:
    return [ctl.events.item(i).text() for i in range(ctl.events.count())]


def _roll_from_the_list(ctl: Any) -> None:
    shown = [ctl.moves.item(i).text() for i in range(ctl.moves.count())]
    assert shown == ["roll"]  # 'Roll the die' is the only decision
    ctl.moves.itemDoubleClicked.emit(ctl.moves.item(0))
    assert ctl.targets, "after the roll the marker has somewhere to go"


def test_riddle_click_marker_see_rings_click_one_and_it_moves(make_window: Any) -> None:
    """Riddle, Basic Game: 'roll the die and move your marker that many counts'. After
    the roll (from the move list), clicking the player's marker rings exactly the nodes
    the referee's ``move_targets`` lists; clicking a ring plays that move, the marker
    stands there and the event log narrates the referee's events."""
    win, ctl = _start(make_window, RIDDLE, "riddle", seed=5)
    game = ctl.game
    me = game.to_move
    assert ctl.figures()[me] == game.me.pos  # the marker stands where the state says
    assert not ctl.targets  # nothing moves before the roll
    _roll_from_the_list(ctl)
    _click(win, *ctl.figure_xy(me))
    assert ctl.picked == me
    assert ctl.destinations == set(game.move_targets()[me])
    single = sorted(n for n, ms in ctl.targets[me].items() if len(ms) == 1 and ms[0].verb == "move")
    dest = single[len(single) // 2]
    move = ctl.targets[me][dest][0]
    ref = game.copy()
    ref_events = ref.push(move)
    _click(win, *ctl.xy(dest))
    assert game.to_json() == ref.to_json()
    assert ctl.figures()[me] == dest and game.me.pos == dest
    texts = _texts(ctl)
    assert f"▶ {move}" in texts
    narrated = [t for t in texts if t.strip().startswith("move ·")]
    assert narrated and f"player {me}" in narrated[-1]
    assert f"to {dest}" in narrated[-1] or f"({dest})" in narrated[-1]
    assert len(texts) >= 2 + len(ref_events)
    assert ctl.picked is None and not ctl.destinations
    assert not win.doc.modified


def test_riddle_several_moves_to_one_node_offer_a_menu(make_window: Any) -> None:
    """When a walk and a card flight both reach the clicked node, the editor does not
    choose: it shows a menu of the referee's move texts and plays the one picked."""
    win, ctl = _start(make_window, RIDDLE, "riddle", seed=13)
    _roll_from_the_list(ctl)
    me = ctl.game.to_move
    multi = sorted(n for n, ms in ctl.targets[me].items() if len(ms) > 1)
    if not multi:
        pytest.skip("no node with two moves in this deal")
    node = multi[0]
    options = [str(m) for m in ctl.targets[me][node]]
    want = options[-1]
    _click(win, *ctl.figure_xy(me))
    before = ctl.game.to_json()
    _click(win, *ctl.xy(node))
    menu = ctl.last_menu
    assert menu is not None and menu.isVisible()
    assert [a.text() for a in menu.actions()] == options
    assert ctl.game.to_json() == before  # nothing played until a choice is made
    ref = ctl.game.copy()
    ref.push(ref.parse_move(want))
    next(a for a in menu.actions() if a.text() == want).trigger()
    assert ctl.game.to_json() == ref.to_json()


def test_riddle_click_elsewhere_shows_the_referees_reason(make_window: Any) -> None:
    """A click on a node no legal move reaches asks the referee, which says why; the
    state does not change."""
    win, ctl = _start(make_window, RIDDLE, "riddle", seed=5)
    _roll_from_the_list(ctl)
    me = ctl.game.to_move
    _click(win, *ctl.figure_xy(me))
    graph = ctl.compiled.graph
    far = next(
        n
        for n in sorted(graph)
        if graph.nodes[n].get("kind") == "space"
        and n not in ctl.destinations
        and n != ctl.game.me.pos
    )
    before = ctl.game.to_json()
    ctl.try_elsewhere(me, far)
    assert ctl.game.to_json() == before
    last = _texts(ctl)[-1]
    assert last.startswith("Illegal: ")


def test_riddle_playtest_renders_to_png(make_window: Any, tmp_path: Path) -> None:
    """Render the Riddle playtest with a marker picked (look at the PNG to judge it)."""
    win, ctl = _start(make_window, RIDDLE, "riddle", seed=5)
    _roll_from_the_list(ctl)
    me = ctl.game.to_move
    win.view.fit()
    x, y = ctl.figure_xy(me)
    ctl.click(x, y)
    assert ctl.picked == me
    out = Path(os.environ.get("BOARDWRIGHT_SHOT_DIR", tmp_path)) / "playtest-riddle.png"
    assert win.grab().save(str(out))
    img = QImage(str(out))
    assert img.width() >= 1400 and img.height() >= 900
    # the rings are drawn: green pixels somewhere on the canvas
    vp = win.view.viewport()
    origin = vp.mapTo(win, vp.rect().topLeft())
    pixels = (
        img.pixelColor(px, py)
        for px in range(origin.x(), origin.x() + vp.width(), 3)
        for py in range(origin.y(), origin.y() + vp.height(), 3)
    )
    greens = sum(1 for c in pixels if c.green() > 150 and c.red() < 120 and c.blue() < 140)
    assert greens > 20


def test_mount_doom_companion_moves_by_clicks(make_window: Any) -> None:
    """Adventure to Mount Doom: a card that moves a companion ('move the Ring-bearer 1
    or 2 spaces') is played by clicking the companion, then the space; companions
    sharing a space are drawn apart so each can be clicked."""
    win, ctl = _start(make_window, MOUNT_DOOM, "mount-doom", seed=3)
    game = ctl.game
    steps = 0
    while not ctl.targets and steps < 200 and game.outcome is None:
        ctl.play(ctl.legal()[0])
        steps += 1
    if not ctl.targets:
        pytest.skip("no companion move came up")
    fid = min(ctl.targets)
    xy = {f: ctl.figure_xy(f) for f in ctl.views}
    assert len(set(xy.values())) == len(xy)  # stacked figures are spread out
    _click(win, *ctl.figure_xy(fid))
    assert ctl.picked == fid
    assert ctl.destinations == set(game.move_targets()[fid])
    dest = min(ctl.destinations)
    moves = ctl.targets[fid][dest]
    ref = game.copy()
    ref.push(moves[0])
    if len(moves) > 1:
        pytest.skip("several moves to the first destination")
    _click(win, *ctl.xy(dest))
    assert game.to_json() == ref.to_json()
    assert ctl.figures()[fid] == dest or game.outcome is not None
    texts = _texts(ctl)
    assert f"▶ {moves[0]}" in texts
    assert any(t.strip().startswith(f"{fid} moves from") for t in texts)  # the event's text


def test_ringgeister_counter_setup_is_played_by_clicking_a_dashed_ring(make_window: Any) -> None:
    """Set-up with counters placed by hand (ruling 7): no figure moves, the free counter
    spaces are dashed rings (the game's ``move_targets`` under figure ``""``); a click
    on one places the counter there, as the referee does."""
    from .conftest import RINGGEISTER

    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    ctl = win.begin_playtest("ringgeister", seed=7, players=2, options={})
    if ctl.game.phase != "counters":
        pytest.skip("this board places no counters by hand")
    assert set(ctl.targets) == {""} and ctl.placements
    assert set(ctl.placements) == {m.to for m in ctl.game.legal_moves}
    space = min(ctl.placements)
    (move,) = ctl.placements[space]
    ref = ctl.game.copy()
    ref.push(move)
    _click(win, *ctl.xy(space))
    assert ctl.game.to_json() == ref.to_json()
    assert f"▶ {move}" in _texts(ctl)
