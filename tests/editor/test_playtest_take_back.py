"""Playtest take-back: Ctrl+Z takes a move back and Ctrl+Shift+Z replays it (the kit's
copies, so the state is exactly the earlier one, dice included); the move list jumps to
any ply; with a bot, taking back returns to the person's last turn."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from editor.playtest_bots import BotDriver

from .conftest import RINGGEISTER, ROOT
from .helpers import focus


def _start(make_window: Any, rules: str = "ringgeister", bots: Any = None) -> tuple[Any, Any]:
    win = make_window()
    proj = RINGGEISTER if rules == "ringgeister" else ROOT / "projects" / rules
    assert win.open_path(proj, offer_recovery=False)
    ctl = win.begin_playtest(rules, seed=7, players=2, bots=bots)
    assert ctl is not None
    return win, ctl


def _safe_move(game: Any) -> str:
    """A legal move after which the game goes on (the first such)."""
    for m in game.legal_moves:
        g = game.copy()
        g.push(m)
        if g.outcome is None and any(True for _ in g.legal_moves):
            return str(m)
    raise AssertionError("every move ends the game")


def _play_first(ctl: Any, n: int) -> list[str]:
    states = [ctl.game.to_json()]
    for _ in range(n):
        assert ctl.play_text(_safe_move(ctl.game))
        states.append(ctl.game.to_json())
    return states


def _windows() -> list[Any]:
    return [w for w in QApplication.topLevelWidgets() if w.isVisible() and w.isWindow()]


@pytest.mark.parametrize("rules", ["ringgeister", "mount-doom"])
def test_ctrl_z_takes_back_and_ctrl_shift_z_replays(
    make_window: Any, qtbot: Any, rules: str
) -> None:
    win, ctl = _start(make_window, rules)
    before = set(_windows())
    states = _play_first(ctl, 3)
    # no stray windows: a hand of cards re-laid out left its old cards as windows on main
    # (windows another test left open in this process are not this test's)
    assert [w for w in _windows() if w not in before] == []
    focus(win, qtbot)
    qtbot.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert ctl.game.to_json() == states[2]
    qtbot.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert ctl.game.to_json() == states[1]
    # the board's tiles show the earlier turns too
    turns = {p.id: p.turns for p in ctl.board.placements}
    ctl.game.compiled  # noqa: B018 - what the referee's board now says
    assert turns == {p.id: p.turns for p in ctl.board.placements}
    qtbot.keyClick(
        win.view,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert ctl.game.to_json() == states[2]
    assert not win.doc.modified  # the board's own undo history is not touched
    rows = [ctl.ply_list.item(i).text() for i in range(ctl.ply_list.count())]
    assert len(rows) == 4 and rows[0] == "start"


def test_clicking_a_ply_jumps_to_it_back_and_forward(make_window: Any, qtbot: Any) -> None:
    _win, ctl = _start(make_window)
    states = _play_first(ctl, 4)
    lst = ctl.ply_list
    qtbot.mouseClick(
        lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(lst.item(1)).center()
    )
    assert ctl.game.to_json() == states[1]
    assert lst.count() == 5  # the taken-back plies stay listed, greyed
    qtbot.mouseClick(
        lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(lst.item(4)).center()
    )
    assert ctl.game.to_json() == states[4]
    qtbot.mouseClick(
        lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(lst.item(0)).center()
    )
    assert ctl.game.to_json() == states[0]
    # a different move from here forgets the plies taken back
    legal = [str(m) for m in ctl.game.legal_moves]
    other = next(m for m in legal if m != lst.item(1).text().split(". ", 1)[1])
    assert ctl.play_text(other)
    assert [lst.item(i).text() for i in range(lst.count())] == ["start", f"1. {other}"]


def test_with_a_bot_taking_back_returns_to_the_persons_turn(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(BotDriver, "delay_ms", 10)
    _win, ctl = _start(make_window, bots={1: "random"})
    person = str(ctl.game.to_move)
    assert not ctl.bot_driver.is_bot_turn()
    # the person plays until the bot is to move; the bot answers
    while True:
        before_last = ctl.game.to_json()
        assert ctl.play_text(_safe_move(ctl.game))
        if ctl.bot_driver.is_bot_turn():
            break
    qtbot.waitUntil(lambda: str(ctl.game.to_move) == person, timeout=20_000)
    assert ctl.take_back()
    # back before the person's last move (taking back to the bot's turn would let it
    # play again at once)
    assert ctl.game.to_json() == before_last and str(ctl.game.to_move) == person
    qtbot.wait(100)
    assert ctl.game.to_json() == before_last
