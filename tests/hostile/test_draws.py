"""Positions' fixed blind ``draws`` as an attacker meets them.

A refused move is answered to the seat that sent it (``referee serve`` returns the
error's JSON to that seat): when a fixed draw is not in the hand it draws from, the
refusal named every card of that hand, a hand the mover may not see. The answer
names the draw and whose hand, not the hand's cards; nothing changes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.envelopes import new_game_from_position
from referee.errors import IllegalMoveError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "positions" / "examples" / "riddle-friendly-exchange.json"


def test_a_refused_fixed_draw_tells_the_mover_nothing_of_the_hand_it_draws_from() -> None:
    pos = json.loads(EXAMPLE.read_text(encoding="utf-8"))["position"]
    # Sam draws Frodo's Rope, then Frodo's draw from Sam's hand is a card Sam lacks
    pos["draws"] = ["Rope", "Elf Ring"]
    g, _ = new_game_from_position("riddle", str(ROOT / "projects" / "riddle-sample"), pos)
    for move in ("roll", "move s200>s075"):
        g.push(g.parse_move(move))
    before = g.position()
    hidden = list(before["hands"]["sam"])
    assert hidden, before
    frodo_may_see = json.dumps(g.view("frodo"))
    with pytest.raises(IllegalMoveError) as refused:
        g.push(g.parse_move("exchange sam"))
    assert g.position() == before
    answer = json.dumps(refused.value.to_json())
    assert "draws[0]" in answer and "sam's hand" in answer, answer
    for card in hidden:
        ids = {card, g.read_draw(card, "x")}
        for shown in ids:
            if shown not in frodo_may_see:
                assert shown not in answer, (shown, answer)
