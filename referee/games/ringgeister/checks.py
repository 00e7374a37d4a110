"""Board checks for boards that declare the Ringgeister rules (docs/rulings.md).

``referee check`` runs :func:`board_problems` when ``meta.rules == "ringgeister"``.
The checks are those that generalise beyond the default layout (the 12 octagons
and 11 squares are a property of the default board, not of the rules):

- **counts** — as many black starting points as black figures (18), as many
  white starting points as light figures (9), 9 counter spaces
  (``settings.counter_spaces`` overrides), each with exactly three arrival
  points of its own tile;
- **tiles** — a turnable tile carries exactly one black starting point, a rock
  (an ``art`` feature with terrain ``rock``) and at least two black points; a
  tile that never turns carries exactly one black point, no black starting
  point and no rock ("Nor may elements bearing only a single black point be
  turned. They do not, moreover, carry any rock.");
- **black points** — each has a wind arrow and a heading that runs along one of
  its land paths (compared with the bearing of the compiled ``path`` edges
  leaving the point, within :data:`HEADING_TOLERANCE` degrees);
- **doors** — every door symbol on the board or on the cards has at least two
  doors (a gallery needs an entrance and an exit);
- **goal** — exactly one goal, a grey point entered only along paths guarded by
  the spider, reachable from the white starting points by light-figure movement
  in the starting configuration (any path, waterways included, the spider's
  passage open). If every such route passes a black figure standing on its
  starting point, a warning says so (the board is playable, but only after the
  black figures move);
- **spacing** — no two points closer than :data:`MIN_POINT_GAP` mm.

Every problem names the node (or the placed tile) and its coordinates.
"""

from __future__ import annotations

from collections import defaultdict, deque

import numpy as np
import shapely

from ...compiler import CompiledBoard, Problem
from ...geometry import bearing_degrees

#: default numbers of the rulebook (9 light figures, 18 black figures, 9 hexagonal spaces)
LIGHT_FIGURES = 9
BLACK_FIGURES = 18
COUNTER_SPACES = 9
#: a heading may differ this much (degrees) from the bearing of a land path leaving its point
HEADING_TOLERANCE = 2.0
#: no two points closer than this (mm)
MIN_POINT_GAP = 12.0


def _p(
    code: str,
    message: str,
    node: str | None,
    xy: tuple[float, float] | None,
    severity: str = "error",
) -> Problem:
    return Problem.make(f"ringgeister_{code}", message, node, xy, severity=severity)


def _figures(compiled: CompiledBoard) -> tuple[int, int]:
    """(light, black) figure counts from the board's piece types (rulebook default)."""
    light = black = 0
    for t in compiled.board.piece_types.values():
        n = t.get("count", 1)
        n = n if isinstance(n, int) and not isinstance(n, bool) else 1
        if t.get("side") == "light":
            light += n
        elif t.get("side") == "black":
            black += n
    if light == 0 and black == 0:
        return LIGHT_FIGURES, BLACK_FIGURES
    return light, black


def _angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def land_bearings(compiled: CompiledBoard, node: str) -> list[float]:
    """Bearings of the land paths leaving ``node``.

    The bearings are those of the compiled ``path`` edges at ``node``
    (``bearing_u``/``bearing_v``). Whether a way is a land path is judged by the
    path drawn at the point — the segment of the edge that leaves it — because
    the medium of a whole edge depends on the neighbouring tiles' turns (a road
    that runs into a neighbour's waterway makes a "water" edge).
    """
    out: list[float] = []
    net = compiled.paths
    for ref in net.seg_at.get(node, ()):
        seg = net.segment(ref)
        if seg.medium == "water":
            continue
        out.append(float(seg.bear_b if ref[2] else seg.bear_a))
    edge_bearings = [
        float(d["bearing_u"]) if d.get("u") == node else float(d["bearing_v"])
        for _, _, d in compiled.graph.edges(node, data=True)
        if d.get("relation") == "path"
    ]
    # keep only bearings the compiled graph agrees with (they always should)
    return [b for b in out if any(_angle_diff(b, e) < 1e-6 for e in edge_bearings)]


