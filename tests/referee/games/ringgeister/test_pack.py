"""The Ringgeister asset pack, its default board and the pack's board checks (issue 3).

The rules quoted are from the Ringgeister rulebook and our rulings in
docs/rulings.md.
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import shapely

from referee.assets import load_pack
from referee.cli import main as cli
from referee.compiler import compile_board
from referee.games.ringgeister.checks import board_problems, land_bearings, light_reach
from referee.geometry import bearing_degrees
from referee.model import Board, Feature
from referee.store import dumps_board, load_project

ROOT = Path(__file__).resolve().parents[4]
PACK_DIR = ROOT / "assets" / "ringgeister"
PROJECT = ROOT / "projects" / "ringgeister"
COLOURS = ("yellow", "orange", "purple", "green")


@pytest.fixture(scope="module")
def pack() -> Any:
    return load_pack(PACK_DIR)


@pytest.fixture(scope="module")
def saved() -> Board:
    return load_project(PROJECT)


@pytest.fixture()
def board(saved: Board) -> Board:
    return saved.copy()


def codes(board: Board) -> list[tuple[str, str | None]]:
    return [(p.code, p.node) for p in board_problems(compile_board(board))]


def problems(board: Board) -> list[Any]:
    return board_problems(compile_board(board))


def _build_module() -> Any:
    spec = importlib.util.spec_from_file_location("rg_build", PACK_DIR / "build.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["rg_build"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------------- the pack
def test_pack_has_12_octagons_and_11_squares_18_of_them_turnable(pack: Any) -> None:
    """ "twelve octagonal elements and eleven square elements"; docs/rulings.md: 18 tiles can turn."""
    shapes = Counter((t.shape, t.outline_spec.get("size")) for t in pack.tiles.values())
    assert shapes == {("octagon", 120): 12, ("square", 80): 11}
    assert sum(t.turnable for t in pack.tiles.values()) == 18


def test_every_tile_has_ports_at_the_midpoints_of_its_four_axis_aligned_sides(pack: Any) -> None:
    for t in pack.tiles.values():
        r = t.outline_spec["size"] / 2
        ports = sorted((f.geometry.x, f.geometry.y) for f in t.features if f.kind == "port")
        assert ports == sorted([(0, -r), (r, 0), (0, r), (-r, 0)]), t.key
        for x, y in ports:  # on the outline
            assert t.outline.exterior.distance(shapely.Point(x, y)) < 1e-9


def test_pieces_are_the_rulebook_figures_with_their_size_classes(pack: Any) -> None:
    """ "4 Hobbit figures ... 4 Man figures ... Gandalf"; "1 Gollum, 8 Orc, 9 Spirits"."""
    types = {k.split("/", 1)[1]: v for k, v in pack.piece_types.items()}
    for c in COLOURS:
        assert types[f"hobbit-{c}"] == {
            "name": f"{c.title()} Hobbit",
            "side": "light",
            "figure": "hobbit",
            "colour": c,
            "size": "small",
            "count": 1,
        }
        assert types[f"man-{c}"]["size"] == "medium" and types[f"man-{c}"]["side"] == "light"
    assert types["gandalf"]["size"] == "large" and types["gandalf"]["colour"] == "white"
    assert (types["gollum"]["side"], types["gollum"]["size"], types["gollum"]["count"]) == (
        "black",
        "small",
        1,
    )
    assert (types["orc"]["size"], types["orc"]["count"]) == ("medium", 8)
    assert (types["spirit"]["size"], types["spirit"]["count"]) == ("large", 9)
    by_side = Counter()
    for t in types.values():
        by_side[t["side"]] += t["count"]
    assert by_side == {"light": 9, "black": 18}


def test_deck_has_six_cards_per_colour_every_hand_and_image(pack: Any) -> None:
    """ "24 cards"; a colour's six cards are hand {forward, backward} × image {moon, star, storm}."""
    deck = pack.decks["ringgeister/cards"]
    assert deck["name"] == "Ringgeister cards"
    cards = deck["cards"]
    assert len(cards) == 24 and len({c["id"] for c in cards}) == 24
    combos = {(c["ringbearer"], c["hand"], c["image"]) for c in cards}
    assert combos == {
        (c, h, i)
        for c in COLOURS
        for h in ("forward", "backward")
        for i in ("moon", "star", "storm")
    }
    assert {
        "id": "yellow-forward-moon",
        "ringbearer": "yellow",
        "hand": "forward",
        "image": "moon",
    } in cards


