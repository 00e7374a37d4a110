"""The Design dock: ``referee design`` on the open board, in the background.

Search runs the annealing of :mod:`referee.design` on a copy of the board in a
worker thread. Each layout better than any before appears at the top of the list
with a thumbnail (drawn in the worker), its score, connected share and how many
slots it changes. The chosen candidate can be laid on this board (**Apply**, one
undo step, embedding the pack tiles it uses) or opened as a new board (**Open as
new board**, after the usual question about unsaved changes).

What ``referee design`` takes on its command line, the dock takes in its form: the
objective (``min-distance=N`` among the terms), the number of candidates, the seed,
a **pack** whose tiles may come in (``--pack``) with **counts** (``--count``), a
**symmetry**, and a **database**: empty keeps the candidates in memory (nothing is
written); a file keeps every measured candidate there, as ``--db`` does, so a later
search of the same board with the same seed measures nothing again. **Resume**
continues the last search recorded in that file for this board: its objective and
seed, for as many candidates more as the form asks.
"""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

from PySide6.QtCore import QObject, QSize, QThread, Signal
from PySide6.QtGui import QIcon, QPixmap, QUndoCommand
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFileDialog,
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

from referee.assets import AssetPack
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
from referee.design.search import describe_space
from referee.design.store import space_key
from referee.design.symmetry import SYMMETRIES
from referee.errors import BoardwrightError
from referee.images import ImageInfo
from referee.model import Board, TileAsset

from ..document import Document
from ..live import Change

#: how many candidates the list keeps (the newest is the best)
KEEP = 8
THUMB_PX = 120


class ApplyLayoutCommand(QUndoCommand):
    """Lay ``cells`` (placement id -> (tile key, turns)) on the document's board,
    embedding ``tiles`` it does not hold yet (pack tiles) with their ``faces``."""

    def __init__(
        self,
        doc: Document,
        cells: dict[str, tuple[str, int]],
        text: str,
        tiles: dict[str, TileAsset] | None = None,
        faces: list[tuple[ImageInfo, bytes]] | None = None,
    ) -> None:
        super().__init__(text)
        self.doc = doc
        self.new = dict(cells)
        self.old = {}
        for pid in cells:
            p = doc.placement(pid)
            assert p is not None
            self.old[pid] = (p.tile, p.turns)
        self.tiles = {k: t for k, t in (tiles or {}).items() if k not in doc.board.tiles}
        self.faces = [f for f in faces or [] if f[0].id not in doc.board.images]

    def _lay(self, cells: dict[str, tuple[str, int]]) -> None:
        for pid, (tile, turns) in cells.items():
            p = self.doc.placement(pid)
            assert p is not None
            p.tile, p.turns = tile, turns
        self.doc.notify({f"p:{pid}" for pid in cells}, Change(full=True))

    def redo(self) -> None:
        b = self.doc.board
        b.tiles.update(self.tiles)
        for info, data in self.faces:
            b.images.register(info, data)
        self._lay(self.new)

    def undo(self) -> None:
        b = self.doc.board
        self._lay(self.old)
        for key in self.tiles:
            b.tiles.pop(key, None)
        for info, _ in self.faces:
            b.images.remove(info.id)
        if self.tiles:
            self.doc.notify(set(), Change(full=True))


class Settings:
    """What one search is asked for (the dock's form)."""

    def __init__(
        self,
        objective: str,
        steps: int,
        seed: int,
        pack: AssetPack | None = None,
        counts: str = "",
        symmetry: str = "none",
        db: str = "",
    ) -> None:
        self.objective, self.steps, self.seed = objective, steps, seed
        self.pack, self.counts, self.symmetry, self.db = pack, counts, symmetry, db

    def space(self, board: Board) -> tuple[Any, Any, Objective, Space]:
        """(compiled board, census options, objective, space) of ``board``."""
        compiled = compile_board(board)
        opts = census_options(compiled)
        obj = Objective.from_description(self.objective)
        space = Space.from_board(
            board,
            fixed_slots=fixed_slots(compiled, opts),
            turns_matter=obj.needs_paths,
            symmetry=self.symmetry,
            pack=self.pack,
            counts=[c for c in self.counts.split(",") if c.strip()],
        )
        return compiled, opts, obj, space


