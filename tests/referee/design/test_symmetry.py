"""Mirror and rotational symmetry, judged by what the tiles look like (``--symmetry``)."""

from __future__ import annotations

import json

import pytest
import shapely

from referee.cli import main
from referee.compiler import compile_board
from referee.design import Budget, DesignStore, Objective, Searcher, Space, census_options
from referee.design.report import write
from referee.design.symmetry import MATRICES, SymmetryTable
from referee.errors import UsageError
from referee.model import Feature, TileAsset
from referee.store import load_project, save_project

from .conftest import RINGGEISTER, mirror_board, mirrored_tile


def _hook() -> TileAsset:
    """A chiral tile: a point right of the middle, a path from it to the north port;
    its four turns are four different tiles."""
    feats = [
        Feature("port_N", "port", shapely.Point(0, -40), {"side": "N"}),
        Feature("pt", "point", shapely.Point(12, -5), {"colour": "grey"}),
        Feature("path", "path", shapely.LineString([(12, -5), (0, -40)]), {}),
    ]
    return TileAsset("t/hook", "hook", {"shape": "square", "size": 80.0}, feats, False)


def test_a_quarter_turn_mirrored_is_the_opposite_turn_of_the_mirrored_tile():
    hook = _hook()
    twin = mirrored_tile(hook, "t/hook-mirrored", MATRICES["mirror-x"])
    table = SymmetryTable("mirror-x", {hook.key: hook, twin.key: twin})
    for t in range(4):
        assert table.image[(hook.key, t)] == {(twin.key, (-t) % 4)}
        assert table.image[(twin.key, t)] == {(hook.key, (-t) % 4)}
    # across the horizontal line: north goes south, so the mirror is half a turn on
    assert SymmetryTable("mirror-y", {hook.key: hook, twin.key: twin}).image[(hook.key, 1)] == {
        (twin.key, 1)
    }
    # a quarter turn of the board turns the tile with it; the hook is no mirror of itself
    rot = SymmetryTable("rot90", {hook.key: hook, twin.key: twin})
    assert rot.image[(hook.key, 1)] == {(hook.key, 2)}
    assert table.partners[hook.key] == {twin.key}


def test_a_wind_direction_is_mirrored_with_its_tile():
    """Ringgeister's straight has a point with wind W: mirrored left to right it
    would blow E, so the straight is no mirror image of itself; turned half a turn
    it is its own image under a half turn (the wind turns with it)."""
    board = load_project(RINGGEISTER)
    straight = board.tiles["ringgeister/sq-straight"]
    tiles = {straight.key: straight}
    assert SymmetryTable("mirror-x", tiles).partners[straight.key] == frozenset()
    assert SymmetryTable("rot180", tiles).image[(straight.key, 0)] == {(straight.key, 2)}


def _tile_graph(compiled, centre_x: float) -> tuple[set, set, set]:
    """The tiles' nodes and links as (kind, x, y) and the same mirrored across x = centre_x
    (open port ends left out: the start and goal beside the grid close two of them)."""
    g = compiled.graph
    nodes = {n: (d["kind"], round(d["x"], 1), round(d["y"], 1)) for n, d in g.nodes(data=True)}
    on_tiles = {n for n, d in g.nodes(data=True) if d.get("tile") and d["kind"] != "dead_end"}
    mirror = {n: (k, round(2 * centre_x - x, 1) + 0.0, y) for n, (k, x, y) in nodes.items()}
    edges = {
        (d.get("relation"), d.get("medium"), frozenset((nodes[a], nodes[b])))
        for a, b, d in g.edges(data=True)
        if a in on_tiles and b in on_tiles
    }
    mirrored = {
        (d.get("relation"), d.get("medium"), frozenset((mirror[a], mirror[b])))
        for a, b, d in g.edges(data=True)
        if a in on_tiles and b in on_tiles
    }
    return {nodes[n] for n in on_tiles}, edges, mirrored


def test_a_mirrored_candidate_is_written_mirror_symmetric_with_its_census(tmp_path):
    board = mirror_board(0)
    compiled = compile_board(board)
    opts = census_options(compiled)
    space = Space.from_board(board, symmetry="mirror-x")
    assert space.asymmetry(space.original) > 0
    with DesignStore(tmp_path / "m.sqlite") as store:
        s = Searcher(space, compiled, opts, Objective.parse("connected"), store)
        r = s.run(Budget(steps=300), seed=0, top=2)
    assert r.feasible and r.best[0].violation == 0
    files = write(r, tmp_path / "out", opts)
    written = load_project(files["design-1"])
    cx = (min(p.x for p in written.placements) + max(p.x for p in written.placements)) / 2
    ports = {
        (round(f.geometry.x, 1), round(f.geometry.y, 1))
        for p in written.placements
        for f in written.placed_features(p)
        if f.kind == "port"
    }
    assert ports and {(round(2 * cx - x, 1) + 0.0, y) for x, y in ports} == ports
    nodes, edges, mirrored = _tile_graph(compile_board(written), cx)
    assert {(k, round(2 * cx - x, 1) + 0.0, y) for k, x, y in nodes} == nodes
    assert edges and mirrored == edges
    # the board as given is not symmetric: the check above can tell
    _, edges0, mirrored0 = _tile_graph(compile_board(board), cx)
    assert mirrored0 != edges0
    report = json.loads((tmp_path / "out" / "design-1.json").read_text())
    m = r.best[0].measures
    assert (report["census"]["success"], report["census"]["configurations"]) == (
        m.success,
        m.total,
    )
    assert report["violation"] == 0