def test_generator_reproduces_the_committed_pack_and_project() -> None:
    """The content is code: build.py writes exactly the files in the repository."""
    mod = _build_module()
    tiles = mod.octagons() + mod.squares()
    for t in tiles:
        committed = json.loads((PACK_DIR / "tiles" / f"{t.tid}.json").read_text())
        assert json.loads(json.dumps(t.tile_json())) == committed, t.tid
    assert len(list((PACK_DIR / "tiles").glob("*.json"))) == len(tiles)
    board = mod.make_board(load_pack(PACK_DIR), mod.frame(), mod.DEFAULT_TURNS)
    mod.place_figures(board)
    assert dumps_board(board) == (PROJECT / "ringgeister.json").read_text()
    assert dumps_board(load_project(PROJECT / "ringgeister.bwproj")) == dumps_board(board)


def _turns_in(layout_py: Path) -> Any:
    """The ``DEFAULT_TURNS`` and ``LAYOUT`` a layout module's text defines."""
    spec = importlib.util.spec_from_file_location("rg_layout_copy", layout_py)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.DEFAULT_TURNS, mod.LAYOUT


def test_search_stores_its_turns_where_the_next_build_reads_them(tmp_path: Path) -> None:
    """``build.py --search`` rewrites DEFAULT_TURNS in the layout module, and only that."""
    mod = _build_module()
    layout_py = PACK_DIR / "builder" / "layout.py"
    search = sys.modules["assets.ringgeister.builder.search"]
    copy = tmp_path / "layout.py"
    copy.write_text(layout_py.read_text())
    # the committed turns written back leave the file as it is (formatted as ruff leaves it)
    assert search.save_default_turns(dict(mod.DEFAULT_TURNS), copy) == copy
    assert copy.read_text() == layout_py.read_text()
    turned = {pid: (t + 1) % 4 for pid, t in mod.DEFAULT_TURNS.items()}
    search.save_default_turns(turned, copy)
    turns, layout = _turns_in(copy)
    assert turns == turned and layout == _turns_in(layout_py)[1]
    assert len(copy.read_text().splitlines()) == len(layout_py.read_text().splitlines())


def _copy_of_the_pack(tmp_path: Path) -> Path:
    """A scratch repository holding the pack's sources (``build.py`` finds its root by path)."""
    root = tmp_path / "repo"
    shutil.copytree(
        PACK_DIR, root / "assets" / "ringgeister", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "assets" / "__init__.py", root / "assets" / "__init__.py")
    return root


def _run_build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "assets/ringgeister/build.py", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_build_command_writes_the_committed_pack_and_project(tmp_path: Path) -> None:
    """README: ``python assets/ringgeister/build.py`` rewrites the pack and the project."""
    root = _copy_of_the_pack(tmp_path)
    for tile in (root / "assets" / "ringgeister" / "tiles").glob("*.json"):
        tile.unlink()
    (root / "assets" / "ringgeister" / "pack.json").unlink()
    done = _run_build(root)
    assert done.returncode == 0, done.stderr
    assert "wrote 23 tiles, pack.json and projects/ringgeister" in done.stderr
    built = root / "assets" / "ringgeister"
    for f in [PACK_DIR / "pack.json", *sorted((PACK_DIR / "tiles").glob("*.json"))]:
        assert (built / f.relative_to(PACK_DIR)).read_bytes() == f.read_bytes(), f.name
    out = root / "projects" / "ringgeister"
    assert (out / "ringgeister.json").read_text() == (PROJECT / "ringgeister.json").read_text()
    assert dumps_board(load_project(out / "ringgeister.bwproj")) == dumps_board(
        load_project(PROJECT / "ringgeister.bwproj")
    )


