"""The rulebook's names of a Mount Doom board's places (``referee board-names``).

The rulebook names the stage goals (Lothlórien, Rohan, Helm's Deep, Gondor, Minas
Morgul, Mount Doom), Rivendell where the companions start, the rally space beside
Minas Morgul, and on the resolve track its two hearts: the One Ring moves "toward the
bright heart" (resolve grows) or "toward the dark heart". The board's ids count the
route from Rivendell (``r00``) and the resolve track from its bright end
(``resolve00``); the names say so. Positions accept these names wherever they write
a companion's space or the Ring's.
"""

from __future__ import annotations

from ...compiler import CompiledBoard
from ..base import BoardName
from .layout import layout_of

__all__ = ["board_names", "place_names"]


def board_names(compiled: CompiledBoard) -> list[BoardName]:
    """The named places of ``compiled`` (see the module docstring).

    Notes
    -----
    O(route + resolve track): a few dozen names, read from the board's layout.
    """
    lay = layout_of(compiled)
    out = [BoardName("Rivendell", lay.route[0], "route space", "where the companions start")]
    for stage, gi in enumerate(lay.goals, 1):
        out.append(
            BoardName(lay.goal_names[gi], lay.route[gi], "stage goal", f"the goal of stage {stage}")
        )
    out.append(
        BoardName(
            "the rally space",
            lay.rally,
            "rally space",
            "beside Minas Morgul: companions who moved past it",
        )
    )
    for k, node in enumerate(lay.route):
        out.append(
            BoardName(
                f"route space {k}",
                node,
                "route space",
                "counted from Rivendell (0) toward Mount Doom",
            )
        )
    marks = {
        0: "the bright heart's end (most resolve)",
        lay.ring_start: "where the One Ring starts",
        lay.sauron_eye: "where Sauron's Eye pulls the One Ring",
        lay.dark_end: "the last space before the dark heart: beyond it the game is lost",
    }
    out.append(BoardName("the bright heart", lay.resolve[0], "resolve space", marks[0]))
    out.append(
        BoardName(
            "the One Ring's start",
            lay.resolve[lay.ring_start],
            "resolve space",
            marks[lay.ring_start],
        )
    )
    out.append(
        BoardName("the dark heart", lay.resolve[lay.dark_end], "resolve space", marks[lay.dark_end])
    )
    for k, node in enumerate(lay.resolve):
        note = "counted from the bright heart (0) toward the dark heart"
        out.append(
            BoardName(
                f"resolve space {k}",
                node,
                "resolve space",
                f"{note}; {marks[k]}" if k in marks else note,
            )
        )
    return out


def place_names(compiled: CompiledBoard, kind: str) -> dict[str, str]:
    """Name -> node id of the places of ``kind`` (``"route"``: route spaces, stage
    goals and the rally space; ``"resolve"``: the resolve track)."""
    kinds = (
        ("resolve space",) if kind == "resolve" else ("route space", "stage goal", "rally space")
    )
    return {n.name: n.id for n in board_names(compiled) if n.kind in kinds}
