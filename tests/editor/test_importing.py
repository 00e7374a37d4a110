"""File ▸ Import from Tiled, GeoJSON or a graph: a new document, or one undo step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from editor import importing
from editor.document import new_board
from editor.window_protocol import menu_named
from referee.compiler import compile_board
from referee.export import write_export
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_file_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dialog left open would hang offscreen: these tests name the file and format."""

    def refuse(*_: Any) -> None:
        raise AssertionError("a dialog was opened")

    monkeypatch.setattr(importing.ImportUI, "choose_file", refuse)
    monkeypatch.setattr(importing.ImportUI, "choose_format", refuse)


def _export(name: str, fmt: str, tmp_path: Path) -> Path:
    c = compile_board(load_project(ROOT / "projects" / name))
    out = tmp_path / f"{name}.{'json' if fmt == 'node-link' else fmt}"
    write_export(c, fmt, out)
    return out


def test_the_file_menu_offers_it(make_window: Any) -> None:
    win = make_window(board=new_board(), packs={})
    texts = [a.text() for a in menu_named(win, "File").actions()]
    assert "Import from &Tiled, GeoJSON or a graph…" in texts


@pytest.mark.parametrize("fmt", ["tmj", "geojson", "node-link"])
def test_into_an_empty_window_it_opens_as_the_document(
    make_window: Any, tmp_path: Path, fmt: str
) -> None:
    win = make_window(board=new_board(), packs={})
    src = _export("riddle-sample", fmt, tmp_path)
    result = win.importing.import_file(str(src))  # the format guessed from the file
    assert result is not None and result.format == fmt
    assert win.doc.board is result.board and win.doc.path is None
    assert win.doc.undo.count() == 0
    assert (
        win.doc.compiled.hash == compile_board(load_project(ROOT / "projects/riddle-sample")).hash
    )


def test_into_a_board_it_is_one_undo_step(make_window: Any, asked: Any, tmp_path: Path) -> None:
    win = make_window(board=load_project(ROOT / "projects/mount-doom"), packs={})
    before = json.dumps(win.doc.board.to_json(), sort_keys=True)
    n = len(win.doc.board.features)
    asked.answer = QMessageBox.StandardButton.Yes  # add it to this board
    src = _export("mount-doom", "geojson", tmp_path)  # the same ids: all renamed
    win.importing.import_file(str(src), "geojson")
    board = win.doc.board
    assert len(board.features) == 2 * n and win.doc.undo.count() == 1
    renamed = {f.id: f for f in board.features[n:]}
    track = renamed["route~2"]
    assert track.props["points"][0] == "r00~2"  # references renamed with the ids
    win.doc.recompile_now()
    assert "route~2" in {
        e[2]["track"] for e in win.doc.compiled.graph.edges(data=True) if e[2]["relation"] == "next"
    }
    win.doc.undo.undo()
    assert json.dumps(win.doc.board.to_json(), sort_keys=True) == before
    win.doc.undo.redo()
    assert len(win.doc.board.features) == 2 * n


def test_a_refused_file_says_every_problem_and_changes_nothing(
    make_window: Any, asked: Any, tmp_path: Path
) -> None:
    win = make_window(board=new_board(), packs={})
    board = win.doc.board
    bad = tmp_path / "bad.geojson"
    bad.write_text(json.dumps({"type": "FeatureCollection", "boardwright": {"coordinates": "board-mm"}, "features": [
        {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}},
        {"type": "Feature", "properties": {"kind": "space"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
    ]}))  # fmt: skip
    assert win.importing.import_file(str(bad)) is None
    kind, title, text = asked.calls[-1]
    assert (kind, title) == ("critical", "Cannot import")
    assert text.count(str(bad)) == 2 and text.endswith("Nothing was changed.")
    assert win.doc.board is board and win.doc.undo.count() == 0


def test_a_big_file_is_read_behind_a_progress_dialog(
    make_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importing, "BIG_BYTES", 0)
    win = make_window(board=new_board(), packs={})
    src = _export("ringgeister", "tmj", tmp_path)
    result = win.importing.import_file(str(src))
    assert result is not None and len(win.doc.board.placements) == 23


def test_cancelling_the_progress_dialog_changes_nothing(
    make_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importing, "BIG_BYTES", 0)
    monkeypatch.setattr(importing.QProgressDialog, "wasCanceled", lambda self: True)
    win = make_window(board=new_board(), packs={})
    board = win.doc.board
    src = _export("riddle-sample", "tmj", tmp_path)
    assert win.importing.import_file(str(src)) is None
    assert win.doc.board is board