@pytest.mark.slow  # the hill climb: some 15 s of CPU
def test_build_search_finds_the_committed_turns_again(tmp_path: Path) -> None:
    """``build.py --search`` re-searches the turns (seeded) and writes them into layout.py."""
    root = _copy_of_the_pack(tmp_path)
    layout_py = root / "assets" / "ringgeister" / "builder" / "layout.py"
    _, layout = _turns_in(layout_py)
    text = layout_py.read_text()
    start = text.index("DEFAULT_TURNS: dict[str, int] = {")
    layout_py.write_text(text[:start] + "DEFAULT_TURNS: dict[str, int] = {\n}\n")
    assert _turns_in(layout_py) == ({}, layout)
    done = _run_build(root, "--search")
    assert done.returncode == 0, done.stderr
    assert "(written into layout.py)" in done.stderr
    assert layout_py.read_text() == (PACK_DIR / "builder" / "layout.py").read_text()
    out = root / "projects" / "ringgeister"
    assert (out / "ringgeister.json").read_text() == (PROJECT / "ringgeister.json").read_text()


# ---------------------------------------------------------------------- the default board
def test_default_board_meta_and_layout(saved: Board) -> None:
    """docs/rulings.md: 600 × 600 mm, tile centres at (100 + 100c, 100 + 100r), octagons where r+c is odd."""
    assert saved.meta == {
        "name": "Ringgeister",
        "rules": "ringgeister",
        "width": 600,
        "height": 600,
        "settings": {"wind_corridor_mm": 15},
    }
    cells = {}
    for p in saved.placements:
        c, r = round((p.x - 100) / 100), round((p.y - 100) / 100)
        assert (p.x, p.y) == (100 + 100 * c, 100 + 100 * r)
        cells[(r, c)] = saved.tile_of(p)
    assert set(cells) == {(r, c) for r in range(5) for c in range(5)} - {(0, 0), (4, 4)}
    for (r, c), tile in cells.items():
        assert tile.shape == ("octagon" if (r + c) % 2 else "square")
    assert sum(t.turnable for t in cells.values()) == 18


def test_facing_ports_of_neighbouring_tiles_coincide(saved: Board) -> None:
    """ "An octagon's flat and its neighbouring square's side meet exactly (60 + 40 = 100)"."""
    ports = [(nid, f.geometry) for nid, _, f in saved.world_features() if f.kind == "port"]
    tree = shapely.STRtree([g for _, g in ports])
    inner = 0
    for i, (nid, g) in enumerate(ports):
        near = [j for j in tree.query(g, predicate="dwithin", distance=1e-6).tolist() if j != i]
        x, y = g.x, g.y
        if 40 < x < 560 and 40 < y < 560 and not (x in (60, 540) or y in (60, 540)):
            assert near, f"{nid} at ({x}, {y}) faces no port"
            inner += 1
    assert inner >= 60


