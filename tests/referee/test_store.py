"""Project store: SQLite saves, JSON export/import, bad files."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, box

from referee.errors import BoardError, FormatVersionError, GeometryError, ProjectFileError
from referee.generators import tile_grid, voronoi_map
from referee.model import Board, Feature, PieceOnBoard
from referee.store import (
    dumps_board,
    export_json,
    import_json,
    load_project,
    save_project,
)


def sample_board() -> Board:
    b = tile_grid(2, 3, seed=4, turnable=3)
    b.features.append(Feature("frame", "art", box(0, 0, 300, 200), {"fill": "#eee"}))
    b.piece_types["gen/hobbit"] = {"size": "small", "count": 1}
    b.pieces.append(PieceOnBoard("h1", "gen/hobbit", None))
    b.games.append({"rules": "x", "log": ["a"]})
    return b


def test_sqlite_round_trip_is_lossless(tmp_path):
    b = sample_board()
    save_project(b, tmp_path / "p.bwproj")
    again = load_project(tmp_path / "p.bwproj")
    assert dumps_board(again) == dumps_board(b)


def test_json_export_import_export_is_byte_identical(tmp_path):
    b = sample_board()
    export_json(b, tmp_path / "a.json")
    export_json(import_json(tmp_path / "a.json"), tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_save_replaces_atomically_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "p.bwproj"
    save_project(sample_board(), target)
    b = sample_board()
    b.meta["name"] = "second"
    save_project(b, target)
    assert load_project(target).name == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.bwproj"]


def test_killing_a_save_midway_leaves_the_previous_version(tmp_path):
    """A save interrupted by SIGKILL must leave the old project readable."""
    target = tmp_path / "p.bwproj"
    save_project(sample_board(), target)
    before = target.read_bytes()
    script = textwrap.dedent(f"""
        import os, signal, sqlite_utils
        from referee.generators import voronoi_map
        from referee.store import save_project
        big = voronoi_map(3000, 1)
        orig = sqlite_utils.db.Table.insert_all
        def insert_all(self, *a, **k):
            if self.name == "features":
                os.kill(os.getpid(), signal.SIGKILL)   # die in the middle of the transaction
            return orig(self, *a, **k)
        sqlite_utils.db.Table.insert_all = insert_all
        save_project(big, {str(target)!r})
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert proc.returncode == -9
    assert target.read_bytes() == before
    assert load_project(target).name == sample_board().name


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty file"),
        (b"hello world", "neither SQLite nor JSON"),
        (b"{bad json", "malformed JSON at line 1"),
        (b'{"format": "something-else"}', "not a Boardwright project"),
        (b'{"format": "boardwright-project", "version": 99}', "version 99 is not supported"),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path, content, message):
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    with pytest.raises(ProjectFileError) as err:
        load_project(p)
    assert message in str(err.value) and str(p) in str(err.value)
    assert "\n" not in str(err.value)


def test_corrupt_sqlite_file(tmp_path):
    good = tmp_path / "p.bwproj"
    save_project(sample_board(), good)
    bad = tmp_path / "bad.bwproj"
    bad.write_bytes(good.read_bytes()[:200] + b"\0" * 300)
    with pytest.raises(ProjectFileError, match="corrupt"):
        load_project(bad)


def test_foreign_sqlite_file(tmp_path):
    p = tmp_path / "other.bwproj"
    con = sqlite3.connect(p)
    con.execute("create table x (a)")
    con.commit()
    con.close()
    with pytest.raises(ProjectFileError, match="not a Boardwright project"):
        load_project(p)


def test_unknown_sqlite_format_version(tmp_path):
    p = tmp_path / "p.bwproj"
    save_project(sample_board(), p)
    con = sqlite3.connect(p)
    con.execute("update meta set value='7' where key='version'")
    con.commit()
    con.close()
    with pytest.raises(FormatVersionError, match="version 7"):
        load_project(p)


def base_json() -> dict:
    return Board(
        meta={"name": "x"},
        features=[
            Feature("a", "point", Point(0, 0), {}),
            Feature("l", "path", LineString([(0, 0), (5, 0)])),
        ],
    ).to_json()


@pytest.mark.parametrize(
    "mutate, error, where",
    [
        (
            lambda d: d["features"][0]["geometry"].update(coordinates=[float("nan"), 0]),
            GeometryError,
            "features[0]",
        ),
        (
            lambda d: d["features"].append(
                {
                    "id": "s",
                    "kind": "space",
                    "geometry": {
                        "type": "Polygon",
                        "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]],
                    },
                }
            ),
            GeometryError,
            "features[2]",
        ),
        (lambda d: d["features"].append(dict(d["features"][0])), BoardError, "features"),
        (
            lambda d: d["placements"].append({"id": "t1", "tile": "nope/tile", "x": 0, "y": 0}),
            BoardError,
            "placements[0]",
        ),
        (lambda d: d["features"][0].update(kind="castle"), BoardError, "features[0]"),
        (lambda d: d["features"][0].update(props={"colour": "pink"}), BoardError, "features[0]"),
        (lambda d: d["features"][1].update(kind="space"), BoardError, "features[1]"),
    ],
)
def test_invalid_content_names_the_place(mutate, error, where):
    data = base_json()
    mutate(data)
    with pytest.raises(error) as err:
        Board.from_json(json.loads(json.dumps(data, allow_nan=True)), "p.json")
    assert where in str(err.value)


# ---------------------------------------------------------------------- hypothesis
coord = st.floats(-1000, 1000, allow_nan=False, allow_infinity=False)
props = st.fixed_dictionaries(
    {},
    optional={
        "colour": st.sampled_from(["grey", "black"]),
        "wind": st.sampled_from("NESW"),
        "magic": st.booleans(),
        "name": st.text(max_size=8),
    },
)


