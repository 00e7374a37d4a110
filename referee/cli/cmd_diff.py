"""``referee diff OLD NEW``: what changed between two versions of a board."""

from __future__ import annotations

import argparse

from ..store import load_project
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "diff",
        help="compare two versions of a board: tiles, nodes, edges, properties",
        description="Compile OLD and NEW (project files, JSON exports or folders) and list "
        "what differs: tiles turned/moved/swapped, features edited, then nodes and "
        "edges added, removed or changed, each with the cause found (e.g. "
        "'path t07/c–t08/c removed: tile t08 turned (1 → 3)'). Exit 0 when the "
        "boards are equal, 1 when they differ.",
    )
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--json", action="store_true", help="print the differences as JSON")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    from ..diff import diff_boards

    d = diff_boards(load_project(args.old), load_project(args.new))
    if args.json:
        emit_json({"old": args.old, "new": args.new, **d.to_json()})
    elif d.equal:
        print(f"{args.old} and {args.new}: no differences")
    else:
        for line in d.lines():
            print(line)
        s = d.summary()
        print("; ".join(f"{v} {k.replace('_', ' ')}" for k, v in s.items()))
    return 0 if d.equal else 1