def test_check_and_info_report_the_rulebook_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """Acceptance: ``referee check projects/ringgeister`` exits 0; ``info`` shows the counts."""
    assert cli(["check", str(PROJECT)]) == 0
    capsys.readouterr()
    assert cli(["info", str(PROJECT), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["tiles"] == 23 and info["turnable_tiles"] == 18 and info["pieces"] == 27
    assert info["nodes"]["counter_space"] == 9
    assert info["edges"]["arrival"] == 27
    own = info["rules_counts"]
    assert (
        own["white_starts"],
        own["black_starts"],
        own["counter_spaces"],
        own["arrival_points"],
        own["turnable_tiles"],
        own["fixed_tiles"],
        own["goals"],
    ) == (9, 18, 9, 27, 18, 5, 1)
    assert own["moon_doors"] >= 2 and own["star_doors"] >= 2 and own["forks_three_arrows"] >= 1
    assert cli(["info", str(PROJECT)]) == 0
    assert "ringgeister: white starts 9, black starts 18," in capsys.readouterr().out


def test_default_board_has_the_starting_points_doors_and_goal(saved: Board) -> None:
    cb = compile_board(saved)
    g = cb.graph
    pts = [d for _, d in g.nodes(data=True) if d["kind"] == "point"]
    assert sum(d.get("start") == "white" for d in pts) == 9
    assert sum(d.get("start") == "black" for d in pts) == 18
    assert all(d["colour"] == "black" for d in pts if d.get("start") == "black")
    assert sum(d.get("magic", False) for d in pts) >= 9
    doors = Counter(d["symbol"] for _, d in g.nodes(data=True) if d["kind"] == "door")
    assert doors["moon"] >= 3 and doors["star"] >= 3
    forks = [d for _, d in g.nodes(data=True) if d["kind"] == "junction" and d.get("forced_right")]
    assert len(forks) >= 3
    assert any(d.get("medium") == "water" for _, _, d in g.edges(data=True))
    # wind arrows on every black point and on many grey points
    assert all(d.get("wind") in ("N", "E", "S", "W") for d in pts if d["colour"] == "black")
    grey = [d for d in pts if d["colour"] == "grey" and d.get("start") != "white"]
    assert sum("wind" in d for d in grey) >= len(grey) // 2
    assert [n for n, d in g.nodes(data=True) if d.get("goal")] == ["fire-goal"]
    assert board_problems(cb) == []


def test_figures_open_on_their_starting_points(saved: Board) -> None:
    """ "The chosen coloured figures, together with Gandalf ... are placed ... on the various white
    starting points"; "the 18 black figures are placed ... on the black starting points"."""
    cb = compile_board(saved)
    ids = sorted(pc.id for pc in saved.pieces)
    assert ids == sorted(
        [f"hobbit-{c}" for c in COLOURS]
        + [f"man-{c}" for c in COLOURS]
        + ["gandalf", "gollum"]
        + [f"orc-{i}" for i in range(1, 9)]
        + [f"spirit-{i}" for i in range(1, 10)]
    )
    assert len({pc.at for pc in saved.pieces}) == 27
    for pc in saved.pieces:
        side = saved.piece_types[pc.piece]["side"]
        assert cb.graph.nodes[pc.at]["start"] == ("white" if side == "light" else "black"), pc.id


def test_black_starting_points_lie_beside_a_rock(saved: Board) -> None:
    """ "they are all situated next to a rock" — within 15 mm, on the same tile."""
    for p in saved.placements:
        feats = saved.placed_features(p)
        rocks = [f.geometry for f in feats if f.kind == "art" and f.props.get("terrain") == "rock"]
        for f in feats:
            if f.kind == "point" and f.props.get("start") == "black":
                assert min(r.distance(f.geometry) for r in rocks) < 15, f"{p.id}/{f.id}"


def test_wind_rays_along_rows_and_columns_meet_black_points(saved: Board) -> None:
    """docs/rulings.md: many points on the rows and columns of tile centres, so rays meet black figures.

    Most wind arrows of the default board must find a black point within the 15 mm
    corridor of their ray (ruling 8), so the wind does not always fall to Gollum.
    """
    cb = compile_board(saved)
    g = cb.graph
    blacks = [
        (d["x"], d["y"])
        for _, d in g.nodes(data=True)
        if d["kind"] == "point" and d.get("colour") == "black"
    ]
    hits = total = 0
    for _, d in g.nodes(data=True):
        if d["kind"] != "point" or "wind" not in d:
            continue
        total += 1
        dx = round(math.sin(math.radians(bearing_degrees(d["wind"]))))
        dy = -round(math.cos(math.radians(bearing_degrees(d["wind"]))))
        for bx, by in blacks:
            along = (bx - d["x"]) * dx + (by - d["y"]) * dy
            side = abs((bx - d["x"]) * dy - (by - d["y"]) * dx)
            if along > 1e-6 and side <= 15:
                hits += 1
                break
    assert total >= 80 and hits / total >= 0.6


# ---------------------------------------------------------------------- checks fail on broken copies
def _tile_at(board: Board, pid: str) -> Any:
    p = board.placement(pid)
    return p, board.tile_of(p)


def _edit(tile: Any, fid: str, **props: Any) -> None:
    f = tile.feature(fid)
    f.props = {**f.props, **props}
    f.props = {k: v for k, v in f.props.items() if v is not None}
    tile.invalidate()


def _first(tile: Any, pred: Any) -> Feature:
    return next(f for f in tile.features if pred(f))


def test_check_fails_without_a_black_starting_point(board: Board) -> None:
    """Each turnable tile carries "one black starting point beside" its rock; 18 black figures."""
    _, tile = _tile_at(board, "r1c2")
    bs = _first(tile, lambda f: f.props.get("start") == "black")
    _edit(tile, bs.id, start=None)
    got = codes(board)
    assert ("ringgeister_tile", "r1c2") in got
    assert ("ringgeister_black_starts", None) in got


def test_check_fails_on_a_turnable_tile_without_rock(board: Board) -> None:
    _, tile = _tile_at(board, "r0c1")
    tile.features = [f for f in tile.features if f.props.get("terrain") != "rock"]
    tile.invalidate()
    probs = [p for p in problems(board) if p.code == "ringgeister_tile"]
    assert [(p.node, p.x, p.y) for p in probs] == [("r0c1", 200.0, 100.0)]
    assert "rock" in probs[0].message


def test_check_fails_on_a_turnable_tile_with_a_single_black_point(board: Board) -> None:
    _, tile = _tile_at(board, "r0c2")
    other = _first(tile, lambda f: f.props.get("colour") == "black" and not f.props.get("start"))
    _edit(tile, other.id, colour="grey", heading=None)
    assert ("ringgeister_tile", "r0c2") in codes(board)


def test_check_fails_on_a_fixed_tile_with_two_black_points(board: Board) -> None:
    """Rulebook 4.4: "Nor may elements bearing only a single black point be turned"."""
    _, tile = _tile_at(board, "r2c2")
    assert not tile.turnable
    grey = _first(tile, lambda f: f.kind == "point" and f.props.get("colour") == "grey")
    _edit(tile, grey.id, colour="black")
    got = problems(board)
    assert any(
        p.code == "ringgeister_tile" and p.node == "r2c2" and "exactly one" in p.message
        for p in got
    )


def test_check_fails_on_a_heading_off_its_land_paths(board: Board) -> None:
    """Ruling 9: a black figure leaves its point along the heading, on land paths only."""
    cb = compile_board(board)
    node = "r0c2/p1"
    d = cb.graph.nodes[node]
    assert d["colour"] == "black"
    bearings = land_bearings(cb, node)
    off = next(
        b
        for b in (45.0, 135.0, 225.0, 315.0)
        if all(abs((b - x + 180) % 360 - 180) > 10 for x in bearings)
    )
    p, tile = _tile_at(board, "r0c2")
    # the tile frame's heading is the world heading turned back
    _edit(tile, "p1", heading=(off - 90 * p.turns) % 360)
    probs = [q for q in problems(board) if q.code == "ringgeister_heading"]
    assert [(q.node, q.x, q.y) for q in probs] == [(node, d["x"], d["y"])]


def test_check_fails_on_a_black_point_without_heading_or_wind(board: Board) -> None:
    _, tile = _tile_at(board, "r0c2")
    _edit(tile, "p1", heading=None, wind=None)
    got = codes(board)
    assert ("ringgeister_heading", "r0c2/p1") in got and ("ringgeister_wind", "r0c2/p1") in got


def test_check_fails_on_a_counter_space_with_two_arrival_points(board: Board) -> None:
    """ "the three arrival points surrounding a counter" — every counter space needs three."""
    _p, tile = _tile_at(board, "r1c2")
    cs = _first(tile, lambda f: f.kind == "counter_space")
    _edit(tile, cs.id, arrival=cs.props["arrival"][:2])
    assert ("ringgeister_counter_spaces", f"r1c2/{cs.id}") in codes(board)


def test_check_fails_with_eight_counter_spaces(board: Board) -> None:
    """ "one of the nine hexagonal spaces drawn on the game board"."""
    _, tile = _tile_at(board, "r1c2")
    tile.features = [f for f in tile.features if f.kind != "counter_space"]
    tile.invalidate()
    assert ("ringgeister_counter_spaces", None) in codes(board)


def test_check_fails_when_a_door_symbol_has_one_door(board: Board) -> None:
    """Ruling 5: a light figure at a door of symbol X continues from *another* door of symbol X."""
    moons = [
        (p, f)
        for p in board.placements
        for f in board.tile_of(p).features
        if f.kind == "door" and f.props["symbol"] == "moon"
    ]
    for p, f in moons[1:]:
        tile = board.tile_of(p)
        tile.features = [g for g in tile.features if g is not f]
        # keep the path whole where the door was: a door is only a mark on it
        tile.invalidate()
    probs = [q for q in problems(board) if q.code == "ringgeister_doors"]
    assert len(probs) == 1 and "'moon' has 1 door" in probs[0].message
    assert probs[0].node == f"{moons[0][0].id}/{moons[0][1].id}"


def test_check_fails_when_the_goal_is_cut_off(board: Board) -> None:
    """Rulebook 2.3: "The only path leading to the Mountain of Fire ... is the secret passage"."""
    board.features = [f for f in board.features if f.id != "fire-spider"]
    probs = [q for q in problems(board) if q.code == "ringgeister_goal"]
    assert {q.node for q in probs} == {"fire-goal"}
    assert any("no white starting point reaches the goal" in q.message for q in probs)
    assert all((q.x, q.y) == (522.0, 522.0) for q in probs)


def test_check_fails_when_the_goal_bypasses_the_spider(board: Board) -> None:
    f = board.feature("fire-spider")
    f.props = {"medium": "land"}
    probs = [q for q in problems(board) if q.code == "ringgeister_goal"]
    assert len(probs) == 1 and "without passing the spider" in probs[0].message


def test_goal_is_reached_from_the_white_starts_with_the_spider_open(saved: Board) -> None:
    """Ruling 6: only a Hobbit without counters passes the spider; the check opens the passage,
    and in the starting configuration a way exists that passes no black figure."""
    cb = compile_board(saved)
    occupied = {pc.at for pc in saved.pieces if saved.piece_types[pc.piece]["side"] == "black"}
    assert "fire-goal" in light_reach(cb)
    assert "fire-goal" in light_reach(cb, occupied)
    # with the spider's passage closed (black points blocked too) nothing reaches it
    assert "fire-goal" not in light_reach(cb, occupied | {"fire3"})


def test_check_fails_on_points_closer_than_12_mm(board: Board) -> None:
    _, tile = _tile_at(board, "r0c2")
    f = tile.feature("p2")
    x, y = f.geometry.x, f.geometry.y
    line = _first(tile, lambda g: g.kind == "path")
    # slide the point 10 mm from its neighbour p1 along the same road
    p1 = tile.feature("p1").geometry
    along = line.geometry.project(p1) + 10.0
    f.geometry = line.geometry.interpolate(along)
    tile.invalidate()
    probs = [q for q in problems(board) if q.code == "ringgeister_spacing"]
    assert len(probs) == 1 and "10.0 mm apart" in probs[0].message
    assert (x, y) != (f.geometry.x, f.geometry.y)


def test_check_fails_when_white_starts_do_not_match_the_light_figures(board: Board) -> None:
    board.features = [f for f in board.features if f.id != "ws9"]
    assert ("ringgeister_white_starts", None) in codes(board)


def test_cli_check_exits_1_on_a_broken_copy(
    tmp_path: Path, board: Board, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.store import save_project

    _, tile = _tile_at(board, "r0c2")
    _edit(tile, "p1", wind=None)
    out = tmp_path / "broken.bwproj"
    save_project(board, out)
    assert cli(["check", str(out)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any("error ringgeister_wind at r0c2/p1 (" in line for line in lines)


# ---------------------------------------------------------------------- turning every tile
def test_turning_every_turnable_tile_keeps_the_compiled_graph_consistent(saved: Board) -> None:
    """Ruling 11 turns tiles during play: ids stay, ports re-link, incremental == fresh compile."""
    board = saved.copy()
    cb = compile_board(board)
    ids0 = list(cb.ids)
    kinds = ("point", "junction", "door", "counter_space")
    counts0 = {k: v for k, v in cb.counts()["nodes"].items() if k in kinds}
    arrival0 = cb.counts()["edges"]["arrival"]
    turnable = [p for p in board.placements if board.tile_of(p).turnable]
    assert len(turnable) == 18
    for p in turnable:
        start = p.turns
        for k in range(1, 5):
            t = (start + k) % 4
            cb.turn(p.id, t)
            assert cb.ids == ids0
            assert {k2: v for k2, v in cb.counts()["nodes"].items() if k2 in kinds} == counts0
            assert cb.counts()["edges"]["arrival"] == arrival0
            fresh = compile_board(board)
            assert cb.edge_set() == fresh.edge_set(), (p.id, t)
            # the tile's content stays legal at every turn: spacing, headings, its counts
            bad = [
                q
                for q in board_problems(cb)
                if q.code
                in (
                    "ringgeister_spacing",
                    "ringgeister_heading",
                    "ringgeister_wind",
                    "ringgeister_tile",
                    "ringgeister_counter_spaces",
                )
            ]
            assert bad == [], (p.id, t, bad)
            assert dict(cb.graph.nodes(data=True)) == dict(fresh.graph.nodes(data=True))
            # ports re-linked: every port of the turned tile sits on a neighbour's port (or
            # the frame's, or faces the board's open edge), and a path edge runs through
            # each socket where both sides have a path
            for f in board.placed_features(p):
                if f.kind != "port":
                    continue
                nid = f"{p.id}/{f.id}"
                sock = cb.paths.socket(nid)
                ends = sum(len(cb.paths.seg_at.get(q, ())) for q in sock)
                through = [
                    c
                    for c in cb.paths.chains.values()
                    if nid in sock and any(q in c.via for q in sock)
                ]
                if len(sock) == 2 and ends == 2:
                    assert through, f"{nid} at turn {t} is not re-linked"
        assert p.turns == start
    assert cb.edge_set() == compile_board(saved.copy()).edge_set()


def test_turning_changes_which_lines_connect(saved: Board) -> None:
    """ "In doing so, many lines of communication are changed" — turning is the game."""
    cb = compile_board(saved.copy())
    changed = 0
    for p in [p for p in cb.board.placements if cb.board.tile_of(p).turnable]:
        before = {(a, b) for rel, a, b, _ in cb.edge_set() if rel == "path"}
        res = cb.turn(p.id, p.turns + 1)
        after = {(a, b) for rel, a, b, _ in cb.edge_set() if rel == "path"}
        changed += before != after
        assert res["added"] or res["removed"]
        cb.turn(p.id, p.turns - 1)
    assert changed == 18
