"""Race, the example rules module: an installable package registered through the
``boardwright.rules`` entry point (see ``docs/writing-a-rules-module.md``)."""

from __future__ import annotations

from pathlib import Path

from referee.games import RulesModule, Symbol

from .game import Race, RaceMove, board_problems, register_cli

DATA = Path(__file__).resolve().parent / "data"

#: the descriptor the entry point names
RULES = RulesModule(
    name="race",
    game=Race,
    props={"point": {"again": {"type": "bool"}}},
    board_checks=(board_problems,),
    symbols={"runner": Symbol("R", "#c62828")},
    cli=register_cli,
    positions=(str(DATA / "race-start.json"),),
    sample=str(DATA / "race-demo.json"),
)

__all__ = ["RULES", "Race", "RaceMove"]
