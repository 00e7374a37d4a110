"""``referee compile|check|info`` as a user runs them, bad input included."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from shapely.geometry import LineString, Point, box

from referee.cli import main
from referee.generators import tile_grid, voronoi_map
from referee.model import Board, Feature
from referee.store import export_json, save_project


@pytest.fixture
def grid(tmp_path):
    p = tmp_path / "grid.bwproj"
    save_project(tile_grid(2, 2, seed=1), p)
    return p


@pytest.fixture
def clean_map(tmp_path):
    p = tmp_path / "map.json"
    export_json(voronoi_map(60, 3, rivers=2, roads=2), p)
    return p


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_info_counts_nodes_and_edges(capsys, clean_map):
    code, out, _ = run(capsys, "info", str(clean_map), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["nodes"]["space"] == 60
    assert data["edges"]["touch"] > 60 and "dot" in data["edges"] and "road" in data["edges"]


def test_check_clean_board_exits_0(capsys, clean_map):
    code, _out, err = run(capsys, "check", str(clean_map))
    assert code == 0 and "0 error(s)" in err


def test_check_lists_one_line_per_problem_and_exits_1(capsys, tmp_path):
    b = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 10, 10), {}),
            Feature("B", "space", box(5, 0, 15, 10), {}),
            Feature("p", "point", Point(50, 50), {}),
            Feature("l", "path", LineString([(50, 50), (60, 50)]), {}),
        ],
    )
    export_json(b, tmp_path / "b.json")
    code, out, _ = run(capsys, "check", str(tmp_path / "b.json"))
    lines = out.strip().splitlines()
    assert code == 1
    assert any("error overlapping_spaces at A" in ln for ln in lines)
    assert any("error path_end_open at l (60, 50)" in ln for ln in lines)
    code, out, _ = run(capsys, "check", str(tmp_path / "b.json"), "--json")
    data = json.loads(out)
    assert code == 1 and not data["ok"]
    assert {p["code"] for p in data["problems"]} >= {"overlapping_spaces", "path_end_open"}


def test_check_strict_fails_on_warnings(capsys, tmp_path):
    b = Board(
        meta={},
        features=[
            Feature("a", "point", Point(0, 0), {}),
            Feature("q", "port", Point(10, 0), {}),
            Feature("l", "path", LineString([(0, 0), (10, 0)]), {}),
        ],
    )
    export_json(b, tmp_path / "b.json")
    code, out, _ = run(capsys, "check", str(tmp_path / "b.json"))
    strict, _, _ = run(capsys, "check", str(tmp_path / "b.json"), "--strict")
    assert "warning dead_end at q" in out
    assert code == 0 and strict == 1


@pytest.mark.parametrize("fmt", ["node-link", "graphml", "geojson"])
def test_compile_writes_each_format(capsys, tmp_path, grid, fmt):
    out = tmp_path / f"g.{fmt}"
    code, _, err = run(capsys, "compile", str(grid), "--format", fmt, "-o", str(out))
    assert code == 0 and out.stat().st_size > 100 and "wrote" in err


@pytest.mark.parametrize(
    "content, needle",
    [
        (None, "no such file"),
        ("{oops", "malformed JSON at line 1 column 2"),
        (
            '{"format": "boardwright-project", "version": 1, "features": [{"id": "a", "kind": "point", '
            '"geometry": {"type": "Point", "coordinates": [1e999, 0]}}]}',
            "NaN or infinite",
        ),
        (
            '{"format": "boardwright-project", "version": 1, "features": [{"id": "a", "kind": "space", '
            '"geometry": {"type": "Polygon", "coordinates": [[[0,0],[9,9],[9,0],[0,9],[0,0]]]}}]}',
            "invalid polygon: Self-intersection",
        ),
        (
            '{"format": "boardwright-project", "version": 1, "placements": '
            '[{"id": "t", "tile": "pack/nope", "x": 0, "y": 0}]}',
            "unknown tile asset 'pack/nope'",
        ),
        (
            '{"format": "boardwright-project", "version": 1, "features": ['
            '{"id": "a", "kind": "point", "geometry": {"type": "Point", "coordinates": [0, 0]}},'
            '{"id": "a", "kind": "point", "geometry": {"type": "Point", "coordinates": [1, 0]}}]}',
            "duplicate id 'a'",
        ),
    ],
)
def test_bad_input_is_one_line_exit_1_no_traceback(capsys, tmp_path, content, needle):
    p = tmp_path / "x.json"
    if content is not None:
        p.write_text(content)
    for verb in ("check", "info", "compile"):
        code, _out, err = run(capsys, verb, str(p))
        assert code == 1, err
        assert needle in err and str(p) in err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_input_in_a_real_process_is_one_line_without_traceback(tmp_path):
    """The process boundary: `python -m referee` turns the error into one line, exit 1."""
    p = tmp_path / "x.json"
    p.write_text("{oops")
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "check", str(p)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"referee check: {p}: malformed JSON at line 1 column 2")
    assert str(p) in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_not_a_project_and_corrupt_sqlite(capsys, tmp_path, grid):
    junk = tmp_path / "junk.bwproj"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 50)
    corrupt = tmp_path / "c.bwproj"
    corrupt.write_bytes(grid.read_bytes()[:1024])
    for p, needle in ((junk, "not a Boardwright project"), (corrupt, "corrupt")):
        code, _out, err = run(capsys, "info", str(p))
        assert code == 1 and needle in err and "Traceback" not in err


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["check"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["compile", "x", "--format", "pdf"])
    assert e.value.code == 2
