"""The editor never loses work: every way a save, an autosave, a close or a recovery
could drop or replace a user's board (issue "Hardening at the edges")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from editor import files
from editor.app import no_display_problem
from editor.document import new_board
from referee.store import dumps_board, export_json, load_project, save_project

from .conftest import RINGGEISTER
from .helpers import click

B = QMessageBox.StandardButton


def _draw_a_point(win: Any) -> None:
    win.set_tool("point")
    click(win.view, 250, 250)
    assert win.doc.modified


def _titles(asked: Any, kind: str) -> list[str]:
    return [t for k, t, _ in asked.calls if k == kind]


# ---------------------------------------------------------------------- open
@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda d: d["placements"][0].__setitem__("turns", 10**30), id="turns-1e30"),
        pytest.param(
            lambda d: d["features"][0]["props"].__setitem__("label", float("nan")), id="nan-prop"
        ),
    ],
)
def test_a_board_that_cannot_be_saved_is_refused_at_open(
    make_window: Any, tmp_path: Path, asked: Any, spoil: Any
) -> None:
    """A JSON export that loads but could never be written back is refused when it is
    opened — with a message, and the board already open stays as it was."""
    data = load_project(RINGGEISTER).to_json()
    spoil(data)
    bad = tmp_path / "spoilt.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = bad.read_bytes()
    win = make_window(packs={})
    _draw_a_point(win)
    kept = dumps_board(win.doc.board)
    assert not win.open_path(bad)
    assert "Cannot open project" in _titles(asked, "critical")
    assert dumps_board(win.doc.board) == kept and win.doc.modified
    assert bad.read_bytes() == before


# ---------------------------------------------------------------------- save
def test_a_failed_save_keeps_board_history_and_unsaved_marker(
    make_window: Any, tmp_path: Path, asked: Any
) -> None:
    """Saving into a folder that is really a file fails: a dialog says why, and the
    board, its undo history and the unsaved marker are all still there."""
    win = make_window(packs={})
    _draw_a_point(win)
    kept = dumps_board(win.doc.board)
    (tmp_path / "afile").write_text("x")
    assert not win.save_to(tmp_path / "afile" / "b.bwproj")
    assert "Cannot save" in _titles(asked, "critical")
    assert win.doc.modified and win.isWindowModified()
    assert dumps_board(win.doc.board) == kept
    assert win.doc.undo.canUndo()
    assert win.doc.path is None


def test_an_unexpected_error_while_saving_is_shown_not_raised(
    make_window: Any, tmp_path: Path, asked: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(board: Any, path: Any) -> None:
        raise RuntimeError("disk controller on fire")

    monkeypatch.setattr(files, "save_project", broken)
    win = make_window(packs={})
    _draw_a_point(win)
    assert not win.save_to(tmp_path / "b.bwproj")
    assert any("disk controller on fire" in text for _k, _t, text in asked.calls)
    assert win.doc.modified


def test_closing_with_a_failed_save_keeps_the_window_open(
    make_window: Any, tmp_path: Path, asked: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Close → "Save" → the save fails: the window must stay, with the work in it."""
    target = tmp_path / "b.bwproj"
    save_project(new_board(), target)
    win = make_window(packs={})
    assert win.open_path(target)
    _draw_a_point(win)
    kept = dumps_board(win.doc.board)

    def broken(board: Any, path: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "save_project", broken)
    asked.answer = B.Save
    assert not win.close()
    assert win.isVisible()
    assert dumps_board(win.doc.board) == kept and win.doc.modified
    assert any("No space left" in text for _k, _t, text in asked.calls)
    assert dumps_board(load_project(target)) == dumps_board(new_board())


