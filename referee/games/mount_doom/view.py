"""What a frontend draws of a game of Adventure to Mount Doom, and where moves go."""

from __future__ import annotations

from typing import ClassVar

from ...vocabulary import FigureView
from .layout import COMPANIONS, RINGBEARER
from .moves import Move
from .state import RALLY, MountDoomBase


class MountDoomView(MountDoomBase):
    """:meth:`figures` and :meth:`move_destination` of the game."""

    #: stand colours of the pack's figures, as fill colours
    STAND_COLOURS: ClassVar[dict[str, str]] = {
        "orange": "#f57c00",
        "green": "#2e7d32",
        "blue": "#1e88e5",
        "red": "#c62828",
        "yellow": "#fdd835",
    }
    COMPANION_LABELS: ClassVar[dict[str, str]] = {
        "ringbearer": "FS",
        "aragorn": "A",
        "legolas": "L",
        "gimli": "G",
        "merry-pippin": "MP",
    }

    def _companion_node(self, index: int) -> str:
        return self.lay.rally if index == RALLY else self.lay.route[index]

    def figures(self) -> dict[str, FigureView]:
        """The companions on the route (or the rally space), the One Ring on the resolve
        track, the Witch-king and the Nazgûl at Minas Morgul, the Uruk-hai at Isengard,
        and the top card of each encounter row position (``row-<die number>``, kind
        ``card``: face up with its title's initials and its title on hover, face down
        as a dark back marked ``?``).

        Everything belongs to the Fellowship (``owner`` ``None``): every player moves
        every companion.
        """
        lay, pieces = self.lay, self.compiled.board.piece_types
        out: dict[str, FigureView] = {}
        for c in COMPANIONS:
            spec = pieces.get(f"mount-doom/{c}", {})
            out[c] = FigureView(
                id=c,
                node=self._companion_node(self.pos[c]),
                label=self.COMPANION_LABELS[c],
                colour=self.STAND_COLOURS.get(str(spec.get("stand")), "#9e9e9e"),
                side="fellowship",
                name=str(spec.get("name", c)),
                size=2 if c == RINGBEARER else 1,
            )
        out["one-ring"] = FigureView(
            id="one-ring",
            node=lay.resolve[self.ring],
            label="R",
            colour="#ffd54f",
            side="marker",
            name="The One Ring",
            size=0,
        )
        if not self.witch_king_defeated:
            out["witch-king"] = FigureView(
                id="witch-king",
                node=lay.nazgul_spaces[0],
                label="WK",
                colour="#212121",
                side="shadow",
                name="Witch-king of Angmar",
                size=1,
            )
        for k in range(1, min(self.nazgul, len(lay.nazgul_spaces))):
            out[f"nazgul-{k}"] = FigureView(
                id=f"nazgul-{k}",
                node=lay.nazgul_spaces[k],
                label="N",
                colour="#424242",
                side="shadow",
                name=f"Nazgûl {k}",
                size=0,
            )
        if self.leader:
            out["uruk-hai-leader"] = FigureView(
                id="uruk-hai-leader",
                node=lay.isengard[0],
                label="UL",
                colour="#5d4037",
                side="shadow",
                name="Uruk-hai leader",
                size=1,
            )
        for k in range(1, min(self.uruk, len(lay.isengard) - 1) + 1):
            out[f"uruk-hai-{k}"] = FigureView(
                id=f"uruk-hai-{k}",
                node=lay.isengard[k],
                label="U",
                colour="#8d6e63",
                side="shadow",
                name=f"Uruk-hai warrior {k}",
                size=0,
            )
        for k, stack in enumerate(self.row):
            if not stack:
                continue
            top = stack[-1]
            card = lay.cards.get(top["card"], {})
            title = str(card.get("name", top["card"]))
            under = f", {len(stack)} cards" if len(stack) > 1 else ""
            out[f"row-{k + 1}"] = FigureView(
                id=f"row-{k + 1}",
                node=lay.row[k],
                label="".join(w[:1] for w in title.split()[:2]).upper() if top["up"] else "?",
                colour="#fffdf6" if top["up"] else "#5b4a2f",
                side="card",
                name=(f"{title} (face up{under})" if top["up"] else f"a face-down card{under}"),
                size=2,
                kind="card",
            )
        return out

    def _landing(self, who: str, n: int) -> str | None:
        """The node :meth:`_move` puts ``who`` on when moving ``n`` spaces (``None``:
        he does not move). Mirrors :meth:`_move` without changing anything."""
        if who not in COMPANIONS or n <= 0 or not self._movable(who):
            return None
        start = self.pos[who]
        target = start + n
        if who == RINGBEARER:
            goal = next(gi for gi in self.lay.goals if gi > start)
            target = min(target, goal)
        elif target > self.lay.minas_morgul:
            return self.lay.rally
        return self.lay.route[target]

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """``advance C N`` and ``use CARD C N`` (cards that move a companion) move
        companion C; every other decision (dice, cards, battles) moves no figure."""
        try:
            if move.verb == "advance" and len(move.args) == 2 and self.phase == "advance":
                who, n = move.args[0], int(move.args[1])
            elif (
                move.verb == "use"
                and len(move.args) == 3
                and any(e["op"] == "move" for e in self.lay.cards[move.args[0]]["use"]["effects"])
            ):
                who, n = move.args[1], int(move.args[2])
            else:
                return None
        except (KeyError, ValueError, TypeError):
            return None
        node = self._landing(who, n)
        return None if node is None else (who, node)
