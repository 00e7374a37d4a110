"""``referee diff``: board changes in the game's words, for reviewing pull requests."""

from __future__ import annotations

import json
from pathlib import Path

from referee.cli import main
from referee.compiler import compile_board
from referee.diff import diff_boards
from referee.store import export_json, load_project

ROOT = Path(__file__).resolve().parents[2]
ROAD = ROOT / "tests/fixtures/boards/road-row.json"
MAP = ROOT / "tests/fixtures/boards/little-map.json"


def _edge_keys(board):
    g = compile_board(board).graph
    return {(d["relation"], *sorted((u, v))) for u, v, d in g.edges(data=True)}


def test_turning_a_tile_reports_the_path_it_breaks_and_why():
    """The bend t2 turned from 2 to 3 quarter turns: its path no longer meets the goal
    tile's path, so 'path t2/c–t3/g removed: tile t2 turned (2 → 3)'."""
    old = load_project(ROAD)
    new = old.copy()
    new.placement("t2").turns = 3
    d = diff_boards(old, new)
    assert not d.equal
    lines = d.lines()
    assert "tile t2 turned (2 → 3)" in lines
    assert "path t2/c–t3/g removed: tile t2 turned (2 → 3)" in lines
    # the goal tile did not change, but its port became a dead end because t2 turned
    assert "dead_end t3/pN added: tile t2 turned (2 → 3)" in lines
    # every graph change is explained
    assert all(c.reasons for c in d.nodes + d.edges), [str(c) for c in d.nodes + d.edges]


def test_reported_edge_changes_equal_the_edge_set_difference():
    """Independent check: the added/removed edges are exactly the difference of the two
    compiled edge sets (relation, end nodes)."""
    old = load_project(ROAD)
    new = old.copy()
    new.placement("t2").turns = 1
    new.placement("t1").turns = 2
    d = diff_boards(old, new)
    a, b = _edge_keys(old), _edge_keys(new)
    removed = {
        (c.details["relation"], *c.details["nodes"]) for c in d.edges if c.action == "removed"
    }
    added = {(c.details["relation"], *c.details["nodes"]) for c in d.edges if c.action == "added"}
    assert removed == a - b and added == b - a


def test_region_map_property_and_bridge_changes():
    old = load_project(MAP)
    new = old.copy()
    new.features = [f for f in new.features if f.id != "ford"]
    next(f for f in new.features if f.id == "wood").props["terrain"] = "mountain"
    d = diff_boards(old, new)
    lines = d.lines()
    assert "bridge ford erased" in lines
    assert "terrain of space wood changed: forest → mountain: space wood edited" in lines
    assert any(
        line.startswith("touch bree–shire changed: bridge ford → null")
        and "bridge ford erased" in line
        for line in lines
    )


def test_moving_a_space_reports_lost_touch():
    old = load_project(MAP)
    new = old.copy()
    sea = next(f for f in new.features if f.id == "sea")
    import shapely

    sea.geometry = shapely.affinity.translate(sea.geometry, 100, 0)
    lines = diff_boards(old, new).lines()
    assert "touch hills–sea removed: space sea reshaped" in lines
    assert "touch sea–wood removed: space sea reshaped" in lines


def test_equal_boards_exit_0_and_different_exit_1(tmp_path, capsys):
    assert main(["diff", str(ROAD), str(ROAD)]) == 0
    assert "no differences" in capsys.readouterr().out
    b = load_project(ROAD)
    b.placement("t2").turns = 3
    export_json(b, tmp_path / "new.json")
    assert main(["diff", str(ROAD), str(tmp_path / "new.json")]) == 1
    out = capsys.readouterr().out
    assert "path t2/c–t3/g removed: tile t2 turned (2 → 3)" in out
    assert main(["diff", str(ROAD), str(tmp_path / "new.json"), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["equal"] is False
    assert data["summary"]["placement(s) turned"] == 1
    assert any(
        e["text"] == "path t2/c–t3/g removed: tile t2 turned (2 → 3)"
        and e["reasons"] == ["tile t2 turned (2 → 3)"]
        for e in data["edges"]
    )


def test_bad_input_is_one_line(tmp_path, capsys):
    (tmp_path / "x.json").write_text("{not json")
    assert main(["diff", str(ROAD), str(tmp_path / "x.json")]) == 1
    err = capsys.readouterr().err
    assert "malformed JSON" in err and "Traceback" not in err


def test_default_board_turn_is_explained():
    old = load_project(ROOT / "projects/ringgeister")
    new = old.copy()
    tile = next(p for p in new.placements if new.tile_of(p).turnable)
    tile.turns = (tile.turns + 1) % 4
    d = diff_boards(old, new)
    assert d.causes[0].text.startswith(f"tile {tile.id} turned")
    unexplained = [str(c) for c in d.nodes + d.edges if not c.reasons]
    assert unexplained == []