# ---------------------------------------------------------------------- autosave
def test_an_autosave_failure_is_shown_once_and_changes_nothing(
    make_window: Any, asked: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(path: Path, text: str) -> None:
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(files, "atomic_write", broken)
    win = make_window(packs={})
    _draw_a_point(win)
    kept = dumps_board(win.doc.board)
    assert win.autosave() is None
    assert win.autosave() is None
    assert _titles(asked, "warning").count("Autosave failed") == 1
    assert dumps_board(win.doc.board) == kept and win.doc.modified


def test_autosave_records_its_project_and_document(make_window: Any, tmp_path: Path) -> None:
    target = tmp_path / "b.bwproj"
    save_project(new_board(), target)
    win = make_window(packs={})
    assert win.open_path(target)
    _draw_a_point(win)
    side = win.autosave()
    assert side is not None
    data = json.loads(side.read_text(encoding="utf-8"))
    assert data["format"] == "boardwright-autosave"
    assert data["project"] == str(target.resolve())
    assert data["document"] == win.doc.document_id
    assert files.read_autosave(side)[1].features[-1].kind == "point"


def test_an_untitled_autosave_is_not_offered_for_an_unrelated_json_export(
    make_window: Any, tmp_path: Path, dialogs: Any
) -> None:
    """The untitled board's side file must not replace a JSON export being opened."""
    crashed = make_window(packs={})
    _draw_a_point(crashed)
    assert crashed.autosave() is not None
    crashed.doc.undo.setClean()  # "crash": the window goes away without saving

    export = tmp_path / "theirs.json"
    export_json(load_project(RINGGEISTER), export)
    dialogs.clicks = ["restore"]
    win = make_window(packs={})
    assert win.open_path(export)
    assert dialogs.seen == []
    assert dumps_board(win.doc.board) == dumps_board(load_project(export))


def test_an_untitled_autosave_is_offered_when_the_editor_starts_untitled(
    make_window: Any, dialogs: Any
) -> None:
    crashed = make_window(packs={})
    _draw_a_point(crashed)
    wanted = dumps_board(crashed.doc.board)
    assert crashed.autosave() is not None
    crashed.doc.undo.setClean()

    dialogs.clicks = ["restore"]
    fresh = make_window(packs={})
    assert fresh.offer_recovery()
    assert dumps_board(fresh.doc.board) == wanted
    assert fresh.doc.modified


def test_a_side_file_of_another_project_is_not_offered(make_window: Any, tmp_path: Path) -> None:
    """A side file copied next to another project (same name, other folder) names its
    own project and is not offered for this one."""
    a = tmp_path / "a" / "b.bwproj"
    a.parent.mkdir()
    save_project(new_board(), a)
    win = make_window(packs={})
    assert win.open_path(a)
    _draw_a_point(win)
    side = win.autosave()
    assert side is not None
    win.doc.undo.setClean()

    other = tmp_path / "c" / "b.bwproj"
    other.parent.mkdir()
    save_project(new_board(), other)
    copied = other.with_name(other.name + ".autosave.json")
    copied.write_bytes(side.read_bytes())
    os.utime(copied)
    fresh = make_window(packs={})
    assert fresh.open_path(other)
    assert not fresh.doc.modified
    assert dumps_board(fresh.doc.board) == dumps_board(new_board())


def test_closing_a_window_that_never_autosaved_keeps_the_side_file(
    make_window: Any, tmp_path: Path
) -> None:
    """Opening a project without recovery (as --screenshot does) and closing must not
    delete the autosave another session left for it."""
    target = tmp_path / "b.bwproj"
    save_project(new_board(), target)
    side = target.with_name(target.name + ".autosave.json")
    export_json(load_project(RINGGEISTER), side)
    win = make_window(packs={})
    assert win.open_path(target, offer_recovery=False)
    win.close()
    assert side.is_file()


# ---------------------------------------------------------------------- start-up
def test_no_display_is_one_line_with_what_to_do() -> None:
    msg = no_display_problem({}, "linux")
    assert msg is not None and "QT_QPA_PLATFORM=offscreen" in msg and "\n" not in msg
    assert no_display_problem({"DISPLAY": ":0"}, "linux") is None
    assert no_display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert no_display_problem({}, "darwin") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland check is Linux's")
def test_boardwright_without_a_display_exits_2_with_one_line() -> None:
    """Process boundary: Qt would abort with exit 134; we say what to do instead."""
    env = {k: v for k, v in os.environ.items() if k not in {"DISPLAY", "WAYLAND_DISPLAY"}}
    env.pop("QT_QPA_PLATFORM", None)
    proc = subprocess.run(
        [sys.executable, "-m", "editor.app"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "QT_QPA_PLATFORM=offscreen" in lines[0]


def test_screenshot_leaves_the_users_settings_alone(tmp_path: Path, asked: Any) -> None:
    """`--screenshot` opens a project but must not add it to the user's recent files."""
    from editor.app import main

    # main() names the application "Boardwright"; the conftest keeps its settings
    # file in a temporary folder
    user = QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Boardwright", "Boardwright"
    )
    user.setValue("recent_files", ["/somewhere/mine.bwproj"])
    user.sync()
    out = tmp_path / "shot.png"
    assert main([str(RINGGEISTER), "--screenshot", str(out), "--size", "400x300"]) == 0
    assert out.is_file() and out.stat().st_size > 0
    user.sync()
    assert user.value("recent_files") == ["/somewhere/mine.bwproj"]


def _png(colour: tuple[int, int, int]) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buf, format="PNG")
    return buf.getvalue()


def test_autosave_carries_pictures_added_since_the_last_save(
    make_window: Any, tmp_path: Path, dialogs: Any
) -> None:
    """A picture added after the last save lives only in memory: the side file must
    carry it, and recovery gives back both it and the pictures already saved."""
    from referee.model import Background

    board = new_board()
    saved = board.images.add(_png((200, 30, 30)), "saved.png")
    board.background = Background(saved.id)
    target = tmp_path / "b.bwproj"
    save_project(board, target)

    win = make_window(packs={})
    assert win.open_path(target)
    fresh = win.doc.board.images.add(_png((30, 30, 200)), "fresh.png")
    _draw_a_point(win)
    side = win.autosave()
    assert side is not None
    win.doc.undo.setClean()  # "crash"

    dialogs.clicks = ["restore"]
    again = make_window(packs={})
    assert again.open_path(target)
    images = again.doc.board.images
    assert images.data(fresh.id) == _png((30, 30, 200))
    assert images.data(saved.id) == _png((200, 30, 30))
    assert again.save_to(target)
    assert not side.exists() and not files.images_dir(side).exists()
    reopened = load_project(target)
    assert {i.id for i in reopened.images} == {saved.id, fresh.id}


# ---------------------------------------------------------------------- recovery dialog
def _crash_untitled(make_window: Any, x: float) -> str:
    """An untitled window draws a point at (x, 250), autosaves and "crashes"."""
    w = make_window(packs={})
    w.set_tool("point")
    click(w.view, x, 250)
    assert w.autosave() is not None
    w.doc.undo.setClean()
    return dumps_board(w.doc.board)


def _untitled_sides() -> list[Path]:
    return sorted(files.app_data_dir().glob("untitled-*.autosave.json"))


def test_declining_recovery_with_esc_keeps_the_autosave(make_window: Any, dialogs: Any) -> None:
    """On main the No/Esc answer deleted the side file without a word."""
    _crash_untitled(make_window, 250)
    before = _untitled_sides()
    dialogs.clicks = []  # Esc
    fresh = make_window(packs={})
    assert not fresh.offer_recovery()
    assert _untitled_sides() == before
    assert "for later" in fresh.statusBar().currentMessage()


def test_keep_for_later_offers_the_autosave_again(make_window: Any, dialogs: Any) -> None:
    wanted = _crash_untitled(make_window, 250)
    dialogs.clicks = ["keep"]
    assert not make_window(packs={}).offer_recovery()
    dialogs.clicks = ["restore"]
    again = make_window(packs={})
    assert again.offer_recovery()
    assert dumps_board(again.doc.board) == wanted


def test_all_autosaves_are_listed_in_one_dialog(make_window: Any, dialogs: Any) -> None:
    """On main one question came per old autosave, in a row."""
    boards = [_crash_untitled(make_window, x) for x in (150, 250, 350)]
    dialogs.clicks = []
    fresh = make_window(packs={})
    fresh.offer_recovery()
    (dlg,) = dialogs.seen
    assert dlg.list.count() == 3
    assert sorted(dumps_board(e.board) for e in dlg.entries) == sorted(boards)


def test_discard_asks_first_and_deletes_only_when_confirmed(
    make_window: Any, dialogs: Any, asked: Any
) -> None:
    _crash_untitled(make_window, 250)
    (side,) = _untitled_sides()
    asked.answer = B.No
    dialogs.clicks = ["discard"]
    make_window(packs={}).offer_recovery()
    assert [t for k, t, _ in asked.calls if k == "question"] == ["Discard autosave?"]
    assert side.is_file()  # not confirmed: kept
    asked.answer = B.Yes
    make_window(packs={}).offer_recovery()
    assert not side.exists()


def test_keeping_a_projects_autosave_survives_the_next_autosave(
    make_window: Any, tmp_path: Path, dialogs: Any
) -> None:
    """The project's own side file would be overwritten by the next autosave: keeping it
    moves it aside, and it is listed (and restorable) next time."""
    target = tmp_path / "b.bwproj"
    save_project(new_board(), target)
    win = make_window(packs={})
    assert win.open_path(target)
    _draw_a_point(win)
    wanted = dumps_board(win.doc.board)
    assert win.autosave() is not None
    win.doc.undo.setClean()
    dialogs.clicks = ["keep"]
    other = make_window(packs={})
    assert other.open_path(target)
    other.set_tool("junction")
    click(other.view, 100, 100)
    assert other.autosave() is not None  # writes the project's side file again
    other.doc.undo.setClean()
    dialogs.clicks = []
    third = make_window(packs={})
    assert third.open_path(target)
    dlg = dialogs.seen[-1]
    assert dlg.list.count() == 2 and any(e.kept for e in dlg.entries)
    # Esc kept both; pick the first session's autosave (the one with the point)
    dialogs.clicks = ["restore"]
    fourth = make_window(packs={})

    def pick_the_point(d: Any) -> int:
        kinds = [[f.kind for f in e.board.features] for e in d.entries]
        d.list.setCurrentRow(kinds.index(["point"]))
        return int(dialogs(d))

    fourth.run_dialog = pick_the_point  # type: ignore[method-assign]
    assert fourth.open_path(target)
    assert dumps_board(fourth.doc.board) == wanted


# ---------------------------------------------------------------------- asset editor
def _asset_editor_with_a_dropped_face(qtbot: Any, tmp_path: Path) -> Any:
    from editor.asset_editor import AssetEditor

    from .test_images import _face_pack, drop_files, png

    pack = _face_pack(tmp_path)
    pack.save_manifest()
    pack.save_tile(pack.tiles["p/grass"])
    ed = AssetEditor({"p": pack}, "p/grass")
    qtbot.addWidget(ed)
    ed.show()
    drop_files(ed.view, [png(tmp_path / "sand.png", (32, 32), "#fbc02d")], 0, 0)
    assert ed.doc.modified
    return ed


def test_closing_the_asset_editor_with_a_dropped_face_asks(
    qtbot: Any, tmp_path: Path, asked: Any
) -> None:
    """On main it closed without a word although its status said "Save tile keeps it"."""
    from referee.assets import load_pack

    ed = _asset_editor_with_a_dropped_face(qtbot, tmp_path)
    face = ed.current_tile().face
    asked.answer = B.Cancel
    assert not ed.close()
    assert ed.isVisible() and "unsaved changes" in asked.calls[-1][2]
    asked.answer = B.Save
    assert ed.close()
    assert load_pack(ed.pack.path).tiles["p/grass"].face == face


def test_closing_the_main_window_asks_for_the_asset_editors_unsaved_tile(
    make_window: Any, qtbot: Any, tmp_path: Path, asked: Any
) -> None:
    win = make_window(packs={})
    ed = _asset_editor_with_a_dropped_face(qtbot, tmp_path)
    win._asset_editor = ed
    asked.answer = B.Cancel
    assert not win.close()
    assert win.isVisible() and ed.isVisible()
    asked.answer = B.Discard
    assert win.close()
    assert not ed.isVisible()
