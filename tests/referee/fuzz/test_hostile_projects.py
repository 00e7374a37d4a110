"""The board verbs on hostile project files: refused in one line naming the file.

Every board verb (compile, check, render, export, …) on a malformed project exits 1
with one line on stderr that names the file, and writes nothing.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from .corpus_projects import (
    MD_DB,
    MD_JSON,
    PROJECTS,
    base_project,
    mutated_projects,
    two_projects,
)
from .harness import check_refusal, run_cli, snapshot
from .verbs import BOARD_VERBS


@pytest.mark.parametrize("kind,writer", PROJECTS, ids=[k for k, _ in PROJECTS])
def test_every_board_verb_refuses_a_hostile_project(kind, writer, tmp_path, capsys):
    """Every board verb on a malformed project: exit 1, one line naming the file, nothing written."""
    src = tmp_path / "in"
    src.mkdir()
    path = writer(src)
    before = snapshot(src)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    verbs = (
        BOARD_VERBS
        if kind in _ALL_VERB_KINDS
        else BOARD_VERBS[:1] + BOARD_VERBS[4:5] + BOARD_VERBS[9:10]
    )
    for _name, argv in verbs:
        rc, out, err = run_cli(argv(str(path), out_dir), capsys)
        check_refusal(rc, out, err, path, before, src, set())
        assert not list(out_dir.iterdir()), _name


#: Kinds run through every verb (the rest through compile, info and diff: same loader).
_ALL_VERB_KINDS = {
    "deep-list",
    "bigint-prop",
    "nan-coord",
    "surrogate-id",
    "fifo",
    "sqlite-generated",
    "sqlite-view",
    "folder-two-projects",
    "feature-props-list",
    "piece-props-list",
    "tile-bad-outline",
}


def test_nul_in_an_id_never_makes_broken_graphml(tmp_path, capsys):
    """A NUL in a feature id: the project is refused, or the GraphML is well-formed XML."""
    import xml.dom.minidom

    data = base_project()
    data["features"][0]["id"] = "r\x0100"
    p = tmp_path / "p.json"
    p.write_text(json.dumps(data))
    rc, _, err = run_cli(
        ["export", str(p), "--to", "graphml", "-o", str(tmp_path / "g.graphml")], capsys
    )
    if rc == 0:
        xml.dom.minidom.parse(str(tmp_path / "g.graphml"))
    else:
        assert rc == 1 and len(err.strip().splitlines()) == 1 and "U+0001" in err


def test_two_project_files_in_a_folder_are_named(tmp_path, capsys):
    path = two_projects(tmp_path)
    rc, _, err = run_cli(["info", str(path)], capsys)
    assert rc == 1 and "2 project files (a.bwproj, b.bwproj)" in err


def test_invalid_tile_outline_names_its_pack_file(tmp_path):
    from referee.assets import load_pack
    from referee.errors import BoardwrightError

    pack = tmp_path / "pk"
    (pack / "tiles").mkdir(parents=True)
    (pack / "pack.json").write_text(
        json.dumps({"format": "boardwright-pack", "version": 1, "id": "pk"})
    )
    bad = pack / "tiles" / "bow.json"
    bad.write_text(
        json.dumps(
            {
                "id": "bow",
                "outline": {
                    "type": "Polygon",
                    "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]],
                },
                "features": [],
            }
        )
    )
    with pytest.raises(BoardwrightError) as info:
        load_pack(pack)
    assert str(bad) in str(info.value)


def test_a_project_over_the_feature_limit_is_refused_with_a_message(monkeypatch, capsys):
    """More features than ``MAX_FEATURES`` (lowered here to keep the test fast): a message."""
    import referee.model

    monkeypatch.setattr(referee.model, "MAX_FEATURES", 50)
    for path in (MD_JSON, MD_DB):
        rc, _, err = run_cli(["info", str(path)], capsys)
        assert rc == 1 and str(path) in err and "limit 50" in err, err


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=mutated_projects())
def test_any_mutated_project_is_loaded_or_refused_in_one_line(raw, tmp_path_factory, capsys):
    folder = tmp_path_factory.mktemp("mut")
    path = folder / "p.json"
    path.write_bytes(raw)
    rc, _, err = run_cli(["info", str(path), "--json"], capsys)
    assert "Traceback" not in err and "internal error" not in err
    if rc:
        assert rc == 1 and len(err.strip().splitlines()) == 1 and str(path) in err
    assert path.read_bytes() == raw and [p.name for p in folder.iterdir()] == ["p.json"]
