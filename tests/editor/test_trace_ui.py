"""Tools ▸ Trace spaces: trace the background in a thread, accept as one undo step,
discard, stop (issue "Your own art")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from editor.document import new_board
from referee.model import Background


def _map(path: Path, size: tuple[int, int] = (240, 120)) -> Path:
    """Three coloured fields separated by black borders, on a white page."""
    w, h = size
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    d.rectangle([10, 10, w // 2, h - 10], fill="#a5c882")  # forest-ish green
    d.rectangle([w // 2, 10, w - 10, h // 2], fill="#e8dfb4")
    d.rectangle([w // 2, h // 2, w - 10, h - 10], fill="#9fb6cd")
    d.rectangle([10, 10, w - 10, h - 10], outline="black", width=2)
    d.line([(w // 2, 10), (w // 2, h - 10)], fill="black", width=2)
    d.line([(w // 2, h // 2), (w - 10, h // 2)], fill="black", width=2)
    im.save(path)
    return path


def _window(make_window: Any, tmp_path: Path, **bg: Any) -> Any:
    board = new_board()
    info = board.images.add_file(_map(tmp_path / "map.png"))
    board.background = Background(info.id, **bg)
    return make_window(board=board, packs={})


def _trace(qtbot: Any, win: Any) -> Any:
    win.pictures.a_trace.trigger()
    dlg = win.pictures.trace_dialog
    with qtbot.waitSignal(dlg.finished_trace, timeout=30_000) as sig:
        dlg.start_button.click()
    assert sig.args[0] > 0, dlg.message.text()
    return dlg


def test_trace_proposes_spaces_placed_like_the_background_and_accepts_in_one_step(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path, x=100.0, y=50.0, scale=2.0)
    steps = win.doc.undo.count()
    dlg = _trace(qtbot, win)
    assert len(dlg.proposed) == 3
    assert dlg.item is not None and dlg.item.scene() is win.scene  # drawn over the board
    assert win.doc.undo.count() == steps  # nothing added before Accept
    dlg.accept_button.click()
    spaces = [f for f in win.doc.board.features if f.kind == "space"]
    assert len(spaces) == 3
    assert win.doc.undo.count() == steps + 1
    # in board mm: the picture's 240 × 120 px field at (100, 50), 2 mm per pixel
    x0 = min(f.geometry.bounds[0] for f in spaces)
    x1 = max(f.geometry.bounds[2] for f in spaces)
    assert x0 == pytest.approx(100 + 2 * 11, abs=4) and x1 == pytest.approx(100 + 2 * 229, abs=4)
    left = min(spaces, key=lambda f: f.geometry.centroid.x)
    assert left.geometry.area == pytest.approx((2 * 110) * (2 * 100), rel=0.05)
    # a coverage: neighbours share their border exactly
    others = [f for f in spaces if f is not left]
    assert all(left.geometry.intersection(o.geometry).area < 1e-6 for o in others)
    assert all(left.geometry.touches(o.geometry) for o in others)
    win.doc.recompile_now()
    assert win.doc.compiled.counts()["nodes"].get("space") == 3
    win.a_undo.trigger()
    assert not [f for f in win.doc.board.features if f.kind == "space"]
    win.a_redo.trigger()
    assert len([f for f in win.doc.board.features if f.kind == "space"]) == 3


def test_a_turned_background_is_traced_turned(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    win = _window(make_window, tmp_path, scale=1.0, rotation=90.0)
    dlg = _trace(qtbot, win)
    xs = [x for poly, _c in dlg.proposed for x in poly.exterior.xy[0]]
    ys = [y for poly, _c in dlg.proposed for y in poly.exterior.xy[1]]
    # turned a quarter clockwise about the corner: x in -120..0, y in 0..240
    assert max(xs) <= 0.5 and min(xs) >= -120.5 and min(ys) >= -0.5 and max(ys) <= 240.5


def test_discard_leaves_the_board_alone(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    win = _window(make_window, tmp_path)
    steps = win.doc.undo.count()
    dlg = _trace(qtbot, win)
    item = dlg.item
    dlg.discard_button.click()
    assert item is not None and item.scene() is None
    assert win.doc.undo.count() == steps and not win.doc.board.features


def test_stop_ends_the_trace_without_proposals(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path)
    win.pictures.a_trace.trigger()
    dlg = win.pictures.trace_dialog
    dlg.start_button.click()
    assert dlg.stop_button.isEnabled()
    dlg.stop()  # before its first stage report: it ends there
    qtbot.waitUntil(lambda: dlg.worker is None, timeout=30_000)
    assert not dlg.proposed and not win.doc.board.features
    assert "Stopped" in dlg.message.text() and dlg.start_button.isEnabled()


def test_trace_without_a_background_says_what_to_do(make_window: Any, asked: Any) -> None:
    win = make_window(board=new_board(), packs={})
    win.pictures.a_trace.trigger()
    assert asked.calls and "background" in asked.calls[-1][2]


def test_border_and_scan_are_offered_with_the_cli_defaults(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """As ``referee trace``: the border estimated (``--border auto``) and ``--scan`` off
    by default; a width typed in mm reaches the trace in the picture's pixels."""
    import editor.trace_ui as trace_ui

    calls: list[dict[str, Any]] = []
    real = trace_ui.trace_regions

    def spy(*args: Any, **kw: Any) -> Any:
        calls.append(kw)
        return real(*args, **kw)

    monkeypatch.setattr(trace_ui, "trace_regions", spy)
    win = _window(make_window, tmp_path, scale=2.0)
    win.pictures.a_trace.trigger()
    dlg = win.pictures.trace_dialog
    assert dlg.border_auto.isChecked() and not dlg.border.isEnabled()
    assert not dlg.scan.isChecked()
    dlg = _trace(qtbot, win)
    assert calls[-1]["border"] == "auto" and calls[-1]["scan"] is False
    assert "border lines 2 px, estimated" in dlg.message.text()  # the map's 2 px lines
    assert len(dlg.proposed) == 3
    # a given width: 6 mm at 2 mm per pixel is 3 px; and the picture called a scan
    dlg.border_auto.click()
    assert not dlg.border_auto.isChecked() and dlg.border.isEnabled()
    dlg.border.setValue(6.0)
    dlg.scan.click()
    with qtbot.waitSignal(dlg.finished_trace, timeout=30_000) as sig:
        dlg.start_button.click()
    assert sig.args[0] > 0, dlg.message.text()
    assert calls[-1]["border"] == pytest.approx(3.0) and calls[-1]["scan"] is True
    assert "border lines 3 px, given" in dlg.message.text()
    assert len(dlg.proposed) == 3
