"""Race, the example rules module: an installable package registered through the
``boardwright.rules`` entry point (see ``docs/writing-a-rules-module.md``)."""

from __future__ import annotations

from referee.games import RulesModule
from referee.vocabulary import Symbol

from .game import Race, RaceMove, board_problems, register_cli

#: the descriptor the entry point names
RULES = RulesModule(
    name="race",
    game=Race,
    props={"point": {"again": {"type": "bool"}}},
    board_checks=(board_problems,),
    symbols={
        "runner": Symbol("R", "#c62828"),
        # a point where the runner rolls again: drawn by `referee render` and the editor
        "point.again": Symbol("+", "#f9a825", "diamond", size=3.0, stroke="#5d4037", title="again"),
    },
    cli=register_cli,
    # package data, relative to this package (RulesModule.resolve): found from a wheel too
    positions=("data/race-start.json",),
    sample="data/race-demo.json",
)

__all__ = ["RULES", "Race", "RaceMove"]
