"""``referee reach``, ``referee path`` and ``referee within``: Riddle of the Ring movement.

The Riddle module's own verbs (``RULES.cli``, :class:`~referee.games.registry.RulesModule`):
``referee`` adds them when the module is installed, as it adds any plug-in's verbs.

Spaces are named by id (``s042``), river dot id (``dot017``) or space name
(``"The Shire"``, case-insensitive); an unknown name fails with the closest names.
"""

from __future__ import annotations

import argparse
from typing import Any

from ...compiler import compile_board
from ...errors import IllegalMoveError, UsageError
from ...safeio import dumps_json
from ...store import load_project
from .movement import Movement, Reach, parse_cards


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "reach",
        help="Riddle of the Ring: every space a move can end on",
        description="List every space or river dot a move from SPACE can end on with up to "
        "ROLL counts and the movement cards used, with the cheapest cost and one "
        "cheapest path. With --fly, list where Eagles/Dragon Birds (anywhere) or "
        "Tom Bombadil (within 6 spaces) can land instead.",
    )
    p.add_argument("project")
    p.add_argument("--from", dest="start", required=True, metavar="SPACE")
    p.add_argument(
        "--roll",
        type=int,
        metavar="N",
        help="die counts or the number on a Horse card (required unless --fly)",
    )
    p.add_argument(
        "--cards",
        default="",
        metavar="CARDS",
        help="movement cards used, comma-separated: boat,cloak,rope",
    )
    p.add_argument(
        "--fly", choices=["eagles", "dragon-birds", "bombadil"], help="a flight instead of a move"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_reach)

    p = sub.add_parser(
        "path",
        help="Riddle of the Ring: check a move step by step",
        description="Check the move FROM, VIA..., TO (each next space one step away) with "
        "ROLL counts and the movement cards used. Exit 0 and print its cost if "
        "legal; exit 1 with the reason (needs_boat, too_far, "
        "must_stop_in_forest, river_without_bridge, not_adjacent, ...) if not.",
    )
    p.add_argument("project")
    p.add_argument("--from", dest="start", required=True, metavar="SPACE")
    p.add_argument("--to", dest="end", required=True, metavar="SPACE")
    p.add_argument(
        "--via",
        action="append",
        default=[],
        metavar="SPACE[,SPACE...]",
        help="the spaces in between, in order (repeat or separate with commas)",
    )
    p.add_argument("--roll", type=int, required=True, metavar="N")
    p.add_argument("--cards", default="", metavar="CARDS")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_path)

    p = sub.add_parser(
        "within",
        help="Riddle of the Ring: spaces within N spaces",
        description="List the spaces within N spaces of SPACE, counting touch steps and "
        "ignoring terrain, rivers and water (Tom Bombadil, leaving Limbo, C "
        "spaces). SPACE itself is listed at distance 0.",
    )
    p.add_argument("project")
    p.add_argument("space")
    p.add_argument("n", type=int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_within)


def _movement(project: str) -> Movement:
    return Movement(compile_board(load_project(project)))


def _cards(text: str) -> list[str]:
    boat, cloak, rope = parse_cards(text)
    return [c for c, on in (("boat", boat), ("cloak", cloak), ("rope", rope)) if on]


def _reach_json(mv: Movement, r: Reach) -> dict[str, Any]:
    out = r.to_json()
    out["name"] = mv.name_of(r.node)
    return out


def cmd_reach(args: argparse.Namespace) -> int:

    mv = _movement(args.project)
    start = mv.resolve(args.start)
    cards = _cards(args.cards)
    if args.fly:
        dest = mv.flight_targets(start, cards, bombadil=args.fly == "bombadil")
        what = {"eagles": "Eagles", "dragon-birds": "Dragon Birds", "bombadil": "Tom Bombadil"}[
            args.fly
        ]
    else:
        if args.roll is None:
            raise UsageError("--roll N is required (or --fly)")
        dest = mv.destinations(start, args.roll, cards)
        what = f"a roll of {args.roll}"
    rows = sorted(dest.values(), key=lambda r: (r.cost, mv.name_of(r.node), r.node))
    if args.json:
        _emit_json(
            {
                "project": args.project,
                "from": start,
                "name": mv.name_of(start),
                "roll": args.roll,
                "cards": cards,
                "fly": args.fly,
                "destinations": [_reach_json(mv, r) for r in rows],
            }
        )
        return 0
    print(
        f"From {mv.name_of(start)} ({start}) with {what}"
        f"{' and ' + ', '.join(cards) if cards else ''}: {len(rows)} destination(s)"
    )
    for r in rows:
        flag = "  stops the turn" if r.stops_turn else ""
        path = " > ".join(mv.name_of(n) for n in r.path)
        print(f"  {r.cost}  {r.node:<8} {mv.name_of(r.node):<24} {path}{flag}")
    return 0


def cmd_path(args: argparse.Namespace) -> int:
    mv = _movement(args.project)
    via = [v.strip() for chunk in args.via for v in chunk.split(",") if v.strip()]
    path = [mv.resolve(x) for x in [args.start, *via, args.end]]
    cards = _cards(args.cards)
    try:
        r = mv.validate(path, args.roll, cards)
    except IllegalMoveError as exc:
        if exc.code == "not_adjacent":
            exc.message += (
                " (give every space in between with --via; `referee reach` lists cheapest paths)"
            )
        raise
    if args.json:
        _emit_json(
            {
                "project": args.project,
                "legal": True,
                "roll": args.roll,
                "cards": cards,
                **_reach_json(mv, r),
                "lost": args.roll - r.cost,
            }
        )
        return 0
    names = " > ".join(mv.name_of(n) for n in r.path)
    print(
        f"legal: {names} uses {r.cost} of {args.roll} count(s)"
        f"{'; the rest is lost' if r.cost < args.roll else ''}"
        f"{'; entering ' + mv.name_of(r.node) + ' ends all movement this turn' if r.stops_turn else ''}"
    )
    return 0


def cmd_within(args: argparse.Namespace) -> int:
    mv = _movement(args.project)
    node = mv.resolve(args.space)
    dist = mv.distances(node, args.n)
    rows = sorted(dist.items(), key=lambda kv: (kv[1], mv.name_of(kv[0]), kv[0]))
    if args.json:
        _emit_json(
            {
                "project": args.project,
                "space": node,
                "name": mv.name_of(node),
                "n": args.n,
                "spaces": [{"node": n, "name": mv.name_of(n), "distance": d} for n, d in rows],
            }
        )
        return 0
    print(f"{len(rows)} space(s) within {args.n} of {mv.name_of(node)} ({node})")
    for n, d in rows:
        print(f"  {d}  {n:<8} {mv.name_of(n)}")
    return 0


def _emit_json(data: Any) -> None:
    """Print one JSON document to stdout, as every ``--json`` verb does
    (:func:`referee.safeio.dumps_json`; the CLI's own verbs print the same)."""
    print(dumps_json(data, "output", indent=1))