def board_problems(compiled: CompiledBoard) -> list[Problem]:
    """Every Ringgeister board problem of ``compiled`` at its current turns.

    Notes
    -----
    Linear in the nodes and edges, plus one STRtree query for the point spacing:
    O((N + E) + P log P).
    """
    probs: list[Problem] = []
    probs += _count_problems(compiled)
    probs += _tile_problems(compiled)
    probs += _black_point_problems(compiled)
    probs += _door_problems(compiled)
    probs += _goal_problems(compiled)
    probs += _spacing_problems(compiled)
    return probs


def board_counts(compiled: CompiledBoard) -> dict[str, int]:
    """The Ringgeister counts of a board, for ``referee info``."""
    g = compiled.graph
    c: dict[str, int] = dict.fromkeys(
        (
            "white_starts",
            "black_starts",
            "black_points",
            "grey_points",
            "magic_points",
            "wind_arrows",
            "counter_spaces",
            "arrival_points",
            "moon_doors",
            "star_doors",
            "forks_three_arrows",
            "goals",
            "turnable_tiles",
            "fixed_tiles",
        ),
        0,
    )
    for _, d in g.nodes(data=True):
        kind = d["kind"]
        if kind == "point":
            c["white_starts"] += d.get("start") == "white"
            c["black_starts"] += d.get("start") == "black"
            c["black_points"] += d.get("colour") == "black"
            c["grey_points"] += d.get("colour") != "black"
            c["magic_points"] += bool(d.get("magic"))
            c["wind_arrows"] += d.get("wind") is not None
            c["goals"] += d.get("goal") is True
        elif kind == "counter_space":
            c["counter_spaces"] += 1
            c["arrival_points"] += len(d.get("arrival") or [])
        elif kind == "door" and d.get("symbol") in ("moon", "star"):
            c[f"{d['symbol']}_doors"] += 1
        elif kind == "junction" and d.get("forced_right"):
            c["forks_three_arrows"] += 1
    for p in compiled.board.placements:
        c["turnable_tiles" if compiled.board.tile_of(p).turnable else "fixed_tiles"] += 1
    return c


# ---------------------------------------------------------------------- counts
def _count_problems(cb: CompiledBoard) -> list[Problem]:
    g = cb.graph
    out: list[Problem] = []
    light, black = _figures(cb)
    whites = [
        n for n, d in g.nodes(data=True) if d["kind"] == "point" and d.get("start") == "white"
    ]
    blacks = [
        n for n, d in g.nodes(data=True) if d["kind"] == "point" and d.get("start") == "black"
    ]
    if len(blacks) != black:
        out.append(
            _p(
                "black_starts",
                f"the board has {len(blacks)} black starting points for {black} black figures",
                None,
                None,
            )
        )
    if len(whites) != light:
        out.append(
            _p(
                "white_starts",
                f"the board has {len(whites)} white starting points for {light} light figures",
                None,
                None,
            )
        )
    for n in blacks:
        d = g.nodes[n]
        if d.get("colour") != "black":
            out.append(
                _p(
                    "black_starts",
                    "a black starting point must be a black point",
                    n,
                    (d["x"], d["y"]),
                )
            )
    want = cb.board.settings.get("counter_spaces", COUNTER_SPACES)
    spaces = [n for n, d in g.nodes(data=True) if d["kind"] == "counter_space"]
    if len(spaces) != want:
        out.append(
            _p(
                "counter_spaces",
                f"the board has {len(spaces)} counter spaces, the rules want {want}",
                None,
                None,
            )
        )
    for n in spaces:
        d = g.nodes[n]
        arrival = d.get("arrival") or []
        prefix = n.rsplit("/", 1)[0] + "/" if "/" in n else ""
        good = [
            prefix + a
            for a in arrival
            if prefix + a in g and g.nodes[prefix + a]["kind"] == "point"
        ]
        if len(arrival) != 3 or len(set(good)) != 3:
            out.append(
                _p(
                    "counter_spaces",
                    f"a counter space needs three arrival points of its "
                    f"own tile, it names {len(arrival)} ({len(set(good))} usable)",
                    n,
                    (d["x"], d["y"]),
                )
            )
    return out


