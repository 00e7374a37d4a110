"""Playtest a Ringgeister move against the referee: destinations come from legal_moves,
a click plays, an illegal attempt shows the referee's reason and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import RINGGEISTER
from .helpers import click


def _start(make_window: Any) -> Any:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    ctl = win.begin_playtest("ringgeister", seed=7, players=2)
    assert ctl is not None
    return win, ctl


def test_click_figure_shows_legal_destinations_and_plays(make_window: Any) -> None:
    """Ruling 1/2: a coloured figure moves to the next free point; the editor shows exactly
    the referee's legal destinations for the clicked figure and plays the one clicked."""
    win, ctl = _start(make_window)
    game = ctl.game
    legal = list(game.legal_moves)
    fig = next(m.figure for m in legal if m.figure)
    expected = {m.to for m in legal if m.figure == fig}
    at = ctl.figures()[fig]
    x, y = ctl.xy(at)
    win.view.centerOn(x, y)
    click(win.view, x, y)
    assert ctl.picked == fig
    assert ctl.destinations == expected
    dest = sorted(expected)[0]
    dx, dy = ctl.xy(dest)
    win.view.centerOn(dx, dy)
    ref = game.copy()  # what the referee itself does
    ref_events = ref.push(ref.parse_move(f"{fig} {dest}"))
    click(win.view, dx, dy)
    assert game.to_json() == ref.to_json()
    texts = [ctl.events.item(i).text() for i in range(ctl.events.count())]
    assert any(t == f"▶ {fig} {dest}" for t in texts)
    for ev in ref_events:  # the referee's narration, in order
        assert any(t.strip() == ev["text"] for t in texts)
    assert ctl.picked is None and not ctl.destinations
    # the document is untouched by the game
    assert not win.doc.modified


def test_illegal_attempt_shows_the_referees_reason(make_window: Any) -> None:
    """The editor never decides a rule: clicking a point that is not a destination asks the
    referee, which says why; the game state does not change."""
    _win, ctl = _start(make_window)
    game = ctl.game
    legal = list(game.legal_moves)
    fig = next(m.figure for m in legal if m.figure)
    ctl.pick(fig)
    here = ctl.figures()[fig]
    before = game.to_json()
    assert not ctl.play_text(f"{fig} {here}")  # standing still is not a move
    assert game.to_json() == before
    last = ctl.events.item(ctl.events.count() - 1).text()
    assert last.startswith("Illegal: ")
    from referee.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError) as exc:
        game.check(game.parse_move(f"{fig} {here}"))
    assert str(exc.value) in last


def test_stop_playtest_restores_editing(make_window: Any) -> None:
    win, _ctl = _start(make_window)
    assert not win.tool_actions["select"].isEnabled()
    win.stop_playtest()
    assert win.playtest is None and win.tool_actions["select"].isEnabled()
    assert win.view.tool is win.tools["select"]


def test_other_rules_play_from_the_move_list(make_window: Any) -> None:
    """Rules whose figures the canvas does not draw are still playable: the dock lists the
    referee's legal moves; double-clicking one plays it."""
    from .conftest import ROOT

    proj = ROOT / "projects" / "mount-doom"
    win = make_window()
    assert win.open_path(proj, offer_recovery=False)
    ctl = win.begin_playtest("mount-doom", seed=3, players=2)
    assert ctl is not None
    legal = [str(m) for m in ctl.game.legal_moves]
    shown = [ctl.moves.item(i).text() for i in range(ctl.moves.count())]
    assert shown == legal
    ref = ctl.game.copy()
    ref.push(ref.parse_move(legal[0]))
    ctl.moves.itemDoubleClicked.emit(ctl.moves.item(0))
    assert ctl.game.to_json() == ref.to_json()
