"""Positions and schemas: ``position`` and ``schema``.

``referee position STATE [-o FILE] [--names]``
    The position (the human-writable "this situation" of a game, see
    ``docs/game-kit.md``) of a state file; ``referee new RULES PROJECT --position
    FILE`` sets a game up from one. ``--names`` writes places by the rulebook's names
    (``referee board-names``) and cards by their titles wherever the game reads them
    back as the same position.
``referee schema position RULES`` / ``referee schema state RULES`` / ``referee schema
options RULES``
    The JSON Schema of a game's positions, state files or options, generated from
    the game's declarations (a position's ``dice`` say in what order the game
    rolls them).
``referee board-names RULES PROJECT``
    The names the rulebook gives the places of a board (``the Mountain of Fire``,
    ``white starting point 3``) and the ids positions write for them; positions
    accept either.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..envelopes import game_of, guard_state, load_envelope
from ..errors import BoardwrightError, StateError, UsageError
from ..games import get_game
from ..games.base import POSITION_FRAME, Game
from ..games.names import with_names
from ..safeio import write_json
from ..store import read_json_file
from . import emit_json

__all__ = ["read_position", "register"]

SCHEMAS = ("position", "state", "options")


def read_position(path: str, rules: str) -> dict[str, Any]:
    """A position file as a dict; one-line :class:`StateError` naming the file if not."""
    data = read_json_file(path, StateError)
    if not isinstance(data, dict):
        raise StateError("a position must be a JSON object", code="bad_state", location=path)
    if data.get("rules") not in (None, rules):
        raise StateError(
            f"position is for rules {data.get('rules')!r}, not {rules}",
            code="wrong_rules",
            location=path,
        )
    return data


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "position",
        help="print the position of a game state",
        description="Print the position of STATE (figures, piles top first, hands, whose "
        "turn) as JSON, or write it with -o; 'referee new --position' sets a game up "
        "from it.",
    )
    p.add_argument("state")
    p.add_argument("-o", "--output", help="write the position here instead of stdout")
    p.add_argument("--project", help="board to use instead of the one the state names")
    p.add_argument(
        "--names",
        action="store_true",
        help="write places by the rulebook's names (referee board-names) and cards by "
        "their titles instead of ids where the game reads them back; a name several "
        "places (or cards) share stays an id",
    )
    p.add_argument("--json", action="store_true", help="(positions are always JSON)")
    p.set_defaults(func=cmd_position)

    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of a game's positions, states or options",
        description="Print the JSON Schema (draft 2020-12) of KIND (position, state or "
        "options) for RULES, generated from the game's declarations.",
    )
    p.add_argument("kind", choices=SCHEMAS)
    p.add_argument("rules")
    p.add_argument("--json", action="store_true", help="(schemas are always JSON)")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser(
        "board-names",
        help="list the rulebook's names of a board's places and their ids",
        description="List the names RULES gives the places of PROJECT (as the rulebook "
        "counts them) and the ids positions write for them; a position may use either.",
    )
    p.add_argument("rules")
    p.add_argument("project")
    p.add_argument("--json", action="store_true", help="print the names as JSON")
    p.set_defaults(func=cmd_board_names)


def cmd_position(args: argparse.Namespace) -> int:
    env = load_envelope(args.state)
    game = game_of(env, args.project, where=args.state)
    with guard_state(args.state):
        pos = _position(game, args.state)
        if args.names:
            pos = _named(game, pos)
    if args.output:
        write_json(args.output, pos)  # atomic, standard JSON only
        print(f"wrote the position of {args.state} to {args.output}", file=sys.stderr)
    else:
        emit_json(pos)
    return 0


def _position(game: Game[Any], where: str) -> dict[str, Any]:
    if game.POSITION is None:
        raise UsageError(f"{game.rules} has no position format")
    return game.position()


def _named(game: Game[Any], pos: dict[str, Any]) -> dict[str, Any]:
    """``pos`` written by the board's names, each field checked to read back the same."""
    cls, compiled = type(game), game.compiled
    reference = cls.from_position(compiled, pos).to_json()

    def same(trial: dict[str, Any]) -> bool:
        try:
            return cls.from_position(compiled, trial).to_json() == reference
        except BoardwrightError:
            return False

    pairs = [(n.name, n.id) for n in cls.board_names(compiled)]
    named = with_names(pos, pairs, same, keep=POSITION_FRAME)
    titled = game.with_card_titles(named)  # cards by title where they read back the same
    return titled if titled == named or same(titled) else named


def cmd_schema(args: argparse.Namespace) -> int:
    cls = get_game(args.rules)
    if args.kind == "options":
        emit_json(cls.options_schema())
        return 0
    declared = cls.POSITION if args.kind == "position" else cls.STATE
    if declared is None:
        raise UsageError(f"{args.rules} declares no {args.kind} format")
    emit_json(cls.position_schema() if args.kind == "position" else cls.state_schema())
    return 0


def cmd_board_names(args: argparse.Namespace) -> int:
    from ..compiler import compile_board
    from ..store import load_project

    cls = get_game(args.rules)
    compiled = compile_board(load_project(args.project))
    cls.check_board_rules(compiled)
    found = cls.board_names(compiled)
    if args.json:
        emit_json(
            {
                "rules": args.rules,
                "names": [
                    {"name": n.name, "id": n.id, "kind": n.kind, "note": n.note} for n in found
                ],
            }
        )
        return 0
    if not found:
        print(f"{args.rules} names no places of its boards (positions write ids)", file=sys.stderr)
        return 0
    width = max(len(n.name) for n in found)
    id_width = max(len(n.id) for n in found)
    for n in found:
        note = f"  ({n.note})" if n.note else ""
        print(f"{n.name:<{width}}  {n.id:<{id_width}}  {n.kind}{note}")
    return 0
