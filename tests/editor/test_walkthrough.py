"""A designer's walkthrough, driven through the real widgets (drops, clicks, keys, menu
entries — no model calls): from an empty canvas to a saved 3×3 modular board of
turnable tiles with a start and a goal outside them, a Rotations result above 0 %, a
Tiled (TMJ) export and a passing ``referee check``. It counts the interactions it
needed (at most 60) and writes a screenshot of every step.

Screenshots go to ``$BOARDWRIGHT_WALKTHROUGH_SHOTS`` if set, else to the test's tmp dir
(``pytest --basetemp DIR`` keeps them where you can look).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from referee.assets import load_packs
from referee.store import load_project

from .conftest import ROOT
from .helpers import click, double_click, focus
from .test_flows import drop_tile

MAX_INTERACTIONS = 60
TILE = "painted-tiles/straight"  # a turnable 100 mm square, a road from west to east


class Walk:
    """Counts what the designer does and photographs the window after each step."""

    def __init__(self, win: Any, qtbot: Any, shots: Path) -> None:
        self.win, self.qtbot, self.shots = win, qtbot, shots
        self.count = 0
        self.steps: list[tuple[str, int]] = []
        shots.mkdir(parents=True, exist_ok=True)

    def shot(self, name: str) -> None:
        QApplication.processEvents()
        n = len(self.steps)
        self.win.grab().save(str(self.shots / f"{n:02d}-{name}.png"))
        self.steps.append((name, self.count))

    # one interaction each
    def key(self, key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        self.count += 1
        self.qtbot.keyClick(self.win.view, key, mods)

    def click(self, x: float, y: float) -> None:
        self.count += 1
        click(self.win.view, x, y)

    def double_click(self, x: float, y: float) -> None:
        self.count += 1
        double_click(self.win.view, x, y)

    def drop(self, key: str, x: float, y: float) -> None:
        self.count += 1  # one drag from the palette
        drop_tile(self.win, key, x, y)

    def press(self, button: Any, pos: Any = None) -> None:
        self.count += 1
        if pos is None:
            self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        else:
            self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=pos)

    def key_on(self, widget: Any, key: Qt.Key) -> None:
        self.count += 1
        self.qtbot.keyClick(widget, key)


def _menu_action(win: Any, path: list[str]) -> Any:
    """The action at ``path`` (``["File", "Export as", "tmj…"]``) in the menu bar."""
    actions = win.menuBar().actions()
    for i, title in enumerate(path):
        act = next(a for a in actions if a.text().replace("&", "") == title)
        if i == len(path) - 1:
            return act
        actions = act.menu().actions()
    raise AssertionError(path)


def _shots_dir(tmp_path: Path) -> Path:
    env = os.environ.get("BOARDWRIGHT_WALKTHROUGH_SHOTS")
    return Path(env) if env else tmp_path / "walkthrough"


def test_a_designer_builds_a_modular_board_from_an_empty_canvas(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = {k: v for k, v in load_packs().items() if k == "painted-tiles"}
    win = make_window(packs=packs)
    focus(win, qtbot)
    walk = Walk(win, qtbot, _shots_dir(tmp_path))
    saved_to: list[str] = []

    def save_dialog(_parent: Any, title: str, start: str, _filter: str) -> tuple[str, str]:
        """The desktop's file dialog: the designer types a name (one interaction)."""
        walk.count += 1
        name = "modular.bwproj" if title.startswith("Save") else "modular.tmj"
        saved_to.append(str(tmp_path / name))
        return saved_to[-1], ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))

    def choose(*path: str) -> None:
        walk.count += len(path)  # open each menu, then the entry
        _menu_action(win, list(path)).trigger()

    walk.shot("empty-canvas")

    # 1. nine tiles dragged from the palette, each a little off; they snap into a 3×3 grid
    choose("View", "Zoom to content")  # nothing yet: the page
    for j in range(3):
        for i in range(3):
            walk.drop(TILE, 103.0 + 100 * i + (i * 7) % 5, 97.0 + 100 * j - (j * 3) % 4)
    b = win.doc.board
    assert sorted((p.x, p.y) for p in b.placements) == sorted(
        (100.0 + 100 * i, 100.0 + 100 * j) for i in range(3) for j in range(3)
    )
    walk.shot("tiles-placed")

    # 2. a start and a goal outside the tiles, joined to the middle row's outer ports
    walk.key(Qt.Key.Key_N)
    walk.click(20.0, 200.0)
    walk.click(380.0, 200.0)
    walk.key(Qt.Key.Key_P)
    walk.click(20.0, 200.0)
    walk.double_click(52.0, 201.0)  # snaps onto the tile's west port
    walk.click(380.0, 200.0)
    walk.double_click(348.0, 199.0)
    walk.shot("start-and-goal-joined")
    win.doc.recompile_now()
    codes = {p.code for p in win.doc.compiled.problems}
    assert "path_end_open" not in codes and "tile_overlap" not in codes

    # 3. mark them in the Inspector: the start white, the goal a goal
    walk.key(Qt.Key.Key_V)
    walk.click(20.0, 200.0)
    walk.key_on(win.inspector.widgets["start"], Qt.Key.Key_Down)  # — → white
    walk.click(380.0, 200.0)
    goal_box = win.inspector.widgets["goal"]
    walk.press(goal_box, QPoint(8, goal_box.height() // 2))  # the box, at the row's left
    walk.shot("start-and-goal-marked")
    walk.key(Qt.Key.Key_Escape)
    assert win.scene.selected_keys() == set()

    # 4. save
    walk.key(Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    project = Path(saved_to[-1])
    assert project.is_file() and not win.doc.modified
    walk.shot("saved")

    # 5. the rotations: how many configurations connect the start to the goal
    choose("View", "Rotations")
    dock = win.rotations
    walk.press(dock.run_btn)
    assert dock.running, dock.banner.text()
    qtbot.waitUntil(lambda: not dock.running, timeout=120_000)
    res = dock.result
    assert res is not None and res.success is not None and res.total > 1
    assert 0 < res.success < res.total
    pct = 100.0 * res.success / res.total
    assert f"{pct:.2f} %" in dock.figures_text()
    walk.shot("rotations")

    # 6. a Tiled map
    choose("File", "Export as", "tmj…")
    tmj = Path(saved_to[-1])
    data = json.loads(tmj.read_text(encoding="utf-8"))
    assert data["type"] == "map" and data["layers"]
    walk.shot("exported")

    # 7. the referee agrees the board is playable-clean
    check = subprocess.run(
        [sys.executable, "-m", "referee", "check", str(project)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    reread = load_project(project)
    assert len(reread.placements) == 9

    lines = [f"{n:>3}  {name}" for name, n in walk.steps]
    print("interactions after each step:\n" + "\n".join(lines))
    print(f"screenshots in {walk.shots}")
    assert walk.count <= MAX_INTERACTIONS, lines
    assert len(list(walk.shots.glob("*.png"))) == len(walk.steps)