# ---------------------------------------------------------------------- tiles
def _tile_problems(cb: CompiledBoard) -> list[Problem]:
    out: list[Problem] = []
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for _nid, (owner, f) in cb.features.items():
        if owner is None:
            continue
        c = per[owner]
        if f.kind == "point" and f.props.get("colour") == "black":
            c["black"] += 1
            if f.props.get("start") == "black":
                c["start"] += 1
        elif f.kind == "art" and f.props.get("terrain") == "rock":
            c["rock"] += 1
    for p in cb.board.placements:
        tile = cb.board.tile_of(p)
        c = per[p.id]
        xy = (p.x, p.y)
        if tile.turnable:
            if c["start"] != 1:
                out.append(
                    _p(
                        "tile",
                        f"turnable tile {tile.key} carries {c['start']} black "
                        "starting points; it needs exactly one",
                        p.id,
                        xy,
                    )
                )
            if c["rock"] < 1:
                out.append(
                    _p(
                        "tile",
                        f"turnable tile {tile.key} carries no rock (an art feature "
                        "with terrain 'rock') beside its black starting point",
                        p.id,
                        xy,
                    )
                )
            if c["black"] < 2:
                out.append(
                    _p(
                        "tile",
                        f"turnable tile {tile.key} carries {c['black']} black "
                        "point(s); it needs at least two",
                        p.id,
                        xy,
                    )
                )
        else:
            if c["black"] != 1:
                out.append(
                    _p(
                        "tile",
                        f"tile {tile.key} never turns, so it must carry exactly one "
                        f"black point, not {c['black']}",
                        p.id,
                        xy,
                    )
                )
            if c["rock"]:
                out.append(_p("tile", f"tile {tile.key} never turns but carries a rock", p.id, xy))
            if c["start"]:
                out.append(
                    _p(
                        "tile",
                        f"tile {tile.key} never turns but carries a black starting point",
                        p.id,
                        xy,
                    )
                )
    return out


# ---------------------------------------------------------------------- black points
def _black_point_problems(cb: CompiledBoard) -> list[Problem]:
    out: list[Problem] = []
    for n, d in cb.graph.nodes(data=True):
        if d["kind"] != "point" or d.get("colour") != "black":
            continue
        xy = (d["x"], d["y"])
        if d.get("wind") is None:
            out.append(_p("wind", "a black point needs a wind arrow", n, xy))
        heading = d.get("heading")
        if heading is None:
            out.append(
                _p(
                    "heading",
                    "a black point needs a heading (the way its figure moves forward)",
                    n,
                    xy,
                )
            )
            continue
        try:
            h = bearing_degrees(heading)
        except (ValueError, TypeError):
            out.append(_p("heading", f"heading {heading!r} is not a direction", n, xy))
            continue
        bearings = land_bearings(cb, n)
        if not bearings:
            out.append(_p("heading", "a black point needs a land path to move along", n, xy))
        elif min(_angle_diff(h, b) for b in bearings) > HEADING_TOLERANCE:
            have = ", ".join(f"{b:g}" for b in sorted(bearings))
            out.append(
                _p(
                    "heading",
                    f"heading {h:g}° runs along none of its land paths (they leave at {have}°)",
                    n,
                    xy,
                )
            )
    return out


# ---------------------------------------------------------------------- doors
def _door_problems(cb: CompiledBoard) -> list[Problem]:
    out: list[Problem] = []
    doors: dict[str, list[str]] = defaultdict(list)
    for n, d in cb.graph.nodes(data=True):
        if d["kind"] == "door":
            doors[str(d.get("symbol"))].append(n)
    symbols = set(doors)
    for deck in cb.board.decks.values():
        for card in deck.get("cards") or []:
            img = card.get("image") if isinstance(card, dict) else None
            if isinstance(img, str) and img != "storm":
                symbols.add(img)
    for sym in sorted(symbols):
        found = doors.get(sym, [])
        if len(found) < 2:
            where = found[0] if found else None
            xy = (cb.graph.nodes[where]["x"], cb.graph.nodes[where]["y"]) if where else None
            out.append(
                _p(
                    "doors",
                    f"door symbol {sym!r} has {len(found)} door(s); a gallery needs at least two",
                    where,
                    xy,
                )
            )
    return out


