"""How the Rotations dock writes figures: numbers, alike turns, id lists, stages."""

from __future__ import annotations

STAGES = {
    "count": "counting configurations",
    "critical": "ranking tiles",
    "fewest": "finding the fewest reachable points",
    "sample": "sampling",
}


def fmt_int(n: int) -> str:
    """``170271648`` -> ``"170 271 648"`` (as the CLI prints it)."""
    return f"{n:,}".replace(",", " ")


def fmt_classes(classes: list[list[int]]) -> str:
    """A tile's alike turns: ``[[0, 2], [1, 3]]`` -> ``"{0,2} {1,3}"``."""
    return " ".join("{" + ",".join(map(str, c)) + "}" for c in classes)


def _names(ids: list[str], most: int = 4) -> str:
    if len(ids) <= most:
        return ", ".join(ids) or "—"
    return f"{', '.join(ids[:2])}, …, {ids[-1]} ({len(ids)})"
