"""Read the cooperative Lord of the Rings boards and components from a compiled board.

Every line of the game is a ``track`` (DESIGN §6): the Master board's journey, the
Corruption line, each Scenario board's Activity lines and its event line. The ordered
points come back from the compiler's ``next`` edges (see
:func:`referee.games.tracks.track_points`); cards, tiles and the die come
from the ``lotr-coop`` pack embedded in the project.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...compiler import CompiledBoard
from ...errors import BoardError
from ..tracks import track_points

HOBBITS = ("frodo", "sam", "pippin", "merry", "fatty")
ACTIVITIES = ("fighting", "hiding", "travelling", "friendship")
LIFE = ("heart", "sun", "ring")
#: Sauron's starting space on the pack's Corruption line (counted from 0: its last
#: space), the default of the option ``sauron``
SAURON_START = 15


@dataclass
class Line:
    """One Activity line of a Scenario board."""

    track: str
    activity: str
    main: bool
    points: list[str]
    spaces: list[str]  # what each space does ("" for nothing)
    numbers: list[int | None]  # the score printed on main-line spaces

    @property
    def last(self) -> int:
        return len(self.points) - 1


@dataclass
class Scenario:
    id: str
    name: str
    lines: dict[str, Line]  # by activity
    events: list[str]  # event box ids, box 1..6 (index 0 is box 1)
    event_points: list[str]  # start space, then the six boxes

    @property
    def main(self) -> Line:
        return next(ln for ln in self.lines.values() if ln.main)


@dataclass
class CoopLayout:
    master: list[dict[str, Any]]  # per location: id, name, scenario|event|final
    corruption: list[str]
    scenarios: dict[str, Scenario]
    cards: dict[str, dict[str, Any]]  # hobbit card types and feature cards
    hobbit_deck: list[str]  # one entry per copy
    features_by_scenario: dict[str, list[str]]
    gandalf: dict[str, dict[str, Any]]
    tiles: dict[str, dict[str, Any]]
    tile_deck: list[str]
    events: dict[str, dict[str, Any]]
    die: list[dict[str, Any]]
    shields: list[int]
    skills: dict[str, str]

    @property
    def dark_end(self) -> int:
        return len(self.corruption) - 1


def _deck(decks: dict[str, dict[str, Any]], name: str) -> list[dict[str, Any]]:
    d = decks.get(f"lotr-coop/{name}")
    if d is None:
        raise BoardError(
            f"project embeds no deck lotr-coop/{name} (embed the lotr-coop pack)",
            code="missing_asset",
            location=name,
        )
    return list(d["cards"])


def _piece(pieces: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    p = pieces.get(f"lotr-coop/{name}")
    if p is None:
        raise BoardError(
            f"project embeds no piece lotr-coop/{name}", code="missing_asset", location=name
        )
    return p


def coop_layout(compiled: CompiledBoard) -> CoopLayout:
    """The :class:`CoopLayout` of ``compiled`` (computed once per compiled board, kept in
    :meth:`CompiledBoard.derived` and dropped when the board is edited)."""
    return compiled.derived("lotr-coop.layout", lambda: _build(compiled))


def _build(compiled: CompiledBoard) -> CoopLayout:
    g = compiled.graph
    master = [dict(g.nodes[n], id=n) for n in track_points(compiled, "master")]
    corruption = track_points(compiled, "corruption")
    scenarios: dict[str, Scenario] = {}
    for loc in master:
        sc = loc.get("scenario")
        if not sc:
            continue
        lines: dict[str, Line] = {}
        for f in compiled.board.features:
            if f.kind == "track" and f.props.get("scenario") == sc and f.props.get("activity"):
                pts = track_points(compiled, f.id)
                lines[f.props["activity"]] = Line(
                    f.id,
                    f.props["activity"],
                    bool(f.props.get("main")),
                    pts,
                    [str(g.nodes[p].get("space", "")) for p in pts],
                    [g.nodes[p].get("number") for p in pts],
                )
        ev_pts = track_points(compiled, f"{sc}_events")
        if sum(ln.main for ln in lines.values()) != 1 or len(ev_pts) != 7:
            raise BoardError(
                f"scenario {sc} needs one main Activity line and an event line of "
                f"a start space and six boxes",
                code="bad_scenario",
                location=sc,
            )
        scenarios[sc] = Scenario(
            sc,
            str(loc.get("name", sc)),
            lines,
            [str(g.nodes[p]["event"]) for p in ev_pts[1:]],
            ev_pts,
        )
    decks = compiled.board.decks
    cards: dict[str, dict[str, Any]] = {}
    hobbit_deck: list[str] = []
    for c in _deck(decks, "hobbit"):
        cards[c["id"]] = dict(c, kind="hobbit")
        hobbit_deck += [c["id"]] * int(c.get("count", 1))
    by_sc: dict[str, list[str]] = {}
    for c in _deck(decks, "features"):
        cards[c["id"]] = dict(c, kind="feature")
        by_sc.setdefault(c["scenario"], []).append(c["id"])
    tiles = {t["id"]: t for t in _deck(decks, "event-tiles")}
    tile_deck = [t["id"] for t in tiles.values() for _ in range(int(t.get("count", 1)))]
    pieces = compiled.board.piece_types
    return CoopLayout(
        master=master,
        corruption=corruption,
        scenarios=scenarios,
        cards=cards,
        hobbit_deck=hobbit_deck,
        features_by_scenario=by_sc,
        gandalf={c["id"]: c for c in _deck(decks, "gandalf")},
        tiles=tiles,
        tile_deck=tile_deck,
        events={c["id"]: c for c in _deck(decks, "events")},
        die=list(_piece(pieces, "die")["faces"]),
        shields=list(_piece(pieces, "shields")["values"]),
        skills={h: str(_piece(pieces, h).get("skill", "")) for h in HOBBITS},
    )
