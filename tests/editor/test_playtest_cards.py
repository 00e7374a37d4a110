"""The Playtest dock shows the hand of the player to move as card faces (titles and
text from the deck data, through the game's view), as the browser table does, and a
card clicked keeps only its moves in the move list.

Screenshots go to ``$BOARDWRIGHT_SCREENSHOTS`` (else the test's temporary folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT


@pytest.mark.parametrize(
    ("rules", "project", "players"),
    [
        ("lotr-coop", "lotr-coop", 2),
        ("riddle", "riddle-sample", 3),
        ("mount-doom", "mount-doom", 2),
    ],
)
def test_the_hand_is_shown_as_cards_with_titles(
    make_window: Any, tmp_path: Path, rules: str, project: str, players: int
) -> None:
    win = make_window()
    assert win.open_path(ROOT / "projects" / project, offer_recovery=False)
    ctl = win.begin_playtest(rules, seed=5, players=players)
    assert ctl is not None
    view = ctl.game.view(ctl.game.to_move)
    hand = view["hand"]
    assert hand, "the player to move holds cards"
    shown = ctl.hand.cards
    assert [c.cid for c in shown] == hand
    for frame, cid in zip(shown, hand, strict=True):
        title = view["cards"][cid]["title"]
        assert frame.accessibleName() == title
        assert title in frame.label.text()
    assert ctl.hand_area.isVisibleTo(win)
    d = Path(os.environ.get("BOARDWRIGHT_SCREENSHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    assert all(c.isVisibleTo(win) and c.width() > 50 for c in shown)
    win.grab().save(str(d / f"playtest-{project}-hand.png"))
    # a card clicked: only the moves that name it
    usable = next((c for c in hand if any(c in str(m).split() for m in ctl.game.legal_moves)), None)
    if usable is not None:
        ctl.hand.cards[hand.index(usable)].mousePressEvent(None)  # type: ignore[arg-type]
        listed = [ctl.moves.item(i).text() for i in range(ctl.moves.count())]
        assert listed and all(usable in m.split() for m in listed)
        ctl.hand.cards[hand.index(usable)].mousePressEvent(None)  # type: ignore[arg-type]
        assert ctl.moves.count() == min(500, len(list(ctl.game.legal_moves)))
