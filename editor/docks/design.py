"""The Design dock: ``referee design`` on the open board, in the background.

Search runs the annealing of :mod:`referee.design` on a copy of the board in a
worker thread (candidates in an in-memory store: nothing is written). Each layout
better than any before appears at the top of the list with a thumbnail (drawn in
the worker), its score, connected share and how many slots it changes. The chosen
candidate can be laid on this board (**Apply**, one undo step) or opened as a new
board (**Open as new board**, after the usual question about unsaved changes).
"""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

from PySide6.QtCore import QObject, QSize, QThread, Signal
from PySide6.QtGui import QIcon, QPixmap, QUndoCommand
from PySide6.QtWidgets import (
    QDockWidget,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from referee.compiler import compile_board
from referee.design import (
    Budget,
    Candidate,
    DesignResult,
    DesignStore,
    Objective,
    Searcher,
    Space,
    census_options,
    fixed_slots,
)
from referee.errors import BoardwrightError
from referee.model import Board

from ..document import Document
from ..live import Change

#: how many candidates the list keeps (the newest is the best)
KEEP = 8
THUMB_PX = 120


class ApplyLayoutCommand(QUndoCommand):
    """Lay ``cells`` (placement id -> (tile key, turns)) on the document's board."""

    def __init__(self, doc: Document, cells: dict[str, tuple[str, int]], text: str) -> None:
        super().__init__(text)
        self.doc = doc
        self.new = dict(cells)
        self.old = {}
        for pid in cells:
            p = doc.placement(pid)
            assert p is not None
            self.old[pid] = (p.tile, p.turns)

    def _lay(self, cells: dict[str, tuple[str, int]]) -> None:
        for pid, (tile, turns) in cells.items():
            p = self.doc.placement(pid)
            assert p is not None
            p.tile, p.turns = tile, turns
        self.doc.notify({f"p:{pid}" for pid in cells}, Change(full=True))

    def redo(self) -> None:
        self._lay(self.new)

    def undo(self) -> None:
        self._lay(self.old)


class DesignThread(QThread):
    """One search on a board copy; signals are queued to the GUI thread."""

    progressed = Signal(int, int, float)
    improved = Signal(object, bytes)  # Candidate, PNG thumbnail
    result_ready = Signal(object)  # DesignResult
    failed = Signal(str)

    def __init__(
        self, board: Board, objective: str, steps: int, seed: int, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.board, self.objective, self.steps, self.seed = board, objective, steps, seed
        self._stop = threading.Event()
        self.space: Space | None = None

    def stop(self) -> None:
        self._stop.set()

    def _progress(self, step: int, steps: int | None, *_: Any) -> None:
        self.progressed.emit(step, steps or 0, float(_[2]))
        time.sleep(0)  # hand the GIL to the GUI thread

    def _improved(self, c: Candidate) -> None:
        from referee.render import render_svg
        from referee.render.png import svg_to_png

        assert self.space is not None
        board = self.space.board_of(c.layout)
        png = svg_to_png(render_svg(board, compile_board(board), legend=False), THUMB_PX)
        self.improved.emit(c, png)
        time.sleep(0)

    def run(self) -> None:
        try:
            compiled = compile_board(self.board)
            opts = census_options(compiled)
            obj = Objective.parse(self.objective)
            self.space = Space.from_board(
                self.board,
                fixed_slots=fixed_slots(compiled, opts),
                turns_matter=obj.needs_paths,
            )
            self.space.check_free()
            with DesignStore(":memory:") as store:
                s = Searcher(self.space, compiled, opts, obj, store)
                res = s.run(
                    Budget(steps=self.steps),
                    seed=self.seed,
                    progress=self._progress,
                    stop=self._stop.is_set,
                    improved=self._improved,
                )
        except BoardwrightError as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.result_ready.emit(res)


class DesignDock(QDockWidget):
    """Search layouts of the open board (see the module notes)."""

    status_message = Signal(str)
    #: the user asked to open this board as a new document
    open_board = Signal(object)
    #: a search ended (finished, stopped or failed)
    run_finished = Signal()

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__("Design", parent)
        self.setObjectName("DesignDock")
        self.doc = doc
        self.thread_: DesignThread | None = None
        self.result: DesignResult | None = None
        self.found: list[Candidate] = []
        body = QWidget()
        lay = QVBoxLayout(body)
        form = QFormLayout()
        self.objective_edit = QLineEdit("connected")
        self.objective_edit.setToolTip(
            "weighted terms: connected, criticality, path-mean, path-spread "
            "(e.g. connected=1,criticality=0.5)"
        )
        self.budget = QSpinBox()
        self.budget.setRange(1, 1_000_000)
        self.budget.setValue(300)
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000)
        form.addRow("Objective", self.objective_edit)
        form.addRow("Candidates", self.budget)
        form.addRow("Seed", self.seed)
        lay.addLayout(form)
        row = QHBoxLayout()
        self.run_btn = QPushButton("Search")
        self.stop_btn = QPushButton("Stop")
        self.stop_btn.setEnabled(False)
        row.addWidget(self.run_btn)
        row.addWidget(self.stop_btn)
        lay.addLayout(row)
        self.status = QLabel("Search the layouts of this board's tiles")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.list = QListWidget()
        self.list.setIconSize(QSize(THUMB_PX, THUMB_PX))
        lay.addWidget(self.list, 1)
        row = QHBoxLayout()
        self.apply_btn = QPushButton("Apply to this board")
        self.open_btn = QPushButton("Open as new board")
        row.addWidget(self.apply_btn)
        row.addWidget(self.open_btn)
        lay.addLayout(row)
        self.setWidget(body)
        self.run_btn.clicked.connect(self.run)
        self.stop_btn.clicked.connect(self.stop)
        self.apply_btn.clicked.connect(self.apply_selected)
        self.open_btn.clicked.connect(self.open_selected)
        self.list.currentRowChanged.connect(lambda _: self._buttons())
        self._buttons()

    @property
    def running(self) -> bool:
        return self.thread_ is not None

    def _buttons(self) -> None:
        chosen = self.list.currentRow() >= 0
        self.run_btn.setEnabled(not self.running)
        self.stop_btn.setEnabled(self.running)
        self.apply_btn.setEnabled(chosen)
        self.open_btn.setEnabled(chosen)

    # ------------------------------------------------------------------ running
    def run(self) -> None:
        if self.running:
            return
        self.list.clear()
        self.found = []
        self.result = None
        self._board = copy.deepcopy(self.doc.board)
        t = DesignThread(
            self._board, self.objective_edit.text(), self.budget.value(), self.seed.value(), self
        )
        t.progressed.connect(self._on_progress)
        t.improved.connect(self._on_improved)
        t.result_ready.connect(self._on_result)
        t.failed.connect(self._on_failed)
        self.thread_ = t
        self.status.setText("Searching…")
        self._buttons()
        t.start()

    def stop(self) -> None:
        if self.thread_ is not None:
            self.thread_.stop()

    def shutdown(self) -> None:
        """Stop a running search and wait for its thread (the window is closing)."""
        if self.thread_ is not None:
            self.thread_.stop()
            self.thread_.wait()

    def _end(self) -> None:
        if self.thread_ is not None:
            self.thread_.wait()
            self.thread_.deleteLater()
        self.thread_ = None
        self._buttons()
        self.run_finished.emit()

    def _on_progress(self, step: int, steps: int, best: float) -> None:
        self.status.setText(f"Step {step}/{steps}, best {best:.4f}")

    def _on_improved(self, c: Candidate, png: bytes) -> None:
        pix = QPixmap()
        pix.loadFromData(png, "PNG")
        item = QListWidgetItem(QIcon(pix), self._label(c))
        self.list.insertItem(0, item)
        self.found.insert(0, c)
        while self.list.count() > KEEP:
            self.list.takeItem(self.list.count() - 1)
            self.found.pop()
        self._buttons()

    @staticmethod
    def _label(c: Candidate) -> str:
        m = c.measures
        return (
            f"score {c.score:.4f}\nconnected {100 * m.connected:.2f} %\n"
            f"{len(c.changes)} slot(s) changed"
        )

    def _on_result(self, res: DesignResult) -> None:
        self.result = res
        best = res.best[0] if res.best else None
        said = "stopped" if res.interrupted else "done"
        self.status.setText(
            f"{said}: {res.steps} steps, {res.measured} measured; start "
            f"{100 * res.base.measures.connected:.2f} % connected"
            + (f", best {100 * best.measures.connected:.2f} %" if best else "")
        )
        if self.list.count() and self.list.currentRow() < 0:
            self.list.setCurrentRow(0)
        self._end()

    def _on_failed(self, message: str) -> None:
        self.status.setText(message)
        self.status_message.emit(f"Design: {message}")
        self._end()

    # ------------------------------------------------------------------ using
    def chosen(self) -> Candidate | None:
        r = self.list.currentRow()
        return self.found[r] if 0 <= r < len(self.found) else None

    def _cells(self, c: Candidate) -> dict[str, tuple[str, int]] | None:
        ids = [p.id for p in self._board.placements]
        now = {p.id for p in self.doc.board.placements}
        if set(ids) - now or any(t not in self.doc.board.tiles for t, _ in c.layout):
            self.status_message.emit("Design: the board changed since the search; search again")
            return None
        return dict(zip(ids, c.layout))

    def apply_selected(self) -> None:
        c = self.chosen()
        cells = self._cells(c) if c is not None else None
        if c is None or cells is None:
            return
        changed = {pid: cell for pid, cell in cells.items() if pid in c.changes}
        self.doc.undo.push(
            ApplyLayoutCommand(self.doc, changed, f"Design: lay out {len(changed)} tile(s)")
        )
        self.status_message.emit(f"Laid out {len(changed)} tile(s); Undo takes it back")

    def open_selected(self) -> None:
        c = self.chosen()
        if c is None:
            return
        board = copy.deepcopy(self._board)
        for p, (tile, turns) in zip(board.placements, c.layout):
            p.tile, p.turns = tile, turns
        self.open_board.emit(board)
