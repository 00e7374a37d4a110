"""Small hand-made Riddle of the Ring maps for the card-game tests."""

from __future__ import annotations

import pytest
import shapely

from referee.compiler import compile_board
from referee.games.riddle import flow
from referee.model import Board, Feature

# 5 x 5 grid of 10 mm squares; spaces are "r<row>c<col>".
#   row 0:  shire  .      good   .      lake
#   row 1:  .      neutr  forest G      .
#   row 2:  evil   .      exit   mount  .
#   row 3:  .      C      .      S      .
#   row 4:  barad  .      .      .      cracks
SPECIAL: dict[tuple[int, int], dict] = {
    (0, 0): {"role": "shire", "name": "The Shire"},
    (0, 2): {"city": "good", "name": "Rivendell"},
    (0, 4): {"terrain": "lake", "name": "Lake"},
    (1, 1): {"city": "neutral", "name": "Bree"},
    (1, 2): {"terrain": "forest"},
    (1, 3): {"letters": ["G"]},
    (2, 0): {"city": "evil", "name": "Minas Morgul"},
    (2, 2): {"role": "exit_limbo", "name": "Exit Limbo"},
    (2, 3): {"terrain": "mountain"},
    (3, 1): {"letters": ["C"]},
    (3, 3): {"letters": ["S"]},
    (4, 0): {"role": "barad_dur", "name": "Barad-Dur"},
    (4, 4): {"role": "cracks_of_doom", "name": "Cracks of Doom"},
}


def grid_board(rows: int = 5, cols: int = 5, special=None) -> Board:
    special = SPECIAL if special is None else special
    feats = []
    for r in range(rows):
        for c in range(cols):
            props = {"terrain": "open"}
            props.update(special.get((r, c), {}))
            feats.append(
                Feature(
                    f"r{r}c{c}",
                    "space",
                    shapely.box(c * 10, r * 10, c * 10 + 10, r * 10 + 10),
                    props,
                )
            )
    return Board(meta={"name": "riddle test grid", "rules": "riddle"}, features=feats)


@pytest.fixture(scope="session")
def grid():
    """The test grid compiled; the game uses the real movement referee on it."""
    return compile_board(grid_board())


# ---------------------------------------------------------------- arranging states
def new_game(compiled, players=4, seed=1, **options):
    from referee.games.riddle import RiddleGame

    return RiddleGame.new(compiled, players=players, seed=seed, options=options)


def take_card(g, card: str) -> None:
    """Remove ``card`` from wherever it is (piles, hands, tables)."""
    for lst in (
        [g.draw_pile, g.discard_pile] + [p.hand for p in g.seats] + [p.table for p in g.seats]
    ):
        if card in lst:
            lst.remove(card)
            return
    raise AssertionError(f"{card} not found")


def hand(g, name: str, *cards: str) -> None:
    """Give ``name`` exactly these cards (the old hand goes back to the draw pile)."""
    p = g._by[name]
    g.draw_pile.extend(p.hand)
    p.hand.clear()
    for c in cards:
        take_card(g, c)
        p.hand.append(c)


def put(g, name: str, pos: str) -> None:
    p = g._by[name]
    p.pos, p.status = pos, "board"


def turn_of(g, name: str, roll: int = 3) -> None:
    """Make it ``name``'s turn, already rolled ``roll``, before moving."""
    g.cur = g.seats.index(g._by[name])
    flow.begin_turn(g, [])
    if g.phase == "start":
        g.phase = "main"
        g.t.roll = roll


def moves(g) -> set[str]:
    return {str(m) for m in g.legal_moves}
