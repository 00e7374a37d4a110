"""The second designer walkthrough (issue 33): Adventure to Mount Doom's board rebuilt
with the Draw track tool, driven through the real widgets (keys, clicks, Ctrl+clicks,
drags, typing into the Inspector — no model calls): the route's 42 numbered spaces
along a three-row serpentine, the track renamed ``route`` (the rules find their
tracks by id), Rivendell named and marked as the start, the six stage goals ticked and
named, the dark-heart and Nazgûl event spaces set on several spaces at once, the
whole route boxed and dragged down the page; then the rally link from Minas Morgul,
the resolve track with its ends, the Ring's start and Sauron's eye, Isengard's and
Minas Morgul's spaces, the encounter row's symbols, and the rules (which bring the
``mount-doom`` pack's decks and dice). Saved; ``referee check`` passes, the layout the
rules read from the project matches the shipped one's (route, stage goals and names,
events, track lengths, roles, row symbols), and ``referee new mount-doom`` starts a game
on it.

It counts the interactions and writes a screenshot of every step to
``$BOARDWRIGHT_WALKTHROUGH_SHOTS`` if set, else to the test's tmp dir.
"""

from __future__ import annotations

import json
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
#: the walk's bound (docs/reference/editor.md quotes it)
MAX_INTERACTIONS = 220


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

    def draw(
        self, n: int, corners: list[tuple[float, float]], tid: str, on_line: tuple[float, float]
    ) -> None:
        """Draw track: K, ``n`` spaces, the corners; then V, a click on the new track's
        line at ``on_line`` and its id typed into the Inspector."""
        self.win.view.setFocus()
        self.key(Qt.Key.Key_K)
        self.type_into(self.win.track_spaces, str(n))
        self.win.view.setFocus()
        for x, y in corners[:-1]:
            self.click(x, y)
        self.double_click(*corners[-1])
        self.key(Qt.Key.Key_V)
        self.click(*on_line)
        keys = self.win.scene.selected_keys()
        assert len(keys) == 1 and self.win.doc.feature(next(iter(keys))[2:]).kind == "track"
        self.type_into(self.field("id"), tid)
        assert self.win.doc.feature(tid) is not None

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


def test_a_designer_rebuilds_the_mount_doom_board_with_the_track_tool(
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

    # 8. the rest of the game's board: the page as big as the shipped one's, then each
    #    track drawn, renamed as the rules name it, and its spaces' roles typed in
    walk.type_into(walk.field("width"), "660")
    walk.type_into(walk.field("height"), "430")
    mm = space_xy(shipped.minas_morgul)
    mm = (mm[0], mm[1] + 80.0)
    rally = (mm[0] - 50.0, mm[1] + 35.0)  # below the last row (the rows are 40 mm apart)
    walk.draw(2, [mm, rally], "to_rally", (mm[0] - 25.0, mm[1] + 17.5))
    link = win.doc.feature("to_rally").props["points"]
    assert link[0] == points[shipped.minas_morgul].id  # the link starts on Minas Morgul
    walk.click(*rally)
    walk.type_into(walk.field("name"), "rally space", enter=False)
    walk.key_on(QApplication.focusWidget(), Qt.Key.Key_Tab)
    walk.type_into(walk.field("event"), "rally")
    walk.shot("rally")
    resolve = [(620.0, 40.0 + 24.0 * k) for k in range(13)]
    walk.draw(13, [resolve[0], resolve[-1]], "resolve", (620.0, 52.0))
    walk.type_into(walk.field("name"), "resolve track (bright heart to dark heart)")
    for k, role in ((0, "bright_end"), (4, "ring_start"), (8, "sauron_eye"), (12, "dark_end")):
        walk.click(*resolve[k])
        walk.type_into(walk.field("role"), role)
    walk.shot("resolve-track")
    for tid, xs, y, roles in (
        ("isengard", [80.0 + 22.0 * k for k in range(6)], 330.0, ("uruk_hai_leader", "uruk_hai")),
        ("nazgul_spaces", [300.0 + 22.0 * k for k in range(9)], 330.0, ("witch_king", "nazgul")),
    ):
        walk.draw(len(xs), [(xs[0], y), (xs[-1], y)], tid, (xs[0] + 11.0, y))
        walk.click(xs[0], y)
        walk.type_into(walk.field("role"), roles[0])
        walk.click(xs[1], y)
        for x in xs[2:]:
            walk.ctrl_click(x, y)
        walk.type_into(walk.field("role"), roles[1])
    walk.shot("isengard-and-nazgul")
    row = [(120.0 + 70.0 * k, 400.0) for k in range(6)]
    walk.draw(6, [row[0], row[-1]], "encounter_row", (155.0, 400.0))
    walk.click(*row[0])
    walk.ctrl_click(*row[5])
    walk.type_into(walk.field("symbol"), "nazgul")
    for k, who in ((1, "merry-pippin"), (2, "legolas"), (3, "gimli"), (4, "aragorn")):
        walk.click(*row[k])
        walk.type_into(walk.field("symbol"), who)
    walk.shot("encounter-row")
    # the game's rules; its pack (decks, dice, figures) comes with them
    walk.key(Qt.Key.Key_Escape)
    rules = walk.field("rules")
    walk.count += 1  # Tab to the Rules box (from Name)
    rules.setFocus(Qt.FocusReason.TabFocusReason)
    walk.key_on(rules, Qt.Key.Key_M)  # the list's own search: mount-doom
    assert win.view.tool is win.tools["select"]  # the letter went to the list, not a tool
    assert QApplication.focusWidget() is walk.field("rules")  # kept over the rebuild
    assert win.doc.board.meta["rules"] == "mount-doom"
    assert any(k.startswith("mount-doom/") for k in win.doc.board.decks)
    win.doc.recompile_now()
    assert [p.message for p in win.doc.compiled.problems if p.severity == "error"] == []
    win.view.setFocus()
    walk.key(Qt.Key.Key_0, CTRL)  # zoom to the content: the whole board
    walk.shot("rules-set")

    # 9. save
    win.view.setFocus()
    walk.key(Qt.Key.Key_S, CTRL)
    assert project.is_file() and not win.doc.modified, (
        win.statusBar().currentMessage(),
        win.ask.calls,
    )
    walk.shot("saved")

    # 10. the referee: the project checks clean, its route reads as the shipped one's,
    #     and a game of Mount Doom starts on it
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
    ours = layout_of(c)
    for part in ("resolve", "isengard", "nazgul_spaces", "row"):
        assert len(getattr(ours, part)) == len(getattr(shipped, part)), part
    assert (ours.ring_start, ours.sauron_eye) == (shipped.ring_start, shipped.sauron_eye)
    assert ours.row_symbols == shipped.row_symbols
    new = subprocess.run(
        [sys.executable, "-m", "referee", "new", "mount-doom", str(project), "--players", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert new.returncode == 0, new.stdout + new.stderr
    state = json.loads(new.stdout)
    assert state["rules"] == "mount-doom", state.keys()

    lines = [f"{n:>3}  {name}" for name, n in walk.steps]
    print("interactions after each step:\n" + "\n".join(lines))
    print(f"screenshots in {walk.shots}")
    assert walk.count <= MAX_INTERACTIONS, lines
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
