"""Tooltips for the Inspector's fields: what each property means and takes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: what the well-known fields mean (the compiler's own, and the board's and a tile's)
MEANING = {
    ("board", "name"): "The board's name (shown in titles and exports)",
    ("board", "rules"): "The rules module that judges this board (referee check, Playtest)",
    ("board", "width"): "The board sheet's width in millimetres",
    ("board", "height"): "The board sheet's height in millimetres",
    ("tile", "x"): "The tile centre's x in millimetres (Left/Right arrows nudge it)",
    ("tile", "y"): "The tile centre's y in millimetres (Up/Down arrows nudge it)",
    ("tile", "turns"): "Quarter turns clockwise (a hexagon: sixth turns); R / Shift+R turn it",
    ("port", "side"): "The side of its tile the port faces; ports meet a facing port",
    ("path", "medium"): "land, or water (a river crossing by path)",
    ("counter_space", "arrival"): "The spaces a counter arrives at from here (feature ids)",
    ("river_dot", "city"): "The city space this river dot lies in",
    ("track", "points"): "The points of the track in order (feature ids)",
    ("art", "image"): "A project picture fitted to the shape and clipped to it",
}


def _takes(spec: Mapping[str, Any]) -> str:
    t = spec.get("type")
    if t == "enum":
        vals = [str(v) for v in spec.get("values", []) if v is not None]
        unset = " (or unset)" if None in spec.get("values", []) else ""
        return f"one of {', '.join(vals)}{unset}"
    return {
        "str": "text",
        "number": "a number",
        "ids": "feature ids, comma-separated",
        "bool": "on or off",
        "int": "a whole number",
    }.get(str(t), str(t))


def field_tip(kind: str, key: str, spec: Mapping[str, Any] | None = None) -> str:
    """The tooltip of the field ``key`` of a ``kind`` (``"board"``, ``"tile"`` or a kind)."""
    meaning = MEANING.get((kind, key)) or (
        "Its name, shown on the board and in moves" if key == "name" else None
    )
    head = meaning or f"The {kind.replace('_', ' ')}'s {key.replace('_', ' ')} property"
    return f"{head} — {_takes(spec)}" if spec else head
