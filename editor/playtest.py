"""Playtest mode: play the board against its rules referee.

The editor never decides a rule: everything it shows and plays comes from the game
(``referee.games``) through the :class:`~referee.games.base.Game` interface:

- ``figures()`` — what to draw, where (:class:`~referee.games.base.FigureView`);
- ``move_targets()`` — for the player to move, which figure may go to which node and
  by which legal move(s); a click on a figure rings its destinations, a click on a
  ring plays the move (a small menu offers the choice when several moves go there);
  moves of figures not on the board (a figure entering it, a counter: figure id
  ``""``) are ringed with dashes and played by clicking the ring;
- a card picked in the hand lights where it may be played (the spaces its moves go
  to, the figures and players they name: :mod:`.playtest_targets`, the browser
  table's reading); a click on one plays the move, or offers the choice; Esc or a
  second click on the card puts it back;
- ``legal_moves`` (the move list), ``parse_move``/``check``/``push`` (the typed-move
  box); an illegal attempt shows the referee's own reason
  (:class:`referee.errors.IllegalMoveError`).

The game runs on a compiled *copy* of the board, so tiles the game turns (storms,
Spirits) turn on the canvas without touching the document; stopping the
playtest shows the document's board again.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import (
    QAction,
    QColor,
    QCursor,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from referee import palette
from referee.compiler import compile_board
from referee.errors import BoardwrightError, IllegalMoveError
from referee.games import get_game
from referee.vocabulary import FigureView, Symbol

from .game_options import DEFAULT_OPTIONS
from .playtest_bots import BotDriver
from .playtest_cards import HandWidget
from .playtest_figures import FiguresItem
from .playtest_history import PlayHistory
from .playtest_targets import CardPlays, card_plays, cards_of
from .tools.base import Tool

if TYPE_CHECKING:
    from .window_protocol import EditorWindow


def event_text(ev: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """One line for an event: its ``text`` when the referee wrote one, else its kind
    and fields (``move · player frodo · from Bree (s12) · to s13``).

    ``names`` maps node ids to place names; ``private`` details are left out.
    """
    if ev.get("text"):
        return str(ev["text"])
    names = names or {}
    kind = str(ev.get("type") or ev.get("event") or "event")

    def show(v: Any) -> str:
        if isinstance(v, str):
            return f"{names[v]} ({v})" if v in names else v
        if isinstance(v, list):
            if len(v) > 8:
                return f"{len(v)} items"
            return ", ".join(show(x) for x in v) if v else "none"
        if isinstance(v, dict):
            return ", ".join(f"{k} {show(x)}" for k, x in v.items())
        return str(v)

    parts = [kind.replace("_", " ")]
    for k, v in ev.items():
        if k in ("type", "event", "private", "text") or v is None or v is False or v == []:
            continue
        if k == "path" and isinstance(v, list):
            parts.append("path " + ">".join(str(x) for x in v))
            continue
        parts.append(f"{k.replace('_', ' ')} {show(v)}" if v is not True else k)
    return " · ".join(parts)


#: on screen, figures and rings never shrink below these radii (pixels), so a large
#: map seen whole still shows its markers
MIN_FIGURE_PX = 7.5
MIN_RING_PX = 9.0


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
            self.ctl.click(pos.x(), pos.y(), event.globalPosition().toPoint())
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.ctl.cancel()
            return True
        return False


class PlaytestController:
    """One playtest session in a main window (see module docs)."""

    def __init__(
        self,
        window: EditorWindow,
        rules: str,
        seed: int,
        players: int,
        options: dict[str, Any] | None = None,
        bots: dict[int, str] | None = None,
    ) -> None:
        self.window = window
        self.board = window.doc.board.copy()
        self.compiled = compile_board(self.board)
        game_cls = get_game(rules)
        opts = dict(DEFAULT_OPTIONS.get(rules, {})) if options is None else options
        self.game = game_cls.new(self.compiled, players=players, seed=seed, options=opts)
        #: the game's own symbols: how its figures are drawn (as ``referee render`` does)
        self.symbols = palette.rules_symbols(rules)
        self.picked: str | None = None
        self.destinations: set[str] = set()
        #: what the game says now (refreshed after every move)
        self.views: dict[str, FigureView] = {}
        self.targets: dict[str, dict[str, list[Any]]] = {}
        self.placements: dict[str, list[Any]] = {}
        #: where the card picked in the hand may be played (None: no card picked)
        self.card_plays: CardPlays | None = None
        self._base_hint = ""
        self._stacks: dict[str, list[str]] = {}
        self._legal: list[Any] = []
        self.log: list[dict[str, Any]] = []
        self.last_menu: QMenu | None = None
        self._names = {
            n: str(d["name"]) for n, d in self.compiled.graph.nodes(data=True) if d.get("name")
        }
        # UI
        self.dock = QDockWidget("Playtest", window.window())
        self.dock.setObjectName("PlaytestDock")
        w = QWidget()
        lay = QVBoxLayout(w)
        self.turn_label = QLabel()
        self.turn_label.setWordWrap(True)
        self.hint_label = QLabel()
        self.hint_label.setWordWrap(True)
        self.hint_label.setStyleSheet("color: #555555;")
        self.hint_label.setMinimumHeight(3 * self.hint_label.fontMetrics().lineSpacing())
        self.hint_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.events = QListWidget()
        self.events.setWordWrap(True)
        row = QHBoxLayout()
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("type a move")
        self.entry.returnPressed.connect(lambda: self.play_text(self.entry.text()))
        self.pass_button = QPushButton("Pass")
        self.pass_button.clicked.connect(lambda: self.play_text("pass"))
        stop = QPushButton("Stop")
        stop.clicked.connect(window.stop_playtest)
        row.addWidget(self.entry, 1)
        row.addWidget(self.pass_button)
        row.addWidget(stop)
        #: the plies played and taken back (Ctrl+Z / Ctrl+Shift+Z, the move list)
        self.history = PlayHistory()
        self.ply_list = QListWidget()
        self.ply_list.setToolTip(
            "The moves played: click one to go back (or forward) to the position after it"
        )
        self.ply_list.itemClicked.connect(lambda it: self.jump_to(self.ply_list.row(it)))
        back_row = QHBoxLayout()
        self.take_back_button = QPushButton("↶ Take back")
        self.take_back_button.setToolTip("Take back the last move (Ctrl+Z)")
        self.take_back_button.clicked.connect(self.take_back)
        self.replay_button = QPushButton("↷ Replay")
        self.replay_button.setToolTip("Play the move taken back again (Ctrl+Shift+Z)")
        self.replay_button.clicked.connect(self.replay)
        back_row.addWidget(self.take_back_button)
        back_row.addWidget(self.replay_button)
        self.a_take_back = QAction("Take back move", window.window())
        self.a_take_back.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
        self.a_take_back.triggered.connect(self.take_back)
        self.a_replay = QAction("Replay move", window.window())
        self.a_replay.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Redo))
        self.a_replay.triggered.connect(self.replay)
        window.addAction(self.a_take_back)
        window.addAction(self.a_replay)
        self.moves = QListWidget()
        self.moves.setToolTip("The referee's legal moves: double-click one to play it")
        self.moves.itemDoubleClicked.connect(lambda it: self.play_text(it.text()))
        lay.addWidget(self.turn_label)
        lay.addWidget(self.hint_label)
        lay.addWidget(self.events, 3)
        lay.addWidget(QLabel("Moves played (click one to go back to it)"))
        lay.addWidget(self.ply_list, 1)
        lay.addLayout(back_row)

        #: the hand of the player to move, as card faces (click one: its moves only)
        self.hand = HandWidget(self._pick_card)
        self.hand_title = QLabel("Hand of the player to move (click a card: its moves)")
        self.hand_area = QScrollArea()
        self.hand_area.setWidgetResizable(True)
        self.hand_area.setWidget(self.hand)
        self.hand_area.setMinimumHeight(150)
        lay.addWidget(self.hand_title)
        lay.addWidget(self.hand_area, 2)
        #: the players a picked card may be played on (one button a seat)
        self.seat_row = QWidget()
        self.seat_row.setObjectName("PlaytestSeats")
        seat_lay = QHBoxLayout(self.seat_row)
        seat_lay.setContentsMargins(0, 0, 0, 0)
        seat_lay.addWidget(QLabel("Play it on:"))
        self.seat_buttons: dict[str, QPushButton] = {}
        for p in self.game.players:
            b = QPushButton(p)
            b.setAccessibleName(f"play the card on {p}")
            b.clicked.connect(lambda _checked=False, p=p: self.play_on_player(p))
            seat_lay.addWidget(b)
            self.seat_buttons[p] = b
        seat_lay.addStretch(1)
        self.seat_row.setVisible(False)
        lay.addWidget(self.seat_row)
        lay.addWidget(QLabel("Legal moves (double-click to play)"))
        lay.addWidget(self.moves, 1)
        lay.addLayout(row)
        self.dock.setWidget(w)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        window.tabifyDockWidget(window.inspector, self.dock)
        self.dock.show()
        self.dock.raise_()
        window.scene.markers.setVisible(False)  # the board's problems are not the game's
        for key, item in window.scene.items_by_key.items():
            if key.startswith("c:"):  # the game places its own figures
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
        #: plays the seats given to bots (None: people play every seat)
        self.bot_driver: BotDriver | None = BotDriver(self, bots, seed) if bots else None
        self.narrate(
            [{"type": "start", "text": f"{rules} playtest, seed {seed}, {players} player(s)"}]
            + (
                [{"type": "start", "text": f"bots: {self.bot_driver.describe()}"}]
                if self.bot_driver is not None
                else []
            )
            + list(self.game.setup_events)
        )
        self.refresh()

    # ------------------------------------------------------------------ state
    def figures(self) -> dict[str, str]:
        """Figure id -> the node it stands on (from the game's ``figures()``)."""
        return {fid: v.node for fid, v in self.views.items()}

    def xy(self, node: str) -> tuple[float, float]:
        return self.compiled.xy(node)

    def figure_xy(self, fid: str) -> tuple[float, float]:
        """Where figure ``fid`` is drawn: its node, spread out when several share it."""
        node = self.views[fid].node
        x, y = self.xy(node)
        fids = self._stacks.get(node, [fid])
        radius = max(self.figure_radius(self.views[f]) for f in fids)
        dx, dy = palette.stack_offset(fids.index(fid), len(fids), radius)
        return x + dx, y + dy

    def legal(self) -> list[Any]:
        return list(self._legal)

    def moves_to(self, fid: str, node: str) -> list[Any]:
        """The legal moves that take figure ``fid`` to ``node`` (the game's word)."""
        return list(self.targets.get(fid, {}).get(node, []))

    def _px(self) -> float:
        """Pixels per mm at the view's zoom."""
        return max(float(getattr(self.window.view, "zoom", 1.0)), 1e-6)

    def figure_symbol(self, fid: str) -> Symbol:
        """How figure ``fid`` is drawn (:func:`referee.palette.figure_symbol`)."""
        return palette.figure_symbol(self.views[fid], self.symbols)

    def figure_radius(self, view: FigureView) -> float:
        """Radius in mm a figure is drawn (and clicked) with at the current zoom."""
        return max(palette.figure_symbol(view, self.symbols).size, MIN_FIGURE_PX / self._px())

    def ring_radius(self) -> float:
        """Radius in mm of a destination ring at the current zoom."""
        return max(FiguresItem.RING, MIN_RING_PX / self._px())

    def _layout(self) -> None:
        self._stacks = {}
        for fid, v in self.views.items():
            self._stacks.setdefault(v.node, []).append(fid)

    # ------------------------------------------------------------------ interaction
    def figure_at(self, x: float, y: float) -> str | None:
        """The figure drawn under (x, y), nearest first (picked figure on ties)."""
        slop = max(1.0, self.window.view.snap_radius() * 0.5)
        best, bd = None, math.inf
        for fid, v in self.views.items():
            fx, fy = self.figure_xy(fid)
            d = math.hypot(fx - x, fy - y)
            if d <= max(self.figure_radius(v) + slop, 6.0) and d < bd:
                best, bd = fid, d
        return best

    def _ring_at(self, nodes: Any, x: float, y: float) -> str | None:
        """The ringed node under (x, y): the nearest ring, else a ringed space (or any
        ringed node's shape) the click falls in."""
        nodes = set(nodes)
        if not nodes:
            return None
        r = max(self.ring_radius(), self.window.view.snap_radius())
        best, bd = None, r
        for node in nodes:
            nx_, ny_ = self.xy(node)
            d = math.hypot(nx_ - x, ny_ - y)
            if d <= bd:
                best, bd = node, d
        if best is None:
            best = next((h for h in self.compiled.hit(x, y, 0.5) if h in nodes), None)
        return best

    def node_at(self, x: float, y: float) -> str | None:
        """A node of the board under (x, y): a ring, a figure's node, else any node hit."""
        ring = self._ring_at(self.destinations if self.picked else self.placements, x, y)
        if ring is not None:
            return ring
        fid = self.figure_at(x, y)
        if fid is not None:
            return self.views[fid].node
        hits = self.compiled.hit(x, y, max(6.0, self.window.view.snap_radius()))
        return hits[0] if hits else None

    def pick(self, fig: str | None) -> None:
        if fig is not None and self.card_plays is not None:
            self.hand.unpick()
            self._pick_card(None)
        self.picked = fig
        self.destinations = set(self.targets.get(fig, {})) if fig is not None else set()
        self.overlay.update()

    def cancel(self) -> None:
        """Esc: close the choice, put the picked card back, unpick the figure."""
        if self.last_menu is not None and self.last_menu.isVisible():
            self.last_menu.close()
            return
        if self.card_plays is not None:
            self.hand.unpick()
            self._pick_card(None)
        self.pick(None)

    def play_on_player(self, player: str, screen: QPoint | None = None) -> bool:
        """The picked card played on ``player`` (a choice when several moves do)."""
        plays = self.card_plays
        if plays is None or player not in plays.players:
            self.say(f"The picked card is not played on {player}", error=True)
            return False
        return self.play_choice(plays.players[player], screen)

    def _click_card(self, plays: CardPlays, x: float, y: float, screen: QPoint | None) -> bool:
        """A click on the board with a card picked; False when it hit none of its
        targets and no figure to pick instead."""
        ring = self._ring_at(plays.spaces, x, y)
        if ring is not None:
            self.play_choice(plays.spaces[ring], screen)
            return True
        fid = self.figure_at(x, y)
        if fid is not None and (fid in plays.figures or fid in plays.players):
            self.play_choice(plays.figures.get(fid) or plays.players[fid], screen)
            return True
        if fid is not None and self.targets.get(fid):
            self.pick(fid)  # a figure of the player's own: its moves instead
            return True
        self.say("The picked card is not played there: click a blue ring or halo")
        return True

    def click(self, x: float, y: float, screen: QPoint | None = None) -> None:
        """A click on the board at (x, y) in playtest mode."""
        if self.card_plays is not None and self._click_card(self.card_plays, x, y, screen):
            return
        if self.picked is not None:
            ring = self._ring_at(self.destinations, x, y)
            if ring is not None:
                self.play_choice(self.moves_to(self.picked, ring), screen)
                return
        fid = self.figure_at(x, y)
        if fid is not None and fid != self.picked:
            if self.targets.get(fid):
                self.pick(fid)
                self.window.status(
                    f"{self.views[fid].name or fid}: {len(self.destinations)} destination(s)"
                )
                return
            if self.picked is None and self._ring_at(self.placements, x, y) is None:
                self.say(
                    f"{self.views[fid].name or fid} has no legal move now "
                    f"({self.game.to_move} to move)"
                )
                return
        if self.picked is not None:
            node = self.node_at(x, y)
            if node is not None:
                self.try_elsewhere(self.picked, node)
            return
        ring = self._ring_at(self.placements, x, y)
        if ring is not None:
            self.play_choice(self.placements[ring], screen)

    def try_elsewhere(self, fid: str, node: str) -> None:
        """The picked figure to a node no legal move reaches: ask the referee why.

        The move is written like the figure's own legal moves (their text with the
        destination swapped for ``node``), so the referee's reason is shown; a game
        whose moves do not end with their destination gets a plain note.
        """
        for dest, moves in self.targets.get(fid, {}).items():
            for m in moves:
                text = str(m)
                if text.endswith(dest):
                    self.play_text(text[: len(text) - len(dest)] + node)
                    return
        name = self.views[fid].name if fid in self.views else fid
        self.say(f"Illegal: no legal move takes {name or fid} to {node}", error=True)

    def choose(self, moves: list[Any], screen: QPoint | None = None) -> QMenu:
        """Several legal moves reach the clicked node: pop up a small menu of their
        texts (the referee's); choosing one plays it (:attr:`last_menu`)."""
        if self.last_menu is not None:
            self.last_menu.close()
            self.last_menu.deleteLater()
        menu = QMenu(self.window.view)
        menu.setObjectName("PlaytestChoice")
        menu.setToolTipsVisible(True)
        for m in moves:
            act = menu.addAction(str(m))
            act.setToolTip(f"play {m}")
            act.triggered.connect(lambda _checked=False, m=m: self.play(m))
        self.last_menu = menu
        menu.popup(screen if screen is not None else QCursor.pos())
        return menu

    def play_choice(self, moves: list[Any], screen: QPoint | None = None) -> bool:
        """Play the one move, or offer the choice when several go to the same node
        (returns ``False`` then: nothing is played until the user chooses)."""
        if not moves:
            return False
        if len(moves) == 1:
            return self.play(moves[0])
        self.choose(moves, screen)
        return False

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

    def play(self, move: Any, by_bot: bool = False) -> bool:
        if self.last_menu is not None:
            self.last_menu.close()
        if not by_bot and self.bot_driver is not None and self.bot_driver.is_bot_turn():
            self.say(f"It is {self.game.to_move}'s turn, and a bot plays it", error=True)
            return False
        before = self.game.copy()
        try:
            if isinstance(move, str):  # a card's move, by its text (the legal move's)
                move = self.game.parse_move(move)
            events = self.game.push(move)
        except IllegalMoveError as exc:
            self.say(f"Illegal: {exc}", error=True)
            return False
        self.history.record(str(move), before)
        self.narrate([{"type": "move", "text": f"▶ {move}"}] + list(events))
        self.picked = None
        self.hand.unpick()
        self.refresh()
        return True

    # ------------------------------------------------------------------ take-back
    def _human_to_move(self) -> bool:
        return self.bot_driver is None or not self.bot_driver.is_bot_turn()

    def take_back(self) -> bool:
        """Take back the last move — with bots, back to the last position a person is to
        move in (else the bot would play again at once). False if nothing was played."""
        if not self.history.played:
            self.say("Nothing to take back")
            return False
        if self.bot_driver is not None:
            self.bot_driver.cancel()
        while True:
            ply = self.history.take_back()
            if ply is None:
                break
            self.game = ply.before.copy()
            self.narrate([{"type": "move", "text": f"↶ took back {ply.text}"}])
            if self._human_to_move() or not self.history.played:
                break
        self.picked = None
        self.refresh()
        return True

    def replay(self) -> bool:
        """Play the move taken back last again; False if there is none."""
        text = self.history.next_replay()
        if text is None:
            self.say("Nothing to replay")
            return False
        move = self.game.parse_move(text)
        return self.play(move, by_bot=True)

    def jump_to(self, plies: int) -> None:
        """Go to the position after ``plies`` moves (0: the start), back or forward."""
        while len(self.history.played) > plies and self.history.played:
            ply = self.history.take_back()
            assert ply is not None
            self.game = ply.before.copy()
            self.narrate([{"type": "move", "text": f"↶ took back {ply.text}"}])
        while len(self.history.played) < plies and self.history.next_replay() is not None:
            if not self.replay():
                break
        if self.bot_driver is not None and len(self.history.played) == plies:
            self.bot_driver.cancel()
        self.picked = None
        self.refresh()

    def _show_plies(self) -> None:
        lines = self.history.lines()
        self.ply_list.clear()
        self.ply_list.addItems(lines)
        now = len(self.history.played)
        for i in range(len(lines)):
            it = self.ply_list.item(i)
            if i > now:
                it.setForeground(QColor("#9e9e9e"))  # taken back: click to replay up to it
            if i == now:
                f = it.font()
                f.setBold(True)
                it.setFont(f)
        self.ply_list.setCurrentRow(now)
        self.take_back_button.setEnabled(bool(self.history.played))
        self.replay_button.setEnabled(self.history.next_replay() is not None)

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
            text = event_text(ev, self._names)
            self.events.addItem(("   " if ev.get("type") not in ("move", "start") else "") + text)
            self.log.append(ev)
        self.events.scrollToBottom()

    def refresh(self) -> None:
        """Re-read the game: figures, destinations, legal moves, whose turn."""
        scene = self.window.scene
        for p in self.board.placements:
            item = scene.items_by_key.get(f"p:{p.id}")
            tile = self.board.tiles.get(p.tile)
            if item is not None and tile is not None and hasattr(item, "sync"):
                item.sync(p, tile)
        out = self.game.outcome
        self.views = dict(self.game.figures())
        self.targets = {} if out is not None else self.game.move_targets()
        self.placements = {}
        for fid, by_node in self.targets.items():
            if fid not in self.views:  # entering the board, or a counter
                for node, ms in by_node.items():
                    self.placements.setdefault(node, []).extend(ms)
        self._layout()
        if self.picked is not None and self.picked not in self.targets:
            self.picked = None
        self.destinations = set(self.targets.get(self.picked, {})) if self.picked else set()
        legal = self._legal = list(self.game.legal_moves)
        mover = self.game.to_move if out is None else None
        view = self.game.view(mover) if mover in self.game.viewers() else {}
        self.hand.show_view(view)
        self.hand_title.setVisible(bool(self.hand.cards))
        self.hand_area.setVisible(bool(self.hand.cards))
        self._card_targets()
        self._fill_moves()
        self.pass_button.setEnabled(any(str(m) == "pass" for m in legal))
        if legal:
            self.entry.setPlaceholderText(f"type a move, e.g. {legal[0]}")
        if out is not None:
            self.turn_label.setText(f"<b>Game over:</b> {out}")
            self.hint_label.setText("")
        else:
            on_board = any(f in self.views for f in self.targets)
            hint = (
                "Click a figure with a green halo, then a green ring (a number on a ring: "
                "several moves go there, you choose)."
                if on_board
                else "No figure moves now: play from the list below."
            )
            if self.placements:
                hint += " Click a dashed blue ring to place a piece there."
            self.turn_label.setText(
                f"<b>{self.game.to_move}</b> to move · {len(legal)} legal move(s)"
            )
            self._base_hint = hint
            self.hint_label.setText(self._card_hint() or hint)
        self._show_plies()
        self.overlay.update()
        if self.bot_driver is not None:
            self.bot_driver.after_refresh()

    def _pick_card(self, card: str | None) -> None:
        if card is not None:
            self.picked = None
            self.destinations = set()
            frame = next((c for c in self.hand.cards if c.cid == card), None)
            if frame is not None:
                self.hand_area.ensureWidgetVisible(frame)
        self._card_targets()
        self._fill_moves()
        hint = self._card_hint()
        if hint:
            self.hint_label.setText(hint)
        elif self.game.outcome is None:
            self.hint_label.setText(self._base_hint)
        self.overlay.update()

    def _held(self) -> list[str]:
        mover = self.game.to_move if self.game.outcome is None else None
        if mover not in self.game.viewers():
            return []
        return list(self.game.view(mover).get("hand") or [])

    def _card_targets(self) -> None:
        """Where the picked card may be played, and the seat buttons to match."""
        card = self.hand.picked
        if card is None or self.game.outcome is not None:
            self.card_plays = None
        else:
            self.card_plays = card_plays(
                card,
                [str(m) for m in self._legal],
                held=self._held(),
                seats=list(self.game.players),
                figures=list(self.views),
                targets={
                    f: {n: [str(m) for m in ms] for n, ms in d.items()}
                    for f, d in self.targets.items()
                },
            )
        players = self.card_plays.players if self.card_plays is not None else {}
        for p, b in self.seat_buttons.items():
            b.setEnabled(p in players)
            b.setStyleSheet("background: #dce8ff; font-weight: bold;" if p in players else "")
        self.seat_row.setVisible(bool(players))

    def _card_hint(self) -> str:
        plays = self.card_plays
        card = self.hand.picked
        if plays is None or card is None:
            return ""
        title = next((c.face["title"] for c in self.hand.cards if c.cid == card), card)
        parts = []
        if plays.spaces:
            parts.append(f"a blue ring ({len(plays.spaces)} space(s))")
        if plays.figures:
            parts.append(f"a figure with a blue halo ({len(plays.figures)})")
        if plays.players:
            parts.append(f"a player below ({len(plays.players)})")
        where = "click " + ", or ".join(parts) if parts else "it has no target on the board"
        loose = f"; {len(plays.loose)} move(s) without a target in the list" if plays.loose else ""
        return f"{title}: {where}{loose}. Esc puts the card back."

    def _fill_moves(self) -> None:
        """The legal moves, or only those using the card picked in the hand."""
        shown = [str(m) for m in self._legal]
        card = self.hand.picked
        if card is not None:
            held, seats = self._held(), list(self.game.players)
            mine = [m for m in shown if any(c == card for c, _ in cards_of(m, held, seats))]
            shown = mine or shown
        self.moves.clear()
        self.moves.addItems(shown[:500])

    def stop(self) -> None:
        w = self.window
        if self.bot_driver is not None:
            self.bot_driver.stop()
        if self.last_menu is not None:
            self.last_menu.close()
        w.removeAction(self.a_take_back)
        w.removeAction(self.a_replay)
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
        for a in list(w.tool_actions.values()) + [
            w.a_cut,
            w.a_paste,
            w.a_dup,
            w.a_delete,
            w.a_turn_cw,
            w.a_turn_ccw,
            w.a_undo,
            w.a_redo,
        ]:
            a.setEnabled(on)
        if on:
            w.a_undo.setEnabled(w.doc.undo.canUndo())
            w.a_redo.setEnabled(w.doc.undo.canRedo())
