"""The rulebook's names of the cooperative game's places (``referee board-names``).

The rulebook names the Master board's places (Bag End, Rivendell, Moria ... Mount
Doom) and counts the main Activity line of a Scenario by the numbers printed on it
("He advances the marker on the Fighting Activity line onto space 11"); the other
lines and the Corruption line it does not number. The names here: each Master board
place by its name; ``Moria fighting 11`` for a main-line space by its printed number;
``Moria hiding space 2`` for any Activity space counted from the line's start (0);
``corruption space 3`` counted from where the Hobbits start (0) toward the darkness.
Positions accept these names wherever they write a node.
"""

from __future__ import annotations

from ...compiler import CompiledBoard
from ..base import BoardName
from .layout import SAURON_START, coop_layout

__all__ = ["board_names", "place_names"]


def board_names(compiled: CompiledBoard) -> list[BoardName]:
    """The named places of ``compiled`` (see the module docstring).

    Notes
    -----
    O(spaces of the boards): a few hundred names, read from the board's layout.
    """
    lay = coop_layout(compiled)
    out = [
        BoardName(str(loc.get("name") or loc["id"]), str(loc["id"]), "Master board place")
        for loc in lay.master
    ]
    for k, node in enumerate(lay.corruption):
        note = "counted from where the Hobbits start (0) toward the darkness"
        if k == SAURON_START:
            note += "; where Sauron starts unless the option sauron says otherwise"
        out.append(BoardName(f"corruption space {k}", node, "Corruption space", note))
    for sc in lay.scenarios.values():
        for act, line in sc.lines.items():
            kind = f"{sc.name} {act} space"
            for k, node in enumerate(line.points):
                number = line.numbers[k] if line.main and k < len(line.numbers) else None
                if number is not None:
                    out.append(
                        BoardName(
                            f"{sc.name} {act} {number}",
                            node,
                            kind,
                            "the number printed on the main Activity line",
                        )
                    )
                out.append(
                    BoardName(
                        f"{sc.name} {act} space {k}",
                        node,
                        kind,
                        "counted from the line's start (0)",
                    )
                )
    return out


def place_names(compiled: CompiledBoard, kind: str) -> dict[str, str]:
    """Name -> node id of the places whose kind starts with ``kind``."""
    return {n.name: n.id for n in board_names(compiled) if n.kind.startswith(kind)}
