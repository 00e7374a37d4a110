"""The Rotations dock: running the census, showing its answer, witnesses and legal turns."""

from __future__ import annotations

from collections.abc import Set
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QDesktopServices
from PySide6.QtWidgets import (
    QFileDialog,
    QLineEdit,
    QListWidgetItem,
    QTableWidgetItem,
    QWidget,
)

from referee.errors import BoardwrightError
from referee.model import Board
from referee.rotations import CensusResult, LegalTurns, Witness, legal_turns

from ...commands import TurnCommand
from ...document import Document
from ...items import tile_art
from .census import CensusOptions, CensusThread
from .formatting import STAGES, _names, fmt_classes, fmt_int
from .picking import EndpointPicker, display_names, resolve
from .report import report_text, write_report
from .tint import TINT, CriticalLegend, CriticalTint
from .widgets import ROW_ROLE, RotationsDockWidgets

if TYPE_CHECKING:
    from ...canvas import BoardScene, BoardView

#: how long after an edit a Live dock runs again (edits in a burst make one run)
LIVE_DELAY_MS = 600


class RotationsDock(RotationsDockWidgets):
    """The rotation analysis of the open board (see :mod:`editor.docks.rotations`).

    Parameters
    ----------
    doc : Document
    scene : BoardScene
        Where critical tiles are tinted and rows select tiles.
    view : BoardView
        Centred on a tile when its row is clicked.
    """

    status_message = Signal(str)
    #: A run ended (finished, stopped or failed) and the dock is ready for the next one.
    run_finished = Signal()

    def __init__(
        self, doc: Document, scene: BoardScene, view: BoardView, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.doc, self.scene, self.view = doc, scene, view
        self.result: CensusResult | None = None
        self.stale = False
        self.census_thread: CensusThread | None = None
        self._gen = 0  # bumped by every edit that invalidates results
        self._run_gen = 0
        self._snapshot: dict[str, tuple[str, float, float]] = {}
        self._varied: set[str] = set()
        self.tints: dict[str, CriticalTint] = {}
        #: the key of the tint, in the canvas' corner while tiles are tinted
        self.legend = CriticalLegend(view.viewport(), view)
        self.legal: LegalTurns | None = None
        self._connect()
        self.picker = EndpointPicker(
            doc,
            scene,
            view,
            self.status_message.emit,
            {"from": (self.from_pick, self.from_edit), "to": (self.to_pick, self.to_edit)},
        )
        #: Live: an edit starts a new run shortly after (one run at a time)
        self.live_timer = QTimer(self)
        self.live_timer.setSingleShot(True)
        self.live_timer.setInterval(LIVE_DELAY_MS)
        self.live_timer.timeout.connect(self._live_run)
        self._rerun = False
        self.live.toggled.connect(lambda on: self.live_timer.start() if on else None)
        doc.changed.connect(self._on_doc_changed)
        doc.compiled_changed.connect(self._on_compiled)
        scene.selectionChanged.connect(self._on_selection)
        self.toggleViewAction().toggled.connect(self._on_toggled)
        self.visibilityChanged.connect(self._on_visibility)

    def _connect(self) -> None:
        """Connect the widgets to what they do."""
        self.use_selection.clicked.connect(self._tiles_from_selection)
        self.run_btn.clicked.connect(self.run)
        self.stop_btn.clicked.connect(self.stop)
        self.load_unreachable.clicked.connect(lambda: self.load_witness("unreachable"))
        self.load_fewest.clicked.connect(lambda: self.load_witness("fewest"))
        self.report_btn.clicked.connect(self.save_report)
        self.table.cellClicked.connect(self._row_clicked)
        self.legal_list.itemDoubleClicked.connect(self._legal_double_clicked)

    def _tiles_from_selection(self) -> None:
        ids = sorted(k[2:] for k in self.scene.selected_keys() if k.startswith("p:"))
        self.tiles_edit.setText(", ".join(ids))
        if not ids:
            self.status_message.emit(
                "Select tiles on the canvas first (or leave Tiles empty for every turnable tile)"
            )

    # ------------------------------------------------------------------ options
    def options(self) -> CensusOptions:
        """The options as set in the dock."""

        def ids(edit: QLineEdit) -> list[str] | None:
            out = [s.strip() for s in edit.text().replace(";", ",").split(",") if s.strip()]
            return out or None

        self.doc.recompile_now()
        gal = self.galleries.currentText()
        sample = self.samples.value() if self.method.currentText() == "sample" else None
        return CensusOptions(
            resolve(self.doc.compiled, self.from_edit.text()),
            resolve(self.doc.compiled, self.to_edit.text()),
            ids(self.tiles_edit),
            None if gal == "none" else gal,
            self.spider.currentText(),
            sample,
            self.seed.value(),
        )

    # ------------------------------------------------------------------ running
    @property
    def running(self) -> bool:
        return self.census_thread is not None

    def refusal(self) -> str | None:
        """Why the census cannot run on the board as it is, in a designer's words (None:
        it can): errors on the board, or no start or goal to connect."""
        self.doc.recompile_now()
        c = self.doc.compiled
        errors = c.errors()
        if errors:
            shown = "; ".join(f"{p.code} at {p.location}" for p in errors[:3])
            more = f" and {len(errors) - 3} more" if len(errors) > 3 else ""
            n = len(errors)
            return (
                f"The board has {n} error{'s' if n != 1 else ''} — fix {'them' if n != 1 else 'it'}"
                f" first (see Problems): {shown}{more}"
            )
        g = c.graph
        if not self.from_edit.text().strip() and not any(
            d.get("start") == "white" for _n, d in g.nodes(data=True)
        ):
            return (
                "No start: the board has no white starting point. Press Pick beside From "
                "and click the point to start from."
            )
        if not self.to_edit.text().strip() and not any(
            d.get("goal") is True for _n, d in g.nodes(data=True)
        ):
            return (
                "No goal: the board has no goal point. Press Pick beside To and click the "
                "point to reach."
            )
        return None

    def run(self) -> None:
        """Start the census on a copy of the board as it is now (no-op while one runs);
        a board it cannot analyse is refused with the reason in the banner."""
        if self.census_thread is not None:
            return
        self.picker.end()
        why = self.refusal()
        if why is not None:
            self._set_banner(f"Cannot analyse: {why}", error=True)
            self.status_message.emit(f"Rotations: {why}")
            return
        board = self.doc.board.copy()
        opts = self.options()
        self._run_gen = self._gen
        self._snapshot = {p.id: (p.tile, p.x, p.y) for p in board.placements}
        self.census_thread = t = CensusThread(board, opts, self)
        t.progressed.connect(self._on_progress)
        t.result_ready.connect(self._on_result)
        t.failed.connect(self._on_failed)
        t.finished.connect(self._on_finished)
        self.run_btn.setEnabled(False)
        self.stop_btn.setEnabled(True)
        self.progress.setRange(0, 0)  # busy until the first tick
        self.progress.setFormat("starting…")
        self._set_banner("")
        t.start()

    def _live_run(self) -> None:
        if not self.live.isChecked() or self.picker.active is not None:
            return
        if self.census_thread is not None:
            self._rerun = True  # once this run ends
            return
        self.run()

    def stop(self) -> None:
        """Ask a running census to stop; it reports what it finished, marked partial."""
        if self.census_thread is not None:
            self.census_thread.stop()
            self.stop_btn.setEnabled(False)
            self.progress.setFormat("stopping…")

    def shutdown(self, wait_ms: int = 5000) -> None:
        """Stop a running census and wait for its thread (call before the window goes)."""
        t = self.census_thread
        if t is not None:
            t.stop()
            t.wait(wait_ms)
        self.clear_tints()

    def _on_progress(self, done: int, total: int, stage: str) -> None:
        if self.census_thread is None:
            return
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        if not self.census_thread.stopping:
            self.progress.setFormat(f"%p% · {STAGES.get(stage, stage)}")

    def _on_failed(self, message: str) -> None:
        # the census speaks the command line's words: say them as the dock names them
        for flag, field in (("--from", "From"), ("--to", "To"), ("--tiles", "Tiles")):
            message = message.replace(flag, field)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("failed")
        self._set_banner(f"Cannot analyse: {message}", error=True)
        self.status_message.emit(f"Rotations: {message}")

    def _on_finished(self) -> None:
        t = self.census_thread
        self.census_thread = None
        if t is not None:
            t.wait()  # finished is emitted just before run() returns
            t.board = Board()  # drop the copy now, not when Qt deletes the thread
            t.deleteLater()
        self.run_btn.setEnabled(True)
        self.stop_btn.setEnabled(False)
        if self._rerun and self.live.isChecked():
            self._rerun = False
            self.live_timer.start()
        self.run_finished.emit()

    def _on_result(self, res: CensusResult) -> None:
        self.result = res
        self._varied = {t.placement for t in res.tiles}
        self.stale = self._gen != self._run_gen
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if not res.partial else 0)
        self.progress.setFormat(f"{'stopped' if res.partial else 'done'} in {res.seconds:.2f} s")
        self._show_result()
        if res.partial:
            self.status_message.emit("Rotations: stopped; the answer shown is partial")
        else:
            self.status_message.emit(f"Rotations: done in {res.seconds:.2f} s")

    # ------------------------------------------------------------------ showing
    def _set_banner(self, text: str, error: bool = False) -> None:
        self.banner.setText(text)
        self.banner.setVisible(bool(text))
        bg, fg = ("#fdecea", "#8e1b13") if error else ("#fff4d6", "#6a4a00")
        self.banner.setStyleSheet(
            f"QLabel {{ background: {bg}; color: {fg}; "
            f"border: 1px solid {fg}; border-radius: 3px; padding: 4px; }}"
        )

    def _update_banner(self) -> None:
        res = self.result
        notes = []
        if self.stale:
            notes.append("<b>Stale</b>: the board changed since this run. Press Run again.")
        if res is not None and res.partial:
            miss = res.missing
            crit = sum(1 for m in miss if m.startswith("critical:"))
            parts = (
                (["the count"] if "count" in miss else [])
                + ([f"{crit} tiles' criticality"] if crit else [])
                + (["the fewest points"] if "fewest" in miss else [])
                + (["the sample"] if "sample" in miss else [])
            )
            notes.append(
                f"<b>Partial answer</b>: stopped before {', '.join(parts) or 'the end'} finished."
            )
        self._set_banner("<br>".join(notes))

    def figures_text(self) -> str:
        """The figures as shown (plain text, one line each)."""
        return self.figures.text().replace("<br>", "\n")

    def _show_result(self) -> None:
        res = self.result
        assert res is not None
        self._update_banner()
        self._grey(self.stale)
        lines = []
        n = len(res.tiles)
        lines.append(f"<b>{n}</b> tiles turn: <b>{fmt_int(res.total)}</b> distinct configurations")
        if res.success is not None:
            pct = 100.0 * res.success / res.total if res.total else 0.0
            lines.append(
                f"Connect: <b>{fmt_int(res.success)}</b> of {fmt_int(res.total)} "
                f"(<b>{pct:.2f} %</b>), {res.method}"
            )
        elif res.success_bounds is not None:
            lo, hi = res.success_bounds
            lines.append(
                f"Connect: between {fmt_int(lo)} and {fmt_int(hi)} of "
                f"{fmt_int(res.total)} (count stopped)"
            )
        elif res.estimate is not None and res.interval is not None:
            p_lo, p_hi = res.interval
            lines.append(
                f"Connect: ≈ <b>{100 * res.estimate:.2f} %</b> "
                f"(95 %: {100 * p_lo:.2f}–{100 * p_hi:.2f} %), "
                f"{fmt_int(res.samples or 0)} samples, seed {res.seed}"
            )
        else:
            lines.append("Connect: not counted (stopped)")
        shown = display_names(self.doc.compiled)
        lines.append(
            f"From {_names([shown.get(n, n) for n in res.sources])} → "
            f"{_names([shown.get(n, n) for n in res.targets])}; "
            f"spider {res.spider}; galleries {res.galleries or 'none'}"
        )
        w = []
        if res.unreachable is not None:
            w.append(f"unreachable goal: {res.unreachable.reachable_points} points reachable")
        elif res.success is not None and res.success == res.total:
            w.append("the goal is reachable in every configuration")
        if res.fewest is not None:
            w.append(f"fewest reachable points: {res.fewest.reachable_points}")
        if w:
            lines.append("; ".join(w).capitalize())
        for note in res.notes:
            lines.append(f"<i>{note}</i>")
        self.figures.setText("<br>".join(lines))
        self.load_unreachable.setEnabled(res.unreachable is not None)
        self.load_fewest.setEnabled(res.fewest is not None)
        self.report_btn.setEnabled(True)
        self._fill_table()
        self._show_tints()

    def _fill_table(self) -> None:
        res = self.result
        self.table.setRowCount(0)
        if res is None:
            return
        self.table.setRowCount(len(res.tiles))
        for r, t in enumerate(res.tiles):
            frac = t.decided_fraction
            probs = t.success_probability
            cells = [
                t.placement,
                "—" if frac is None else f"{100 * frac:.2f} %",
                fmt_classes(t.classes),
                "—"
                if probs is None
                else "  ".join(f"{c[0]}:{100 * p:.1f}%" for c, p in zip(t.classes, probs)),
            ]
            row_items = [QTableWidgetItem(text) for text in cells]
            row_items[0].setToolTip(
                f"{t.placement}: {t.turn_count} turns, now {t.current}; alike turns "
                f"{fmt_classes(t.classes)}"
                + (
                    ""
                    if t.decided is None
                    else f"; decides in {fmt_int(t.decided)} of {fmt_int(t.contexts or 0)} contexts"
                )
            )
            for c, it in enumerate(row_items):
                it.setData(ROW_ROLE, t.placement)
                if c == 3 and probs is not None:
                    it.setToolTip(
                        "Probability of connecting with the tile at each turn "
                        "and the others at random:\n"
                        + "\n".join(
                            f"turn {fmt_classes([cl])}: {100 * p:.2f} %"
                            for cl, p in zip(t.classes, probs)
                        )
                    )
                if c == 1:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    if frac:
                        a = int(30 + 150 * frac / self._max_fraction())
                        it.setBackground(QColor(*TINT, a))
                self.table.setItem(r, c, it)

    def _max_fraction(self) -> float:
        res = self.result
        if res is None:
            return 1.0
        return max([t.decided_fraction or 0.0 for t in res.tiles] + [1e-12])

    def save_report(self) -> Path | None:
        """Report…: the answer as Markdown, to a file the user names; then it is opened."""
        res = self.result
        if res is None:
            return None
        name = self.doc.board.name or "board"
        start = str(
            (self.doc.path.parent if self.doc.path else Path.home()) / f"{name}.rotations.md"
        )
        path, _ = QFileDialog.getSaveFileName(
            None, "Save the rotations report", start, "Markdown (*.md)"
        )
        if not path:
            return None
        cells = [[self.table.item(r, c) for c in range(4)] for r in range(self.table.rowCount())]
        rows = [[it.text() if it is not None else "" for it in row] for row in cells]
        text = report_text(
            name, self.figures_text().replace("<b>", "").replace("</b>", ""), rows, res
        )
        out = Path(path)
        try:
            write_report(out, text)
        except OSError as exc:
            self.status_message.emit(f"Cannot write {out}: {exc.strerror or exc}")
            return None
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(out)))
        self.status_message.emit(f"Saved the rotations report to {out}")
        return out

    def tile_rows(self) -> list[str]:
        """The placement ids in the table, top to bottom."""
        cells = (self.table.item(r, 0) for r in range(self.table.rowCount()))
        return [it.text() for it in cells if it is not None]

    # ------------------------------------------------------------------ canvas tint
    def clear_tints(self) -> None:
        for item in self.tints.values():
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.tints.clear()
        self.legend.hide()

    def _show_tints(self) -> None:
        self.clear_tints()
        res = self.result
        if res is None or self.stale or not self.toggleViewAction().isChecked():
            return
        top = self._max_fraction()
        for t in res.critical_tiles():
            p = self.doc.placement(t.placement)
            tile = self.doc.board.tiles.get(p.tile) if p is not None else None
            if p is None or tile is None:
                continue
            _, outline, _ = tile_art(tile)
            item = CriticalTint(
                outline,
                (t.decided_fraction or 0) / top,
                f"{100 * (t.decided_fraction or 0):.0f} %",
                self.scene.items_by_key.get(f"p:{p.id}"),
            )
            count = (
                f" ({t.decided:,} of {t.contexts:,})"
                if t.decided is not None and t.contexts
                else ""
            )
            item.setToolTip(
                f"{t.placement} decides the answer in "
                f"{100 * (t.decided_fraction or 0):.2f} % of the other tiles' "
                f"configurations{count}"
            )
            item.setPos(p.x, p.y)
            item.setRotation(360.0 * p.turns / tile.turn_count)
            self.scene.addItem(item)
            self.tints[t.placement] = item
        shown = [t for t in res.critical_tiles() if t.placement in self.tints]
        if shown:
            self.legend.show_for(
                [(t.placement, t.decided_fraction or 0.0, t.decided, t.contexts) for t in shown],
                [self.tints[t.placement].outline_in_scene() for t in shown],
            )

    def _on_toggled(self, shown: bool) -> None:
        if shown:
            self._show_tints()
        else:
            self.clear_tints()

    # ------------------------------------------------------------------ staleness
    def _only_turns_of_varied(self, keys: object) -> TypeGuard[Set[str]]:
        """True when an edit touched only tiles the last run varied, without moving them
        (so only their turns can have changed: the census ranges over those anyway)."""
        if not isinstance(keys, (set, frozenset)) or not keys or not self._varied:
            return False
        for k in keys:
            if not k.startswith("p:") or k[2:] not in self._varied:
                return False
            p = self.doc.placement(k[2:])
            if p is None or self._snapshot.get(p.id) != (p.tile, p.x, p.y):
                return False
        return True

    def _on_doc_changed(self, keys: object) -> None:
        if self.census_thread is None and self._only_turns_of_varied(keys):
            for k in keys:
                item = self.tints.get(k[2:])
                p = self.doc.placement(k[2:])
                if item is not None and p is not None:
                    item.setRotation(360.0 * p.turns / self.doc.board.tiles[p.tile].turn_count)
            return
        self._gen += 1
        if self.live.isChecked():
            self.live_timer.start()
        if self.result is not None and not self.stale:
            self.stale = True
            self._update_banner()
            self._grey(True)
        self.clear_tints()

    def _grey(self, on: bool) -> None:
        self.figures.setStyleSheet("QLabel { color: #777; }" if on else "")
        self.table.setStyleSheet("QTableWidget { color: #888; }" if on else "")

    def _on_compiled(self) -> None:
        # the legal turns depend on the neighbours: refresh after each (debounced) recompile
        if self.isVisible() and self.legal is not None:
            self._refresh_legal()

    # ------------------------------------------------------------------ rows and tiles
    def _row_clicked(self, row: int, _col: int) -> None:
        it = self.table.item(row, 0)
        if it is not None:
            self.select_tile(it.text())

    def select_tile(self, pid: str) -> bool:
        """Select the placement ``pid`` on the canvas and centre it; False if it is gone."""
        key = f"p:{pid}"
        item = self.scene.items_by_key.get(key)
        if item is None:
            self.status_message.emit(f"Tile {pid} is no longer on the board")
            return False
        self.scene.select_keys({key})
        self.view.centerOn(item)
        return True

    # ------------------------------------------------------------------ witnesses
    def load_witness(self, which: str) -> bool:
        """Turn the board's tiles to the ``"unreachable"`` or ``"fewest"`` configuration,
        as one undo step (a macro of turn commands). Returns True if anything turned."""
        res = self.result
        w: Witness | None = getattr(res, which, None) if res is not None else None
        if w is None:
            return False
        label = "goal unreachable" if which == "unreachable" else "fewest reachable points"
        moves: list[tuple[str, int]] = []
        missing = []
        for pid, target in sorted(w.turns.items()):
            p = self.doc.placement(pid)
            tile = self.doc.board.tiles.get(p.tile) if p is not None else None
            if p is None or tile is None:
                missing.append(pid)
                continue
            n = tile.turn_count
            d = (target - p.turns) % n
            if d:
                moves.append((pid, d - n if d > n // 2 else d))
        if missing:
            self.status_message.emit(
                f"Cannot load the {label} configuration: "
                f"{', '.join(missing)} no longer on the board"
            )
            return False
        if not moves:
            self.status_message.emit(f"The board already shows the {label} configuration")
            return False
        self.doc.undo.beginMacro(f"Load rotation witness: {label}")
        for pid, d in moves:
            self.doc.undo.push(TurnCommand(self.doc, [pid], d))
        self.doc.undo.endMacro()
        self.status_message.emit(
            f"Loaded the {label} configuration ({len(moves)} tiles turned; Undo restores them)"
        )
        return True

    # ------------------------------------------------------------------ legal turns
    def _on_selection(self) -> None:
        for item in self.tints.values():
            item.update()
        if self.isVisible():
            self._refresh_legal()

    def _selected_tile(self) -> str | None:
        try:
            keys = [k for k in self.scene.selected_keys() if k.startswith("p:")]
        except RuntimeError:
            return None
        return keys[0][2:] if len(keys) == 1 else None

    def _on_visibility(self, shown: bool) -> None:
        if shown:
            self._refresh_legal()

    def _refresh_legal(self) -> None:
        pid = self._selected_tile()
        self.legal_list.clear()
        self.legal = None
        if pid is None:
            self.legal_title.setText("Legal turns: select one tile")
            return
        self.show_legal(pid)

    def show_legal(self, pid: str) -> None:
        """List the legal turns of the placed tile ``pid`` and why the others are rejected."""
        self.doc.recompile_now()
        self.legal_list.clear()
        try:
            lt = legal_turns(self.doc.compiled, pid)
        except BoardwrightError as exc:
            self.legal = None
            self.legal_title.setText(f"Legal turns: {exc}")
            return
        self.legal = lt
        legal = ", ".join(map(str, lt.legal)) or "none"
        extra = "" if lt.turnable else " (a fixed tile)"
        self.legal_title.setText(f"Legal turns of {pid}{extra}: {legal}  (now {lt.current})")
        for v in lt.verdicts:
            head = (
                f"turn {v.turns}: "
                + ("legal" if v.legal else "rejected")
                + ("  ← now" if v.turns == lt.current else "")
            )
            it = QListWidgetItem(head)
            it.setData(ROW_ROLE, v.turns)
            it.setForeground(QBrush(QColor("#1b7a2f" if v.legal else "#a32015")))
            f = it.font()
            f.setBold(True)
            it.setFont(f)
            self.legal_list.addItem(it)
            for reason in v.reasons:
                child = QListWidgetItem(f"• {reason}")
                child.setData(ROW_ROLE, v.turns)
                self.legal_list.addItem(child)

    def legal_lines(self) -> list[str]:
        """The legal-turns list as shown, one line per item."""
        return [self.legal_list.item(i).text() for i in range(self.legal_list.count())]

    def _legal_double_clicked(self, item: QListWidgetItem) -> None:
        turns = item.data(ROW_ROLE)
        lt = self.legal
        if turns is None or lt is None or not lt.turnable:
            return
        p = self.doc.placement(lt.placement)
        if p is None:
            return
        d = (int(turns) - p.turns) % lt.turn_count
        if d:
            self.doc.undo.push(
                TurnCommand(
                    self.doc, [lt.placement], d - lt.turn_count if d > lt.turn_count // 2 else d
                )
            )
