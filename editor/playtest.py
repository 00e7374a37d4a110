"""Playtest mode: play the board against its rules referee.

The editor never decides a rule: it asks the game (``referee.games``) for its
``legal_moves``, shows them, and ``push``-es what the user clicks; an illegal
attempt shows the referee's own reason (:class:`referee.errors.IllegalMoveError`).

The game runs on a compiled *copy* of the board, so tiles the game turns (storms,
Spirits) turn on the canvas without touching the document; stopping the
playtest shows the document's board again.

Moves are read through their ``figure`` and ``to`` attributes when they have them
(Ringgeister's :class:`~referee.games.ringgeister.moves.Move`); positions come
from the state's ``to_json()["figures"]``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDockWidget,
                               QFormLayout, QGraphicsItem, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QPushButton, QSpinBox, QStyleOptionGraphicsItem,
                               QVBoxLayout, QWidget)

from referee.compiler import compile_board
from referee.errors import BoardwrightError, IllegalMoveError
from referee.games import available, get_game
from referee.model import Board

from .tools.base import Tool

FIGURE_COLOURS = {"yellow": "#f4c20d", "orange": "#f57c00", "purple": "#8e24aa",
                  "green": "#2e7d32", "white": "#fafafa"}
FIGURE_LETTER = {"hobbit": "H", "man": "M", "gandalf": "G", "gollum": "g", "orc": "O",
                 "spirit": "S"}


def move_figure(move: Any) -> str | None:
    """The figure a move moves (``move.figure``), if the move names one."""
    return getattr(move, "figure", None)


def move_target(move: Any) -> str | None:
    """The node a move goes to (``move.to``), else the last word of its text."""
    to = getattr(move, "to", None)
    if to is not None:
        return str(to)
    words = str(move).split()
    return words[-1] if len(words) >= 2 else None


class PlaytestSetupDialog(QDialog):
    """Pick the rules, a seed and the number of players."""

    def __init__(self, board: Board, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Playtest")
        form = QFormLayout(self)
        self.rules_box = QComboBox()
        for r in available():
            self.rules_box.addItem(r, r)
        i = self.rules_box.findData(board.rules)
        self.rules_box.setCurrentIndex(max(i, 0))
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, 2**31 - 1)
        self.seed_box.setValue(1)
        self.players_box = QSpinBox()
        self.players_box.setRange(1, 6)
        self.players_box.setValue(2)
        self.options_edit = QLineEdit()
        self.options_edit.setPlaceholderText("key=value, … (the rules module's options)")
        self.rules_box.currentIndexChanged.connect(
            lambda _i: self.options_edit.setText(default_options_text(self.rules())))
        self.options_edit.setText(default_options_text(self.rules()))
        form.addRow("Rules", self.rules_box)
        form.addRow("Seed", self.seed_box)
        form.addRow("Players", self.players_box)
        form.addRow("Options", self.options_edit)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok |
                              QDialogButtonBox.StandardButton.Cancel)
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)

    def rules(self) -> str:
        return str(self.rules_box.currentData())

    def seed(self) -> int:
        return int(self.seed_box.value())

    def players(self) -> int:
        return int(self.players_box.value())

    def options(self) -> dict[str, Any]:
        return parse_options(self.options_edit.text())


#: options a playtest starts with, per rules (quick set-up: counters placed at random)
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"ringgeister": {"counter_placement": "random"}}


def default_options_text(rules: str) -> str:
    return ", ".join(f"{k}={v}" for k, v in DEFAULT_OPTIONS.get(rules, {}).items())


def parse_options(text: str) -> dict[str, Any]:
    """``"a=1, b=x"`` → ``{"a": 1, "b": "x"}`` (ints, true/false, else text)."""
    out: dict[str, Any] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        k, _, v = part.partition("=")
        v = v.strip()
        val: Any = v
        if v.lower() in ("true", "false"):
            val = v.lower() == "true"
        else:
            try:
                val = int(v)
            except ValueError:
                pass
        out[k.strip()] = val
    return out


class FiguresItem(QGraphicsItem):
    """Figures at their nodes, the picked figure and its legal destinations."""

    def __init__(self, ctl: PlaytestController) -> None:
        super().__init__()
        self.ctl = ctl
        self.setZValue(80.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.ctl.window.scene.board_rect().adjusted(-50, -50, 50, 50)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        ctl = self.ctl
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for node in ctl.destinations:
            x, y = ctl.xy(node)
            painter.setPen(QPen(QColor("#00c853"), 1.6))
            painter.setBrush(QBrush(QColor(0, 200, 83, 70)))
            painter.drawEllipse(QPointF(x, y), 8.0, 8.0)
        font = QFont()
        font.setPointSizeF(5.0)
        font.setBold(True)
        painter.setFont(font)
        for fig, node in ctl.figures().items():
            if node is None:
                continue
            x, y = ctl.xy(node)
            spec = ctl.spec(fig)
            light = spec.get("side", "light") == "light"
            col = FIGURE_COLOURS.get(spec.get("colour") or ("white" if light else ""), "#212121")
            r = 4.6 + 1.2 * spec.get("size", 1)
            painter.setPen(QPen(QColor("#ff1744") if fig == ctl.picked else
                                QColor("#111111" if light else "#eeeeee"),
                                1.6 if fig == ctl.picked else 0.9))
            painter.setBrush(QColor(col))
            painter.drawEllipse(QPointF(x, y), r, r)
            painter.setPen(QColor("#111111" if light else "#ffffff"))
            painter.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter,
                             FIGURE_LETTER.get(spec.get("figure", ""), fig[:1].upper()))


class PlaytestTool(Tool):
    """Playtest: click a figure to see where it may go, click a highlighted point to play."""

    name = "playtest"
    label = "Playtest"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, ctl: PlaytestController) -> None:
        super().__init__(ctl.window)
        self.ctl = ctl

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() == Qt.MouseButton.LeftButton:
            self.ctl.click(pos.x(), pos.y())
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.ctl.pick(None)
            return True
        return False


class PlaytestController:
    """One playtest session in a main window (see module docs)."""

    def __init__(self, window: Any, rules: str, seed: int, players: int,
                 options: dict[str, Any] | None = None) -> None:
        self.window = window
        self.board = window.doc.board.copy()
        self.compiled = compile_board(self.board)
        game_cls = get_game(rules)
        opts = dict(DEFAULT_OPTIONS.get(rules, {})) if options is None else options
        self.game = game_cls.new(self.compiled, players=players, seed=seed, options=opts)
        self.picked: str | None = None
        self.destinations: set[str] = set()
        self.log: list[dict[str, Any]] = []
        self._specs = {getattr(s, "id", ""): s for s in getattr(self.game, "specs", [])}
        # UI
        self.dock = QDockWidget("Playtest", window)
        self.dock.setObjectName("PlaytestDock")
        w = QWidget()
        lay = QVBoxLayout(w)
        self.turn_label = QLabel()
        self.turn_label.setWordWrap(True)
        self.events = QListWidget()
        self.events.setWordWrap(True)
        row = QHBoxLayout()
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("type a move, e.g. hobbit-yellow t07/p3")
        self.entry.returnPressed.connect(lambda: self.play_text(self.entry.text()))
        self.pass_button = QPushButton("Pass")
        self.pass_button.clicked.connect(lambda: self.play_text("pass"))
        stop = QPushButton("Stop")
        stop.clicked.connect(window.stop_playtest)
        row.addWidget(self.entry, 1)
        row.addWidget(self.pass_button)
        row.addWidget(stop)
        self.moves = QListWidget()
        self.moves.setToolTip("The referee's legal moves: double-click one to play it")
        self.moves.itemDoubleClicked.connect(lambda it: self.play_text(it.text()))
        lay.addWidget(self.turn_label)
        lay.addWidget(self.events, 3)
        lay.addWidget(QLabel("Legal moves (double-click to play)"))
        lay.addWidget(self.moves, 1)
        lay.addLayout(row)
        self.dock.setWidget(w)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        window.tabifyDockWidget(window.inspector, self.dock)
        self.dock.show()
        self.dock.raise_()
        window.scene.markers.setVisible(False)      # the board's problems are not the game's
        for key, item in window.scene.items_by_key.items():
            if key.startswith("c:"):                # the game places its own figures
                item.setVisible(False)
        self.overlay = FiguresItem(self)
        window.scene.addItem(self.overlay)
        self._prev_tool = window.view.tool
        if self._prev_tool is not None:
            self._prev_tool.deactivate()
        self.tool = PlaytestTool(self)
        window.view.tool = self.tool
        self.tool.activate()
        self._set_editing(False)
        self.narrate([{"type": "start", "text": f"{rules} playtest, seed {seed}, "
                       f"{players} player(s)"}] + list(getattr(self.game, "setup_events", [])))
        self.refresh()

    # ------------------------------------------------------------------ state
    def figures(self) -> dict[str, str | None]:
        data = self.game.to_json()
        figs = data.get("figures", {})
        return dict(figs) if isinstance(figs, dict) else {}

    def spec(self, fig: str) -> dict[str, Any]:
        s = self._specs.get(fig)
        if s is None:
            return {"side": "light", "size": 1, "figure": fig.split("-")[0]}
        return {"side": s.side, "size": s.size, "figure": s.figure, "colour": s.colour}

    def xy(self, node: str) -> tuple[float, float]:
        return self.compiled.xy(node)

    def legal(self) -> list[Any]:
        return list(self.game.legal_moves)

    # ------------------------------------------------------------------ interaction
    def node_at(self, x: float, y: float) -> str | None:
        r = max(6.0, self.window.view.snap_radius())
        figs = {n: f for f, n in self.figures().items() if n}
        best, bd = None, r
        for node in list(figs) + sorted(self.destinations):
            nx_, ny_ = self.xy(node)
            d = ((nx_ - x) ** 2 + (ny_ - y) ** 2) ** 0.5
            if d <= bd:
                best, bd = node, d
        if best is not None:
            return best
        hits = [h for h in self.compiled.hit(x, y, r)
                if self.compiled.graph.nodes[h].get("kind") in ("point", "counter_space", "space")]
        return hits[0] if hits else None

    def pick(self, fig: str | None) -> None:
        self.picked = fig
        self.destinations = set()
        if fig is not None:
            self.destinations = {t for m in self.legal() if move_figure(m) == fig
                                 for t in [move_target(m)] if t}
        self.overlay.update()

    def click(self, x: float, y: float) -> None:
        """A click on the board at (x, y) in playtest mode."""
        node = self.node_at(x, y)
        if node is None:
            return
        at = {n: f for f, n in self.figures().items() if n}
        if self.picked is not None and node in self.destinations:
            move = next(m for m in self.legal()
                        if move_figure(m) == self.picked and move_target(m) == node)
            self.play(move)
            return
        if node in at and (self.picked is None or at[node] != self.picked):
            fig = at[node]
            mine = [m for m in self.legal() if move_figure(m) == fig]
            if mine:
                self.pick(fig)
                self.window.status(f"{fig}: {len(self.destinations)} destination(s)")
                return
            if self.picked is None:
                self.pick(None)
                self.say(f"{fig} has no legal move now ({self.game.to_move} to move)")
                return
        if self.picked is not None:
            self.play_text(f"{self.picked} {node}")
            return
        counter = [m for m in self.legal() if move_figure(m) is None and move_target(m) == node]
        if counter:
            self.play(counter[0])

    def play_text(self, text: str) -> bool:
        """Play a move given as text; an illegal one shows the referee's reason."""
        try:
            move = self.game.parse_move(text.strip())
            self.game.check(move)
        except IllegalMoveError as exc:
            self.say(f"Illegal: {exc}", error=True)
            return False
        except BoardwrightError as exc:
            self.say(f"{exc}", error=True)
            return False
        self.entry.clear()
        return self.play(move)

    def play(self, move: Any) -> bool:
        try:
            events = self.game.push(move)
        except IllegalMoveError as exc:
            self.say(f"Illegal: {exc}", error=True)
            return False
        self.narrate([{"type": "move", "text": f"▶ {move}"}] + list(events))
        self.pick(None)
        self.refresh()
        return True

    # ------------------------------------------------------------------ display
    def say(self, text: str, error: bool = False) -> None:
        self.events.addItem(text)
        it = self.events.item(self.events.count() - 1)
        if error:
            it.setForeground(QColor("#c62828"))
        self.events.scrollToBottom()
        self.window.status(text)
        self.log.append({"type": "illegal" if error else "note", "text": text})

    def narrate(self, events: list[dict[str, Any]]) -> None:
        for ev in events:
            text = ev.get("text") or str(ev)
            self.events.addItem(("   " if ev.get("type") not in ("move", "start") else "") + text)
            self.log.append(ev)
        self.events.scrollToBottom()

    def refresh(self) -> None:
        scene = self.window.scene
        for p in self.board.placements:
            item = scene.items_by_key.get(f"p:{p.id}")
            tile = self.board.tiles.get(p.tile)
            if item is not None and tile is not None and hasattr(item, "sync"):
                item.sync(p, tile)
        out = self.game.outcome
        legal = self.legal()
        self.moves.clear()
        self.moves.addItems([str(m) for m in legal[:500]])
        self.pass_button.setEnabled(any(str(m) == "pass" for m in legal))
        if out is not None:
            self.turn_label.setText(f"<b>Game over:</b> {out}")
        else:
            self.turn_label.setText(f"<b>{self.game.to_move}</b> to move · {len(legal)} legal "
                                    "move(s). Click a figure, then a green point.")
        self.overlay.update()

    def stop(self) -> None:
        w = self.window
        w.scene.removeItem(self.overlay)
        w.scene.markers.setVisible(True)
        w.removeDockWidget(self.dock)
        self.dock.deleteLater()
        self.tool.deactivate()
        w.view.tool = self._prev_tool
        if self._prev_tool is not None:
            self._prev_tool.activate()
        self._set_editing(True)
        w.scene.sync(None)

    def _set_editing(self, on: bool) -> None:
        w = self.window
        for a in list(w.tool_actions.values()) + [w.a_cut, w.a_paste, w.a_dup, w.a_delete,
                                                  w.a_turn_cw, w.a_turn_ccw, w.a_undo, w.a_redo]:
            a.setEnabled(on)
        if on:
            w.a_undo.setEnabled(w.doc.undo.canUndo())
            w.a_redo.setEnabled(w.doc.undo.canRedo())
