"""Card, then target, in the Playtest dock (offscreen Qt): a card picked in the hand
lights the spaces its moves go to and the players they name; a click on a ringed
space, a lit figure or a player's button plays the move using that card (a choice
when several do); Esc or a second click on the card puts it back. The expected
targets are read from the game's own legal moves and ``move_targets()``.

Screenshots go to ``$BOARDWRIGHT_SCREENSHOTS`` (else the test's temporary folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from .conftest import ROOT
from .helpers import click


def _start(make_window: Any, project: str, rules: str, seed: int, players: int, plies: int) -> Any:
    win = make_window()
    assert win.open_path(ROOT / "projects" / project, offer_recovery=False)
    win.resize(1400, 900)
    ctl = win.begin_playtest(rules, seed=seed, players=players)
    assert ctl is not None
    for _ in range(plies):  # the first legal move, as the list offers it
        assert ctl.play(next(iter(ctl.game.legal_moves)))
    return win, ctl


def _click(win: Any, x: float, y: float) -> None:
    win.view.centerOn(x, y)
    click(win.view, x, y)


def _shot(win: Any, tmp_path: Path, name: str) -> None:
    d = Path(os.environ.get("BOARDWRIGHT_SCREENSHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    QApplication.processEvents()
    win.grab().save(str(d / name))


def _card_moves(ctl: Any, card: str) -> tuple[dict[str, list[str]], list[str]]:
    """The spaces the card's moves go to (``move_targets()``) and its other moves."""
    game = ctl.game
    dest = {str(m): n for d in game.move_targets().values() for n, ms in d.items() for m in ms}
    spaces: dict[str, list[str]] = {}
    other = []
    for m in map(str, game.legal_moves):
        if card not in m.split()[1:]:
            continue
        if m in dest:
            spaces.setdefault(dest[m], []).append(m)
        else:
            other.append(m)
    return spaces, other


def _pick(ctl: Any, want: str) -> tuple[str, Any]:
    hand = ctl.game.view(ctl.game.to_move)["hand"]
    for cid in hand:
        spaces, other = _card_moves(ctl, cid)
        players = [
            m
            for m in other
            if any(w in ctl.game.players for w in m.split()[m.split().index(cid) + 1 :])
        ]
        if (want == "spaces" and spaces) or (want == "players" and players):
            frame = ctl.hand.cards[hand.index(cid)]
            frame.mousePressEvent(None)  # type: ignore[arg-type]
            assert ctl.hand.picked == cid
            return cid, frame
    raise AssertionError(f"no card in {hand} with {want} targets")


def _esc(win: Any) -> None:
    ev = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    assert win.view.tool.key(ev)


def test_riddle_and_coop_a_card_then_a_ringed_space(make_window: Any, tmp_path: Path) -> None:
    for rules, project, players, seed, plies in (
        ("riddle", "riddle-sample", 3, 0, 1),
        ("lotr-coop", "lotr-coop", 2, 0, 1),
    ):
        win, ctl = _start(make_window, project, rules, seed, players, plies)
        cid, frame = _pick(ctl, "spaces")
        spaces, _ = _card_moves(ctl, cid)
        assert ctl.card_plays is not None
        assert ctl.card_plays.spaces == spaces  # exactly the card's spaces are ringed
        listed = [ctl.moves.item(i).text() for i in range(ctl.moves.count())]
        assert listed and all(cid in m.split() for m in listed)
        title = ctl.game.view(ctl.game.to_move)["cards"][cid]["title"]
        assert ctl.hint_label.text().startswith(f"{title}: click a blue ring")
        _shot(win, tmp_path, f"playtest-{project}-card-targets.png")
        frame.mousePressEvent(None)  # type: ignore[arg-type]  # again: put back
        assert ctl.card_plays is None and ctl.hand.picked is None
        frame.mousePressEvent(None)  # type: ignore[arg-type]
        _esc(win)
        assert ctl.card_plays is None and ctl.hand.picked is None
        frame.mousePressEvent(None)  # type: ignore[arg-type]
        node = next((n for n in sorted(spaces) if len(spaces[n]) == 1), sorted(spaces)[0])
        before = len(ctl.history.played)
        _click(win, *ctl.xy(node))
        if len(spaces[node]) > 1:
            menu = ctl.last_menu
            assert menu is not None and [a.text() for a in menu.actions()] == spaces[node]
            menu.actions()[0].trigger()
        said = [ctl.events.item(i).text() for i in range(ctl.events.count())][-3:]
        assert len(ctl.history.played) == before + 1, (said, ctl.hand.picked, node)
        assert ctl.history.played[-1].text in spaces[node]
        assert ctl.hand.picked is None and ctl.card_plays is None  # the card is played


def test_riddle_and_coop_a_card_then_a_player(make_window: Any, tmp_path: Path) -> None:
    for rules, project, players, seed, plies in (
        ("riddle", "riddle-sample", 3, 5, 1),
        ("lotr-coop", "lotr-coop", 2, 1, 2),
    ):
        win, ctl = _start(make_window, project, rules, seed, players, plies)
        cid, _ = _pick(ctl, "players")
        _, other = _card_moves(ctl, cid)
        on: dict[str, list[str]] = {}
        for m in other:
            ws = m.split()
            hit = next((w for w in ws[ws.index(cid) + 1 :] if w in ctl.game.players), None)
            if hit:
                on.setdefault(hit, []).append(m)
        assert ctl.card_plays is not None and ctl.card_plays.players == on
        QApplication.processEvents()
        assert ctl.seat_row.isVisibleTo(win)
        enabled = sorted(p for p, b in ctl.seat_buttons.items() if b.isEnabled())
        assert enabled == sorted(on)
        _shot(win, tmp_path, f"playtest-{project}-card-players.png")
        before = len(ctl.history.played)
        who = max(on, key=lambda p: len(on[p]))
        if who in ctl.views:  # the player's own figure on the board is a target too
            _click(win, *ctl.figure_xy(who))
        else:
            ctl.seat_buttons[who].click()
        if len(on[who]) > 1:
            menu = ctl.last_menu
            assert menu is not None and menu.isVisible()
            assert [a.text() for a in menu.actions()] == on[who]
            assert len(ctl.history.played) == before  # nothing played before the choice
            _shot(win, tmp_path, f"playtest-{project}-card-choice.png")
            menu.actions()[-1].trigger()
        assert len(ctl.history.played) == before + 1
        assert ctl.history.played[-1].text in on[who]
