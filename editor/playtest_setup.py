"""The Playtest dialog: rules, seed, players, the game's options, and who plays each
seat — a person or a bot (``random``, ``greedy``, or ``mcts`` with a budget in
iterations; :mod:`referee.bots`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QSpinBox,
    QWidget,
)

from referee.bots import BOTS
from referee.errors import BoardwrightError
from referee.games import available, get_game
from referee.model import Board

from .game_options import OptionsForm

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from .document import Document
    from .window_protocol import EditorWindow

#: what a seat can be: label -> bot name (None: a person at this computer)
SEAT_KINDS: tuple[tuple[str, str | None], ...] = (
    ("Person", None),
    *((f"Bot: {bot.label}", name) for name, bot in BOTS.items()),
)


class SeatRow(QWidget):
    """One seat: a person or a bot, and the MCTS budget."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.kind = QComboBox()
        for label, name in SEAT_KINDS:
            self.kind.addItem(label, name)
        self.budget = QSpinBox()
        self.budget.setRange(1, 100_000)
        self.budget.setValue(200)
        self.budget.setSuffix(" iterations")
        self.budget.setToolTip("How many searches MCTS makes for each move")
        lay.addWidget(self.kind, 1)
        lay.addWidget(self.budget)
        self.kind.currentIndexChanged.connect(self._update)
        self._update()

    def _update(self) -> None:
        self.budget.setVisible(self.kind.currentData() == "mcts")

    def spec(self) -> str | None:
        """The bot spec (``mcts:iterations=200``), or None for a person."""
        name = self.kind.currentData()
        if name == "mcts":
            return f"mcts:iterations={self.budget.value()}"
        return str(name) if name else None

    def set_spec(self, spec: str | None) -> None:
        name, _, rest = (spec or "").partition(":")
        self.kind.setCurrentIndex(max(0, self.kind.findData(name or None)))
        if rest.startswith("iterations="):
            self.budget.setValue(int(rest.split("=", 1)[1]))


class PlaytestSetupDialog(QDialog):
    """Pick the rules, a seed, the players, the options and who plays each seat."""

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
        self.players_box.setRange(1, 8)
        self.players_box.setValue(2)
        self.options_form = OptionsForm(self.rules())
        self.seats_box = QGroupBox("Seats")
        self.seats_form = QFormLayout(self.seats_box)
        self.seat_rows: list[SeatRow] = []
        form.addRow("Rules", self.rules_box)
        form.addRow("Seed", self.seed_box)
        form.addRow("Players", self.players_box)
        form.addRow("Options", self.options_form)
        form.addRow(self.seats_box)
        self.rules_box.currentIndexChanged.connect(self._rules_changed)
        self.players_box.valueChanged.connect(self._build_seats)
        self._rules_changed()
        bb = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)

    def _rules_changed(self) -> None:
        self.options_form.set_rules(self.rules())
        try:
            lo, hi = get_game(self.rules()).PLAYERS
        except (BoardwrightError, AttributeError):
            lo, hi = 1, 8
        self.players_box.setRange(lo, hi)
        self._build_seats()

    def _build_seats(self) -> None:
        n = self.players()
        while len(self.seat_rows) < n:
            row = SeatRow()
            self.seat_rows.append(row)
            self.seats_form.addRow(f"Seat {len(self.seat_rows)}", row)
        while len(self.seat_rows) > n:
            self.seat_rows.pop()
            self.seats_form.removeRow(self.seats_form.rowCount() - 1)

    def rules(self) -> str:
        return str(self.rules_box.currentData())

    def seed(self) -> int:
        return int(self.seed_box.value())

    def players(self) -> int:
        return int(self.players_box.value())

    def options(self) -> dict[str, Any]:
        """The options chosen (raises :class:`UsageError` for a malformed free option)."""
        return self.options_form.values()

    def bots(self) -> dict[int, str]:
        """``{seat index: bot spec}`` for the seats a bot plays."""
        return {i: s for i, row in enumerate(self.seat_rows) if (s := row.spec()) is not None}


class PlaytestActions:
    """Playtest ▸ Playtest… and Stop playtest of the main window (mixed into it)."""

    # provided by MainWindow
    doc: Document
    playtest: Any
    a_stop_playtest: QAction

    if TYPE_CHECKING:

        def ask(
            self, kind: str, title: str, text: str, buttons: Any = None, default: Any = None
        ) -> Any: ...

    def start_playtest(self) -> None:
        self.doc.recompile_now()
        dlg = PlaytestSetupDialog(self.doc.board, self if isinstance(self, QWidget) else None)
        if dlg.exec() != dlg.DialogCode.Accepted:
            return
        try:
            options = dlg.options()
        except BoardwrightError as exc:
            self.ask("critical", "Cannot start the playtest", str(exc))
            return
        self.begin_playtest(dlg.rules(), dlg.seed(), dlg.players(), options, dlg.bots())

    def begin_playtest(
        self,
        rules: str,
        seed: int,
        players: int,
        options: dict[str, Any] | None = None,
        bots: dict[int, str] | None = None,
    ) -> Any:
        """Start a playtest; ``bots`` maps seat indexes to bot specs (those seats play
        by themselves)."""
        from .playtest import PlaytestController

        self.stop_playtest()
        try:
            # the mixin is only ever mixed into the main window
            window = cast("EditorWindow", self)
            self.playtest = PlaytestController(window, rules, seed, players, options, bots)
        except BoardwrightError as exc:
            self.ask("critical", "Cannot start the playtest", str(exc))
            self.playtest = None
            return None
        self.a_stop_playtest.setEnabled(True)
        return self.playtest

    def stop_playtest(self) -> None:
        if self.playtest is not None:
            self.playtest.stop()
            self.playtest = None
        if hasattr(self, "a_stop_playtest"):
            self.a_stop_playtest.setEnabled(False)
