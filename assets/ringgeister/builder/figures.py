"""The figures and the cards of the pack, and the figures' places on the default board."""

from __future__ import annotations

import random
from typing import Any

from referee.model import Board, PieceOnBoard

from .layout import PACK

COLOURS = ("yellow", "orange", "purple", "green")


def piece_types() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in COLOURS:
        out.append(
            {
                "id": f"hobbit-{c}",
                "name": f"{c.title()} Hobbit",
                "side": "light",
                "figure": "hobbit",
                "colour": c,
                "size": "small",
                "count": 1,
            }
        )
    for c in COLOURS:
        out.append(
            {
                "id": f"man-{c}",
                "name": f"{c.title()} Man",
                "side": "light",
                "figure": "man",
                "colour": c,
                "size": "medium",
                "count": 1,
            }
        )
    out.append(
        {
            "id": "gandalf",
            "name": "Gandalf",
            "side": "light",
            "figure": "gandalf",
            "colour": "white",
            "size": "large",
            "count": 1,
        }
    )
    out.append(
        {
            "id": "gollum",
            "name": "Gollum",
            "side": "black",
            "figure": "gollum",
            "colour": "black",
            "size": "small",
            "count": 1,
        }
    )
    out.append(
        {
            "id": "orc",
            "name": "Orc",
            "side": "black",
            "figure": "orc",
            "colour": "black",
            "size": "medium",
            "count": 8,
        }
    )
    out.append(
        {
            "id": "spirit",
            "name": "Spirit of the Ring",
            "side": "black",
            "figure": "spirit",
            "colour": "black",
            "size": "large",
            "count": 9,
        }
    )
    return out


def deck() -> dict[str, Any]:
    cards = [
        {"id": f"{c}-{hand}-{image}", "ringbearer": c, "hand": hand, "image": image}
        for c in COLOURS
        for hand in ("forward", "backward")
        for image in ("moon", "star", "storm")
    ]
    return {"id": "cards", "name": "Ringgeister cards", "cards": cards}


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