class DesignThread(QThread):
    """One search on a board copy; signals are queued to the GUI thread."""

    progressed = Signal(int, int, float)
    improved = Signal(object, bytes)  # Candidate, PNG thumbnail
    result_ready = Signal(object)  # DesignResult
    failed = Signal(str)

    def __init__(self, board: Board, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.board, self.settings = board, settings
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
        st = self.settings
        try:
            compiled, opts, obj, self.space = st.space(self.board)
            self.space.check_free()
            with DesignStore(st.db or ":memory:") as store:
                s = Searcher(self.space, compiled, opts, obj, store)
                res = s.run(
                    Budget(steps=st.steps),
                    seed=st.seed,
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

    def __init__(
        self,
        doc: Document,
        parent: QWidget | None = None,
        packs: dict[str, AssetPack] | None = None,
    ) -> None:
        super().__init__("Design", parent)
        self.setObjectName("DesignDock")
        self.doc = doc
        self.packs: dict[str, AssetPack] = {}
        self.thread_: DesignThread | None = None
        self.result: DesignResult | None = None
        self.found: list[Candidate] = []
        body = QWidget()
        lay = QVBoxLayout(body)
        form = QFormLayout()
        self.objective_edit = QLineEdit("connected")
        self.objective_edit.setToolTip(
            "weighted terms: connected, criticality, path-mean, path-spread "
            "(e.g. connected=1,criticality=0.5), and min-distance=N"
        )
        self.budget = QSpinBox()
        self.budget.setRange(1, 1_000_000)
        self.budget.setValue(300)
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000)
        self.pack_box = QComboBox()
        self.pack_box.setToolTip("also try this pack's tiles in slots of their outline")
        self.counts_edit = QLineEdit()
        self.counts_edit.setPlaceholderText("TILE=N, … (no limit)")
        self.counts_edit.setToolTip("at most N slots hold this pack tile (as --count)")
        self.symmetry_box = QComboBox()
        self.symmetry_box.addItems(["none", *SYMMETRIES])
        self.db_edit = QLineEdit()
        self.db_edit.setPlaceholderText("in memory (nothing written)")
        self.db_edit.setToolTip(
            "a candidates database: every measured layout is kept there, a search "
            "with the same seed continues, Resume continues the last one"
        )
        self.db_btn = QPushButton("…")
        self.db_btn.setToolTip("choose a candidates database")
        db_row = QHBoxLayout()
        db_row.addWidget(self.db_edit, 1)
        db_row.addWidget(self.db_btn)
        form.addRow("Objective", self.objective_edit)
        form.addRow("Candidates", self.budget)
        form.addRow("Seed", self.seed)
        form.addRow("Pack", self.pack_box)
        form.addRow("Counts", self.counts_edit)
        form.addRow("Symmetry", self.symmetry_box)
        form.addRow("Database", db_row)
        lay.addLayout(form)
        row = QHBoxLayout()
        self.run_btn = QPushButton("Search")
        self.resume_btn = QPushButton("Resume")
        self.resume_btn.setToolTip(
            "continue the last search of this board stored in the database "
            "(its objective and seed) for as many candidates more"
        )
        self.stop_btn = QPushButton("Stop")
        self.stop_btn.setEnabled(False)
        row.addWidget(self.run_btn)
        row.addWidget(self.resume_btn)
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
        self.resume_btn.clicked.connect(self.resume)
        self.db_btn.clicked.connect(self.choose_db)
        self.db_edit.textChanged.connect(lambda _: self._buttons())
        self.pack_box.currentIndexChanged.connect(lambda _: self._buttons())
        self.stop_btn.clicked.connect(self.stop)
        self.apply_btn.clicked.connect(self.apply_selected)
        self.open_btn.clicked.connect(self.open_selected)
        self.list.currentRowChanged.connect(lambda _: self._buttons())
        self.set_packs(packs or {})
        self._buttons()

    def set_packs(self, packs: dict[str, AssetPack]) -> None:
        """The packs the Pack box offers (the window's loaded packs)."""
        self.packs = packs
        chosen = self.pack_box.currentData()
        self.pack_box.clear()
        self.pack_box.addItem("none", None)
        for key in sorted(packs):
            self.pack_box.addItem(f"{packs[key].name} ({key})", key)
        at = self.pack_box.findData(chosen)
        self.pack_box.setCurrentIndex(max(at, 0))

    def choose_db(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Candidates database",
            self.db_edit.text() or "design.sqlite",
            "SQLite (*.sqlite *.db);;All files (*)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if path:
            self.db_edit.setText(path)

    def settings(self, **over: Any) -> Settings:
        """The form as a :class:`Settings` (``over`` replaces fields)."""
        key = self.pack_box.currentData()
        kw: dict[str, Any] = {
            "objective": self.objective_edit.text(),
            "steps": self.budget.value(),
            "seed": self.seed.value(),
            "pack": self.packs.get(key) if key else None,
            "counts": self.counts_edit.text() if key else "",
            "symmetry": self.symmetry_box.currentText(),
            "db": self.db_edit.text().strip(),
        }
        kw.update(over)
        return Settings(**kw)

    @property
    def running(self) -> bool:
        return self.thread_ is not None

    def _buttons(self) -> None:
        chosen = self.list.currentRow() >= 0
        self.run_btn.setEnabled(not self.running)
        self.resume_btn.setEnabled(not self.running and bool(self.db_edit.text().strip()))
        self.counts_edit.setEnabled(self.pack_box.currentData() is not None)
        self.stop_btn.setEnabled(self.running)
        self.apply_btn.setEnabled(chosen)
        self.open_btn.setEnabled(chosen)

    # ------------------------------------------------------------------ running
    def run(self, settings: Settings | None = None) -> None:
        if self.running:
            return
        st = settings if isinstance(settings, Settings) else self.settings()
        self.list.clear()
        self.found = []
        self.result = None
        self._board = copy.deepcopy(self.doc.board)
        t = DesignThread(self._board, st, self)
        t.progressed.connect(self._on_progress)
        t.improved.connect(self._on_improved)
        t.result_ready.connect(self._on_result)
        t.failed.connect(self._on_failed)
        self.thread_ = t
        self.status.setText("Searching…")
        self._buttons()
        t.start()

    def resume(self) -> None:
        """Continue the last search of this board stored in the database (its
        objective and seed) for as many candidates more as the form asks."""
        if self.running:
            return
        st = self.settings()
        if not st.db:
            return
        try:
            compiled, opts, _obj, space = st.space(self.doc.board)
            with DesignStore(st.db) as store:
                last = store.last_run(space_key(describe_space(space, compiled, opts)))
        except BoardwrightError as exc:
            self._say(str(exc))
            return
        if last is None:
            self._say(f"No search of this board is stored in {st.db}; press Search to start one")
            return
        self.objective_edit.setText(str(last["objective"]))
        self.seed.setValue(int(last["seed"]))
        steps = int(last["steps"]) + self.budget.value()
        self.run(self.settings(steps=steps))
        self.status.setText(f"Resuming seed {last['seed']} from step {last['steps']}…")

    def _say(self, message: str) -> None:
        self.status.setText(message)
        self.status_message.emit(f"Design: {message}")

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
            + (f"\nmisses the constraints by {c.violation}" if c.violation else "")
        )

    def _on_result(self, res: DesignResult) -> None:
        self.result = res
        best = res.best[0] if res.best else None
        said = "stopped" if res.interrupted else "done"
        self.status.setText(
            f"{said}: {res.steps} steps, {res.measured} measured, {res.cached} from the "
            "store; start "
            f"{100 * res.base.measures.connected:.2f} % connected"
            + (f", best {100 * best.measures.connected:.2f} %" if best else "")
            + (
                f"; no layout found meets the constraints, the closest misses by "
                f"{best.violation} (steps short of the distance plus slots out of symmetry)"
                if best is not None and best.violation
                else ""
            )
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
        if set(ids) - now:
            self.status_message.emit("Design: the board changed since the search; search again")
            return None
        return dict(zip(ids, c.layout))

    def _laid(self, c: Candidate) -> Board:
        """The candidate's board (pack tiles embedded), from the searched copy."""
        space = self.result.space if self.result is not None else None
        if space is None and self.thread_ is not None:
            space = self.thread_.space
        if space is not None:
            return space.board_of(c.layout)
        board = copy.deepcopy(self._board)
        for p, (tile, turns) in zip(board.placements, c.layout):
            p.tile, p.turns = tile, turns
        return board

    def apply_selected(self) -> None:
        c = self.chosen()
        cells = self._cells(c) if c is not None else None
        if c is None or cells is None:
            return
        changed = {pid: cell for pid, cell in cells.items() if pid in c.changes}
        laid = self._laid(c)
        used = {t for t, _ in changed.values()}
        tiles = {k: laid.tiles[k] for k in used if k not in self.doc.board.tiles}
        faces = [
            (laid.images.info(t.face), laid.images.data(t.face))
            for t in tiles.values()
            if t.face and t.face in laid.images and t.face not in self.doc.board.images
        ]
        self.doc.undo.push(
            ApplyLayoutCommand(
                self.doc, changed, f"Design: lay out {len(changed)} tile(s)", tiles, faces
            )
        )
        self.status_message.emit(f"Laid out {len(changed)} tile(s); Undo takes it back")

    def open_selected(self) -> None:
        c = self.chosen()
        if c is None:
            return
        self.open_board.emit(copy.deepcopy(self._laid(c)))
