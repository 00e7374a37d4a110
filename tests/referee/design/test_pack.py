"""``--pack``: the search may put a pack's tile of a slot's outline in a slot."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import shapely

from referee.assets import PACK_FORMAT, PACK_VERSION, load_pack
from referee.cli import main
from referee.compiler import compile_board
from referee.design import Budget, DesignStore, Objective, Searcher, Space, census_options
from referee.design import fixed_slots as start_goal_slots
from referee.model import Board, Feature, TileAsset
from referee.rotations import census
from referee.store import load_project

SIDES = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
OPEN = "kit/open-oct"


def open_octagon() -> TileAsset:
    """An octagon whose four ports all meet at one point: it joins every neighbour
    at every turn, so it can only add connections where it replaces a tile."""
    r = 60.0
    feats = [Feature("pt", "point", shapely.Point(0.0, 0.0), {"colour": "grey"})]
    for side, (dx, dy) in SIDES.items():
        feats.append(Feature(f"port_{side}", "port", shapely.Point(dx * r, dy * r), {"side": side}))
        line = shapely.LineString([(0.0, 0.0), (dx * r, dy * r)])
        feats.append(Feature(f"path_{side}", "path", line, {}))
    return TileAsset(OPEN, "open-oct", {"shape": "octagon", "size": 120.0}, feats, False)


@pytest.fixture
def pack_dir(tmp_path: Path) -> Path:
    d = tmp_path / "kit"
    d.mkdir()
    manifest = {"format": PACK_FORMAT, "version": PACK_VERSION, "id": "kit", "name": "Kit"}
    (d / "pack.json").write_text(json.dumps(manifest))
    load_pack(d).save_tile(open_octagon())
    return d


def searcher(board: Board, db: Path, pack_dir: Path, **kw: object) -> Searcher:
    compiled = compile_board(board)
    opts = census_options(compiled)
    space = Space.from_board(
        board, fixed_slots=start_goal_slots(compiled, opts), pack=load_pack(pack_dir), **kw
    )  # type: ignore[arg-type]
    return Searcher(space, compiled, opts, Objective.parse("connected"), DesignStore(db))


def test_a_pack_tile_that_helps_is_chosen_and_pins_hold(grid, tmp_path, pack_dir):
    plain = searcher(grid, tmp_path / "plain.sqlite", pack_dir)
    plain.space.pack = None  # the same space without the pack's move
    without = plain.run(Budget(steps=120), seed=3)
    s = searcher(grid, tmp_path / "d.sqlite", pack_dir, pins=("c01",))
    r = s.run(Budget(steps=120), seed=3)
    best = r.best[0]
    used = Counter(t for t, _ in best.layout)
    assert used[OPEN] >= 1
    assert best.measures.connected > r.base.measures.connected
    assert best.measures.connected > without.best[0].measures.connected
    ids = [sl.id for sl in s.space.slots]
    for key, layout, _m in s.store.all(s.space_key):
        for slot in ("c00", "c33", "c01"):  # start, goal, pinned
            i = ids.index(slot)
            assert layout[i] == s.space.original[i], (key, slot)
    s.store.close()
    plain.store.close()


def test_a_pack_tile_may_be_pinned(grid, tmp_path, pack_dir):
    s = searcher(grid, tmp_path / "d.sqlite", pack_dir, pins=("c01=kit/open-oct",))
    s.run(Budget(steps=30), seed=0)
    i = [sl.id for sl in s.space.slots].index("c01")
    # every candidate but the board as given (measured as the baseline)
    rows = [layout for _k, layout, _m in s.store.all(s.space_key)]
    layouts = [layout for layout in rows if layout != s.space.original]
    assert len(layouts) == len(rows) - 1 > 5
    assert all(layout[i] == (OPEN, 0) for layout in layouts)
    assert s.run(Budget(steps=30), seed=0).best[0].layout[i] == (OPEN, 0)
    s.store.close()


def test_count_caps_a_pack_tile(grid, tmp_path, pack_dir):
    s = searcher(grid, tmp_path / "d.sqlite", pack_dir, counts=("open-oct=1",))
    r = s.run(Budget(steps=80), seed=1)
    for _key, layout, _m in s.store.all(s.space_key):
        assert sum(t == OPEN for t, _ in layout) <= 1
    assert sum(t == OPEN for t, _ in r.best[0].layout) == 1
    s.store.close()


def test_rerun_with_the_same_seed_measures_nothing(grid, tmp_path, pack_dir):
    db = tmp_path / "d.sqlite"
    s = searcher(grid, db, pack_dir)
    first = s.run(Budget(steps=60), seed=5)
    s.store.close()
    s = searcher(grid, db, pack_dir)
    again = s.run(Budget(steps=60), seed=5)
    s.store.close()
    assert again.measured == 0 and again.cached > 0
    assert [c.key for c in again.best] == [c.key for c in first.best]


def test_written_project_checks_and_its_census_matches(grid_project, tmp_path, pack_dir, capsys):
    out, db = tmp_path / "out", tmp_path / "d.sqlite"
    argv = ["design", "ringgeister", str(grid_project), "--pack", str(pack_dir)]
    argv += ["--budget", "80", "--top", "1", "-o", str(out), "--db", str(db)]
    assert main([*argv, "--no-progress", "--json"]) == 0
    best = json.loads(capsys.readouterr().out)["best"][0]
    assert any(t == OPEN for t, _ in best["layout"])
    written = out / "design-1.bwproj"
    assert main(["check", str(written), "--json"]) == 0, capsys.readouterr().err
    board = load_project(written)
    assert board.tiles[OPEN].outline_spec == {"shape": "octagon", "size": 120.0}
    again = census(compile_board(board), fewest=False)
    assert (again.success, again.total) == (
        best["measures"]["success"],
        best["measures"]["total"],
    )
    capsys.readouterr()
    assert main(["turns", str(written), "--no-write", "--json"]) == 0
    turns = json.loads(capsys.readouterr().out)
    assert (turns["success"], turns["configurations"]) == (again.success, again.total)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--pack", "no-such-pack"], "no such pack"),
        (["--count", "open-oct=1"], "--count needs --pack"),
        (["--pack", "PACK", "--count", "nope=1"], "has no tile 'nope'"),
        (["--pack", "PACK", "--count", "open-oct=x"], "N a number"),
        (["--pack", "PACK", "--pin", "c11=kit/open-oct"], "another outline"),
        (
            ["--pack", "PACK", "--pin", "c01=kit/open-oct", "--count", "open-oct=0"],
            "--count allows it 0 time(s)",
        ),
    ],
)
def test_bad_pack_input_is_one_line_exit_2(
    grid_project, tmp_path, pack_dir, capsys, extra, message
):
    extra = [str(pack_dir) if a == "PACK" else a for a in extra]
    argv = ["design", "ringgeister", str(grid_project), "--db", str(tmp_path / "d.sqlite")]
    code = main(argv + extra)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and message in err
