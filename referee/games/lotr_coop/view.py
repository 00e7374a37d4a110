"""What a frontend draws of a game of the cooperative Lord of the Rings, and where moves go."""

from __future__ import annotations

from typing import ClassVar

from ...vocabulary import FigureView
from .moves import Move
from .state import LotrCoopBase


class LotrCoopView(LotrCoopBase):
    """:meth:`figures` and :meth:`move_destination` of the game."""

    HOBBIT_COLOURS: ClassVar[dict[str, str]] = {
        "frodo": "#43a047",
        "sam": "#fdd835",
        "pippin": "#fb8c00",
        "merry": "#1e88e5",
        "fatty": "#8e24aa",
    }
    HOBBIT_LABELS: ClassVar[dict[str, str]] = {
        "frodo": "F",
        "sam": "S",
        "pippin": "P",
        "merry": "M",
        "fatty": "Fy",
    }
    ACTIVITY_COLOURS: ClassVar[dict[str, str]] = {
        "fighting": "#c62828",
        "hiding": "#6d4c41",
        "travelling": "#00897b",
        "friendship": "#f06292",
    }

    def figures(self) -> dict[str, FigureView]:
        """The Hobbits and Sauron on the Corruption line, the Fellowship's marker on
        the Master board and, during a Scenario, the Activity markers
        (``marker-<activity>``) and the event marker (``event-marker``).

        A Hobbit belongs to his player; markers and Sauron belong to nobody.
        """
        lay = self.lay
        out: dict[str, FigureView] = {}
        for p, name in enumerate(self.players):
            if not self.alive[p]:
                continue
            out[name] = FigureView(
                id=name,
                node=lay.corruption[self.corruption[p]],
                label=self.HOBBIT_LABELS.get(name, name[:1].upper()),
                colour=self.HOBBIT_COLOURS.get(name, "#9e9e9e"),
                side="hobbit",
                owner=name,
                name=name.capitalize() + (" (Ring-bearer)" if p == self.ringbearer else ""),
                size=2 if p == self.ringbearer else 1,
            )
        out["sauron"] = FigureView(
            id="sauron",
            node=lay.corruption[self.sauron],
            label="Sa",
            colour="#212121",
            side="shadow",
            name="Sauron",
            size=2,
        )
        if 0 <= self.location < len(lay.master):
            out["journey"] = FigureView(
                id="journey",
                node=str(lay.master[self.location]["id"]),
                label="J",
                colour="#ffd54f",
                side="marker",
                name="The Fellowship's journey",
                size=1,
            )
        sc = self.sc
        if sc is not None:
            for act, line in sc.lines.items():
                k = self.markers.get(act)
                if k is None:
                    continue
                out[f"marker-{act}"] = FigureView(
                    id=f"marker-{act}",
                    node=line.points[k],
                    label=act[:1].upper(),
                    colour=self.ACTIVITY_COLOURS.get(act, "#9e9e9e"),
                    side="marker",
                    name=f"{act.capitalize()} marker" + (" (main line)" if line.main else ""),
                    size=0,
                )
            if 0 <= self.event_pos < len(sc.event_points):
                out["event-marker"] = FigureView(
                    id="event-marker",
                    node=sc.event_points[self.event_pos],
                    label="E",
                    colour="#9e9e9e",
                    side="marker",
                    name="Event marker",
                    size=0,
                )
        return out

    def _marker_landing(self, activity: str, n: int) -> tuple[str, str] | None:
        """Where :meth:`_advance` puts the ``activity`` marker after ``n`` spaces."""
        sc = self.sc
        if sc is None or activity not in sc.lines or activity not in self.markers or n <= 0:
            return None
        line = sc.lines[activity]
        k = min(self.markers[activity] + n, line.last)
        if k == self.markers[activity]:
            return None
        return f"marker-{activity}", line.points[k]

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """``play CARD [LINE]`` and ``line L`` advance an Activity marker, ``heal`` moves
        the active Hobbit a step toward the light, ``volunteer P`` moves P toward the
        darkness. ``ring LINE`` is left out: the die decides how far the marker goes."""
        ph = self.phase
        try:
            if move.verb == "play" and ph == "play":
                syms = self.lay.cards[move.args[0]].get("symbols", [])
                line = move.args[1] if len(move.args) > 1 else (syms[0] if syms else "")
                return self._marker_landing(line, len(syms))
            if move.verb == "line" and ph == "line":
                return self._marker_landing(move.args[0], 1)
            if move.verb == "heal" and ph == "play":
                p = self.active
                if self.corruption[p] <= 0:
                    return None
                return self.players[p], self.lay.corruption[self.corruption[p] - 1]
            if move.verb == "volunteer" and ph == "volunteer":
                p = self.players.index(move.args[0])
                k = min(self.lay.dark_end, self.corruption[p] + int(self.queue[0]["n"]))
                if k == self.corruption[p]:
                    return None
                return move.args[0], self.lay.corruption[k]
        except (KeyError, ValueError, IndexError, TypeError):
            return None
        return None