@st.composite
def boards(draw):
    feats = []
    for i in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["point", "path", "space"]))
        if kind == "point":
            geom, p = Point(draw(coord), draw(coord)), draw(props)
        elif kind == "path":
            x, y = draw(coord), draw(coord)
            geom, p = LineString([(x, y), (x + draw(st.floats(1, 50)), y)]), {}
        else:
            x, y = draw(coord), draw(coord)
            geom, p = box(x, y, x + draw(st.floats(1, 50)), y + 5), {"terrain": "open"}
        feats.append(Feature(f"f{i}", kind, geom, p))
    b = tile_grid(1, draw(st.integers(1, 3)), seed=draw(st.integers(0, 99)), turnable=1)
    b.features = feats
    b.meta["name"] = draw(st.text(max_size=10))
    return b


@pytest.mark.slow
@given(boards())
def test_hypothesis_export_import_export_is_byte_identical(b):
    text = dumps_board(b)
    assert dumps_board(Board.from_json(json.loads(text))) == text


def test_large_map_round_trips_through_sqlite(tmp_path):
    b = voronoi_map(400, 2)
    save_project(b, tmp_path / "m.bwproj")
    assert dumps_board(load_project(tmp_path / "m.bwproj")) == dumps_board(b)


# ---------------------------------------------------------------------- hardening (issue 13)
@pytest.mark.parametrize(
    "name", ["my#board.bwproj", "what?.bwproj", "100%.bwproj", "a b&c=d.bwproj"]
)
def test_names_with_uri_characters_save_and_reopen(tmp_path, name):
    target = tmp_path / name
    save_project(sample_board(), target)
    assert load_project(target).name == sample_board().name
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no stray "my" file


def test_read_only_verbs_create_no_file_beside_a_wal_project(tmp_path, capsys):
    from referee.cli import main

    target = tmp_path / "w.bwproj"
    save_project(sample_board(), target)
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode=wal")
    conn.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert load_project(target).name == sample_board().name
    assert main(["info", str(target)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before == ["w.bwproj"]
    capsys.readouterr()


def test_a_project_with_a_pending_wal_is_refused_with_a_message(tmp_path):
    target = tmp_path / "w.bwproj"
    save_project(sample_board(), target)
    (tmp_path / "w.bwproj-wal").write_bytes(b"x" * 100)
    with pytest.raises(ProjectFileError, match="unmerged changes"):
        load_project(target)


def test_a_fifo_is_refused_at_once(tmp_path):
    import os

    fifo = tmp_path / "p.bwproj"
    os.mkfifo(fifo)
    with pytest.raises(ProjectFileError) as info:
        load_project(fifo)
    assert info.value.code == "not_regular"


@pytest.mark.parametrize(
    "sql, words",
    [
        ("CREATE VIEW v AS SELECT 1", "view 'v'"),
        ("CREATE TRIGGER t AFTER INSERT ON games BEGIN SELECT 1; END", "trigger 't'"),
        ("CREATE TABLE evil (x)", "unknown table 'evil'"),
        ("ALTER TABLE features ADD COLUMN more TEXT", "unknown column features.more"),
        (
            "ALTER TABLE features ADD COLUMN g BLOB GENERATED ALWAYS AS (zeroblob(2000000000)) VIRTUAL",
            "generated",
        ),
    ],
)
def test_a_schema_that_is_not_ours_is_refused_before_reading_rows(tmp_path, sql, words):
    target = tmp_path / "p.bwproj"
    save_project(sample_board(), target)
    conn = sqlite3.connect(target)
    conn.executescript(sql)
    conn.close()
    with pytest.raises(ProjectFileError) as info:
        load_project(target)
    assert words in str(info.value) and info.value.code == "bad_schema"


def test_huge_integers_in_sqlite_cells_are_one_line_errors(tmp_path):
    target = tmp_path / "p.bwproj"
    save_project(sample_board(), target)
    conn = sqlite3.connect(target)
    conn.execute("UPDATE features SET props = ? WHERE rowid = 1", ('{"n": ' + "7" * 5000 + "}",))
    conn.commit()
    conn.close()
    with pytest.raises(ProjectFileError) as info:
        load_project(target)
    assert "digits" in str(info.value) and str(target) in str(info.value)


def test_a_board_that_cannot_be_written_is_refused_before_saving(tmp_path):
    from referee.store import check_savable

    b = sample_board()
    b.features[0].props["weight"] = float("nan")
    with pytest.raises(BoardError) as info:
        check_savable(b)
    assert "weight" in str(info.value)
    with pytest.raises(BoardError):
        save_project(b, tmp_path / "p.bwproj")
    assert list(tmp_path.iterdir()) == []


def test_save_keeps_mode_and_symlink(tmp_path):
    import os
    import stat

    real = tmp_path / "real.bwproj"
    save_project(sample_board(), real)
    real.chmod(0o664)
    link = tmp_path / "link.bwproj"
    link.symlink_to(real)
    b = sample_board()
    b.meta["name"] = "via link"
    save_project(b, link)
    assert link.is_symlink() and load_project(real).name == "via link"
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o664


def test_a_folder_with_two_projects_says_so(tmp_path):
    save_project(sample_board(), tmp_path / "a.bwproj")
    save_project(sample_board(), tmp_path / "b.bwproj")
    with pytest.raises(ProjectFileError, match=r"2 project files \(a.bwproj, b.bwproj\)"):
        load_project(tmp_path)
