"""The second designer walkthrough (issue 33): Adventure to Mount Doom's route rebuilt
with the Draw track tool, driven through the real widgets (keys, clicks, Ctrl+clicks,
drags, typing into the Inspector — no model calls): 42 numbered spaces along a three-row
serpentine, the track renamed ``route`` (the game finds its route by that id), Rivendell
named and marked as the start, the six stage goals ticked and named, the dark-heart and
Nazgûl event spaces set on several spaces at once, the whole route boxed and dragged
down the board, saved; ``referee check`` passes on
the saved project, and the route the game's rules read from it (stage goals, their
names, the event spaces, by route index) is the shipped project's.

It counts the interactions and writes a screenshot of every step to
``$BOARDWRIGHT_WALKTHROUGH_SHOTS`` if set, else to the test's tmp dir.

What the full game needs beyond the route (the resolve track with its roles, Isengard,
the Nazgûl spaces, the encounter row, the embedded ``mount-doom`` pack's decks) is
not part of this walk: ``referee check`` with ``rules: mount-doom`` would ask for it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from editor.document import new_board
from referee.compiler import compile_board
from referee.games.mount_doom.layout import layout_of
from referee.games.tracks import track_points
from referee.store import load_project

from .conftest import ROOT
from .helpers import click, drag, focus
from .test_walkthrough import Walk, _shots_dir

SHIPPED = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"
#: the serpentine: three rows of 14 spaces, 40 mm apart, turning 40 mm down at the ends
#: (3 × 520 + 2 × 40 = 41 × 40 mm: every space lands on a 40 mm step, the corners too)
CORNERS = [
    (40.0, 60.0),
    (560.0, 60.0),
    (560.0, 100.0),
    (40.0, 100.0),
    (40.0, 140.0),
    (560.0, 140.0),
]
PER_ROW, PITCH = 14, 40.0
CTRL = Qt.KeyboardModifier.ControlModifier


def space_xy(i: int) -> tuple[float, float]:
    """Where route space ``i`` lies (the shipped board's numbering, rows 40 mm apart)."""
    row, col = divmod(i, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return 40.0 + col * PITCH, 60.0 + row * PITCH


def type_text(qtbot: Any, widget: Any, text: str) -> None:
    """Type ``text`` as key presses (QTest types ASCII only: others are sent as the
    key events a keyboard layout with them gives, ``ó`` in Lothlórien)."""
    for ch in text:
        if ch.isascii():
            qtbot.keyClicks(widget, ch)
            continue
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(
                widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch)
            )


class TrackWalk(Walk):
    def drag(self, path: list[tuple[float, float]]) -> None:
        self.count += 1
        drag(self.win.view, path)

    def ctrl_click(self, x: float, y: float) -> None:
        self.count += 1
        click(self.win.view, x, y, modifiers=CTRL)

    def type_into(self, widget: Any, text: str, enter: bool = True) -> None:
        """Click into an Inspector field, replace its text, and (one more) press Enter."""
        self.press(widget)
        self.count += 1  # select what is there and type: one go at the keyboard
        widget.selectAll()
        type_text(self.qtbot, widget, text)
        if enter:
            self.key_on(widget, Qt.Key.Key_Return)

    def field(self, key: str) -> Any:
        return self.win.inspector.widgets[key]


def test_a_designer_rebuilds_the_mount_doom_route_with_the_track_tool(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = layout_of(compile_board(load_project(SHIPPED)))
    win = make_window(board=new_board(), packs={})
    win.resize(1400, 900)
    focus(win, qtbot)
    walk = TrackWalk(win, qtbot, _shots_dir(tmp_path) / "mount-doom-route")
    project = tmp_path / "route.bwproj"

    def save_dialog(*_a: Any) -> tuple[str, str]:
        walk.count += 1  # the designer types a name
        return str(project), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    walk.shot("empty-canvas")

    # 1. the board's name, in the Inspector (nothing selected: the board's form)
    walk.type_into(walk.field("name"), "Adventure to Mount Doom")
    assert win.doc.board.meta["name"] == "Adventure to Mount Doom"

    # 2. Draw track: K, 42 in the spaces box, the route's corners, double-click to end
    win.view.setFocus()
    walk.key(Qt.Key.Key_K)
    assert win.view.tool.name == "track"
    walk.type_into(win.track_spaces, "42")
    win.view.setFocus()
    for x, y in CORNERS[:-1]:
        walk.click(x, y)
    walk.double_click(*CORNERS[-1])
    (track,) = [f for f in win.doc.board.features if f.kind == "track"]
    points = [win.doc.feature(i) for i in track.props["points"]]
    assert len(points) == 42
    for i, p in enumerate(points):
        assert (p.geometry.x, p.geometry.y) == pytest.approx(space_xy(i)), i
    walk.shot("track-drawn")

    # 3. select the track (a click on its line between two spaces), rename it "route"
    walk.key(Qt.Key.Key_V)
    walk.click(60.0, 60.0)
    assert win.scene.selected_keys() == {f"f:{track.id}"}
    walk.type_into(walk.field("id"), "route")
    assert win.scene.selected_keys() == {"f:route"}  # still selected, under its new id
    assert win.doc.feature("route").props["points"] == [p.id for p in points]
    walk.shot("track-renamed")

    # 4. Rivendell: named, then Tab straight on to its event (the Inspector keeps the focus)
    walk.click(*space_xy(0))
    walk.type_into(walk.field("name"), "Rivendell", enter=False)
    walk.key_on(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is walk.field("event")
    walk.count += 1
    qtbot.keyClicks(QApplication.focusWidget(), "start")
    walk.key_on(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert points[0].props == {"index": 0, "name": "Rivendell", "event": "start"}
    walk.shot("rivendell")

    # 5. the six stage goals: Ctrl+click them all, tick "Stage goal" once
    goals = shipped.goals
    walk.click(*space_xy(goals[0]))
    for i in goals[1:]:
        walk.ctrl_click(*space_xy(i))
    assert len(win.scene.selected_keys()) == 6
    box = walk.field("stage_goal")
    walk.press(box, QPoint(8, box.height() // 2))
    assert all(points[i].props.get("stage_goal") for i in goals)
    walk.shot("stage-goals-ticked")
    #    and each one's name
    for i in goals:
        walk.click(*space_xy(i))
        walk.type_into(walk.field("name"), shipped.goal_names[i])
    walk.shot("stage-goals-named")

    # 6. the event spaces, a kind at a time: Ctrl+click the spaces, type the event once
    for event in ("dark_heart", "nazgul"):
        spaces = sorted(i for i, e in shipped.events.items() if e == event)
        walk.click(*space_xy(spaces[0]))
        for i in spaces[1:]:
            walk.ctrl_click(*space_xy(i))
        walk.type_into(walk.field("event"), event)
        assert all(points[i].props.get("event") == event for i in spaces)
        walk.shot(f"events-{event}")
    walk.key(Qt.Key.Key_Escape)
    assert win.scene.selected_keys() == set()
    walk.shot("route-done")

    # 7. the whole route 80 mm down the board: a box drag around it, then a drag of it
    walk.drag([(20.0, 30.0), (300.0, 100.0), (590.0, 170.0)])
    assert len(win.scene.selected_keys()) == 43  # 42 spaces and the track
    before = [(p.geometry.x, p.geometry.y) for p in points]
    walk.drag([space_xy(3), (space_xy(3)[0], space_xy(3)[1] + 40.0), (160.0, 140.0)])
    moved = [win.doc.feature(p.id) for p in points]
    assert [(q.geometry.x, q.geometry.y) for q in moved] == [(x, y + 80.0) for x, y in before]
    walk.key(Qt.Key.Key_Escape)
    walk.key(Qt.Key.Key_0, CTRL)  # zoom to the content
    walk.shot("route-moved")

    # 8. save
    win.view.setFocus()
    walk.key(Qt.Key.Key_S, CTRL)
    assert project.is_file() and not win.doc.modified
    walk.shot("saved")

    # 9. the referee: the project checks clean, and its route reads as the shipped one's
    check = subprocess.run(
        [sys.executable, "-m", "referee", "check", str(project)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    c = compile_board(load_project(project))
    route = track_points(c, "route")
    g = c.graph
    assert len(route) == len(shipped.route) == 42
    assert [i for i, n in enumerate(route) if g.nodes[n].get("stage_goal")] == shipped.goals
    assert {i: g.nodes[route[i]]["name"] for i in shipped.goals} == shipped.goal_names
    events = {
        i: g.nodes[n]["event"]
        for i, n in enumerate(route)
        if g.nodes[n].get("event") in ("dark_heart", "nazgul")
    }
    assert events == shipped.events
    assert g.nodes[route[0]].get("event") == "start"

    lines = [f"{n:>3}  {name}" for name, n in walk.steps]
    print("interactions after each step:\n" + "\n".join(lines))
    print(f"screenshots in {walk.shots}")
    assert len(list(walk.shots.glob("*.png"))) == len(walk.steps)


def test_renaming_in_the_inspector_keeps_references_and_undoes(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = make_window(board=new_board(), packs={})
    focus(win, qtbot)
    walk = TrackWalk(win, qtbot, tmp_path)
    tid = win.tools["track"].add_track([(40.0, 60.0), (200.0, 60.0)], 5)
    track = win.doc.feature(tid)
    pts = list(track.props["points"])
    walk.key(Qt.Key.Key_V)
    walk.click(60.0, 60.0)
    assert win.scene.selected_keys() == {f"f:{tid}"}
    walk.type_into(walk.field("id"), pts[0])  # a point's id: refused, said, nothing changes
    assert "taken" in win.inspector.error.text() and win.doc.feature(tid) is track
    walk.type_into(walk.field("id"), "route")
    assert win.doc.feature(tid) is None and win.doc.feature("route").props["points"] == pts
    # a point renamed: the track's list follows; Ctrl+Z puts both back
    walk.click(40.0, 60.0)
    walk.type_into(walk.field("id"), "rivendell")
    assert win.doc.feature("route").props["points"] == ["rivendell", *pts[1:]]
    win.view.setFocus()
    walk.key(Qt.Key.Key_Z, CTRL)
    assert win.doc.feature("route").props["points"] == pts
    walk.key(Qt.Key.Key_Z, CTRL)
    assert win.doc.feature(tid).props["points"] == pts and win.doc.feature("route") is None