def test_mirror_search_from_the_cli_writes_the_symmetric_best(tmp_path, capsys):
    proj = tmp_path / "mirror.bwproj"
    save_project(mirror_board(0), proj)
    argv = ["design", "ringgeister", str(proj), "--symmetry", "mirror-x", "--budget", "300"]
    argv += ["--db", str(tmp_path / "d.sqlite"), "--no-progress", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["feasible"] and data["best"][0]["violation"] == 0


def test_a_tile_set_that_cannot_be_mirrored_is_refused_in_one_line(capsys):
    argv = ["design", "ringgeister", str(RINGGEISTER), "--symmetry", "mirror-diag"]
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "--symmetry mirror-diag: tile 'ringgeister/" in err
    assert "has no mirror image among the tiles of its outline" in err


def test_a_board_without_mirror_slots_is_refused_in_one_line(capsys):
    # Ringgeister's 5 × 5 grid lacks the top-left and bottom-right corners
    argv = ["design", "ringgeister", str(RINGGEISTER), "--symmetry", "mirror-x"]
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "slot 'r0c4' has no slot of its outline at its image" in err


def test_a_pin_whose_image_no_tile_can_fill_is_refused():
    """c00 pinned to a chiral tile, its mirror twin pinned elsewhere: no tile left
    can lie mirrored in c04."""
    board = mirror_board(0)
    chiral = "gen/m00"
    assert board.tiles[chiral].shape == "square"
    with pytest.raises(UsageError) as err:
        Space.from_board(board, pins=[f"c00={chiral}", "c11=gen/m00-mirrored"], symmetry="mirror-x")
    msg = str(err.value)
    assert "slot 'c00' is pinned to 'gen/m00'" in msg and "slot 'c04' (its image)" in msg
    assert "the pins break the symmetry" in msg


def test_pinned_images_that_match_are_accepted_and_kept():
    board = mirror_board(0)
    space = Space.from_board(board, symmetry="mirror-x")
    table = space.table
    assert table is not None
    turn = table.turns_for(("gen/m00", 1), "gen/m00-mirrored")
    assert turn == [3]
    s = Space.from_board(
        board, pins=["c00=gen/m00@1", f"c04=gen/m00-mirrored@{turn[0]}"], symmetry="mirror-x"
    )
    ids = [sl.id for sl in s.slots]
    assert s.start[ids.index("c00")] == ("gen/m00", 1)
    assert s.start[ids.index("c04")] == ("gen/m00-mirrored", 3)


def test_mirror_with_path_terms_keeps_the_laid_turns_symmetric(tmp_path):
    """With a path term the initial turns are searched too: the candidates are laid
    symmetric turn for turn, and their path figures are those of the written board."""
    board = mirror_board(0)
    compiled = compile_board(board)
    opts = census_options(compiled)
    obj = Objective.parse("connected,path-spread=0.1")
    space = Space.from_board(board, symmetry="mirror-x", turns_matter=True)
    with DesignStore(tmp_path / "p.sqlite") as store:
        s = Searcher(space, compiled, opts, obj, store)
        r = s.run(Budget(steps=200), seed=1)
    best = r.best[0]
    assert best.violation == 0 and space.asymmetry(best.layout) == 0
    assert best.measures.steps is not None


def test_a_pack_tile_may_fill_a_mirror_slot(tmp_path):
    """With a pack the board's tiles need not all be laid: a chiral tile without its
    twin is no refusal, since a pack tile alike in the mirror can take its place."""
    from referee.assets import PACK_FORMAT, PACK_VERSION, load_pack

    board = mirror_board(0)
    lone = "gen/m00-mirrored"
    board.tiles.pop(lone)
    for p in board.placements:
        if p.tile == lone:
            p.tile = "gen/m00"  # two copies of the chiral tile, no twin
    with pytest.raises(UsageError, match="has no mirror image"):
        Space.from_board(board, symmetry="mirror-x")
    r = 40.0
    sides = {"N": (0, -r), "E": (r, 0), "S": (0, r), "W": (-r, 0)}
    feats = [Feature("pt", "point", shapely.Point(0, 0), {"colour": "grey"})]
    for s, xy in sides.items():
        feats.append(Feature(f"port_{s}", "port", shapely.Point(*xy), {"side": s}))
        feats.append(Feature(f"path_{s}", "path", shapely.LineString([(0, 0), xy]), {}))
    d = tmp_path / "kit"
    d.mkdir()
    (d / "pack.json").write_text(
        json.dumps({"format": PACK_FORMAT, "version": PACK_VERSION, "id": "kit", "name": "Kit"})
    )
    load_pack(d).save_tile(
        TileAsset("kit/open-sq", "open-sq", {"shape": "square", "size": 80.0}, feats, False)
    )
    compiled = compile_board(board)
    opts = census_options(compiled)
    space = Space.from_board(board, symmetry="mirror-x", pack=load_pack(d))
    with DesignStore(tmp_path / "k.sqlite") as store:
        s = Searcher(space, compiled, opts, Objective.parse("connected"), store)
        res = s.run(Budget(steps=300), seed=0)
    best = res.best[0]
    assert best.violation == 0
    assert "kit/open-sq" in {t for t, _ in best.layout}
