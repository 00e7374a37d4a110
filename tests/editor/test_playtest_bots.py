"""Bot seats in the Playtest (issue 19): a seat given to a bot plays by itself, off the
GUI thread, after a short delay; a person cannot play the bot's turn; the dialog
builds its seats and options from the game."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from editor.game_options import OptionsForm
from editor.playtest_bots import BotDriver
from editor.playtest_setup import PlaytestSetupDialog
from referee.games import get_game
from referee.games.options import Option

from .conftest import RINGGEISTER


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BotDriver, "delay_ms", 10)


def _start(make_window: Any, bots: dict[int, str]) -> tuple[Any, Any]:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    ctl = win.begin_playtest("ringgeister", seed=7, players=2, bots=bots)
    assert ctl is not None and ctl.bot_driver is not None
    return win, ctl


def test_a_bot_seat_plays_a_legal_move_by_itself(make_window: Any, qtbot: Any) -> None:
    _win, ctl = _start(make_window, {0: "random"})
    first = str(ctl.game.to_move)
    assert ctl.bot_driver.is_bot_turn() and first in ctl.bot_driver.bots
    legal = {str(m) for m in ctl.game.legal_moves}
    with qtbot.waitSignal(ctl.bot_driver.moved, timeout=20_000) as sig:
        pass  # the bot starts from the playtest's first refresh
    seat, move = sig.args
    assert seat == first and move in legal
    assert str(ctl.game.to_move) != first  # now the person's turn: the bot waits
    assert any(move in ctl.events.item(i).text() for i in range(ctl.events.count()))
    assert sum(1 for e in ctl.log if e.get("type") == "move") == 1
    qtbot.wait(50)
    assert ctl.bot_driver.thinker is None and not ctl.bot_driver.timer.isActive()


def test_a_person_cannot_play_the_bots_turn(make_window: Any, qtbot: Any) -> None:
    _win, ctl = _start(make_window, {0: "greedy"})
    ctl.bot_driver.timer.stop()  # hold the bot back for a moment
    before = ctl.game.copy()
    move = next(iter(ctl.game.legal_moves))
    assert not ctl.play(move)
    assert "bot" in ctl.events.item(ctl.events.count() - 1).text()
    assert str(ctl.game.to_move) == str(before.to_move)
    ctl.bot_driver.after_refresh()
    with qtbot.waitSignal(ctl.bot_driver.moved, timeout=20_000):
        pass


def test_two_mcts_bots_play_several_moves_while_the_window_stays_responsive(
    make_window: Any, qtbot: Any
) -> None:
    win, ctl = _start(make_window, {0: "mcts:iterations=20", 1: "random"})
    played: list[tuple[str, str]] = []
    ctl.bot_driver.moved.connect(lambda seat, move: played.append((seat, move)))
    qtbot.waitUntil(lambda: len(played) >= 4, timeout=60_000)
    assert {s for s, _ in played} == set(ctl.bot_driver.bots)
    win.stop_playtest()  # stops the bots, no thread left behind
    n = len(played)
    qtbot.wait(100)
    assert len(played) == n


def test_the_dialog_offers_a_person_or_a_bot_for_every_seat(make_window: Any) -> None:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    dlg = PlaytestSetupDialog(win.doc.board, win)
    dlg.players_box.setValue(3)
    assert len(dlg.seat_rows) == 3
    dlg.seat_rows[1].kind.setCurrentIndex(dlg.seat_rows[1].kind.findData("mcts"))
    dlg.seat_rows[1].budget.setValue(50)
    dlg.seat_rows[2].kind.setCurrentIndex(dlg.seat_rows[2].kind.findData("random"))
    assert dlg.bots() == {1: "mcts:iterations=50", 2: "random"}
    dlg.players_box.setValue(2)
    assert dlg.bots() == {1: "mcts:iterations=50"}
    # Ringgeister's declared options, the quick set-up preset (counters at random)
    assert dlg.options()["counter_placement"] == "random"
    assert set(dlg.options_form.widgets) == {o.name for o in get_game("ringgeister").OPTIONS}


def test_the_seat_list_is_the_bot_registry(make_window: Any) -> None:
    """Every registered bot (``referee.bots.BOTS``) is offered, under its label."""
    from referee.bots import BOTS

    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    kind = PlaytestSetupDialog(win.doc.board, win).seat_rows[0].kind
    offered = [(kind.itemText(i), kind.itemData(i)) for i in range(kind.count())]
    assert offered == [("Person", None)] + [(f"Bot: {b.label}", n) for n, b in BOTS.items()]
    assert ("Bot: MCTS", "mcts") in offered


def test_options_widgets_come_from_the_games_options_table(
    monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    table = (
        Option("variant", str, "default", choices=("A", "B", "default"), help="counters"),
        Option("laps", int, 1, low=1, high=9, help="laps to win"),
        Option("fast", bool, False),
    )
    monkeypatch.setattr(get_game("riddle"), "OPTIONS", table)
    form = OptionsForm("riddle")
    qtbot.addWidget(form)
    assert isinstance(form.widgets["variant"], QComboBox)
    assert isinstance(form.widgets["laps"], QSpinBox) and form.widgets["laps"].maximum() == 9
    assert isinstance(form.widgets["fast"], QCheckBox)
    assert form.widgets["laps"].toolTip() == "laps to win"
    form.widgets["variant"].setCurrentIndex(1)
    form.widgets["fast"].setChecked(True)
    form.free.setText("extra=3")
    assert form.values() == {"variant": "B", "laps": 1, "fast": True, "extra": 3}
