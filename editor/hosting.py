"""Playtest ▸ Host on the network…: serve the open board to other players.

The dialog starts the game server (:class:`referee.net.HostedServer`: Starlette +
uvicorn, the browser table at ``/``) in a background thread for a snapshot of the
board as it is now — unsaved edits included, written to a scratch project file —
creates one game on it, and lists one secret link per seat (each with a Copy
button) and the spectators' link. The server listens on ``127.0.0.1`` (this
computer only) unless the user picks the local network; *Stop* (or closing the
dialog, or the window) ends it. Games live in a scratch SQLite file that goes away
with the server.

Starting happens off the GUI thread (:class:`HostWorker`): binding, the server's
start and the game's creation never freeze the window; a failure (port taken,
rules that do not fit the board, the server extra not installed) shows one line.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from referee.errors import BoardwrightError
from referee.games import available, get_game
from referee.store import save_project

from .game_options import OptionsForm
from .window_protocol import menu_named

if TYPE_CHECKING:
    from .window_protocol import EditorWindow

#: addresses offered: (label, host)
HOSTS = (
    ("This computer only (127.0.0.1)", "127.0.0.1"),
    ("Other computers on the network (0.0.0.0)", "0.0.0.0"),
)

#: the name the hosted board goes by on the server
PROJECT_NAME = "board"


class HostWorker(QThread):
    """Starts a :class:`~referee.net.HostedServer` and creates one game on it."""

    started_game = Signal(object, object)  # server, the create-game answer
    failed = Signal(str)

    def __init__(self, project: Path, db: Path, host: str, port: int, game: dict[str, Any]) -> None:
        super().__init__()
        self.project, self.db, self.host, self.port, self.game = project, db, host, port, game

    def run(self) -> None:
        try:
            from referee.net import HostedServer
        except ImportError as exc:  # the server extra is not installed
            self.failed.emit(
                f"hosting needs the server extra (pip install 'boardwright[server]'): {exc}"
            )
            return
        srv = HostedServer({PROJECT_NAME: self.project}, self.db, host=self.host, port=self.port)
        try:
            srv.start()
            answer = srv.create_game(
                self.game["rules"],
                PROJECT_NAME,
                players=self.game["players"],
                seed=self.game["seed"],
                options=self.game["options"],
            )
        except BoardwrightError as exc:
            srv.stop()
            self.failed.emit(str(exc))
            return
        except OSError as exc:  # the server did not answer its own request
            srv.stop()
            self.failed.emit(f"the game server did not answer: {exc}")
            return
        self.started_game.emit(srv, answer)


class HostDialog(QDialog):
    """Set up, start and stop the hosted game (see module docs)."""

    #: emitted when the server answers (its base URL) or fails to start ("")
    hosting_changed = Signal(str)

    def __init__(self, win: EditorWindow) -> None:
        super().__init__(win.window())
        self.setWindowTitle("Host on the network")
        self.win = win
        self.server: Any = None
        self.game: dict[str, Any] | None = None
        self.worker: HostWorker | None = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.rules_box = QComboBox()
        for r in available():
            self.rules_box.addItem(r, r)
        self.rules_box.setCurrentIndex(max(0, self.rules_box.findData(win.doc.board.rules)))
        self.players_box = QSpinBox()
        self.players_box.setRange(1, 8)
        self.players_box.setValue(2)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, 2**31 - 1)
        self.seed_box.setValue(1)
        self.options_form = OptionsForm(self.rules())
        self.host_box = QComboBox()
        for label, host in HOSTS:
            self.host_box.addItem(label, host)
        self.port_box = QSpinBox()
        self.port_box.setRange(0, 65535)
        self.port_box.setSpecialValueText("any free port")
        form.addRow("Rules", self.rules_box)
        form.addRow("Players", self.players_box)
        form.addRow("Seed", self.seed_box)
        form.addRow("Options", self.options_form)
        form.addRow("Listen on", self.host_box)
        form.addRow("Port", self.port_box)
        lay.addLayout(form)
        self.rules_box.currentIndexChanged.connect(self._rules_changed)
        self._rules_changed()
        self.message = QLabel("The board is served as it is now, unsaved edits included.")
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        self.links_box = QGroupBox("Seat links (each one is secret: send it to its player only)")
        self.links = QGridLayout(self.links_box)
        self.links_box.setVisible(False)
        lay.addWidget(self.links_box)
        row = QHBoxLayout()
        self.start_button = QPushButton("Start")
        self.stop_button = QPushButton("Stop")
        row.addStretch(1)
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        lay.addLayout(row)
        self.start_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.link_edits: dict[str, QLineEdit] = {}
        self._buttons()

    def rules(self) -> str:
        return str(self.rules_box.currentData())

    def _rules_changed(self) -> None:
        self.options_form.set_rules(self.rules())
        try:
            lo, hi = get_game(self.rules()).PLAYERS
        except (BoardwrightError, AttributeError):
            lo, hi = 1, 8
        self.players_box.setRange(lo, hi)

    def _buttons(self) -> None:
        running = self.server is not None or self.worker is not None
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        for w in (self.rules_box, self.players_box, self.seed_box, self.host_box, self.port_box):
            w.setEnabled(not running)
        self.options_form.setEnabled(not running)

    # ------------------------------------------------------------------ start / stop
    def start(self) -> None:
        """Snapshot the board, then start the server and the game in a worker thread."""
        if self.server is not None or self.worker is not None:
            return
        try:
            options = self.options_form.values()
            self._scratch = tempfile.TemporaryDirectory(prefix="boardwright-host-")
            folder = Path(self._scratch.name)
            project = folder / f"{PROJECT_NAME}.bwproj"
            save_project(self.win.doc.board, project)
        except (BoardwrightError, OSError) as exc:
            self._fail(f"cannot host: {exc}")
            return
        game = {
            "rules": self.rules(),
            "players": self.players_box.value(),
            "seed": self.seed_box.value(),
            "options": options,
        }
        self.worker = HostWorker(
            project,
            folder / "games.sqlite",
            str(self.host_box.currentData()),
            self.port_box.value(),
            game,
        )
        self.worker.started_game.connect(self._on_started)
        self.worker.failed.connect(self._fail)
        self.message.setText("Starting the game server…")
        self.worker.start()
        self._buttons()

    def _finish_worker(self) -> None:
        if self.worker is not None:
            self.worker.wait()
            self.worker.deleteLater()
            self.worker = None

    def _on_started(self, server: Any, game: dict[str, Any]) -> None:
        self._finish_worker()
        self.server, self.game = server, game
        self.message.setText(
            f"Serving {self.rules()} at <a href='{server.url}'>{server.url}</a> — game "
            f"{game['game']}. Stop ends it."
        )
        self.message.setOpenExternalLinks(True)
        self._show_links(game)
        self._buttons()
        self.win.status(f"Hosting {self.rules()} at {server.url}")
        self.hosting_changed.emit(str(server.url))

    def _show_links(self, game: dict[str, Any]) -> None:
        while self.links.count():
            item = self.links.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        self.link_edits = {}
        rows = [(str(s["player"]), str(s["link"])) for s in game["seats"]]
        rows.append(("Spectators", str(game["spectate"])))
        for r, (who, link) in enumerate(rows):
            edit = QLineEdit(link)
            edit.setReadOnly(True)
            edit.setMinimumWidth(460)
            edit.setCursorPosition(0)  # show where the link starts
            edit.setToolTip(link)
            copy = QPushButton("Copy")
            copy.clicked.connect(lambda _c=False, t=link, w=who: self.copy_link(w, t))
            self.links.addWidget(QLabel(who), r, 0)
            self.links.addWidget(edit, r, 1)
            self.links.addWidget(copy, r, 2)
            self.link_edits[who] = edit
        self.links_box.setVisible(True)

    def copy_link(self, who: str, link: str) -> None:
        QGuiApplication.clipboard().setText(link)
        self.win.status(f"Copied the link for {who}")

    def _fail(self, message: str) -> None:
        self._finish_worker()
        self.message.setText(f"<span style='color:#b00020'>{message}</span>")
        self.win.status(f"Hosting failed: {message}")
        self._drop_scratch()
        self._buttons()
        self.hosting_changed.emit("")

    def stop(self) -> None:
        """Stop the server (open browser tables lose their connection)."""
        self._finish_worker()
        if self.server is not None:
            self.server.stop()
            self.server = None
            self.message.setText("Stopped. The seat links no longer work.")
            self.win.status("Stopped hosting")
        self.links_box.setVisible(False)
        self._drop_scratch()
        self._buttons()

    def _drop_scratch(self) -> None:
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    def done(self, result: int) -> None:
        self.stop()
        super().done(result)


class HostingUI(QObject):
    """Adds Playtest ▸ Host on the network… to ``win``."""

    def __init__(self, win: EditorWindow) -> None:
        super().__init__(win.window())
        self.win = win
        self.dialog: HostDialog | None = None
        self.a_host = win.make_action(
            "&Host on the network…",
            self.open_dialog,
            None,
            "Serve this board to players in their browsers, one secret link per seat",
        )
        menu_named(win, "Playtest").addAction(self.a_host)

    def open_dialog(self) -> HostDialog:
        if self.dialog is None:
            self.dialog = HostDialog(self.win)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def stop(self) -> None:
        if self.dialog is not None:
            self.dialog.stop()