# ---------------------------------------------------------------------- goal
def light_reach(cb: CompiledBoard, blocked: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Nodes a light figure reaches from the white starting points along paths.

    Any path counts (waterways too), and the spider's passage is open (a Hobbit
    without counters may pass it). Nodes in ``blocked`` (points held by black
    figures) cannot be passed or entered.
    """
    g = cb.graph
    starts = [n for n, d in g.nodes(data=True) if d.get("start") == "white" and n not in blocked]
    seen = set(starts)
    queue = deque(starts)
    while queue:
        u = queue.popleft()
        for _, v, d in g.edges(u, data=True):
            if d.get("relation") == "path" and v not in seen and v not in blocked:
                seen.add(v)
                queue.append(v)
    return seen


def _goal_problems(cb: CompiledBoard) -> list[Problem]:
    g = cb.graph
    out: list[Problem] = []
    goals = [n for n, d in g.nodes(data=True) if d.get("goal") is True]
    if len(goals) != 1:
        out.append(
            _p(
                "goal",
                f"the board needs exactly one goal (the last grey point on the "
                f"Mountain of Fire), it has {len(goals)}",
                goals[1] if len(goals) > 1 else None,
                (g.nodes[goals[1]]["x"], g.nodes[goals[1]]["y"]) if len(goals) > 1 else None,
            )
        )
    occupied = _black_occupied(cb)
    reach = light_reach(cb)
    reach_free = light_reach(cb, occupied) if occupied else reach
    for t in goals:
        d = g.nodes[t]
        xy = (d["x"], d["y"])
        if d.get("colour", "grey") != "grey":
            out.append(_p("goal", "the goal must be a grey point", t, xy))
        edges = [e for e in g.edges(t, data=True) if e[2].get("relation") == "path"]
        open_ways = [e for e in edges if e[2].get("guard") != "spider"]
        if not edges:
            out.append(_p("goal", "no path leads to the goal", t, xy))
        elif open_ways:
            other = open_ways[0][1]
            out.append(
                _p(
                    "goal",
                    f"the goal can be entered from {other} without passing the "
                    "spider's secret passage",
                    t,
                    xy,
                )
            )
        if t not in reach:
            out.append(
                _p(
                    "goal",
                    "no white starting point reaches the goal by light-figure "
                    "movement in the starting configuration",
                    t,
                    xy,
                )
            )
        elif t not in reach_free:
            out.append(
                _p(
                    "goal_blocked",
                    "every way from the white starting points to the goal "
                    "passes a black figure on its starting point",
                    t,
                    xy,
                    severity="warning",
                )
            )
    return out


def goal_reach_problems(cb: CompiledBoard) -> list[Problem]:
    """``goal_unreachable``: a goal that no white starting point reaches along paths.

    A board check of the Ringgeister module (it was a check of every compiled board
    before the game vocabulary left the core). Any ``path`` edge counts, whatever
    its medium or guard.

    Notes
    -----
    One breadth-first search from all white starting points: O(N + E).
    """
    g = cb.graph
    goals = [n for n, d in g.nodes(data=True) if d.get("goal") is True]
    if not goals or not any(d.get("start") == "white" for _, d in g.nodes(data=True)):
        return []
    reach = light_reach(cb)
    return [
        Problem.make(
            "goal_unreachable",
            "no white starting point reaches this goal along paths",
            t,
            (g.nodes[t]["x"], g.nodes[t]["y"]),
        )
        for t in goals
        if t not in reach
    ]


def _black_occupied(cb: CompiledBoard) -> set[str]:
    types = cb.board.piece_types
    return {
        pc.at
        for pc in cb.board.pieces
        if pc.at is not None and types.get(pc.piece, {}).get("side") == "black"
    }


# ---------------------------------------------------------------------- spacing
def _spacing_problems(cb: CompiledBoard) -> list[Problem]:
    g = cb.graph
    pts = [(n, d["x"], d["y"]) for n, d in g.nodes(data=True) if d["kind"] == "point"]
    if len(pts) < 2:
        return []
    geoms = shapely.points(np.array([[x, y] for _, x, y in pts]))
    tree = shapely.STRtree(geoms)
    a, b = tree.query(geoms, predicate="dwithin", distance=MIN_POINT_GAP - 1e-9)
    out: list[Problem] = []
    for i, j in sorted(zip(a.tolist(), b.tolist())):
        if i >= j:
            continue
        (ni, xi, yi), (nj, xj, yj) = pts[i], pts[j]
        dist = float(np.hypot(xi - xj, yi - yj))
        out.append(
            _p(
                "spacing",
                f"points {ni} and {nj} are {dist:.1f} mm apart (at least {MIN_POINT_GAP:g} mm)",
                ni,
                (xi, yi),
            )
        )
    return out


__all__ = [
    "HEADING_TOLERANCE",
    "MIN_POINT_GAP",
    "board_counts",
    "board_problems",
    "goal_reach_problems",
    "land_bearings",
    "light_reach",
]
