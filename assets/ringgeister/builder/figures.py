"""The figures and the cards of the pack, and the figures' places on the default board."""

from __future__ import annotations

import random
from typing import Any

from referee.games.ringgeister.pieces import COLOURS, default_cards, default_piece_types
from referee.model import Board, PieceOnBoard

from .layout import PACK

#: the figures' names in the pack (their rules come from the referee's table)
_NAMES = {"gandalf": "Gandalf", "gollum": "Gollum", "orc": "Orc", "spirit": "Spirit of the Ring"}


def piece_types() -> list[dict[str, Any]]:
    """The referee's standard figures (``default_piece_types``), named, in pack order:
    the Hobbits, the Men, then Gandalf and the black figures."""
    types = {k.split("/", 1)[1]: v for k, v in default_piece_types().items()}
    order = [f"hobbit-{c}" for c in COLOURS] + [f"man-{c}" for c in COLOURS]
    order += ["gandalf", "gollum", "orc", "spirit"]

    def name(pid: str) -> str:
        figure, _, colour = pid.partition("-")
        return f"{colour.title()} {figure.title()}" if colour else _NAMES[pid]

    return [{"id": pid, "name": name(pid), **types[pid]} for pid in order]


def deck() -> dict[str, Any]:
    """The referee's 24 standard cards (``default_cards``) as the pack's deck."""
    return {"id": "cards", "name": "Ringgeister cards", "cards": default_cards()}


def place_figures(board: Board, seed: int = 3) -> None:
    """Light figures on the white starts, black figures on the black starts (seeded)."""
    rnd = random.Random(seed)
    whites = [
        nid
        for nid, _, f in board.world_features()
        if f.kind == "point" and f.props.get("start") == "white"
    ]
    blacks = [
        nid
        for nid, _, f in board.world_features()
        if f.kind == "point" and f.props.get("start") == "black"
    ]
    light = [f"hobbit-{c}" for c in COLOURS] + [f"man-{c}" for c in COLOURS] + ["gandalf"]
    dark = ["gollum"] + [f"orc-{i}" for i in range(1, 9)] + [f"spirit-{i}" for i in range(1, 10)]
    assert len(whites) == len(light) and len(blacks) == len(dark), (len(whites), len(blacks))
    rnd.shuffle(whites)
    rnd.shuffle(blacks)
    board.pieces = []
    for fig, at in zip(light, whites):
        board.pieces.append(PieceOnBoard(fig, f"{PACK}/{fig}", at))
    for fig, at in zip(dark, blacks):
        kind = fig.split("-")[0]
        board.pieces.append(PieceOnBoard(fig, f"{PACK}/{kind}", at))
