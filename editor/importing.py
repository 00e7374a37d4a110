"""File ▸ Import from another tool: Tiled maps, GeoJSON and graphs (:mod:`referee.importers`).

The file's format is guessed from its name and first bytes
(:func:`referee.importers.guess_format`), and asked when it cannot be. A file larger
than :data:`BIG_BYTES` is read in a worker thread behind a progress dialog that can
cancel it. A refused file shows every problem, one line each, and changes nothing.
An imported board opens as a new document when the window holds an empty, unchanged
board; otherwise the user chooses: add it to this board (one undo step,
:class:`~editor.commands.import_board.ImportBoardCommand`) or open it as a new
board. What the format could not carry is said, one line per kind.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEventLoop, QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QProgressDialog

from referee.errors import BoardwrightError
from referee.importers import IMPORTERS, ImportRefused, ImportResult, guess_format, import_board

from .commands.import_board import ImportBoardCommand
from .files import check_writable
from .window_protocol import menu_named

if TYPE_CHECKING:
    from .window_protocol import EditorWindow

#: files larger than this (bytes) are read behind a progress dialog
BIG_BYTES = 1 << 20


class ImportCancelled(Exception):
    """The user cancelled the progress dialog (raised inside the import's progress calls)."""


def file_filter() -> str:
    """The file dialog's filter: one entry per importer, from the registry."""
    suffixes = sorted({s for i in IMPORTERS.values() for s in i.suffixes})
    parts = [f"Boards from other tools ({' '.join('*' + s for s in suffixes)})"]
    parts += [f"{i.description} (*{' *'.join(i.suffixes)})" for i in IMPORTERS.values()]
    return ";;".join([*parts, "All files (*)"])


class ImportUI(QObject):
    """Installs File ▸ Import from Tiled, GeoJSON or a graph… in ``win``."""

    def __init__(self, win: EditorWindow) -> None:
        super().__init__(win.window())
        self.win = win
        self.a_import = win.make_action(
            "Import from &Tiled, GeoJSON or a graph…",
            self.import_file,
            None,
            "Read a Tiled map, a GeoJSON file or a graph (node-link, GraphML) as a board",
        )
        menu_named(win, "File").insertAction(win.a_export, self.a_import)

    # ------------------------------------------------------------------ dialogs
    def choose_file(self) -> str:
        start = str(self.win.settings.value("files/last_import_dir", "") or "")
        path, _ = QFileDialog.getOpenFileName(
            self.win.window(), "Import a board", start, file_filter()
        )
        if path:
            self.win.settings.setValue("files/last_import_dir", str(Path(path).parent))
        return str(path or "")

    def choose_format(self, path: str) -> str | None:
        names = list(IMPORTERS)
        name, ok = QInputDialog.getItem(
            self.win.window(), "Import a board", f"What is {Path(path).name}?", names, 0, False
        )
        return str(name) if ok else None

    # ------------------------------------------------------------------ importing
    def import_file(self, path: str | None = None, fmt: str | None = None) -> ImportResult | None:
        """Import ``path`` (asked when None) as ``fmt`` (guessed when None); the result,
        or None when it was refused or cancelled."""
        path = path or self.choose_file()
        if not path:
            return None
        fmt = fmt or guess_format(path) or self.choose_format(path)
        if fmt is None:
            return None
        try:
            result = self.read(fmt, path)
            if result is None:
                self.win.status("Import cancelled; nothing was changed")
                return None
            check_writable(result.board)
        except ImportRefused as exc:
            self.win.ask(
                "critical", "Cannot import", "\n".join(exc.problems) + "\n\nNothing was changed."
            )
            return None
        except BoardwrightError as exc:
            self.win.ask("critical", "Cannot import", f"{exc}\n\nNothing was changed.")
            return None
        self.place(result)
        return result

    def read(self, fmt: str, path: str) -> ImportResult | None:
        """Run the import; behind a progress dialog in a worker thread for big files."""
        try:
            size = Path(path).stat().st_size
        except OSError:
            size = 0
        if size <= BIG_BYTES:
            return import_board(fmt, path)
        dialog = QProgressDialog(f"Reading {Path(path).name}…", "Cancel", 0, 100, self.win.window())
        dialog.setWindowTitle("Import a board")
        dialog.setMinimumDuration(0)
        state: dict[str, Any] = {"done": 0, "total": 1, "result": None, "error": None}
        cancel = threading.Event()

        def progress(done: int, total: int) -> None:
            if cancel.is_set():
                raise ImportCancelled
            state["done"], state["total"] = done, max(1, total)

        def work() -> None:
            try:
                state["result"] = import_board(fmt, path, progress=progress)
            except ImportCancelled:
                pass
            except BaseException as exc:  # handed to the main thread, raised there
                state["error"] = exc

        worker = threading.Thread(target=work, name="boardwright-import", daemon=True)
        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(50)

        def tick() -> None:
            if dialog.wasCanceled():
                cancel.set()
            dialog.setValue(min(99, int(100 * state["done"] / state["total"])))
            if not worker.is_alive():
                loop.quit()

        timer.timeout.connect(tick)
        worker.start()
        timer.start()
        loop.exec()
        timer.stop()
        worker.join()
        dialog.close()
        if state["error"] is not None:
            raise state["error"]
        if cancel.is_set():
            return None
        result: ImportResult | None = state["result"]
        return result

    def place(self, result: ImportResult) -> None:
        """Open the imported board, or add it to this one (see the module's notes)."""
        win, doc = self.win, self.win.doc
        name = Path(result.source).name
        empty = not doc.board.features and not doc.board.placements and not doc.modified
        B = QMessageBox.StandardButton
        if not empty:
            ans = win.ask(
                "question",
                "Import a board",
                f"Add the board of {name} to this board?\n\nYes: add it (one step to undo). "
                "No: open it as a new board.",
                B.Yes | B.No | B.Cancel,
                B.Yes,
            )
            if ans == B.Cancel:
                return
            if ans == B.Yes:
                doc.undo.push(ImportBoardCommand(doc, result.board, f"Import {name}"))
                self._said(result, f"Added {name}")
                return
            if not win.maybe_save():
                return
        win.set_board(result.board, None)
        self._said(result, f"Imported {name}; Save As to keep it as a project")

    def _said(self, result: ImportResult, done: str) -> None:
        if result.lost:
            self.win.ask(
                "information",
                "Import a board",
                f"{done}. What {result.format} could not carry:\n\n" + "\n".join(result.lost),
            )
        self.win.status(done)
