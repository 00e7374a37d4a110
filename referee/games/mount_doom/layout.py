"""Read an Adventure to Mount Doom board and its components from a compiled board.

The board (see ``projects/mount-doom/make_board.py``) is made of ``track`` features;
the compiler turns each into directed ``next`` edges carrying the track's id and the
edge's order, from which the ordered point lists are rebuilt here. Cards, dice and
figures are read from the decks and piece types the project embeds (the
``mount-doom`` asset pack), so editing the pack (and re-embedding it) edits the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...compiler import CompiledBoard
from ...errors import BoardError
from ..tracks import track_points

COMPANIONS = ("ringbearer", "aragorn", "legolas", "gimli", "merry-pippin")
RINGBEARER = "ringbearer"

__all__ = ["COMPANIONS", "RINGBEARER", "Layout", "layout_of", "track_points"]


@dataclass
class Layout:
    """Everything the rules need to know about a Mount Doom board and its pack."""

    route: list[str]
    goals: list[int]  # route indices of the six stage goals, in order
    goal_names: dict[int, str]
    events: dict[int, str]  # route index -> dark_heart | nazgul
    rally: str
    resolve: list[str]
    ring_start: int
    sauron_eye: int
    isengard: list[str]
    nazgul_spaces: list[str]
    row: list[str]  # encounter row nodes, die position 1..6
    row_symbols: list[str]  # what an empty position shows
    cards: dict[str, dict[str, Any]]  # card id -> card data (with "deck")
    stage_decks: dict[int, list[str]]
    gandalf_deck: list[str]
    boromir: str
    companion_faces: list[int]
    encounter_faces: list[int]
    battle_faces: list[str]
    weapons: dict[str, str] = field(default_factory=dict)

    @property
    def minas_morgul(self) -> int:
        return self.goals[4]

    @property
    def mount_doom(self) -> int:
        return self.goals[5]

    @property
    def helms_deep(self) -> int:
        return self.goals[2]

    @property
    def dark_end(self) -> int:
        return len(self.resolve) - 1


def _find(items: dict[str, dict[str, Any]], suffix: str, where: str) -> dict[str, Any]:
    for key, val in items.items():
        if key.split("/", 1)[-1] == suffix:
            return val
    raise BoardError(
        f"project embeds no {where} {suffix!r} (embed the mount-doom asset pack)",
        code="missing_asset",
        location=suffix,
    )


def layout_of(compiled: CompiledBoard) -> Layout:
    """The :class:`Layout` of ``compiled`` (computed once per compiled board, kept in
    :meth:`CompiledBoard.derived` and dropped when the board is edited)."""
    return compiled.derived("mount-doom.layout", lambda: _build(compiled))


def _build(compiled: CompiledBoard) -> Layout:
    g = compiled.graph
    route = track_points(compiled, "route")
    goals = [i for i, n in enumerate(route) if g.nodes[n].get("stage_goal")]
    if len(goals) != 6:
        raise BoardError(
            f"the route needs 6 stage goals, it has {len(goals)}",
            code="bad_route",
            location="route",
        )
    events = {
        i: g.nodes[n]["event"]
        for i, n in enumerate(route)
        if g.nodes[n].get("event") in ("dark_heart", "nazgul")
    }
    rally_track = track_points(compiled, "to_rally")
    resolve = track_points(compiled, "resolve")
    roles = {g.nodes[n].get("role"): k for k, n in enumerate(resolve)}
    if "ring_start" not in roles or "sauron_eye" not in roles:
        raise BoardError(
            "the resolve track needs a ring_start and a sauron_eye space",
            code="bad_resolve_track",
            location="resolve",
        )
    isengard = track_points(compiled, "isengard")
    nazgul = track_points(compiled, "nazgul_spaces")
    row = track_points(compiled, "encounter_row")
    if len(isengard) != 6 or len(nazgul) != 9 or len(row) != 6:
        raise BoardError(
            "Isengard needs 6 spaces, Minas Morgul 9 Nazgûl spaces and the "
            "encounter row 6 positions",
            code="bad_board",
            location="board",
        )
    decks = compiled.board.decks
    cards: dict[str, dict[str, Any]] = {}
    stage_decks: dict[int, list[str]] = {}
    for key, deck in decks.items():
        if not key.startswith("mount-doom/"):
            continue
        for c in deck.get("cards", []):
            cards[c["id"]] = dict(c, deck=key.split("/", 1)[1])
        if "stage" in deck:
            stage_decks[int(deck["stage"])] = [c["id"] for c in deck["cards"]]
    if sorted(stage_decks) != [1, 2, 3, 4, 5, 6] or any(len(v) != 7 for v in stage_decks.values()):
        raise BoardError(
            "the project needs six encounter decks of 7 cards (stages 1 to 6)",
            code="missing_asset",
            location="decks",
        )
    gandalf = [c["id"] for c in _find(decks, "gandalf", "deck")["cards"]]
    boromir = _find(decks, "boromir", "deck")["cards"][0]["id"]
    pieces = compiled.board.piece_types
    weapons = {c: _find(pieces, c, "piece").get("weapon") for c in COMPANIONS}
    return Layout(
        route=route,
        goals=goals,
        goal_names={i: g.nodes[route[i]].get("name", "") for i in goals},
        events=events,
        rally=rally_track[-1],
        resolve=resolve,
        ring_start=roles["ring_start"],
        sauron_eye=roles["sauron_eye"],
        isengard=isengard,
        nazgul_spaces=nazgul,
        row=row,
        row_symbols=[str(g.nodes[n].get("symbol", "nazgul")) for n in row],
        cards=cards,
        stage_decks=stage_decks,
        gandalf_deck=gandalf,
        boromir=boromir,
        companion_faces=list(_find(pieces, "companion-die", "piece")["faces"]),
        encounter_faces=list(_find(pieces, "encounter-die", "piece")["faces"]),
        battle_faces=list(_find(pieces, "battle-die", "piece")["faces"]),
        weapons={k: v for k, v in weapons.items() if v},
    )
