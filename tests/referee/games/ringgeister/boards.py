"""Small hand-made Ringgeister boards, one per rule, and a way to set up a position.

Boards are free-standing points and paths (or tiny tiles where a rule turns tiles),
drawn in millimetres with y down (north is −y). :func:`position` builds a game
state directly (figures where the test wants them, a chosen card on top), through
``RinggeisterGame.from_position``, so every test starts from an explicit position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import shapely

from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.model import Board, Feature, Placement, TileAsset

Pt = tuple[float, float]


class B:
    """A tiny board builder: ``pt``, ``junction``, ``door``, ``port``, ``path``."""

    def __init__(self, corridor: float = 15.0) -> None:
        self.xy: dict[str, Pt] = {}
        self.features: list[Feature] = []
        self.tiles: dict[str, TileAsset] = {}
        self.placements: list[Placement] = []
        self.corridor = corridor
        self._n = 0

    def pt(self, pid: str, x: float, y: float, colour: str = "grey", **props: Any) -> B:
        self.xy[pid] = (x, y)
        self.features.append(
            Feature(pid, "point", shapely.Point(x, y), {"colour": colour, **props})
        )
        return self

    def junction(self, jid: str, x: float, y: float, forced_right: bool = False) -> B:
        self.xy[jid] = (x, y)
        self.features.append(
            Feature(jid, "junction", shapely.Point(x, y), {"forced_right": forced_right})
        )
        return self

    def door(self, did: str, x: float, y: float, symbol: str) -> B:
        self.xy[did] = (x, y)
        self.features.append(Feature(did, "door", shapely.Point(x, y), {"symbol": symbol}))
        return self

    def port(self, pid: str, x: float, y: float) -> B:
        self.xy[pid] = (x, y)
        self.features.append(Feature(pid, "port", shapely.Point(x, y), {}))
        return self

    def path(self, *ids: str, medium: str = "land", guard: str | None = None) -> B:
        """A straight-segment path through the named nodes (split at each of them)."""
        self._n += 1
        props: dict[str, Any] = {"medium": medium}
        if guard:
            props["guard"] = guard
        self.features.append(
            Feature(f"path{self._n}", "path", shapely.LineString([self.xy[i] for i in ids]), props)
        )
        return self

    def counter_space(self, sid: str, x: float, y: float, arrival: Sequence[str]) -> B:
        poly = shapely.Point(x, y).buffer(5, quad_segs=2)
        self.features.append(Feature(sid, "counter_space", poly, {"arrival": list(arrival)}))
        return self

    def tile(
        self,
        pid: str,
        key: str,
        x: float,
        y: float,
        features: list[Feature],
        turnable: bool = True,
        size: float = 100.0,
    ) -> B:
        if key not in self.tiles:
            self.tiles[key] = TileAsset(
                key, key, {"shape": "square", "size": size}, features, turnable
            )
        self.placements.append(Placement(pid, key, x, y, 0))
        return self

    def board(self, figures: Iterable[str], cards: Sequence[tuple[str, str, str]]) -> Board:
        """The board, with piece types for exactly ``figures`` and a deck of ``cards``."""
        types: dict[str, dict[str, Any]] = {}
        sizes = {
            "hobbit": "small",
            "man": "medium",
            "gandalf": "large",
            "gollum": "small",
            "orc": "medium",
            "spirit": "large",
        }
        for fid in figures:
            fig, _, rest = fid.partition("-")
            if fig in ("hobbit", "man"):
                types[f"test/{fid}"] = {
                    "side": "light",
                    "figure": fig,
                    "colour": rest,
                    "size": sizes[fig],
                    "count": 1,
                }
            else:
                key = f"test/{fig}"
                t = types.setdefault(
                    key,
                    {
                        "side": "light" if fig == "gandalf" else "black",
                        "figure": fig,
                        "size": sizes[fig],
                        "count": 0,
                    },
                )
                t["count"] += 1
        deck = [
            {"id": f"card{i}", "ringbearer": rb, "hand": hand, "image": image}
            for i, (rb, hand, image) in enumerate(cards)
        ]
        b = Board(
            meta={
                "name": "test",
                "rules": "ringgeister",
                "settings": {"wind_corridor_mm": self.corridor},
            },
            tiles=dict(self.tiles),
            placements=list(self.placements),
            features=list(self.features),
            piece_types=types,
            decks={"test/cards": {"cards": deck}},
        )
        b.validate()
        return b


def position(
    b: B,
    figures: dict[str, str | None],
    *,
    players: Sequence[str] = ("yellow",),
    cards: Sequence[tuple[str, str, str]] = (("yellow", "forward", "moon"),),
    player: int = 0,
    counters: Sequence[tuple[str, str | None]] = (),
    moved: Sequence[str] = (),
    compiled: CompiledBoard | None = None,
) -> RinggeisterGame:
    """A game on ``b`` with ``figures`` at the given points (id → point id).

    ``figures`` ids follow the referee's naming: ``hobbit-yellow``, ``gandalf``,
    ``gollum``, and for black figures of a kind ``orc`` (one) or ``orc-1``,
    ``orc-2`` (several). ``cards[0]`` is face up; the rest are the face-down pile
    in drawing order. ``counters`` are (colour, space) pairs; the variant follows
    from the most counters of one colour (none: variant A); a colour with fewer
    counters has the others removed already.
    """
    board = b.board(figures, cards)
    compiled = compiled or compile_board(board)
    ids: dict[str, str | None] = {}
    per: dict[str, int] = {}
    for colour, space in counters:
        per[colour] = per.get(colour, 0) + 1
        ids[f"{colour}-{per[colour]}"] = space
    most = max(per.values(), default=0)
    variant = {0: "A", 1: "default", 2: "B", 3: "C"}[most]
    # a colour with fewer counters has completed the other missions already
    removed = [f"{c}-{k}" for c in players for k in range(per.get(c, 0) + 1, most + 1)]
    return RinggeisterGame.from_position(
        compiled,
        {
            "players": list(players),
            "options": {"variant": variant},
            "figures": dict(figures),
            "face_up": "card0",
            "pile": [f"card{i}" for i in range(1, len(cards))],
            "to_move": players[player],
            "moved": list(moved),
            "counters": ids,
            "removed": removed,
        },
    )


def moves_of(game: RinggeisterGame, figure: str) -> set[str]:
    """Destinations the legal moves offer ``figure``."""
    return {m.to for m in game.legal_moves if m.kind == "step" and m.figure == figure}  # type: ignore[misc]


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
